"""Tables the rules never saw: TAT-QA dev with its value columns in reverse order.

    .venv/bin/python bench/metamorphic.py [--data $RAGSPINE_DATA] [--workers 2] [--json OUT]

The held-out split showed that the rules which pick a column and a row do not carry over
(wrong column / period was the largest cause of held-out wrong numbers). This bench makes
unseen tables from the dev split without new questions: every table whose header rows can
be reversed safely (each header row fills every value column or none, so no caption spans
columns) gets its value columns in reverse order — "2019 | 2018" becomes "2018 | 2019" —
and nothing else changes. The questions and their golds stay true. Every context of the
split is answered twice through the user's path (ingest, ``Agent.ask``, the eval's
scorer), as written and reversed.

Printed: per half, the questions of the reversed tables, their categories as written and
reversed, and how many answers assert other figures after the reversal. The figures of an
answer should not depend on the order of a table's columns, so each such question is a
position rule that would pick the wrong column on a table laid out the other way. Only
the ``tune`` half's changed questions are listed (``check`` is held out: counts only).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from ragspine_nb.eval.tatqa.evaluate import split_half
from ragspine_nb.eval.tatqa.gold import load_split
from ragspine_nb.eval.tatqa.run import Outcome, run_contexts

_FIGURE = re.compile(r"[\d$%()]")


def _is_body(row: list[str]) -> bool:
    return any(_FIGURE.search(c) and re.search(r"\d", c) and not re.fullmatch(
        r"\s*(?:19|20)\d\d\s*", c) for c in row[1:])


def reversible(table: list[list[str]]) -> bool:
    """Whether the value columns can be reversed with no caption spanning columns.

    Examples
    --------
    >>> reversible([["", "2019", "2018"], ["Revenue", "5", "4"]])
    True
    >>> reversible([["", "Year Ended", ""], ["", "2019", "2018"], ["Revenue", "5", "4"]])
    False
    """
    if not table or len(table[0]) < 3 or any(len(r) != len(table[0]) for r in table):
        return False
    for row in table:
        if _is_body(row):
            return True
        filled = [bool(c.strip()) for c in row[1:]]
        if any(filled) and not all(filled):
            return False
    return False


def reversed_split(raw: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], set[str]]:
    """The split with every reversible table's value columns reversed; their context ids."""
    out, changed = [], set()
    for ctx in raw:
        table = ctx["table"]["table"]
        if reversible(table):
            ctx = {**ctx, "table": {**ctx["table"],
                                    "table": [[r[0], *r[1:][::-1]] for r in table]}}
            changed.add(ctx["table"]["uid"])
        out.append(ctx)
    return out, changed


def _answers(path: Path, workers: int) -> dict[str, tuple[str, Outcome]]:
    contexts = load_split(path)
    tune = {c.uid for c in split_half(contexts, "tune")}
    return {o.uid: ("tune" if run.uid in tune else "check", o)
            for run in run_contexts(contexts, workers=workers) for o in run.outcomes}


def _figures(o: Outcome) -> list[tuple[float, str]]:
    return sorted((round(float(f.get("value", 0.0)), 6), str(f.get("unit", "")))
                  for f in o.figures)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path,
                    default=Path(os.environ.get("RAGSPINE_DATA", "../shared/datasets")))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    split = args.data / "tatqa" / "tatqa_dataset_dev.json"
    raw = json.loads(split.read_text("utf-8"))
    flipped, changed = reversed_split(raw)
    with tempfile.TemporaryDirectory(prefix="metamorphic_") as tmp:
        path = Path(tmp) / "tatqa_dev_reversed.json"
        path.write_text(json.dumps(flipped, ensure_ascii=False), "utf-8")
        before, after = _answers(split, args.workers), _answers(path, args.workers)
    report: dict[str, Any] = {}
    for half in ("tune", "check"):
        ids = [u for u, (h, o) in before.items() if h == half and o.context in changed]
        moved = [u for u in ids if _figures(before[u][1]) != _figures(after[u][1])]
        cats = {name: Counter(run[u][1].verdict.category for u in ids)
                for name, run in (("as written", before), ("reversed", after))}
        report[half] = {"questions": len(ids), "figures_changed": len(moved),
                        **{k: dict(v) for k, v in cats.items()}}
        print(f"{half}: {len(ids)} questions on reversed tables; figures changed in "
              f"{len(moved)}; wrong as written {cats['as written']['wrong_number']}, "
              f"reversed {cats['reversed']['wrong_number']}; correct "
              f"{cats['as written']['correct']} -> {cats['reversed']['correct']}")
        if half == "tune":
            for u in moved:
                b, a = before[u][1], after[u][1]
                print(f"  {u} [{b.verdict.category} -> {a.verdict.category}] {b.question!r}")
                print(f"    written:  {b.answer[:160]!r}")
                print(f"    reversed: {a.answer[:160]!r}")
    print(f"tables reversed: {len(changed)} of {len(raw)}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
