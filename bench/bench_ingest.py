"""Batch ingestion throughput on copies of the demo corpus (real pptx/xlsx/docx/pdf files).

No peer runs here: the public RAGSpine package needs Python >= 3.12 and its own
extractor stack, so this script reports our own figures only — files/s, facts/s,
chunks/s for a cold ingest, and the time of an unchanged re-ingest (hash check only).

    .venv/bin/python bench/bench_ingest.py [--copies 50]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from ragspine_nb import ingest

DEMO = Path(__file__).resolve().parents[1] / "ragspine_nb" / "demo"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--copies", type=int, default=50)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    corpus = tmp / "corpus"
    for i in range(args.copies):
        shutil.copytree(DEMO / "reports", corpus / f"copy{i:03d}")
    kwargs = dict(workspace=tmp / "ws", profile=DEMO / "profile.toml", progress=False)
    t0 = time.perf_counter()
    cold = ingest(corpus, **kwargs)  # type: ignore[arg-type]
    cold_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    warm = ingest(corpus, **kwargs)  # type: ignore[arg-type]
    warm_s = time.perf_counter() - t0
    files = len(cold.files)
    # every copy restates the same facts: the first is stored, the rest are reported
    read = cold.facts + sum("already stated" in s.reason for s in cold.skipped)
    result = {
        "copies": args.copies, "files": files, "facts": cold.facts, "chunks": cold.chunks,
        "cold_seconds": round(cold_s, 2), "files_per_s": round(files / cold_s, 1),
        "fact_cells_read": read, "fact_cells_per_s": round(read / cold_s, 1),
        "unchanged_reingest_seconds": round(warm_s, 2),
        "unchanged_skipped": warm.count("skipped_unchanged"),
    }
    print(f"cold ingest: {files} files, {read} fact cells read ({cold.facts} stored, the rest "
          f"duplicates reported), {cold.chunks} chunks in {cold_s:.2f} s "
          f"({files / cold_s:.1f} files/s, {read / cold_s:.0f} fact cells/s)")
    print(f"unchanged re-ingest: {warm.count('skipped_unchanged')}/{files} skipped in "
          f"{warm_s:.2f} s")
    out = Path(__file__).parent / "results" / "ingest.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
