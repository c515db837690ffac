"""The TAT-QA report: every question's category, breakdowns, the wrong answers, timings."""

from __future__ import annotations

import numbers
from typing import Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.eval.tatqa.score import CATEGORIES

__all__ = ["TatqaReport", "TARGETS", "TEXT_SPAN_TARGET", "CARD_WRONG_ROWS", "figure_text"]

#: The issue's targets over all questions: (comparison, rate).
TARGETS: dict[str, tuple[str, float]] = {"wrong_number": ("≤", 0.01), "correct": ("≥", 0.50)}
#: The target of text-span retrieval: the gold paragraph in the top 3 (recall@3).
TEXT_SPAN_TARGET: tuple[str, str, float] = ("recall@3", "≥", 0.88)
#: Wrong answers shown on the card (the JSON has them all).
CARD_WRONG_ROWS = 100
#: Columns that hold counts (written as integers); every other number is a rate.
_COUNTS = frozenset({"count", "questions", "asked", "answered", "correct", "wrong_number",
                     "partial", "abstained", "figure_on_text", "text_correct", "text_missed"})


def _fmt(v: Any, count: bool = False) -> str:
    """A cell: counts as integers with thousands separators, rates with three decimals."""
    if isinstance(v, str):
        return v
    if v is None or v != v:  # (v != v: NaN, a figure a row does not have)
        return ""
    if count or isinstance(v, numbers.Integral):
        return f"{round(v):,}"
    return f"{v:.3f}"


def _met(value: float, target: tuple[str, float]) -> bool:
    op, bound = target
    return value >= bound - 1e-9 if op == "≥" else value <= bound + 1e-9


def figure_text(figure: dict[str, Any]) -> str:
    """One headline figure in words: value, unit, label, operation and its sources."""
    sources = "; ".join(f"{s['doc']} · {s['locator']}" for s in figure.get("sources", []))
    unit = f" {figure['unit']}" if figure.get("unit") else ""
    return f"{figure['value']:g}{unit} — {figure['label']} [{figure['operation']}] ({sources})"


class TatqaReport(CardReprMixin, dict[str, Any]):
    """TAT-QA scored over every question: a ``dict`` of the JSON shape, and its views.

    It has a table (:meth:`to_frame`, :meth:`breakdown`), a card listing the wrong answers
    (escaped) and a plot.

    Keys: ``split``, ``contexts``, ``questions``, ``categories`` / ``rates`` (one per
    category of :mod:`~ragspine_nb.eval.tatqa.score`, over all questions),
    ``wrong_kinds``, ``abstain_kinds``, ``sign_flipped``, ``stated_wrong`` (wrong numbers
    plus figures on text questions: every answer stating a number that is not the
    answer), ``by_answer_type`` and ``by_answer_from``, ``subsets`` (the earlier
    single-cell and difference sets, scored the same way), ``extraction`` (their gold
    cells: a fact at the cell's locator, with its value in the question's scale),
    ``text_span`` (paragraph recall), ``ingest_errors``, ``timings`` and ``wrong`` (every
    wrong number and every figure on a text question, with the gold and the figures with
    their sources).
    """

    def to_dict(self) -> dict[str, Any]:
        """The JSON written by ``ragspine-nb eval tatqa --json``."""
        return dict(self)

    def to_frame(self) -> Any:
        """One row per category: count, rate over all questions, and the target."""
        import pandas as pd

        rows = [{"category": c, "count": self["categories"][c], "rate": self["rates"][c],
                 "target": " ".join((TARGETS[c][0], str(TARGETS[c][1]))) if c in TARGETS
                 else "",
                 "status": ("met" if _met(self["rates"][c], TARGETS[c]) else "MISSED")
                 if c in TARGETS else ""} for c in CATEGORIES]
        return pd.DataFrame(rows).set_index("category")

    @property
    def split_name(self) -> str:
        """The split in words: ``tatqa_dataset_dev.json`` is ``dev``."""
        name = str(self["split"]).rsplit("/", 1)[-1].removesuffix(".json")
        return name.removeprefix("tatqa_dataset_")

    def checks(self) -> list[tuple[str, float, tuple[str, float]]]:
        """Every figure that has a target: ``(name, value, (comparison, target))``."""
        out = [(c.replace("_", " "), float(self["rates"][c]), TARGETS[c]) for c in TARGETS]
        ts = self.get("text_span")
        if ts and ts.get("asked"):
            key, op, bound = TEXT_SPAN_TARGET
            out.append((f"text-span {key}", float(ts[key]), (op, bound)))
        return out

    def headlines(self, section: str = "") -> list[Any]:
        """The figures with a target as :class:`~ragspine_nb.display.Headline` rows."""
        from ragspine_nb.display.scorecard import Headline

        name = section or f"TAT-QA {self.split_name} ({self['questions']:,} questions)"
        return [Headline(name, label, value, target) for label, value, target in self.checks()]

    def lines(self) -> list[str]:
        """The report as the command line prints it."""
        n = self["questions"]
        out = [f"{self['split']}: {n} questions in {self['contexts']} contexts "
               f"({len(self['ingest_errors'])} failed to ingest)"]
        for c in CATEGORIES:
            target = f"  (target {TARGETS[c][0]} {TARGETS[c][1]})" if c in TARGETS else ""
            out.append(f"{c:<16} {self['categories'][c]:>5}  {self['rates'][c]:.3f}{target}")
        sw = self["stated_wrong"]
        out.append(f"{'stated wrong':<16} {sw['count']:>5}  {sw['rate']:.3f}  (wrong number + "
                   "figure on text)")
        out.append("wrong kinds: " + ", ".join(f"{k} {v}" for k, v in self["wrong_kinds"].items()))
        out.append("abstained:   " + ", ".join(f"{k} {v}"
                                               for k, v in self["abstain_kinds"].items()))
        out.append(f"sign flipped (counted correct): {self['sign_flipped']}")
        for s, m in self["subsets"].items():
            out.append(f"{s:<12} asked {m['asked']:>4}  answered {m['answered']:>4}  correct "
                       f"{m['correct']:>4}  precision {m['precision']:.3f}  coverage "
                       f"{m['coverage']:.3f}")
        ex = self["extraction"]
        out.append(f"extraction   cells {ex['cells']:>4}  located {ex['located']:>4}  value and "
                   f"scale {ex['value_and_scale']:>4}  scale differs {ex['scale_differs']}")
        ts = self.get("text_span")
        if ts:
            out.append(f"text_span    asked {ts['asked']:>4}  R@1 {ts['recall@1']:.3f}  R@3 "
                       f"{ts['recall@3']:.3f}  R@10 {ts['recall@10']:.3f}")
        t = self["timings"]
        out.append(f"time: {t['wall_s']:.1f} s wall with {t['workers']} worker(s); ingestion "
                   f"{t['ms_per_context_ingest']:.0f} ms/context, {t['ms_per_question']:.1f} "
                   "ms/question")
        return out

    def breakdown(self, by: str = "answer_type") -> Any:
        """Counts per category for each ``answer_type`` (or ``answer_from``)."""
        import pandas as pd

        key = f"by_{by}"
        if key not in self:
            raise ValueError(f"no breakdown by {by!r}. Valid: ['answer_type', 'answer_from']")
        return pd.DataFrame(self[key]).T.fillna(0).astype(int)

    def plot(self, ax: Any = None) -> Any:
        """Category rates overall and per answer type, with the targets dashed."""
        from ragspine_nb.display.plots import bar_chart
        from ragspine_nb.eval._axes import new_axes

        shown = ("correct", "wrong_number", "figure_on_text", "abstained", "text_correct")
        groups = {"all": {c: self["rates"][c] for c in shown}}
        for t, counts in self["by_answer_type"].items():
            n = max(counts["questions"], 1)
            groups[t] = {c: round(counts.get(c, 0) / n, 6) for c in shown}
        return bar_chart(new_axes(ax), groups, title="TAT-QA: every question",
                         targets={c: v for c, (_, v) in TARGETS.items()},
                         ylabel="share of questions (0–1)")

    def _tables(self) -> list[Any]:
        from ragspine_nb.display.render import Table

        frame = self.to_frame().reset_index()
        cols = tuple(str(c) for c in frame.columns)
        tables = [Table("Every question", cols,
                        tuple(tuple(_fmt(v, c == "count") for c, v in zip(cols, r, strict=True))
                              for r in frame.itertuples(index=False)))]
        for by in ("answer_type", "answer_from"):
            part = self.breakdown(by).reset_index()
            tables.append(Table(f"By {by} (questions)", (by, *map(str, part.columns[1:])),
                                tuple((str(r[0]), *(_fmt(v, True) for v in r[1:]))
                                      for r in part.itertuples(index=False))))
        subsets = self["subsets"]
        cols = ("asked", "answered", "correct", "precision", "coverage")
        tables.append(Table("Earlier subsets, scored the same way", ("subset", *cols),
                            tuple((s, *(_fmt(subsets[s][c], c in _COUNTS) for c in cols))
                                  for s in subsets)))
        wrong = self["wrong"]
        tables.append(Table(
            "Wrong answers", ("question", "gold", "figures", "category"),
            tuple((w["question"], " | ".join(w["gold"]) + (f" ({w['scale']})" if w["scale"]
                                                             else ""),
                   " / ".join(figure_text(f) for f in w["figures"]),
                   f"{w['category']} · {w['kind']}" if w["kind"] else w["category"])
                  for w in wrong[:CARD_WRONG_ROWS]), total_rows=len(wrong)))
        return tables

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card

        rates, t = self["rates"], self["timings"]
        stats = (("questions", _fmt(self["questions"], True)),
                 ("correct", _fmt(rates["correct"])),
                 ("wrong number", _fmt(rates["wrong_number"])),
                 ("figure on text", _fmt(rates["figure_on_text"])),
                 ("abstained", _fmt(rates["abstained"])),
                 ("wall", f"{t['wall_s']:.0f} s, {t['workers']} worker(s)"))
        ex = self["extraction"]
        notes = [f"sign flipped (counted correct): {self['sign_flipped']}",
                 f"subset cells: {ex['located']} of {ex['cells']} extracted, "
                 f"{ex['value_and_scale']} with the value in the question's scale, "
                 f"{ex['scale_differs']} in another scale",
                 f"contexts that failed to ingest: {len(self['ingest_errors'])}"]
        checks = tuple((name, f"{value:.3f} (target {op} {bound})", _met(value, (op, bound)))
                       for name, value, (op, bound) in self.checks())
        return Card(title="TatqaReport",
                    subtitle=f"{self['split']}: every question through ingestion and the Agent",
                    stats=stats, tables=tuple(self._tables()), notes=tuple(notes),
                    checks=checks)

    def __repr__(self) -> str:
        r = self["rates"]
        return (f"TatqaReport(questions={self['questions']}, correct={r['correct']:.3f}, "
                f"wrong_number={r['wrong_number']:.3f}, figure_on_text="
                f"{r['figure_on_text']:.3f}, abstained={r['abstained']:.3f})")

