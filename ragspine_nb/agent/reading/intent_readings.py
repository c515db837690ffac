"""What a question's rows were read as, and the readings for metrics without figures.

:class:`Rows` is what a question was read to name. The steps below belong to
:class:`~ragspine_nb.agent.reading.intent_rows.RowReader` (pure reads of one profile's names and
the metrics with figures):

* :func:`no_total_beside` — "the total amount of audit fees": a row found only as
  "total" plus another written row's words ("Total fees") is not a second row asked;
* :func:`qualified_by` — "sales in Germany": a metric without figures written beside the
  one row with figures that qualifies it asks for that row;
* :func:`row_and_column` — "the number of shares outstanding": a row with figures and a
  named column explaining a built-in name without figures ask for that cell;
* :func:`movement_of` — "the number of non-vested shares granted": a roll-forward's
  balance row ("Non-vested at December 31, 2018") named with one of its movements
  ("Granted") asks for the movement.

Each reading is stated in the answer (``Rows.read_as_row``, ``Rows.read_as_movement``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ragspine_nb.extract.rows import balance_subject
from ragspine_nb.wordset import content_words

if TYPE_CHECKING:
    from ragspine_nb.agent.reading.intent_rows import RowReader

__all__ = ["Hit", "Rows", "TOTAL_WORDS", "no_total_beside", "qualified_by", "row_and_column",
           "movement_of"]

#: A phrase match: ``(start, end, code, term)``.
Hit = tuple[int, int, str, str]
#: A row named only by these ("Total", "Net change", "Average") is named by its place
#: in its table, never by a question's "total", "change" or "average" beside a row it names
TOTAL_WORDS = frozenset({"total", "change", "changes", "net", "average", "mean"})


@dataclass(frozen=True)
class Rows:
    """The rows a question names, and how they were read."""

    codes: tuple[str, ...] = ()
    #: the phrase matches ``(start, end, code, term)`` kept as row names
    hits: tuple[Hit, ...] = ()
    #: the content words the named rows use (cues are read outside them)
    words: frozenset[str] = frozenset()
    candidates: tuple[str, ...] = ()
    misspelled: bool = False
    read_as_closing: str | None = None
    read_as_part: tuple[str, ...] = ()
    #: the one named part of the other named (total) rows, when there is one
    part: str | None = None
    #: ``(*unfilled, row)``: metrics without figures named as qualified by a row with
    #: figures ("sales in Germany", "cloud revenue"): the row is answered, stated so
    read_as_row: tuple[str, ...] = ()
    #: ``(balance, movement)``: a roll-forward's balance row named with one of its
    #: movements ("non-vested shares granted"): the movement is answered, stated so
    read_as_movement: tuple[str, ...] = ()


#: What may stand between a metric's name and the row qualifying it: "sales in
#: Germany", "revenue from the cloud", "percentage of net revenues of OEM"
_QUALIFIED_BY = re.compile(r"\s*(?:from|in|of|for|by|at|to|attributable to|generated "
                           r"(?:from|by)|derived from)\s+(?:the\s+)?", re.I)
#: ... and between a row and the metric it qualifies: "Germany sales", "OEM's revenue",
#: "Germany's 2019 revenue", "德国的收入", "德国2019年的收入"
_QUALIFIES = re.compile(r"\s*(?:['\u2019]s\s*)?(?:(?:fy\s*)?(?:19|20)\d\d\s*(?:年度?)?\s*)?"
                        r"(?:的\s*)?", re.I)


def _computed(reader: RowReader, code: str) -> bool:
    """Whether the profile computes the metric by a formula (no figure states it)."""
    spec = reader.profile.metrics.get(code)
    return spec is not None and bool(spec.formula)


def row_and_column(reader: RowReader, rows: Rows, words: frozenset[str],
                    columns: frozenset[str]) -> Rows:
    """"the number of shares outstanding": a row with figures and a column, named apart.

    When every row read is a metric without stored figures, and exactly one row with
    figures (no bare "Total") is named in full by part of those words while a column
    the question names explains the rest ("Outstanding" under "Number of Shares"),
    that row is answered, and the reading stated. A row whose words are all words of
    another such row ("Subscription revenue" in "Total subscription revenue") is no
    second reading.
    """
    if reader.live is None or not rows.codes or any(c in reader.live or _computed(reader, c)
                                                    for c in rows.codes):
        return rows  # a ratio the profile computes ("asset turnover") has its figure
    said = frozenset().union(*(reader.index.words_of(c, words) for c in rows.codes))
    named = dict.fromkeys(reader.index.inside(words))
    mine = {c: reader.index.words_of(c, words) for c in named}
    found = [c for c in named if c in reader.live and not reader._bare_total(c)
             and mine[c] < said and said <= mine[c] | columns]
    # a row named by words another one found also has is inside that one's name
    found = [c for c in found if not any(mine[c] < mine[o] for o in found)]
    if len(found) != 1:
        return rows
    # no phrase kept: the column's words in the built-in name are read as the column
    return Rows((found[0],), (), reader.index.words_of(found[0], words),
                read_as_row=(*rows.codes, found[0]))


def no_total_beside(reader: RowReader, rows: Rows, words: frozenset[str]) -> Rows:
    """"the total amount of audit fees": "Total fees" is no row asked beside "Audit fees".

    A row whose name is not written out, only found word by word as a total word and
    words of another row with figures whose name is written out, is not asked about:
    the question's "total" sums, it names no second row.
    """
    if len(rows.codes) < 2:
        return rows
    written = {h[2] for h in rows.hits}
    said = {c: reader.index.words_of(c, words) for c in rows.codes}
    live = reader.live if reader.live is not None else frozenset(rows.codes)
    dropped = {c for c in rows.codes if c not in written and said[c] & TOTAL_WORDS
               and any(o in written and o in live and said[c] - TOTAL_WORDS < said[o]
                       for o in rows.codes)}
    kept = tuple(c for c in rows.codes if c not in dropped)
    if not dropped or not kept:
        return rows
    used = frozenset().union(*(said[c] for c in kept)) or rows.words
    return replace(rows, codes=kept, words=used, read_as_part=(), part=None)


def qualified_by(reader: RowReader, rows: Rows, text: str) -> Rows:
    """"sales in Germany": a metric without figures qualified by the one row with them.

    When every metric named that has no stored figure is written right beside a row
    that has figures, joined by a preposition ("revenue from cloud", "percentage of
    net revenues of OEM") or in front of it ("Germany sales"), and one such row is
    named, the question asks for that row: it is answered, and the reading stated.
    """
    if reader.live is None or not text or len(rows.codes) < 2:
        return rows
    dead = [c for c in rows.codes if c not in reader.live]
    kept = [c for c in rows.codes if c in reader.live]
    if len(kept) != 1 or not dead:
        return rows
    mine = [h for h in rows.hits if h[2] == kept[0]]

    def joined(h: Hit) -> bool:
        return any(_QUALIFIED_BY.fullmatch(text[h[1]:k[0]]) if h[1] <= k[0]
                   else _QUALIFIES.fullmatch(text[k[1]:h[0]]) if k[1] <= h[0] else False
                   for k in mine)

    if not all(any(joined(h) for h in rows.hits if h[2] == d) for d in dead):
        return rows
    used = reader.index.words_of(kept[0], rows.words) or rows.words
    return Rows((kept[0],), rows.hits, used, read_as_row=(*dead, kept[0]))


def movement_of(reader: RowReader, rows: Rows, words: frozenset[str]) -> Rows:
    """"the number of non-vested shares granted": the movement, not the balance.

    Two rows named without a list, one a balance (its label dates it: "Non-vested at
    December 31, 2018", "Balance at beginning of year") whose subject the question
    names, the other no balance and named in full ("Granted"): the question asks for
    the movement of that roll-forward. It is answered, and the reading stated.
    """
    if len(rows.codes) != 2:
        return rows
    labels = {c: (reader.profile.metrics[c].label if c in reader.profile.metrics else "")
              for c in rows.codes}
    subjects = {c: balance_subject(labels[c]) for c in rows.codes}
    balances = [c for c in rows.codes if subjects[c]]
    if len(balances) != 1:
        return rows
    balance = balances[0]
    (movement,) = (c for c in rows.codes if c != balance)
    if reader.live is not None and not {balance, movement} <= reader.live:
        return rows  # both rows of a table with figures, never a built-in name
    subject = content_words(subjects[balance])
    named = content_words(labels[movement])
    if not subject or not subject <= words or not named or not named <= words:
        return rows
    return Rows((movement,), rows.hits, named, read_as_movement=(balance, movement))
