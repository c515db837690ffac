"""Twin columns: two columns of one period whose headers name them the same way.

"2019" spanning "$275,792 | 99%", or "2019 / NUMBER" spanning "M | $M", gives both
columns the same label, and nothing would tell them apart: both would be skipped. When
the twins differ in what they hold, that names them:

* a column of percentages beside amounts is the period's ``percent`` column;
* a column whose own header states money ("$M") beside one that does not ("M": a count
  in millions) is the period's amount; the other keeps the header's words (or is the
  period's ``number``), and a bare scale letter in its header is the scale its twin
  states ("M" beside "$M" is millions).

Twins that differ in neither way stay skipped and reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.extract.layout import Column, is_figure, is_percent_column
from ragspine_nb.extract.scale import read_stated

__all__ = ["tell_twins_apart"]


def _values(table: Sequence[Sequence[str]], header: int, c: int) -> list[str]:
    return [table[r][c] for r in range(header, len(table)) if c < len(table[r])
            and is_figure(table[r][c])]


def _twins(table: Sequence[Sequence[str]], header: int, cols: dict[int, Column], c: int
           ) -> list[int]:
    """The columns named as ``c`` is that hold something.

    A "%" moved into its figure's cell leaves its column empty: no twin.
    """
    col = cols[c]
    return [k for k, other in cols.items() if k != c and other.kind == "level"
            and other.period == col.period and other.label == col.label
            and any(k < len(row) and row[k].strip() for row in table[header:])]


def _money(col: Column) -> bool:
    """The column's own header states money ("$M", "US$'000"), not a bare scale ("M")."""
    stated = read_stated(col.named)
    return stated.money_scale or bool(stated.currency)


def _relabel(col: Column, label: str) -> Column:
    return replace(col, label=label, dated="", full=label)


_SCALE_WORDS = {"K": "(in thousands)", "M": "(in millions)", "BN": "(in billions)"}
_LETTERS = {"K": ("k", "000", "'000"), "M": ("m", "mn"), "BN": ("bn", "b")}


def _unit_words(col: Column, money: Column) -> str:
    """A bare scale letter beside a money twin in that scale ("M" beside "$M") is it."""
    scale = read_stated(money.named).scale
    words = col.named.casefold().replace("(", " ").replace(")", " ").split()
    return _SCALE_WORDS[scale] if scale in _LETTERS and \
        any(w in _LETTERS[scale] for w in words) else ""


def tell_twins_apart(table: Sequence[Sequence[str]], header: int, cols: dict[int, Column]
                     ) -> dict[int, Column]:
    """``cols`` with twin columns of one period named by what they hold (module docstring).

    Examples
    --------
    >>> t = [["", "2019", ""], ["", "M", "$M"], ["Share capital", "1,258.7", "6,033"]]
    >>> cols = {1: Column(("FY", "2019"), "level", "", named="2019 M"),
    ...         2: Column(("FY", "2019"), "level", "", named="2019 $M")}
    >>> [(c.label) for c in tell_twins_apart(t, 2, cols).values()]
    ['number', '']

    A "%" moved into its figure's cell leaves an empty column: no twin.

    >>> t = [["", "2019", ""], ["Discount rate", "4.00%", ""]]
    >>> cols = {1: Column(("FY", "2019"), "level", "", named="2019"),
    ...         2: Column(("FY", "2019"), "level", "", named="2019")}
    >>> [(c.label) for c in tell_twins_apart(t, 1, cols).values()]
    ['', '']
    """
    out = dict(cols)
    for c, col in cols.items():
        twins = _twins(table, header, cols, c) if col.kind == "level" else []
        if not twins:
            continue
        if is_percent_column(col.named, _values(table, header, c)) and not any(
                is_percent_column(cols[k].named, _values(table, header, k)) for k in twins):
            out[c] = _relabel(col, f"{col.label} percent".strip())
        elif not _money(col) and sum(_money(cols[k]) for k in twins) == 1 \
                and not any(is_percent_column(cols[k].named, _values(table, header, k))
                            for k in [c, *twins]):
            money = next(k for k in twins if _money(cols[k]))
            out[money] = _relabel(cols[money], "")
            out[c] = replace(_relabel(col, col.label or "number"),
                             unit_words=_unit_words(col, cols[money]))
    return out
