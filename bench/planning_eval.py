"""Does query planning help retrieval? BM25 on the question alone vs BM25 over the plan.

    .venv/bin/python bench/planning_eval.py [--sample 0]

For each BEIR-format set in ``$RAGSPINE_DATA`` (SciFact, cmrc2018-chunks,
cmrc2018-retrieval), one BM25 index; arm ``single`` searches the question, arm
``planned`` searches every variant of :class:`RuleQueryPlanner` (original, identifier,
keyword; no profile, no LLM) and fuses the rankings with RRF — what the agent's
narrative channel does. Prints nDCG@10 / Recall@100 per arm, the difference, the mean
number of variants and the query time per question, and writes
``bench/results/planning_eval.json``. The evidence loop is not part of this (it filters
the fused list; it cannot change the ranking measured here). The variant design was
chosen on a tune half of the queries; the held-out half is reported beside it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from sklearn.model_selection import train_test_split

from ragspine_nb.extract.beir import load_beir
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.metrics import evaluate_run
from ragspine_nb.retrieval.planning import RuleQueryPlanner

SETS = ("scifact", "cmrc2018-chunks", "cmrc2018-retrieval")


def run(name: str, sample: int) -> dict[str, Any]:
    ds = load_beir(name)
    qids = list(ds.queries)[:sample] if sample else list(ds.queries)
    ids, texts = ds.doc_texts()
    bm = BM25Index.build(ids, texts)
    qrels = {q: ds.qrels[q] for q in qids}
    t0 = time.perf_counter()
    single = {q: [d for d, _ in r] for q, r in
              zip(qids, bm.search_many([ds.queries[q] for q in qids], 100), strict=True)}
    t_single = time.perf_counter() - t0
    planner = RuleQueryPlanner()
    t0 = time.perf_counter()
    plans = [planner.plan(ds.queries[q]) for q in qids]
    flat = [t for p in plans for t in p.texts]
    ranked = bm.search_many(flat, 100)
    planned, pos = {}, 0
    for q, p in zip(qids, plans, strict=True):
        lists = [[d for d, _ in r] for r in ranked[pos:pos + len(p.texts)]]
        pos += len(p.texts)
        planned[q] = [d for d, _ in rrf_fuse(lists)][:100]
    t_planned = time.perf_counter() - t0
    out: dict[str, Any] = {"queries": len(qids),
                           "mean_variants": round(sum(len(p.texts) for p in plans) / len(plans),
                                                  2)}
    for arm, run_, secs in (("single", single, t_single), ("planned", planned, t_planned)):
        s = evaluate_run(run_, qrels)
        out[arm] = {"ndcg@10": round(s.ndcg, 4), "recall@100": round(s.recall, 4),
                    "ms_per_query": round(secs / len(qids) * 1e3, 3)}
    out["ndcg_delta"] = round(out["planned"]["ndcg@10"] - out["single"]["ndcg@10"], 4)
    # the variant design was chosen on the "tune" half of the queries (identifiers alone,
    # keywords, keywords + identifiers twice); the held-out half is what to believe
    tune, held = train_test_split(qids, test_size=0.5, random_state=20261122)
    for part_name, part in (("tune", tune), ("held_out", held)):
        sub = {q: qrels[q] for q in part}
        out[part_name] = {arm: round(evaluate_run({q: r[q] for q in part}, sub).ndcg, 4)
                          for arm, r in (("single", single), ("planned", planned))}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=0)
    args = ap.parse_args()
    results = {}
    for name in SETS:
        try:
            results[name] = run(name, args.sample)
        except FileNotFoundError as exc:
            results[name] = {"skipped": str(exc)}
        print(name, json.dumps(results[name], ensure_ascii=False))
    path = Path(__file__).with_name("results") / "planning_eval.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
