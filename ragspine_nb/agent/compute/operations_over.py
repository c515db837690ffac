"""Operations over many operands: counts, max / min, which way a row moved, gaps of means.

Pure functions over cited cells, like :mod:`ragspine_nb.agent.compute.operations`: each operand
is compared in the test's scale (a count), or against the others in one unit (max /
min); what cannot be compared is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.agent.compute.operations import (
    Computed,
    NotComputed,
    aggregate,
    one_unit,
    shown_decimals,
    shown_text,
)
from ragspine_nb.agent.reading.operation_cues import Threshold
from ragspine_nb.agent.write.templates import format_value
from ragspine_nb.core import Fact
from ragspine_nb.period_codes import period_label
from ragspine_nb.units import SCALES, unit_parts

__all__ = ["count_passing", "gap_of_means", "passing", "pick_extreme", "Trend", "trend",
           "Spread", "spread"]


def _in_scale(fact: Fact, test: Threshold) -> float | NotComputed:
    """A fact's value in the scale of a test's amount, or why it cannot be compared."""
    parts = unit_parts(fact.unit)
    if test.scale == "PCT" or parts.percent:
        return fact.value if test.scale == "PCT" and parts.percent else \
            NotComputed("threshold_units", (test.text, fact.unit))
    if not test.scale:
        return fact.value if parts.factor is None else \
            NotComputed("threshold_units", (test.text, fact.unit))
    if parts.factor is None:
        return NotComputed("threshold_units", (test.text, fact.unit))
    return fact.value * parts.factor / SCALES[test.scale]


def count_passing(operands: Sequence[Fact], test: Threshold,
                  names: Sequence[str] | None = None) -> Computed | NotComputed:
    """How many operands pass ``test`` (each compared in the test's scale).

    ``names`` name the operands in the derivation (their periods when not given).

    Examples
    --------
    >>> from ragspine_nb.agent.reading.operation_cues import threshold
    >>> f = [Fact("NS", "C", "NA", "TOTAL", "FY", y, v, "USD_K", "t.csv", "r")
    ...      for y, v in (("2019", 190000.0), ("2018", 259105.0), ("2017", 210000.0))]
    >>> c = count_passing(f, threshold("exceed $200,000 thousand"))
    >>> c.value, c.derivation
    (2.0, 'FY2019 190,000 no; FY2018 259,105 yes; FY2017 210,000 yes → 2')
    """
    if not operands:
        return NotComputed("operands", ("0",))
    marks, passed = [], 0
    for i, f in enumerate(operands):
        value = _in_scale(f, test)
        if isinstance(value, NotComputed):
            return value
        ok = test.passes(value)
        passed += ok
        name = names[i] if names is not None else period_label(f.period_type, f.period)
        marks.append(f"{name} {format_value(f.value)} {'yes' if ok else 'no'}")
    return Computed(float(passed), "", f"{'; '.join(marks)} → {passed}")


def passing(operands: Sequence[Fact], test: Threshold) -> list[Fact] | NotComputed:
    """The operands that pass ``test`` (in order), or why they cannot be compared."""
    out = []
    for f in operands:
        value = _in_scale(f, test)
        if isinstance(value, NotComputed):
            return value
        if test.passes(value):
            out.append(f)
    return out


def pick_extreme(kind: str, operands: Sequence[Fact], signed: bool = False
                 ) -> int | NotComputed:
    """The index of the highest (``max``) or lowest (``min``) operand.

    A tie is refused, and so are negative values unless ``signed`` (the question says
    a loss is below a gain): whether "larger" means the value or its size (a larger
    loss) is not clear.

    Examples
    --------
    >>> f = [Fact("S", "C", "NA", "TOTAL", "FY", y, v, "USD_M", "t.csv", "r")
    ...      for y, v in (("2019", 1496.5), ("2018", 1202.9))]
    >>> pick_extreme("max", f), pick_extreme("min", f)
    (0, 1)
    """
    if kind not in ("max", "min"):
        raise ValueError(f"pick_extreme kind must be 'max' or 'min', got {kind!r}")
    if len(operands) < 2:
        return NotComputed("operands", (str(len(operands)),))
    mixed = one_unit(operands)
    if mixed is not None:
        return mixed
    values = [f.value for f in operands]
    if not signed and any(v < 0 for v in values):  # the value, or its size (a larger loss)?
        return NotComputed("signs", (", ".join(format_value(v) for v in values),))
    best = max(values) if kind == "max" else min(values)
    if values.count(best) > 1:
        return NotComputed("tie", (format_value(best),))
    return values.index(best)


@dataclass(frozen=True)
class Trend:
    """Which way one row moved from its first operand (the earliest) to its last.

    ``way`` is ``up``, ``down`` or ``flat``; ``change`` is the movement in words: in
    percentage points between two percentages, else the difference and the relative
    change (none from a zero or negative base).
    """

    first: Fact
    last: Fact
    way: str
    change: str


def trend(operands: Sequence[Fact]) -> Trend | NotComputed:
    """Which way the operands (earliest first) moved from the first to the last.

    Examples
    --------
    >>> f = [Fact("GM", "C", "NA", "TOTAL", "FY", y, v, "PCT", "t.csv", "r")
    ...      for y, v in (("2022", 19.39), ("2023", 18.54))]
    >>> t = trend(f)
    >>> t.way, t.change
    ('down', '-0.85 percentage points')
    """
    if len(operands) < 2:
        return NotComputed("operands", (str(len(operands)),))
    mixed = one_unit(operands)
    if mixed is not None:
        return mixed
    first, last = operands[0], operands[-1]
    diff = round(last.value - first.value, 10) + 0.0
    way = "up" if diff > 0 else "down" if diff < 0 else "flat"
    if unit_parts(first.unit).percent:
        return Trend(first, last, way, f"{diff:+.2f} percentage points")
    relative = f", {diff / first.value * 100:+.1f}%" if first.value > 0 else ""
    return Trend(first, last, way, f"{'+' if diff > 0 else ''}{format_value(diff)}{relative}")


@dataclass(frozen=True)
class Spread:
    """How much one row moved from each operand (earliest first) to the next.

    ``moves`` are ``(from, to, move)``: in percentage points between two percentages
    (``points``), else the change in percent of the earlier value; ``largest`` is the
    move of the largest size, ``low`` and ``high`` the row's extremes.
    """

    moves: tuple[tuple[Fact, Fact, float], ...]
    largest: tuple[Fact, Fact, float]
    low: Fact
    high: Fact
    points: bool

    def within(self, test: Threshold) -> bool | NotComputed:
        """Whether every move is within the test's amount (a percentage: points or %)."""
        if test.scale != "PCT":
            return NotComputed("threshold_units", (test.text, self.low.unit))
        return abs(self.largest[2]) <= test.value


def spread(operands: Sequence[Fact]) -> Spread | NotComputed:
    """The moves of one row from year to year, its largest and its extremes.

    Examples
    --------
    >>> f = [Fact("GM", "C", "NA", "TOTAL", "FY", y, v, "PCT", "t.csv", "r")
    ...      for y, v in (("2021", 22.5), ("2022", 22.46), ("2023", 21.41))]
    >>> s = spread(f)
    >>> [round(m[2], 2) for m in s.moves], s.largest[1].period, s.low.period, s.points
    ([-0.04, -1.05], '2023', '2023', True)
    """
    if len(operands) < 2:
        return NotComputed("operands", (str(len(operands)),))
    mixed = one_unit(operands)
    if mixed is not None:
        return mixed
    points = unit_parts(operands[0].unit).percent
    if not points and any(f.value <= 0 for f in operands[:-1]):  # a change from no base
        return NotComputed("signs", (", ".join(format_value(f.value) for f in operands),))
    moves = tuple((a, b, round(b.value - a.value if points else
                               (b.value - a.value) / a.value * 100, 10) + 0.0)
                  for a, b in zip(operands, operands[1:], strict=False))
    return Spread(moves, max(moves, key=lambda m: abs(m[2])),
                  min(operands, key=lambda f: f.value), max(operands, key=lambda f: f.value),
                  points)


def gap_of_means(first: Sequence[Fact], second: Sequence[Fact]) -> Computed | NotComputed:
    """The mean of ``first`` less the mean of ``second`` (the mean of their differences).

    The operands pair up by position (same periods). When the differences change sign
    from period to period, whether the signed or the absolute gap is averaged is not
    clear: not computed.

    Examples
    --------
    >>> a = [Fact("II", "C", "NA", "TOTAL", "FY", y, v, "EUR_M", "t.csv", "r")
    ...      for y, v in (("2019", 433.0), ("2018", 685.0))]
    >>> b = [Fact("FC", "C", "NA", "TOTAL", "FY", y, v, "EUR_M", "t.csv", "r")
    ...      for y, v in (("2019", -2088.0), ("2018", -1074.0))]
    >>> gap_of_means(a, b).derivation
    '(433 + 685) / 2 − (-2,088 + -1,074) / 2 = 559 − (-1,581) = 2,140'
    >>> gap_of_means(b, a).value, gap_of_means(a, a[::-1]).reason
    (-2140.0, 'gap_signs')
    """
    if len(first) < 2 or len(first) != len(second):
        return NotComputed("operands", (str(min(len(first), len(second))),))
    mixed = one_unit([*first, *second])
    if mixed is not None:
        return mixed
    gaps = [a.value - b.value for a, b in zip(first, second, strict=True)]
    if any(g > 0 for g in gaps) and any(g < 0 for g in gaps):
        # signed or absolute? the average of the gaps and of their sizes differ
        return NotComputed("gap_signs", (", ".join(format_value(g) for g in gaps),))
    means = [aggregate("average", side) for side in (first, second)]
    if not all(isinstance(m, Computed) for m in means):
        return next(m for m in means if isinstance(m, NotComputed))
    (a, b) = (m.value for m in means if isinstance(m, Computed))
    places = shown_decimals("average", [*first, *second])
    gap = a - b
    terms = [f"({' + '.join(format_value(f.value) for f in side)}) / {len(side)}"
             for side in (first, second)]
    less = shown_text(b, places) if b >= 0 else f"({shown_text(b, places)})"
    return Computed(gap, first[0].unit, f"{terms[0]} − {terms[1]} = {shown_text(a, places)} − "
                                        f"{less} = {shown_text(gap, places)}")
