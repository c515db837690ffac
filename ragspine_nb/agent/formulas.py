"""Formulas a question defines inline, read and computed over cited cells (pure steps).

"What is the FY2017 operating cash flow ratio? Operating cash flow ratio is defined as:
cash from operations / total current liabilities." The definition is read apart from
the question (:mod:`ragspine_nb.agent.instructions`); :func:`read_formula` reads it as
one binary operation of two named operands (``/`` or "divided by", ``-`` or "minus",
``+`` or "plus"), each operand a line item with, optionally, its own period or an
average of two ("average inventory between FY2020 and FY2021"). :func:`evaluate` applies
the operation to the operands' values with the derivation written out. What cannot be
read (nested formulas such as "DIO + DSO - DPO", several operators) is ``None``: the
caller answers without a figure, never with one operand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.agent.operations import (
    PERCENT_DECIMALS,
    Computed,
    NotComputed,
    decimals,
    shown_text,
)
from ragspine_nb.agent.templates import format_value
from ragspine_nb.types import Fact

__all__ = ["Formula", "Operand", "read_formula", "evaluate", "BUILTIN_FORMULAS"]

_DEFINED = re.compile(r"^(?P<name>.+?)\s+is\s+defined\s+as\s*:?\s*(?P<expr>.+?)\.?$"
                      r"|^define\s+(?P<name2>.+?)\s+as\s*:?\s*(?P<expr2>.+?)\.?$",
                      re.I | re.S)
#: The operators a definition is written with, as the formula's own sign.
_OPERATORS = {"/": "/", "divided by": "/", "-": "-", "minus": "-", "+": "+", "plus": "+"}
_SPLIT = re.compile(r"\s(" + "|".join(map(re.escape, _OPERATORS)) + r")\s", re.I)


@dataclass(frozen=True)
class Formula:
    """``name = left op right``, as the question writes it."""

    name: str
    op: str  # "/", "-" or "+"
    left: str
    right: str
    #: a ratio in percent (× 100): a margin
    percent: bool = False

    @property
    def text(self) -> str:
        """The formula as one line."""
        tail = " × 100" if self.percent else ""
        return f"{self.name} = {self.left} {self.op} {self.right}{tail}"


#: Derived metrics of the built-in profile, computed when no stored figure states them:
#: ``code → (left code, operator, right code, percent)``. A margin is a percentage of
#: revenue; free cash flow subtracts capital expenditure's size; EBITDA adds depreciation
#: and amortization to operating income; the current ratio divides current assets by
#: current liabilities.
BUILTIN_FORMULAS: dict[str, tuple[str, str, str, bool]] = {
    "GROSS_MARGIN": ("GROSS_PROFIT", "/", "REVENUE", True),
    "OPERATING_MARGIN": ("OPERATING_INCOME", "/", "REVENUE", True),
    "NET_MARGIN": ("NET_INCOME", "/", "REVENUE", True),
    "FREE_CASH_FLOW": ("OPERATING_CASH_FLOW", "-", "CAPEX", False),
    "EBITDA": ("OPERATING_INCOME", "+", "DEPRECIATION_AMORTIZATION", False),
    "CURRENT_RATIO": ("CURRENT_ASSETS", "/", "CURRENT_LIABILITIES", False),
}


@dataclass(frozen=True)
class Operand:
    """One side of a formula: its value (one fact, or the mean of two) and its facts."""

    text: str
    value: float
    unit: str
    facts: tuple[Fact, ...]


def _unwrap(text: str) -> str:
    text = text.strip().strip(".").strip()
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1].strip()
    return text


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _top_level(expr: str) -> list[re.Match[str]]:
    """Operator matches outside parentheses."""
    out = []
    for m in _SPLIT.finditer(expr):
        if _balanced(expr[: m.start()]):
            out.append(m)
    return out


def read_formula(definition: str) -> Formula | None:
    """The formula one definition sentence states, if it is one binary operation.

    Examples
    --------
    >>> read_formula("Operating cash flow ratio is defined as: cash from operations / "
    ...              "total current liabilities.").text
    'Operating cash flow ratio = cash from operations / total current liabilities'
    >>> read_formula("Define working capital ratio as total current assets divided by "
    ...              "total current liabilities.").op
    '/'
    >>> read_formula("CCC is defined as: DIO + DSO - DPO.") is None
    True
    """
    m = _DEFINED.match(definition.strip())
    if m is None:
        return None
    name = (m.group("name") or m.group("name2") or "").strip()
    expr = _unwrap(m.group("expr") or m.group("expr2") or "")
    found = _top_level(expr)
    if len(found) != 1 or not name:
        return None
    op = found[0]
    left, right = _unwrap(expr[: op.start()]), _unwrap(expr[op.end():])
    if not left or not right:
        return None
    return Formula(name, _OPERATORS[op.group(1).lower()], left, right)


def _side(o: Operand) -> str:
    if len(o.facts) == 1:
        return format_value(o.value)
    terms = " + ".join(format_value(f.value) for f in o.facts)
    return f"[({terms}) / {len(o.facts)}]"


def evaluate(formula: Formula, left: Operand, right: Operand) -> Computed | NotComputed:
    """``left op right`` with the derivation; both operands in one unit.

    A ratio of two amounts in one unit is a plain number; a sum or difference keeps the
    unit. Subtracting a figure shown as a deduction (negative) beside a positive one
    subtracts its size, and the derivation says so. A sum of a positive and a negative
    operand (an add-back stated as a deduction?), a zero divisor or two units are refused.
    """
    if left.unit != right.unit:
        return NotComputed("units", (left.unit, right.unit))
    # "cash from operations - capex" with capex shown as an outflow, (460.8): the minus is
    # the deduction the parentheses mark — its size is subtracted (said so)
    deducted = formula.op == "-" and right.value < 0 <= left.value
    shown_right = f"{format_value(abs(right.value))} (the size of {_side(right)})" \
        if deducted else _side(right)
    if formula.op == "/":
        if right.value == 0:
            return NotComputed("zero_base")
        value, unit = left.value / right.value * (100 if formula.percent else 1), \
            "PCT" if formula.percent else ""
    elif formula.op == "+" and (left.value < 0) != (right.value < 0):
        # an add-back stated as a deduction?
        return NotComputed("signs", (f"{format_value(left.value)}, "
                                     f"{format_value(right.value)}",))
    else:  # a sum or difference: exact to the operands' places (no float residue)
        total = left.value + right.value if formula.op == "+" else \
            left.value - abs(right.value) if deducted else left.value - right.value
        value = round(total, max((decimals(f.value) for f in (*left.facts, *right.facts)),
                                 default=0))
        unit = left.unit
    tail = " × 100" if formula.percent else ""
    pct = "%" if formula.percent else ""
    derivation = f"{formula.text}: {_side(left)} {formula.op} {shown_right}{tail} = " \
                 f"{shown_text(value, PERCENT_DECIMALS)}{pct}"
    return Computed(value, unit, derivation)
