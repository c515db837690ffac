"""The retrieval lab: judgments, ir_measures-named metrics, significance, auto-tune, explain.

Metrics are checked against ``ir_measures`` on SciFact (300 test queries, 5,183
abstracts) to 1e-6; significance against scipy; judgments round-trip through a real
TREC qrels file that ``ir_measures`` reads.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from ragspine_nb import NarrativeIndex
from ragspine_nb.core import Chunk
from ragspine_nb.extract.beir import data_root
from ragspine_nb.retrieval.autotune import auto_tune, cross_validate, default_grid, fold_ids
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.explain import explain_bm25
from ragspine_nb.retrieval.judgments import Judgments, NoJudgmentsError, check_judged
from ragspine_nb.retrieval.lab import LabSetting, compare_settings, per_query, setting_runs
from ragspine_nb.retrieval.measures import parse_measure, score_run
from ragspine_nb.retrieval.significance import holm, paired_t_test, randomisation_test
from ragspine_nb.retrieval.synthetic_queries import leaks, synthetic_queries
from ragspine_nb.retrieval.tuning import TuningEngine

SCIFACT = data_root() / "scifact"
MEASURES = ["nDCG@10", "R@100", "RR", "P@10", "P@5", "AP", "nDCG@100", "R@10"]
needs_scifact = pytest.mark.skipif(not (SCIFACT / "corpus.jsonl").exists(),
                                   reason=f"SciFact not found at {SCIFACT}")


@pytest.fixture(scope="module")
def scifact() -> TuningEngine:
    from ragspine_nb.extract.beir import load_beir

    ds = load_beir(SCIFACT)
    ids, texts = ds.doc_texts()
    bm = BM25Index.build(ids, texts)
    queries = {q: ds.queries[q] for q in ds.qrels}
    # a stand-in dense run (fixed, deterministic): BM25 at other parameters, reversed halves
    other = {q: [d for d, _ in r] for q, r in zip(
        queries, bm.search_many(list(queries.values()), 100, k1=0.9, b=0.4), strict=True)}
    dense = {q: r[50:] + r[:50] for q, r in other.items()}
    return TuningEngine(bm, queries, ds.qrels, vector_runs=dense)


def _ir_measures(run: dict[str, list[str]], qrels: dict[str, dict[str, int]],
                 names: list[str]) -> dict[str, float]:
    ir_measures = pytest.importorskip("ir_measures")
    qr = [ir_measures.Qrel(q, d, r) for q, j in qrels.items() for d, r in j.items()]
    rn = [ir_measures.ScoredDoc(q, d, float(len(r) - i)) for q, r in run.items()
          for i, d in enumerate(r)]
    agg = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names], qr, rn)
    return {str(k): v for k, v in agg.items()}


@needs_scifact
@pytest.mark.parametrize("setting", [LabSetting(), LabSetting(k1=0.9, b=0.4, top_k=50),
                                     LabSetting(channel="hybrid", rrf_k=30, w_dense=0.5)],
                         ids=["bm25", "bm25-cut50", "hybrid-weighted"])
def test_measures_equal_ir_measures_on_scifact(scifact: TuningEngine, setting: LabSetting
                                               ) -> None:
    runs = setting_runs(scifact, setting)
    ref = _ir_measures(runs, scifact.qrels, MEASURES)
    fast = per_query(scifact, setting, MEASURES)  # the lab's path (ranks of judged docs)
    lists = score_run(runs, scifact.qrels, MEASURES)  # the ranked-list path
    assert len(fast["nDCG@10"]) == 300
    for name in MEASURES:
        assert float(fast[name].mean()) == pytest.approx(ref[name], abs=1e-6), name
        assert np.mean([v[name] for v in lists.values()]) == pytest.approx(ref[name], abs=1e-6)


def test_measure_names_are_ir_measures_names() -> None:
    assert parse_measure("nDCG@10").name == "nDCG@10" and parse_measure("RR").cutoff is None
    for bad in ("ndcg@10", "R", "P@0", "MRR"):
        with pytest.raises(ValueError, match="nDCG@k, R@k, P@k"):
            parse_measure(bad)


def test_significance_agrees_with_scipy() -> None:
    from scipy import stats

    rng = np.random.default_rng(3)
    a = rng.random(40)
    b = a + rng.normal(0.05, 0.1, 40)
    assert paired_t_test(a, b) == pytest.approx(stats.ttest_rel(a, b).pvalue, abs=1e-12)
    small_a, small_b = a[:11], b[:11]  # exact: every sign pattern, as scipy enumerates them

    def mean_diff(x: np.ndarray, y: np.ndarray, axis: int) -> np.ndarray:
        return np.mean(x - y, axis=axis)

    ref = stats.permutation_test((small_a, small_b), mean_diff, permutation_type="samples",
                                 vectorized=True, n_resamples=10**6).pvalue
    assert randomisation_test(small_a, small_b) == pytest.approx(ref, abs=1e-12)
    big = stats.permutation_test((a, b), mean_diff, permutation_type="samples",
                                 vectorized=True, n_resamples=20_000,
                                 rng=np.random.default_rng(1)).pvalue
    assert randomisation_test(a, b, n_resamples=20_000) == pytest.approx(big, abs=0.01)
    assert randomisation_test(a, a) == 1.0 and paired_t_test(a, a) == 1.0
    assert holm([0.01, 0.04, 0.03, 0.5]) == [0.04, 0.09, 0.09, 0.5]


@needs_scifact
def test_compare_settings_counts_wins_and_holm_corrects(scifact: TuningEngine) -> None:
    now, base = LabSetting(k1=0.9, b=0.4), LabSetting()
    comps = compare_settings(scifact, now, base, ["nDCG@10", "RR"])
    a, b = per_query(scifact, now, ["nDCG@10"])["nDCG@10"], per_query(scifact, base,
                                                                      ["nDCG@10"])["nDCG@10"]
    c = comps[0]
    assert (c.wins, c.losses, c.ties) == (int((a > b).sum()), int((a < b).sum()),
                                         int((a == b).sum()))
    assert [c.p_t_holm, comps[1].p_t_holm] == holm([c.p_t, comps[1].p_t])
    assert c.p_t_holm >= c.p_t and comps[1].p_randomisation_holm >= comps[1].p_randomisation


def test_the_judgments_file_is_never_missing_while_a_version_is_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The previous file was moved aside before the new one was written: a reader (the
    inspector's follower, another notebook) polling the file could find none — the
    browser test reading it after each click failed once with FileNotFoundError. The
    previous version is kept as a copy now; the file exists at every write."""
    import ragspine_nb.retrieval.judgments as judgments

    path = tmp_path / "ws" / "judgments" / "qrels.trec"
    j = Judgments(path)
    j.mark("q1", "a.md#0-1", "relevant", query="why did revenue fall")
    seen: list[bool] = []
    real = judgments.os.replace

    def watched(src: str | Path, dst: str | Path) -> None:
        seen.append(path.exists())
        real(src, dst)

    monkeypatch.setattr(judgments.os, "replace", watched)
    j.mark("q1", "a.md#1-2", "partly")
    assert seen and all(seen)
    assert path.read_text().splitlines() == ["q1 0 a.md#0-1 2", "q1 0 a.md#1-2 1"]
    assert (path.parent / "qrels.v0001.trec").read_text().splitlines() == ["q1 0 a.md#0-1 2"]


def test_judgments_save_load_versions_and_trec_format(tmp_path: Path) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    path = tmp_path / "ws" / "judgments" / "qrels.trec"
    j = Judgments(path)
    j.mark("q1", "a.md#0-1", "relevant", query="why did revenue fall")
    j.mark("q1", "a.md#1-2", "partly")
    j.mark("q2", "b.md#0-1", "not", query="board")
    assert j.version == 3 and path.read_text().splitlines() == [
        "q1 0 a.md#0-1 2", "q1 0 a.md#1-2 1", "q2 0 b.md#0-1 0"]
    assert (tmp_path / "ws" / "judgments" / "qrels.v0002.trec").exists()  # previous kept
    read = {(q.query_id, q.doc_id): q.relevance for q in ir_measures.read_trec_qrels(str(path))}
    assert read[("q1", "a.md#1-2")] == 1
    back = Judgments.load(path)
    assert dict(back) == dict(j) and back.queries["q1"] == "why did revenue fall"
    assert back.version == 3
    frame = back.to_frame()
    assert list(frame["grade"]) == ["relevant", "partly", "not"]
    assert "Judgments" in back._repr_html_() and "3 judgments" not in repr(back)
    with pytest.raises(ValueError, match="relevant"):
        j.mark("q1", "x", "maybe")
    bad = tmp_path / "bad.trec"
    bad.write_text("q1 a.md\n")
    with pytest.raises(Exception, match="TREC qrels"):
        Judgments.load(bad)


def test_page_and_document_judgments_expand_to_their_chunks() -> None:
    chunks = [Chunk(doc_id="3M.pdf", chunk_id=f"3M.pdf#{i}", seq=i, text=f"text {i}",
                    source_locator=loc)
              for i, loc in enumerate(["page=59,para=1-3", "page=60,para=1-2",
                                       "page=60,table=1,row=CAPEX,col=FY2018", "page=61,para=4"])]
    j = Judgments()
    exp = j.add_pages("fb1", [("3M.pdf", 60), ("3M.pdf", 99)], chunks, query="3M capex")
    assert [(e.source, e.chunks) for e in exp] == [("page:3M.pdf#60", ("3M.pdf#1", "3M.pdf#2"))]
    assert j["fb1"] == {"3M.pdf#1": 2, "3M.pdf#2": 2} and j.source("fb1", "3M.pdf#2") == \
        "page:3M.pdf#60"
    j.add_documents("fb2", ["3M.pdf"], chunks)
    assert len(j["fb2"]) == 4 and set(j["fb2"].values()) == {1}
    assert set(j.to_frame()["source"]) == {"page:3M.pdf#60", "document:3M.pdf"}


def test_empty_or_unmatched_judgments_raise_a_named_error() -> None:
    index = NarrativeIndex()
    index.add_texts(["a", "b"], ["revenue fell in Asia", "the board met twice"])
    with pytest.raises(NoJudgmentsError, match="qrels are empty"):
        index.tune({"q1": "revenue"}, {})
    with pytest.raises(NoJudgmentsError, match="every judgment is 'not relevant'"):
        index.tune({"q1": "revenue"}, {"q1": {"a": 0}})
    with pytest.raises(NoJudgmentsError, match="no judged query id is a query id"):
        check_judged({"q1": "x"}, {"q9": {"a": 1}}, lambda d: True)
    j = Judgments()
    j.mark("q1", "a", 2, query="revenue")
    assert index.tune(j).current.ndcg == 1.0  # a Judgments brings its queries


def test_synthetic_queries_are_flagged_deduplicated_and_do_not_leak() -> None:
    text = ("Revenue decreased in fiscal 2023, primarily driven by comparable sales declines "
            "in computing and home theater. Gross margin rate decreased due to lower product "
            "margin rates and higher promotional activity across categories.")
    chunks = [Chunk(doc_id="bb.pdf", chunk_id=f"bb#{i}", seq=i, text=text if i < 2 else
                    f"In {2000 + i} the store count was {i} and it opened new locations.",
                    source_locator=f"page={i}")
              for i in range(6)]
    chunks.append(Chunk(doc_id="board.md", chunk_id="board#0", seq=0, sensitivity="RESTRICTED",
                        text="The board discussed a confidential acquisition target in "
                             "detail during the closed session.", source_locator="para=1"))
    j = synthetic_queries(chunks, n=50)
    # bb#0/bb#1 (same text) give two sentences; the four store chunks one word set (numbers
    # are dropped): deduplicated to one query
    assert len(j) == 3 and j.synthetic == set(j) and all(q.startswith("syn-") for q in j)
    assert all(j.source(q, d) == "synthetic" for q in j for d in j[q])
    assert not any("board#0" in j[q] for q in j)  # RESTRICTED never becomes a query
    for q in j:
        source_text = text if any(d in ("bb#0", "bb#1") for d in j[q]) else ""
        assert not source_text or not leaks(j.queries[q], source_text, 4)
    word_sets = [frozenset(t.split()) for t in j.queries.values()]
    assert len(word_sets) == len(set(word_sets))  # deduplicated
    repeated = [q for q in j if "bb#0" in j[q] or "bb#1" in j[q]]
    assert repeated and all(set(j[q]) == {"bb#0", "bb#1"} for q in repeated)  # same text: both
    assert synthetic_queries(chunks, n=50).queries == j.queries  # deterministic


@needs_scifact
def test_synthetic_queries_make_the_lab_work_without_labels(scifact: TuningEngine) -> None:
    from ragspine_nb.extract.beir import load_beir

    bm = scifact.bm25
    ids, texts = load_beir(SCIFACT).doc_texts()
    chunks = [Chunk(doc_id=d, chunk_id=d, seq=0, text=t, source_locator="para=1")
              for d, t in zip(ids[:800], texts[:800], strict=True)]
    j = synthetic_queries(chunks, n=150, seed=1)
    assert len(j) == 150
    eng = TuningEngine(bm, j.queries, j)
    v = per_query(eng, LabSetting(), ["R@100", "nDCG@10"])
    print(f"\nsynthetic: R@100 {v['R@100'].mean():.4f} nDCG@10 {v['nDCG@10'].mean():.4f}")
    assert v["R@100"].mean() > 0.5 and v["nDCG@10"].mean() < 1.0


@needs_scifact
def test_explanation_sums_to_the_bm25_score(scifact: TuningEngine) -> None:
    qid = next(iter(scifact.queries))
    run = setting_runs(scifact, LabSetting(k1=1.2, b=0.6))[qid]
    for doc in run[:3]:
        ex = explain_bm25(scifact.bm25, scifact.queries[qid], doc, 1.2, 0.6)
        pos = scifact.bm25.position_of(doc)
        assert ex.total == pytest.approx(float(scifact.bm25.get_scores(
            scifact.queries[qid], 1.2, 0.6)[pos]), rel=1e-5)
        assert all(t.contribution == 0 or t.tf > 0 for t in ex.terms)
    with pytest.raises(KeyError, match="not indexed"):
        explain_bm25(scifact.bm25, "x", "no-such-id", 1.2, 0.6)


def test_cross_validation_reports_the_heldout_fold() -> None:
    # setting 1 wins only on the first half of the queries: chosen on training folds that
    # contain them, it loses on held-out queries of the second half
    base = np.zeros(10)
    m = np.vstack([np.zeros(10), np.r_[np.ones(5), -np.ones(5) * 0.9]])
    folds = cross_validate(m, base, folds=2, seed=0)
    fid = fold_ids(10, 2, 0)
    for f, res in enumerate(folds):
        assert res.heldout_gain == pytest.approx(m[res.chosen, fid == f].mean())
        assert res.train_gain >= 0
    with pytest.raises(ValueError, match="folds must be"):
        fold_ids(10, 1)


@needs_scifact
def test_auto_tune_50_settings_within_30_s_on_scifact(scifact: TuningEngine) -> None:
    per_query(scifact, LabSetting(), ["nDCG@10"])  # compile once (numba), as a panel has
    grid = default_grid(scifact, LabSetting())
    assert len(grid) >= 50
    t0 = time.perf_counter()
    res = auto_tune(scifact, LabSetting(), settings=grid, progress=False)
    elapsed = time.perf_counter() - t0
    assert elapsed <= 120, elapsed  # target 30 s: bench/lab_latency.py
    assert len(res.folds) == 5 and sum(f.n_heldout for f in res.folds) == 300
    assert max(res.means) >= res.baseline_mean and "held-out gain" in res.summary()
    print(f"\nauto-tune: {res.summary()} (wall {elapsed:.1f} s)")


CMRC = data_root() / "cmrc2018-chunks"


@pytest.mark.skipif(not (CMRC / "corpus.jsonl").exists(), reason=f"CMRC not found at {CMRC}")
def test_measures_equal_ir_measures_on_cmrc() -> None:
    from ragspine_nb.extract.beir import load_beir

    ds = load_beir(CMRC)
    ids, texts = ds.doc_texts()
    queries = {q: ds.queries[q] for q in list(ds.qrels)[:300]}  # Chinese questions
    engine = TuningEngine(BM25Index.build(ids, texts), queries,
                          {q: ds.qrels[q] for q in queries})
    runs = setting_runs(engine, LabSetting())
    ref = _ir_measures(runs, engine.qrels, MEASURES)
    fast = per_query(engine, LabSetting(), MEASURES)
    for name in MEASURES:
        assert float(fast[name].mean()) == pytest.approx(ref[name], abs=1e-6), name
