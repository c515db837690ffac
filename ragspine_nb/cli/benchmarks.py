"""``ragspine-nb eval beir|tatqa|financebench``: public benchmarks through the user's path.

Each command ingests the benchmark's documents as a user's folder and asks every question
of the split through the same ingestion and :class:`~ragspine_nb.agent.agent.Agent`; the
scores, and a JSON report when asked, come from what the answers state. ``eval qa`` (the
golden gates of a workspace) is added to the same ``eval`` command by
:mod:`ragspine_nb.cli.commands`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TypeAlias

from ragspine_nb.errors import RagspineError

__all__ = ["add_eval_parser"]

#: The subcommands of a parser (what ``add_subparsers()`` returns).
_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def _cmd_eval_beir(args: argparse.Namespace) -> int:
    from ragspine_nb.eval.retrieval import evaluate_beir

    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    table = evaluate_beir(args.folder, arms, embedding=args.embedding, sample=args.sample)
    for arm, m in table.items():
        print(f"{arm:<8} nDCG@10 {m['ndcg@10']:.4f}  Recall@100 {m['recall@100']:.4f}  "
              f"MRR@10 {m['mrr@10']:.4f}  ({m['queries']} queries)")
    if args.json:
        Path(args.json).write_text(json.dumps(table, indent=1), encoding="utf-8")
        Path(args.json).with_suffix(".html").write_text(table._repr_html_(), encoding="utf-8")
    return 0


def _cmd_eval_tatqa(args: argparse.Namespace) -> int:
    from ragspine_nb.eval.tatqa.evaluate import evaluate_tatqa
    from ragspine_nb.retrieval.vectors import make_embedding_backend

    if not Path(args.path).is_file():
        raise RagspineError(f"TAT-QA split not found: {args.path}")
    if args.workers < 1:
        raise RagspineError(f"--workers must be at least 1, got {args.workers}")
    result = evaluate_tatqa(args.path, embedding_backend=make_embedding_backend(args.embedding),
                            limit=args.limit, workers=args.workers, half=args.half)
    print("\n".join(result.lines()))
    if args.json:
        Path(args.json).write_text(json.dumps(result.to_dict(), indent=1, ensure_ascii=False),
                                   encoding="utf-8")
        Path(args.json).with_suffix(".html").write_text(result._repr_html_(), encoding="utf-8")
    return 0


def _cmd_eval_financebench(args: argparse.Namespace) -> int:
    from ragspine_nb.eval.financebench import evaluate_financebench, report_lines

    folder = Path(args.folder)
    if not (folder / "questions.jsonl").is_file() or not (folder / "pdfs").is_dir():
        raise RagspineError(f"FinanceBench folder not found or incomplete: {folder} (expected "
                     "questions.jsonl, documents.jsonl and pdfs/)")
    report = evaluate_financebench(folder, limit=args.limit, shared=args.shared)
    print("\n".join(report_lines(report)))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False),
                                   encoding="utf-8")
    return 0


def add_eval_parser(sub: _Subparsers) -> _Subparsers:
    """``ragspine-nb eval`` with beir, tatqa and financebench; returns its subparsers."""
    ev = sub.add_parser("eval", help="evaluate: qa (golden gates) or beir (retrieval)")
    ev_sub = ev.add_subparsers(dest="eval_command", required=True)
    p = ev_sub.add_parser("beir", help="retrieval metrics on a BEIR-format folder")
    p.add_argument("folder")
    p.add_argument("--arms", default="bm25", help="comma-separated: bm25,vector,hybrid")
    p.add_argument("--embedding", default="e5", help="embedding backend spec for vector arms")
    p.add_argument("--sample", type=int, default=0, help="use only the first N queries")
    p.add_argument("--json", metavar="OUT")
    p.set_defaults(func=_cmd_eval_beir)
    _add_tatqa_parser(ev_sub)
    p = ev_sub.add_parser("financebench", help="every FinanceBench question through the "
                                               "PDF ingestion and the Agent, scored")
    p.add_argument("folder", help="a folder with questions.jsonl, documents.jsonl and pdfs/")
    p.add_argument("--limit", type=int, default=0, help="only the first N filings")
    p.add_argument("--shared", action="store_true", help="all filings in one workspace")
    p.add_argument("--json", metavar="OUT", help="write the report as JSON")
    p.set_defaults(func=_cmd_eval_financebench)
    return ev_sub


def _add_tatqa_parser(ev_sub: _Subparsers) -> None:
    """``ragspine-nb eval tatqa``."""
    p = ev_sub.add_parser("tatqa", help="every question of a TAT-QA split through ingestion "
                                        "and the Agent, scored from the figures answers assert")
    p.add_argument("path")
    p.add_argument("--embedding", default="none",
                   help="embedding backend spec for hybrid text-span retrieval (e.g. e5)")
    p.add_argument("--limit", type=int, default=0, help="only the first N contexts")
    p.add_argument("--half", choices=("all", "tune", "check"), default="all",
                   help="score even (tune) or odd (check) contexts only: develop on one half, "
                        "check on the other")
    p.add_argument("--workers", type=int, default=1,
                   help="processes answering contexts at once (the figures do not depend on it)")
    p.add_argument("--json", metavar="OUT", help="write the report as JSON (and OUT.html)")
    p.set_defaults(func=_cmd_eval_tatqa)
