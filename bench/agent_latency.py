"""Latency of Agent.ask on the demo workspace (MockProvider, offline), per route.

    .venv/bin/python bench/agent_latency.py [--n 300] [--rounds 3] [--steps]

Each route's question is asked ``--n`` times per round after one warm-up ask; the p50
reported is the median of the rounds' p50s (p99 likewise), and every round's p50 is
kept in ``bench/results/agent_latency.json``. ``--steps`` adds a per-step breakdown
(inclusive ``perf_counter`` wrappers around the agent's named steps, microseconds per
ask), which is how the time was found; wrappers add a little time of their own.

The peer (the public RAGSpine) needs Python >= 3.12 and cannot run here, so its bar on
this machine is derived from the performance review (2026-11-23, this 2-core box), which
measured our p50 and quoted the issue's ratio to the peer: peer = review p50 / ratio.
Structured 0.32 ms / 0.49 = 0.65 ms, narrative 1.65 / 1.16 = 1.42 ms, composite
1.79 / 1.14 = 1.57 ms. A ratio below 1 here is faster than that bar. Other jobs on the
machine move these figures; run it more than once.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb import Agent
from ragspine_nb.cli.commands import build_demo

QUESTIONS = {
    "structured": "What was ACME Hong Kong's revenue in FY2025?",
    "structured_zh": "集团2025年上半年营收多少？",
    "multi": "香港2024年和2025年的营业收入对比",
    "narrative": "What happened to bancassurance sales in Mainland China?",
    "composite": "Why did Mainland China revenue fall in FY2025?",
    "refusal": "竞安2025年的营收是多少？",
}
#: The review's p50 (ms) and the issue's ratio to the peer, per route.
REVIEW = {"structured": (0.32, 0.49), "narrative": (1.65, 1.16), "composite": (1.79, 1.14)}
#: The peer's implied p50 on this machine (ms): review p50 / ratio.
PEER_BAR_MS = {route: p50 / ratio for route, (p50, ratio) in REVIEW.items()}
REFERENCE_DATE = date(2026, 3, 31)


def _steps() -> list[tuple[Any, str, str]]:
    """``(owner, attribute, label)`` of the steps the breakdown times (inclusive)."""
    import ragspine_nb.agent.pipeline as pipeline_mod
    import ragspine_nb.agent.run as run_mod
    from ragspine_nb.agent.narrative.grounding import Grounder
    from ragspine_nb.agent.providers import MockProvider
    from ragspine_nb.agent.reading.intent import RuleIntentParser
    from ragspine_nb.retrieval.evidence import TermCoverageJudge
    from ragspine_nb.retrieval.index import NarrativeIndex
    from ragspine_nb.retrieval.planning import RuleQueryPlanner
    from ragspine_nb.retrieval.retriever import NarrativeIndexRetriever

    return [(pipeline_mod, "start_run", "start_run (parse, gate, clarify, grounder)"),
            (RuleIntentParser, "parse", "  intent.parse"),
            (run_mod, "clarify_scope", "  clarify_scope"),
            (Grounder, "__init__", "  Grounder()"),
            (NarrativeIndexRetriever, "retrieve", "retriever.retrieve"),
            (RuleQueryPlanner, "plan", "  planner.plan"),
            (NarrativeIndex, "search_many", "  NarrativeIndex.search_many"),
            (TermCoverageJudge, "score", "  TermCoverageJudge.score"),
            (MockProvider, "create_message", "MockProvider.create_message"),
            (Grounder, "ground", "Grounder.ground")]


@contextmanager
def _timed_steps(acc: dict[str, list[float]]) -> Iterator[None]:
    """Wrap each step so that its calls add ``[seconds, calls]`` to ``acc``; unwrap after."""
    saved = []
    for owner, attr, label in _steps():
        original = getattr(owner, attr)

        def wrapper(*a: Any, _f: Callable[..., Any] = original, _k: str = label,
                    **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return _f(*a, **kw)
            finally:
                acc[_k][0] += time.perf_counter() - t
                acc[_k][1] += 1

        saved.append((owner, attr, original))
        setattr(owner, attr, wrapper)
    try:
        yield
    finally:
        for owner, attr, original in reversed(saved):
            setattr(owner, attr, original)


def _latencies(agent: Agent, question: str, n: int) -> tuple[list[float], list[float]]:
    """``n`` asks of ``question`` after one warm-up ask: wall and CPU milliseconds, sorted.

    The CPU time (this process's) does not count the time other jobs held the cores.
    """
    agent.ask(question, REFERENCE_DATE)  # warm: index build, caches
    wall, cpu = [], []
    for _ in range(n):
        t, c = time.perf_counter(), time.process_time()
        agent.ask(question, REFERENCE_DATE)
        wall.append((time.perf_counter() - t) * 1e3)
        cpu.append((time.process_time() - c) * 1e3)
    return sorted(wall), sorted(cpu)


def measure(agent: Agent, n: int, rounds: int) -> dict[str, dict[str, Any]]:
    """Per route: p50 and p99 (medians over rounds), each round's p50, the peer ratio."""
    runs: dict[str, list[tuple[list[float], list[float]]]] = {name: [] for name in QUESTIONS}
    for _ in range(rounds):  # rounds interleave the routes: a busy spell hits them all
        for name, question in QUESTIONS.items():
            runs[name].append(_latencies(agent, question, n))
    out: dict[str, dict[str, Any]] = {}
    for name, lats in runs.items():
        p50 = statistics.median(statistics.median(wall) for wall, _ in lats)
        p99 = statistics.median(wall[int(0.99 * (len(wall) - 1))] for wall, _ in lats)
        cpu = statistics.median(statistics.median(c) for _, c in lats)
        bar = PEER_BAR_MS.get(name)
        out[name] = {"p50_ms": round(p50, 4), "p99_ms": round(p99, 4),
                     "cpu_p50_ms": round(cpu, 4),
                     "round_p50_ms": [round(statistics.median(w), 4) for w, _ in lats],
                     "peer_bar_ms": round(bar, 4) if bar else None,
                     "ratio_to_peer": round(p50 / bar, 3) if bar else None}
    return out


def step_breakdown(agent: Agent, n: int, routes: tuple[str, ...] = (
        "narrative", "composite", "structured")) -> dict[str, dict[str, dict[str, float]]]:
    """Per route and step: the median microseconds per ask and the calls per ask.

    Medians over the asks (not means), so that a busy spell on the machine does not
    inflate a step; the steps are inclusive (a step's time holds its sub-steps').
    """
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name in routes:
        agent.ask(QUESTIONS[name], REFERENCE_DATE)
        acc: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0])
        per_ask: dict[str, list[float]] = collections.defaultdict(list)
        calls: dict[str, int] = collections.Counter()
        with _timed_steps(acc):
            for _ in range(n):
                acc.clear()
                agent.ask(QUESTIONS[name], REFERENCE_DATE)
                for label, (seconds, count) in acc.items():
                    per_ask[label].append(seconds)
                    calls[label] += int(count)
        out[name] = {label: {"us_per_ask": round(statistics.median(
                                 per_ask[label] + [0.0] * (n - len(per_ask[label]))) * 1e6, 1),
                             "calls_per_ask": round(calls[label] / n, 2)}
                     for _, _, label in _steps() if calls[label]}
    return out


def _print(results: dict[str, dict[str, Any]], n: int, rounds: int) -> None:
    print(f"Agent.ask p50 / p99, demo workspace, MockProvider ({rounds} rounds x {n} asks;"
          f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for name, r in results.items():
        bar = (f"   peer bar {r['peer_bar_ms']:.2f} ms  ratio {r['ratio_to_peer']:.2f}"
               if r["peer_bar_ms"] else "   (no peer figure)      ")
        rounds_text = " ".join(f"{x:.2f}" for x in r["round_p50_ms"])
        print(f"{name:<14} p50 {r['p50_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  "
              f"cpu p50 {r['cpu_p50_ms']:5.2f} ms{bar}   [round p50s: {rounds_text}]")


def main() -> None:
    """Build the demo workspace, time each route, print and write the results."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300, help="asks per route and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", action="store_true", help="add the per-step breakdown")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).parent / "results" / "agent_latency.json")
    args = ap.parse_args()
    ws_path = Path(tempfile.mkdtemp()) / "ws"
    build_demo(ws_path)
    agent = Agent.from_workspace(ws_path)
    results = measure(agent, args.n, args.rounds)
    _print(results, args.n, args.rounds)
    report: dict[str, Any] = {
        "routes": results, "n": args.n, "rounds": args.rounds,
        "peer_bar_source": "review-performance.md section 6: review p50 / issue ratio "
                           f"{REVIEW}",
        "machine": {"python": sys.version.split()[0], "cpus": os.cpu_count(),
                    "platform": platform.platform(),
                    "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None}}
    if args.steps:
        report["steps_us"] = step_breakdown(agent, args.n)
        for route, steps in report["steps_us"].items():
            print(f"\n{route}: per-step median microseconds per ask (inclusive; calls per ask)")
            for label, v in steps.items():
                print(f"  {label:<46} {v['us_per_ask']:8.1f}   x{v['calls_per_ask']:g}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")


if __name__ == "__main__":
    main()
