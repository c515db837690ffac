"""The retrieval lab on FinanceBench: evidence pages as page-level judgments, per channel.

    .venv/bin/python bench/financebench_lab.py WORKSPACE [--data FOLDER] [--embedding e5]
        [--embedding-cache PATH] [--folds 5] [--label NAME]

WORKSPACE is the dev filings as a user's folder: every PDF of ``FOLDER/pdfs`` in ONE
workspace, no metadata (``ragspine-nb ingest $RAGSPINE_DATA/financebench/pdfs --workspace
WS``). ``FOLDER`` defaults to ``$RAGSPINE_DATA/financebench``.

What a user of notebook 02 does, with FinanceBench's evidence pages as the judgments:

* each question becomes a query, and the evidence pages of its own filing are judged
  relevant with :meth:`Judgments.add_pages` (grade 2; every chunk of the page: a
  page-level judgment expanded, as the lab says);
* ``index.tune(judgments)`` builds the TuningPanel over the workspace's
  :class:`NarrativeIndex` (with ``--embedding e5``, its vector runs: every chunk is
  embedded once, with a progress bar, and cached in ``--embedding-cache``);
* the panel's engine scores each channel (bm25, vectors, hybrid) at the default setting,
  the auto-tune grid (:func:`default_grid`) and a ``--folds``-fold cross-validated
  auto-tune whose held-out gain is what a new question may expect — against the default
  BM25 setting, and with vectors against the default hybrid too.

Measures are ir_measures' (chunk level): ``R@10`` is the share of a query's judged chunks
in its top 10 (a page has several chunks, so it is low by construction), ``nDCG@10`` and
``RR``; ``page hit@10`` is the share of questions with a chunk of an evidence page in the
top 10 (``RR@10 > 0``), the figure ``bench/financebench_retrieval.py`` reports as page
recall when a question has one evidence page. The lab searches the question as written
(no glossary variants, no company filter): it measures the index, not the agent.
Writes ``bench/results/financebench_lab.json`` under ``--label``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from ragspine_nb.eval.financebench import load_financebench
from ragspine_nb.ingestion.workspace import Workspace
from ragspine_nb.retrieval import Judgments, NarrativeIndex
from ragspine_nb.retrieval.autotune import auto_tune, default_grid
from ragspine_nb.retrieval.lab import LabSetting, per_query
from ragspine_nb.retrieval.tuning import TuningEngine

RESULTS = Path(__file__).parent / "results" / "financebench_lab.json"
MEASURES = ("R@10", "nDCG@10", "RR", "RR@10")


def judgments_of(root: Path, chunks: list[Any]) -> tuple[Judgments, list[str]]:
    """Each question with its own filing's evidence pages judged (and the questions left out)."""
    judged = Judgments()
    docs = {c.doc_id for c in chunks}
    missing = []
    for q in load_financebench(root):
        doc = f"{q.doc_name}.pdf"
        if doc not in docs or not judged.add_pages(q.qid, [(doc, p) for p in q.pages], chunks,
                                                   relevance=2, query=q.question):
            missing.append(q.qid)
    return judged, missing


def scores(engine: TuningEngine, s: LabSetting) -> dict[str, float]:
    """The mean of each measure, with ``page hit@10`` from ``RR@10``."""
    values = per_query(engine, s, MEASURES)
    out = {m: round(float(values[m].mean()), 4) for m in MEASURES if m != "RR@10"}
    out["page hit@10"] = round(float((values["RR@10"] > 0).mean()), 4)
    return out


def run(ws: Path, root: Path, embedding: str | None, cache: Path | None, folds: int
        ) -> dict[str, Any]:
    """Every figure of one run (see the module docstring)."""
    w = Workspace(ws)
    index = NarrativeIndex(w.chunks, profile=w.profile, embedding_backend=embedding,
                           embedding_cache=cache)
    chunks = list(w.chunks.iter_chunks())
    judged, missing = judgments_of(root, chunks)
    t0 = time.perf_counter()
    engine: TuningEngine = index.tune(judged).engine
    build_s = time.perf_counter() - t0
    base = LabSetting(k1=index.k1, b=index.b, rrf_k=int(index.rrf_k))
    channels = {c: scores(engine, base.with_(channel=c)) for c in engine.channels()}
    grid = default_grid(engine, base)
    scored = sorted(((scores(engine, s), s.label()) for s in grid),
                    key=lambda r: -r[0]["nDCG@10"])
    per_setting: list[dict[str, Any]] = [{"setting": label, **sc} for sc, label in scored]
    tuned = {c: _tuned(engine, base.with_(channel=c), grid, folds)
             for c in ("bm25", "hybrid") if c in engine.channels()}
    return {"date": date.today().isoformat(), "workspace_chunks": len(chunks),
            "questions": len(judged), "questions_without_judged_chunk": missing,
            "judged_chunks": judged.n_judgments, "embedding": embedding,
            "engine_build_s": round(build_s, 1), "baseline": base.label(),
            "channels": channels, "settings": per_setting, "auto_tune": tuned}


def _tuned(engine: TuningEngine, baseline: LabSetting, grid: list[LabSetting], folds: int
           ) -> dict[str, Any]:
    """Auto-tune over ``grid`` against ``baseline``: the held-out gain and the best setting."""
    t = auto_tune(engine, baseline, measure="nDCG@10", settings=grid, folds=folds)
    return {"baseline": baseline.label(), "settings": len(grid), "seconds": round(t.seconds, 1),
            "best": t.best.label(), "best_all": round(max(t.means), 4),
            "baseline_all": round(t.baseline_mean, 4), "folds": folds,
            "heldout_gain": round(t.heldout_gain, 4), "train_gain": round(t.train_gain, 4),
            "fold_heldout": [round(f.heldout_gain, 4) for f in t.folds],
            "best_scores": scores(engine, t.best)}


def report(r: dict[str, Any]) -> list[str]:
    """The printed summary."""
    lines = [f"{r['questions']} questions, {r['judged_chunks']} judged chunks "
             f"(page-level, expanded) in {r['workspace_chunks']} chunks; "
             f"{len(r['questions_without_judged_chunk'])} questions with no chunk on an "
             f"evidence page; baseline {r['baseline']}"]
    lines += [f"  {c:8s} " + "  ".join(f"{m} {v:.3f}" for m, v in s.items())
              for c, s in r["channels"].items()]
    lines.append("top settings by nDCG@10:")
    lines += [f"  {s['setting']:62s} nDCG@10 {s['nDCG@10']:.3f}  R@10 {s['R@10']:.3f}  "
              f"page hit@10 {s['page hit@10']:.3f}" for s in r["settings"][:5]]
    lines += [f"auto-tune against {a['baseline']}: {a['settings']} settings in {a['seconds']} s; "
              f"best on all questions {a['best']} (nDCG@10 {a['best_all']} vs "
              f"{a['baseline_all']}); {a['folds']}-fold held-out gain {a['heldout_gain']:+.4f} "
              f"(training folds {a['train_gain']:+.4f}; per fold {a['fold_heldout']})"
              for a in r["auto_tune"].values()]
    return lines


def main() -> None:
    """Parse the arguments, run, print and record under ``--label``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--data", type=Path, default=Path(os.environ.get(
        "RAGSPINE_DATA", "../shared/datasets")) / "financebench")
    ap.add_argument("--embedding", default=None, help="e5 adds the vectors and hybrid channels")
    ap.add_argument("--embedding-cache", type=Path, default=None)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--label", default="latest")
    args = ap.parse_args()
    if not (args.workspace / "chunks.db").is_file():
        sys.exit(f"{args.workspace} is no workspace: ragspine-nb ingest "
                 f"{args.data / 'pdfs'} --workspace {args.workspace}")
    r = run(args.workspace, args.data, args.embedding, args.embedding_cache, args.folds)
    print("\n".join(report(r)))
    done = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    done[args.label] = {**r, "settings": r["settings"][:10],
                        "load": round(os.getloadavg()[0], 2),
                        "numpy": np.__version__}
    RESULTS.write_text(json.dumps(done, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
