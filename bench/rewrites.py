"""Questions and tables the rules never saw: TAT-QA dev written otherwise, saying the same.

    .venv/bin/python bench/rewrites.py [--data $RAGSPINE_DATA] [--workers 2] [--only NAME ...]
        [--list] [--json OUT]

Each rewrite of :mod:`ragspine_nb.eval.tatqa.rewrites` changes how a question is written
("In 2019, what was …", "Tell me the …", "… in 2019 compared to 2018", "Thanks!", one
word misspelt) or how a table is ("$" or "%" in a column of its own, labels in capitals,
"FY2019" headers, minus signs, the oldest year first, years down the rows) and nothing
they say. Every context with a rewritten question or table is
answered as written and rewritten through the user's path (ingest, ``Agent.ask``, the
eval's scorer).

Printed per rewrite and half: the questions rewritten, how many answers assert other
figures, wrong numbers as written and rewritten, correct as written and rewritten; the
sum over the rewrites last. ``--list`` prints the ``tune`` half's changed answers (the
``check`` half is held out: counts only, never its questions).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from ragspine_nb.eval.tatqa.evaluate import split_half
from ragspine_nb.eval.tatqa.gold import load_split
from ragspine_nb.eval.tatqa.rewrites import REWRITES, rewritten_split
from ragspine_nb.eval.tatqa.run import Outcome, run_contexts
from ragspine_nb.eval.tatqa.table_rewrites import TABLE_REWRITES, rewritten_tables


def _answers(path: Path, workers: int) -> dict[str, Outcome]:
    return {o.uid: o for run in run_contexts(load_split(path), workers=workers)
            for o in run.outcomes}


def _figures(o: Outcome) -> list[tuple[float, str]]:
    return sorted((round(float(f.get("value", 0.0)), 6), str(f.get("unit", "")))
                  for f in o.figures)


def _row(ids: list[str], before: dict[str, Outcome], after: dict[str, Outcome]
         ) -> dict[str, int]:
    was = Counter(before[u].verdict.category for u in ids)
    now = Counter(after[u].verdict.category for u in ids)
    return {"questions": len(ids),
            "figures_changed": sum(_figures(before[u]) != _figures(after[u]) for u in ids),
            "verdict_changed": sum(before[u].verdict.category != after[u].verdict.category
                                   for u in ids),
            "wrong_written": was["wrong_number"], "wrong_rewritten": now["wrong_number"],
            "correct_written": was["correct"], "correct_rewritten": now["correct"]}


def _print(name: str, half: str, row: dict[str, int]) -> None:
    print(f"{name:<14} {half:<5} {row['questions']:>5} rewritten; figures changed "
          f"{row['figures_changed']:>3}; wrong {row['wrong_written']:>3} -> "
          f"{row['wrong_rewritten']:>3}; correct {row['correct_written']:>4} -> "
          f"{row['correct_rewritten']:>4}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path,
                    default=Path(os.environ.get("RAGSPINE_DATA", "../shared/datasets")))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", nargs="+", choices=sorted([*REWRITES, *TABLE_REWRITES]),
                    help="these rewrites")
    ap.add_argument("--list", action="store_true", help="list tune's changed answers")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    split = args.data / "tatqa" / "tatqa_dataset_dev.json"
    raw = json.loads(split.read_text("utf-8"))
    tune = {q.uid for c in split_half(load_split(split), "tune") for q in c.questions}
    before = _answers(split, args.workers)
    report: dict[str, Any] = {}
    totals = {h: Counter() for h in ("tune", "check")}  # type: dict[str, Counter[str]]
    with tempfile.TemporaryDirectory(prefix="rewrites_") as tmp:
        for name in args.only or [*REWRITES, *TABLE_REWRITES]:
            rewritten, changed = rewritten_split(raw, REWRITES[name]) if name in REWRITES \
                else rewritten_tables(raw, TABLE_REWRITES[name])
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(rewritten, ensure_ascii=False), "utf-8")
            after = _answers(path, args.workers)
            report[name] = {}
            for half in ("tune", "check"):
                ids = sorted(u for u in changed if (u in tune) == (half == "tune"))
                row = report[name][half] = _row(ids, before, after)
                totals[half].update(row)
                _print(name, half, row)
            if args.list:
                for u in sorted(u for u in changed if u in tune):
                    b, a = before[u], after[u]
                    if b.verdict.category != a.verdict.category:
                        print(f"  [{b.verdict.category} -> {a.verdict.category}] "
                              f"{b.question!r} -> {a.question!r}")
                        print(f"    written:   {b.answer[:160]!r}")
                        print(f"    rewritten: {a.answer[:160]!r}")
    for half in ("tune", "check"):
        _print("all", half, dict(totals[half]))
    report["all"] = {h: dict(c) for h, c in totals.items()}
    for kind, names in (("questions", REWRITES), ("tables", TABLE_REWRITES)):
        for half in ("tune", "check"):
            rows = [report[n][half] for n in names if n in report]
            summed: Counter[str] = Counter()
            for row in rows:
                summed.update(row)
            if rows:
                _print(kind, half, dict(summed))
                report.setdefault(kind, {})[half] = dict(summed)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
