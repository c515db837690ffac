"""Every answer the product gives, dumped, so a refactoring can be shown to change none.

Issue 37 moves the question engine in steps; the first steps must preserve behaviour. This
bench asks every question of the TAT-QA dev split (each context ingested as a user's files,
as ``ragspine-nb eval tatqa`` does) and every case of the demo golden set (on a freshly
built demo workspace), and writes one JSON line per question: its id, the half of the split
it belongs to, the answer text, the route and the figures it asserts.

Two dumps are compared with ``--compare``: it prints how many answers are identical and,
for the ``tune`` half and the demo only, which differ (the ``check`` half is held out: only
its count is printed).

Usage::

    python bench/answer_dump.py --out /tmp/before.jsonl [--data ../shared/datasets] [--workers 2]
    python bench/answer_dump.py --compare /tmp/before.jsonl /tmp/after.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ragspine_nb import Agent
from ragspine_nb.cli.commands import build_demo, default_demo_data
from ragspine_nb.eval.golden import load_golden
from ragspine_nb.eval.tatqa.evaluate import split_half
from ragspine_nb.eval.tatqa.gold import load_split
from ragspine_nb.eval.tatqa.run import run_contexts


def _tatqa(path: Path, workers: int) -> Iterator[dict[str, Any]]:
    contexts = load_split(path)
    tune = {c.uid for c in split_half(contexts, "tune")}
    for run in run_contexts(contexts, workers=workers):
        half = "tune" if run.uid in tune else "check"
        for o in run.outcomes:
            yield {"set": "tatqa", "half": half, "id": o.uid, "question": o.question,
                   "answer": o.answer, "figures": list(o.figures), "verdict": o.verdict.category}


def _demo() -> Iterator[dict[str, Any]]:
    data = default_demo_data()
    with tempfile.TemporaryDirectory(prefix="dump_demo_") as tmp:
        build_demo(Path(tmp) / "ws", data)
        agent = Agent.from_workspace(Path(tmp) / "ws")
        try:
            for case in load_golden(data / "golden.jsonl"):
                r = agent.ask(case.question, reference_date=case.reference_date)
                yield {"set": "demo", "half": "demo", "id": case.id, "question": case.question,
                       "answer": r.answer, "route": r.route,
                       "figures": [f.to_dict() for f in r.figures]}
        finally:
            agent.close()


def dump(out: Path, data: Path, workers: int) -> None:
    """Write every answer of the demo golden set and of TAT-QA dev to ``out`` (JSONL)."""
    started = time.perf_counter()
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        rows = [*_demo(), *_tatqa(data / "tatqa" / "tatqa_dataset_dev.json", workers)]
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
            n += 1
    print(f"{n} answers written to {out} in {time.perf_counter() - started:.1f} s")


def _read(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    rows = (json.loads(line) for line in path.read_text("utf-8").splitlines() if line)
    return {(r["set"], r["id"]): r for r in rows}


def compare(before: Path, after: Path) -> int:
    """Print how many answers differ; 0 when every answer is identical, else 1."""
    a, b = _read(before), _read(after)
    keys = sorted(set(a) | set(b))
    changed: dict[str, list[tuple[str, str]]] = {}
    for key in keys:
        ra, rb = a.get(key), b.get(key)
        half = (ra or rb or {}).get("half", "?")
        if ra is None or rb is None or {k: v for k, v in ra.items() if k != "verdict"} != \
                {k: v for k, v in rb.items() if k != "verdict"}:
            changed.setdefault(half, []).append(key)
    total = {h: sum(1 for k in keys if (a.get(k) or b.get(k) or {}).get("half") == h)
             for h in ("demo", "tune", "check")}
    for half in ("demo", "tune", "check"):
        print(f"{half:6s} {total[half]:5d} answers, {len(changed.get(half, [])):4d} differ")
        if half == "check":
            continue  # held out: counts only
        for key in changed.get(half, [])[:40]:
            ra, rb = a.get(key) or {}, b.get(key) or {}
            print(f"  {key[1]}: {ra.get('question', rb.get('question'))!r}")
            print(f"    before: {ra.get('answer', '<missing>')[:300]!r}")
            print(f"    after:  {rb.get('answer', '<missing>')[:300]!r}")
    return 1 if changed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--data", type=Path,
                    default=Path(os.environ.get("RAGSPINE_DATA", "../shared/datasets")))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        ap.error("--out or --compare is required")
    dump(args.out, args.data, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
