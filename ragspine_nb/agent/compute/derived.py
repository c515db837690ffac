"""Metrics computed from a profile's formulas when no stored figure states them.

The built-in profile computes margins, free cash flow, EBITDA, the current and quick
ratios and other standard ratios from their line items (``formula`` in
``financial.toml``; a user's profile may define its own). The steps:

1. :func:`derive` reads the metric's formula (:func:`~ragspine_nb.agent.compute.expression.parse`)
   and resolves each code it names for the same entity, period and column: a stored
   figure, else that metric's own formula (up to :data:`MAX_DEPTH` levels), else the
   operand is missing. The result is a :class:`~ragspine_nb.core.Figure` citing every
   cell with the formula and numbers written out — or what is missing, or why not.
2. An operation over derived values ("the change in the current ratio from 2018 to
   2019", "the 3-year average net margin") runs over :func:`as_operand`, a fact-shaped
   stand-in for each derived value; :func:`expand` then puts the cells it was computed
   from, and its formula line, back into the operation's figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ragspine_nb.agent.compute.expression import (
    OPERATION_OF,
    Missing,
    Term,
    Value,
    evaluate,
    figure_value,
    parse,
    result_text,
)
from ragspine_nb.agent.compute.operations import NotComputed
from ragspine_nb.agent.compute.query_tools import execute_query_metric
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.reading.labels import entity_label, metric_label
from ragspine_nb.agent.write.answer import StructuredAnswer, cited, figure_text, layout
from ragspine_nb.agent.write.templates import format_value, statement_text
from ragspine_nb.core import ConflictResult, Fact, Figure, FoundResult, QueryResult
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.units import store_unit, unit_text

__all__ = ["derive", "as_operand", "expand", "MAX_DEPTH", "Derivation",
           "formula_figure", "derived_operands", "expanded_answer", "formula_gaps", "Derived"]

#: How deep one formula may lean on another's (EBITDA margin → EBITDA → its items).
MAX_DEPTH = 3
#: Places a derived ratio / percentage is carried with into an operation over it.
_CARRIED = {"PCT": 2, "": 4}


@dataclass(frozen=True)
class Derivation:
    """What derived values are computed from: the store and the profile's formulas."""

    store: FactStore
    profile: DomainProfile
    reference_date: date | None = None


def _term(where: Derivation, cell: Task, code: str, depth: int) -> Term | str:
    """One code of a formula: its stored figure, or its own formula's value, or why not."""
    found = execute_query_metric(where.store, code, cell.entity, cell.period,
                                 cell.channel, profile=where.profile,
                                 reference_date=where.reference_date)
    name = metric_label(where.profile, code)
    if isinstance(found, FoundResult):
        return Term(found.fact.value, unit_text(found.fact.unit), (found.fact,), name,
                    format_value(found.fact.value))
    if isinstance(found, ConflictResult):  # stored, differently by two filings: never picked
        stated = "; ".join(statement_text(f, "en") for f in found.statements)
        return (f"{name} ({code}, {cell.period}) is stated differently by "
                f"{len(found.statements)} documents: {stated}")
    spec = where.profile.metrics.get(code)
    formula = (spec.formula or spec.operand_formula) if spec is not None else ""
    if formula and depth < MAX_DEPTH:  # an operand's own formula (or the one it has as one)
        value = _value(where, cell, code, depth + 1, formula)
        if isinstance(value, Value):
            return Term(value.value, value.unit or "", value.facts, f"({value.names})",
                        f"({value.numbers})", stated=False)
        if isinstance(value, Missing):  # what its own formula lacks
            return "; ".join(value.reasons)
    return f"{name} ({code}, {cell.period}) is not in the fact store"


def _value(where: Derivation, cell: Task, code: str, depth: int,
           formula: str = "") -> Value | Missing | NotComputed:
    spec = where.profile.metrics[code]
    return evaluate(parse(formula or spec.formula), lambda c: _term(where, cell, c, depth),
                    percent=spec.unit == "PCT")


def formula_figure(name: str, label: str, value: Value) -> Figure:
    """A computed formula as the figure an answer states, citing every cell once."""
    kind = "share" if value.unit == "PCT" and value.op == "/" else \
        OPERATION_OF.get(value.op, "ratio")
    facts = tuple(dict.fromkeys(value.facts))
    return Figure(figure_value(value), value.unit or "", label, kind, facts,
                  tuple(dict.fromkeys(f.source for f in facts)),
                  f"{name} = {value.names}: {value.numbers} = {result_text(value)}")


def derive(where: Derivation, cell: Task) -> Figure | Missing | NotComputed | None:
    """The cell's metric computed by its formula (``None``: the metric has no formula)."""
    spec = where.profile.metrics.get(cell.metric)
    if spec is None or not spec.formula:
        return None
    value = _value(where, cell, cell.metric, 0)
    if not isinstance(value, Value):
        return value
    name = metric_label(where.profile, cell.metric)
    return formula_figure(name, f"{entity_label(where.profile, cell.entity)} {name}, "
                                f"{cell.period}", value)


def as_operand(figure: Figure, code: str) -> Fact:
    """A derived figure as an operand of an operation over it (a fact-shaped stand-in).

    Its value is carried with the places it is shown with (a ratio to 4, a percentage
    to 2); :func:`expand` replaces it by the cells it was computed from.
    """
    first = figure.operands[0]
    places = _CARRIED.get(figure.unit)
    value = figure.value if places is None else round(figure.value, places) + 0.0
    return replace(first, metric_code=code, value=value, unit=store_unit(figure.unit),
                   source_locator=f"{first.source_locator} (computed: {code})")


def _formula_line(derived: Figure) -> str:
    """``FY2019: Gross margin (%) = …``: a derived value's formula, with its year."""
    first = derived.operands[0]
    return f"{period_label(first.period_type, first.period)}: {derived.derivation}"


def expand(figure: Figure, derived: Mapping[Fact, Figure]) -> Figure:
    """An operation's figure with each derived operand replaced by its cells and formula.

    A lookup of a derived value is that value's own figure (its label kept).
    """
    used = [derived[f] for f in figure.operands if f in derived]
    if not used:
        return figure
    if figure.operation == "lookup" and len(figure.operands) == 1:
        return replace(used[0], label=figure.label)
    operands = tuple(dict.fromkeys(
        leaf for f in figure.operands for leaf in (derived[f].operands if f in derived
                                                   else (f,))))
    return replace(figure, operands=operands,
                   sources=tuple(dict.fromkeys(f.source for f in operands)),
                   derivation="; ".join([*map(_formula_line, used), figure.derivation]))


@dataclass(frozen=True)
class Derived:
    """An operation's lookups with the misses its formulas computed, and what they lack.

    ``results`` has each computed miss as a found stand-in (:func:`as_operand`);
    ``stand_ins`` leads from each stand-in to its figure (:func:`expanded_answer`);
    ``missing`` holds, by task index, what the formula of a miss that stays a miss lacks.
    """

    results: list[QueryResult]
    stand_ins: dict[Fact, Figure]
    missing: dict[int, Missing]


def derived_operands(where: Derivation, tasks: Sequence[Task],
                     results: Sequence[QueryResult]) -> Derived:
    """An operation's lookups with each miss of a metric with a formula computed."""
    out, derived, missing = list(results), {}, {}
    for i, (task, result) in enumerate(zip(tasks, results, strict=True)):
        if isinstance(result, FoundResult):
            continue
        figure = derive(where, task)
        if isinstance(figure, Figure) and figure.operands:
            fact = as_operand(figure, task.metric)
            out[i], derived[fact] = FoundResult(fact), figure
        elif isinstance(figure, Missing):
            missing[i] = figure
    return Derived(out, derived, missing)


def formula_gaps(profile: DomainProfile, tasks: Sequence[Task],
                 missing: Mapping[int, Missing]) -> tuple[list[str], list[Fact]]:
    """Why each miss of a metric with a formula was not computed, and the cells found.

    The lines name the operands each formula lacks; the cells are the operands it found
    (cited as inputs).
    """
    out = [f"{metric_label(profile, tasks[i].metric)}, {tasks[i].period}: "
           f"{'; '.join(m.reasons)}" for i, m in sorted(missing.items())]
    found = [f for _, m in sorted(missing.items()) for f in m.found]
    return list(dict.fromkeys(out)), list(dict.fromkeys(found))


def expanded_answer(answer: StructuredAnswer, derived: Mapping[Fact, Figure],
                    lang: str, profile: DomainProfile | None = None) -> StructuredAnswer:
    """An answer over stand-ins rewritten: each figure cites the cells and formulas used.

    An answer with no figure (a trend, a which-year label) gains each computed value's
    formula line and cites its cells instead of the stand-ins.
    """
    if not derived:
        return answer
    if not answer.figures:
        computed = [d for f, d in derived.items() if any(
            s.get("locator") == f.source_locator for s in answer.sources)]
        if not computed:
            return answer
        stand_ins = {f.source_locator for f in derived}
        sources = [s for s in answer.sources if s.get("locator") not in stand_ins]
        sources += [c for c in cited([f for d in computed for f in d.operands])
                    if c not in sources]
        return StructuredAnswer((), "\n".join(
            [answer.text, *(f"  {_formula_line(d)}" for d in computed)]), sources)
    figures = tuple(expand(f, derived) for f in answer.figures)
    sources = [s.to_dict() for s in dict.fromkeys(s for f in figures for s in f.sources)]
    # an operation over ratios or percentages is no amount of money, whatever its cells are
    amount = None if any(d.operation in ("sum", "difference") for d in derived.values()) \
        else False
    texts = [figure_text(f, lang, amount, profile) for f in figures]
    return StructuredAnswer(figures, layout(texts, lang), sources)
