"""Real-data checks on ../shared/datasets (or $RAGSPINE_DATA): slow, still run in CI."""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy as np
import pytest

from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index, QuerySetScorer, evaluate_run, tokenize

pytestmark = pytest.mark.slow


def _need(name: str) -> Path:
    path = data_root() / name
    if not (path / "corpus.jsonl").is_file():
        pytest.skip(f"dataset {name} not found under {data_root()} (set RAGSPINE_DATA)")
    return path


def test_missing_dataset_error_names_the_env_var(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="RAGSPINE_DATA"):
        load_beir(tmp_path / "nope")


@pytest.mark.parametrize("name, expected", [("scifact", 0.6644), ("cmrc2018-chunks", 0.8985)])
def test_bm25_matches_bm25s_and_the_anchor(name: str, expected: float) -> None:
    ds = load_beir(_need(name))
    ids, texts = ds.doc_texts()
    tokens = [tokenize(t) for t in texts]
    ours = BM25Index.from_tokens(ids, tokens)
    qids = list(ds.queries)
    qtoks = [tokenize(ds.queries[q]) for q in qids]
    run = {q: [d for d, _ in r] for q, r in zip(qids, ours.search_many(qtoks, 100), strict=True)}
    score = evaluate_run(run, ds.qrels)
    vocab: dict[str, int] = {}
    peer = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    peer.index(([[vocab.setdefault(t, len(vocab)) for t in d] for d in tokens], vocab),
               show_progress=False)
    qq = [[vocab[t] for t in q if t in vocab] or [0] for q in qtoks]
    docs, scores = peer.retrieve(bm25s.tokenization.Tokenized(ids=qq, vocab=vocab), k=100,
                                 show_progress=False, n_threads=1)
    peer_run = {q: [ids[d] for d, s in zip(dd, ss, strict=True) if s > 0]
                for q, dd, ss in zip(qids, docs, scores, strict=True)}
    peer_score = evaluate_run(peer_run, ds.qrels)
    assert abs(score.ndcg - peer_score.ndcg) <= 0.002
    assert score.ndcg == pytest.approx(expected, abs=0.001)
    fast = QuerySetScorer(ours, dict(zip(qids, qtoks, strict=True)), ds.qrels).evaluate()
    assert fast.ndcg == pytest.approx(score.ndcg, abs=1e-9)


def test_sentence_transformers_backend_loads_the_bundled_model_offline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine_nb.retrieval.vectors import SentenceTransformerEmbeddingBackend

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("RAGSPINE_EMBEDDING_DEVICE", "cpu")
    backend = SentenceTransformerEmbeddingBackend()
    vecs = backend.embed_texts(["Revenue fell in mainland China.", "The canteen opens at 8am.",
                                "Mainland China revenue decreased."])
    assert vecs.shape == (3, 384) and backend.name == "all-MiniLM-L6-v2"
    sims = vecs @ vecs[0]
    assert int(np.argmax(sims[1:])) == 1  # the paraphrase, not the canteen


def test_hybrid_on_cmrc_sample_beats_bm25_alone() -> None:
    """A 300-query slice of cmrc2018-chunks: RRF(BM25, e5) must not lose to BM25."""
    from ragspine_nb.retrieval import rrf_fuse
    from ragspine_nb.retrieval.vectors import CachedEmbedder, E5EmbeddingBackend, EmbeddingCache

    ds = load_beir(_need("cmrc2018-chunks"))
    qids = list(ds.queries)[:300]
    relevant = {d for q in qids for d in ds.qrels[q]}
    ids, texts = ds.doc_texts()
    keep = [i for i, d in enumerate(ids) if d in relevant or i % 4 == 0]  # judged + distractors
    ids = [ids[i] for i in keep]
    texts = [texts[i] for i in keep]
    bm = BM25Index.build(ids, texts)
    embed = CachedEmbedder(E5EmbeddingBackend(), EmbeddingCache(
        Path(__file__).resolve().parents[1] / "bench" / ".cache" / "e5.db"))
    sims = embed.queries([ds.queries[q] for q in qids]) @ embed.passages(texts).T
    bm_run, dense_run, fused = {}, {}, {}
    for i, (q, r) in enumerate(zip(qids, bm.search_many([ds.queries[q] for q in qids], 100),
                                   strict=True)):
        bm_run[q] = [d for d, _ in r]
        dense_run[q] = [ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
        fused[q] = [d for d, _ in rrf_fuse([bm_run[q], dense_run[q]])][:100]
    qrels = {q: ds.qrels[q] for q in qids}
    assert evaluate_run(fused, qrels).ndcg >= evaluate_run(bm_run, qrels).ndcg


def test_cli_eval_beir_writes_the_arm_table(tmp_path: Path) -> None:
    import json

    from ragspine_nb.cli import main

    folder = _need("cmrc2018-chunks")
    out = tmp_path / "beir.json"
    assert main(["eval", "beir", str(folder), "--arms", "bm25", "--sample", "500",
                 "--json", str(out)]) == 0
    table = json.loads(out.read_text())
    assert set(table) == {"bm25"}
    assert set(table["bm25"]) == {"ndcg@10", "recall@100", "mrr@10", "queries"}
    assert table["bm25"]["queries"] == 500 and table["bm25"]["ndcg@10"] > 0.85
    with pytest.raises(ValueError, match="Valid arms"):
        main(["eval", "beir", str(folder), "--arms", "bm25,splade"])


def test_tatqa_dev_every_question_through_ingestion(tmp_path: Path) -> None:
    """The first 40 dev contexts through ``ragspine-nb eval tatqa`` (the whole split is
    ``bench/tatqa_eval.py``): every question scored from what its answer asserts."""
    import json

    from ragspine_nb.cli import main

    path = data_root() / "tatqa" / "tatqa_dataset_dev.json"
    if not path.is_file():
        pytest.skip("TAT-QA dev not found (set RAGSPINE_DATA)")
    out = tmp_path / "tatqa.json"
    assert main(["eval", "tatqa", str(path), "--limit", "40", "--workers", "2",
                 "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert (result["contexts"], result["questions"]) == (40, 240)
    assert sum(result["categories"].values()) == 240
    assert result["subsets"]["single_cell"]["asked"] == 36
    assert result["subsets"]["difference"]["asked"] == 20
    assert result["text_span"]["recall@3"] >= 0.95


def test_tatqa_headers_fiscal_labels_quarters_and_stated_changes() -> None:
    from ragspine_nb.extract.tatqa import load_tatqa

    path = data_root() / "tatqa" / "tatqa_dataset_dev.json"
    if not path.is_file():
        pytest.skip("TAT-QA dev not found (set RAGSPINE_DATA)")
    contexts = {c.uid: c for c in load_tatqa(path)}

    def row(uid: str, r: int) -> list[tuple[str, str, str, str, float, str]]:
        return sorted((f.source_locator.split(",")[2], f.channel, f.period_type, f.period,
                       f.value, f.unit) for f in contexts[uid].facts
                      if f.source_locator.startswith(f"table=0,row={r},"))

    # "F19 / F18 (3)" headers, a "CHANGE" % column and a "CHANGE NORMALISED" one beside it
    assert row("00addb09-bf31-4240-a351-bc4480a3cecc", 2) == [
        ("col=1", "TOTAL", "FY", "2019", 8657.0, "million"),
        ("col=2", "TOTAL", "FY", "2018", 8244.0, "million"),
        ("col=3", "CHANGE_PCT", "FY", "2019", 5.0, "percent")]
    # "2019 over 2018" / "2018 over 2017": each % change under its own later year
    assert [x[1:4] for x in row("428d5e87-612b-468c-80f3-5b5298d589c8", 2)][-2:] == [
        ("CHANGE_PCT", "FY", "2019"), ("CHANGE_PCT", "FY", "2018")]
    # "Q4 2019 | Q4 2018 | % CHANGE": quarters are quarters, not fiscal years
    assert row("bcbd7783-86ad-430d-aa96-48808bb0426c", 1) == [
        ("col=1", "TOTAL", "QUARTER", "2019Q4", 2493.0, "million"),
        ("col=2", "TOTAL", "QUARTER", "2018Q4", 2407.0, "million"),
        ("col=4", "CHANGE_PCT", "QUARTER", "2019Q4", 3.6, "percent")]
    # a named absolute change column is a channel of its own
    assert ("col=4", "CHANGE_VS_VARIANCE_DOLLARS", "FY", "2019", 2296.0, "million") in \
        row("4670cbd8-9d09-4f10-86dd-1a9ba54e2d8a", 3)
    # "$ | %" under one year: the plain amount is the year's figure, the % a channel
    assert [x[:3] for x in row("b1b21d4c-7dac-4205-96bf-6b088fc3b724", 3)] == [
        ("col=1", "TOTAL", "FY"), ("col=2", "C_PERCENT", "FY"), ("col=3", "TOTAL", "FY"),
        ("col=4", "C_PERCENT", "FY")]
    # "Quarters Ended | July 27, 2019 | April 27, 2019 | ...": quarters named by their
    # end date, never a fiscal year's figure
    assert [x[:2] for x in row("241e4c9c-5707-477f-b519-a3c5d1af417f", 1)] == [
        ("col=1", "C_JUL_27"), ("col=2", "C_APR_27"), ("col=3", "C_JAN_26"), ("col=4", "C_OCT_27")]
    # a group header over two years names both columns under it
    assert [x[:2] for x in row("21a432eb-166c-4178-adf9-08b6ad3fde7d", 6)] == [
        ("col=1", "C_FINANCIAL_ASSETS"), ("col=2", "C_FINANCIAL_ASSETS"),
        ("col=3", "C_FINANCIAL_LIABILITIES"), ("col=4", "C_FINANCIAL_LIABILITIES")]
    # a row with one figure per year (the other group's cells are empty): also the year's
    assert ("col=2", "TOTAL", "FY", "2019", 963947.0, "thousand") in \
        row("d7d65228-96c1-4890-951c-c3d7578f8031", 2)
    # a header restarting inside the table ("Fiscal 2018" block under "Fiscal 2019"): the
    # same row label in the later block is the same metric, under the later block's year
    ctx = contexts["073a0021-1564-4fe2-8759-73b15dd69ea1"]
    revenues = sorted((f.source_locator, f.metric_code, f.period, f.channel)
                      for f in ctx.facts if f.source_locator.endswith("col=3")
                      and f.source_locator.split(",")[1] in ("row=3", "row=11"))
    assert revenues == [("table=0,row=11,col=3", "ROW3", "2018", "C_THIRD_QUARTER"),
                        ("table=0,row=3,col=3", "ROW3", "2019", "C_THIRD_QUARTER")]
    # aging buckets name their columns ("1–90", "91-180", ">360")
    ctx = contexts["736d8572-272b-4cab-8062-9012ec6e7fe9"]
    assert {"C_1_90", "C_91_180", "C_181_360", "C_360"} <= set(ctx.profile.channels)
    assert ctx.profile.channels["C_360"].synonyms == ("360+",)


def test_tatqa_totals_are_found_on_the_figures() -> None:
    from ragspine_nb.extract.tatqa import load_tatqa

    path = data_root() / "tatqa" / "tatqa_dataset_dev.json"
    if not path.is_file():
        pytest.skip("TAT-QA dev not found (set RAGSPINE_DATA)")
    contexts = {c.uid[:8]: c for c in load_tatqa(path)}
    # "Total contractual obligations" adds up the three rows above it in every column
    ctx = contexts["c29582f8"]
    assert {k: m.parts for k, m in ctx.profile.metrics.items() if m.parts} == \
        {"ROW4": ("ROW1", "ROW2", "ROW3")}
    # a dash in the year's own column: the row has no figure for that year (the "Total"
    # column's 400 is not borrowed as the 2020 figure)
    assert sorted((f.source_locator, f.channel) for f in ctx.facts
                  if "row=3," in f.source_locator) == [("table=0,row=3,col=1", "C_TOTAL")]
    # an unlabelled last row that adds up the rows above is their total
    spec = contexts["bd57880a"].profile.metrics["ROW5"]
    assert (spec.synonyms, spec.parts) == (("total",), ("ROW1", "ROW2", "ROW3", "ROW4"))
    # a scale stated over one column is that column's ("(Shares in thousands)" beside
    # "(Dollars in millions)")
    units = {f.source_locator: f.unit for f in contexts["05b0f8ce"].facts}
    assert (units["table=0,row=2,col=1"], units["table=0,row=2,col=4"]) == \
        ("thousand", "million")
    # a dated title over "Low | High" names neither column
    assert {k: v.synonyms for k, v in contexts["b4fefe60"].profile.channels.items()} == \
        {"TOTAL": (), "C_LOW": ("low",), "C_HIGH": ("high",)}
