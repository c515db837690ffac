"""Public filings are never locked away: classify every FinanceBench PDF through the reader.

Each PDF goes through :func:`~ragspine_nb.extract.document.read_document` (the real
reader: text layer, layout-judged marking lines, annotations, tables) with the built-in
profile and the demo profile; the label and the classifier's reason are printed, then
the counts. A public filing must come out INTERNAL (the default level), never RESTRICTED.

    .venv/bin/python bench/sensitivity_filings.py $RAGSPINE_DATA/financebench/pdfs
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from ragspine_nb import DomainProfile
from ragspine_nb.extract.document import read_document

DEMO = Path(__file__).resolve().parents[1] / "ragspine_nb" / "demo" / "profile.toml"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="folder of PDFs (financebench/pdfs)")
    args = parser.parse_args()
    profiles = {"builtin": DomainProfile.builtin(), "demo": DomainProfile.from_file(DEMO)}
    counts: dict[str, Counter[str]] = {name: Counter() for name in profiles}
    for pdf in sorted(args.folder.glob("*.pdf")):
        labels = []
        for name, profile in profiles.items():
            start = time.perf_counter()
            result = read_document(pdf, pdf.name, profile)
            why = [w for w in result.warnings if w.startswith("sensitivity")]
            counts[name][result.sensitivity] += 1
            labels.append(f"{name}={result.sensitivity} ({time.perf_counter() - start:.1f} s)"
                          + (f" {why[0]}" if why else ""))
        print(f"{pdf.name:45s} " + "  ".join(labels), flush=True)
    for name, counter in counts.items():
        print(f"{name}: {dict(counter)}")
    return 1 if any(c["RESTRICTED"] for c in counts.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
