"""A question with two asks on its way through the loop: the figure, the why, the premise.

:func:`read_as_figure_ask` re-reads a question asking for a figure and why it moved
(:mod:`ragspine_nb.agent.reading.two_asks`) as its figure ask, on the composite route: the
fact channel answers the figure asked as the headline figure (from the store, cited)
and the narrative channel attributes the why (searched with the whole question).
:func:`with_premise` adds, below the figure, what the store says of a direction the
why clause takes for granted when it does not hold ("It did not fall: it rose 6.44%
from FY2024, (1,405 − 1,320) / 1,320 = 6.44%; …") — only when the asked period and the
one before are both stored (:mod:`ragspine_nb.agent.reading.premise`); otherwise nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.compute.query_tools import execute_query_metric
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.narrative.grounding import question_context
from ragspine_nb.agent.reading.intent import ROUTE_COMPOSITE
from ragspine_nb.agent.reading.premise import (
    FLAT,
    PremiseCheck,
    check_premise,
    premise_of,
    prior_period,
)
from ragspine_nb.agent.reading.question_kind import question_kind
from ragspine_nb.agent.reading.two_asks import TwoAsks, read_two_asks
from ragspine_nb.agent.run import Run
from ragspine_nb.agent.write.answer import StructuredAnswer, structured_answer
from ragspine_nb.agent.write.templates import (
    PREMISE_POINTS,
    PREMISE_VERBS,
    TEXT,
    format_value,
    statement_text,
)
from ragspine_nb.core import Figure, FoundResult, QueryResult
from ragspine_nb.period_codes import period_label
from ragspine_nb.units import unit_parts

__all__ = ["read_as_figure_ask", "with_premise", "premise_text", "change_premise"]


def read_as_figure_ask(run: Run) -> TwoAsks | None:
    """Re-read ``run`` as the figure its question asks for, when it also asks why.

    Only when the figure clause names a row of ours and no earlier answer's slots were
    carried over; the run is left as it was otherwise.
    """
    asked = run.read.asked if run.read is not None else run.question
    asks = read_two_asks(asked)
    if asks is None or run.carried:
        return None
    intent = run.parser.parse(asks.figure, run.ref)
    if not intent.metrics:
        return None
    run.intent = replace(intent, route=ROUTE_COMPOSITE)  # the why: from the narrative
    run.kind = question_kind(asks.figure)
    run.reclarify("")
    run.context = question_context(run.intent, run.clar, run.profile)
    run.asks = asks
    run.trace.record(two_asks=asks.figure,
                     premise=asks.premise.direction if asks.premise else None)
    return asks


def with_premise(run: Run, answer: StructuredAnswer, results: Sequence[QueryResult]
                 ) -> tuple[StructuredAnswer, list[QueryResult]]:
    """The answer with what the store says of a premise it contradicts (else as it is).

    The premise's figure (the percentage change from the period before) is asserted
    with both stored cells as its operands; the period before is cited and joins the
    results (the narrative may not contradict it either).
    """
    asks = run.asks
    if asks is None or asks.premise is None or len(results) != 1 \
            or not isinstance(results[0], FoundResult):
        return answer, list(results)
    fact = results[0].fact
    before = prior_period(fact.period_type, fact.period)
    prior = execute_query_metric(run.store, fact.metric_code, fact.entity, before,
                                 fact.channel, profile=run.profile, reference_date=run.ref) \
        if before is not None else None
    if not isinstance(prior, FoundResult) or prior.fact.unit != fact.unit:
        return answer, list(results)  # the period before is not stored: nothing said
    check = check_premise(asks.premise, fact.value, prior.fact.value)
    if check is None or check.holds:
        return answer, list(results)
    tasks = [Task.of(f) for f in (fact, prior.fact)]
    points = unit_parts(fact.unit).percent  # a rate moves in percentage points
    change = structured_answer(tasks, [results[0], prior],
                               Operation("percent_change", points=points), run.profile, run.lang)
    if not change.figures:  # a zero base: no percentage, nothing said
        return answer, list(results)
    text = premise_text(check, change.figures[0], run.lang, points)
    run.trace.record(premise_holds=False, premise_moved=check.moved)
    return StructuredAnswer((*answer.figures, change.figures[0]), f"{answer.text}\n{text}",
                            [*answer.sources, *(s for s in change.sources
                                                if s not in answer.sources)]), \
        [*results, prior]


def premise_text(check: PremiseCheck, change: Figure, lang: str, points: bool = False) -> str:
    r"""The sentence saying a premise does not hold, with the derivation and the cell before.

    ``change`` is the percentage change from the period before (its operands: the asked
    cell, then the one before); ``points``: the change of a rate, in percentage points.

    Examples
    --------
    >>> from ragspine_nb.core import Fact
    >>> from ragspine_nb.agent.reading.premise import DOWN, Premise, check_premise
    >>> now = Fact("REVENUE", "HK", "HK", "TOTAL", "FY", "2025", 1405.0, "USD_M", "d", "c2")
    >>> then = Fact("REVENUE", "HK", "HK", "TOTAL", "FY", "2024", 1320.0, "USD_M", "d", "c1")
    >>> change = Figure(6.44, "PCT", "HK Revenue, percentage change", "percent_change",
    ...                 (now, then), (now.source, then.source), "(1,405 − 1,320) / 1,320 = 6.44%")
    >>> print(premise_text(check_premise(Premise(DOWN, "fall"), 1405.0, 1320.0), change,
    ...                    "en").replace("; ", ";\n"))
    It did not fall: it rose 6.44% from FY2024, (1,405 − 1,320) / 1,320 = 6.44%;
    FY2024: 1,320 US$ m (source: d · c1).
    >>> print(premise_text(check_premise(Premise(DOWN, "下降"), 1405.0, 1320.0), change,
    ...                    "zh").replace("；", "；\n"))
    并未下降：较FY2024上升6.44%，(1,405 − 1,320) / 1,320 = 6.44%；
    FY2024：1,320百万美元（来源：d · c1）。
    """
    prior = change.operands[1]
    before = period_label(prior.period_type, prior.period)
    sep = "：" if lang == "zh" else ": "
    line = f"{before}{sep}{statement_text(prior, lang)}"
    verbs = PREMISE_VERBS[lang]
    asked = verbs[check.premise.direction][0]
    if check.moved == FLAT:
        return TEXT["premise_flat"][lang].format(asked=asked, prior=before, prior_line=line)
    return TEXT["premise_moved"][lang].format(
        asked=asked, moved=verbs[check.moved][1],
        by=format_value(abs(change.value)) + PREMISE_POINTS[lang if points else "pct"],
        prior=before, derivation=change.derivation, prior_line=line)


def change_premise(question: str, answer: StructuredAnswer, lang: str) -> StructuredAnswer:
    """A computed change that says so when it moved against the question's direction.

    "How much did revenue fall in FY2022?" answered "+2,172" says it rose.

    Only a lone change or percentage change of two non-negative cells is read (a loss's
    change has no direction in words); the figure stays as computed.

    Examples
    --------
    >>> from ragspine_nb.core import Fact
    >>> now = Fact("REVENUE", "N", "N", "TOTAL", "FY", "2022", 46710.0, "USD_M", "d", "c2")
    >>> then = Fact("REVENUE", "N", "N", "TOTAL", "FY", "2021", 44538.0, "USD_M", "d", "c1")
    >>> fig = Figure(2172.0, "USD_M", "N Revenue, change", "difference", (now, then),
    ...              (now.source, then.source), "(46,710 − 44,538) = 2,172")
    >>> a = StructuredAnswer((fig,), "N Revenue, change from FY2021 to FY2022: 2,172", [])
    >>> print(change_premise("By how much did revenue fall in FY2022?", a, "en").text)
    N Revenue, change from FY2021 to FY2022: 2,172
    Note: it did not fall; it rose (the change above).
    >>> change_premise("How much did revenue grow in FY2022?", a, "en") is a
    True
    """
    premise = premise_of(question)
    if premise is None or len(answer.figures) != 1:
        return answer
    fig = answer.figures[0]
    if fig.operation not in ("difference", "percent_change") or not fig.value or \
            any(f.value < 0 for f in fig.operands):
        return answer
    moved = "up" if fig.value > 0 else "down"
    if moved == premise.direction:
        return answer
    verbs = PREMISE_VERBS[lang]
    note = TEXT["premise_change"][lang].format(asked=verbs[premise.direction][0],
                                               moved=verbs[moved][1])
    return replace(answer, text=f"{answer.text}\n{note}")
