from __future__ import annotations

import pytest
import pytrec_eval

from ragspine_nb import DomainProfile
from ragspine_nb.retrieval import GlossaryQueryRewriter, evaluate_run, rrf_fuse
from ragspine_nb.retrieval.metrics import mrr, ndcg_at_k, recall_at_k


def test_rrf_hand_calculation_and_tie_break() -> None:
    fused = dict(rrf_fuse([["A", "B", "C"], ["A", "C", "B"]], k=60))
    assert fused["A"] == pytest.approx(2 / 61)
    assert fused["B"] == pytest.approx(1 / 62 + 1 / 63)
    assert fused["C"] == pytest.approx(1 / 63 + 1 / 62)
    assert [d for d, _ in rrf_fuse([["A", "B", "C"], ["A", "C", "B"]])] == ["A", "B", "C"]
    assert [d for d, _ in rrf_fuse([["z", "y"], ["y", "z"]])] == ["y", "z"]  # tie → id


def test_rrf_accepts_scored_lists_weights_and_dedupes() -> None:
    a = [("A", 9.0), ("B", 1.0)]
    before = list(a)
    fused = rrf_fuse([a, ["B", "B", "C"]], k=0, weights=[2.0, 1.0])
    # a repeated id counts once, at its first position; positions are not renumbered
    assert dict(fused) == pytest.approx({"A": 2.0, "B": 2 / 2 + 1.0, "C": 1 / 3})
    assert a == before
    with pytest.raises(ValueError, match="weights"):
        rrf_fuse([["A"]], weights=[1.0, 2.0])
    with pytest.raises(ValueError, match=">= 0"):
        rrf_fuse([["A"]], k=-1)
    assert rrf_fuse([]) == []


def test_rewriter_variants(profile: DomainProfile) -> None:
    r = GlossaryQueryRewriter(profile, max_queries=5)
    variants = r.rewrite("why did mainland china revenue fall")
    assert variants[0] == "why did mainland china revenue fall"
    assert variants[1] == "why did ACME_CN REVENUE fall"
    assert len(variants) == 5 and len(set(v.casefold() for v in variants)) == 5
    zh = r.rewrite("为什么内地营收下滑")
    assert zh[0] == "为什么内地营收下滑" and zh[1] == "为什么 ACME_CN REVENUE 下滑"
    assert any("营业收入" in v or "Revenue" in v for v in zh)


def test_rewriter_word_boundaries_cap_and_competitors(profile: DomainProfile) -> None:
    r = GlossaryQueryRewriter(profile, max_queries=3)
    assert r.rewrite("a going concern about chinatown") == ["a going concern about chinatown"]
    assert len(r.rewrite("hong kong revenue")) == 3
    every = " ".join(v for q in ("竞安证券的营收", "Rivalis revenue", "Jingan Securities ROE")
                     for v in GlossaryQueryRewriter(profile, 50).rewrite(q))
    # competitor names are never substituted in or out: they only appear where the user put them
    n_variants = len(GlossaryQueryRewriter(profile, 50).rewrite("竞安证券的营收"))
    assert every.count("竞安证券") == n_variants
    with pytest.raises(ValueError):
        GlossaryQueryRewriter(profile, max_queries=0)


def test_competitor_alias_that_is_also_a_synonym_is_never_used() -> None:
    p = DomainProfile.from_dict({
        "home": {"company_name": "ACME", "entity_code": "ACME", "synonyms": ["jingan", "acme co"]},
        "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue", "营收"]}},
        "competitors": {"Jingan": "Jingan Securities"},
    })
    variants = GlossaryQueryRewriter(p, max_queries=10).rewrite("ACME revenue")
    assert variants[0] == "ACME revenue" and len(variants) > 1
    assert all("jingan" not in v.casefold() for v in variants)
    assert GlossaryQueryRewriter(p).rewrite("jingan news") == ["jingan news"]


def test_metrics_match_pytrec_eval() -> None:
    qrels = {"q1": {"d1": 1, "d3": 2}, "q2": {"d9": 1}, "q3": {"d2": 1, "d4": 1, "d5": 0}}
    run = {"q1": ["d2", "d3", "d1", "d7"], "q2": ["d1", "d2"], "q3": ["d4", "d5", "d2"]}
    ours = evaluate_run(run, qrels, k_ndcg=10, k_recall=100)
    trec_run = {q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in run.items()}
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100", "recip_rank"})
    theirs = ev.evaluate(trec_run)
    for q in qrels:
        assert ours.per_query[q]["ndcg"] == pytest.approx(theirs[q]["ndcg_cut_10"], abs=1e-9)
        assert ours.per_query[q]["recall"] == pytest.approx(theirs[q]["recall_100"], abs=1e-9)
        assert ours.per_query[q]["mrr"] == pytest.approx(theirs[q]["recip_rank"], abs=1e-9)
    assert ndcg_at_k([], {"a": 1}) == 0.0 and recall_at_k(["a"], {}) == 0.0
    assert mrr(["x", "a"], {"a": 1}) == 0.5 and mrr(["x", "a"], {"a": 1}, k=1) == 0.0
