from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import Agent, DomainProfile, FactStore, MockProvider, NarrativeIndex
from ragspine_nb.agent import (
    FaqCache,
    FaqEntry,
    ProviderResponse,
    RuleIntentParser,
    ToolCall,
    answer_question,
    build_query_metric_tool_anthropic,
    build_query_metric_tool_openai,
    clarify_scope,
    execute_query_metric,
)
from ragspine_nb.agent.trace import Trace
from ragspine_nb.core import Source
from ragspine_nb.errors import ProviderError, TraceError
from ragspine_nb.retrieval.planning import PARAPHRASE_SYSTEM

REF = date(2026, 3, 31)


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent(FactStore(demo_ws / "facts.db", create=False),
                 NarrativeIndex(demo_ws / "chunks.db",
                                profile=DomainProfile.from_file(demo_ws / "profile.toml")))


def _digits_besides_periods(text: str) -> list[str]:
    cleaned = re.sub(r"(FY)?20\d\d(H[12]|Q[1-4])?", "", text)
    return re.findall(r"\d", cleaned)


# ------------------------------------------------------------------- intent
@pytest.mark.parametrize("question, route, metrics, entities, periods", [
    ("What was ACME Hong Kong's revenue in FY2025?", "structured", ("REVENUE",), ("ACME_HK",),
     (("FY", "2025"),)),
    ("为什么内地营收下滑？", "composite", ("REVENUE",), ("ACME_CN",), ()),
    ("What happened to bancassurance sales?", "narrative", (), (), ()),
    ("How much was it last year?", "structured", (), (), (("FY", "2025"),)),
    ("香港和内地2024年、2025年的新单保费对比", "structured", ("NEW_SALES",),
     ("ACME_HK", "ACME_CN"), (("FY", "2024"), ("FY", "2025"))),
    ("Revenue and operating profit of the group in FY2025", "structured",
     ("REVENUE", "OPERATING_PROFIT"), ("ACME_GROUP",), (("FY", "2025"),)),
])
def test_rule_intent_parser(profile: DomainProfile, question: str, route: str,
                            metrics: tuple[str, ...], entities: tuple[str, ...],
                            periods: tuple[tuple[str, str], ...]) -> None:
    intent = RuleIntentParser(profile).parse(question, REF)
    assert intent.raw_question == question and intent.route == route
    assert (intent.metrics, intent.entities, intent.periods) == (metrics, entities, periods)


@pytest.mark.parametrize("question", [
    "ACME Hong Kong revenue 2025 and operating profit 2025",
    "What were ACME Hong Kong revenue FY2025 and operating profit FY2025?",
])
def test_two_rows_each_with_its_year_are_a_list_not_a_period_range(agent: Agent,
                                                                   question: str) -> None:
    """"revenue 2025 and operating profit 2025" is no range "2025 and 2025": both answered."""
    res = agent.ask(question, REF)
    assert "Which of these do you mean" not in res.answer, res.answer
    assert "Revenue, FY2025: 1,405 US$ m" in res.answer
    assert "Operating profit, FY2025: 452 US$ m" in res.answer


def test_clarification_order(profile: DomainProfile) -> None:
    p = RuleIntentParser(profile)
    modes = {q: clarify_scope(p.parse(q, REF), REF, profile=profile).mode for q in [
        "竞安为什么增长？", "What happened in Hong Kong?", "How much was it in 2025?",
        "Revenue in 2025?", "ACME Hong Kong revenue FY2025"]}
    assert modes == {"竞安为什么增长？": "out_of_scope_entity",      # gate before narrative
                     "What happened in Hong Kong?": "none",
                     "How much was it in 2025?": "ask_first",
                     "Revenue in 2025?": "answer_with_assumptions",
                     "ACME Hong Kong revenue FY2025": "none"}
    assumed = clarify_scope(p.parse("revenue", REF), REF, profile=profile)
    assert assumed.assumed_slots == {"entity": "ACME_GROUP", "period": "FY2025"}
    assert "ACME Hong Kong" in assumed.narrowing_options


# --------------------------------------------------------------- query tool
def test_query_tool_shapes(demo_facts: FactStore, profile: DomainProfile) -> None:
    found = execute_query_metric(demo_facts, "营收", "香港", "FY2024", profile=profile).to_dict()
    assert (found["status"], found["value"], found["unit"]) == ("found", 1320.0, "USD_M")
    assert found["source"] == {"doc": "ACME_FY2025_Results.pptx",
                               "locator": "slide=3,table=1,row=REVENUE,col=FY2024"}
    rel = execute_query_metric(demo_facts, "revenue", "hong kong", "去年", profile=profile,
                               reference_date=REF)
    assert rel.to_dict()["value"] == 1405.0
    typo = execute_query_metric(demo_facts, "new sales", "hong kong", "FY2025", "agnecy",
                                profile=profile)
    assert typo.to_dict()["normalized"]["channel"] == "agnecy"
    assert execute_query_metric(demo_facts, "ebitda", "hk", "2024",
                                profile=profile).to_dict()["param"] == "metric"
    anth, oai = build_query_metric_tool_anthropic(profile), build_query_metric_tool_openai(profile)
    assert anth["name"] == "query_metric" and anth["input_schema"]["required"] == [
        "metric", "entity", "period"]
    assert "ACME_HK" in anth["input_schema"]["properties"]["entity"]["description"]
    assert oai["function"]["parameters"] == anth["input_schema"]


# --------------------------------------------------------- scripted providers
class Scripted:
    """Replies from a list; a callable reply is called with the messages."""

    def __init__(self, *replies: Any) -> None:
        self.replies = list(replies)
        self.calls: list[dict[str, Any]] = []

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        self.calls.append({"system": system, "messages": json.loads(json.dumps(messages)),
                           "tools": tools})
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        if isinstance(reply, BaseException):
            raise reply
        return reply(messages) if callable(reply) else reply


def call(metric: str, entity: str, period: str, i: int = 0) -> ToolCall:
    return ToolCall(f"c{i}", "query_metric", {"metric": metric, "entity": entity,
                                              "period": period})


def test_fabricating_after_not_found_is_rewritten_to_a_refusal(
        demo_facts: FactStore, profile: DomainProfile) -> None:
    p = Scripted(ProviderResponse("", (call("ROE", "ACME_CN", "FY2025"),), "tool_use"),
                 ProviderResponse("Mainland China ROE was 11.7% in FY2025."))
    r = answer_question("What was Mainland China's ROE in FY2025?", demo_facts, p,
                        profile=profile, reference_date=REF)
    assert "11.7" not in r.answer and r.tool_results[0]["status"] == "not_found"
    assert _digits_besides_periods(r.answer) == [] and r.sources == []
    assert r.trace["fabrication_guard_triggered"] is True


def test_invented_numbers_after_found_are_discarded(demo_facts: FactStore,
                                                    profile: DomainProfile) -> None:
    p = Scripted(ProviderResponse("", (call("REVENUE", "ACME_HK", "FY2025"),), "tool_use"),
                 ProviderResponse("Revenue was 1,405 and will reach 9,999 next year."))
    r = answer_question("ACME Hong Kong revenue FY2025", demo_facts, p, profile=profile,
                        reference_date=REF)
    assert "9,999" not in r.answer and "1,405 US$ m" in r.answer
    assert r.sources == [{"doc": "ACME_FY2025_Results.pptx",
                          "locator": "slide=3,table=1,row=REVENUE,col=FY2025"}]
    assert "ACME_FY2025_Results.pptx" in r.answer  # cited inline too


def test_a_model_that_never_calls_the_tool_cannot_answer_a_number(
        demo_facts: FactStore, profile: DomainProfile) -> None:
    p = Scripted(ProviderResponse("Revenue was 4,444, trust me."))
    r = answer_question("ACME Hong Kong revenue FY2025", demo_facts, p, profile=profile)
    assert "4,444" not in r.answer and "1,405" in r.answer
    assert r.trace["deterministic_fallback"] is True


def test_a_model_asking_for_something_else_is_ignored(demo_facts: FactStore,
                                                     profile: DomainProfile) -> None:
    p = Scripted(ProviderResponse("", (call("REVENUE", "ACME_CN", "FY2025"),), "tool_use"),
                 ProviderResponse("done"))
    r = answer_question("ACME Hong Kong revenue FY2025", demo_facts, p, profile=profile)
    assert "ACME Hong Kong Revenue, FY2025" in r.answer and "1,530" not in r.answer


def test_an_endless_tool_loop_is_capped(demo_facts: FactStore, profile: DomainProfile) -> None:
    p = Scripted(ProviderResponse("", (call("REVENUE", "ACME_HK", "FY2025"),), "tool_use"))
    r = answer_question("ACME Hong Kong revenue FY2025", demo_facts, p, profile=profile)
    assert len(p.calls) == 5 and r.trace["tool_loop_capped"] is True
    assert "1,405 US$ m" in r.answer


def test_provider_errors_give_fixed_number_free_text(demo_facts: FactStore,
                                                     profile: DomainProfile) -> None:
    r = answer_question("ACME Hong Kong revenue FY2025", demo_facts,
                        Scripted(ProviderError("timeout")), profile=profile)
    assert r.answer.startswith("The AI service is unavailable") and r.tool_results == []
    assert _digits_besides_periods(r.answer) == []
    zh = answer_question("香港2025年营收", demo_facts, Scripted(ProviderError("x")),
                         profile=profile)
    assert zh.answer.startswith("AI 服务暂时不可用")


def test_program_errors_propagate(demo_facts: FactStore, profile: DomainProfile) -> None:
    with pytest.raises(KeyError):
        answer_question("ACME Hong Kong revenue FY2025", demo_facts, Scripted(KeyError("bug")),
                        profile=profile)


def test_sources_are_forced_when_the_model_omits_them(agent: Agent) -> None:
    agent_no_cite = Agent(agent.store, agent.index,
                          Scripted(ProviderResponse("Bank commissions were capped.")),
                          agent.profile)
    r = agent_no_cite.ask("What happened to bancassurance sales?", REF)
    assert r.route == "narrative" and r.sources
    assert all(f"{s['doc']} · {s['locator']}" in r.answer for s in r.sources)


def test_narrative_sentences_with_unsupported_numbers_are_dropped(agent: Agent) -> None:
    a = Agent(agent.store, agent.index, Scripted(ProviderResponse(
        "Bank commissions were capped [1]. Sales fell by 93% [1].")), agent.profile)
    r = a.ask("What happened to bancassurance sales?", REF)
    assert "93%" not in r.answer and "Bank commissions were capped" in r.answer
    assert r.trace["narrative_sentences_dropped"] == 1


# ------------------------------------------------------------------- routes
def test_multi_value_questions_run_without_the_llm(agent: Agent) -> None:
    sentinel = Scripted(AssertionError("the LLM must not be called"))
    a = Agent(agent.store, None, sentinel, agent.profile)
    r = a.ask("香港2024年和2025年的营业收入对比", REF)
    assert sentinel.calls == [] and r.trace["llm_calls"] == 0
    assert "1,320" in r.answer and "1,405" in r.answer
    assert "ACME Hong Kong Revenue，FY2025较FY2024变动：85百万美元" in r.answer
    assert len(r.sources) == 2
    en = a.ask("ACME Hong Kong and Mainland China revenue FY2025", REF)
    assert [t["status"] for t in en.tool_results] == ["found", "found"]
    assert en.answer.startswith("Comparison:")


def test_composite_runs_both_channels_and_concatenates_sources(agent: Agent) -> None:
    r = agent.ask("Why did Mainland China revenue fall in FY2025?", REF)
    assert r.route == "composite" and "1,530 US$ m" in r.answer and "Attribution:" in r.answer
    docs = [s["doc"] for s in r.sources]
    assert docs[0] == "ACME_FY2025_Results.pptx" and len(docs) >= 2


def test_narrative_without_retriever_or_hits_is_honest(demo_facts: FactStore,
                                                      profile: DomainProfile) -> None:
    sentinel = Scripted(AssertionError("no model call"))
    r = answer_question("What happened to bancassurance?", demo_facts, sentinel,
                        profile=profile)
    assert "not connected" in r.answer and sentinel.calls == []

    class Empty:
        def retrieve(self, query: str, *, filters: Any = None, top_k: int = 50) -> list[Any]:
            return []

    r = answer_question("为什么银保下降？", demo_facts, sentinel, profile=profile,
                        narrative_retriever=Empty())
    assert r.answer.startswith("未检索到") and sentinel.calls == []


def test_mock_synthesis_is_extractive_not_an_echo(agent: Agent) -> None:
    r = agent.ask("为什么银保渠道新单保费下降？", REF)
    body = r.answer.split("归因分析：")[-1]
    assert "报行合一" in body and "[1]" in body
    assert "Snippets" not in body and "Question:" not in body and "Answer only" not in body


def test_out_of_scope_refuses_before_anything_runs(demo_facts: FactStore,
                                                   profile: DomainProfile) -> None:
    class Exploding(FactStore):
        def query(self, *a: Any, **k: Any) -> Any:  # type: ignore[override]
            raise AssertionError("fact store reached")

    class NoRetriever:
        def retrieve(self, *a: Any, **k: Any) -> Any:
            raise AssertionError("retriever reached")

    sentinel = Scripted(AssertionError("model reached"))
    for q in ["竞安2025年的营收是多少？", "Why did Rivalis grow?", "競\u200b安證券的ROE"]:
        r = answer_question(q, Exploding(), sentinel, profile=profile,
                            narrative_retriever=NoRetriever())
        assert r.clarification.mode == "out_of_scope_entity" and r.sources == []
        assert sentinel.calls == []


def test_history_is_generation_context_only(agent: Agent) -> None:
    spy = Scripted(lambda msgs: ProviderResponse("Commissions were capped [1]."))
    a = Agent(agent.store, agent.index, spy, agent.profile)
    # (a history turn naming a competitor is dropped first: tests/test_gate_attacks.py)
    history = [("user", "Tell me about Hong Kong revenue 9999"), ("assistant", "ok")]
    r = a.ask("What happened to bancassurance sales?", REF, history=history)
    assert r.clarification.mode == "none" and r.route == "narrative"
    (paraphrase,) = [c for c in spy.calls if c["system"] == PARAPHRASE_SYSTEM]
    (synthesis,) = [c for c in spy.calls if c["system"] != PARAPHRASE_SYSTEM]
    assert synthesis["messages"][0]["content"].startswith("Tell me about")
    assert "9999" not in json.dumps(paraphrase, ensure_ascii=False)  # retrieval: no history
    assert r.trace["entity"] is None  # history never reached intent parsing
    assert r.trace["history_turns_dropped"] == 0


def test_faq_short_circuit_and_exclusions(agent: Agent) -> None:
    faq = FaqCache([
        FaqEntry("What is bancassurance?", "Selling insurance through bank branches.",
                 Source("glossary.md", "para=3"), aliases=("银保是什么",)),
        FaqEntry("What is agency?", "Old answer.", Source("g.md", "para=1"), valid_to="2020-01-01"),
        FaqEntry("Secret plan?", "x", Source("b.md", "para=1"), sensitivity="restricted"),
    ])
    a = Agent(agent.store, agent.index, profile=agent.profile, faq=faq)
    r = a.ask("what is  BANCASSURANCE ?", REF)
    assert r.route == "faq" and r.sources == [{"doc": "glossary.md", "locator": "para=3"}]
    assert a.ask("银保是什么？", REF).route == "faq"
    assert a.ask("What is agency?", REF).route != "faq"            # outside its validity
    assert a.ask("Secret plan?", REF).route != "faq"               # RESTRICTED never served
    assert a.ask("What is bancassurance today?", REF).route != "faq"  # real-time cue


def test_trace_is_privacy_aware(agent: Agent) -> None:
    r = agent.ask("ACME Hong Kong revenue FY2025", REF)
    # the random request id is no figure (one run drew "a007dbdb36214058")
    blob = json.dumps({k: v for k, v in r.trace.items() if k != "request_id"},
                      ensure_ascii=False)
    assert "1405" not in blob and "1,405" not in blob and "Hong Kong revenue" not in blob
    assert {"request_id", "route", "tool_status", "fabrication_guard_triggered"} <= set(r.trace)
    for key in ("answer", "value", "prompt", "text"):
        with pytest.raises(TraceError):
            Trace().record(**{key: "x"})
    with pytest.raises(TraceError):
        Trace().record(details={"content": "x"})


def test_agent_result_display_shows_sql_and_sources(agent: Agent) -> None:
    r = agent.ask("ACME Hong Kong revenue FY2025", REF)
    html = r._repr_html_()
    assert "SELECT" in html and "ACME_HK" in html and "slide=3,table=1" in html
    assert r.sql and r.sql[0][1] == ("REVENUE", "ACME_HK", "TOTAL", "FY", "2025")
    assert "Agent" in repr(agent) and "fact channel" in agent._repr_html_()


def test_agent_defaults(demo_ws: Path) -> None:
    a = Agent(demo_ws / "facts.db")  # profile found beside the store, MockProvider by default
    assert isinstance(a.provider, MockProvider)
    r = a.ask("集团2025年上半年营收多少？", REF)
    assert "2,290" in r.answer and r.language == "zh" and r.route == "structured"


@pytest.mark.parametrize("question, value, lang", [
    ("What was ACME Hong Kong's revenue in FY2024?", "1,320 US$ m", "en"),
    ("中国内地2024年的营业收入是多少？", "1,580百万美元", "zh"),
    ("香港代理人渠道FY2025新单保费", "835百万美元", "zh"),
    ("ACME Mainland China operating profit FY2025", "-36 US$ m", "en"),
    ("集团2025年上半年营收", "2,290百万美元", "zh"),
    ("Group ROE FY2021", "11.9%", "en"),
    ("内地2025年第一季度营业收入", "27.6亿元", "zh"),
])
def test_found_answers_carry_value_source_and_language(agent: Agent, question: str, value: str,
                                                       lang: str) -> None:
    r = agent.ask(question, REF)
    assert r.language == lang and value in r.answer
    assert len(r.sources) == 1 and r.sources[0]["doc"] in r.answer
    assert r.sources[0]["locator"] in r.answer
    assert ("来源" in r.answer) == (lang == "zh")


@pytest.mark.parametrize("question", [
    "香港银保渠道2025年新单保费是多少？", "What was ACME Hong Kong's revenue in FY2030?",
    "ACME Mainland China ROE 2025H1", "What was Mainland China's ROE in FY2025?",
])
def test_a_miss_is_an_honest_refusal_without_numbers(agent: Agent, question: str) -> None:
    r = agent.ask(question, REF)
    assert [t["status"] for t in r.tool_results] == ["not_found"]
    # no fact is cited; the only sources are passages that mention what was looked for
    assert not [c for c in r.citations if c["kind"] == "fact"]
    assert r.sources == [] or any(s in r.answer for s in (
        "Passages in the sources below mention it", "下列来源中的段落提及该项"))
    body = r.answer.split("\nSources:")[0].split("\n来源：")[0]  # locators are no figures
    assert _digits_besides_periods(body) == [], r.answer


def test_missing_entity_and_period_are_assumed_and_stated(agent: Agent) -> None:
    r = agent.ask("营运利润是多少？", REF)
    assert r.clarification.mode == "answer_with_assumptions" and "1,105" in r.answer
    assert r.clarification.assumed_slots == {"entity": "ACME_GROUP", "period": "FY2025"}
    assert r.answer.startswith("（假设：主体为ACME Group，期间为FY2025（最近完整财年））")


def test_a_change_question_never_returns_a_level(agent: Agent) -> None:
    # one year: against the year before, stated; never the FY2025 level alone
    r = agent.ask("What was the percentage change in ACME Hong Kong revenue in FY2025?", REF)
    assert r.clarification.mode == "answer_with_assumptions"
    assert r.clarification.assumed_slots["periods"] == "FY2024,FY2025"
    assert "the comparison is FY2025 against FY2024" in r.answer
    assert "percentage change from FY2024 to FY2025: 6.44%" in r.answer
    assert [(f.operation, f.value) for f in r.figures] == [("percent_change", 6.44)]
    assert len(r.tool_results) == 2
    # no period: the latest two complete fiscal years, stated
    r = agent.ask("How did ACME Hong Kong revenue change?", REF)
    assert r.clarification.assumed_slots["periods"] == "FY2024,FY2025"
    # one half-year: against the previous half or the same half a year before? ask
    r = agent.ask("What was the change in ACME Hong Kong revenue in 2025H1?", REF)
    assert r.clarification.mode == "ask_first" and r.tool_results == []
    assert "two periods" in r.answer
    both = agent.ask("What was the change in ACME Hong Kong revenue between FY2024 and FY2025?",
                     REF)
    assert "change from FY2024 to FY2025: 85 US$ m" in both.answer
    assert [f.operation for f in both.figures] == ["difference"]


def test_several_metrics_without_a_list_ask_back(agent: Agent) -> None:
    r = agent.ask("What was revenue operating profit in FY2025?", REF)
    assert r.clarification.mode == "ask_first" and r.tool_results == []
    assert set(r.clarification.narrowing_options) == {"REVENUE", "OPERATING_PROFIT"}
    # "the percentage of B represented by A" names a share's two sides: computed
    r = agent.ask("What was the percentage of revenue represented by operating profit in FY2025?",
                  REF)
    assert [(f.operation, round(f.value, 2), f.unit) for f in r.figures] == [
        ("share", 23.21, "PCT")]
    assert "Derivation: 1,105 / 4,760 × 100 = 23.21%" in r.answer
