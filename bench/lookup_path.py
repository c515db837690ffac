"""How many modules one answer passes through: the path a newcomer must read.

Issue 37 counts, for one table lookup on the demo workspace, the package's modules whose
functions run, the functions, and the switches from one module to another along the call
sequence (a call or a return that changes module). The agent is built and warmed first
(one question asked), so start-up work is not counted; then each question is asked once
under ``sys.setprofile``.

Usage::

    python bench/lookup_path.py [--workspace WS] [--modules] [QUESTION ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from datetime import date
from pathlib import Path
from types import FrameType
from typing import Any

from ragspine_nb import Agent
from ragspine_nb.cli.commands import build_demo

QUESTIONS = ("What was ACME Hong Kong's revenue in FY2025?",
             "香港2024年营业收入是多少？",
             "How did ACME Hong Kong revenue change from FY2024 to FY2025?")
REF = date(2026, 3, 31)


def trace_question(agent: Agent, question: str) -> tuple[Counter[str], set[str], int]:
    """Modules (with call counts), functions and module switches of one ``ask``."""
    modules: Counter[str] = Counter()
    functions: set[str] = set()
    switches = 0
    last = ""

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal switches, last
        if event not in ("call", "return"):
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("ragspine_nb"):
            return
        if event == "call":
            modules[module] += 1
            functions.add(f"{module}.{frame.f_code.co_qualname}")
        if module != last:
            switches += 1
            last = module

    sys.setprofile(profile)
    try:
        agent.ask(question, reference_date=REF)
    finally:
        sys.setprofile(None)
    return modules, functions, switches


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("questions", nargs="*", default=list(QUESTIONS))
    ap.add_argument("--workspace", type=Path, help="default: a fresh demo workspace")
    ap.add_argument("--modules", action="store_true", help="list the modules of each question")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lookup_path_") as tmp:
        ws = args.workspace
        if ws is None:
            ws = Path(tmp) / "ws"
            build_demo(ws)
        agent = Agent.from_workspace(ws)
        try:
            agent.ask(args.questions[0], reference_date=REF)  # warm: caches, lazy indexes
            for q in args.questions:
                modules, functions, switches = trace_question(agent, q)
                print(f"{len(modules):3d} modules  {len(functions):4d} functions  "
                      f"{switches:5d} module switches  {q}")
                if args.modules:
                    for name, calls in sorted(modules.items()):
                        print(f"      {calls:6d}  {name}")
        finally:
            agent.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
