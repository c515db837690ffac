"""``ragspine-nb ingest``: files and folders into a workspace, with a report every time.

    ragspine-nb ingest reports/ --workspace ws --profile profile.toml --json report.json
    ragspine-nb ingest big.md --workspace ws --max-chunks 5000 --max-file-bytes 50000000

After a batch that wrote something, the workspace's search index is brought up to date
and saved beside ``chunks.db`` (the first question of a new process then loads it
instead of building it): one line on stderr says how long it took.

Exit codes: 0 the batch ran (files that failed are listed with their reasons), 1 the
batch stopped early (a full disk, a read-only workspace) or the JSON report could not
be written: one ``error:`` line on stderr, and the report of what was done is still
printed (and written when possible), 2 bad arguments (a missing file, a bad limit).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from ragspine_nb.core import IngestReport
from ragspine_nb.extract.limits import DEFAULT_LIMITS, IngestLimits
from ragspine_nb.ingestion.workspace import ingest

__all__ = ["add_ingest_parser", "cmd_ingest", "print_report", "LIMIT_OPTIONS"]

#: ``--option`` (underscored) → :class:`~ragspine_nb.extract.limits.IngestLimits` field.
LIMIT_OPTIONS: dict[str, str] = {
    "max_file_bytes": "max_file_bytes", "max_title_chars": "max_title_chars",
    "max_chunks": "max_chunks_per_doc", "max_facts": "max_facts_per_doc",
    "max_cells": "max_cells_per_doc", "max_skipped": "max_skipped_per_doc",
    "max_part_bytes": "max_part_bytes", "max_shared_strings": "max_shared_strings",
    "max_seconds": "max_seconds_per_file", "max_memory": "max_memory_bytes",
}


def print_report(report: IngestReport) -> None:
    """One line per file, then skipped cells, warnings, why the batch stopped, the totals."""
    for f in report.files:
        line = f"  {f.status:<17} {f.doc_id}  facts={f.facts} chunks={f.chunks}"
        if f.skipped:
            line += f" skipped_cells={f.skipped}"
        print(line + (f"  ({f.reason})" if f.reason else ""))
    for s in report.skipped:
        print(f"    skipped {s.doc_id} {s.locator}: {s.reason}")
    for w in report.warnings:
        print(f"  warning: {w}")
    if report.error:
        print(f"  batch stopped early: {report.error}")
    print(f"{report!r} in {report.seconds:.2f} s")


def _write_json(report: IngestReport, out: str) -> str:
    """Write the report as JSON; return why it could not be written ("" when it was)."""
    try:
        Path(out).write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=1),
                             encoding="utf-8")
    except OSError as exc:
        return f"the report was printed but could not be written to {out}: {exc}"
    return ""


def _index(ws_path: Path) -> None:
    """Bring the workspace's BM25 index up to date and save it (one line on stderr)."""
    from ragspine_nb.retrieval.index import NarrativeIndex

    started = time.perf_counter()
    index = NarrativeIndex(ws_path / "chunks.db")
    try:
        n = index.refresh().n_docs
    finally:
        index.store.database.close()
    print(f"search index: {n:,} chunks, up to date in {time.perf_counter() - started:.1f} s",
          file=sys.stderr)


def _limits(args: argparse.Namespace) -> IngestLimits:
    given: dict[str, Any] = {field: getattr(args, opt) for opt, field in LIMIT_OPTIONS.items()
                             if getattr(args, opt) is not None}
    return IngestLimits(**given)


def cmd_ingest(args: argparse.Namespace) -> int:
    """Run ``ragspine-nb ingest``; return the exit code (see the module docstring)."""
    ws_path = Path(args.workspace)
    try:  # no --profile: the workspace's, else the built-in financial profile
        report = ingest(args.paths, workspace=ws_path, profile=args.profile,
                        dry_run=args.dry_run,
                        metadata=args.metadata, progress=sys.stderr.isatty(),
                        limits=_limits(args), workers=args.workers)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print_report(report)
    if not args.dry_run and not report.error and (ws_path / "chunks.db").is_file():
        _index(ws_path)
    unwritten = _write_json(report, args.json) if args.json else ""
    if report.error or unwritten:
        print(f"error: {report.error or unwritten}", file=sys.stderr)
        return 1
    return 0


def add_ingest_parser(sub: Any) -> None:
    """Add the ``ingest`` subcommand to the CLI's subparsers."""
    p = sub.add_parser("ingest", help="ingest report files or folders into a workspace")
    p.add_argument("paths", nargs="+")
    p.add_argument("--workspace", default="ws")
    p.add_argument("--profile", help="profile file (default: <workspace>/profile.*, else the "
                   "built-in financial profile)")
    p.add_argument("--metadata", help="per-document metadata (TOML/JSON/YAML)")
    p.add_argument("--dry-run", action="store_true", help="read and report, write nothing")
    p.add_argument("--json", metavar="OUT", help="also write the report as JSON to OUT")
    p.add_argument("--workers", type=int, metavar="N",
                   help="worker processes reading files at once (default: one per core, at "
                        "most 4, for a folder of 2 MB or more; else one)")
    for opt, field in LIMIT_OPTIONS.items():
        p.add_argument(f"--{opt.replace('_', '-')}", type=int, metavar="N",
                       help=f"limit per document (default {getattr(DEFAULT_LIMITS, field):,})")
    p.set_defaults(func=cmd_ingest)
