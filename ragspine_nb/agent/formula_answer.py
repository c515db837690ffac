"""A question that defines its own formula, answered by computing it over stored facts.

The definition read apart from the question ("Operating cash flow ratio is defined as:
cash from operations / total current liabilities.") is one binary operation
(:func:`~ragspine_nb.agent.formulas.read_formula`). Each operand names one line item,
read with the agent's own parser; its period is the one it names, the mean of the two
it names as an "average … between FY2020 and FY2021", or the question's. Every operand
is looked up exactly; the answer is the computed figure with the formula, the
derivation and each cited cell — or, when an operand is missing or unclear, no figure
and which operand it was. A question with no definition, several, or one that is not a
single operation is left to the rest of the loop (``None``).
"""

from __future__ import annotations

import re

from ragspine_nb.agent.answer import figure_text
from ragspine_nb.agent.formulas import (
    BUILTIN_FORMULAS,
    Formula,
    Operand,
    evaluate,
    read_formula,
)
from ragspine_nb.agent.intent import ParsedIntent
from ragspine_nb.agent.operation_cues import aggregate_cue
from ragspine_nb.agent.operations import NotComputed
from ragspine_nb.agent.query_tools import execute_query_metric
from ragspine_nb.agent.render import entity_label, metric_label
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.run import Run
from ragspine_nb.glossary import fold, period_label
from ragspine_nb.types import Figure, FoundResult
from ragspine_nb.units import unit_text

__all__ = ["defined_answer", "builtin_answer"]

_NOT_ONE_ITEM = re.compile(r"[*/+×÷]|\s-\s|^\d[\d,.]*\s")
_OPS = {"/": "ratio", "-": "difference", "+": "sum"}
_PERCENT_OPS = {"/": "share", "-": "difference", "+": "sum"}


def _periods(run: Run, text: str, operand: ParsedIntent) -> list[str] | str:
    """The operand's periods: its own, else the question's, else the one assumed."""
    own = [period_label(*p) for p in operand.periods]
    asked = [period_label(*p) for p in run.intent.periods]
    periods = own or asked or [run.clar.assumed_slots.get("period", "")]
    averaged = aggregate_cue(fold(text)) == "average"
    if averaged and len(own) == 2:
        return own
    if averaged or len(periods) != 1 or not periods[0]:
        return f"'{text}' names no single period (or an average of two)"
    return periods


def _operand(run: Run, text: str) -> Operand | str:
    """One operand's stored value with its facts, or why not (in words)."""
    if _NOT_ONE_ITEM.search(text):
        return f"'{text}' is not one line item"
    operand = run.parser.parse(text, run.ref)
    metrics = operand.metrics
    if len(metrics) != 1:
        return f"'{text}' names {'no' if not metrics else 'more than one'} line item"
    periods = _periods(run, text, operand)
    if isinstance(periods, str):
        return periods
    entity = (run.intent.entities or (run.clar.assumed_slots.get(
        "entity", run.profile.home_entity_code),))[0]
    return _looked_up(run, text, {"metric": metrics[0], "entity": entity,
                                  "channel": run.profile.default_channel}, periods)


def _looked_up(run: Run, text: str, cell: dict[str, str],
               periods: list[str]) -> Operand | str:
    """The operand's facts for each period (their mean), or why not."""
    metric = cell["metric"]
    found = [execute_query_metric(run.store, metric, cell["entity"], p, cell["channel"],
                                  profile=run.profile, reference_date=run.ref)
             for p in periods]
    facts = tuple(r.fact for r in found if isinstance(r, FoundResult))
    if len(facts) != len(periods):
        return f"'{text}' ({metric}, {' and '.join(periods)}) is not in the fact store"
    if len({f.unit for f in facts}) != 1:
        return f"'{text}' is stated in several units"
    return Operand(text, sum(f.value for f in facts) / len(facts), facts[0].unit, facts)


def defined_answer(run: Run) -> AgentResult | None:
    """The figure of the one formula the question defines, or why not; ``None``: none."""
    definitions = run.read.definitions if run.read is not None else ()
    formulas = [f for d in definitions if (f := read_formula(d)) is not None]
    if len(definitions) != 1 or len(formulas) != 1:
        return None
    formula = formulas[0]
    sides = [_operand(run, formula.left), _operand(run, formula.right)]
    missing = [s for s in sides if isinstance(s, str)]
    run.trace.record(formula=formula.text, formula_missing=missing)
    if missing:
        return run.done(f"{formula.name} not computed: {'; '.join(missing)}; no estimate is "
                        f"given (formula read: {formula.text}).", run.intent.route)
    left, right = (s for s in sides if isinstance(s, Operand))
    return _computed(run, formula, left, right)


def builtin_answer(run: Run, task: dict[str, str]) -> AgentResult | None:
    """A built-in derived metric no figure states, computed from its stored operands.

    A margin, free cash flow or EBITDA for the cell asked; ``None`` when the metric has
    no built-in formula or an operand is not stored (the miss stands as it is).
    """
    spec = BUILTIN_FORMULAS.get(task["metric"])
    if spec is None:
        return None
    left_code, op, right_code, percent = spec
    names = [metric_label(run.profile, c) for c in (task["metric"], left_code, right_code)]
    formula = Formula(names[0], op, names[1], names[2], percent)
    sides = [_looked_up(run, name, {**task, "metric": code}, [task["period"]])
             for name, code in ((names[1], left_code), (names[2], right_code))]
    if any(isinstance(s, str) for s in sides):
        run.trace.record(formula=formula.text, formula_missing=[s for s in sides
                                                                if isinstance(s, str)])
        return None
    left, right = (s for s in sides if isinstance(s, Operand))
    run.trace.record(formula=formula.text)
    return _computed(run, formula, left, right)


def _computed(run: Run, formula: Formula, left: Operand, right: Operand) -> AgentResult:
    outcome = evaluate(formula, left, right)
    if isinstance(outcome, NotComputed):
        return run.done(f"{formula.name} not computed: {outcome.text(run.lang)}.",
                        run.intent.route)
    facts = (*left.facts, *right.facts)
    periods = " and ".join(dict.fromkeys(period_label(f.period_type, f.period) for f in facts))
    label = f"{entity_label(run.profile, facts[0].entity)} {formula.name}, {periods}"
    kind = (_PERCENT_OPS if formula.percent else _OPS)[formula.op]
    figure = Figure(outcome.value, unit_text(outcome.unit), label, kind, facts,
                    tuple(dict.fromkeys(f.source for f in facts)), outcome.derivation)
    sources = [s.to_dict() for s in figure.sources]
    return run.done(figure_text(figure, run.lang), run.intent.route, sources=sources,
                    figures=(figure,))
