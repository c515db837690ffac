"""Roll-forwards laid out in columns: the movements between two dated balances.

A reserve or provision table often runs across: "Balance, January 31, 2018 | Additions |
Payments | Adjustments | Balance, January 31, 2019". The balances are dated and name
their periods; the columns between them name none, yet they are the movements of the
later period (as movements between two dated rows lead to the later balance). They become
that period's *movement* columns: channels named by their headers ("additions"), never
the period's own figure, which stays the closing balance.
"""

from __future__ import annotations

from dataclasses import replace

from ragspine_nb.extract.header_periods import header_date
from ragspine_nb.extract.layout import Column

__all__ = ["MOVEMENT", "movement_columns"]

#: The kind of a column holding a movement of the period of the balance after it.
MOVEMENT = "movement"


def _dated_balances(cols: dict[int, Column]) -> list[tuple[int, tuple[int, int, int]]]:
    """Level columns headed by a full date, in column order, with their dates."""
    out = []
    for c in sorted(cols):
        col = cols[c]
        date = header_date(col.named) if col.kind == "level" and not col.part else None
        if date is not None and col.period is not None:
            out.append((c, date))
    return out


def movement_columns(cols: dict[int, Column]) -> dict[int, Column]:
    """``cols`` with the unnamed-period columns between two dated balances as movements.

    Only between two balances of the same name, the earlier on the left, of two
    different periods, and only when every column between them names no period.

    Examples
    --------
    >>> bal = Column(("FY", "2018"), "level", "balances", named="Balances, January 31, 2018")
    >>> add = Column(None, "other", "additions", named="Additions")
    >>> end = Column(("FY", "2019"), "level", "balances", named="Balances, January 31, 2019")
    >>> got = movement_columns({1: bal, 2: add, 3: end})
    >>> got[2].kind, got[2].period
    ('movement', ('FY', '2019'))
    """
    out = dict(cols)
    dated = _dated_balances(cols)
    for (left, start), (right, end) in zip(dated, dated[1:], strict=False):
        before, after = cols[left], cols[right]
        between = [cols[c] for c in range(left + 1, right) if c in cols]
        if start >= end or before.period == after.period or before.label != after.label \
                or not between or any(b.kind != "other" or not b.label for b in between):
            continue
        for c in range(left + 1, right):
            out[c] = replace(cols[c], kind=MOVEMENT, period=after.period)
    return out
