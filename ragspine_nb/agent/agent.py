"""The orchestrator: gate → intent → clarification → FAQ → route → tools/retrieval → answer.

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
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb.agent.clarify import (
    CLARIFY_ASK_FIRST,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ClarificationResult,
    clarify_scope,
)
from ragspine_nb.agent.faq import FaqCache
from ragspine_nb.agent.grounding import Grounder, question_context
from ragspine_nb.agent.intent import (
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    IntentParser,
    ParsedIntent,
    RuleIntentParser,
)
from ragspine_nb.agent.narrative import NarrativeRetriever, run_narrative
from ragspine_nb.agent.providers import SLOTS_MARKER, LLMProvider, MockProvider
from ragspine_nb.agent.query_tools import (
    TOOL_NAME,
    build_query_metric_tool_anthropic,
    execute_query_metric,
)
from ragspine_nb.agent.render import EXCERPT_CHARS, citations, render_structured, sql_of
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.security_gate import SecurityGate
from ragspine_nb.agent.templates import TEXT
from ragspine_nb.agent.trace import Trace
from ragspine_nb.errors import ProfileError, ProviderError
from ragspine_nb.glossary import period_label
from ragspine_nb.profile import DomainProfile, find_profile
from ragspine_nb.retrieval.planning import RuleQueryPlanner
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.types import (
    CHANGE_PCT_CHANNEL,
    ConflictResult,
    FoundResult,
    NotFoundResult,
    QueryResult,
)

__all__ = ["Agent", "AgentResult", "answer_question", "NarrativeRetriever",
           "MAX_TOOL_ITERATIONS", "EXCERPT_CHARS"]

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
    if profile is None:
        raise ProfileError("answer_question needs profile= (a DomainProfile)")
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question must be a non-empty string")
    provider = provider or MockProvider()
    ref = reference_date or date.today()
    trace = Trace()
    started = time.perf_counter()
    parser = intent_parser or RuleIntentParser(profile)
    gate = parser.gate if isinstance(parser, RuleIntentParser) else \
        SecurityGate.from_profile(profile)
    history, dropped = gate.screen_history(history)  # before anything uses the history
    trace.record(history_turns_dropped=dropped)
    intent = parser.parse(question, ref)
    if intent.raw_question != question:
        raise ValueError("an IntentParser must fill raw_question with the exact question")
    clar = clarify_scope(intent, ref, profile=profile, gate=gate)
    lang = intent.language
    trace.record(route=intent.route, metric=intent.metric, entity=intent.entity,
                 period=period_label(*intent.period) if intent.period else None,
                 channel=intent.channel, clar_mode=clar.mode,
                 external_entity=bool(intent.external_entity), language=lang)

    retrieval: dict[str, Any] = {}
    passages: list[dict[str, Any]] = []  # narrative citations, filled by run_narrative
    grounder, context = Grounder(profile, store), question_context(intent, clar, profile)

    def done(answer: str, route: str, **kw: Any) -> AgentResult:
        kw.setdefault("citations", citations(passages, kw.get("tool_results", []),
                                             kw.get("sources", []), kw.get("plain")))
        trace.record(latency_ms=round((time.perf_counter() - started) * 1e3, 3),
                     n_sources=len(kw.get("sources", [])))
        return AgentResult(question, answer, route, clar, trace=trace.to_dict(),
                           answer_plain=kw.pop("plain", answer), language=lang, **kw)

    if clar.mode == CLARIFY_OUT_OF_SCOPE_ENTITY:  # before any tool, retrieval or model
        return done(clar.question, intent.route)
    if faq is not None and not (intent.metrics or intent.entities or intent.periods):
        entry = faq.lookup(question, ref)
        clash = grounder.first_clash(entry.answer, context) if entry is not None else None
        if clash is not None:  # a curated answer the fact store contradicts is not served
            trace.record(faq_bypassed=clash.reason, faq_clash=clash.to_trace())
        elif entry is not None:
            trace.record(faq_hit=True)
            src = entry.source.to_dict()
            note = f"\n{TEXT['sources'][lang]} {src['doc']} · {src['locator']}"
            return done(entry.answer + note, "faq", sources=[src], plain=entry.answer)
    stated = _stated_change(intent, clar, store, profile, ref) \
        if clar.mode != CLARIFY_ASK_FIRST or intent.metrics else None
    if stated is not None:  # the report states this change: no second period needed
        body, sources = render_structured([stated], profile, lang)
        note = TEXT["stated_change"][lang]
        trace.record(stated_change=True, tool_status={stated.status: 1}, llm_calls=0)
        return done(f"{note} {body}" if lang == "en" else note + body, intent.route,
                    tool_results=[stated.to_dict()], sources=sources,
                    sql=sql_of(store, [stated]))
    if clar.mode == CLARIFY_ASK_FIRST:
        return done(clar.question, intent.route)
    if intent.route == ROUTE_NARRATIVE:
        told = run_narrative(question, intent, provider, narrative_retriever, history, trace,
                             lang, top_k, retrieval, passages, grounder, context)
        return done(told.text, ROUTE_NARRATIVE, sources=told.sources, retrieval=retrieval,
                    dropped=[d.to_dict() for d in told.dropped])

    tasks = _plan(intent, clar, profile)
    results: list[QueryResult] = []
    if len(tasks) > 1:  # explicit multi-value question: deterministic sub-tasks, no LLM
        results = [execute_query_metric(store, t["metric"], t["entity"], t["period"],
                                        t["channel"], profile=profile, reference_date=ref)
                   for t in tasks]
        trace.record(subtasks=len(tasks), llm_calls=0)
    else:
        try:
            results = _run_tool_loop(question, tasks, store, provider, profile, ref, trace)
        except ProviderError:
            trace.record(provider_error=True)
            return done(TEXT["provider_error"][lang], intent.route)
    body, sources = render_structured(results, profile, lang)
    if clar.assumption_note:
        body = f"{clar.assumption_note} {body}" if lang == "en" else clar.assumption_note + body
    statuses = [r.status for r in results]
    trace.record(tool_status={s: statuses.count(s) for s in set(statuses)},
                 fabrication_guard_triggered=bool(results) and "found" not in statuses)
    answer, left_out = body, []
    if intent.route == ROUTE_COMPOSITE:  # the narrative may not contradict the line above
        told = run_narrative(question, intent, provider, narrative_retriever, history, trace,
                             lang, top_k, retrieval, passages, grounder,
                             replace(context, anchors=tuple(results)))
        answer = f"{body}\n\n{TEXT['attribution'][lang]}\n{told.text}"
        sources = sources + [s for s in told.sources if s not in sources]
        left_out = [d.to_dict() for d in told.dropped]
    return done(answer, intent.route, tool_results=[r.to_dict() for r in results],
                sources=sources, sql=sql_of(store, results), retrieval=retrieval,
                dropped=left_out)


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


# ------------------------------------------------------------------------ Agent
class Agent:
    """The dual-channel agent as one object.

    Parameters
    ----------
    store : FactStore or path
        The fact store (numbers only ever come from here).
    index : NarrativeIndex, optional
        The narrative channel (its retriever drops RESTRICTED chunks).
    provider : LLMProvider, optional
        ``None`` means :class:`MockProvider` (offline).
    profile : DomainProfile or path, optional
        Defaults to the profile stored beside a file store (its workspace).
    faq : FaqCache, optional
        Curated answers for recurring narrative questions.
    """

    def __init__(self, store: FactStore | str | Path, index: Any = None,
                 provider: LLMProvider | None = None,
                 profile: DomainProfile | str | Path | None = None,
                 faq: FaqCache | None = None) -> None:
        self.store = store if isinstance(store, FactStore) else FactStore(store, create=False)
        if isinstance(profile, DomainProfile):
            self.profile = profile
        else:
            path = Path(profile) if profile is not None else self._workspace_profile()
            self.profile = DomainProfile.from_file(path)
        self.index = index
        self.provider = provider or MockProvider()
        self.faq = faq
        self.parser = RuleIntentParser(self.profile)
        # a real model also paraphrases the question for retrieval (semantic variants)
        self.planner = RuleQueryPlanner(
            self.profile, provider=None if isinstance(self.provider, MockProvider)
            else self.provider)

    def _workspace_profile(self) -> Path:
        found = find_profile(Path(self.store.path).parent) if self.store.path != ":memory:" \
            else None
        if found is None:
            raise ProfileError("Agent needs profile= (no profile.* beside the fact store)")
        return found

    def ask(self, question: str, reference_date: date | None = None,
            history: Sequence[tuple[str, str]] | None = None) -> AgentResult:
        """Answer one question (see :func:`answer_question`)."""
        retriever = self.index.retriever(planner=self.planner) if self.index is not None \
            else None
        return answer_question(question, self.store, self.provider,
                               reference_date=reference_date, narrative_retriever=retriever,
                               intent_parser=self.parser, profile=self.profile,
                               history=history, faq=self.faq)

    def widget(self, reference_date: date | None = None) -> Any:
        """An :class:`~ragspine_nb.widgets.AskWidget` bound to this agent."""
        from ragspine_nb.widgets.ask import AskWidget

        return AskWidget(self, reference_date)

    def chat(self, store: Any = None, conversation_id: str | None = None) -> Any:
        """A :class:`~ragspine_nb.agent.conversation.Conversation` with this agent.

        ``store`` is a :class:`~ragspine_nb.stores.conversations.ConversationStore` (or
        its path); in memory by default.
        """
        from ragspine_nb.agent.conversation import Conversation
        from ragspine_nb.stores.conversations import ConversationStore

        if store is not None and not isinstance(store, ConversationStore):
            store = ConversationStore(store)
        return Conversation(self, store, conversation_id)

    def topology(self) -> Any:
        """Router → fact channel | narrative pipeline, from the real configuration."""
        from ragspine_nb.retrieval.topology import Node, PipelineGraph

        nodes = [Node("q", "question"),
                 Node("gate", "security gate", (("refuses", "competitors"),)),
                 Node("intent", "intent + clarification"),
                 Node("facts", "fact channel", (("tool", TOOL_NAME),))]
        edges = [("q", "gate"), ("gate", "intent"), ("intent", "facts")]
        if self.index is not None:
            nodes.append(Node("narr", "narrative channel", (("pipeline", repr(
                self.index.topology())),)))
            edges.append(("intent", "narr"))
        nodes.append(Node("answer", "cited answer",
                          (("provider", getattr(self.provider, "name",
                                                type(self.provider).__name__)),)))
        edges += [("facts", "answer")] + ([("narr", "answer")] if self.index is not None else [])
        return PipelineGraph(tuple(nodes), tuple(edges), title="Agent")

    def __repr__(self) -> str:
        return (f"Agent(store={self.store.path!r}, narrative={'yes' if self.index else 'no'}, "
                f"provider={getattr(self.provider, 'name', type(self.provider).__name__)!r})")

    def _repr_html_(self) -> str:
        return str(self.topology()._repr_html_())
