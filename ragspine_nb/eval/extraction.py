"""Extraction accuracy against ground truth, per channel, with a mismatch list.

Channels (each reported separately): ``located`` (a fact exists at the expected
locator), ``cell_value`` (value equal), ``unit_scale`` (unit equal, so the stated scale
was read), ``header_attribution`` (metric, entity, channel and period equal).
Ground truth rows: ``{metric_code, entity, channel, period_type, period, value, unit,
source: {doc, locator}}`` (the demo's ``ground_truth.json``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragspine_nb.core import Fact
from ragspine_nb.display.mixin import CardReprMixin

__all__ = ["ExtractionReport", "Mismatch", "evaluate_extraction", "CHANNELS"]

CHANNELS: tuple[str, ...] = ("located", "cell_value", "unit_scale", "header_attribution")


@dataclass(frozen=True)
class Mismatch:
    """One channel that disagreed at one locator."""

    doc: str
    locator: str
    channel: str
    expected: str
    actual: str


@dataclass
class ExtractionReport(CardReprMixin):
    """Per-channel accuracy, per document, and every mismatch."""

    totals: dict[str, int] = field(default_factory=dict)
    correct: dict[str, int] = field(default_factory=dict)
    per_doc: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    mismatches: list[Mismatch] = field(default_factory=list)
    extra: int = 0  # facts at locators the ground truth does not list

    def accuracy(self, channel: str) -> float:
        """Correct / total for one channel (1.0 when nothing was expected)."""
        total = self.totals.get(channel, 0)
        return self.correct.get(channel, 0) / total if total else 1.0

    def to_dict(self) -> dict[str, Any]:
        """Channel accuracies, counts and the extra-fact count."""
        return {c: {"correct": self.correct.get(c, 0), "total": self.totals.get(c, 0),
                    "accuracy": round(self.accuracy(c), 6)} for c in CHANNELS} | {
            "extra_facts": self.extra}

    def to_frame(self) -> Any:
        """Accuracy per document and channel."""
        import pandas as pd

        return pd.DataFrame({doc: {c: (v[c][0] / v[c][1] if v[c][1] else 1.0) for c in CHANNELS}
                             for doc, v in self.per_doc.items()}).T

    def plot(self, ax: Any = None) -> Any:
        """Accuracy per channel and document (matplotlib)."""
        from ragspine_nb.display.plots import bar_chart
        from ragspine_nb.eval._axes import new_axes

        groups = {c: {doc: (v[c][0] / v[c][1] if v[c][1] else 1.0)
                      for doc, v in self.per_doc.items()} for c in CHANNELS}
        return bar_chart(new_axes(ax), groups, title="Extraction accuracy")

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        return Card("ExtractionReport", stats=tuple(
            (c, f"{self.accuracy(c):.3f}") for c in CHANNELS) + (("extra facts",
                                                                   str(self.extra)),),
            tables=(Table("Mismatches", ("doc", "locator", "channel", "expected", "actual"),
                          tuple((m.doc, m.locator, m.channel, m.expected, m.actual)
                                for m in self.mismatches[:50]),
                          total_rows=len(self.mismatches)),))

    def __repr__(self) -> str:
        return "ExtractionReport(" + ", ".join(f"{c}={self.accuracy(c):.3f}"
                                                for c in CHANNELS) + f", extra={self.extra})"



def evaluate_extraction(facts: Iterable[Fact], truth: Sequence[dict[str, Any]]
                        ) -> ExtractionReport:
    """Compare extracted facts with ground-truth rows, aligned on (doc, locator)."""
    got = {(f.source_doc_id, f.source_locator): f for f in facts}
    report = ExtractionReport()
    expected_keys = set()
    for row in truth:
        key = (row["source"]["doc"], row["source"]["locator"])
        expected_keys.add(key)
        f = got.get(key)
        doc = report.per_doc.setdefault(key[0], {c: [0, 0] for c in CHANNELS})
        attribution = (row["metric_code"], row["entity"], row["channel"], row["period_type"],
                       row["period"])
        checks = {
            "located": (f is not None, "a fact", "none"),
            "cell_value": (f is not None and f.value == row["value"], str(row["value"]),
                           str(f.value) if f else "—"),
            "unit_scale": (f is not None and f.unit == row["unit"], row["unit"],
                           f.unit if f else "—"),
            "header_attribution": (f is not None and (f.metric_code, f.entity, f.channel,
                                                      f.period_type, f.period) == attribution,
                                   "/".join(attribution),
                                   "/".join((f.metric_code, f.entity, f.channel, f.period_type,
                                             f.period)) if f else "—"),
        }
        for channel, (ok, exp, act) in checks.items():
            report.totals[channel] = report.totals.get(channel, 0) + 1
            doc[channel][1] += 1
            if ok:
                report.correct[channel] = report.correct.get(channel, 0) + 1
                doc[channel][0] += 1
            else:
                report.mismatches.append(Mismatch(key[0], key[1], channel, exp, act))
    report.extra = len(set(got) - expected_keys)
    return report
