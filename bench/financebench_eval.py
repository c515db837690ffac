"""FinanceBench, every question, through the PDF ingestion and the Agent a user runs.

    .venv/bin/python bench/financebench_eval.py [FOLDER] [--label after] [--limit N]

FOLDER defaults to ``$RAGSPINE_DATA/financebench``. Each filing is ingested into a fresh
workspace with its ``company`` as metadata and nothing else; the scoring is
:mod:`ragspine_nb.eval.financebench` (the same as ``ragspine-nb eval financebench``).
The run is stored under ``--label`` in ``bench/results/financebench.json``, beside
earlier labels.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ragspine_nb.eval.financebench import evaluate_financebench, report_lines
from ragspine_nb.extract.beir import data_root

RESULTS = Path(__file__).parent / "results" / "financebench.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(data_root() / "financebench"))
    parser.add_argument("--label", default="after")
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    report = evaluate_financebench(args.folder, limit=args.limit)
    print("\n".join(report_lines(report)))
    report["command"] = "bench/financebench_eval.py $RAGSPINE_DATA/financebench " \
                        f"--label {args.label}"
    stored = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.is_file() else {}
    stored[args.label] = report
    RESULTS.write_text(json.dumps(stored, indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    print(f"wrote {RESULTS} [{args.label}]")


if __name__ == "__main__":
    main()
