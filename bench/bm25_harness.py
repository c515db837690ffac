"""The agreed BM25 harness: ours, bm25s (numba) and tantivy on equal work, interleaved.

    .venv/bin/python bench/bm25_harness.py [--datasets scifact cmrc2018-chunks] [--repeats 9]

Every engine gets the same input, the test queries tokenised once by our tokenizer, as
lists of strings (each engine maps strings to its own ids inside the timed call), and
returns the same output: top-``k`` document indices and scores as numpy arrays
(queries × k). The pairs form ((doc id, score) lists) is timed separately. bm25s gets its
documented path (string tokens in, ``n_threads=1``); tantivy gets the tokens joined by
spaces into a whitespace-tokenised field and a boolean OR of term queries built in the
timed call (it fixes k1 = 1.2, b = 0.75, one-byte lengths: its rankings differ).

Timing is CPU time of this process (``time.process_time``), one thread (numba, OpenMP
and BLAS pools are set to 1 before any import), the median over ``--repeats`` rounds in
which the engines run interleaved (the order rotates each round) so that the machine's
load hits all of them alike. The load average is printed before and after each dataset.
Results go to bench/results/bm25_harness.json.
"""

from __future__ import annotations

import os

for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "RAYON_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from ragspine_nb.extract.beir import data_root, load_beir  # noqa: E402
from ragspine_nb.retrieval import BM25Index, evaluate_run, tokenize  # noqa: E402

HERE = Path(__file__).resolve().parent
K = 100
Arrays = tuple[np.ndarray, np.ndarray]
Pairs = list[list[tuple[str, float]]]


def load() -> str:
    """The 1-, 5- and 15-minute load averages."""
    return "load {:.1f} / {:.1f} / {:.1f}".format(*os.getloadavg())


def ours_engine(ids: Sequence[str], tokens: Sequence[Sequence[str]]) -> dict[str, Any]:
    index = BM25Index.from_tokens(ids, tokens)
    doc_ids = np.array(index.doc_ids, dtype=object)

    def arrays(q: Sequence[Sequence[str]]) -> Arrays:
        return index.search_arrays(q, K)

    def pairs(q: Sequence[Sequence[str]]) -> Pairs:
        return index.search_many(q, K)

    return {"arrays": arrays, "pairs": pairs, "ids": doc_ids}


def bm25s_engine(ids: Sequence[str], tokens: Sequence[Sequence[str]]) -> dict[str, Any]:
    import bm25s

    peer = bm25s.BM25(method="lucene", k1=1.5, b=0.75, backend="numba")
    peer.index([list(t) for t in tokens], show_progress=False)
    known = peer.vocab_dict

    def arrays(q: Sequence[Sequence[str]]) -> Arrays:
        # a query with no known token is an error in bm25s: give it one that scores nothing
        qq = [list(x) if any(tk in known for tk in x) else [next(iter(known))] for x in q]
        docs, scores = peer.retrieve(qq, k=K, show_progress=False, n_threads=1)
        return docs, scores

    def pairs(q: Sequence[Sequence[str]]) -> Pairs:
        docs, scores = arrays(q)
        return [[(ids[d], s) for d, s in zip(dd.tolist(), ss.tolist(), strict=True) if s > 0]
                for dd, ss in zip(docs, scores, strict=True)]

    return {"arrays": arrays, "pairs": pairs, "ids": np.array(ids, dtype=object)}


def tantivy_engine(ids: Sequence[str], tokens: Sequence[Sequence[str]]) -> dict[str, Any]:
    import tantivy

    sb = tantivy.SchemaBuilder()
    sb.add_text_field("t", stored=False, tokenizer_name="whitespace")
    schema = sb.build()
    index = tantivy.Index(schema)
    writer = index.writer(heap_size=500_000_000, num_threads=1)
    for toks in tokens:
        writer.add_document(tantivy.Document(t=" ".join(toks)))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()
    if searcher.num_segments != 1:
        raise RuntimeError("expected one segment: doc ids would not be positions")
    term, should = tantivy.Query.term_query, tantivy.Occur.Should

    def hits(q: Sequence[Sequence[str]]) -> list[Any]:
        return [searcher.search(tantivy.Query.boolean_query(
            [(should, term(schema, "t", tk)) for tk in x]), K).hits for x in q]

    def arrays(q: Sequence[Sequence[str]]) -> Arrays:
        docs = np.full((len(q), K), -1, np.int64)
        scores = np.zeros((len(q), K), np.float32)
        for i, h in enumerate(hits(q)):
            docs[i, :len(h)] = [a.doc for _, a in h]
            scores[i, :len(h)] = [s for s, _ in h]
        return docs, scores

    def pairs(q: Sequence[Sequence[str]]) -> Pairs:
        return [[(ids[a.doc], s) for s, a in h] for h in hits(q)]

    return {"arrays": arrays, "pairs": pairs, "ids": np.array(ids, dtype=object)}


ENGINES: dict[str, Callable[[Sequence[str], Sequence[Sequence[str]]], dict[str, Any]]] = {
    "ours": ours_engine, "bm25s_numba": bm25s_engine, "tantivy": tantivy_engine}


def interleaved(calls: dict[str, Callable[[], Any]], repeats: int) -> dict[str, list[float]]:
    """CPU seconds of each call per round; the order rotates so no engine always goes first."""
    names = list(calls)
    out: dict[str, list[float]] = {n: [] for n in names}
    for r in range(repeats):
        for n in names[r % len(names):] + names[:r % len(names)]:
            t = time.process_time()
            calls[n]()
            out[n].append(time.process_time() - t)
    return out


def run_dataset(name: str, repeats: int) -> dict[str, Any]:
    ds = load_beir(data_root() / name)
    ids, texts = ds.doc_texts()
    qids = list(ds.queries)
    tokens = [tokenize(x) for x in texts]
    qtoks = [tokenize(ds.queries[q]) for q in qids]
    engines = {n: make(ids, tokens) for n, make in ENGINES.items()}
    res: dict[str, Any] = {"dataset": name, "docs": len(ids), "queries": len(qids),
                           "load_before": os.getloadavg()}
    for eng in engines.values():  # first calls: compiled code loads, caches fill
        eng["arrays"](qtoks)
        eng["pairs"](qtoks)
    calls: dict[str, Callable[[], Any]] = {}
    for n, eng in engines.items():
        calls[f"{n}:arrays"] = lambda e=eng: e["arrays"](qtoks)
        calls[f"{n}:pairs"] = lambda e=eng: e["pairs"](qtoks)
    times = interleaved(calls, repeats)
    res["load_after"] = os.getloadavg()
    for n, eng in engines.items():
        docs, scores = eng["arrays"](qtoks)
        run = {q: [eng["ids"][d] for d, s in zip(dd, ss, strict=True) if d >= 0 and s > 0]
               for q, dd, ss in zip(qids, docs.tolist(), scores.tolist(), strict=True)}
        res[n] = {"ndcg10": evaluate_run(run, ds.qrels).ndcg,
                  "arrays_qps": len(qids) / statistics.median(times[f"{n}:arrays"]),
                  "pairs_qps": len(qids) / statistics.median(times[f"{n}:pairs"]),
                  "arrays_cpu_s": times[f"{n}:arrays"], "pairs_cpu_s": times[f"{n}:pairs"]}
    ours, peer = engines["ours"]["arrays"](qtoks), engines["bm25s_numba"]["arrays"](qtoks)
    res["same_top100_as_bm25s"] = int(sum(
        set(a[a >= 0].tolist()) == set(b[: (a >= 0).sum()].tolist())
        for a, b in zip(ours[0], peer[0], strict=True)))
    return res


def report(r: dict[str, Any], repeats: int) -> None:
    lb, la = r["load_before"], r["load_after"]
    print(f"\n== {r['dataset']}: {r['docs']} docs, {r['queries']} queries, top-{K}, one thread, "
          f"CPU time, median of {repeats} interleaved rounds; load (1/5/15 min) "
          f"{lb[0]:.1f}/{lb[1]:.1f}/{lb[2]:.1f} -> {la[0]:.1f}/{la[1]:.1f}/{la[2]:.1f}")
    print(f"{'engine':<12} {'arrays q/s':>11} {'ours/peer':>9} {'pairs q/s':>10} "
          f"{'ours/peer':>9} {'nDCG@10':>8}")
    o = r["ours"]
    for n in ENGINES:
        m = r[n]
        print(f"{n:<12} {m['arrays_qps']:>11.0f} {o['arrays_qps'] / m['arrays_qps']:>8.2f}x "
              f"{m['pairs_qps']:>10.0f} {o['pairs_qps'] / m['pairs_qps']:>8.2f}x "
              f"{m['ndcg10']:>8.4f}")
    print(f"same top-100 sets as bm25s: {r['same_top100_as_bm25s']} / {r['queries']} "
          "(tantivy: k1 = 1.2 fixed, one-byte lengths, so its lists differ)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", nargs="*", default=["scifact", "cmrc2018-chunks"])
    ap.add_argument("--repeats", type=int, default=9)
    args = ap.parse_args()
    print(f"start: {load()} on {os.cpu_count()} CPUs")
    out = [run_dataset(n, args.repeats) for n in args.datasets]
    for r in out:
        report(r, args.repeats)
    print(f"end: {load()}")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "bm25_harness.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
