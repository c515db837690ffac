"""QuerySetScorer (live k1/b retune): compiled and numpy paths against a plain reference.

The reference sums each query's terms in ascending term-id order in float32 (what the
scorer has always computed), ranks every document by (score desc, index position) and
scores the top 100 with ``evaluate_run``: metrics must agree to 1e-9 on both paths.
"""

from __future__ import annotations

import numpy as np
import pytest

from ragspine_nb.retrieval import BM25Index, evaluate_run
from ragspine_nb.retrieval import tuning_kernels as tk
from ragspine_nb.retrieval.compiled import HAVE_NUMBA
from ragspine_nb.retrieval.tuning import QuerySetScorer, TuningEngine

GRID = [(1.5, 0.75), (0.0, 0.0), (0.4, 1.0), (2.7, 0.3), (1.2, 0.5)]
PATHS = [pytest.param("0", id="compiled", marks=pytest.mark.skipif(
    not HAVE_NUMBA, reason="numba not installed")), pytest.param("1", id="numpy")]


@pytest.fixture(scope="module")
def corpus() -> tuple[BM25Index, dict[str, str], dict[str, dict[str, int]]]:
    """3,000 Zipf-worded documents (some duplicated: exact ties), 400 queries, messy qrels.

    Most queries are drawn from a judged source document, so judged documents rank
    high, and a source's duplicate (an exact tie, ordered by position) is judged too.
    """
    rng = np.random.default_rng(19)
    words = np.array([f"w{i}" for i in range(4000)])
    p = 1.0 / np.arange(1, words.size + 1)
    p /= p.sum()
    docs = [rng.choice(words, size=int(rng.integers(5, 160)), p=p) for _ in range(3000)]
    twin = {}
    for i in range(0, 3000, 23):  # duplicates far apart: equal scores, ties by position
        j = (i * 7919 + 11) % 3000
        if j != i and i not in twin and j not in twin:
            docs[j], twin[i], twin[j] = docs[i], j, i
    ids = [f"d{i}" for i in range(3000)]
    idx = BM25Index.build(ids, [" ".join(d) for d in docs])
    queries: dict[str, str] = {}
    qrels: dict[str, dict[str, int]] = {}
    for n in range(400):
        src = int(rng.choice(list(twin))) if n % 3 == 0 else int(rng.integers(3000))
        toks = list(rng.choice(docs[src], size=int(rng.integers(1, 12))))
        toks += list(rng.choice(words, size=int(rng.integers(0, 4)), p=p))
        queries[f"q{n}"] = " ".join(toks)
        if n % 9 == 4:
            continue  # a query nobody judged
        judged = {ids[src]: int(rng.integers(1, 3)), ids[int(rng.integers(3000))]: 0}
        judged[ids[int(rng.integers(3000))]] = int(rng.integers(1, 3))
        if src in twin:
            judged[ids[twin[src]]] = 1
        if n % 11 == 0:
            judged["not-in-index"] = 2
        qrels[f"q{n}"] = judged
    queries["q_empty"] = "nothing-known here"
    queries["q_repeat"] = "w3 w3 w3 w900"
    qrels["q_empty"] = {"d1": 1}
    qrels["not-a-query"] = {"d2": 1}
    return idx, queries, qrels


def _reference_scores(idx: BM25Index, queries: dict[str, str], k1: float,
                      b: float) -> np.ndarray:
    """Queries × docs float32 scores, one vector add per (query, term) in term-id order."""
    q = idx.query_matrix(list(queries.values())).tocoo().tocsr()  # canonical
    q.sort_indices()
    w = idx.weights(k1, b)
    out = np.zeros((len(queries), idx.n_docs), np.float32)
    for i in range(q.shape[0]):
        for t, c in zip(q.indices[q.indptr[i]:q.indptr[i + 1]],
                        q.data[q.indptr[i]:q.indptr[i + 1]], strict=True):
            lo, hi = w.indptr[t], w.indptr[t + 1]
            out[i, w.indices[lo:hi]] += np.float32(c) * w.data[lo:hi]
    return out


def _reference_runs(idx: BM25Index, queries: dict[str, str], scores: np.ndarray,
                    depth: int = 100) -> dict[str, list[str]]:
    runs = {}
    pos = np.arange(idx.n_docs)
    for qid, row in zip(queries, scores, strict=True):
        order = np.lexsort((pos, -row))[:depth]
        runs[qid] = [idx.doc_ids[d] for d in order if row[d] > 0]
    return runs


@pytest.mark.parametrize("no_numba", PATHS)
def test_metrics_equal_the_reference_ranking(corpus, no_numba, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RAGSPINE_NO_NUMBA", no_numba)
    idx, queries, qrels = corpus
    scorer = QuerySetScorer(idx, queries, qrels)
    judged = {q: r for q, r in qrels.items() if q in queries}  # the scorer's denominator
    for k1, b in GRID:
        ref_scores = _reference_scores(idx, queries, k1, b)
        assert np.array_equal(scorer.dense_scores(k1, b), ref_scores)  # the same bits
        ref = evaluate_run(_reference_runs(idx, queries, ref_scores), judged)
        fast = scorer.evaluate(k1, b)
        assert fast.ndcg == pytest.approx(ref.ndcg, abs=1e-9)
        assert fast.recall == pytest.approx(ref.recall, abs=1e-9)
        assert fast.mrr == pytest.approx(ref.mrr, abs=1e-9)
        assert 0.2 < fast.ndcg < 1 and 0.2 < fast.mrr < 1
        for q in queries:
            want = ref.per_query.get(q, {"ndcg": 0.0, "recall": 0.0, "mrr": 0.0})
            assert fast.per_query[q] == pytest.approx(want, abs=1e-12)


def test_compiled_and_numpy_paths_agree_bit_for_bit(corpus, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    if not HAVE_NUMBA:
        pytest.skip("numba not installed")
    idx, queries, qrels = corpus
    scorer = QuerySetScorer(idx, queries, qrels)
    for k1, b in GRID[:3]:
        monkeypatch.setenv("RAGSPINE_NO_NUMBA", "0")
        dense, ranks, res = scorer.dense_scores(k1, b).copy(), scorer.judged_ranks(k1, b), \
            scorer.evaluate(k1, b, k_ndcg=5, k_recall=20)
        monkeypatch.setenv("RAGSPINE_NO_NUMBA", "1")
        assert np.array_equal(scorer.dense_scores(k1, b), dense)
        assert np.array_equal(scorer.judged_ranks(k1, b), ranks)
        assert np.array_equal(scorer.ranks_of_judged(dense), ranks)
        assert scorer.evaluate(k1, b, k_ndcg=5, k_recall=20) == res


@pytest.mark.parametrize("no_numba", PATHS)
def test_small_row_blocks_change_nothing(corpus, no_numba, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RAGSPINE_NO_NUMBA", no_numba)
    idx, queries, qrels = corpus
    scorer = QuerySetScorer(idx, queries, qrels)
    whole, res = scorer.dense_scores(0.9, 0.4).copy(), scorer.evaluate(0.9, 0.4)
    monkeypatch.setattr(tk, "BLOCK_CELLS", idx.n_docs * 7 + 5)  # 7 rows a block
    small = QuerySetScorer(idx, queries, qrels)
    assert np.array_equal(small.dense_scores(0.9, 0.4), whole)
    assert small.evaluate(0.9, 0.4) == res
    seen = 0
    for r0, block in small.score_blocks(0.9, 0.4):
        assert r0 == seen and block.shape[0] <= 7
        assert np.array_equal(block, whole[r0:r0 + block.shape[0]])
        seen += block.shape[0]
    assert seen == len(queries)


@pytest.mark.parametrize("no_numba", PATHS)
def test_engine_runs_equal_the_reference(corpus, no_numba, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RAGSPINE_NO_NUMBA", no_numba)
    monkeypatch.setattr(tk, "BLOCK_CELLS", 3000 * 50)
    idx, queries, qrels = corpus
    engine = TuningEngine(idx, queries, qrels)
    ref = _reference_runs(idx, queries, _reference_scores(idx, queries, 1.1, 0.6))
    assert engine._bm25_runs(1.1, 0.6) == ref
    judged = {q: r for q, r in qrels.items() if q in queries}
    deep = engine.evaluate(1.1, 0.6, top_k=150)  # deeper than the scorer: ranked runs
    assert deep.ndcg == pytest.approx(evaluate_run(ref, judged, k_recall=150).ndcg, abs=1e-12)


def test_scorer_without_qrels_scores_but_does_not_evaluate(corpus) -> None:  # type: ignore[no-untyped-def]
    idx, queries, _ = corpus
    scorer = QuerySetScorer(idx, queries)
    assert scorer.dense_scores().shape == (len(queries), idx.n_docs)
    assert "postings_touched=" in repr(scorer)
    with pytest.raises(ValueError, match="without qrels"):
        scorer.evaluate()
