"""TuningPanel update latency on SciFact (300 test queries, full corpus): target < 200 ms.

    .venv/bin/python bench/tuning_panel.py

Times ``TuningEngine.evaluate`` (what one slider move runs) for BM25 moves and, when
cached e5 vectors exist (bench/.cache/e5.db, written by bench/bm25_vs_peers.py), for the
hybrid channel. Widgets add a few ms of HTML rendering on top.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import numpy as np

from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index
from ragspine_nb.retrieval.tuning import TuningEngine
from ragspine_nb.retrieval.vectors import CachedEmbedder, E5EmbeddingBackend, EmbeddingCache

HERE = Path(__file__).resolve().parent
MOVES = [(1.2, 0.75), (0.9, 0.75), (0.9, 0.5), (1.8, 0.5), (1.5, 0.9), (0.6, 0.3), (2.4, 0.6),
         (1.5, 0.75)]


def main() -> None:
    ds = load_beir(data_root() / "scifact")
    ids, texts = ds.doc_texts()
    t = time.perf_counter()
    index = BM25Index.build(ids, texts)
    vector_runs = None
    cache = EmbeddingCache(HERE / ".cache" / "e5.db")
    emb = CachedEmbedder(E5EmbeddingBackend(), cache)
    keys = [EmbeddingCache.key("passage", x[:512]) for x in texts]
    if len(cache.get_many(emb.backend.name, keys)) == len(keys):
        sims = emb.queries(list(ds.queries.values())) @ emb.passages([x[:512] for x in texts]).T
        vector_runs = {q: [ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
                       for i, q in enumerate(ds.queries)}
    engine = TuningEngine(index, ds.queries, ds.qrels, vector_runs)
    setup = time.perf_counter() - t
    out = {"setup_s": setup}
    for channel in engine.channels():
        lat = []
        for k1, b in MOVES:
            engine.evaluate(k1, b, 60, 100, channel)
            lat.append(engine.last_ms)
        out[channel] = {"median_ms": statistics.median(lat), "max_ms": max(lat)}
        print(f"{channel:<8} slider move → metrics: median {statistics.median(lat):.1f} ms, "
              f"max {max(lat):.1f} ms over {len(MOVES)} moves (300 queries)")
    print(f"one-off setup (index + scorer{' + cached vectors' if vector_runs else ''}): "
          f"{setup:.2f} s")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "tuning_panel.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
