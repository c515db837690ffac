"""Throughput of the security gate: 10,000 questions screened with the demo profile.

    .venv/bin/python bench/gate_speed.py [--n 10000] [--repeat 3]

The questions cycle through the demo golden set's questions (refused and allowed ones)
and a few long ones, each made distinct by a numbered suffix so no cache helps. The
gate is built once (as the intent parser does); the figure is the best of ``--repeat``
runs, in microseconds per question. Nothing is written.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ragspine_nb import DomainProfile
from ragspine_nb.agent import SecurityGate

DEMO = Path(__file__).resolve().parents[1] / "ragspine_nb" / "demo"
EXTRA = [
    "What was ACME capital expenditure in FY2025 compared with 2024H1 and 1H2023?",
    "Our main rival—is it gaining share in Hong Kong and Mainland China this year?",
    "参与竞，安排如何？静安区门店2025年上半年的营收是多少，与2024年相比变化如何？",
    "R1v4l1s revenue FY2025",
    "How did bancassurance new sales, agency channel productivity and ROE change in FY2025? "
    * 3,
]


def questions(n: int) -> list[str]:
    """``n`` distinct questions from the golden set and :data:`EXTRA`."""
    base = [json.loads(line)["question"]
            for line in (DEMO / "golden.jsonl").read_text("utf-8").splitlines() if line.strip()]
    base += EXTRA
    return [f"{base[i % len(base)]} ({i})" for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    t0 = time.perf_counter()
    gate = SecurityGate.from_profile(DomainProfile.from_file(DEMO / "profile.toml"))
    gate.screen(raw_question="warm-up")  # loads the confusables and OpenCC tables
    build_s = time.perf_counter() - t0
    qs = questions(args.n)
    best, refused = float("inf"), 0
    for _ in range(args.repeat):
        t = time.perf_counter()
        refused = sum(gate.screen(raw_question=q).refused for q in qs)
        best = min(best, time.perf_counter() - t)
    print(json.dumps({"questions": len(qs), "refused": refused,
                      "seconds": round(best, 3), "us_per_question": round(best / len(qs) * 1e6, 1),
                      "gate_build_and_tables_s": round(build_s, 3)}))


if __name__ == "__main__":
    main()
