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
    assert "1,405 USD_M" in w.answer.value
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
    assert "1,405 USD_M" in w.answer.value and w.question.value == ""
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
