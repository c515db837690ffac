"""The retrieval lab's latency on SciFact (300 queries): slider move, judgment click, auto-tune.

    .venv/bin/python bench/lab_latency.py [SCIFACT_FOLDER]

Targets (issue 39): a slider move or a judgment click re-scores in ≤ 200 ms (median);
auto-tune over ≥ 50 settings in ≤ 30 s. Prints the machine's load beside the figures:
a loaded machine's figures are not the product's.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval.autotune import auto_tune, default_grid
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.judgments import Judgments
from ragspine_nb.retrieval.lab import LabSetting
from ragspine_nb.retrieval.tuning import TuningEngine
from ragspine_nb.widgets import TuningPanel


def main(folder: Path) -> None:
    """Print the medians against the targets."""
    ds = load_beir(folder)
    ids, texts = ds.doc_texts()
    engine = TuningEngine(BM25Index.build(ids, texts), {q: ds.queries[q] for q in ds.qrels},
                          ds.qrels)
    panel = TuningPanel(engine)
    panel.k1.value = 1.0  # warm: numba compile, scipy import
    moves = []
    for k1 in (1.1, 1.25, 1.4, 0.9, 1.7, 1.2, 1.5):
        t0 = time.perf_counter()
        panel.k1.value = k1
        moves.append((time.perf_counter() - t0) * 1e3)
    judged = Judgments()
    judged.update(ds.qrels)
    clicks = []
    for n, q in enumerate(list(ds.qrels)[:5]):
        t0 = time.perf_counter()
        judged.mark(q, ids[n], "partly")
        panel.set_judgments(judged)
        clicks.append((time.perf_counter() - t0) * 1e3)
    grid = default_grid(engine, LabSetting())
    t0 = time.perf_counter()
    auto_tune(engine, LabSetting(), settings=grid, progress=False)
    tuned = time.perf_counter() - t0
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"slider move    median {statistics.median(moves):6.0f} ms  (target ≤ 200)")
    print(f"judgment click median {statistics.median(clicks):6.0f} ms  (target ≤ 200)")
    print(f"auto-tune      {len(grid)} settings {tuned:6.1f} s   (target ≤ 30 s, ≥ 50 settings)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else data_root() / "scifact")
