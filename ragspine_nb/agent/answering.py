"""The verdicts of the answer loop carried out: the fact channel's answer, the narrative's.

:mod:`ragspine_nb.agent.pipeline` decides which step answers a question; the functions here
build that answer. :func:`structured` looks up the cells a question names (or an operation's
operands), computes the operation over them with its derivation, or refuses listing the
inputs found; :func:`text_answer` answers a question asking for text from the narrative
channel, the cells it names shown as context only; :func:`stated_answer` gives a change the
report states; :func:`faq_answer` a curated answer the fact store does not contradict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.agent.compute.derived import (
    Derivation,
    derived_operands,
    expanded_answer,
    formula_gaps,
)
from ragspine_nb.agent.compute.formula_answer import builtin_answer
from ragspine_nb.agent.compute.operation_plan import (
    Plan,
    base_tasks,
    plan_operation,
    ranged,
    varying_slots,
)
from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.compute.plan_cells import group_parts
from ragspine_nb.agent.compute.query_tools import execute_query_metric
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.compute.tool_loop import run_tool_loop
from ragspine_nb.agent.faq import FaqCache
from ragspine_nb.agent.narrative.channel import NarrativeRetriever, run_narrative
from ragspine_nb.agent.reading.cue_text import cue_text
from ragspine_nb.agent.reading.intent import (
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    ROUTE_STRUCTURED,
    ParsedIntent,
)
from ragspine_nb.agent.reading.operation_cues import operation_asked
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.run import Run
from ragspine_nb.agent.scope.clarify import (
    CLARIFY_ASK_FIRST,
    READING_SLOTS,
    assumption_note,
    clarify_scope,
)
from ragspine_nb.agent.scope.company_scope import workspace_companies
from ragspine_nb.agent.write.answer import StructuredAnswer, cited, input_lines, structured_answer
from ragspine_nb.agent.write.answer_ops import cross_refusal, plan_answer, refusal_answer
from ragspine_nb.agent.write.mentions import mentioning_passages, mentions_text
from ragspine_nb.agent.write.render import sql_of
from ragspine_nb.agent.write.templates import TEXT, with_note
from ragspine_nb.agent.write.two_ask_answer import change_premise, with_premise
from ragspine_nb.core import (
    ConflictResult,
    FoundResult,
    NarrativeOutcome,
    QueryResult,
    ToolOutcome,
    is_stated_change,
)
from ragspine_nb.errors import ProviderError

__all__ = ["faq_answer", "stated_answer", "text_answer", "structured",
           "stated_change_columns", "change_of_levels", "roles_resolve"]

#: Operations whose operands are planned apart (the others: two cells of the question).
_PLANNED = frozenset({"average", "sum", "ratio", "share", "count", "max", "min",
                      "change_of_change", "trend", "spread"})


def faq_answer(run: Run, faq: FaqCache) -> AgentResult | None:
    """A curated answer, unless the fact store contradicts it."""
    entry = faq.lookup(run.question, run.ref)
    clash = run.grounder.first_clash(entry.answer, run.context) if entry is not None else None
    if clash is not None:  # a curated answer the fact store contradicts is not served
        run.trace.record(faq_bypassed=clash.reason, faq_clash=clash.to_trace())
        return None
    if entry is None:
        return None
    run.trace.record(faq_hit=True)
    src = entry.source.to_dict()
    note = f"\n{TEXT['sources'][run.lang]} {src['doc']} · {src['locator']}"
    return run.finish(entry.answer + note, "faq", sources=[src], plain=entry.answer)


def stated_answer(run: Run, stated: FoundResult | ConflictResult) -> AgentResult:
    """A change the report states: its own figure (or its conflict), not computed."""
    task = Task.of(stated.fact if isinstance(stated, FoundResult) else stated)
    change = structured_answer([task], [stated], None, run.profile, run.lang, "stated_change")
    note = TEXT["stated_change"][run.lang]
    run.trace.record(stated_change=True, tool_status={stated.status: 1}, llm_calls=0,
                     figures=len(change.figures))
    text = with_note(note, change.text, run.lang)
    return run.finish(text, run.intent.route, sources=change.sources, tool=ToolOutcome(
        (stated,), tuple(sql_of(run.store, [stated])), tuple(change.figures)))


def _narrative(run: Run, retriever: NarrativeRetriever | None, top_k: int,
               anchors: Sequence[QueryResult] = ()) -> NarrativeOutcome:
    """Retrieved passages, grounded (against the structured results, when there are some)."""
    context = replace(run.context, anchors=tuple(anchors)) if anchors else run.context
    return run_narrative(run.search_text, run.intent, run.provider, retriever, run.history,
                         run.trace, run.lang, top_k, run.grounder, context)


def _lookups(run: Run, tasks: Sequence[Task]) -> list[QueryResult]:
    """Each planned sub-task's result: several run deterministically, one through the tool."""
    if len(tasks) > 1:  # explicit multi-value question: deterministic sub-tasks, no LLM
        run.trace.record(subtasks=len(tasks), llm_calls=0)
        return [execute_query_metric(run.store, t.metric, t.entity, t.period,
                                     t.channel, profile=run.profile, reference_date=run.ref)
                for t in tasks]
    return run_tool_loop(run.question, list(tasks), run.store, run.provider, run.profile,
                         run.ref, run.trace)


def text_answer(run: Run, retriever: NarrativeRetriever | None, top_k: int) -> AgentResult:
    """A question asking for text (or a label we cannot name): the narrative, no figure.

    A "why" question naming a row (composite) still looks its cells up: they anchor the
    narrative's grounding and are shown as context, never as the answer's figure.
    """
    results: list[QueryResult] = []
    tasks: list[Task] = []
    if run.intent.route == ROUTE_COMPOSITE and run.clar.mode != CLARIFY_ASK_FIRST:
        tasks = base_tasks(run.intent, run.clar, run.profile)
        if len(varying_slots(tasks)) <= 1:
            try:
                results = _lookups(run, tasks)
            except ProviderError:
                run.trace.record(provider_error=True)
    change = _context_change(run, results)
    note = ""
    if change is not None:  # the change no column states: from the two levels
        tasks, results, note = change
    operation = Operation("difference") if change is not None else None
    told = _narrative(run, retriever, top_k, anchors=results)
    context = structured_answer(tasks, results, operation, run.profile, run.lang) if results \
        else None  # the cells named (a conflict as the conflict), never the answer's figure
    if context is not None and note:
        context = replace(context, text=with_note(note, context.text, run.lang))
    text = told.text if context is None else "\n".join(
        [TEXT["context_figures"][run.lang], context.text, "", TEXT["attribution"][run.lang],
         told.text])
    sources = told.merged_sources(context.sources if context is not None else [])
    statuses = [r.status for r in results]
    run.trace.record(figures=0, text_question=run.kind.cue or run.kind.kind,
                     tool_status={s: statuses.count(s) for s in set(statuses)})
    route = run.intent.route if results else ROUTE_NARRATIVE
    return run.finish(text, route, sources=sources, narrative=told,
                      tool=ToolOutcome(tuple(results), tuple(sql_of(run.store, results))))


def _context_change(run: Run, results: Sequence[QueryResult]
                    ) -> tuple[list[Task], list[QueryResult], str] | None:
    """"What drove X's change in FY2022?": the change no column states, from the levels.

    Only when the question's only column is a stated-change one that is not stored, and
    the comparison is named or, read as the fact channel reads it, assumed (the year
    before, said): the two levels and the note saying what was assumed, for their
    difference to be shown as the context of the why (``None`` otherwise, or when a
    level is not stored).
    """
    if not results or any(r.status == "found" for r in results) or \
            not stated_change_columns(run.intent):
        return None
    figure = replace(run.intent, route=ROUTE_STRUCTURED)  # the change, as a figure ask
    clar = clarify_scope(figure, run.ref, profile=run.profile, reported=run.reported)
    if clar.mode == CLARIFY_ASK_FIRST or not change_of_levels(
            figure, Operation("difference"), clar.assumed_periods):
        return None
    tasks = base_tasks(replace(figure, channel=None, channels=()), clar, run.profile)
    if len(tasks) != 2 or varying_slots(tasks) != ["period"]:
        return None
    try:
        found = _lookups(run, tasks)
    except ProviderError:
        return None
    if not all(r.status == "found" for r in found):
        return None
    return tasks, found, clar.assumption_note


def stated_change_columns(intent: ParsedIntent) -> bool:
    """Whether the question names columns, each a stated-change one (``CHANGE*``)."""
    return bool(intent.channels) and all(map(is_stated_change, intent.channels))


def change_of_levels(intent: ParsedIntent, operation: Operation | None,
                     assumed: Sequence[str] = ()) -> bool:
    """A change between two years named or assumed, its only column a stated-change one.

    "The change in service revenue between 2017 and 2018" names the "Change" column
    by its word; when the report states no change for those years, the change is
    computed from the two years' levels, never looked up in the change column. So is
    "the change in 2015" once the year before is assumed (``assumed``: the periods
    the clarification assumed, ``["FY2014", "FY2015"]``).
    """
    periods = max(len(set(intent.periods)), len(assumed))
    return operation is not None and operation.kind in ("difference", "percent_change") \
        and periods >= 2 and stated_change_columns(intent)


def _planned(run: Run, operation: Operation, retriever: NarrativeRetriever | None,
             top_k: int) -> AgentResult | Plan | None:
    """An operation with its own operands: its plan, a refusal, or ``None`` (a level)."""
    plan = plan_operation(operation, run.plan_context())
    if plan is None or isinstance(plan, Plan):
        return plan
    run.trace.record(operation=operation.kind, operation_refused=plan.reason, figures=0)
    if operation.answer == "label":  # which item, when no list of items is named: prose
        return text_answer(run, retriever, top_k)
    refused = refusal_answer(operation.kind, plan, (), run.profile, run.lang)
    return run.finish(refused.text, run.intent.route)


def _computed_answer(run: Run, plan: Plan | None, operation: Operation | None,
                     tasks: Sequence[Task], results: Sequence[QueryResult]) -> \
        tuple[StructuredAnswer, list[QueryResult]]:
    """The operation's (or the named cells') answer, and the results it used.

    An operand or a named cell no row states but the profile has a formula for (a ratio,
    a margin) is computed for its cell; the answer then cites the cells and formula of each.
    """
    derived = derived_operands(Derivation(run.store, run.profile, run.ref), tasks, results)
    used = derived.results
    answer = plan_answer(plan, used, run.profile, run.lang) if plan is not None \
        else structured_answer(tasks, used, operation, run.profile, run.lang)
    if derived.missing and not answer.figures:  # what formulas lack named, cells found cited
        gaps, found = formula_gaps(run.profile, tasks, derived.missing)
        lines = [*(f"  {g}" for g in gaps), *input_lines(found, run.profile, run.lang)]
        answer = replace(answer, text="\n".join([answer.text, *lines]), sources=[
            *answer.sources, *(c for c in cited(found) if c not in answer.sources)])
    return expanded_answer(answer, derived.stand_ins, run.lang, run.profile), used


def structured(run: Run, operation: Operation | None, retriever: NarrativeRetriever | None,
                top_k: int) -> AgentResult:
    """The fact channel: the operation's operands (or the named cells) and their figures.

    An operation the question asks for is computed over the found cells or refused.
    """
    tasks = base_tasks(run.intent, run.clar, run.profile)
    plan: Plan | None = None
    if operation is not None and operation.kind in _PLANNED:
        planned = _planned(run, operation, retriever, top_k)
        if isinstance(planned, AgentResult):
            return planned
        plan, operation = planned, operation if planned is not None else None
        tasks = list(plan.tasks) if plan is not None else tasks
    tasks = ranged(tasks, run.intent) if operation is None else tasks  # "2019 to 2017"
    # an operation asked in words we did not read (a stated-change column answers it)
    missed = operation_asked(cue_text(run.intent, run.profile)) \
        if operation is None and not stated_change_columns(run.intent) else ""
    if missed:  # an operation asked in words we did not read: its inputs, never a level
        return _not_read(run, missed, tasks)
    if operation is None and len(varying_slots(tasks)) > 1:
        refused = cross_refusal(tasks, run.lang, run.profile)  # rows × periods: no figure
        run.trace.record(cross_product=len(tasks), figures=0)
        return run.finish(refused.text, run.intent.route)
    try:
        results = _lookups(run, tasks)
    except ProviderError:
        run.trace.record(provider_error=True)
        return run.finish(TEXT["provider_error"][run.lang], run.intent.route)
    if plan is None and operation is None and len(results) == 1 and results[0].status != "found":
        missing = _missing_level(run, tasks, results)
        if isinstance(missing, AgentResult):
            return missing
        tasks, results = missing
    structured, results = _computed_answer(run, plan, operation, tasks, results)
    if operation is None:  # "…, and why did it fall?" when it rose: said, with the change
        structured, results = with_premise(run, structured, results)
    else:  # "How much did revenue fall?" when the change computed is a rise: said
        structured = change_premise(run.intent.raw_question, structured, run.lang)
    body, sources = structured.text, structured.sources
    note = _reading_note(run, plan)
    if note:
        body = with_note(note, body, run.lang)
    statuses = [r.status for r in results]
    run.trace.record(operation=operation.kind if operation else None,
                     figures=len(structured.figures),
                     tool_status={s: statuses.count(s) for s in set(statuses)},
                     fabrication_guard_triggered=bool(results) and "found" not in statuses)
    body, sources = _pointed(run, retriever, results, body, sources)
    told: NarrativeOutcome | None = None
    unnamed = operation is not None and operation.answer == "label" and \
        any(s != "found" for s in statuses)  # a label some cell is missing for
    if run.intent.route == ROUTE_COMPOSITE or unnamed:
        # the narrative may not contradict the line above; a label no cell names: the text
        told = _narrative(run, retriever, top_k, anchors=results)
        body = f"{body}\n\n{TEXT['attribution'][run.lang]}\n{told.text}"
        sources = told.merged_sources(sources)
    return run.finish(body, run.intent.route, sources=sources, narrative=told, tool=ToolOutcome(
        tuple(results), tuple(sql_of(run.store, results)), tuple(structured.figures)))


def _missing_level(run: Run, tasks: list[Task], results: list[QueryResult]
                   ) -> AgentResult | tuple[list[Task], list[QueryResult]]:
    """One level asked that no fact states: a built-in formula's answer, else its parts.

    A margin, FCF or EBITDA no figure states is computed (:func:`builtin_answer`); "cash
    flow activities", a group no table states (no fact of it), is answered by its parts
    when one of them is found; else the miss stands.
    """
    derived = builtin_answer(run, tasks[0])
    if derived is not None:
        return derived
    parts = [] if tasks[0].metric in run.store.metric_codes() else \
        group_parts(tasks[0], run.profile)
    found = _lookups(run, parts) if parts else []
    return (parts, found) if any(r.status == "found" for r in found) else (tasks, results)


def _reading_note(run: Run, plan: Plan | None) -> str:
    """What was assumed, said before the answer.

    When the operation chose its periods the assumed ones are not used; how the question's
    rows were read is still said.
    """
    if plan is not None and plan.operation.kind in ("ratio", "share") and \
            "part" in run.clar.assumed_slots:
        # each side was read apart: the whole question's "a part of a total" is no reading
        # ("Revenue, part of Operating income" for "operating income as a % of revenue")
        slots = {k: v for k, v in run.clar.assumed_slots.items() if k != "part"}
        intent = replace(run.intent, read_as_part=())
        return assumption_note(intent, slots, run.profile, run.reported is not None) \
            if slots else ""
    if plan is None or "period" not in varying_slots(plan.tasks):
        return run.clar.assumption_note
    kept = {k: v for k, v in run.clar.assumed_slots.items() if k in READING_SLOTS}
    return assumption_note(run.intent, kept, run.profile) if kept else ""


def _pointed(run: Run, retriever: NarrativeRetriever | None, results: Sequence[QueryResult],
             body: str, sources: list[dict[str, str]]) -> tuple[str, list[dict[str, str]]]:
    """A miss: the passages that name what was looked for, cited as sources to read."""
    mentioned = mentioning_passages(retriever, run.profile, results, companies=frozenset(
        workspace_companies(run.store, run.profile))) if run.intent.route != ROUTE_COMPOSITE \
        else []
    if not mentioned:
        return body, sources
    return f"{body}\n{mentions_text(mentioned, run.lang)}", [
        *sources, *({"doc": s.doc_id, "locator": s.source_locator} for s in mentioned)]


def _not_read(run: Run, kind: str, tasks: Sequence[Task]) -> AgentResult:
    """An operation asked that was not read: no figure, the cells found listed as inputs."""
    try:
        results = _lookups(run, tasks) if len(varying_slots(tasks)) <= 1 else []
    except ProviderError:
        results = []
    refused = refusal_answer(kind, TEXT["operation_not_read"][run.lang], results, run.profile,
                             run.lang)
    run.trace.record(operation_not_read=kind, figures=0)
    return run.finish(refused.text, run.intent.route, sources=refused.sources)


def roles_resolve(run: Run, operation: Operation | None) -> bool:
    """Whether an ask-back about several rows / columns is answered by the operation.

    A ratio names its numerator and denominator; a which-item question ("Which was
    higher, A or B?") compares every item it names.
    """
    if operation is None or run.clar.mode != CLARIFY_ASK_FIRST or not run.intent.metrics:
        return False
    if operation.kind not in ("ratio", "share") and operation.over != "items":
        return False
    asked = set(run.clar.narrowing_options)
    if not asked or not asked <= {*run.intent.metrics, *run.intent.channel_options}:
        return False
    plain = replace(run.intent, metrics=run.intent.metrics[:1], channel_options=(),
                    metric=run.intent.metrics[0], list_cue=True)
    clar = clarify_scope(plain, run.ref, profile=run.profile, reported=run.reported)
    if clar.mode == CLARIFY_ASK_FIRST:
        return False
    run.clar = clar
    if operation.over == "items" and run.intent.channel_options and not run.intent.channels:
        run.intent = replace(run.intent, channels=run.intent.channel_options)
    return True
