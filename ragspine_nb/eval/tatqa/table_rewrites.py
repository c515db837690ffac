"""Tables rewritten without changing what they say: how another exporter prints them.

"$" or "%" in a column of its own (as PDF exports have them), labels in capitals, "FY2019"
headers, minus signs for parentheses, the oldest year first, years down the rows, the
scale written another way ("(000s)" for "(In thousands)"). Each
rewrite changes only how a table is written — never a figure, a period or a row's name —
and leaves a table it does not fit as written. ``bench/rewrites.py`` answers the
questions on every rewritten table through the user's path and counts the answers that
move (:mod:`ragspine_nb.eval.tatqa.rewrites` rewrites the questions).

Pure functions of the table's cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["TABLE_REWRITES", "TableRewrite", "rewritten_tables"]

#: One table rewrite: the table's rows as written → rewritten (the same rows if it does
#: not fit).
Table = list[list[str]]
TableRewrite = Callable[[Table], Table]
_YEAR = r"(?:19|20)\d\d"

_CELL_YEAR = re.compile(rf"^\s*({_YEAR})\s*$")
_AMOUNT = re.compile(r"^\s*\$?\s*\(?-?[\d,]+(?:\.\d+)?\)?\s*%?\s*$")


def _header(row: Sequence[str]) -> bool:
    """A header row: no label, or a year among its cells."""
    return not row[0].strip() or any(_CELL_YEAR.match(c) for c in row[1:])


def fy_headers(table: Table) -> Table:
    """Year headers written "FY2019".

    >>> fy_headers([["", "2019"], ["Revenue", "5"]])
    [['', 'FY2019'], ['Revenue', '5']]
    """
    return [[f"FY{m.group(1)}" if (m := _CELL_YEAR.match(c)) and _header(r) else c
             for c in r] for r in table]


def upper_labels(table: Table) -> Table:
    """Row labels in capitals.

    >>> upper_labels([["", "2019"], ["Current year1", "5"]])
    [['', '2019'], ['CURRENT YEAR1', '5']]
    """
    return [[r[0].upper(), *r[1:]] for r in table]


def _split(table: Table, sign: str) -> Table:
    """Every value column split in two: the sign in a cell of its own, before or after."""
    out = []
    for r in table:
        cells: list[str] = []
        for c in r[1:]:
            x = c.strip()
            has = _AMOUNT.match(x) and not _header(r) and (
                x.startswith("$") if sign == "$" else x.endswith("%"))
            if sign == "$":
                cells += ["$", x[1:].strip()] if has else ["", c]
            else:
                cells += [x[:-1].strip(), "%"] if has else [c, ""]
        out.append([r[0], *cells])
    return out


def dollar_column(table: Table) -> Table:
    """"$" in a column of its own before each figure.

    >>> dollar_column([["", "2019"], ["Revenue", "$1,200"], ["Cost", "800"]])
    [['', '', '2019'], ['Revenue', '$', '1,200'], ['Cost', '', '800']]
    """
    return _split(table, "$")


def percent_column(table: Table) -> Table:
    """"%" in a column of its own after each figure.

    >>> percent_column([["", "2019"], ["Margin", "12.5%"]])
    [['', '2019', ''], ['Margin', '12.5', '%']]
    """
    return _split(table, "%")


def minus_signs(table: Table) -> Table:
    """Negative figures with a minus sign instead of parentheses.

    >>> minus_signs([["", "2019"], ["Loss", "$(1,200)"], ["Rate", "(5)%"]])
    [['', '2019'], ['Loss', '-$1,200'], ['Rate', '-5%']]
    """
    def signed(c: str) -> str:
        m = re.fullmatch(r"\s*(\$?)\s*\((\$?\s*[\d,]+(?:\.\d+)?)\)\s*(%?)\s*", c)
        return f"-{m.group(1)}{m.group(2).strip()}{m.group(3)}" if m else c
    return [[r[0], *(signed(c) for c in r[1:])] for r in table]


def oldest_first(table: Table) -> Table:
    """The value columns in the opposite order (a table printing its oldest year first).

    Only a table whose header rows fill every value cell is turned: a caption over
    several columns ("Year Ended") sits in the first of them, which turning would move.

    >>> oldest_first([["", "2019", "2018"], ["Revenue", "5", "4"]])
    [['', '2018', '2019'], ['Revenue', '4', '5']]
    >>> t = [["", "Year Ended", ""], ["", "2019", "2018"], ["Revenue", "5", "4"]]
    >>> oldest_first(t) == t
    True
    """
    heads = [r for r in table if _header(r) and not any(_AMOUNT.match(c) for c in r[1:]
                                                         if not _CELL_YEAR.match(c))]
    if not heads or any(not c.strip() for r in heads for c in r[1:]):
        return table
    return [[r[0], *reversed(r[1:])] for r in table]


def years_down(table: Table) -> Table:
    """A table of one header row of years turned on its side: the years down the rows.

    Only a plain table is turned: one header row whose value cells are all years, and a
    figure in every cell below it.

    >>> years_down([["", "2019", "2018"], ["Revenue", "5", "4"], ["Cost", "(2)", "1"]])
    [['', 'Revenue', 'Cost'], ['2019', '5', '(2)'], ['2018', '4', '1']]
    """
    if len(table) < 2 or not all(_CELL_YEAR.match(c) for c in table[0][1:]) \
            or not all(_AMOUNT.match(c) for r in table[1:] for c in r[1:]):
        return table
    return [list(col) for col in zip(*table, strict=True)]


#: A scale as tables write it, and another way the same scale is written.
_SCALE_SPELLINGS = (
    (re.compile(r"\(\s*in thousands\s*\)", re.I), "(000s)"),
    (re.compile(r"^\s*in thousands\s*$", re.I), "in 000s"),
    (re.compile(r"\(\s*in millions\s*\)", re.I), "(in mm)"),
    (re.compile(r"^\s*in millions\s*$", re.I), "(millions)"),
    (re.compile(r"\$\s*['’]000", re.I), "$000"),
    (re.compile(r"\(\s*dollars in thousands\s*\)", re.I), "($ thousands)"),
    (re.compile(r"\(\s*dollars in millions\s*\)", re.I), "($ in millions)"),
)


def scale_words(table: Table) -> Table:
    """The scale a header states written another way ("(In thousands)": "(000s)").

    Never a currency the table does not write ("(in $000s)" would add one).

    >>> scale_words([["", "2019"], ["(In thousands)", ""], ["Revenue", "5"]])
    [['', '2019'], ['(000s)', ''], ['Revenue', '5']]
    >>> scale_words([["", "$'000"], ["Revenue", "5"]])
    [['', '$000'], ['Revenue', '5']]
    """
    def written(cell: str) -> str:
        for pattern, other in _SCALE_SPELLINGS:
            if pattern.search(cell):
                return pattern.sub(other, cell, count=1)
        return cell
    return [[written(c) if not _AMOUNT.match(c) else c for c in r] for r in table]


#: The table rewrites, by name.
TABLE_REWRITES: dict[str, TableRewrite] = {
    "fy_headers": fy_headers, "upper_labels": upper_labels, "dollar_column": dollar_column,
    "percent_column": percent_column, "minus_signs": minus_signs, "oldest_first": oldest_first,
    "years_down": years_down, "scale_words": scale_words,
}


def rewritten_tables(raw: Sequence[dict[str, Any]], rewrite: TableRewrite
                     ) -> tuple[list[dict[str, Any]], set[str]]:
    """The split with every table rewritten; the uids of the questions on changed tables.

    Only the contexts whose table changed are kept.
    """
    out, changed = [], set()
    for ctx in raw:
        table = [[str(c) for c in row] for row in ctx["table"]["table"]]
        new = rewrite(table)
        if new != table:
            out.append({**ctx, "table": {**ctx["table"], "table": new}})
            changed |= {q["uid"] for q in ctx["questions"]}
    return out, changed
