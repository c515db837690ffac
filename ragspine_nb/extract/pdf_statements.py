"""Primary financial statements among a filing's tables, and their precedence.

A 10-K states "Net sales" in the income statement, in the selected financial data, in
each segment's table and in the quarterly data; the table pipeline files each as the
company's revenue when the table's titles name no segment it knows. Inside one document
the same fact stated with two amounts is withheld altogether, so the consolidated
figure would be lost to a segment's. The consolidated statements are the filing's own
answer for the company as a whole: when a fact's identity is stated by a primary
statement (named from its title: income statement, balance sheet, cash flows,
comprehensive income, equity), that statement's cell is kept and a different amount
from another table is left out with a reason naming both cells.

A filing may hold more than one statement of a kind: the summarized statements of a
guarantor ("Statement of Income for Obligor Group"), a closed group's ("Deed of Cross
Guarantee") or the parent company's. They state the same rows for another reporting
entity. When primary statements disagree on a fact, the one the rest of the filing
corroborates wins: the statement more of whose figures other tables restate with the
same amount (the MD&A, the segment note and the selected data repeat the consolidated
figures, never a guarantor group's); the statement it outranks gives no fact at all,
not even for rows the winner lacks. A tie keeps both (the document then gives no single
number for the rows they dispute, and the ingest withholds them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine_nb.core import Fact
from ragspine_nb.extract.tables import Skip

__all__ = ["statement_kind", "prefer_statements", "corroboration", "STATEMENT_KINDS"]

_STATEMENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("comprehensive_income", re.compile(r"statements? of comprehensive (?:income|loss)")),
    ("income", re.compile(r"statements? of (?:consolidated )?(?:income|operations|earnings)"
                          r"|income statements?|profit and loss")),
    ("balance_sheet", re.compile(r"balance sheets?|statements? of financial position"
                                 r"|statements? of financial condition")),
    ("cash_flow", re.compile(r"statements? of cash flows?|cash flows? statements?")),
    ("equity", re.compile(r"statements? of (?:changes in )?(?:shareholders'?|stockholders'?"
                          r"|share ?owners'?)? ?equity")),
)
#: The statements :func:`statement_kind` names.
STATEMENT_KINDS: tuple[str, ...] = tuple(k for k, _ in _STATEMENTS)


def statement_kind(titles: Sequence[str]) -> str:
    """The primary statement a table's titles name (``""``: none).

    Examples
    --------
    >>> statement_kind(["Consolidated Statement of Cash Flows", "3M Company"])
    'cash_flow'
    >>> statement_kind(["CONSOLIDATED BALANCE SHEETS"]), statement_kind(["Net sales by segment"])
    ('balance_sheet', '')
    """
    text = " ".join(" ".join(titles).lower().replace("’", "'").split())
    text = re.sub(r"(?<=[a-z]) (?=[a-z]\b)", "", text)  # "Incom e": a split glyph run
    for kind, pattern in _STATEMENTS:
        if pattern.search(text):
            return kind
    return ""


def _differs(a: Fact, b: Fact) -> bool:
    """Whether two facts of one identity state another amount (value or unit)."""
    return (a.value, a.unit) != (b.value, b.unit)


def _not_balances(kind: str, facts: Sequence[Fact], balances: dict[tuple[str, ...], Fact],
                  skipped: list[Skip]) -> list[Fact]:
    """A cash flow statement's facts without the rows the balance sheet states as balances.

    "Merchandise inventories (194)" in the cash flows is the change in the balance the
    balance sheet states as 5,409: one row name, two things. A cash flow row stating
    another amount than the balance sheet for a year both show is left out for every
    year (one the balance sheet does not show included) with a reason, never filed as a
    balance; a row agreeing with it ("cash at end of year") is kept.
    """
    if kind != "cash_flow":
        return list(facts)
    # rows that state another amount than the balance sheet for a year both show: changes
    changes = {(b.metric_code, b.entity, b.channel): b for f in facts
               if (b := balances.get(f.identity)) is not None and _differs(b, f)}
    kept = []
    for f in facts:
        b = changes.get((f.metric_code, f.entity, f.channel))
        if b is not None:
            skipped.append(Skip(f.source_locator, (
                f"the cash flow statement's {f.value:g} {f.unit} is a change in the balance "
                f"the balance sheet states (as {b.value:g} {b.unit} at {b.source_locator}); "
                "the balance sheet's rows are kept")))
        else:
            kept.append(f)
    return kept


def corroboration(tables: Sequence[Sequence[Fact]]) -> list[int]:
    """For each table, how many of its facts another table states with the same amount.

    Examples
    --------
    >>> from ragspine_nb.core import Fact
    >>> def fact(value, where):
    ...     return Fact("REVENUE", "ACME", "ALL", "TOTAL", "FY", "2023", value, "USD_M",
    ...                 "10k.pdf", where)
    >>> corroboration([[fact(14694.0, "p50")], [fact(1071.0, "p38")], [fact(14694.0, "p32")]])
    [1, 0, 1]
    """
    holders: dict[tuple[object, ...], set[int]] = {}
    for i, facts in enumerate(tables):
        for f in facts:
            holders.setdefault((*f.identity, f.value, f.unit), set()).add(i)
    return [sum(len(holders[(*f.identity, f.value, f.unit)]) > 1 for f in facts)
            for facts in tables]


def _outranked(tables: Sequence[tuple[str, Sequence[Fact]]]) -> dict[int, tuple[Fact, Fact]]:
    """Primary statements that contradict a better-corroborated one, with the contradiction.

    Maps a table's index to ``(its cell, the better statement's cell)`` for one row both
    state differently. Only statements of one kind are compared: the cash flows' "Loss
    on divestitures" add-back may differ from the income statement's line of that name
    without either being another entity's. A tie between the best two decides nothing.
    """
    score = corroboration([facts for _, facts in tables])
    by_identity: dict[tuple[str, ...], list[tuple[int, Fact]]] = {}
    for i, (kind, facts) in enumerate(tables):
        for f in facts if kind else ():
            by_identity.setdefault((kind, *f.identity), []).append((i, f))
    out: dict[int, tuple[Fact, Fact]] = {}
    for stated in by_identity.values():
        ranked = sorted(stated, key=lambda t: -score[t[0]])
        best_i, best = ranked[0]
        for i, f in ranked[1:]:
            if _differs(best, f) and score[i] < score[best_i] and best_i not in out:
                out.setdefault(i, (f, best))
    return out


def _statement_facts(tables: Sequence[tuple[str, Sequence[Fact]]], skipped: list[Skip]
                     ) -> list[Fact]:
    """Every primary statement's facts but those of a statement another one outranks.

    A statement that states a row differently from a better-corroborated statement of
    the filing is another reporting entity's (a guarantor group, a closed group, the
    parent alone): none of its cells is the company's, the rows the consolidated
    statement lacks ("Inventories" of the closed group's balance sheet) included.
    """
    outranked = _outranked(tables)
    kept: list[Fact] = []
    for i, (kind, facts) in enumerate(tables):
        if kind and i not in outranked:
            kept += facts
        elif kind:
            mine, best = outranked[i]
            skipped.extend(Skip(f.source_locator, (
                f"this {kind.replace('_', ' ')} statement is another reporting entity's or "
                f"a summary: it states {mine.value:g} {mine.unit} at {mine.source_locator} "
                f"where the statement at {best.source_locator}, which other tables of the "
                f"filing restate, states {best.value:g} {best.unit}; none of its cells is "
                "filed")) for f in facts)
    return kept


def prefer_statements(tables: Sequence[tuple[str, Sequence[Fact]]]
                      ) -> tuple[list[Fact], list[Skip]]:
    """Every table's facts, a primary statement's first; others that contradict it left out.

    ``tables`` are ``(statement kind, facts)`` in document order. Facts of primary
    statements come first (a repeated fact then cites the statement); a fact from
    another table with the same identity and a different value or unit is skipped.
    Primary statements that disagree are ranked by :func:`corroboration`.
    """
    balances: dict[tuple[str, ...], Fact] = {
        f.identity: f for kind, facts in tables if kind == "balance_sheet" for f in facts}
    skipped: list[Skip] = []
    tables = [(kind, _not_balances(kind, facts, balances, skipped)) for kind, facts in tables]
    first = _statement_facts(tables, skipped)
    stated: dict[tuple[str, ...], Fact] = {}
    for f in first:
        stated.setdefault(f.identity, f)
    rest: list[Fact] = []
    for kind, facts in tables:
        if not kind:
            rest += _agreeing(facts, stated, skipped)
    return first + rest, skipped


def _row_of(fact: Fact) -> str:
    """The table row a fact was read from: its locator without the column.

    >>> from ragspine_nb.core import Fact
    >>> _row_of(Fact("GOODWILL", "A", "ALL", "TOTAL", "FY", "2022", 16.0, "USD_M", "q.pdf",
    ...              "page=13,table=1,row=GOODWILL,col=FY2022"))
    'page=13,table=1,row=GOODWILL'
    """
    return fact.source_locator.split(",col=", 1)[0]


def _agreeing(facts: Sequence[Fact], stated: dict[tuple[str, ...], Fact],
              skipped: list[Skip]) -> list[Fact]:
    """A table's facts but its rows that state another amount than a primary statement.

    Such a row is another thing than the statement's line of that name (a change in the
    balance — an MD&A cash flow table's "Accounts receivable (105)" beside the balance
    sheet's 4,532 — a part of the company, held for sale, another scale): it is left out
    for every year and column, one the statement does not show included, never filed as
    the line.
    """
    contradicted: dict[str, Fact] = {}
    for f in facts:
        s = stated.get(f.identity)
        if s is not None and _differs(s, f):
            contradicted.setdefault(_row_of(f), s)
    kept = []
    for f in facts:
        s = contradicted.get(_row_of(f))
        if s is None:
            kept.append(f)
            continue
        skipped.append(Skip(f.source_locator, (
            f"states {f.value:g} {f.unit} where the primary statement at {s.source_locator} "
            f"states {s.value:g} {s.unit} for this row's name; the statement's cells are "
            "kept and this row is left out for every year (it is not the company's line: "
            "a change in a balance, a segment's, or another scale)")))
    return kept
