"""PDF ingestion speed and yield: the pypdf text-only path against ours (pypdfium2).

Runs both on the same filings in one process, one thread: pages, seconds, facts and
chunks, and the ratio. ``ours`` is the full ingest a user runs (text, tables into facts,
chunks, SQLite stores, BM25 index on first search); ``pypdf text`` is ``PdfReader`` page
text only (what this project used before, with no facts).

    .venv/bin/python bench/pdf_ingest.py $RAGSPINE_DATA/financebench/pdfs/3M_2018_10K.pdf \
        --out bench/results/pdf_ingest.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from ragspine_nb import Agent
from ragspine_nb.ingestion.workspace import ingest


def pypdf_text(path: Path) -> tuple[float, int, int]:
    """Seconds, pages and characters of pypdf's page text."""
    from pypdf import PdfReader

    t = time.perf_counter()
    pages = [p.extract_text() or "" for p in PdfReader(str(path)).pages]
    return time.perf_counter() - t, len(pages), sum(len(p) for p in pages)


def ours(path: Path) -> dict[str, float]:
    """Seconds of a full ingest (and of the first search), facts and chunks written."""
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        shutil.copy(path, docs / path.name)
        t = time.perf_counter()
        report = ingest(docs, workspace=Path(tmp) / "ws", progress=False)
        ingest_s = time.perf_counter() - t
        agent = Agent.from_workspace(Path(tmp) / "ws")
        t = time.perf_counter()
        agent.index.search("capital expenditure", 5)
        first_search_s = time.perf_counter() - t
        agent.store.close()
        return {"ingest_s": round(ingest_s, 3), "first_search_s": round(first_search_s, 3),
                "facts": report.facts, "chunks": report.chunks}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", nargs="+", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rows = []
    for path in args.pdfs:
        seconds, pages, chars = pypdf_text(path)
        mine = ours(path)
        total = mine["ingest_s"] + mine["first_search_s"]
        row = {"file": path.name, "pages": pages, "pypdf_text_s": round(seconds, 3),
               "pypdf_chars": chars, **mine, "ours_total_s": round(total, 3),
               "speedup_vs_pypdf_text": round(seconds / total, 2)}
        rows.append(row)
        print(json.dumps(row))
    if args.out:
        args.out.write_text(json.dumps({"runs": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
