"""Formulas answered by computing them over stored facts: the question's own, or the profile's.

A question that defines its formula ("Operating cash flow ratio is defined as: cash
from operations / total current liabilities.", or "CCC is defined as: DIO + DSO - DPO"
with DIO, DSO and DPO defined in sentences of their own) is read apart from the question
(:mod:`ragspine_nb.agent.reading.formulas`) and computed
(:mod:`ragspine_nb.agent.compute.expression`).
Each operand names one line item, read with the agent's own parser; its period is the one
it names, the mean of the two it names as an "average … between FY2020 and FY2021", the
later minus the earlier as a "change in … between FY2020 and FY2021", or the question's.
Every operand is looked up exactly; the answer is the computed figure with the formula,
the derivation and each cited cell — or, when an operand is missing or unclear, no figure
and which operand it was. A question with no definition, or none it asks for, is left to
the rest of the loop (``None``).

A metric no figure states but the profile has a formula for (a margin, free cash flow,
a ratio) is computed the same way (:func:`builtin_answer`,
:mod:`ragspine_nb.agent.compute.derived`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine_nb.agent.compute.derived import Derivation, derive, formula_figure
from ragspine_nb.agent.compute.expression import (
    Missing,
    Term,
    Value,
    evaluate,
)
from ragspine_nb.agent.compute.operations import NotComputed
from ragspine_nb.agent.compute.owners_line import plain_line
from ragspine_nb.agent.compute.query_tools import execute_query_metric
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.reading.formulas import Definition, asked_definition, read_definition
from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.labels import entity_label, metric_label
from ragspine_nb.agent.reading.operation_cues import aggregate_cue
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.run import Run
from ragspine_nb.agent.scope.stored_readings import brought_codes, narrowed
from ragspine_nb.agent.write.answer import cited, figure_text, input_lines
from ragspine_nb.agent.write.templates import format_value, with_note
from ragspine_nb.core import FoundResult, ToolOutcome
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.profile_fields import formula_codes
from ragspine_nb.units import unit_text

__all__ = ["defined_answer", "builtin_answer", "figure_answer", "formula_words"]

_NOT_ONE_ITEM = re.compile(r"[*/+×÷]|\s-\s|^\d[\d,.]*\s")
_CHANGE = re.compile(r"\b(?:change|increase|decrease)\s+in\b")


def _periods(run: Run, text: str, operand: ParsedIntent) -> tuple[list[str], str] | str:
    """The operand's periods and how they combine (``one``, ``mean``, ``change``)."""
    own = [period_label(*p) for p in operand.periods]
    asked = [period_label(*p) for p in run.intent.periods]
    periods = own or asked or [run.clar.assumed_slots.get("period", "")]
    how = "mean" if aggregate_cue(fold(text)) == "average" else \
        "change" if _CHANGE.search(fold(text)) else "one"
    if how != "one" and len(own) == 2:
        return sorted(own), how
    if how != "one" or len(periods) != 1 or not periods[0]:
        return f"'{text}' names no single period (or an average or change of two)"
    return periods, how


def _operand(run: Run, text: str) -> Term | str:
    """One operand's stored value with its facts, or why not (in words)."""
    if _NOT_ONE_ITEM.search(text):
        return f"'{text}' is not one line item"
    operand = run.parser.parse(text, run.ref)
    entity = (run.intent.entities or (run.clar.assumed_slots.get(
        "entity", run.profile.home_entity_code),))[0]
    metrics = operand.metrics
    if len(metrics) > 1:  # only the line items the company has facts of are its readings
        metrics = narrowed(metrics, (), False, run.store.metric_channels(entity),
                           brought_codes(run.store)).metrics
    if len(metrics) != 1:
        return f"'{text}' names {'no' if not metrics else 'more than one'} line item"
    periods = _periods(run, text, operand)
    if isinstance(periods, str):
        return periods
    return _looked_up(run, text, metrics[0], entity, *periods)


def _looked_up(run: Run, text: str, metric: str, entity: str, periods: list[str],
               how: str) -> Term | str:
    """The operand's facts for each period (one, their mean or their change), or why not."""
    found = [execute_query_metric(run.store, metric, entity, p, run.profile.default_channel,
                                  profile=run.profile, reference_date=run.ref)
             for p in periods]
    facts = tuple(r.fact for r in found if isinstance(r, FoundResult))
    if len(facts) != len(periods):
        return f"'{text}' ({metric}, {' and '.join(periods)}) is not in the fact store"
    if len({f.unit for f in facts}) != 1:
        return f"'{text}' is stated in several units"
    unit, values = unit_text(facts[0].unit), [format_value(f.value) for f in facts]
    if how == "one":
        return Term(facts[0].value, unit, facts, text, values[0])
    if how == "change":  # sorted: the later year last
        return Term(facts[1].value - facts[0].value, unit, facts, text,
                    f"({values[1]} − {values[0]})", stated=False)
    return Term(sum(f.value for f in facts) / len(facts), unit, facts, text,
                f"[({' + '.join(values)}) / {len(facts)}]", stated=False)


def _resolver(run: Run, defined: dict[str, Definition],
              stack: tuple[str, ...]) -> Callable[[str], Term | str]:
    """Names of other definitions computed (never one already being computed), else items."""
    def resolve(name: str) -> Term | str:
        key = fold(name)
        if key in defined and key not in stack:
            inner = evaluate(defined[key].tree, _resolver(run, defined, (*stack, key)))
            if isinstance(inner, Missing):
                return "; ".join(inner.reasons)
            if isinstance(inner, NotComputed):
                return f"'{name}' not computed: {inner.text(run.lang)}"
            return Term(inner.value, inner.unit or "", inner.facts, name,
                        f"({inner.numbers})", stated=False)
        return _operand(run, name)
    return resolve


def defined_answer(run: Run) -> AgentResult | None:
    """The figure of the formula the question defines, or why not; ``None``: none."""
    sentences = run.read.definitions if run.read is not None else ()
    definitions = [d for s in sentences if (d := read_definition(s)) is not None]
    if not sentences or len(definitions) != len(sentences):
        return None
    asked = asked_definition(run.read.asked if run.read is not None else run.question,
                             definitions)
    if asked is None:
        return None
    defined = {d.key: d for d in definitions}
    value = evaluate(asked.tree, _resolver(run, defined, (asked.key,)))
    formula = f"{asked.name} = {asked.formula}"
    run.trace.record(formula=formula,
                     formula_missing=list(value.reasons) if isinstance(value, Missing) else [])
    if isinstance(value, Missing):
        return _missing_answer(run, f"{asked.name} not computed: {'; '.join(value.reasons)}; "
                               f"no estimate is given (formula read: {formula}).", value)
    if isinstance(value, NotComputed):
        return run.finish(f"{asked.name} not computed: {value.text(run.lang)}.", run.intent.route)
    return figure_answer(run, asked.name, value)


def _missing_answer(run: Run, head: str, missing: Missing) -> AgentResult:
    """No figure: what is missing, and the operands that were found, cited as inputs."""
    return run.finish(_noted(run, "\n".join([head, *input_lines(missing.found, run.profile,
                                                                   run.lang)])),
                      run.intent.route, sources=cited(missing.found))


def _noted(run: Run, text: str) -> str:
    """``text`` after what was assumed (the period of a question naming none)."""
    return with_note(run.clar.assumption_note, text, run.lang)


def figure_answer(run: Run, name: str, value: Value, note: str = "") -> AgentResult:
    """A computed formula's figure as the answer: label, value, derivation, cited cells.

    ``note`` (what was read, how) comes first.
    """
    facts = tuple(dict.fromkeys(value.facts))
    periods = " and ".join(dict.fromkeys(period_label(f.period_type, f.period) for f in facts))
    label = f"{entity_label(run.profile, facts[0].entity)} {name}, {periods}" if facts \
        else name
    figure = formula_figure(name, label, value)
    return run.finish(with_note(note, figure_text(figure, run.lang, profile=run.profile),
                                run.lang), run.intent.route,
                      sources=[s.to_dict() for s in figure.sources],
                      tool=ToolOutcome(figures=(figure,)))


def formula_words(profile: DomainProfile, formula: str) -> str:
    """A profile formula with each metric code written as its label."""
    codes = sorted(formula_codes(formula), key=len, reverse=True)
    pattern = re.compile("|".join(rf"\b{re.escape(c)}\b" for c in codes)) if codes else None
    return pattern.sub(lambda m: metric_label(profile, m.group(0)), formula) if pattern \
        else formula


def builtin_answer(run: Run, task: Task) -> AgentResult | None:
    """A metric no figure states, computed by its profile formula from stored operands.

    A margin, free cash flow, EBITDA or a ratio for the cell asked; when an operand is
    not stored, the answer names it with the formula and gives no figure. ``None`` when
    the metric has no formula (the miss stands as it is). An owners' line no row states
    is answered from the plain line where that is the owners' too (:mod:`owners_line`).
    """
    derived = derive(Derivation(run.store, run.profile, run.ref), task)
    if derived is None:
        return plain_line(run, task)
    name = metric_label(run.profile, task.metric)
    if isinstance(derived, Missing):
        run.trace.record(formula_missing=list(derived.reasons))
        formula = run.profile.metrics[task.metric].formula
        return _missing_answer(run, f"{name} ({task.period}) is stated by no table and not "
                               f"computed: {'; '.join(derived.reasons)}; no estimate is given "
                               f"(formula: {name} = {formula_words(run.profile, formula)}).",
                               derived)
    if isinstance(derived, NotComputed):
        return run.finish(_noted(run, f"{name} not computed: {derived.text(run.lang)}."),
                          run.intent.route)
    run.trace.record(formula=derived.derivation)
    return run.finish(_noted(run, figure_text(derived, run.lang, profile=run.profile)),
                      run.intent.route,
                      sources=[s.to_dict() for s in derived.sources],
                      tool=ToolOutcome(figures=(derived,)))
