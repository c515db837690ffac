"""A reading a language model proposes, verified against the store before it answers.

When no rule reads a figure question into stored cells (the fact channel's honest
refusal), a wired model (a real SDK provider, never the offline
:class:`~ragspine_nb.agent.providers.MockProvider`) is shown the question and the stored
cells it may be about (:mod:`ragspine_nb.agent.compute.model_offer`: an id, the row's
label, the column, the period, the unit and the source of each, never a value). It may
answer with one ``propose_reading`` call: a formula over those ids
(``(C1 - C2 - C3) / C4``) and the question's words naming what it computes. It proposes;
it never supplies a number. :func:`verify` checks the reading, and only a verified
reading is computed (:mod:`ragspine_nb.agent.compute.expression`) and answered, with its
derivation, every cell cited and the words "read by the model". A reading is rejected
when it

* is no arithmetic over the ids offered (an unstored or invented cell);
* writes a constant the question does not (a number the model supplies), other than the
  count of an average's terms;
* answers an operation the question asks with one cell (a level is no change);
* computes another operation than the one asked ("the total" is a sum, a percentage
  change is one row's later figure less its earlier over the earlier);
* adds or subtracts other rows in other periods, or subtracts a later figure from an
  earlier one;
* uses a period the question does not name (a change's base, one year before a named
  period in the same row, excepted) or leaves one it names unused, or a figure per share
  for a question that asks none;
* leaves a word of the question that no cell's row, column or company names, nor the
  question's words naming what it computes unless a row uses that word (a dropped
  qualifier: "tax receivable" is no "Accounts receivable"; the profile's "quick ratio" is
  its formula's, never the model's);
* mixes units or signs, or divides by zero (the evaluator's own checks).

Rejected, the refusal stands and says why the model's reading was not used.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.agent.compute.expression import (
    Bin,
    FormulaSyntaxError,
    Missing,
    Name,
    Node,
    Num,
    Term,
    Value,
    evaluate,
    names_in,
    parse,
)
from ragspine_nb.agent.compute.model_offer import Cell, Proposal
from ragspine_nb.agent.compute.operations import NotComputed
from ragspine_nb.agent.reading.unstated import unstated_words
from ragspine_nb.agent.write.templates import format_value
from ragspine_nb.glossary import fold
from ragspine_nb.period_phrases import QUESTION_PERIOD
from ragspine_nb.units import unit_text
from ragspine_nb.wordset import content_words

__all__ = ["MAX_NAME_WORDS", "Asked", "Rejection", "normalised", "verify"]

#: The question's words naming what a formula computes ("quick ratio"): at most this many.
MAX_NAME_WORDS = 6
_FIGURE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
#: The operations whose base may be one year before the period the question names.
_CHANGES = frozenset({"change", "percent_change", "change_of_change"})
#: What a formula may be written with: cell ids, numbers, operators, parentheses.
_FORMULA = re.compile(r"^[\sC\d.,+\-*/()\[\]×÷−]+$")
_PER = re.compile(r"(?<![a-z])per\s+(?!cent\b)[a-z]+")
_SIGNS = str.maketrans({"[": "(", "]": ")", "×": "*", "÷": "/", "−": "-"})
#: The top operator each operation asked is computed with (a level asks none).
_KINDS = {"-": "difference", "/": "ratio", "+": "sum", "*": "product"}
_COMPUTED_BY = {"difference": "-", "change": "-", "spread": "-", "change_of_change": "-",
                "percent_change": "/", "ratio": "/", "share": "/", "average": "/",
                "sum": "+"}


@dataclass(frozen=True)
class Asked:
    """What the question fixes: its words, the periods it names, an operation asked."""

    #: the folded question
    text: str
    #: period labels the question names (or that were assumed for it)
    periods: frozenset[str] = frozenset()
    #: the operation the question asks (``change``, ``ratio`` …; "": none): one cell is
    #: no answer to one, and only a change takes a base one year before a named period
    operation: str = ""
    #: the words rows of the workspace use: what the question's name for the formula may
    #: not cover (a row's qualifier is named by a cell, never by the model's name)
    row_words: frozenset[str] = frozenset()

    @property
    def change(self) -> bool:
        """Whether the question asks a change (its base may be a year before its period)."""
        return self.operation in _CHANGES


@dataclass(frozen=True)
class Rejection:
    """Why a proposed reading is not used (in words)."""

    reasons: tuple[str, ...]


# -------------------------------------------------------------------- verifying
def _terms(node: Node) -> int:
    """How many terms a sum adds (``C1 + C2 + C3``: 3)."""
    return _terms(node.left) + _terms(node.right) if isinstance(node, Bin) and \
        node.op == "+" else 1


def _constants(node: Node, written: frozenset[float]) -> list[str]:
    """Constants the question does not write (an average's count of terms excepted)."""
    if isinstance(node, Num):
        return [] if node.value in written else [format_value(node.value)]
    if not isinstance(node, Bin):
        return []
    if node.op == "/" and isinstance(node.right, Num) and node.right.value == _terms(node.left):
        return _constants(node.left, written)
    return [*_constants(node.left, written), *_constants(node.right, written)]


def _written(text: str) -> frozenset[float]:
    return frozenset(float(m.replace(",", "")) for m in _FIGURE.findall(text))


def _period_reasons(cells: Sequence[Cell], asked: Asked) -> list[str]:
    """A period the question does not name, one it names left unused, or several unnamed.

    A change's base (the same row, one year before a named period) is named by the change.
    """
    used = {c.period for c in cells}
    if not asked.periods:
        return [] if len(used) <= 1 else \
            [f"the question names no period and the cells span {', '.join(sorted(used))}"]
    rows_at = {(c.fact.metric_code, c.fact.channel, c.period) for c in cells}
    out = [f"{p} is named by the question and used by no cell"
           for p in sorted(asked.periods - used)]
    for c in cells:
        later = f"FY{int(c.fact.period) + 1}" if c.fact.period_type == "FY" and \
            c.fact.period.isdigit() else ""
        base = asked.change and later in asked.periods and \
            (c.fact.metric_code, c.fact.channel, later) in rows_at
        if c.period not in asked.periods and not base:
            out.append(f"{c.id} is of {c.period}, a period the question does not name")
    return out


def _named_words(proposal: Proposal, tree: Node, asked: Asked) -> frozenset[str]:
    """The words the name covers: of the question's own span, for a computed formula only.

    None that rows use: "quick" of "quick ratio", never "tax" of "tax receivable".
    """
    name = " ".join(fold(proposal.name).split())
    if not isinstance(tree, Bin) or not name or name not in asked.text or \
            len(name.split()) > MAX_NAME_WORDS:
        return frozenset()
    return content_words(name) - asked.row_words


def normalised(formula: str) -> str:
    """The formula with its operators and parentheses standing apart, as the parser reads.

    >>> normalised("[(C9+C8)/2]-C1")
    '( ( C9 + C8 ) / 2 ) - C1'
    """
    spaced = re.sub(r"\s*([+\-*/()])\s*", r" \1 ", formula.translate(_SIGNS))
    return " ".join(spaced.split())


def _is_mean(node: Node) -> bool:
    """Whether ``node`` is ``(A + B …) / n`` with ``n`` its count of terms."""
    return isinstance(node, Bin) and node.op == "/" and isinstance(node.right, Num) and \
        node.right.value == _terms(node.left) > 1


def _operation_reasons(proposal: Proposal, tree: Node, asked: Asked) -> list[str]:
    """The operation computed against the one the question asks (none: one cell)."""
    top = tree.op if isinstance(tree, Bin) else ""
    if not asked.operation:
        named = _named_words(proposal, tree, asked)
        return [] if not top or named else \
            ["the question asks no operation and names none the reading computes"]
    want = _COMPUTED_BY.get(asked.operation)
    if want is None:
        return [f"the question asks a {asked.operation}, which no formula answers"]
    if not top:
        return ["the question asks an operation and the reading is one cell"]
    if asked.operation == "average" and not _is_mean(tree) and not (
            isinstance(tree, Bin) and (_is_mean(tree.left) or _is_mean(tree.right))):
        return ["the question asks an average and the reading takes none"]
    changed = asked.operation == "percent_change" and not (
        proposal.percent and isinstance(tree, Bin) and isinstance(tree.left, Bin) and
        tree.left.op == "-")
    if changed or (asked.operation != "average" and top != want):
        return [f"the question asks a {asked.operation.replace('_', ' ')} and the reading "
                f"computes {'a ' + _KINDS.get(top, top)}"]
    return []


def _sides(node: Node, cells: Mapping[str, Cell]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The rows (sorted, with repeats) and the periods of the cells under ``node``."""
    used = [cells[n] for n in names_in(node) if n in cells]
    return tuple(sorted(f"{c.fact.metric_code}|{c.fact.channel}" for c in used)), \
        frozenset(c.period for c in used)


def _subtraction_reasons(node: Node, cells: Mapping[str, Cell]) -> list[str]:
    """Sums and subtractions of neither one row's figures nor one period's.

    A change subtracts the same rows in two periods (the earlier from the later), a
    difference other rows in one period; rows and periods both apart ("A of 2018 less B
    of 2019", "A of 2018 plus B of 2019") are neither. A sum alike.
    """
    if not isinstance(node, Bin):
        return []
    out = [*_subtraction_reasons(node.left, cells), *_subtraction_reasons(node.right, cells)]
    if node.op in "+-":
        (rows_a, at_a), (rows_b, at_b) = _sides(node.left, cells), _sides(node.right, cells)
        if rows_a != rows_b and at_a != at_b:
            out.append(f"a {'sum' if node.op == '+' else 'subtraction'} of other rows in "
                       "other periods is neither one row's nor one period's")
        elif node.op == "-" and rows_a == rows_b and len(at_a) == len(at_b) == 1 and \
                min(at_a) < min(at_b):
            out.append("a change subtracts the earlier figure from the later one")
    return out


def _base_reasons(tree: Node, cells: Mapping[str, Cell], asked: Asked) -> list[str]:
    """A percentage change divides one row's change by its earlier figure."""
    if asked.operation != "percent_change" or not isinstance(tree, Bin) or \
            not isinstance(tree.left, Bin) or tree.left.op != "-":
        return []
    (rows_a, at_a), (rows_b, at_b) = _sides(tree.left.left, cells), \
        _sides(tree.left.right, cells)
    if rows_a != rows_b or at_a == at_b or _sides(tree.right, cells) != (rows_b, at_b):
        return ["a percentage change divides one row's change by its earlier figure"]
    return []


def _structure_reasons(proposal: Proposal, tree: Node, cells: Mapping[str, Cell],
                       asked: Asked) -> list[str]:
    """Ids not offered, constants not written, an operation other than the one asked."""
    ids = names_in(tree)
    out = [f"{n!r} is no cell offered" for n in ids if n not in cells]
    if not ids:
        out.append("the formula names no cell")
    extra = _constants(tree, _written(asked.text))
    if extra:
        out.append(f"the formula writes {', '.join(extra)}, which the question does not")
    if out:
        return out
    return [*_operation_reasons(proposal, tree, asked), *_subtraction_reasons(tree, cells),
            *_base_reasons(tree, cells, asked)]


_CHANGE_OF = "\u2212"


def _changes(node: Node, cells: Mapping[str, Cell]) -> Node:
    """``C2 - C1`` of one row at two periods as one change (never a deduction's size).

    A row's figure stated negative in one period (a loss) is subtracted as it is: the
    change from -762.3 to 542.0 is 1,304.3.
    """
    if not isinstance(node, Bin):
        return node
    left, right = _changes(node.left, cells), _changes(node.right, cells)
    if node.op == "-" and isinstance(left, Name) and isinstance(right, Name) and \
            left.text in cells and right.text in cells:
        a, b = cells[left.text], cells[right.text]
        if (a.fact.metric_code, a.fact.channel) == (b.fact.metric_code, b.fact.channel) and \
                a.period != b.period:
            return Name(f"{left.text}{_CHANGE_OF}{right.text}")
    return Bin(node.op, left, right)


def _cell_reasons(used: list[Cell], proposal: Proposal, tree: Node, asked: Asked) -> list[str]:
    """Why the cells used are not what the question asks.

    A column it does not name, a figure per share it does not ask, or a word of the
    question no cell (nor the formula's name) states.
    """
    said = content_words(asked.text)
    reasons = [f"{c.id} is in the column {c.column}, which the question does not name"
               for c in used if c.columns and not any(n <= said for n in c.columns)]
    if not _PER.search(asked.text):  # a figure per share answers no question of an amount
        reasons += [f"{c.id} is a figure {m.group(0)}, which the question does not ask"
                    for c in used if (m := _PER.search(fold(c.label)))]
    known = frozenset().union(*(c.words for c in used)) | _named_words(proposal, tree, asked)
    left = unstated_words(QUESTION_PERIOD.sub(" ", asked.text), known)
    if left:
        reasons.append(f"the question's {', '.join(repr(w) for w in left)} is named by no "
                       "cell used")
    return reasons


def verify(proposal: Proposal, cells: Mapping[str, Cell], asked: Asked) -> Value | Rejection:
    """The proposal's value, computed from the store, or why it is rejected.

    Examples
    --------
    >>> from ragspine_nb.agent.compute.model_offer import Cell
    >>> from ragspine_nb.core import Fact
    >>> def cell(i, label, value):
    ...     f = Fact(label.upper(), "ACME", "US", "TOTAL", "FY", "2023", value, "USD_M",
    ...              "10k.pdf", f"page=5,row={i}")
    ...     return Cell(f"C{i}", f, label, "", content_words(label))
    >>> cells = {c.id: c for c in (cell(1, "Current assets", 900.0),
    ...                            cell(2, "Current liabilities", 600.0))}
    >>> asked = Asked("what is the current ratio in fy2023?", frozenset({"FY2023"}), "ratio")
    >>> verify(Proposal("C1 / C2", "current ratio"), cells, asked).value
    1.5
    >>> verify(Proposal("C1 * 1.1 / C2", "current ratio"), cells, asked).reasons
    ('the formula writes 1.1, which the question does not',)
    >>> verify(Proposal("C1 / C9", "current ratio"), cells, asked).reasons
    ("'C9' is no cell offered",)
    """
    try:
        if not _FORMULA.fullmatch(proposal.formula):
            raise FormulaSyntaxError(proposal.formula)
        tree = parse(normalised(proposal.formula))
    except FormulaSyntaxError:
        return Rejection((f"{proposal.formula!r} is no arithmetic over the cells",))
    reasons = _structure_reasons(proposal, tree, cells, asked)
    if reasons:
        return Rejection(tuple(reasons))
    used = [cells[n] for n in dict.fromkeys(names_in(tree))]
    reasons = _period_reasons(used, asked) + _cell_reasons(used, proposal, tree, asked)
    if reasons:
        return Rejection(tuple(reasons))
    several = len({c.period for c in used}) > 1

    def resolve(name: str) -> Term | str:
        if _CHANGE_OF in name:  # a row's change: the later less the earlier, as stated
            later, earlier = (cells[n] for n in name.split(_CHANGE_OF))
            a, b = later.fact.value, earlier.fact.value
            return Term(a - b, unit_text(later.fact.unit), (later.fact, earlier.fact),
                        f"({later.label}, {later.period} − {earlier.period})",
                        f"({format_value(a)} − {format_value(b)})", stated=False)
        c = cells[name]
        return Term(c.fact.value, unit_text(c.fact.unit), (c.fact,),
                    f"{c.label}, {c.period}" if several else c.label,
                    format_value(c.fact.value))

    value = evaluate(_changes(tree, cells), resolve, percent=proposal.percent)
    if isinstance(value, Missing):  # every id resolves: not reached, said if it were
        return Rejection(value.reasons)
    if isinstance(value, NotComputed):
        return Rejection((value.text("en"),))
    return value
