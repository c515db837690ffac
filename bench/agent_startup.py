"""Start-up and warm questions of an agent on a real workspace, in this fresh process.

    .venv/bin/python bench/agent_startup.py WORKSPACE [--questions N] [--profile OUT.pstats]

Times, as CPU seconds of this process (``time.process_time``: other jobs on a shared
machine move wall time, not this), ``import ragspine_nb``, ``Agent.from_workspace``,
the first ask and then ``--questions`` distinct questions (FinanceBench's, then the demo
golden set's), each asked once: p50 and p90 of the warm asks. ``--first Q`` asks ``Q``
first (a "why" times the first narrative question of a process). The 1-minute load average
is printed beside them. ``--baseline <other checkout>`` (e.g. a ``git worktree`` of
the commit before) times that code and this one, each in a fresh process, one after
the other on the same workspace, and prints both.

The workspace of issue 38 is the 29 FinanceBench filings in one folder::

    ragspine-nb ingest ../shared/datasets/financebench/pdfs --workspace /tmp/ws29
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


def _questions(n: int) -> list[str]:
    out: list[str] = []
    fb = Path(os.environ.get("RAGSPINE_DATA", _DATA)) / "financebench" / "questions.jsonl"
    if fb.is_file():
        out += [json.loads(line)["question"] for line in fb.read_text("utf-8").splitlines()
                if line.strip()]
    golden = Path(__file__).resolve().parents[1] / "ragspine_nb" / "demo" / "golden.jsonl"
    out += [json.loads(line)["question"] for line in golden.read_text("utf-8").splitlines()
            if line.strip()]
    return list(dict.fromkeys(out))[:n]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workspace")
    ap.add_argument("--questions", type=int, default=40)
    ap.add_argument("--profile", help="write a cProfile of from_workspace + asks here")
    ap.add_argument("--baseline", help="another checkout: time its code too (fresh processes)")
    ap.add_argument("--first", help="the first question asked (default: the first of the set), "
                    "e.g. a 'why' to time a process's first narrative question")
    args = ap.parse_args(argv)
    if args.baseline and not (Path(args.baseline) / "ragspine_nb").is_dir():
        # a path that is not there is left off the import path: this code would run twice
        ap.error(f"--baseline {args.baseline!r} is no checkout (no ragspine_nb/ in it)")
    if args.baseline:
        return _compare(args)
    prof = cProfile.Profile() if args.profile else None
    t0 = time.process_time()
    import ragspine_nb
    from ragspine_nb import Agent
    t_import = time.process_time() - t0
    if prof:
        prof.enable()
    t0 = time.process_time()
    agent = Agent.from_workspace(args.workspace)
    t_build = time.process_time() - t0
    questions = _questions(args.questions + 1)
    if args.first:
        questions[0] = args.first
    t0 = time.process_time()
    agent.ask(questions[0])
    t_first = time.process_time() - t0
    warm = []
    for q in questions[1:]:
        t0 = time.process_time()
        agent.ask(q)
        warm.append(time.process_time() - t0)
    if prof:
        prof.disable()
        prof.dump_stats(args.profile)
    warm.sort()
    report = {
        "code": str(Path(ragspine_nb.__file__).parent),
        "workspace": args.workspace,
        "load_1min": os.getloadavg()[0],
        "import_cpu_s": round(t_import, 3),
        "from_workspace_cpu_s": round(t_build, 3),
        "first_ask_cpu_s": round(t_first, 3),
        "warm_questions": len(warm),
        "warm_p50_ms": round(1000 * statistics.median(warm), 1),
        "warm_p90_ms": round(1000 * warm[int(0.9 * (len(warm) - 1))], 1),
        "warm_max_ms": round(1000 * warm[-1], 1),
    }
    print(json.dumps(report, indent=1))
    return 0


def _compare(args: argparse.Namespace) -> int:
    """This code and the baseline's, each in a fresh process, both reports printed."""
    here = str(Path(__file__).resolve().parents[1])
    out = {}
    for name, root in (("baseline", str(Path(args.baseline).resolve())), ("this", here)):
        env = {**os.environ, "PYTHONPATH": root}
        run = subprocess.run([sys.executable, __file__, args.workspace, "--questions",
                              str(args.questions), *(["--first", args.first] if args.first
                                                     else [])],
                             env=env, capture_output=True, text=True, check=True)
        out[name] = json.loads(run.stdout)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
