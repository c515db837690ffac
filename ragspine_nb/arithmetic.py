"""Formulas as written, read into trees: ``(A + B) / C``, ``365 * (average X) / Y``.

A formula is written the way people write one: ``(OPERATING_INCOME +
DEPRECIATION_AMORTIZATION) / REVENUE`` in a profile, ``365 * (average inventory between
FY2018 and FY2019) / (FY2019 COGS)`` or ``DIO + DSO - DPO`` in a question.
:func:`parse` reads the text into a tree of :class:`Num`, :class:`Name` and :class:`Bin`
nodes with the usual precedence. An operator is an operator only where it stands apart
(``" - "``, never the hyphen of "non-current"), words ``plus``, ``minus``, ``times``,
``divided by`` and ``multiplied by`` included; a parenthesis right after a name belongs
to the name ("Net income (loss)"). Nothing is computed here: the agent evaluates trees
over stored facts (:mod:`ragspine_nb.agent.compute.expression`); a profile checks its formulas
with the same parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ragspine_nb.errors import RagspineError

__all__ = ["Num", "Name", "Bin", "Node", "FormulaSyntaxError", "parse", "names_in",
           "PRECEDENCE"]

#: Binding strength of each operator.
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_WORD_OPS = re.compile(r"\s+(plus|minus|times|multiplied by|divided by)\s+", re.I)
_WORD_SIGN = {"plus": "+", "minus": "-", "times": "*", "multiplied by": "*",
              "divided by": "/"}
_SIGNS = {"+": "+", "-": "-", "*": "*", "/": "/", "×": "*", "÷": "/", "−": "-"}
_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")


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
    if token in PRECEDENCE or token == ")":
        raise FormulaSyntaxError(f"an operand was expected, not {token!r}")
    if _NUMBER.match(token):
        return Num(float(token.replace(",", ""))), at + 1
    return Name(token), at + 1


def _chain(tokens: list[str], at: int, ops: tuple[str, str],
           operand: Callable[[list[str], int], tuple[Node, int]]) -> tuple[Node, int]:
    """Operands joined by ``ops``, left to right (one precedence level)."""
    node, at = operand(tokens, at)
    while at < len(tokens) and tokens[at] in ops:
        right, nxt = operand(tokens, at + 1)
        node, at = Bin(tokens[at], node, right), nxt
    return node, at


def _product(tokens: list[str], at: int) -> tuple[Node, int]:
    return _chain(tokens, at, ("*", "/"), _atom)


def _sum(tokens: list[str], at: int) -> tuple[Node, int]:
    return _chain(tokens, at, ("+", "-"), _product)


@lru_cache(maxsize=512)
def parse(text: str) -> Node:
    """The formula ``text`` as a tree (trees are immutable: one parse per text).

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
