"""What :func:`~ragspine_nb.agent.agent.answer_question` returns: the answer and its evidence."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ragspine_nb.agent.scope.clarify import ClarificationResult
from ragspine_nb.agent.write.templates import format_value
from ragspine_nb.core import CitationDict, Figure
from ragspine_nb.display.mixin import CardReprMixin

__all__ = ["AgentResult"]


@dataclass
class AgentResult(CardReprMixin):
    """An answer with its route, clarification, tool results, sources and trace."""

    question: str
    answer: str
    route: str
    clarification: ClarificationResult
    #: each ``query_metric`` lookup in the seed's JSON shape (status, value, unit, source…)
    tool_results: list[dict[str, Any]] = field(default_factory=list)
    #: every source the answer cites, once per (document, locator)
    sources: list[dict[str, str]] = field(default_factory=list)
    trace: dict[str, Any] = field(default_factory=dict)
    answer_plain: str = ""
    language: str = "en"
    sql: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    #: the narrative channel's query plan and evidence loop (empty when not run)
    retrieval: dict[str, Any] = field(default_factory=dict)
    #: citation objects (index, kind, doc_id, title, locator, excerpt) for every source
    citations: list[CitationDict] = field(default_factory=list)
    #: narrative sentences left out, with why (``reason``) and the fact concerned
    dropped: list[dict[str, str]] = field(default_factory=list)
    #: the numbers the answer asserts (headline figures), each with its operands and
    #: sources; empty when the answer asserts no number
    figures: tuple[Figure, ...] = ()
    #: the slots this answer resolved (metric, entity, period, channel codes), which a
    #: follow-up question in a conversation may carry over; empty after a refusal
    slots: dict[str, Any] = field(default_factory=dict)
    #: the fact store the answer came from: the HTML view shows each figure's source cell
    #: from the files its ledger names (:mod:`ragspine_nb.agent.write.certify`)
    source_store: Any = field(default=None, repr=False, compare=False)

    @property
    def tool_status(self) -> dict[str, int]:
        """How many ``query_metric`` results had each status (``found``, ``not_found``…)."""
        statuses = [str(t["status"]) for t in self.tool_results if t.get("status")]
        return {s: statuses.count(s) for s in sorted(set(statuses))}

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        tables = [Table("Sources", ("doc", "locator"),
                        tuple((s["doc"], s["locator"]) for s in self.sources))]
        if self.figures:
            tables.insert(0, Table("Figures the answer asserts",
                                   ("label", "value", "unit", "operation", "derivation"),
                                   tuple((f.label, format_value(f.value), f.unit, f.operation,
                                          f.derivation) for f in self.figures)))
        if self.tool_results:
            tables.append(Table("query_metric results", ("status", "value", "unit", "detail"),
                                tuple((r["status"], "" if r.get("value") is None
                                       else format_value(r["value"]), r.get("unit", ""),
                                       json.dumps(r.get("statements") or r.get("normalized")
                                                  or r.get("source") or
                                                  {k: r[k] for k in ("param", "raw") if k in r},
                                                  ensure_ascii=False))
                                      for r in self.tool_results)))
        if self.sql:
            tables.append(Table("SQL run on the fact store (values bound as parameters)",
                                ("sql", "params"),
                                tuple((sql, json.dumps(list(p), ensure_ascii=False))
                                      for sql, p in self.sql)))
        notes = [f"clarification: {self.clarification.mode}"]
        if self.clarification.narrowing_options:
            notes.append("narrowing options: " + ", ".join(self.clarification.narrowing_options))
        return Card(title="AgentResult", subtitle=self.question,
                    stats=(("route", self.route), ("clarification", self.clarification.mode),
                           ("figures", str(len(self.figures))),
                           ("sources", str(len(self.sources))),
                           ("tool calls", str(len(self.tool_results)))),
                    tables=tuple(tables), notes=(self.answer, *notes))

    def _display_html(self) -> str:
        """The card, then (when it has figures) where each figure stands in its file."""
        from ragspine_nb.display.render import render_html

        card = render_html(self._display_card())
        if not self.figures or self.source_store is None:
            return card
        from ragspine_nb.agent.write.certify import certificates

        certs = certificates(self, self.source_store)
        if not certs.shown and not certs.not_shown:
            return card
        return (card + "<details class='rs-sources' style='margin:2px 0 8px'><summary "
                "style='cursor:pointer;font-size:13px'>Show where each figure comes from "
                f"({len(certs.shown)} source cell(s))</summary>{certs._display_html()}</details>")

    def __repr__(self) -> str:
        return (f"AgentResult(route={self.route!r}, clarification={self.clarification.mode!r}, "
                f"sources={len(self.sources)}, answer={self.answer[:80]!r})")

