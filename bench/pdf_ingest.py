"""PDF ingestion speed and yield: ours (pypdfium2) against pypdfium2's and pypdf's plain text.

Runs on the same filings in one process, one thread: pages, seconds, facts and chunks,
and the ratios. ``ours`` is the full ingest a user runs (text, tables into facts,
chunks, SQLite stores, BM25 index on first search); ``pypdfium2 text`` is the same
library's page text and nothing else (``get_text_range`` per page: the floor for any
tool built on it; issue 38 asks ours to stay within 2x of it); ``pypdfium2 boxes`` is
that page text plus every character's box (``get_charbox``: what a layout reader of the
same library needs; issue 38 asks ours within 1.5x of it); ``pypdf text`` is
``PdfReader`` page text only (what this project used before, with no facts; slow, so
``--no-pypdf`` leaves it out). The readers are imported before the first file is timed.

    .venv/bin/python bench/pdf_ingest.py $RAGSPINE_DATA/financebench/pdfs/3M_2018_10K.pdf \
        --out bench/results/pdf_ingest.json
    .venv/bin/python bench/pdf_ingest.py $RAGSPINE_DATA/financebench/pdfs/*.pdf --no-pypdf
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
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


def pdfium_text(path: Path) -> tuple[float, int, int]:
    """Seconds, pages and characters of pypdfium2's page text."""
    import pypdfium2 as pdfium

    t = time.perf_counter()
    doc, chars = pdfium.PdfDocument(str(path)), 0
    for page in doc:
        text = page.get_textpage()
        chars += len(text.get_text_range())
        text.close()
        page.close()
    pages = len(doc)
    doc.close()
    return time.perf_counter() - t, pages, chars


def pdfium_boxes(path: Path) -> float:
    """Seconds of pypdfium2's page text and every character's box (``get_charbox``)."""
    import pypdfium2 as pdfium

    t = time.perf_counter()
    doc = pdfium.PdfDocument(str(path))
    for page in doc:
        text = page.get_textpage()
        text.get_text_range()
        for i in range(text.count_chars()):
            text.get_charbox(i)
        text.close()
        page.close()
    doc.close()
    return time.perf_counter() - t


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


def _warm_up() -> None:
    """Import every reader an ingest of a PDF loads, so no file pays for it."""
    import pypdfium2  # noqa: F401

    import ragspine_nb.extract.pdf  # noqa: F401
    import ragspine_nb.ingestion.batch  # noqa: F401


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", nargs="+", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--no-pypdf", action="store_true", help="leave pypdf's text out (slow)")
    args = ap.parse_args()
    _warm_up()
    rows = []
    for path in args.pdfs:
        floor, pages, chars = pdfium_text(path)
        boxes = pdfium_boxes(path)
        mine = ours(path)
        row: dict[str, object] = {"file": path.name, "pages": pages,
                                  "pdfium_text_s": round(floor, 3), "pdfium_chars": chars,
                                  "pdfium_boxes_s": round(boxes, 3),
                                  **mine, "ours_over_pdfium_text": round(
                                      mine["ingest_s"] / floor, 2),
                                  "ours_over_pdfium_boxes": round(mine["ingest_s"] / boxes, 2)}
        if not args.no_pypdf:
            seconds, _, pychars = pypdf_text(path)
            row.update(pypdf_text_s=round(seconds, 3), pypdf_chars=pychars,
                       speedup_vs_pypdf_text=round(seconds / mine["ingest_s"], 2))
        rows.append(row)
        print(json.dumps(row))
    ours_s = sum(float(r["ingest_s"]) for r in rows)  # type: ignore[arg-type]
    floor_s = sum(float(r["pdfium_text_s"]) for r in rows)  # type: ignore[arg-type]
    boxes_s = sum(float(r["pdfium_boxes_s"]) for r in rows)  # type: ignore[arg-type]
    ratios = [float(r["ours_over_pdfium_text"]) for r in rows]  # type: ignore[arg-type]
    summary = {"files": len(rows), "ours_ingest_s": round(ours_s, 1),
               "pdfium_text_s": round(floor_s, 1), "ours_over_pdfium_text": round(
                   ours_s / floor_s, 2), "per_file_ratio_median": statistics.median(ratios),
               "per_file_ratio_max": max(ratios), "pdfium_boxes_s": round(boxes_s, 1),
               "ours_over_pdfium_boxes": round(ours_s / boxes_s, 2)}
    print(json.dumps(summary))
    if args.out:
        args.out.write_text(json.dumps({"runs": rows, "summary": summary}, indent=1) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
