"""TAT-QA, every question, through ingestion and the Agent: the figures of the closing note.

    .venv/bin/python bench/tatqa_eval.py [SPLIT] [--label after] [--workers 2] [--limit N]
    .venv/bin/python bench/tatqa_eval.py --legacy --label before_legacy_loader

SPLIT defaults to ``$RAGSPINE_DATA/tatqa/tatqa_dataset_dev.json``. The run's summary
(every category, breakdowns, subsets, timings; the wrong answers unless ``--no-list``)
is stored under ``--label`` in ``bench/results/tatqa_dev.json``, beside earlier labels.

``--legacy`` scores the code paths before issue 15 with the same scorer: each context
read by the TAT-QA-only loader (``extract/tatqa.py``, removed by issue 15) into an
in-memory store with its derived profile, the no-LLM provider, and — since answers did
not carry figures then — the numbers the answer stated read from its tool results: each
found fact a lookup, or, when the question asks a change or difference and two found
facts of one row were compared, that computed change (the percent change when the
question asks a percentage) or column difference instead of the two levels. It only
runs on a checkout that still has ``extract/tatqa.py`` (before commit c157445); the stored
``before_legacy_loader`` run was made at 8b78a77 with this scorer's files copied in.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any

from ragspine_nb.eval.tatqa.evaluate import summarize, text_span_recall
from ragspine_nb.eval.tatqa.gold import TatqaContext, load_split, reference_date
from ragspine_nb.eval.tatqa.run import ContextRun, outcome_of, run_contexts
from ragspine_nb.extract.beir import data_root

RESULTS = Path(__file__).parent / "results" / "tatqa_dev.json"
_OLD_UNITS = {"million": "M", "thousand": "K", "billion": "BN", "percent": "PCT"}
_PERCENT_ASKED = re.compile(r"percent|%|percentage", re.I)
_CHANGE_ASKED = re.compile(r"chang|differen|increas|decreas|grow|declin|\brise|\bfell|varian",
                           re.I)


def _legacy_figures(question: str, tool_results: list[dict[str, Any]]) -> tuple[Any, ...]:
    """The numbers an answer of the old agent stated, as headline figures."""
    from ragspine_nb.core import Fact, Figure

    facts = [Fact(t["metric_code"], t["entity"], "ALL", t["channel"], t["period_type"],
                  t["period"], float(t["value"]), _OLD_UNITS.get(t["unit"], t["unit"]),
                  t["source"]["doc"], t["source"]["locator"])
             for t in tool_results if t.get("status") == "found"]
    if len(facts) == 2 and _CHANGE_ASKED.search(question):
        a, b = facts
        same_row = (a.metric_code, a.entity, a.unit, a.period_type) == \
            (b.metric_code, b.entity, b.unit, b.period_type)
        if same_row and a.channel == b.channel and a.period != b.period:
            early, late = sorted(facts, key=lambda f: f.period)
            diff = late.value - early.value
            if _PERCENT_ASKED.search(question) and early.value:
                return (Figure(diff / abs(early.value) * 100, "PCT", "change", "percent_change",
                               (early, late), (early.source, late.source)),)
            return (Figure(diff, late.unit, "change", "difference", (early, late),
                           (early.source, late.source)),)
        if same_row and a.period == b.period and a.channel != b.channel:
            return (Figure(a.value - b.value, a.unit, "difference", "difference", (a, b),
                           (a.source, b.source)),)
    return tuple(Figure.of_fact(f, f.metric_code) for f in facts)


def legacy_context(ctx: TatqaContext) -> ContextRun:
    """One context through the pre-issue-15 loader and agent (see the module docstring)."""
    import importlib
    from dataclasses import replace

    from ragspine_nb.agent.agent import Agent
    from ragspine_nb.eval.qa import ToolDirectProvider
    from ragspine_nb.stores.facts import FactStore

    raw = {"table": {"uid": ctx.uid, "table": [list(r) for r in ctx.table]},
           "paragraphs": [{"order": i, "text": p} for i, p in enumerate(ctx.paragraphs, 1)],
           "questions": []}
    started = time.perf_counter()
    loaded = importlib.import_module("ragspine_nb.extract.tatqa").context_to_records(raw)
    store = FactStore(":memory:")
    store.upsert(loaded.facts)
    agent = Agent(store, None, ToolDirectProvider(), loaded.profile)
    ingested = time.perf_counter() - started
    outcomes = []
    for q in ctx.questions:
        t0 = time.perf_counter()
        r = agent.ask(q.question, reference_date(ctx))
        r = replace(r, figures=_legacy_figures(q.question, r.tool_results))
        outcomes.append(outcome_of(ctx, q, r, time.perf_counter() - t0))
    store.close()
    return ContextRun(ctx.uid, tuple(outcomes), round(ingested, 6),
                      round(sum(o.seconds for o in outcomes), 6), len(loaded.facts))


def _short(figure: dict[str, Any]) -> str:
    where = ", ".join(src["locator"] if src["doc"] == "table.csv" else f"{src['doc']} "
                      f"{src['locator']}" for src in figure["sources"])
    return f"{figure['value']:g} {figure['unit']} {figure['operation']} @ {where}".replace(
        "  ", " ")


def _stored(report: dict[str, Any], with_list: bool) -> dict[str, Any]:
    out = {k: v for k, v in report.items() if k not in ("wrong", "ingest_errors")}
    errors = list(report["ingest_errors"].values())
    out["ingest_errors"] = {"contexts": len(errors),
                            "messages": {m: errors.count(m) for m in sorted(set(errors))}}
    if with_list:  # one line per wrong answer: question | gold (scale) | kind | figures
        out["wrong"] = [" | ".join((w["question"], " / ".join(w["gold"]) + (
            f" ({w['scale']})" if w["scale"] else ""), w["kind"] or w["category"],
            " / ".join(_short(f) for f in w["figures"]))) for w in report["wrong"]]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("split", nargs="?",
                    default=str(data_root() / "tatqa" / "tatqa_dataset_dev.json"))
    ap.add_argument("--label", default="after")
    ap.add_argument("--legacy", action="store_true")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--no-list", action="store_true", help="store counts only")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args()
    contexts = load_split(args.split)[: args.limit or None]
    started = time.perf_counter()
    answer = legacy_context if args.legacy else None
    runs = list(run_contexts(contexts, args.workers, answer) if answer
                else run_contexts(contexts, args.workers))
    report = summarize(runs, Path(args.split).name, args.workers, time.perf_counter() - started)
    report["text_span"] = text_span_recall(contexts)
    report["command"] = " ".join(["bench/tatqa_eval.py", args.split, "--label", args.label,
                                  "--workers", str(args.workers)]
                                 + ["--legacy"] * args.legacy
                                 + ["--limit", str(args.limit)] * bool(args.limit)).replace(
        str(data_root()), "$RAGSPINE_DATA")
    out = Path(args.out)
    stored = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    stored[args.label] = _stored(report, not args.no_list)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(stored, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(repr(report))
    print(json.dumps({k: report[k] for k in ("categories", "wrong_kinds", "abstain_kinds",
                                             "stated_wrong", "subsets", "timings")}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
