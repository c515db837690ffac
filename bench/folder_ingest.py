"""A folder of filings ingested with one reading worker and with several, in one run.

Both ingest the same folder into fresh workspaces through :func:`ragspine_nb.ingest` (as
``ragspine-nb ingest`` does, progress off), then the facts, chunks and document
identities of the two workspaces are compared (they must be equal). Prints wall seconds,
the ratio and the machine's load.

    .venv/bin/python bench/folder_ingest.py $RAGSPINE_DATA/financebench/pdfs --workers 2 \
        --out bench/results/folder_ingest.json
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from ragspine_nb import ingest
from ragspine_nb.ingestion.workspace import Workspace


def _state(ws: Path) -> tuple[Any, ...]:
    with Workspace(ws) as w:
        facts = sorted((f.source_doc_id, f.source_locator, f.metric_code, f.entity, f.period,
                        f.channel, f.value, f.unit) for f in w.facts.iter_facts())
        chunks = sorted((c.doc_id, c.source_locator, c.text) for c in w.chunks.iter_chunks())
        return facts, chunks, w.facts.document_identities()


def run(folder: Path, workers: int) -> dict[str, Any]:
    """Seconds of both ingests, what they wrote, and whether it is the same."""
    out: dict[str, Any] = {"folder": folder.name, "files": len(list(folder.iterdir())),
                           "bytes": sum(p.stat().st_size for p in folder.iterdir()),
                           "cpus": os.cpu_count(), "load_before": os.getloadavg()[0]}
    states = []
    with tempfile.TemporaryDirectory(prefix="folder_ingest_") as tmp:
        for n in (1, workers):
            ws = Path(tmp) / f"ws{n}"
            t = time.perf_counter()
            report = ingest(folder, workspace=ws, progress=False, workers=n)
            out[f"seconds_{n}"] = round(time.perf_counter() - t, 1)
            out[f"facts_{n}"] = sum(r.facts for r in report.files)
            out[f"chunks_{n}"] = sum(r.chunks for r in report.files)
            states.append(_state(ws))
    out["same_facts_chunks_identities"] = states[0] == states[1]
    out["ratio"] = round(out["seconds_1"] / out[f"seconds_{workers}"], 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    result = run(args.folder, args.workers)
    print(f"{result['files']} files, {result['bytes'] / 2**20:.0f} MB: one worker "
          f"{result['seconds_1']} s, {args.workers} workers {result[f'seconds_{args.workers}']}"
          f" s ({result['ratio']}x); same facts, chunks and identities: "
          f"{result['same_facts_chunks_identities']} (load before {result['load_before']:.2f},"
          f" {result['cpus']} cpus)")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
