"""Arithmetic over named operands: a formula read into a tree, computed with its derivation.

A formula is written the way people write one: ``(OPERATING_INCOME +
DEPRECIATION_AMORTIZATION) / REVENUE`` in a profile, ``365 * (average inventory between
FY2018 and FY2019) / (FY2019 COGS)`` or ``DIO + DSO - DPO`` in a question. The steps are
pure:

1. :func:`parse` reads the text into a tree of :class:`Num`, :class:`Name` and
   :class:`Bin` nodes with the usual precedence. An operator is an operator only where
   it stands apart (``" - "``, never the hyphen of "non-current"), words ``plus``,
   ``minus``, ``times``, ``divided by`` and ``multiplied by`` included; a parenthesis
   right after a name belongs to the name ("Net income (loss)").
2. :func:`evaluate` asks a resolver for each name's :class:`Term` (a stored cell, a mean
   of two, or a formula of its own) and computes the tree: a sum or difference needs its
   operands in one unit, a ratio of two amounts in one unit is a plain number, a constant
   keeps the unit it scales. Subtracting a figure shown as a deduction (negative) from a
   positive one subtracts its size, and the derivation says so; adding a stored positive
   and a stored negative figure is refused (an add-back stated as a deduction?).
   Every name that cannot be resolved is reported, and no value is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ragspine_nb.agent.operations import PERCENT_DECIMALS, NotComputed, decimals, shown_text
from ragspine_nb.agent.templates import format_value
from ragspine_nb.errors import RagspineError
from ragspine_nb.types import Fact

__all__ = ["Num", "Name", "Bin", "Node", "Term", "Value", "Missing", "FormulaSyntaxError",
           "parse", "names_in", "evaluate", "result_text", "figure_value", "OPERATION_OF"]

#: The operation a figure computed by each top-level operator is reported as.
OPERATION_OF = {"/": "ratio", "-": "difference", "+": "sum", "*": "ratio"}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_WORD_OPS = re.compile(r"\s+(plus|minus|times|multiplied by|divided by)\s+", re.I)
_WORD_SIGN = {"plus": "+", "minus": "-", "times": "*", "multiplied by": "*",
              "divided by": "/"}
_SIGNS = {"+": "+", "-": "-", "*": "*", "/": "/", "×": "*", "÷": "/", "−": "-"}
_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")
_SHOWN = {"*": "×", "/": "/", "+": "+", "-": "-"}


class FormulaSyntaxError(RagspineError, ValueError):
    """A formula that does not read as arithmetic over names and numbers."""


@dataclass(frozen=True)
class Num:
    """A constant written in the formula (``365``, ``100``)."""

    value: float


@dataclass(frozen=True)
class Name:
    """An operand named in words or by a metric code."""

    text: str


@dataclass(frozen=True)
class Bin:
    """``left op right``."""

    op: str
    left: Node
    right: Node


Node = Num | Name | Bin


# ----------------------------------------------------------------------------- parsing
def _tokens(text: str) -> list[str]:
    """Operators, parentheses and operand texts, in order (see the module docstring)."""
    text = _WORD_OPS.sub(lambda m: f" {_WORD_SIGN[' '.join(m.group(1).lower().split())]} ",
                         f" {text} ").strip()
    out: list[str] = []
    name: list[str] = []
    depth = 0  # parentheses opened inside a name ("Net income (loss)")

    def flush() -> None:
        if "".join(name).strip():
            out.append(" ".join("".join(name).split()))
        name.clear()

    for i, ch in enumerate(text):
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        if depth == 0 and ch in _SIGNS and (ch in "×÷−" or (
                before in " )" and after in " (")):
            flush()
            out.append(_SIGNS[ch])
        elif ch == "(" and (depth or "".join(name).strip()):
            depth += 1
            name.append(ch)
        elif ch == ")" and depth:
            depth -= 1
            name.append(ch)
        elif ch in "()":
            flush()
            out.append(ch)
        else:
            name.append(ch)
    flush()
    return out


def _atom(tokens: list[str], at: int) -> tuple[Node, int]:
    if at >= len(tokens):
        raise FormulaSyntaxError("the formula ends where an operand was expected")
    token = tokens[at]
    if token == "(":
        node, at = _sum(tokens, at + 1)
        if at >= len(tokens) or tokens[at] != ")":
            raise FormulaSyntaxError("a parenthesis is not closed")
        return node, at + 1
    if token in _PRECEDENCE or token == ")":
        raise FormulaSyntaxError(f"an operand was expected, not {token!r}")
    if _NUMBER.match(token):
        return Num(float(token.replace(",", ""))), at + 1
    return Name(token), at + 1


def _product(tokens: list[str], at: int) -> tuple[Node, int]:
    node, at = _atom(tokens, at)
    while at < len(tokens) and tokens[at] in ("*", "/"):
        right, nxt = _atom(tokens, at + 1)
        node, at = Bin(tokens[at], node, right), nxt
    return node, at


def _sum(tokens: list[str], at: int) -> tuple[Node, int]:
    node, at = _product(tokens, at)
    while at < len(tokens) and tokens[at] in ("+", "-"):
        right, nxt = _product(tokens, at + 1)
        node, at = Bin(tokens[at], node, right), nxt
    return node, at


def parse(text: str) -> Node:
    """The formula ``text`` as a tree.

    Examples
    --------
    >>> parse("(OPERATING_INCOME + DEPRECIATION_AMORTIZATION) / REVENUE")
    Bin(op='/', left=Bin(op='+', left=Name(text='OPERATING_INCOME'), \
right=Name(text='DEPRECIATION_AMORTIZATION')), right=Name(text='REVENUE'))
    >>> parse("DIO + DSO - DPO")
    Bin(op='-', left=Bin(op='+', left=Name(text='DIO'), right=Name(text='DSO')), \
right=Name(text='DPO'))
    >>> parse("365 * (average inventory) / (FY2019 COGS)").left
    Bin(op='*', left=Num(value=365.0), right=Name(text='average inventory'))
    >>> parse("net income (loss) divided by total non-current assets")
    Bin(op='/', left=Name(text='net income (loss)'), right=Name(text='total non-current assets'))
    """
    tokens = _tokens(text.strip().rstrip("."))
    if not tokens:
        raise FormulaSyntaxError("the formula is empty")
    node, at = _sum(tokens, 0)
    if at != len(tokens):
        raise FormulaSyntaxError(f"unexpected {tokens[at]!r} in the formula")
    return node


def names_in(node: Node) -> list[str]:
    """The operand names of a formula, in order, each once."""
    if isinstance(node, Name):
        return [node.text]
    if isinstance(node, Bin):
        return list(dict.fromkeys([*names_in(node.left), *names_in(node.right)]))
    return []


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
    """The operands that could not be resolved, each with why (in words)."""

    reasons: tuple[str, ...]


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
    if v.op and (_PRECEDENCE[v.op] < _PRECEDENCE[parent] or
                 (right and parent in "-/" and _PRECEDENCE[v.op] == _PRECEDENCE[parent])):
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


def _combine(op: str, a: Value, b: Value) -> Value | NotComputed:
    unit = _unit(op, a, b)
    if isinstance(unit, NotComputed):
        return unit
    names_a, nums_a = _wrap(a, op, False)
    names_b, nums_b = _wrap(b, op, True)
    rhs = b.value
    if op == "-" and b.value < 0 <= a.value:  # a deduction shown negative: its size
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
        return Missing(tuple(dict.fromkeys(missing)))
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
    Missing(reasons=("'c' is not stored",))
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
