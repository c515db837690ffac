"""Operations a question asks of stored figures: detected, then computed or refused.

A question asking for a change, a difference or a percentage change names an
:class:`Operation`; :func:`compute` applies it to the cited cells (its operands) as a
pure step and returns the value with its derivation, or :class:`NotComputed` saying
why not. Nothing here reads a store: the operands come from the fact channel, and a
level or a single operand is never passed off as the result of an operation.

Supported now: ``difference`` (first operand minus second) and ``percent_change``
(relative to the second operand). Every other kind of :data:`COMPUTED_OPERATIONS` is a
valid request that :func:`compute` refuses (``unsupported``) until it is implemented.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.agent.intent import ROUTE_COMPOSITE, ParsedIntent
from ragspine_nb.agent.templates import NOT_COMPUTED, format_value
from ragspine_nb.errors import InvalidRecordError
from ragspine_nb.glossary import fold
from ragspine_nb.types import COMPUTED_OPERATIONS, Fact

__all__ = ["Operation", "Computed", "NotComputed", "compute", "detect_operation",
           "SUPPORTED_OPERATIONS", "COMPARE_CUES", "DIFFERENCE_CUES"]

#: The operations :func:`compute` carries out today.
SUPPORTED_OPERATIONS: tuple[str, ...] = ("difference", "percent_change")
#: Words asking to compare two figures: both levels are answered, with their difference.
COMPARE_CUES: tuple[str, ...] = ("对比", "比较", "compare", "comparison", "versus", "vs")
#: Words asking for the difference *between* two named figures (not a change over time).
DIFFERENCE_CUES: tuple[str, ...] = ("difference", "differences", "differ", "gap", "差额", "差异",
                                    "相差", "差距")
#: A difference asked as a percentage of the second figure.
RELATIVE_DIFFERENCE_CUES: tuple[str, ...] = ("percentage difference", "percent difference",
                                             "% difference", "差异率")
#: Decimal places of a computed percentage.
PERCENT_DECIMALS = 2


@dataclass(frozen=True)
class Operation:
    """What a question asks to compute over the figures it names.

    Parameters
    ----------
    kind : str
        One of :data:`~ragspine_nb.types.COMPUTED_OPERATIONS`.
    with_levels : bool
        The levels are asked for too (a comparison: both figures and their difference).
    between : bool
        The question asks for the difference *between* figures it names ("the
        difference between A and B"), which is not a change over time: when it also
        spans two periods, which difference is meant is not clear.
    """

    kind: str
    with_levels: bool = False
    between: bool = False

    def __post_init__(self) -> None:
        if self.kind not in COMPUTED_OPERATIONS:
            raise InvalidRecordError(f"Operation.kind {self.kind!r} is not valid. "
                                     f"Valid: {list(COMPUTED_OPERATIONS)}")


@dataclass(frozen=True)
class Computed:
    """The value of an operation, in ``unit``, and how it was obtained."""

    value: float
    unit: str
    derivation: str


@dataclass(frozen=True)
class NotComputed:
    """Why an operation was not computed: a ``reason`` code and the values it names.

    Reasons: ``units`` (operands in different units), ``zero_base``, ``negative_base``
    (a percentage of a zero or negative base), ``operands`` (not two), ``periods``
    (periods of different kinds), ``unsupported`` (not computed yet), ``ambiguous`` (the
    difference between two named figures, or each one's change over two periods?).
    """

    reason: str
    values: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.reason not in NOT_COMPUTED["en"]:
            raise InvalidRecordError(f"NotComputed.reason {self.reason!r} is not valid. "
                                     f"Valid: {list(NOT_COMPUTED['en'])}")

    def text(self, lang: str = "en") -> str:
        """The reason in words, in ``lang`` (``en`` or ``zh``)."""
        return NOT_COMPUTED[lang][self.reason].format(*self.values)


def _has_cue(text: str, cues: Sequence[str]) -> bool:
    return any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", text) if c.isascii()
               else c in text for c in cues)


def detect_operation(intent: ParsedIntent) -> Operation | None:
    """The operation a parsed question asks for, if any.

    "The difference between A and B" asks for a ``difference`` (a ``percent_change``
    only when it says "percentage difference"), even between percentages; a change cue
    asks for a ``percent_change`` when it also asks for a percentage, else a
    ``difference``; a comparison cue asks for both levels and their difference. A "why"
    question (composite) keeps its level as the structured anchor unless it names the
    two periods or columns to compare.
    """
    if intent.route == ROUTE_COMPOSITE and len(intent.periods) < 2 and len(intent.channels) < 2:
        return None
    text = fold(intent.raw_question)
    between = _has_cue(text, DIFFERENCE_CUES)
    if between:  # a subtraction, unless a relative difference is asked in so many words
        relative = _has_cue(text, RELATIVE_DIFFERENCE_CUES)
        return Operation("percent_change" if relative else "difference", between=True)
    if intent.change_cue:
        return Operation("percent_change" if intent.percent_cue else "difference")
    if _has_cue(text, COMPARE_CUES):
        return Operation("difference", with_levels=True)
    return None


def _decimals(value: float) -> int:
    text = repr(float(value))
    return 0 if "e" in text or "." not in text else len(text.split(".")[1].rstrip("0"))


def _difference(a: Fact, b: Fact) -> Computed:
    diff = round(a.value - b.value, max(_decimals(a.value), _decimals(b.value)))
    diff = diff + 0.0  # no "-0"
    return Computed(diff, a.unit, f"({format_value(a.value)} − {format_value(b.value)}) = "
                                  f"{format_value(diff)}")


def _percent_change(a: Fact, b: Fact) -> Computed | NotComputed:
    if b.value == 0:
        return NotComputed("zero_base")
    if b.value < 0:
        return NotComputed("negative_base", (format_value(b.value),))
    pct = round((a.value - b.value) / b.value * 100, PERCENT_DECIMALS) + 0.0
    return Computed(pct, "PCT", f"({format_value(a.value)} − {format_value(b.value)}) / "
                                f"{format_value(b.value)} = {format_value(pct)}%")


def compute(operation: Operation, operands: Sequence[Fact]) -> Computed | NotComputed:
    """Apply ``operation`` to its operands, in order (pure, deterministic).

    ``difference`` is the first operand minus the second; ``percent_change`` the same
    difference relative to the second (a zero or negative base is refused). Both need
    exactly two operands in one unit.

    Examples
    --------
    >>> a = Fact("REVENUE", "HK", "HK", "TOTAL", "FY", "2025", 1405.0, "USD_M", "d", "c2")
    >>> b = Fact("REVENUE", "HK", "HK", "TOTAL", "FY", "2024", 1320.0, "USD_M", "d", "c1")
    >>> compute(Operation("difference"), (a, b)).derivation
    '(1,405 − 1,320) = 85'
    >>> compute(Operation("percent_change"), (a, b))
    Computed(value=6.44, unit='PCT', derivation='(1,405 − 1,320) / 1,320 = 6.44%')
    """
    if operation.kind not in SUPPORTED_OPERATIONS:
        return NotComputed("unsupported", (operation.kind,))
    if len(operands) != 2:
        return NotComputed("operands", (str(len(operands)),))
    a, b = operands
    if a.unit != b.unit:
        return NotComputed("units", (a.unit, b.unit))
    return _difference(a, b) if operation.kind == "difference" else _percent_change(a, b)
