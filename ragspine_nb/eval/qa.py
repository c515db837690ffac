"""QA gates over a golden set, reported separately and never merged.

Gates: numeric accuracy (value and unit exact), citation validity (right doc and
locator, and the doc named in the answer), refusal appropriateness (two-way),
clarification appropriateness; plus the fabrication count (digits other than period
tokens in an answer that should hold no number) and, for narrative cases, the
groundedness of each answer sentence in the retrieved passages. Two modes: ``tool``
(no LLM: the agent's deterministic paths with a provider that never calls tools) and
``agent`` (MockProvider + the real retriever).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ragspine_nb.agent.agent import Agent, AgentResult
from ragspine_nb.agent.providers import MockProvider, ProviderResponse
from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.eval.golden import GoldenCase
from ragspine_nb.retrieval.tokenize import tokenize

__all__ = ["QAReport", "CaseResult", "run_qa", "GATES", "ToolDirectProvider"]

GATES: tuple[str, ...] = ("numeric_accuracy", "citation_validity", "refusal_appropriateness",
                          "clarification_appropriateness", "groundedness")
_PERIOD = re.compile(r"(FY)?(19|20)\d\d(H[12]|Q[1-4])?")


class ToolDirectProvider(MockProvider):
    """No LLM at all: never calls a tool (the agent runs its plan) and synthesises extractively."""

    name = "tool-direct"

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        """No tool calls ever; narrative synthesis is the extractive MockProvider's."""
        if tools:
            return ProviderResponse("")
        return super().create_message(system=system, messages=messages, tools=tools)


@dataclass(frozen=True)
class CaseResult:
    """One case: the gates it counts for (True/False) and what the agent said."""

    id: str
    case_type: str
    tags: dict[str, str]
    gates: dict[str, bool]
    fabricated: bool
    answer: str
    detail: str = ""


@dataclass
class QAReport(CardReprMixin):
    """Gate rates, fabrication count, per-tag breakdowns and every case."""

    mode: str
    cases: list[CaseResult] = field(default_factory=list)

    def gate(self, name: str) -> dict[str, Any]:
        """``{"passed", "total", "rate"}`` of one gate."""
        scored = [c.gates[name] for c in self.cases if name in c.gates]
        passed = sum(scored)
        return {"passed": passed, "total": len(scored),
                "rate": round(passed / len(scored), 6) if scored else 1.0}

    @property
    def fabrication_count(self) -> int:
        """Answers that should hold no number but do."""
        return sum(c.fabricated for c in self.cases)

    def to_dict(self) -> dict[str, Any]:
        """Each gate as ``{"passed", "total", "rate"}`` plus ``"fabrication_count"``."""
        out: dict[str, Any] = {g: self.gate(g) for g in GATES}
        out["fabrication_count"] = self.fabrication_count
        out["mode"] = self.mode
        out["cases"] = len(self.cases)
        return out

    def by_tag(self, tag: str) -> dict[str, dict[str, float]]:
        """Gate rates per value of one tag (e.g. ``lang`` or ``trap``)."""
        values = sorted({c.tags[tag] for c in self.cases if tag in c.tags})
        out = {}
        for v in values:
            sub = QAReport(self.mode, [c for c in self.cases if c.tags.get(tag) == v])
            out[v] = {g: sub.gate(g)["rate"] for g in GATES if sub.gate(g)["total"]}
        return out

    def to_frame(self) -> Any:
        """One row per case with each gate's outcome."""
        import pandas as pd

        return pd.DataFrame([{"id": c.id, "case_type": c.case_type, **c.gates,
                              "fabricated": c.fabricated, "detail": c.detail}
                             for c in self.cases])

    def failures(self) -> list[CaseResult]:
        """Cases that failed any gate or fabricated."""
        return [c for c in self.cases if c.fabricated or not all(c.gates.values())]

    def plot(self, ax: Any = None, by: str | None = None) -> Any:
        """Gate rates (matplotlib); ``by="lang"`` draws one bar per value of that tag."""
        from ragspine_nb.display.plots import bar_chart
        from ragspine_nb.eval._axes import new_axes

        if by is None:
            groups = {g: {self.mode: self.gate(g)["rate"]} for g in GATES}
        else:
            tags = self.by_tag(by)
            groups = {g: {v: rates[g] for v, rates in tags.items() if g in rates}
                      for g in GATES}
        return bar_chart(new_axes(ax), groups, title=f"QA gates ({self.mode} mode)")

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        rows = tuple((g, str(self.gate(g)["passed"]), str(self.gate(g)["total"]),
                      f"{self.gate(g)['rate']:.3f}") for g in GATES)
        fails = tuple((c.id, ", ".join(g for g, ok in c.gates.items() if not ok)
                       + (" fabricated" if c.fabricated else ""), c.detail)
                      for c in self.failures())
        return Card(title=f"QAReport ({self.mode} mode)", subtitle=f"{len(self.cases)} cases",
                    stats=(("fabrication_count", str(self.fabrication_count)),),
                    tables=(Table("Gates (reported separately)", ("gate", "passed", "total",
                                                                  "rate"), rows),
                            Table("Failures", ("case", "gates failed", "detail"), fails)))

    def __repr__(self) -> str:
        rates = ", ".join(f"{g}={self.gate(g)['rate']:.3f}" for g in GATES)
        return f"QAReport(mode={self.mode!r}, cases={len(self.cases)}, {rates}, " \
               f"fabrication_count={self.fabrication_count})"



def _digits_besides_periods(text: str) -> bool:
    body = text.split("\nSources:")[0].split("\n来源：")[0]
    return bool(re.search(r"\d", _PERIOD.sub("", body)))


def _grounded(answer: str, snippets: Sequence[str]) -> bool:
    """Every answer sentence shares ≥ 60% of its tokens with one retrieved passage."""
    body = answer.split("\nSources:")[0].split("\n来源：")[0]
    sentences = [s for s in re.split(r"(?<=[。！？!?])|(?<=\.)\s", body) if s.strip()]
    passages = [set(tokenize(s)) for s in snippets]
    for sent in sentences:
        toks = set(tokenize(re.sub(r"\[\d+\]", "", sent)))
        if toks and not any(len(toks & p) / len(toks) >= 0.6 for p in passages):
            return False
    return bool(sentences)


def _score(case: GoldenCase, r: AgentResult, snippets: list[str]) -> CaseResult:
    exp = case.expected
    gates: dict[str, bool] = {}
    refused = r.clarification.mode == "out_of_scope_entity"
    gates["refusal_appropriateness"] = refused == bool(exp["refuse"])
    gates["clarification_appropriateness"] = r.clarification.mode == exp["clarification"]
    found = [t for t in r.tool_results if t["status"] == "found"]
    detail = ""
    if "value" in exp:
        ok = len(found) == 1 and found[0]["value"] == exp["value"] and \
            found[0]["unit"] == exp["unit"]
        gates["numeric_accuracy"] = ok
        if not ok:
            detail = f"got {[(t.get('value'), t.get('unit')) for t in found]}"
    if "source" in exp:
        gates["citation_validity"] = (len(found) == 1 and found[0]["source"] == exp["source"]
                                      and exp["source"]["doc"] in r.answer)
    elif "narrative_doc" in exp:
        gates["citation_validity"] = (any(s["doc"] == exp["narrative_doc"] for s in r.sources)
                                      and exp["narrative_doc"] in r.answer)
    if case.case_type == "narrative":
        gates["groundedness"] = _grounded(r.answer, snippets)
    should_be_numberless = bool(exp["refuse"]) or bool(exp.get("not_found")) or \
        exp["clarification"] == "ask_first"
    fabricated = should_be_numberless and _digits_besides_periods(r.answer)
    if exp.get("not_found"):
        gates["refusal_appropriateness"] = gates["refusal_appropriateness"] and not found and \
            any(t["status"] == "not_found" for t in r.tool_results)
    return CaseResult(case.id, case.case_type, case.tags, gates, fabricated, r.answer, detail)


def run_qa(cases: Sequence[GoldenCase], agent: Agent, mode: str = "tool") -> QAReport:
    """Answer every case and score the gates.

    Parameters
    ----------
    cases : sequence of GoldenCase
        From :func:`~ragspine_nb.eval.golden.load_golden`.
    agent : Agent
        Its store, index and profile are used; its provider is replaced per ``mode``.
    mode : {"tool", "agent"}
        ``tool``: no LLM at all; ``agent``: MockProvider.
    """
    if mode not in ("tool", "agent"):
        raise ValueError(f"mode must be 'tool' or 'agent', got {mode!r}")
    provider = ToolDirectProvider() if mode == "tool" else MockProvider()
    runner = Agent(agent.store, agent.index, provider, agent.profile, agent.faq)
    report = QAReport(mode)
    for case in cases:
        result = runner.ask(case.question, reference_date=case.reference_date)
        snippets: list[str] = []
        if case.case_type == "narrative" and runner.index is not None:
            retriever = runner.index.retriever()
            snippets = [s["text"] for s in retriever.retrieve(case.question, top_k=6)]
        report.cases.append(_score(case, result, snippets))
    return report
