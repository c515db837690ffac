"""The lab's widgets, headless: the inspector's grades feed the TuningPanel; SciFact timings."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from ragspine_nb import NarrativeIndex
from ragspine_nb.extract.beir import data_root
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.judgments import JUDGMENTS_FILE, Judgments, NoJudgmentsError
from ragspine_nb.retrieval.lab import LabSetting
from ragspine_nb.retrieval.synthetic_queries import synthetic_queries
from ragspine_nb.retrieval.tuning import TuningEngine

pytest.importorskip("ipywidgets")
from ragspine_nb.widgets import RerankInspector, TuningPanel  # noqa: E402

SCIFACT = data_root() / "scifact"

TEXTS = {
    "r.md": "Revenue fell in Asia because agency sales declined after the new rules.",
    "s.md": "Agency sales declined in Hong Kong; bancassurance grew strongly.",
    "t.md": "The board approved the dividend. Revenue guidance was unchanged.",
    "u.md": "Operating costs rose with new hires in the agency channel.",
    "v.md": "Claims ratio improved; revenue from health products rose.",
}


def _workspace(tmp_path: Path) -> NarrativeIndex:
    index = NarrativeIndex(tmp_path / "chunks.db")
    for doc, text in TEXTS.items():
        index.add_document(doc, text)
    return index


def test_inspector_grades_three_hits_into_the_workspace_and_the_panel_follows(
        tmp_path: Path) -> None:
    index = _workspace(tmp_path)
    ins = RerankInspector(index, "why did agency revenue fall", top_k=5, planner=False)
    assert ins.judgments.path == tmp_path / JUDGMENTS_FILE and len(ins.grade_buttons) >= 3
    syn = synthetic_queries(index.store.iter_chunks(), n=10)
    panel = index.tune(syn)  # day one: synthetic queries only
    panel.follow(ins)
    before = panel.current.ndcg
    hits = list(ins.grade_buttons)
    ins.grade_buttons[hits[0]].value = "not"
    ins.grade_buttons[hits[1]].value = "partly"
    ins.grade_buttons[hits[2]].value = "relevant"
    qid = next(iter(ins.judgments))
    saved = Judgments.load(tmp_path / JUDGMENTS_FILE)
    assert saved[qid] == {hits[0]: 0, hits[1]: 1, hits[2]: 2} and saved.version == 3
    assert saved.queries[qid] == "why did agency revenue fall"
    assert qid in panel.engine.queries and len(panel.current.per_query) == 1  # user's only
    assert panel.current.ndcg != before or "nDCG@10" in panel.lab.value
    # a new inspector on the same workspace shows the saved grades
    again = RerankInspector(index, "why did agency revenue fall", top_k=5, planner=False)
    assert again.grade_buttons[hits[2]].value == "relevant"
    # every grade withdrawn: the panel says so with a named error
    with pytest.raises(NoJudgmentsError):
        panel.set_judgments({qid: {hits[2]: 0}})


def test_panel_pin_explain_autotune_and_export(tmp_path: Path) -> None:
    index = _workspace(tmp_path)
    syn = synthetic_queries(index.store.iter_chunks(), n=10)
    panel: TuningPanel = index.tune(syn)
    panel.k1.value = 0.6
    assert "Against the pinned baseline" in panel.lab.value and "<svg" in panel.lab.value
    assert [c.measure for c in panel.comparisons] == ["nDCG@10", "R@100", "RR", "P@10"]
    panel.pin()
    assert panel.pinned.k1 == 0.6 and all(c.delta == 0 for c in panel.comparisons)
    html = panel.explain(next(iter(syn)), 1)
    assert "Why this score" in html and "contribution" in html and "bm25 1" in html
    res = panel.auto_tune(folds=2)
    assert len(res.settings) >= 50 and "held-out gain" in panel.tune_result.value
    panel.apply_button.click()
    assert panel.setting().k1 == res.best.k1
    run = panel.export_run(tmp_path / "run.trec")
    first = run.read_text().splitlines()[0].split()
    assert first[1] == "Q0" and first[3] == "1" and first[5] == "ragspine"


@pytest.mark.skipif(not (SCIFACT / "corpus.jsonl").exists(), reason="SciFact not found")
def test_slider_move_and_judgment_click_rescore_on_scifact() -> None:
    # the 200 ms target is measured by bench/lab_latency.py; here a bound a loaded CI keeps
    from ragspine_nb.extract.beir import load_beir

    ds = load_beir(SCIFACT)
    ids, texts = ds.doc_texts()
    bm = BM25Index.build(ids, texts)
    queries = {q: ds.queries[q] for q in ds.qrels}
    panel = TuningPanel(TuningEngine(bm, queries, ds.qrels))
    panel.k1.value = 1.0  # warm (numba compile, scipy import)
    moves = []
    for k1 in (1.1, 1.25, 1.4, 0.9, 1.7):
        t0 = time.perf_counter()
        panel.k1.value = k1
        moves.append((time.perf_counter() - t0) * 1e3)
    j = Judgments()
    j.update(ds.qrels)
    clicks = []
    for n, q in enumerate(list(queries)[:3]):
        t0 = time.perf_counter()
        j.mark(q, ids[n], "partly")
        panel.set_judgments(j)
        clicks.append((time.perf_counter() - t0) * 1e3)
    print(f"\nSciFact 300 queries: slider move median {statistics.median(moves):.0f} ms "
          f"(max {max(moves):.0f}); judgment click median {statistics.median(clicks):.0f} ms "
          f"(max {max(clicks):.0f})")
    assert statistics.median(moves) <= 1000 and statistics.median(clicks) <= 1000
    assert panel.setting() == LabSetting(k1=1.7, b=0.75, rrf_k=60, top_k=100)
