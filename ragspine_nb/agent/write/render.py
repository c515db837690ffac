"""The citations of every answer, the sources of each fact result and the SQL that read it.

The structured answer itself (figures and their text) is built in
:mod:`ragspine_nb.agent.write.answer`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ragspine_nb.agent.write.templates import format_value
from ragspine_nb.core import (
    Citation,
    ConflictResult,
    FoundResult,
    QueryResult,
)
from ragspine_nb.stores.facts import FactStore

__all__ = ["citations", "result_sources", "sql_of", "EXCERPT_CHARS"]

#: Characters of a passage kept as a citation's excerpt.
EXCERPT_CHARS = 500


def result_sources(result: QueryResult) -> list[dict[str, str]]:
    """The sources one result cites: the fact and the documents agreeing, or every party."""
    if isinstance(result, FoundResult):
        return [result.fact.source.to_dict(), *(s.to_dict() for s in result.also_stated_by)]
    if isinstance(result, ConflictResult):
        return [f.source.to_dict() for f in result.statements]
    return []


def _fact_excerpt(t: Mapping[str, Any], value: float, unit: str) -> str:
    n = t.get("normalized") or t
    return (f"{n['metric_code']} · {n['entity']} · {n['period']} · {n['channel']}: "
            f"{format_value(value)} {unit}")


def citations(passages: Sequence[Citation], tool_results: Sequence[Mapping[str, Any]],
              sources: Sequence[Mapping[str, str]], faq_text: str | None) -> list[Citation]:
    """Citation objects: the passages cited [n], then each stored fact, then other sources.

    Every citation has a document and a locator (always cite); a fact's excerpt is the
    stored figure itself — each document's own figure for a conflict — a passage's the
    retrieved text (RESTRICTED never retrieved).
    """
    out = list(passages)
    n = max((c.index for c in out), default=0)
    for t in tool_results:
        stated = [(t["source"], t["value"], t["unit"])] if t.get("status") == "found" else [
            (s["source"], s["value"], s["unit"]) for s in t.get("statements", [])]
        for source, value, unit in stated:
            n += 1
            out.append(Citation(n, "fact", source["doc"], source["locator"],
                                excerpt=_fact_excerpt(t, value, unit)))
    have = {(c.doc_id, c.locator) for c in out}
    for src in sources:
        if (src["doc"], src["locator"]) not in have:
            n += 1
            out.append(Citation(n, "faq" if faq_text else "source", src["doc"], src["locator"],
                                excerpt=(faq_text or "")[:EXCERPT_CHARS]))
    return out


def sql_of(store: FactStore, results: list[QueryResult]) -> list[tuple[str, tuple[str, ...]]]:
    """The SQL that read each found fact (values bound as parameters)."""
    return [store.sql_for(f.metric_code, f.entity, f.period_type, f.period, f.channel)
            for f in (r.fact for r in results if isinstance(r, FoundResult))]
