"""Widget logic, headless: clicks and slider moves drive the real core calls."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pytest

from ragspine_nb import Agent, DomainProfile, FactStore, NarrativeIndex
from ragspine_nb.retrieval import BM25Index
from ragspine_nb.retrieval.tuning import TuningEngine
from ragspine_nb.retrieval.vectors import DeterministicEmbeddingBackend
from ragspine_nb.stores.conversations import ConversationStore
from ragspine_nb.widgets import AskWidget, ChatWidget, RerankInspector

REF = date(2026, 3, 31)


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    profile = DomainProfile.from_file(demo_ws / "profile.toml")
    return Agent(FactStore(demo_ws / "facts.db", create=False),
                 NarrativeIndex(demo_ws / "chunks.db", profile=profile), profile=profile)


def test_ask_widget_click_shows_answer_and_source(agent: Agent) -> None:
    w = agent.widget(reference_date=REF)
    assert isinstance(w, AskWidget)
    w.question.value = "What was ACME Hong Kong's revenue in FY2025?"
    w.button.click()
    assert "1,405 US$ m" in w.answer.value
    assert "ACME_FY2025_Results.pptx · slide=3,table=1,row=REVENUE,col=FY2025" in w.answer.value
    assert "route: structured" in w.answer.value and "request_id" in w.trace.value


def test_ask_widget_narrowing_options_re_ask(agent: Agent) -> None:
    w = AskWidget(agent, REF)
    w.ask("How much was it in FY2025 for ACME Hong Kong?")
    assert w.last_result.clarification.mode == "ask_first"
    labels = [b.description for b in w.options.children]
    assert labels == ["REVENUE", "NEW_SALES", "OPERATING_PROFIT", "ROE"]
    w.options.children[0].click()  # re-ask with REVENUE
    assert w.last_result.clarification.mode == "none" and "1,405" in w.answer.value
    w.ask("竞安2025年的营收是多少？")
    assert "外部机构" in w.answer.value and "clarification: out_of_scope_entity" in w.answer.value
    w.question.value = "  "
    assert w.ask() is None and "Type a question" in w.answer.value


def test_chat_widget_keeps_a_transcript_and_starts_new_conversations(agent: Agent,
                                                                     tmp_path: Path) -> None:
    chat = agent.chat(tmp_path / "conv.db", conversation_id="nb-chat")
    w = chat.widget(reference_date=REF)
    assert isinstance(w, ChatWidget) and "No messages yet" in w.transcript.value
    w.question.value = "What was ACME Hong Kong's revenue in FY2025?"
    w.button.click()
    # the answer is shown once: in the transcript; the line below the box gives its route
    assert "1,405 US$ m" in w.transcript.value and w.question.value == ""
    assert "1,405" not in w.answer.value and "route: structured" in w.answer.value
    assert "<b>You</b>" in w.transcript.value and "<b>Agent</b>" in w.transcript.value
    assert "slide=3,table=1,row=REVENUE,col=FY2025" in w.transcript.value
    w.ask("Why did Hong Kong agency sales change?")
    assert "4 messages" in w.header.value and "nb-chat" in w.header.value
    w.new_button.click()
    assert w.conversation.conversation_id != "nb-chat" and "0 messages" in w.header.value
    assert len(ConversationStore(tmp_path / "conv.db").messages("nb-chat")) == 4
    w.ask("<script>alert(1)</script>")
    assert "<script>" not in w.transcript.value and "&lt;script&gt;" in w.transcript.value


def test_rerank_inspector_redacts_and_keeps_restricted_out_of_the_prompt() -> None:
    index = NarrativeIndex()
    index.add_document("open.md", "bank commissions were capped so bancassurance fell")
    index.add_document("board.md", "CANARY-77 bancassurance board plan", sensitivity=" Restricted ")

    class Judge:
        name = "reverse"

        def judge(self, query: str, candidates: list[str]) -> list[int]:
            return list(reversed(range(len(candidates))))

    index.judge = Judge()
    ins = index.inspect("bancassurance", top_k=5)
    assert isinstance(ins, RerankInspector) and ins.results is not None
    html = ins.left.value + ins.right.value + ins.prompt.value + ins.status.value
    assert "CANARY" not in html and "RESTRICTED — text withheld" in html
    assert "judge prompt preview" in ins.prompt.value and "bank commissions" in ins.prompt.value
    ins.query.value = "Why did MPFA bank commissions change?"
    ins.button.click()
    assert ins.results.query == "Why did MPFA bank commissions change?"
    # the query plan is shown: every variant with its kind, and the search used them all
    assert ins.plan is not None and ins.plan.kinds[:3] == ["original", "identifier", "keyword"]
    assert list(ins.results.variants) == ins.plan.texts
    assert "<td>identifier</td><td>MPFA bank commissions change MPFA</td>" in ins.plan_view.value
    assert "Query plan (" in ins.plan_view.value
    single = RerankInspector(index, "commissions", planner=False)
    assert single.plan is None and single.plan_view.value == ""


def _engine() -> TuningEngine:
    rng = np.random.default_rng(0)
    words = [f"t{i}" for i in range(80)]
    texts = [" ".join(rng.choice(words, size=int(rng.integers(5, 40)))) for _ in range(300)]
    ids = [f"d{i}" for i in range(300)]
    queries = {f"q{i}": " ".join(rng.choice(words, size=3)) for i in range(30)}
    qrels = {q: {ids[int(rng.integers(300))]: 1} for q in queries}
    vec = {q: list(rng.permutation(ids)[:100]) for q in queries}
    return TuningEngine(BM25Index.build(ids, texts), queries, qrels, vec)


def test_tuning_panel_sliders_update_metrics_live() -> None:
    from ragspine_nb.widgets import TuningPanel

    panel = TuningPanel(_engine())
    start = panel.current
    assert "nDCG@10" in panel.metrics.value and "queries · updated in" in panel.metrics.value
    panel.k1.value = 0.3
    panel.b.value = 0.1
    assert panel.current.ndcg != start.ndcg or panel.current.mrr != start.mrr
    for channel in ("vectors", "hybrid", "bm25"):
        panel.channel.value = channel
        assert 0.0 <= panel.current.ndcg <= 1.0
    panel.top_k.value = 20
    assert panel.current.k_recall == 20 and "Recall@20" in panel.metrics.value
    assert "winners" in panel.table.value and "losers" in panel.table.value


def test_engine_matches_the_full_pipeline_and_validates() -> None:
    from ragspine_nb.retrieval import evaluate_run, rrf_fuse

    eng = _engine()
    fast = eng.evaluate(1.2, 0.6, channel="bm25")
    runs = {q: [d for d, _ in r] for q, r in zip(
        eng.queries, eng.bm25.search_many(list(eng.queries.values()), 100, 1.2, 0.6),
        strict=True)}
    assert fast.ndcg == pytest.approx(evaluate_run(runs, eng.qrels).ndcg, abs=1e-12)
    hybrid = eng.evaluate(1.2, 0.6, rrf_k=30, channel="hybrid")
    fused = {q: [d for d, _ in rrf_fuse([runs[q], eng.vector_runs[q]], k=30)][:100]  # type: ignore[index]
             for q in eng.queries}
    assert hybrid.ndcg == pytest.approx(evaluate_run(fused, eng.qrels).ndcg, abs=1e-12)
    with pytest.raises(ValueError, match="choose from"):
        TuningEngine(eng.bm25, eng.queries, eng.qrels).evaluate(channel="hybrid")


def test_index_tune_builds_vector_runs_from_the_backend() -> None:
    index = NarrativeIndex(embedding_backend=DeterministicEmbeddingBackend(32))
    index.add_texts(["a", "b", "c"], ["revenue fell", "agency grew", "board met"])
    panel = index.tune({"q1": "revenue"}, {"q1": {"a": 1}})
    assert panel.engine.channels() == ("bm25", "vectors", "hybrid")
    assert panel.current.ndcg == 1.0


class _Recording:
    """An agent wrapper that records what the widget showed while it was answering."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.seen: list[tuple[bool, str, str]] = []
        self.widget: AskWidget | None = None

    def ask(self, question: str, **kw: object) -> object:
        w = self.widget
        assert w is not None
        self.seen.append((w.button.disabled, w.button.description, w.answer.value))
        assert w.ask("a second Enter while busy") is None  # ignored, not queued
        return self.agent.ask(question, **kw)  # type: ignore[arg-type]


def test_ask_widget_enter_submits_with_a_busy_state_and_a_trace_table(agent: Agent) -> None:
    rec = _Recording(agent)
    w = AskWidget(rec, REF)
    rec.widget = w
    w.question.value = "What was ACME Hong Kong's revenue in FY2025?"
    w.question._handle_custom_msg({"event": "submit"}, [])  # what Enter sends from the page
    assert rec.seen == [(True, "Answering…", rec.seen[0][2])] and "Answering…" in rec.seen[0][2]
    assert not w.button.disabled and w.button.description == "Ask"
    assert "1,405" in w.answer.value and w.last_result.question.startswith("What was ACME")
    # the trace: collapsed, a two-column table through the renderer, not a JSON dump
    assert "<details><summary>trace</summary>" in w.trace.value
    assert "<th>field</th><th>value</th>" in w.trace.value
    assert "<td>route</td><td>structured</td>" in w.trace.value
    assert '"request_id"' not in w.trace.value
    w.question._handle_custom_msg({"event": "focus"}, [])  # other messages do nothing
    assert len(rec.seen) == 1


def test_chat_widget_follows_turns_asked_from_code_and_shows_each_answer_once(
        agent: Agent, tmp_path: Path) -> None:
    chat = agent.chat(tmp_path / "conv.db", conversation_id="from-code")
    w = chat.widget(reference_date=REF)
    r = chat.ask("What was ACME Hong Kong's revenue in FY2025?", REF)
    assert "2 messages" in w.header.value and w.last_result is r
    shown = w.header.value + w.transcript.value + w.answer.value
    assert shown.count("1,405") == 1 and "route: structured" in w.answer.value
    assert "request_id" in w.trace.value
    w.ask("Why did Hong Kong agency sales change?")
    assert "4 messages" in w.header.value
    assert w.transcript.value.count("<b>You</b>") == 2
    w.new_conversation()
    chat.ask("What was ACME Hong Kong's revenue in FY2024?", REF)  # the conversation it left
    assert "0 messages" in w.header.value and "No messages yet" in w.transcript.value
    w.conversation.ask("What was ACME Hong Kong's revenue in FY2025?", REF)
    assert "2 messages" in w.header.value


def test_rerank_inspector_tables_span_the_width_with_the_text_column_wrapping() -> None:
    index = NarrativeIndex()
    index.add_document("a.md", "保险代理渠道的新业务价值在二零二五年上升了很多 " * 4)
    index.add_document("b.md", "agency new business value rose in 2025 " * 6)
    ins = index.inspect("新业务价值 agency", top_k=5)
    for table in (ins.left.value, ins.right.value):
        assert "table-layout:fixed;width:100%" in table and "overflow-wrap:anywhere" in table
        # no embedding backend and no judge: those empty columns are left out
        assert "<th>text</th>" in table and "<th>vector</th>" not in table
        assert "<th>judge</th>" not in table
    assert "RRF order" in ins.left.value and "no judge configured" in ins.right.value
    assert "rerank" in ins.status.value and "<i>" in ins.status.value
    ins.query.value = "agency"
    ins.query._handle_custom_msg({"event": "submit"}, [])  # Enter runs the new query
    assert ins.results is not None and ins.results.query == "agency"


def test_tuning_panel_slider_steps_rrf_k_only_with_hybrid_and_labelled_movers() -> None:
    from ragspine_nb.widgets import TuningPanel
    from ragspine_nb.widgets.tuning_panel import shorten

    eng = _engine()
    panel = TuningPanel(TuningEngine(eng.bm25, eng.queries, eng.qrels))  # no vector runs
    assert panel.engine.channels() == ("bm25",) and panel.rrf_k.layout.display == "none"
    assert panel.channel.layout.display == "none"  # one channel: named in the metrics card
    assert panel.k1.step == 0.05 and panel.k1.readout and panel.k1.layout.width == "460px"
    panel.k1.value = 0.4
    assert "<th>Δ nDCG@10</th><th>query id</th><th>query</th>" in panel.table.value
    index = NarrativeIndex(embedding_backend=DeterministicEmbeddingBackend(32))
    index.add_texts(["a", "b"], ["revenue fell", "agency grew"])
    hybrid = index.tune({"q1": "revenue"}, {"q1": {"a": 1}})
    assert hybrid.rrf_k.layout.display != "none" and hybrid.rrf_k.disabled
    hybrid.channel.value = "hybrid"
    assert not hybrid.rrf_k.disabled
    long = "which agency channel metrics improved after the regulator capped commissions " * 3
    short = shorten(long)
    assert short.endswith(" …") and long.startswith(short[:-1]) and len(short) <= 121
    assert shorten("新业务价值" * 40, 50) == "新业务价值" * 10 + "…"


def test_index_tune_rejects_document_ids_in_qrels_and_says_what_it_expects() -> None:
    from ragspine_nb.errors import QrelsError

    index = NarrativeIndex()
    index.add_document("ACME_FY2025_Results.md", "revenue fell in Hong Kong\n\nagency grew")
    chunk_id = index.to_frame()["chunk_id"].iloc[0]
    with pytest.raises(QrelsError) as err:
        index.tune({"q1": "revenue"}, {"q1": {"ACME_FY2025_Results.md": 1}})
    message = str(err.value)
    assert "keyed by chunk id" in message and "'ACME_FY2025_Results.md' (a document id" in message
    assert repr(chunk_id) in message and "iter_chunks(doc_id=doc)" in message
    assert isinstance(err.value, ValueError)
    with pytest.raises(QrelsError, match="no qrels query id is a query id"):
        index.tune({"q1": "revenue"}, {"query-1": {chunk_id: 1}})
    assert index.tune({"q1": "revenue"}, {"q1": {chunk_id: 1}}).current.ndcg == 1.0
