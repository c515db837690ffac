"""The model reader's verifier, measured with scripted models over TAT-QA (no API key).

    .venv/bin/python bench/model_reader.py $RAGSPINE_DATA/tatqa/tatqa_dataset_dev.json \
        --half tune [--seeds 5] [--limit N] [--show] [--out bench/results/model_reader.json]

Every question of the half goes through the product's path (the context written as files,
``ingest``, ``Agent.from_workspace(ws, provider=...)``, ``Agent.ask``) three times, with
three scripted "models" behind the fact channel's last reader
(:mod:`ragspine_nb.agent.compute.model_answer`):

* ``none`` proposes nothing: the answers are the offline ones (the baseline);
* ``oracle`` proposes the gold derivation, each of its numbers written as the id of the
  offered cell holding it (the best a model could propose over the cells offered: what
  the verifier lets a right reading through);
* ``random`` proposes a random formula over two offered cells (a model reading nonsense:
  what the verifier stops); ``--seeds N`` runs N of them, their counts summed.

Printed per model: the questions that reached the reader, the readings proposed,
verified and rejected, and the answers' categories (the product's scorer); the ratios
against ``none``. The ``check`` half is printed as the same aggregates only. Only this
bench reads the gold: the product never does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from ragspine_nb import Agent
from ragspine_nb.agent.compute.model_offer import READING_TOOL
from ragspine_nb.agent.providers import MockProvider, ProviderResponse, ToolCall
from ragspine_nb.eval.tatqa.evaluate import split_half
from ragspine_nb.eval.tatqa.gold import load_split, reference_date, write_context
from ragspine_nb.eval.tatqa.run import outcome_of
from ragspine_nb.ingestion.workspace import ingest

_CELL = re.compile(r"^(C\d+): .* \| (\S+) · (\S+)$", re.M)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


class Scripted:
    """A wired "model" that answers ``propose_reading`` by a rule, else as the mock."""

    name = "scripted"

    def __init__(self, how: str, store: Any, golds: dict[str, tuple[str, str]]) -> None:
        self.how, self.golds, self.mock = how, golds, MockProvider()
        self.values = {(f.source_doc_id, f.source_locator): f.value for f in store.iter_facts()}
        self.asked = self.proposed = 0

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        if not tools or tools[0]["name"] != READING_TOOL:
            return self.mock.create_message(system=system, messages=messages, tools=tools)
        self.asked += 1
        prompt = str(messages[-1]["content"])
        question = prompt.split("\n", 1)[0].removeprefix("Question: ")
        cells = {i: self.values.get((doc, loc)) for i, doc, loc in _CELL.findall(prompt)}
        args = self._oracle(cells, *self.golds.get(question, ("", ""))) if self.how == "oracle" \
            else self._random(cells, f"{self.how}{question}") \
            if self.how.startswith("random") else None
        if args is None:
            return ProviderResponse("no reading")
        self.proposed += 1
        return ProviderResponse("", (ToolCall("t1", READING_TOOL, args),), "tool_use")

    @staticmethod
    def _oracle(cells: dict[str, float | None], derivation: str,
                scale: str) -> dict[str, Any] | None:
        """The gold derivation with each number that an offered cell holds as its id."""
        if not derivation:
            return None
        by_size: dict[float, str] = {}
        for i, v in cells.items():
            if v is not None:
                by_size.setdefault(round(abs(v), 4), i)

        def swap(m: re.Match[str]) -> str:
            n = round(float(m.group(0).replace(",", "")), 4)
            return by_size.get(n, m.group(0))

        formula = _NUMBER.sub(swap, derivation.replace("$", "").replace("%", ""))
        formula = re.sub(r"\s*\*\s*100\b", "", formula)
        # a stored negative is written negative already ("-C2" of "-9,819")
        formula = re.sub(r"(?<![\w)])-\s*(C\d+)", lambda m: m.group(1)
                         if (cells.get(m.group(1)) or 0) < 0 else m.group(0), formula)
        if formula == derivation or not re.search(r"C\d", formula):
            return None
        return {"formula": formula, "name": "", "percent": scale == "percent"}

    @staticmethod
    def _random(cells: dict[str, float | None], question: str) -> dict[str, Any] | None:
        ids = sorted(cells)
        if len(ids) < 2:
            return None
        rng = random.Random(hashlib.sha256(question.encode()).hexdigest())
        a, b = rng.sample(ids, 2)
        formula, percent = rng.choice([(a, False), (f"{a} - {b}", False), (f"{a} / {b}", False),
                                       (f"({a} - {b}) / {b}", True), (f"{a} + {b}", False)])
        return {"formula": formula, "name": "", "percent": percent}


def _shape(formula: str) -> str:
    """The formula's shape, ids and numbers blanked (an aggregate: no question in it)."""
    return re.sub(r"\s+", "", re.sub(r"C\d+", "c", _NUMBER.sub("n", formula)))


def run(path: str, half: str, limit: int, show: bool = False, seeds: int = 1) -> dict[str, Any]:
    contexts = split_half(load_split(path)[: limit or None], half)
    out: dict[str, Any] = {}
    for how in ("none", "oracle", *(f"random{k}" for k in range(seeds))):
        counts: Counter[str] = Counter()
        reached = Counter[str]()
        for ctx in contexts:
            golds = {q.question: (q.derivation, q.scale) for q in ctx.questions}
            with tempfile.TemporaryDirectory(prefix="mr_") as tmp:
                folder = write_context(ctx, Path(tmp) / "files")
                ingest(folder, workspace=Path(tmp) / "ws", profile=None, metadata=None,
                       progress=False)
                probe = Agent.from_workspace(Path(tmp) / "ws")
                model = Scripted(how, probe.store, golds)
                probe.close()
                agent = Agent.from_workspace(Path(tmp) / "ws", provider=model)
                try:
                    for q in ctx.questions:
                        r = agent.ask(q.question, reference_date=reference_date(ctx))
                        verdict = outcome_of(ctx, q, r, 0.0).verdict.category
                        counts[verdict] += 1
                        read = r.trace.get("model_reading") or {}
                        if read and show:
                            print(f"[{how}] {q.question}\n  gold {q.derivation} -> {verdict}"
                                  f"\n  {read}\n  {r.answer[:300]!r}", file=sys.stderr)
                        if read:
                            reached["reached"] += 1
                            reached["verified"] += bool(read.get("verified"))
                            reached["rejected"] += bool(read.get("rejected"))
                            if read.get("verified"):
                                reached[f"verified_{verdict}"] += 1
                                reached[f"shape_{_shape(read['formula'])}_{verdict}"] += 1
                finally:
                    agent.close()
        reached["proposed"] = reached["verified"] + reached["rejected"]
        out[how] = {"answers": dict(counts), "reader": dict(reached)}
    randoms = [out.pop(f"random{k}") for k in range(seeds)]
    out["random"] = {part: dict(sum((Counter(r[part]) for r in randoms), Counter()))
                     for part in ("answers", "reader")}
    out["random"]["seeds"] = seeds
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path")
    ap.add_argument("--half", default="tune", choices=("all", "tune", "check"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out")
    ap.add_argument("--seeds", type=int, default=1,
                    help="random models run (each its own seed); their counts are summed")
    ap.add_argument("--show", action="store_true",
                    help="print each reading with its question (the tune half only)")
    args = ap.parse_args(argv)
    if args.show and args.half != "tune":
        ap.error("--show reads questions: the tune half only")
    report = {"split": Path(args.path).name, "half": args.half,
              **run(args.path, args.half, args.limit, args.show, args.seeds)}
    base = report["none"]["answers"]
    for how in ("oracle", "random"):
        ans = report[how]["answers"]
        times = report[how].get("seeds", 1)
        report[how]["vs_none"] = {k: ans.get(k, 0) - times * base.get(k, 0)
                                  for k in ("correct", "wrong_number", "abstained")}
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
