"""The review's own-folder run: three real 10-Ks in one folder, no profile, no metadata.

    .venv/bin/python bench/own_folder.py [--data $RAGSPINE_DATA] [--json OUT]

3M's 2018 and 2022 10-Ks and Best Buy's FY2023 10-K (``financebench/pdfs``) are copied
into a temporary folder and ingested exactly as the README shows for "your own folder";
then 18 questions — the 16 of ``review-ux-turn3.md`` (its 14-row table and the two number
questions typed into the AskWidget) and two added since (a net sales change, why operating
income fell) — are asked through :class:`~ragspine_nb.Agent`.
Printed per question: the answer's first lines and the documents it cites. Number
questions are scored against the filing's figure (the gold string must appear in the
answer); text and "why" questions are printed to be judged by reading (the closing
notes say which were judged right). Also counted: citations of a filing of a company
the question does not name.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from ragspine_nb import Agent, ingest

FILES = ("3M_2018_10K.pdf", "3M_2022_10K.pdf", "BESTBUY_2023_10K.pdf")
#: (question, the company it names, the figure an answer must state or "" for text)
QUESTIONS: tuple[tuple[str, str, str], ...] = (
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", "3M", "1,577"),
    ("What is the year end FY2018 net PP&E for 3M? Answer in USD billions.", "3M", "8,738"),
    ("Is 3M a capital-intensive business based on FY2022 data?", "3M", ""),
    ("What drove operating margin change as of FY2022 for 3M?", "3M", ""),
    ("If we exclude the impact of M&A, which segment has dragged down 3M's overall growth in "
     "2022?", "3M", ""),
    ("Does Best Buy have consistent gross margins?", "BESTBUY", ""),
    ("What are major acquisitions that Best Buy has done in FY2023, FY2022 and FY2021?",
     "BESTBUY", ""),
    ("Which cash flow activity brought in the most (or lost the least) cash flow for Best Buy "
     "in FY2023?", "BESTBUY", ""),
    ("3M net sales 2022", "3M", "34,229"),
    ("What was the percentage change in 3M net sales from 2021 to 2022?", "3M", "-3.18%"),
    ("What was Best Buy's gross margin in FY2023?", "BESTBUY", "21.41%"),
    ("Why did Best Buy's revenue decrease in FY2023?", "BESTBUY", ""),
    ("3M 2022年归属于3M的净利润是多少？", "3M", "5,777"),
    ("What was 3M's current ratio at the end of 2022?", "3M", "1.54"),
    ("3M capex 2022", "3M", "1,749"),
    ("How did Best Buy's net earnings change from fiscal 2022 to fiscal 2023?", "BESTBUY",
     "-1,035"),
    ("How did 3M net sales change from 2021 to 2022?", "3M", "-1,126"),
    ("Why did 3M's operating income fall in 2022?", "3M", ""),
)


def run(data: Path) -> list[dict[str, object]]:
    """Ingest the three filings in a temporary folder and ask every question."""
    out: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="own_folder_") as tmp:
        folder = Path(tmp) / "my_filings"
        folder.mkdir()
        for name in FILES:
            shutil.copy(data / "financebench" / "pdfs" / name, folder / name)
        t0 = time.perf_counter()
        ingest(folder, workspace=Path(tmp) / "ws")
        print(f"ingest: {time.perf_counter() - t0:.1f} s")
        agent = Agent.from_workspace(Path(tmp) / "ws")
        for question, company, gold in QUESTIONS:
            res = agent.ask(question)
            docs = sorted({c["doc_id"] for c in res.citations})
            other = [d for d in docs if not d.startswith(company)]
            row = {"question": question, "gold": gold, "answer": res.answer, "cited": docs,
                   "other_company": other,
                   "number_right": (gold in res.answer.replace("−", "-")) if gold else None}
            out.append(row)
            print("=" * 78, f"\n{question}\n{res.answer[:600]}\ncited: {docs}"
                  f"{'  OTHER COMPANY: ' + str(other) if other else ''}")
        agent.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path,
                        default=Path(os.environ.get("RAGSPINE_DATA", "../shared/datasets")))
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows = run(args.data)
    numbers = [r for r in rows if r["gold"]]
    right = sum(bool(r["number_right"]) for r in numbers)
    cites = sum(len(r["cited"]) for r in rows)  # type: ignore[arg-type]
    other = sum(len(r["other_company"]) for r in rows)  # type: ignore[arg-type]
    print(f"\nnumbers right: {right} of {len(numbers)}; citations of another company's "
          f"filing: {other} of {cites}; text questions to judge: {len(rows) - len(numbers)}")
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
