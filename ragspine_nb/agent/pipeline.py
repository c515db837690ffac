"""The answer loop: gate → intent → clarification → FAQ → route → tools/retrieval → answer.

Anti-fabrication lives here, in control flow: a structured answer is always rebuilt
from the stored fact (model prose is discarded); a miss is an honest refusal; the
planned sub-tasks are executed deterministically when the model does not call the
tool (or calls it for something else); a fact documents state differently is
answered as a conflict (every value with its source, no single number, no change
computed from it); narrative answers keep only sentences whose numbers appear in the
cited snippets and that contradict neither the fact store nor the answer's own
structured line (:mod:`ragspine_nb.agent.grounding`), and always end with their sources.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from ragspine_nb.agent.answer import structured_answer
from ragspine_nb.agent.clarify import (
    CLARIFY_ASK_FIRST,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ClarificationResult,
    clarify_scope,
)
from ragspine_nb.agent.faq import FaqCache
from ragspine_nb.agent.grounding import Grounder, GroundingContext, question_context
from ragspine_nb.agent.intent import (
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    IntentParser,
    ParsedIntent,
    RuleIntentParser,
)
from ragspine_nb.agent.narrative import NarrativeAnswer, NarrativeRetriever, run_narrative
from ragspine_nb.agent.operations import detect_operation
from ragspine_nb.agent.providers import SLOTS_MARKER, LLMProvider, MockProvider
from ragspine_nb.agent.query_tools import (
    TOOL_NAME,
    build_query_metric_tool_anthropic,
    execute_query_metric,
)
from ragspine_nb.agent.render import citations, sql_of
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.security_gate import SecurityGate
from ragspine_nb.agent.templates import TEXT
from ragspine_nb.agent.trace import Trace
from ragspine_nb.errors import ProfileError, ProviderError
from ragspine_nb.glossary import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.types import (
    CHANGE_PCT_CHANNEL,
    ConflictResult,
    FoundResult,
    NotFoundResult,
    QueryResult,
)

__all__ = ["answer_question", "MAX_TOOL_ITERATIONS", "STRUCTURED_SYSTEM"]

MAX_TOOL_ITERATIONS = 5
STRUCTURED_SYSTEM = (
    "You answer questions about reported figures. Call the query_metric tool once per "
    "sub-task listed in the user message. Never state a number that the tool did not return.")


# ------------------------------------------------------------------------ helpers
def _plan(intent: ParsedIntent, clar: ClarificationResult, profile: DomainProfile
          ) -> list[dict[str, str]]:
    entities = list(intent.entities) or [clar.assumed_slots.get("entity",
                                                                 profile.home_entity_code)]
    if "periods" in clar.assumed_slots:
        periods = clar.assumed_slots["periods"].split(",")
    else:
        periods = [period_label(*p) for p in intent.periods] or [clar.assumed_slots["period"]]
    channels = list(intent.channels) or [intent.channel or profile.default_channel]
    return [{"metric": m, "entity": e, "period": p, "channel": c}
            for m in intent.metrics for e in entities for p in periods for c in channels]


def _stated_change(intent: ParsedIntent, clar: ClarificationResult, store: FactStore,
                   profile: DomainProfile, ref: date) -> FoundResult | ConflictResult | None:
    """A change the source states itself (a "% change" column), for a change question.

    Asked when the question names a stated-change channel (``CHANGE*``), or asks for a
    percentage change and the profile has :data:`CHANGE_PCT_CHANNEL`. The stated figure
    is filed under the later period, so one period in the question is enough. A figure
    the report states wins over one computed from two levels (rounding, restatements);
    one in conflict is answered as the conflict, never computed from levels instead.
    """
    periods = list(intent.periods) or [
        ("FY", p[2:]) for p in clar.assumed_slots.get("periods", "").split(",") if p]
    if not (intent.change_cue and len(intent.metrics) == 1 and periods
            and len(intent.entities) <= 1):
        return None
    channel = intent.channel if intent.channel and intent.channel.startswith("CHANGE") \
        else CHANGE_PCT_CHANNEL if intent.percent_cue and CHANGE_PCT_CHANNEL in profile.channels \
        else None
    if channel is None:
        return None
    later = max(periods, key=lambda p: p[1])
    entity = intent.entities[0] if intent.entities else profile.home_entity_code
    result = execute_query_metric(store, intent.metrics[0], entity, period_label(*later),
                                  channel, profile=profile, reference_date=ref)
    return result if isinstance(result, FoundResult | ConflictResult) else None


def _same_task(result: QueryResult, task: dict[str, str]) -> bool:
    """Whether a model-requested result answers a planned sub-task."""
    if isinstance(result, FoundResult):
        f = result.fact
        key = (f.metric_code, f.entity, period_label(f.period_type, f.period), f.channel)
    elif isinstance(result, NotFoundResult | ConflictResult):
        key = (result.metric_code, result.entity,
               period_label(result.period_type, result.period), result.channel)
    else:
        return False
    return key == (task["metric"], task["entity"], task["period"], task["channel"])


# --------------------------------------------------------------------- the loop
@dataclass
class _Run:
    """One question on its way through the loop: what was read, and how to finish."""

    question: str
    store: FactStore
    provider: LLMProvider
    profile: DomainProfile
    ref: date
    intent: ParsedIntent
    clar: ClarificationResult
    history: Sequence[tuple[str, str]]
    trace: Trace
    grounder: Grounder
    context: GroundingContext
    started: float = field(default_factory=time.perf_counter)
    retrieval: dict[str, Any] = field(default_factory=dict)
    #: narrative citations, filled by run_narrative
    passages: list[dict[str, Any]] = field(default_factory=list)

    @property
    def lang(self) -> str:
        """The question's language (answers are written in it)."""
        return self.intent.language

    def done(self, answer: str, route: str, **kw: Any) -> AgentResult:
        """The result, with its citations and timing."""
        kw.setdefault("citations", citations(self.passages, kw.get("tool_results", []),
                                             kw.get("sources", []), kw.get("plain")))
        self.trace.record(latency_ms=round((time.perf_counter() - self.started) * 1e3, 3),
                          n_sources=len(kw.get("sources", [])))
        return AgentResult(self.question, answer, route, self.clar, trace=self.trace.to_dict(),
                           answer_plain=kw.pop("plain", answer), language=self.lang, **kw)


def _start(question: str, store: FactStore, provider: LLMProvider | None,
           reference_date: date | None, intent_parser: IntentParser | None,
           profile: DomainProfile | None, history: Sequence[tuple[str, str]] | None) -> _Run:
    """Check the input, screen the history, parse the intent and clarify its scope."""
    if profile is None:
        raise ProfileError("answer_question needs profile= (a DomainProfile)")
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question must be a non-empty string")
    ref = reference_date or date.today()
    trace = Trace()
    started = time.perf_counter()
    parser = intent_parser or RuleIntentParser(profile)
    gate = parser.gate if isinstance(parser, RuleIntentParser) else \
        SecurityGate.from_profile(profile)
    screened, dropped = gate.screen_history(history)  # before anything uses the history
    trace.record(history_turns_dropped=dropped)
    intent = parser.parse(question, ref)
    if intent.raw_question != question:
        raise ValueError("an IntentParser must fill raw_question with the exact question")
    clar = clarify_scope(intent, ref, profile=profile, gate=gate)
    trace.record(route=intent.route, metric=intent.metric, entity=intent.entity,
                 period=period_label(*intent.period) if intent.period else None,
                 channel=intent.channel, clar_mode=clar.mode,
                 external_entity=bool(intent.external_entity), language=intent.language)
    return _Run(question, store, provider or MockProvider(), profile, ref, intent, clar,
                screened or [], trace, Grounder(profile, store),
                question_context(intent, clar, profile), started)


def _faq_answer(run: _Run, faq: FaqCache) -> AgentResult | None:
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
    return run.done(entry.answer + note, "faq", sources=[src], plain=entry.answer)


def _stated_answer(run: _Run, stated: FoundResult | ConflictResult) -> AgentResult:
    """A change the report states: its own figure (or its conflict), not computed."""
    change = structured_answer([{}], [stated], None, run.profile, run.lang, "stated_change")
    note = TEXT["stated_change"][run.lang]
    run.trace.record(stated_change=True, tool_status={stated.status: 1}, llm_calls=0,
                     figures=len(change.figures))
    text = f"{note} {change.text}" if run.lang == "en" else note + change.text
    return run.done(text, run.intent.route, tool_results=[stated.to_dict()],
                    sources=change.sources, sql=sql_of(run.store, [stated]),
                    figures=change.figures)


def _narrative(run: _Run, retriever: NarrativeRetriever | None, top_k: int,
               anchors: Sequence[QueryResult] = ()) -> NarrativeAnswer:
    """Retrieved passages, grounded (against the structured results, when there are some)."""
    context = replace(run.context, anchors=tuple(anchors)) if anchors else run.context
    return run_narrative(run.question, run.intent, run.provider, retriever, run.history,
                         run.trace, run.lang, top_k, run.retrieval, run.passages,
                         run.grounder, context)


def _lookups(run: _Run, tasks: list[dict[str, str]]) -> list[QueryResult]:
    """Each planned sub-task's result: several run deterministically, one through the tool."""
    if len(tasks) > 1:  # explicit multi-value question: deterministic sub-tasks, no LLM
        run.trace.record(subtasks=len(tasks), llm_calls=0)
        return [execute_query_metric(run.store, t["metric"], t["entity"], t["period"],
                                     t["channel"], profile=run.profile, reference_date=run.ref)
                for t in tasks]
    return _run_tool_loop(run.question, tasks, run.store, run.provider, run.profile, run.ref,
                          run.trace)


def _structured(run: _Run, retriever: NarrativeRetriever | None, top_k: int) -> AgentResult:
    """The fact channel: sub-tasks and their figures, then a composite's narrative.

    An operation the question asks for is computed over the found cells or refused.
    """
    tasks = _plan(run.intent, run.clar, run.profile)
    try:
        results = _lookups(run, tasks)
    except ProviderError:
        run.trace.record(provider_error=True)
        return run.done(TEXT["provider_error"][run.lang], run.intent.route)
    operation = detect_operation(run.intent)
    structured = structured_answer(tasks, results, operation, run.profile, run.lang)
    body, sources = structured.text, structured.sources
    note = run.clar.assumption_note
    if note:
        body = f"{note} {body}" if run.lang == "en" else note + body
    statuses = [r.status for r in results]
    run.trace.record(operation=operation.kind if operation else None,
                     figures=len(structured.figures),
                     tool_status={s: statuses.count(s) for s in set(statuses)},
                     fabrication_guard_triggered=bool(results) and "found" not in statuses)
    answer, left_out = body, []
    if run.intent.route == ROUTE_COMPOSITE:  # the narrative may not contradict the line above
        told = _narrative(run, retriever, top_k, anchors=results)
        answer = f"{body}\n\n{TEXT['attribution'][run.lang]}\n{told.text}"
        sources = sources + [s for s in told.sources if s not in sources]
        left_out = [d.to_dict() for d in told.dropped]
    return run.done(answer, run.intent.route, tool_results=[r.to_dict() for r in results],
                    sources=sources, sql=sql_of(run.store, results), retrieval=run.retrieval,
                    dropped=left_out, figures=structured.figures)


def answer_question(
    question: str,
    store: FactStore,
    provider: LLMProvider | None = None,
    *,
    reference_date: date | None = None,
    narrative_retriever: NarrativeRetriever | None = None,
    intent_parser: IntentParser | None = None,
    profile: DomainProfile | None = None,
    history: Sequence[tuple[str, str]] | None = None,
    faq: FaqCache | None = None,
    top_k: int = 6,
) -> AgentResult:
    """Answer one question; see the module docstring for the guarantees.

    ``history`` (``(role, text)`` turns) is generation context for narrative synthesis
    only: it is never fed to intent parsing or retrieval. Turns naming a competitor are
    dropped first (the trace counts them); the question is judged on its own text.
    """
    run = _start(question, store, provider, reference_date, intent_parser, profile, history)
    intent, clar = run.intent, run.clar
    if clar.mode == CLARIFY_OUT_OF_SCOPE_ENTITY:  # before any tool, retrieval or model
        return run.done(clar.question, intent.route)
    if faq is not None and not (intent.metrics or intent.entities or intent.periods):
        served = _faq_answer(run, faq)
        if served is not None:
            return served
    stated = _stated_change(intent, clar, store, run.profile, run.ref) \
        if clar.mode != CLARIFY_ASK_FIRST or intent.metrics else None
    if stated is not None:  # the report states this change: no second period needed
        return _stated_answer(run, stated)
    if clar.mode == CLARIFY_ASK_FIRST:
        return run.done(clar.question, intent.route)
    if intent.route == ROUTE_NARRATIVE:
        told = _narrative(run, narrative_retriever, top_k)
        return run.done(told.text, ROUTE_NARRATIVE, sources=told.sources,
                        retrieval=run.retrieval, dropped=[d.to_dict() for d in told.dropped])
    return _structured(run, narrative_retriever, top_k)


def _run_tool_loop(question: str, tasks: list[dict[str, str]], store: FactStore,
                   provider: LLMProvider, profile: DomainProfile, ref: date,
                   trace: Trace) -> list[QueryResult]:
    tools = [build_query_metric_tool_anthropic(profile)]
    messages: list[dict[str, Any]] = [{"role": "user", "content":
                                       f"{question}\n\n{SLOTS_MARKER} {json.dumps(tasks)}"}]
    model_results: list[QueryResult] = []
    iterations = 0
    t0 = time.perf_counter()
    for iterations in range(1, MAX_TOOL_ITERATIONS + 1):  # noqa: B007 - used after the loop
        resp = provider.create_message(system=STRUCTURED_SYSTEM, messages=messages, tools=tools)
        if not resp.tool_calls:
            break
        blocks, outputs = [], []
        for call in resp.tool_calls:
            args = call.arguments if isinstance(call.arguments, dict) else {}
            if call.name != TOOL_NAME or not {"metric", "entity", "period"} <= set(args):
                payload: dict[str, Any] = {"status": "error", "detail": "unknown tool or args"}
            else:
                result = execute_query_metric(store, str(args["metric"]), str(args["entity"]),
                                              str(args["period"]), args.get("channel") or
                                              profile.default_channel, profile=profile,
                                              reference_date=ref)
                model_results.append(result)
                payload = result.to_dict()
            blocks.append({"type": "tool_use", "id": call.id, "name": call.name,
                           "input": args})
            outputs.append({"type": "tool_result", "tool_use_id": call.id,
                            "content": json.dumps(payload, ensure_ascii=False)})
        messages += [{"role": "assistant", "content": blocks},
                     {"role": "user", "content": outputs}]
    trace.record(tool_iterations=iterations, tool_loop_capped=iterations >= MAX_TOOL_ITERATIONS,
                 provider_seconds=round(time.perf_counter() - t0, 4),
                 model_tool_calls=len(model_results))
    final: list[QueryResult] = []
    for task in tasks:  # the plan decides what is answered; missing calls run deterministically
        match = next((r for r in model_results if _same_task(r, task)), None)
        if match is None:
            match = execute_query_metric(store, task["metric"], task["entity"], task["period"],
                                         task["channel"], profile=profile, reference_date=ref)
            trace.record(deterministic_fallback=True)
        final.append(match)
    return final


