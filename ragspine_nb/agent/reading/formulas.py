"""Formulas a question defines inline, read into expression trees (pure steps).

"What is the FY2017 operating cash flow ratio? Operating cash flow ratio is defined as:
cash from operations / total current liabilities." The definitions are read apart from
the question (:mod:`ragspine_nb.agent.reading.instructions`); :func:`read_definition` reads one
sentence as a name and an arithmetic formula
(:func:`~ragspine_nb.agent.compute.expression.parse`): operands are line items, with their own
period, an average of two ("average inventory between FY2020 and FY2021") or a change
between two, numbers, or the names of other definitions ("CCC is defined as: DIO + DSO -
DPO", each of those defined in its own sentence). :func:`asked_definition` picks the one
the question asks for. What cannot be read is ``None``: the caller answers without a
figure, never with one operand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.arithmetic import FormulaSyntaxError, Node, names_in, parse
from ragspine_nb.glossary import fold

__all__ = ["Definition", "read_definition", "asked_definition"]

_DEFINED = re.compile(r"^(?P<name>.+?)\s+is\s+defined\s+as\s*:?\s*(?P<expr>.+?)\.?$"
                      r"|^define\s+(?P<name2>.+?)\s+as\s*:?\s*(?P<expr2>.+?)\.?$",
                      re.I | re.S)
_HERE = re.compile(r"^(?:the\s+)?(.+?)(?:\s+here)?$", re.I)


@dataclass(frozen=True)
class Definition:
    """``name = formula``, as the question writes it."""

    name: str
    formula: str
    tree: Node

    @property
    def key(self) -> str:
        """The name as other definitions and the question refer to it."""
        return fold(self.name)


def _name(raw: str) -> str:
    """"FCF here" → "FCF"; "The quick ratio" → "quick ratio"."""
    m = _HERE.match(raw.strip())
    return m.group(1).strip() if m else raw.strip()


def read_definition(sentence: str) -> Definition | None:
    """The formula one definition sentence states, if it reads as arithmetic.

    Examples
    --------
    >>> d = read_definition("Operating cash flow ratio is defined as: cash from "
    ...                     "operations / total current liabilities.")
    >>> d.name, d.tree.op
    ('Operating cash flow ratio', '/')
    >>> read_definition("Define working capital ratio as total current assets divided by "
    ...                 "total current liabilities.").tree.op
    '/'
    >>> read_definition("CCC is defined as: DIO + DSO - DPO.").tree.op
    '-'
    >>> read_definition("Revenue is defined as what customers pay.").tree
    Name(text='what customers pay')
    """
    m = _DEFINED.match(sentence.strip())
    if m is None:
        return None
    name = _name(m.group("name") or m.group("name2") or "")
    formula = (m.group("expr") or m.group("expr2") or "").strip()
    try:
        tree = parse(formula)
    except FormulaSyntaxError:
        return None
    return Definition(name, formula, tree) if name else None


def asked_definition(asked: str, definitions: Sequence[Definition]) -> Definition | None:
    """The definition the question asks for: the one it names, else the only one.

    A definition named inside another one ("DIO" inside "CCC = DIO + DSO - DPO") is an
    operand, never the one asked, unless the question names only it.
    """
    text = f" {fold(asked)} "
    named = [d for d in definitions if re.search(rf"(?<!\w){re.escape(d.key)}(?!\w)", text)]
    if len(named) > 1:
        inner = {n for d in named for n in _names(d.tree) if n != d.key}
        named = [d for d in named if d.key not in inner]
    if len(named) == 1:
        return named[0]
    return definitions[0] if len(definitions) == 1 else None


def _names(tree: Node) -> set[str]:
    return {fold(n) for n in names_in(tree)}
