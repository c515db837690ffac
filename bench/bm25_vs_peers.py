"""BM25 side by side: ragspine_nb vs bm25s (Lucene) vs rank_bm25, one process, same tokenizer.

    .venv/bin/python bench/bm25_vs_peers.py       # SciFact + cmrc2018-chunks, hybrid, 1M scale
    .venv/bin/python bench/bm25_vs_peers.py --no-hybrid --scale 0

Data come from $RAGSPINE_DATA (default ../shared/datasets). Tokenization (our CJK
tokenizer, no stopwords, no stemming, title + text) is timed separately and excluded
from index time and throughput. Throughput is the best of 3 passes over all test
queries, single-threaded peers; rank_bm25 runs one pass over at most 300 queries.
"Live retune" = a new (k1, b) to a fresh nDCG@10 over all test queries: for us the
query-set scorer (no re-index), for bm25s a rebuild from token ids + retrieve + evaluate.
Results go to bench/results/bm25_vs_peers.json.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
from rank_bm25 import BM25Okapi

from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index, QuerySetScorer, evaluate_run, rrf_fuse, tokenize
from ragspine_nb.retrieval.vectors import CachedEmbedder, E5EmbeddingBackend, EmbeddingCache

HERE = Path(__file__).resolve().parent
CUT = 512  # characters of each passage given to the dense model (e5 is slow on long text)
GRID = [(0.9, 0.4), (1.2, 0.6), (1.8, 0.9), (0.6, 0.3), (1.5, 0.75)]


def timed(fn: Any, *args: Any) -> tuple[Any, float, float]:
    """Result, seconds (plain run), tracemalloc peak MB (a second, traced run)."""
    t = time.perf_counter()
    out = fn(*args)
    dt = time.perf_counter() - t
    tracemalloc.start()
    fn(*args)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return out, dt, peak


def best_of(n: int, fn: Any) -> tuple[Any, float]:
    best, out = float("inf"), None
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return out, best


def run_dataset(name: str, hybrid: bool) -> dict[str, Any]:
    ds = load_beir(data_root() / name)
    ids, texts = ds.doc_texts()
    qids = list(ds.queries)
    t = time.perf_counter()
    tokens = [tokenize(x) for x in texts]
    qtoks = [tokenize(ds.queries[q]) for q in qids]
    tok_s = time.perf_counter() - t
    res: dict[str, Any] = {"dataset": name, "docs": len(ids), "queries": len(qids),
                           "tokenize_s": round(tok_s, 3)}

    ours, t_ours, m_ours = timed(BM25Index.from_tokens, ids, tokens)
    runs, q_ours = best_of(3, lambda: ours.search_many(qtoks, 100))
    s_ours = evaluate_run({q: [d for d, _ in r] for q, r in zip(qids, runs, strict=True)},
                          ds.qrels)
    res["ours"] = {"index_s": t_ours, "index_peak_mb": m_ours, "qps": len(qids) / q_ours,
                   "ndcg10": s_ours.ndcg, "recall100": s_ours.recall}

    vocab: dict[str, int] = {}
    token_ids = [[vocab.setdefault(tk, len(vocab)) for tk in d] for d in tokens]
    qq = [[vocab[tk] for tk in q if tk in vocab] or [0] for q in qtoks]

    def build_peer(k1: float = 1.5, b: float = 0.75) -> Any:
        peer = bm25s.BM25(method="lucene", k1=k1, b=b)
        peer.index((token_ids, vocab), show_progress=False)
        return peer

    peer, t_peer, m_peer = timed(build_peer)
    tq = bm25s.tokenization.Tokenized(ids=qq, vocab=vocab)

    def peer_run(p: Any) -> dict[str, list[str]]:
        docs, scores = p.retrieve(tq, k=100, show_progress=False, n_threads=1)
        return {q: [ids[d] for d, s in zip(dd, ss, strict=True) if s > 0]
                for q, dd, ss in zip(qids, docs, scores, strict=True)}

    prun, q_peer = best_of(3, lambda: peer_run(peer))
    s_peer = evaluate_run(prun, ds.qrels)
    res["bm25s"] = {"index_s": t_peer, "index_peak_mb": m_peer, "qps": len(qids) / q_peer,
                    "ndcg10": s_peer.ndcg, "recall100": s_peer.recall}

    sample = qids[:300]
    rb, t_rb, m_rb = timed(BM25Okapi, tokens)
    t = time.perf_counter()
    rb_run = {}
    for q in sample:
        sc = rb.get_scores(qtoks[qids.index(q)])
        top = np.argsort(-sc, kind="stable")[:100]
        rb_run[q] = [ids[i] for i in top if sc[i] > 0]
    q_rb = time.perf_counter() - t
    s_rb = evaluate_run(rb_run, {q: ds.qrels[q] for q in sample})
    res["rank_bm25"] = {"index_s": t_rb, "index_peak_mb": m_rb, "qps": len(sample) / q_rb,
                        "ndcg10_on_sample": s_rb.ndcg, "sample_queries": len(sample)}

    # live retune
    scorer, t_setup, _ = timed(QuerySetScorer, ours, dict(zip(qids, qtoks, strict=True)),
                               ds.qrels)
    ours_times, peer_times = [], []
    for k1, b in GRID:
        ours._cache.clear()
        t = time.perf_counter()
        fast = scorer.evaluate(k1, b)
        ours_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        slow = evaluate_run(peer_run(build_peer(k1, b)), ds.qrels)
        peer_times.append(time.perf_counter() - t)
        assert abs(fast.ndcg - slow.ndcg) < 0.002, (k1, b, fast.ndcg, slow.ndcg)
    res["retune"] = {"ours_setup_s": t_setup, "ours_mean_s": statistics.mean(ours_times),
                     "ours_max_s": max(ours_times), "bm25s_mean_s": statistics.mean(peer_times),
                     "grid": GRID}

    if hybrid:
        embedder = CachedEmbedder(E5EmbeddingBackend(), EmbeddingCache(HERE / ".cache" / "e5.db"))
        t = time.perf_counter()
        passages = embedder.passages([x[:CUT] for x in texts], progress=True)
        queries = embedder.queries([ds.queries[q] for q in qids])
        enc_s = time.perf_counter() - t
        sims = queries @ passages.T
        dense_run = {}
        for i, q in enumerate(qids):
            top = np.argsort(-sims[i], kind="stable")[:100]
            dense_run[q] = [ids[j] for j in top]
        s_dense = evaluate_run(dense_run, ds.qrels)
        bm_run = {q: [d for d, _ in r] for q, r in zip(qids, runs, strict=True)}
        fused = {q: [d for d, _ in rrf_fuse([bm_run[q], dense_run[q]])][:100] for q in qids}
        s_fused = evaluate_run(fused, ds.qrels)
        res["hybrid"] = {"model": f"multilingual-e5-small-q4 (passages cut to {CUT} chars)",
                         "encode_s_uncached_or_cached": enc_s,
                         "dense_ndcg10": s_dense.ndcg, "dense_recall100": s_dense.recall,
                         "rrf_ndcg10": s_fused.ndcg, "rrf_recall100": s_fused.recall}
    return res


def scale(n_docs: int, seed: int = 0) -> dict[str, Any]:
    """Build over a synthetic corpus and time single queries (run in a fresh process)."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(30000)] + [chr(0x4E00 + i) for i in range(600)])
    p = 1.0 / np.arange(1, words.size + 1) ** 1.07
    p /= p.sum()
    lens = rng.integers(20, 61, size=n_docs)
    flat = rng.choice(words.size, size=int(lens.sum()), p=p)
    cuts = np.cumsum(lens)[:-1]
    texts = [" ".join(words[chunk]) for chunk in np.split(flat, cuts)]
    del flat
    ids = [f"c{i}" for i in range(n_docs)]
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t = time.perf_counter()
    index = BM25Index.build(ids, texts)
    build_s = time.perf_counter() - t
    queries = [" ".join(rng.choice(words[:5000], size=4)) for _ in range(200)]
    index.search(queries[0], top_k=10)
    lat = []
    for q in queries:
        t = time.perf_counter()
        index.search(q, top_k=10)
        lat.append(time.perf_counter() - t)
    return {"docs": n_docs, "tokens": int(lens.sum()), "build_s": build_s,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "rss_before_build_mb": rss_before, "query_p50_ms": statistics.median(lat) * 1e3,
            "query_p99_ms": float(np.percentile(lat, 99)) * 1e3}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", nargs="*", default=["scifact", "cmrc2018-chunks"])
    ap.add_argument("--no-hybrid", action="store_true")
    ap.add_argument("--scale", type=int, default=1_000_000)
    ap.add_argument("--scale-only", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.scale_only:
        print(json.dumps(scale(args.scale_only)))
        return
    out: dict[str, Any] = {"datasets": []}
    for name in args.datasets:
        r = run_dataset(name, not args.no_hybrid)
        out["datasets"].append(r)
        o, p, rb, rt = r["ours"], r["bm25s"], r["rank_bm25"], r["retune"]
        print(f"\n== {name}: {r['docs']} docs, {r['queries']} queries "
              f"(tokenize {r['tokenize_s']} s, excluded)")
        print(f"{'system':<10} {'index s':>8} {'peak MB':>8} {'qps':>9} {'nDCG@10':>8} "
              f"{'R@100':>7}")
        for label, m in (("ours", o), ("bm25s", p)):
            print(f"{label:<10} {m['index_s']:>8.3f} {m['index_peak_mb']:>8.1f} "
                  f"{m['qps']:>9.0f} {m['ndcg10']:>8.4f} {m['recall100']:>7.4f}")
        print(f"{'rank_bm25':<10} {rb['index_s']:>8.3f} {rb['index_peak_mb']:>8.1f} "
              f"{rb['qps']:>9.0f} {rb['ndcg10_on_sample']:>8.4f}  (first {rb['sample_queries']}"
              " queries)")
        print(f"ratios ours/bm25s: qps {o['qps'] / p['qps']:.2f}x, index time "
              f"{o['index_s'] / p['index_s']:.2f}x, nDCG@10 diff {o['ndcg10'] - p['ndcg10']:+.4f};"
              f" ours/rank_bm25 qps {o['qps'] / rb['qps']:.0f}x")
        print(f"live retune (new k1,b → nDCG@10, all queries): ours {rt['ours_mean_s'] * 1e3:.0f}"
              f" ms mean / {rt['ours_max_s'] * 1e3:.0f} ms max (one-off setup "
              f"{rt['ours_setup_s']:.2f} s) vs bm25s rebuild+rescore {rt['bm25s_mean_s'] * 1e3:.0f}"
              f" ms → {rt['ours_mean_s'] / rt['bm25s_mean_s']:.2f}x")
        if "hybrid" in r:
            h = r["hybrid"]
            print(f"hybrid: BM25 {o['ndcg10']:.4f} | e5 alone {h['dense_ndcg10']:.4f} | "
                  f"RRF(BM25, e5) {h['rrf_ndcg10']:.4f} nDCG@10 (R@100 {o['recall100']:.4f} / "
                  f"{h['dense_recall100']:.4f} / {h['rrf_recall100']:.4f})")
    if args.scale:
        proc = subprocess.run([sys.executable, __file__, "--scale-only", str(args.scale)],
                              capture_output=True, text=True, check=True)
        sc = json.loads(proc.stdout.strip().splitlines()[-1])
        out["scale"] = sc
        print(f"\n== scale: {sc['docs']:,} synthetic chunks, {sc['tokens']:,} tokens: build "
              f"{sc['build_s']:.1f} s (tokenize + index), peak RSS {sc['peak_rss_mb']:.0f} MB, "
              f"query p50 {sc['query_p50_ms']:.1f} ms, p99 {sc['query_p99_ms']:.1f} ms")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "bm25_vs_peers.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
