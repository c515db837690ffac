"""Which table rows are sums of the rows above them — checked on the numbers.

Reports close a run of rows with their total ("Total revenue" under the segment rows,
"Total liabilities" under the subtotals). Knowing that relation lets the agent read
"revenue from software maintenance" as the part, not the total. A label alone is a weak
signal (not every "Total" row closes the rows right above it), so the relation is taken
only where the stated figures add up in every comparable column. A roll-forward
(opening balance + movements = closing balance) adds up too, but its closing row is no
total of its movements: :func:`is_roll_forward` tells it by its labels.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

__all__ = ["decimals", "adds_up", "sum_parts", "is_roll_forward"]

K = TypeVar("K", bound=Hashable)  # a column key


def decimals(value: float) -> int:
    """Decimal places a stated figure was rounded to (``1769.4`` → 1, ``7155.0`` → 0)."""
    text = f"{abs(value):.6f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def adds_up(total: Mapping[K, float], parts: Sequence[Mapping[K, float]]) -> bool:
    """Whether ``total`` equals the sum of ``parts`` in every column they share.

    A column counts when the total and at least one part state it (a part without a
    figure there adds nothing, as a dash does). Rounding is allowed: each stated figure
    may be off by half a unit of its last decimal, up to half a percent of the total. At
    least one compared column must have a non-zero total and two non-zero parts, so
    empty or zero rows prove nothing.
    """
    if len(parts) < 2:
        return False
    telling = False
    for key, value in total.items():
        stated = [p[key] for p in parts if key in p]
        if not stated:
            continue
        places = max(decimals(v) for v in (value, *stated))
        # rounding may not excuse more than half a percent of the total ("10 + 5 = 16")
        slack = min(0.5 * 10 ** -places * (len(stated) + 1), 0.005 * abs(value)) + 1e-9
        if abs(sum(stated) - value) > slack:
            return False
        telling = telling or (value != 0 and sum(v != 0 for v in stated) >= 2)
    return telling


def sum_parts(rows: Sequence[tuple[int, Mapping[K, float]]], max_run: int = 40
              ) -> dict[int, tuple[int, ...]]:
    """For rows in table order, the rows each one is the sum of.

    Walks down keeping the rows not yet summed up; a row equal to the sum of the last
    ``k >= 2`` of them (the shortest such run, at most ``max_run`` rows: the work stays
    linear in a long table) is their total and takes their place, so a grand total is
    found over its subtotals and the rows outside any subtotal.

    Examples
    --------
    >>> sum_parts([(1, {"y": 10.0}), (2, {"y": 5.0}), (3, {"y": 15.0}),
    ...            (4, {"y": 2.0}), (5, {"y": 17.0})])
    {3: (1, 2), 5: (3, 4)}
    """
    figures = dict(rows)
    open_rows: list[int] = []
    out: dict[int, tuple[int, ...]] = {}
    for row, values in rows:
        sums: dict[K, float] = {}
        for k in range(1, min(len(open_rows), max_run) + 1):
            for key, figure in figures[open_rows[-k]].items():
                if key in values:
                    sums[key] = sums.get(key, 0.0) + figure
            if k >= 2 and _near(values, sums):
                run = open_rows[-k:]
                if adds_up(values, [figures[r] for r in run]):
                    out[row] = tuple(run)
                    del open_rows[-k:]
                    break
        open_rows.append(row)
        del open_rows[:-max_run]
    return out


def _near(total: Mapping[K, float], sums: Mapping[K, float]) -> bool:
    """Whether the parts' sums are within half a percent of ``total`` in every column.

    What :func:`adds_up` allows at most (it is checked only where this holds): the sums
    of the last 1, 2, ... rows are kept as the run grows, so a long table stays linear.
    """
    return bool(sums) and all(abs(s - total[key]) <= 0.005 * abs(total[key]) + 1e-6
                              for key, s in sums.items())


_OPENING = re.compile(r"\bbeginning\b|\bopening\b|\bbrought forward\b|\bat (?:the )?start\b"
                      r"|\bstart of\b|\bprior year\b|\b期初|年初", re.I)
_CLOSING = re.compile(r"\bend(?:ing)? of\b|\bending\b|\bclosing\b|\bcarried forward\b"
                      r"|\bat (?:the )?end\b|期末|年末", re.I)
_BALANCE = re.compile(r"\bbalances?\b|余额", re.I)


def is_roll_forward(total: str, parts: Sequence[str]) -> bool:
    """Whether a row adding up ``parts`` closes a roll-forward rather than totals them.

    The run starts from an opening balance ("Balance at beginning of year", "Opening
    balance") or the row is a closing one ("Ending balance"), or both are balances
    ("Balance at December 31, 2018" ... "Balance at December 31, 2019").

    Examples
    --------
    >>> is_roll_forward("Balance at end of year", ["Balance at beginning of year", "Additions"])
    True
    >>> is_roll_forward("Total revenue", ["Products", "Services"])
    False
    """
    first = parts[0] if parts else ""
    return bool(_OPENING.search(first) or _CLOSING.search(total)
                or (_BALANCE.search(first) and _BALANCE.search(total)))
