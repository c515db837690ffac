"""Operations a question asks of stored figures, computed over cited cells or refused.

An :class:`~ragspine_nb.agent.reading.operation.Operation` names what to compute
(:data:`~ragspine_nb.core.COMPUTED_OPERATIONS`);
the functions here apply it to the cited cells (its operands) as pure steps and return
the value with its derivation (:class:`Computed`), or :class:`NotComputed` saying why
not. Nothing here reads a store or a question: the operands come from the fact channel
(:mod:`ragspine_nb.agent.compute.operation_plan`), the operation from the question's words
(:mod:`ragspine_nb.agent.reading.operation_detect`). A level or a single operand is never passed
off as the result of an operation.

* ``difference`` — the first operand minus the second; ``percent_change`` — the same
  relative to the second, or compounded yearly between two fiscal years
  (:func:`compute`, :func:`compound_rate`);
* ``average`` / ``sum`` — of every operand, in one unit (:func:`aggregate`);
* ``ratio`` / ``share`` — the numerators (summed) over the denominator; a share is in
  percent (:func:`ratio`);
* ``count`` — how many operands pass a stated test, and ``max`` / ``min`` — which operand
  is the highest / lowest: :mod:`ragspine_nb.agent.compute.operations_over`.

A computed value keeps every digit (``Computed.value``); its text is rounded as a report
rounds it (:func:`shown_decimals`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.agent.reading.operation import ANSWERS, Operation
from ragspine_nb.agent.write.templates import NOT_COMPUTED, OPERATION_NAMES, format_value
from ragspine_nb.core import Fact
from ragspine_nb.errors import InvalidRecordError
from ragspine_nb.period_codes import period_label
from ragspine_nb.units import unit_parts

__all__ = ["Operation", "Computed", "NotComputed", "compute", "aggregate", "ratio",
           "compound_rate", "change_of_change", "in_points", "one_unit", "shown_decimals",
           "shown_text", "decimals", "SUPPORTED_OPERATIONS",
           "ANSWERS", "PERCENT_DECIMALS"]

#: The operations computed today.
SUPPORTED_OPERATIONS: tuple[str, ...] = ("difference", "percent_change", "average", "sum",
                                         "ratio", "share", "count", "max", "min",
                                         "change_of_change", "trend", "spread")
#: Decimal places of a computed percentage or ratio (more when the inputs have more).
PERCENT_DECIMALS = 2


@dataclass(frozen=True)
class Computed:
    """The value of an operation, in ``unit``, and how it was obtained."""

    value: float
    unit: str
    derivation: str


@dataclass(frozen=True)
class NotComputed:
    """Why an operation was not computed: a ``reason`` code and the values it names.

    Reasons (worded in :data:`~ragspine_nb.agent.write.templates.NOT_COMPUTED`): ``units``,
    ``zero_base``, ``negative_base``, ``operands``, ``periods``, ``unsupported``,
    ``ambiguous``, ``cross`` (several rows and periods with nothing combining them),
    ``no_periods`` (an average or sum names no periods), ``sides`` (a ratio's numerator
    or denominator is not identified), ``items`` (the items to count are not
    identified), ``threshold_units`` (a test's amount in a scale the figures do not
    state), ``nested`` (an operation of operations), ``tie``, ``signs`` (negative values
    compared: the value or its size?), ``change_periods`` (a change of a change names no
    two consecutive years), ``gap_signs`` (an average gap between two rows that changes
    sign: signed or absolute?), ``compound_periods`` / ``compound_years`` (a compound
    rate's ends are not two fiscal years, or not as many years apart as asked).
    """

    reason: str
    values: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.reason not in NOT_COMPUTED["en"]:
            raise InvalidRecordError(f"NotComputed.reason {self.reason!r} is not valid. "
                                     f"Valid: {list(NOT_COMPUTED['en'])}")

    def text(self, lang: str = "en") -> str:
        """The reason in words, in ``lang`` (``en`` or ``zh``)."""
        values = self.values
        if self.reason == "nested" and lang == "zh":  # the operations named in Chinese
            values = tuple(OPERATION_NAMES["zh"].get(v, v) for v in values)
        return NOT_COMPUTED[lang][self.reason].format(*values)


def decimals(value: float) -> int:
    """The places after the point a value is written with (``1.50`` → 1, ``1e-7`` → 0)."""
    text = repr(float(value))
    return 0 if "e" in text or "." not in text else len(text.split(".")[1].rstrip("0"))


def shown_decimals(operation: str, operands: Sequence[Fact],
                   value: float | None = None) -> int | None:
    """Decimal places an operation's value is shown with (``None``: as computed).

    An average, ratio or share is shown with :data:`PERCENT_DECIMALS` places, or as
    many as its most precise operand has; a ratio or share below 1 (``value``) with two
    significant digits at least (5,070 / 51,217 is 0.099, never 0.1; 0.0042 never 0.0);
    a sum or difference as computed (exact).

    >>> shown_decimals("ratio", [], 0.09899), shown_decimals("ratio", [], 0.0042)
    (3, 4)
    >>> shown_decimals("ratio", [], 0.17), shown_decimals("share", [], 9.9)
    (2, 2)
    """
    if operation not in ("average", "ratio", "share", "percent_change"):
        return None
    places = max([PERCENT_DECIMALS, *(decimals(f.value) for f in operands)])
    if operation in ("ratio", "share") and value is not None and 0 < abs(value) < 1:
        places = max(places, 1 - math.floor(math.log10(abs(value))))
    return places


def shown_text(value: float, places: int | None) -> str:
    """``value`` as text, rounded to ``places`` (``None``: as it is)."""
    return format_value(value if places is None else round(value, places) + 0.0)


def one_unit(operands: Sequence[Fact]) -> NotComputed | None:
    """Why operands in more than one unit are not combined; ``None`` when one unit."""
    units = list(dict.fromkeys(f.unit for f in operands))
    return NotComputed("units", (units[0], units[1])) if len(units) > 1 else None


def _difference(a: Fact, b: Fact) -> Computed:
    diff = round(a.value - b.value, max(decimals(a.value), decimals(b.value)))
    diff = diff + 0.0  # no "-0"
    return Computed(diff, a.unit, f"({format_value(a.value)} − {format_value(b.value)}) = "
                                  f"{format_value(diff)}")


def _percent_change(a: Fact, b: Fact) -> Computed | NotComputed:
    if b.value == 0:
        return NotComputed("zero_base")
    if b.value < 0 and a.value < 0:
        # two negative amounts (an allowance, an outflow, a loss): the change in size
        pct = round((abs(a.value) - abs(b.value)) / abs(b.value) * 100, PERCENT_DECIMALS)
        return Computed(pct + 0.0, "PCT", f"both negative, in size: ({format_value(-a.value)} "
                        f"− {format_value(-b.value)}) / {format_value(-b.value)} = "
                        f"{format_value(pct + 0.0)}%")
    if b.value < 0:
        return NotComputed("negative_base", (format_value(b.value),))
    pct = round((a.value - b.value) / b.value * 100, PERCENT_DECIMALS) + 0.0
    return Computed(pct, "PCT", f"({format_value(a.value)} − {format_value(b.value)}) / "
                                f"{format_value(b.value)} = {format_value(pct)}%")


def compute(operation: Operation, operands: Sequence[Fact]) -> Computed | NotComputed:
    """Apply a two-operand ``operation`` to its operands, in order (pure, deterministic).

    ``difference`` is the first operand minus the second; ``percent_change`` the same
    difference relative to the second (a zero base is refused, and a negative one
    unless both are negative: then the change in their size). Both need
    exactly two operands in one unit. Other kinds go to their own functions
    (:func:`aggregate`, :func:`ratio`, and in :mod:`~ragspine_nb.agent.compute.operations_over`
    ``count_passing`` and ``pick_extreme``).

    Examples
    --------
    >>> a = Fact("REVENUE", "HK", "HK", "TOTAL", "FY", "2025", 1405.0, "USD_M", "d", "c2")
    >>> b = Fact("REVENUE", "HK", "HK", "TOTAL", "FY", "2024", 1320.0, "USD_M", "d", "c1")
    >>> compute(Operation("difference"), (a, b)).derivation
    '(1,405 − 1,320) = 85'
    >>> compute(Operation("percent_change"), (a, b))
    Computed(value=6.44, unit='PCT', derivation='(1,405 − 1,320) / 1,320 = 6.44%')
    """
    if operation.nested:
        return NotComputed("nested", (operation.kind, operation.nested))
    if operation.kind not in ("difference", "percent_change"):
        return NotComputed("unsupported", (operation.kind,))
    if len(operands) != 2:
        return NotComputed("operands", (str(len(operands)),))
    a, b = operands
    if a.unit != b.unit:
        return NotComputed("units", (a.unit, b.unit))
    if operation.kind == "difference":
        if operation.between and a.metric_code != b.metric_code and a.value * b.value < 0:
            # "net income minus dividends paid" (an outflow, stated negative): its amount
            # or its signed value? Not said; never added where a subtraction is asked
            return NotComputed("signs", (f"{format_value(a.value)}, {format_value(b.value)}",))
        return _difference(a, b)
    if operation.compound:
        return compound_rate(a, b, operation.years)
    if in_points(operation, a.unit):
        return _points(a, b)
    return _percent_change(a, b)


def compound_rate(a: Fact, b: Fact, years: int = 0) -> Computed | NotComputed:
    """The yearly rate compounding ``b`` (an earlier fiscal year) into ``a`` (a later one).

    ``years``: the span the question names ("3-year CAGR"; 0: none named).

    >>> late = Fact("R", "C", "NA", "TOTAL", "FY", "2017", 121.0, "USD_M", "t.csv", "B2")
    >>> early = Fact("R", "C", "NA", "TOTAL", "FY", "2015", 100.0, "USD_M", "t.csv", "A2")
    >>> compound_rate(late, early)
    Computed(value=10.0, unit='PCT', derivation='(121 / 100)^(1/2) − 1 = 10%')
    """
    spans = [int(f.period) for f in (a, b) if f.period_type == "FY" and f.period.isdigit()]
    span = spans[0] - spans[1] if len(spans) == 2 else 0
    if span < 1:
        return NotComputed("compound_periods", (period_label(b.period_type, b.period),
                                                period_label(a.period_type, a.period)))
    if years and years != span:
        return NotComputed("compound_years", (str(years), f"FY{b.period}", f"FY{a.period}"))
    if b.value == 0:
        return NotComputed("zero_base")
    if b.value < 0 or a.value < 0:
        return NotComputed("negative_base", (format_value(min(a.value, b.value)),))
    rate = round(((a.value / b.value) ** (1 / span) - 1) * 100, PERCENT_DECIMALS) + 0.0
    return Computed(rate, "PCT", f"({format_value(a.value)} / {format_value(b.value)})"
                                f"^(1/{span}) − 1 = {format_value(rate)}%")


def in_points(operation: Operation, unit: str) -> bool:
    """Whether a change asked in points is computed in points: over percentages only.

    >>> in_points(Operation("percent_change", points=True), "PCT")
    True
    >>> in_points(Operation("percent_change", points=True), "USD_M")
    False
    """
    return operation.points and unit_parts(unit).percent


def _points(a: Fact, b: Fact) -> Computed:
    """The change between two percentages in percentage points."""
    diff = _difference(a, b)
    return Computed(diff.value, diff.unit, f"{diff.derivation} percentage points")


def change_of_change(inner: str, operands: Sequence[Fact]) -> Computed | NotComputed:
    """The later change minus the earlier one, over three periods given latest first.

    Examples
    --------
    >>> f = [Fact("R", "C", "NA", "TOTAL", "FY", y, v, "USD_M", "t.csv", "r")
    ...      for y, v in (("2019", 130.0), ("2018", 110.0), ("2017", 100.0))]
    >>> change_of_change("difference", f).derivation
    '[(130 − 110) = 20] − [(110 − 100) = 10] = 10'
    >>> change_of_change("percent_change", f).value
    8.18
    """
    if len(operands) != 3:
        return NotComputed("operands", (str(len(operands)),))
    later = compute(Operation(inner), operands[:2])
    if isinstance(later, NotComputed):
        return later
    earlier = compute(Operation(inner), operands[1:])
    if isinstance(earlier, NotComputed):
        return earlier
    places = PERCENT_DECIMALS if inner == "percent_change" else max(
        decimals(f.value) for f in operands)
    value = round(later.value - earlier.value, places) + 0.0
    tail = "" if inner == "difference" else " percentage points"
    return Computed(value, later.unit, f"[{later.derivation}] − [{earlier.derivation}] = "
                                       f"{format_value(value)}{tail}")


def aggregate(kind: str, operands: Sequence[Fact]) -> Computed | NotComputed:
    """The ``average`` or ``sum`` of two or more operands in one unit.

    Examples
    --------
    >>> f = [Fact("DY", "C", "NA", "TOTAL", "FY", y, v, "PCT", "t.csv", "r")
    ...      for y, v in (("2019", 1.7), ("2018", 1.5), ("2017", 1.5))]
    >>> aggregate("average", f).derivation
    '(1.7 + 1.5 + 1.5) / 3 = 1.57'
    >>> aggregate("sum", f[:2])
    Computed(value=3.2, unit='PCT', derivation='1.7 + 1.5 = 3.2')
    """
    if kind not in ("average", "sum"):
        raise ValueError(f"aggregate kind must be 'average' or 'sum', got {kind!r}")
    if len(operands) < 2:
        return NotComputed("operands", (str(len(operands)),))
    mixed = one_unit(operands)
    if mixed is not None:
        return mixed
    places = max(decimals(f.value) for f in operands)
    total = round(sum(f.value for f in operands), places) + 0.0
    terms = " + ".join(format_value(f.value) for f in operands)
    if kind == "sum":
        return Computed(total, operands[0].unit, f"{terms} = {format_value(total)}")
    mean = total / len(operands)
    shown = shown_text(mean, shown_decimals("average", operands))
    return Computed(mean, operands[0].unit, f"({terms}) / {len(operands)} = {shown}")


def ratio(numerators: Sequence[Fact], denominator: Fact,
          percent: bool) -> Computed | NotComputed:
    """The numerators (summed) over the denominator; in percent when ``percent``.

    Examples
    --------
    >>> a = Fact("PREPAID", "C", "NA", "TOTAL", "FY", "2019", 2303.0, "USD_K", "t.csv", "B2")
    >>> b = Fact("PREPAID_TOTAL", "C", "NA", "TOTAL", "FY", "2019", 2496.0, "USD_K", "t.csv", "B4")
    >>> ratio([a], b, percent=True).derivation
    '2,303 / 2,496 × 100 = 92.27%'
    >>> round(ratio([a], b, percent=False).value, 4)
    0.9227
    """
    if not numerators:
        return NotComputed("operands", ("0",))
    mixed = one_unit([*numerators, denominator])
    if mixed is not None:
        return mixed
    if denominator.value == 0:
        return NotComputed("zero_base")
    places = max(decimals(f.value) for f in numerators)
    top = round(sum(f.value for f in numerators), places) + 0.0
    terms = " + ".join(format_value(f.value) for f in numerators)
    top_text = f"({terms})" if len(numerators) > 1 else terms
    value = top / denominator.value * (100 if percent else 1)
    shown = shown_text(value, shown_decimals("share" if percent else "ratio",
                                             [*numerators, denominator], value))
    tail = f" × 100 = {shown}%" if percent else f" = {shown}"
    return Computed(value, "PCT" if percent else "",
                    f"{top_text} / {format_value(denominator.value)}{tail}")
