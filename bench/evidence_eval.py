"""What the evidence gap loop does to the passages an answer is written from.

    .venv/bin/python bench/evidence_eval.py [--sample 300] [--judge coverage|cross-encoder]
                                            [--sets scifact,cmrc2018-chunks]

The cross-encoder (English, ONNX on CPU) takes about 4 s per SciFact question here.

On BEIR-format sets (SciFact, cmrc2018-chunks), for each query: ``plain`` = the top 6
fused hits of one planned search (what the agent used before the loop), ``evidence`` =
:func:`gather_evidence` (threshold 0.3, at most 2 extra loops, at most 6 passages).
Reports, per arm: hit rate (a gold passage among the passages), precision (share of the
passages that are gold), mean passages; and for the loop: stop reasons, mean rounds,
mean queries searched, latency per question. Writes ``bench/results/evidence_eval.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from ragspine_nb.extract.beir import load_beir
from ragspine_nb.retrieval.evidence import TermCoverageJudge, gather_evidence
from ragspine_nb.retrieval.index import NarrativeIndex
from ragspine_nb.retrieval.planning import RuleQueryPlanner

SETS = ("scifact", "cmrc2018-chunks")
K = 6


def run(name: str, sample: int, judge_name: str) -> dict[str, Any]:
    ds = load_beir(name)
    ids, texts = ds.doc_texts()
    index = NarrativeIndex(rewriter=False)
    index.add_texts(ids, texts, progress=False)
    judge: Any = TermCoverageJudge()
    if judge_name == "cross-encoder":
        from ragspine_nb.retrieval.rerank import CrossEncoderJudge

        judge = CrossEncoderJudge()
    planner = RuleQueryPlanner()
    qids = list(ds.queries)[:sample]
    plain_hit = plain_prec = ev_hit = ev_prec = 0.0
    plain_n, ev_n, rounds, queries, ms = [], [], [], [], []
    stops: Counter[str] = Counter()
    for q in qids:
        gold = {d for d, rel in ds.qrels[q].items() if rel > 0}
        question = ds.queries[q]
        plan = planner.plan(question)
        plain = [h.chunk.chunk_id for h in index.search(question, top_k=K,
                                                        variants=plan.texts).hits]
        t0 = time.perf_counter()
        _, report = gather_evidence(index, question, planner=planner, judge=judge, top_k=K)
        ms.append((time.perf_counter() - t0) * 1e3)
        evidence = [h.chunk.chunk_id for h in report.evidence]
        plain_hit += bool(gold & set(plain))
        plain_prec += len(gold & set(plain)) / max(len(plain), 1)
        ev_hit += bool(gold & set(evidence))
        ev_prec += len(gold & set(evidence)) / len(evidence) if evidence else 0.0
        plain_n.append(len(plain))
        ev_n.append(len(evidence))
        rounds.append(report.retrieval_loops)
        queries.append(report.queries_generated)
        stops[report.stop_reason] += 1
    n = len(qids)
    with_ev = sum(1 for x in ev_n if x)
    return {
        "queries": n, "judge": judge_name,
        "plain": {"hit_rate": round(plain_hit / n, 4), "precision": round(plain_prec / n, 4),
                  "mean_passages": round(statistics.mean(plain_n), 2)},
        "evidence": {"hit_rate": round(ev_hit / n, 4),
                     "precision_when_any": round(ev_prec / max(with_ev, 1), 4),
                     "mean_passages": round(statistics.mean(ev_n), 2),
                     "no_evidence": n - with_ev},
        "loop": {"stop_reasons": dict(stops), "mean_rounds": round(statistics.mean(rounds), 3),
                 "mean_queries": round(statistics.mean(queries), 2),
                 "p50_ms": round(statistics.median(ms), 2)},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--judge", choices=["coverage", "cross-encoder"], default="coverage")
    ap.add_argument("--sets", default=",".join(SETS))
    args = ap.parse_args()
    results = {}
    for name in args.sets.split(","):
        try:
            results[name] = run(name, args.sample, args.judge)
        except FileNotFoundError as exc:
            results[name] = {"skipped": str(exc)}
        print(name, json.dumps(results[name], ensure_ascii=False))
    path = Path(__file__).with_name("results") / f"evidence_eval_{args.judge}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
