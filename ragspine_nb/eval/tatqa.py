"""Table + text QA on TAT-QA through the Agent, scoped to each question's context.

* single-cell lookups (span answers from the table that equal exactly one data cell):
  precision = correct (value and cell locator) / answered; coverage = answered / asked;
* two-period differences on one row (derivation ``a - b`` over two year columns of one
  row): the agent's deterministic comparison must equal the gold value, from two cells
  of the gold row;
* text-span questions: Recall@1/3/10 of the gold paragraph, retrieving over all
  paragraphs of the split (BM25, and hybrid when an embedding backend is given).

An answer counts as "answered" whenever the agent returns a stored number, including
answers with a stated assumption; asking back or refusing counts as not answered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb.agent.agent import Agent
from ragspine_nb.eval.qa import ToolDirectProvider
from ragspine_nb.extract.tatqa import (
    TatqaContext,
    _header_rows,
    load_tatqa,
    parse_tatqa_number,
)
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.stores.facts import FactStore

__all__ = ["evaluate_tatqa", "single_cell_gold", "difference_gold", "tatqa_extraction",
           "TatqaReport", "TARGETS"]

_DIFF = re.compile(r"^\s*\(?\s*([\d,.]+)\s*-\s*([\d,.]+)\s*\)?\s*$")


def _data_cells(ctx: TatqaContext) -> dict[tuple[int, int], float]:
    """Every numeric data cell of the table (independent of which ones became facts).

    The question set must not depend on what the extractor managed to read, so the
    denominators stay honest when the extractor declines a column.
    """
    header = _header_rows([list(r) for r in ctx.table])
    cells = {}
    for r in range(header, len(ctx.table)):
        for c in range(1, len(ctx.table[r])):
            value, _ = parse_tatqa_number(ctx.table[r][c])
            if value is not None:
                cells[(r, c)] = value
    return cells


def single_cell_gold(ctx: TatqaContext, q: dict[str, Any],
                     cells: dict[tuple[int, int], float] | None = None) -> str | None:
    """The gold cell locator of a single-cell lookup question, else ``None``."""
    if q["answer_type"] != "span" or q["answer_from"] not in ("table", "table-text"):
        return None
    answer = q["answer"][0] if isinstance(q["answer"], list) and q["answer"] else q["answer"]
    target, _ = parse_tatqa_number(str(answer))
    hits = []
    for (r, c), value in (cells if cells is not None else _data_cells(ctx)).items():
        cell = ctx.table[r][c].strip()
        if cell == str(answer).strip() or (target is not None and
                                           abs(abs(value) - abs(target)) < 1e-9):
            hits.append((r, c))
    return f"table=0,row={hits[0][0]},col={hits[0][1]}" if len(hits) == 1 else None


def difference_gold(ctx: TatqaContext, q: dict[str, Any],
                    cells: dict[tuple[int, int], float] | None = None
                    ) -> tuple[float, list[str]] | None:
    """(gold value, the two cell locators) of a one-row, two-year difference, else None."""
    if q["answer_type"] != "arithmetic":
        return None
    m = _DIFF.match(q.get("derivation") or "")
    if not m:
        return None
    a, b = (float(x.replace(",", "")) for x in m.groups())
    cells = cells if cells is not None else _data_cells(ctx)
    loc_a = [k for k, v in cells.items() if abs(abs(v) - a) < 1e-9]
    loc_b = [k for k, v in cells.items() if abs(abs(v) - b) < 1e-9]
    pairs = [(x, y) for x in loc_a for y in loc_b if x[0] == y[0] and x[1] != y[1]]
    if len(pairs) != 1:
        return None
    gold, _ = parse_tatqa_number(str(q["answer"]))
    if gold is None:
        return None
    (r, c1), (_, c2) = pairs[0]
    return gold, [f"table=0,row={r},col={c1}", f"table=0,row={r},col={c2}"]


def _cell_of(locator: str) -> tuple[int, int]:
    """``(row, col)`` of a ``table=0,row=<r>,col=<c>`` locator."""
    r, c = (int(part.split("=")[1]) for part in locator.split(",")[1:])
    return r, c


def _row_of(locator: str) -> int:
    return _cell_of(locator)[0]


def _scored(ctx: TatqaContext, cells: dict[tuple[int, int], float]
            ) -> Iterator[tuple[dict[str, Any], str | None, tuple[float, list[str]] | None]]:
    """Each scored question with its single-cell locator or its difference gold."""
    for q in ctx.questions:
        loc = single_cell_gold(ctx, q, cells)
        gold = difference_gold(ctx, q, cells) if loc is None else None
        if loc is not None or gold is not None:
            yield q, loc, gold


def _agent(ctx: TatqaContext) -> tuple[Agent, date]:
    store = FactStore(":memory:")
    store.upsert(ctx.facts)
    years = [int(f.period[:4]) for f in ctx.facts] or [2019]
    # "latest complete fiscal year" = the table's latest year when a question names none
    return Agent(store, None, ToolDirectProvider(), ctx.profile), date(max(years) + 1, 1, 1)


def _rates(asked: int, answered: int, correct: int) -> dict[str, Any]:
    return {"asked": asked, "answered": answered, "correct": correct,
            "precision": round(correct / answered, 6) if answered else 1.0,
            "coverage": round(answered / asked, 6) if asked else 0.0}


def evaluate_tatqa(path: str | Path, *, embedding_backend: Any = None,
                   limit: int = 0) -> TatqaReport:
    """The three TAT-QA evaluations (see the module docstring) for one split file."""
    contexts = load_tatqa(path)[: limit or None]
    single = [0, 0, 0]
    diff = [0, 0, 0]
    mistakes: list[dict[str, Any]] = []
    for ctx in contexts:
        agent, ref = _agent(ctx)
        cells = _data_cells(ctx)
        for q, gold_loc, dg in _scored(ctx, cells):
            if gold_loc is not None:
                single[0] += 1
                r = agent.ask(q["question"], ref)
                found = [t for t in r.tool_results if t["status"] == "found"]
                if found:
                    single[1] += 1
                    ok = len(found) == 1 and found[0]["source"]["locator"] == gold_loc and \
                        found[0]["value"] == cells[_cell_of(gold_loc)]
                    single[2] += ok
                    if not ok:
                        mistakes.append({"kind": "single", "question": q["question"],
                                         "gold": gold_loc,
                                         "got": [t["source"]["locator"] for t in found]})
            elif dg is not None:
                diff[0] += 1
                r = agent.ask(q["question"], ref)
                found = [t for t in r.tool_results if t["status"] == "found"]
                # answered = a difference was computed: two found facts of one row
                if len(found) == 2 and found[0]["metric_code"] == found[1]["metric_code"]:
                    diff[1] += 1
                    # right = the gold value (|a - b|) from two cells of the gold row; the
                    # gold may derive it from other columns of that row ("2019 over 2018"
                    # + "2018 over 2017" for 2019 against 2017)
                    rows = {_row_of(t["source"]["locator"]) for t in found}
                    delta = found[0]["value"] - found[1]["value"]
                    ok = rows == {_row_of(dg[1][0])} and abs(abs(delta) - abs(dg[0])) < 0.011
                    diff[2] += ok
                    if not ok:
                        mistakes.append({"kind": "difference", "question": q["question"],
                                         "gold": dg[1],
                                         "got": [t["source"]["locator"] for t in found]})
    text = _text_span(contexts, embedding_backend)
    return TatqaReport({"single_cell": _rates(*single), "difference": _rates(*diff),
                        "text_span": text, "extraction": tatqa_extraction(contexts),
                        "mistakes": mistakes[:50]})


#: The issue's targets, drawn on the plot and shown beside the figures.
TARGETS = {"single_cell": {"precision": 0.99, "coverage": 0.85},
           "difference": {"precision": 0.99, "coverage": 0.90},
           "text_span": {"recall@3": 0.88}}


class TatqaReport(dict[str, Any]):
    """The TAT-QA figures: a ``dict`` of the JSON shape, with a table, a card and a plot.

    Keys: ``single_cell`` and ``difference`` (``asked``, ``answered``, ``correct``,
    ``precision``, ``coverage``), ``text_span`` (``asked``, ``recall@1/3/10``; per arm
    when an embedding backend was given), ``extraction`` and ``mistakes``.
    """

    def to_dict(self) -> dict[str, Any]:
        """The JSON written by ``ragspine-nb eval tatqa --json`` (no mistake list)."""
        return {k: v for k, v in self.items() if k != "mistakes"}

    def to_frame(self) -> Any:
        """One row per task: its figures beside the targets."""
        import pandas as pd

        rows = []
        for task in ("single_cell", "difference"):
            m = self[task]
            rows.append({"task": task, **{k: m[k] for k in ("asked", "answered", "correct",
                                                            "precision", "coverage")},
                         "target": ", ".join(f"{k} ≥ {v}" for k, v in TARGETS[task].items())})
        ts = self["text_span"]
        rows.append({"task": "text_span", "asked": ts["asked"],
                     **{k: ts[k] for k in ("recall@1", "recall@3", "recall@10")},
                     "target": "recall@3 ≥ 0.88 (hybrid)"})
        ex = self["extraction"]
        rows.append({"task": "extraction", "asked": ex["cells"],
                     **{k: ex[f"{k}_rate"] for k in ("located", "cell_value", "unit_scale")},
                     "wrong_scale": ex["wrong_scale"]})
        return pd.DataFrame(rows).set_index("task")

    def plot(self, ax: Any = None) -> Any:
        """Precision / coverage per task and text-span recall@3, with the targets dashed."""
        from ragspine_nb.display.plots import bar_chart
        from ragspine_nb.eval._axes import new_axes

        ts = self["text_span"]
        groups = {t: {"precision": self[t]["precision"], "coverage": self[t]["coverage"]}
                  for t in ("single_cell", "difference")}
        groups["text_span"] = {"recall@3": ts["recall@3"]}
        groups["extraction"] = {"unit/scale": self["extraction"]["unit_scale_rate"]}
        return bar_chart(new_axes(ax), groups, title="TAT-QA",
                         targets={"precision": 0.99, "recall@3": 0.88})

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        frame = self.to_frame().reset_index()
        rows = tuple(tuple("" if v != v else f"{v:.3f}" if isinstance(v, float) else str(v)
                           for v in r)  # (v != v: a task without that figure)
                     for r in frame.itertuples(index=False))
        mistakes = tuple((m["kind"], m["question"], str(m["gold"]), ", ".join(m["got"]))
                         for m in self.get("mistakes", []))
        return Card(title="TatqaReport", subtitle="TAT-QA through the Agent",
                    tables=(Table("Figures", tuple(str(c) for c in frame.columns), rows),
                            Table("Wrong answers", ("kind", "question", "gold", "got"),
                                  mistakes)))

    def __repr__(self) -> str:
        s, d, t = self["single_cell"], self["difference"], self["text_span"]
        return (f"TatqaReport(single_cell=precision {s['precision']:.3f}/coverage "
                f"{s['coverage']:.3f}, difference=precision {d['precision']:.3f}/coverage "
                f"{d['coverage']:.3f}, text_span=R@3 {t['recall@3']:.3f})")

    def _repr_html_(self) -> str:
        from ragspine_nb.display.render import render_html

        return render_html(self._display_card())


#: TAT-QA's per-question ``scale`` → our fact unit.
_SCALE_UNIT = {"": "unit", "thousand": "thousand", "million": "million",
               "billion": "billion", "percent": "percent"}


def tatqa_extraction(contexts: Sequence[TatqaContext]) -> dict[str, Any]:
    """Extraction accuracy on the cells the questions are about.

    For every gold cell of a single-cell or difference question: ``located`` (a fact at
    its locator), ``cell_value`` (every fact there has the cell's value) and
    ``unit_scale`` (the fact's unit equals the question's annotated scale; a percent
    cell counts for either of TAT-QA's two conventions, ``""`` and ``"percent"``).
    Disagreements on scale are split by kind: ``wrong_scale`` (a different scale: a
    thousandfold error), ``no_scale`` (none found, the annotation has one) and
    ``scaled_unannotated``. Header attribution needs TAT-QA's cell mappings, which the
    dev split does not carry, so it is not scored here.
    """
    counts = {"cells": 0, "located": 0, "cell_value": 0, "unit_scale": 0,
              "wrong_scale": 0, "no_scale": 0, "scaled_unannotated": 0}
    for ctx in contexts:
        cells = _data_cells(ctx)
        at: dict[str, list[Any]] = {}
        for f in ctx.facts:
            at.setdefault(f.source_locator, []).append(f)
        seen: set[str] = set()
        for q, gold, dg in _scored(ctx, cells):
            for loc in [gold] if gold else dg[1] if dg else []:
                if loc in seen:
                    continue
                seen.add(loc)
                counts["cells"] += 1
                facts = at.get(loc, [])
                if not facts:
                    continue
                counts["located"] += 1
                counts["cell_value"] += all(f.value == cells[_cell_of(loc)] for f in facts)
                want = _SCALE_UNIT.get(q.get("scale") or "", "unit")
                units = {f.unit for f in facts}
                if units == {want} or (units == {"percent"} and want == "unit"):
                    counts["unit_scale"] += 1
                elif units <= {"unit"}:
                    counts["no_scale"] += 1
                elif want == "unit":
                    counts["scaled_unannotated"] += 1
                elif "percent" not in units | {want}:
                    counts["wrong_scale"] += 1
    n = max(counts["cells"], 1)
    return {**counts, **{f"{k}_rate": round(counts[k] / n, 6)
                         for k in ("located", "cell_value", "unit_scale")}}


def _text_span(contexts: Sequence[TatqaContext], backend: Any) -> dict[str, Any]:
    chunks = [c for ctx in contexts for c in ctx.chunks]
    ids = [c.chunk_id for c in chunks]
    questions = [(ctx.uid, q) for ctx in contexts for q in ctx.questions
                 if q["answer_from"] == "text" and q["answer_type"] == "span"
                 and q.get("rel_paragraphs")]
    gold = [{f"{uid}#p{p}" for p in q["rel_paragraphs"]} for uid, q in questions]
    texts = [q["question"] for _, q in questions]
    bm = BM25Index.build(ids, [c.text for c in chunks])
    runs = [[d for d, _ in r] for r in bm.search_many(texts, 100)]
    out: dict[str, Any] = {"asked": len(questions)}
    if backend is not None:
        import numpy as np

        from ragspine_nb.retrieval.vectors import CachedEmbedder

        emb = backend if isinstance(backend, CachedEmbedder) else CachedEmbedder(backend)
        sims = emb.queries(texts) @ emb.passages([c.text for c in chunks]).T
        dense = [[ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
                 for i in range(len(texts))]
        out["bm25"] = _recall(runs, gold)
        out["dense"] = _recall(dense, gold)
        runs = [[d for d, _ in rrf_fuse([b, v])] for b, v in zip(runs, dense, strict=True)]
        out["hybrid"] = _recall(runs, gold)
    out.update(_recall(runs, gold))
    return out


def _recall(runs: list[list[str]], gold: list[set[str]]) -> dict[str, float]:
    n = max(len(gold), 1)
    return {f"recall@{k}": round(sum(bool(set(r[:k]) & g) for r, g in zip(runs, gold,
                                                                          strict=True)) / n, 6)
            for k in (1, 3, 10)}
