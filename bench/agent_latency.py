"""Latency of Agent.ask on the demo workspace (MockProvider, offline), per route.

    .venv/bin/python bench/agent_latency.py [--n 300]

No peer runs here (the public RAGSpine needs Python >= 3.12 and its own stack); its
published figure for an end-to-end composite answer with its mock is 1.9 ms on an
Apple M1 Pro, which is quoted for context only (different machine and corpus).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from ragspine_nb import Agent
from ragspine_nb.cli import build_demo

QUESTIONS = {
    "structured": "What was ACME Hong Kong's revenue in FY2025?",
    "structured_zh": "集团2025年上半年营收多少？",
    "multi": "香港2024年和2025年的营业收入对比",
    "narrative": "What happened to bancassurance sales in Mainland China?",
    "composite": "Why did Mainland China revenue fall in FY2025?",
    "refusal": "竞安2025年的营收是多少？",
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    args = ap.parse_args()
    ws_path = Path(tempfile.mkdtemp()) / "ws"
    build_demo(ws_path)
    agent = Agent.from_workspace(ws_path)
    ref = date(2026, 3, 31)
    out = {}
    for name, q in QUESTIONS.items():
        agent.ask(q, ref)  # warm: index build, caches
        lat = []
        for _ in range(args.n):
            t = time.perf_counter()
            agent.ask(q, ref)
            lat.append((time.perf_counter() - t) * 1e3)
        lat.sort()
        out[name] = {"p50_ms": statistics.median(lat), "p99_ms": lat[int(0.99 * (len(lat) - 1))]}
        print(f"{name:<14} p50 {out[name]['p50_ms']:7.2f} ms   p99 {out[name]['p99_ms']:7.2f} ms"
              f"   ({args.n} runs)")
    (Path(__file__).parent / "results").mkdir(exist_ok=True)
    (Path(__file__).parent / "results" / "agent_latency.json").write_text(
        json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
