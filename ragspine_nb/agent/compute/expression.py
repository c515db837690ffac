"""Arithmetic over named operands: a formula's tree computed with its derivation.

The steps are pure:

1. :func:`~ragspine_nb.arithmetic.parse` reads the text into a tree (re-exported here
   with its node types for the agent's callers).
2. :func:`evaluate` asks a resolver for each name's :class:`Term` (a stored cell, a mean
   of two, or a formula of its own) and computes the tree: a sum or difference needs its
   operands in one unit, a ratio of two amounts in one unit is a plain number, a constant
   keeps the unit it scales. Subtracting a figure shown as a deduction (negative) from a
   positive one subtracts its size, and the derivation says so; adding a stored positive
   and a stored negative figure is refused (an add-back stated as a deduction?).
   Every name that cannot be resolved is reported, and no value is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ragspine_nb.agent.compute.operations import PERCENT_DECIMALS, NotComputed, decimals, shown_text
from ragspine_nb.agent.write.templates import format_value
from ragspine_nb.arithmetic import (
    PRECEDENCE,
    Bin,
    FormulaSyntaxError,
    Name,
    Node,
    Num,
    names_in,
    parse,
)
from ragspine_nb.core import Fact
from ragspine_nb.units import scale_ratio

__all__ = ["Num", "Name", "Bin", "Node", "Term", "Value", "Missing", "FormulaSyntaxError",
           "parse", "names_in", "evaluate", "result_text", "figure_value", "OPERATION_OF"]

#: The operation a figure computed by each top-level operator is reported as.
OPERATION_OF = {"/": "ratio", "-": "difference", "+": "sum", "*": "ratio"}
_SHOWN = {"*": "×", "/": "/", "+": "+", "-": "-"}


# --------------------------------------------------------------------------- evaluation
@dataclass(frozen=True)
class Term:
    """A resolved operand: its value in ``unit``, its cells, and how it is shown."""

    value: float
    unit: str
    facts: tuple[Fact, ...]
    #: the operand in the formula's words ("Gross profit")
    name: str
    #: the operand's number(s) in the derivation ("600", "[(1,300 + 1,400) / 2]")
    shown: str
    #: a stored cell as stated (the sign rules read these), not a computed value
    stated: bool = True


@dataclass(frozen=True)
class Value:
    """A computed (sub)formula: value, unit (``None``: a bare constant), cells, text."""

    value: float
    unit: str | None
    facts: tuple[Fact, ...]
    names: str
    numbers: str
    op: str = ""
    stated: bool = False
    #: the places it is exact to (a written figure, or a sum of them); ``None``: computed
    places: int | None = None


@dataclass(frozen=True)
class Missing:
    """The operands that could not be resolved, each with why (in words).

    ``found`` holds the cells of the operands that were resolved (cited as inputs).
    """

    reasons: tuple[str, ...]
    found: tuple[Fact, ...] = ()


Resolve = Callable[[str], "Term | str"]


def _leaf(node: Num | Name, resolve: Resolve) -> Value | Missing:
    if isinstance(node, Num):
        text = format_value(node.value)
        return Value(node.value, None, (), text, text, places=decimals(node.value))
    term = resolve(node.text)
    if isinstance(term, str):
        return Missing((term,))
    places = max((decimals(f.value) for f in term.facts), default=0) if term.stated else None
    return Value(term.value, term.unit, term.facts, term.name, term.shown, stated=term.stated,
                 places=places)


def _wrap(v: Value, parent: str, right: bool) -> tuple[str, str]:
    if v.op and (PRECEDENCE[v.op] < PRECEDENCE[parent] or
                 (right and parent in "-/" and PRECEDENCE[v.op] == PRECEDENCE[parent])):
        return f"({v.names})", f"({v.numbers})"
    return v.names, v.numbers


def _unit(op: str, a: Value, b: Value) -> str | None | NotComputed:
    """The unit of ``a op b`` (``None``: a bare constant), or why the units do not mix."""
    if a.unit is None:
        return "" if op == "/" and b.unit is not None else b.unit
    if b.unit is None:
        return a.unit
    if a.unit != b.unit or op == "*":
        return NotComputed("units", (a.unit, b.unit))
    return "" if op == "/" else a.unit


def rescaled(a: Value, b: Value) -> tuple[Value, Value]:
    """Two amounts of one currency in two scales, the finer one put in the coarser's.

    ``2,213,556 K`` beside ``1,469.5 M`` becomes ``2,213.556 M`` (shown as
    ``2,213,556 K = 2,213.556 M``); anything else is returned as it is.
    """
    ratio = scale_ratio(a.unit, b.unit) if a.unit and b.unit and a.unit != b.unit else None
    if ratio is None:
        return a, b
    fine, coarse, into = (a, b, ratio) if ratio < 1 else (b, a, 1 / ratio)
    value = fine.value * into
    moved = replace(fine, value=value, unit=coarse.unit, places=None,
                    numbers=f"({fine.numbers} {fine.unit} = {format_value(value)} {coarse.unit})")
    return (moved, b) if fine is a else (a, moved)


def _combine(op: str, a: Value, b: Value) -> Value | NotComputed:
    a, b = rescaled(a, b)
    unit = _unit(op, a, b)
    if isinstance(unit, NotComputed):
        return unit
    names_a, nums_a = _wrap(a, op, False)
    names_b, nums_b = _wrap(b, op, True)
    rhs = b.value
    if op == "-" and b.value < 0 <= a.value:  # a deduction shown negative: its size
        rhs, nums_b = -b.value, f"{format_value(-b.value)} (the size of {b.numbers})"
    if op == "/" and b.stated and b.value < 0 <= a.value:
        # a base stated negative, a cost in brackets ("Cost of sales (11,969)"): its size,
        # never a negative count of days or a negative turnover
        rhs, nums_b = -b.value, f"{format_value(-b.value)} (the size of {b.numbers})"
    if op == "+" and a.stated and b.stated and (a.value < 0) != (b.value < 0):
        return NotComputed("signs", (f"{format_value(a.value)}, {format_value(b.value)}",))
    if op == "/" and b.value == 0:
        return NotComputed("zero_base")
    value = a.value + rhs if op == "+" else a.value - rhs if op == "-" else \
        a.value * rhs if op == "*" else a.value / rhs
    places = max(a.places, b.places) if op in "+-" and a.places is not None \
        and b.places is not None else None
    if places is not None:  # a sum or difference of written figures: exact to their places
        value = round(value, places) + 0.0
    return Value(value, unit, (*a.facts, *b.facts), f"{names_a} {_SHOWN[op]} {names_b}",
                 f"{nums_a} {_SHOWN[op]} {nums_b}", op, places=places)


def _walk(node: Node, resolve: Resolve) -> Value | Missing | NotComputed:
    if not isinstance(node, Bin):
        return _leaf(node, resolve)
    left, right = _walk(node.left, resolve), _walk(node.right, resolve)
    missing = [r for side in (left, right) if isinstance(side, Missing) for r in side.reasons]
    if missing:
        found = [f for side in (left, right) if isinstance(side, Value | Missing)
                 for f in (side.facts if isinstance(side, Value) else side.found)]
        return Missing(tuple(dict.fromkeys(missing)), tuple(dict.fromkeys(found)))
    for side in (left, right):
        if isinstance(side, NotComputed):
            return side
    assert isinstance(left, Value) and isinstance(right, Value)  # narrowed above
    return _combine(node.op, left, right)


def evaluate(node: Node, resolve: Resolve, *, percent: bool = False) -> \
        Value | Missing | NotComputed:
    """The formula's value with its words and numbers, or what is missing, or why not.

    ``percent``: the result is a percentage (a ratio × 100, unit ``PCT``).

    Examples
    --------
    >>> terms = {"a": Term(600.0, "USD_M", (), "Gross profit", "600"),
    ...          "b": Term(1500.0, "USD_M", (), "Revenue", "1,500")}
    >>> v = evaluate(parse("a / b"), lambda n: terms.get(n, f"{n!r} is not stored"),
    ...              percent=True)
    >>> (v.value, v.unit, v.names, v.numbers)
    (40.0, 'PCT', 'Gross profit / Revenue × 100', '600 / 1,500 × 100')
    >>> evaluate(parse("a - c"), lambda n: terms.get(n, f"{n!r} is not stored"))
    Missing(reasons=("'c' is not stored",), found=())
    """
    out = _walk(node, resolve)
    if not isinstance(out, Value) or not percent:
        return out
    if out.unit:  # a percentage of something that is not a plain ratio
        return NotComputed("units", (out.unit, "PCT"))
    return Value(out.value * 100, "PCT", out.facts, f"{out.names} × 100",
                 f"{out.numbers} × 100", out.op)


def result_text(value: Value) -> str:
    """The value as the derivation ends with it (percentages with a ``%``)."""
    places = value.places if value.places is not None else PERCENT_DECIMALS
    shown = shown_text(value.value, places)
    return f"{shown}%" if value.unit == "PCT" else shown


def figure_value(value: Value) -> float:
    """The value a figure states: a computed sum or difference to 4 places, else as is.

    Its terms are rounded in the derivation; the figure is not more precise than that.
    """
    if value.places is None and value.op in ("+", "-"):
        return round(value.value, 4) + 0.0
    return value.value
