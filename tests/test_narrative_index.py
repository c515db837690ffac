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
    assert passages and all(t.startswith(("Hong Kong", "The agency")) for t in passages)
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
