"""Structured answers rebuilt from the fact store, and the citations of every answer.

A found fact is one line with its source (and who chose it, when documents
disagreed); a conflict lists every document's value with its source and no single
number; a change or difference is computed only from two found operands of the same
row — an operand in conflict is named instead.
"""

from __future__ import annotations

from typing import Any

from ragspine_nb.agent.templates import (
    TEXT,
    conflict_line,
    format_value,
    found_line,
    miss_line,
    not_computed_line,
)
from ragspine_nb.glossary import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.types import (
    ConflictResult,
    Fact,
    FoundResult,
    QueryResult,
)

__all__ = ["render_structured", "citations", "entity_label", "result_sources", "sql_of",
           "EXCERPT_CHARS"]

#: Characters of a passage kept as a citation's excerpt.
EXCERPT_CHARS = 500


def entity_label(profile: DomainProfile, code: str) -> str:
    """The profile's label of an entity code (the code itself when unknown)."""
    spec = profile.entities.get(code)
    return spec.label if spec else code


def result_sources(result: QueryResult) -> list[dict[str, str]]:
    """The sources one result cites: the fact and the documents agreeing, or every party."""
    if isinstance(result, FoundResult):
        return [result.fact.source.to_dict(), *(s.to_dict() for s in result.also_stated_by)]
    if isinstance(result, ConflictResult):
        return [f.source.to_dict() for f in result.statements]
    return []


def _line(result: QueryResult, profile: DomainProfile, lang: str) -> str:
    if isinstance(result, FoundResult):
        return found_line(result.fact, entity_label(profile, result.fact.entity),
                          profile.default_channel, lang, result.resolution)
    if isinstance(result, ConflictResult):
        return conflict_line(result, entity_label(profile, result.entity),
                             profile.default_channel, lang)
    return miss_line(result, lang)


def _identity(result: QueryResult) -> tuple[str, ...] | None:
    """(metric, entity, channel, period_type, period) of a found fact or a conflict."""
    if isinstance(result, FoundResult):
        f = result.fact
        return f.metric_code, f.entity, f.channel, f.period_type, f.period
    if isinstance(result, ConflictResult):
        return (result.metric_code, result.entity, result.channel, result.period_type,
                result.period)
    return None


def _change(a: Fact, b: Fact, lang: str) -> str | None:
    """Two periods of one row: the later minus the earlier (with the percentage)."""
    a, b = sorted((a, b), key=lambda f: f.period)
    if (a.metric_code, a.entity, a.channel, a.unit, a.period_type) != (
            b.metric_code, b.entity, b.channel, b.unit, b.period_type) or a.period == b.period:
        return None
    diff = b.value - a.value
    pct = f" ({diff / abs(a.value) * 100:+.1f}%)" if a.value else ""
    sign = "+" if diff >= 0 else "-"
    la, lb = period_label(a.period_type, a.period), period_label(b.period_type, b.period)
    return (f"对比：{lb} 较 {la} {sign}{format_value(abs(diff))} {b.unit}{pct}" if lang == "zh"
            else f"Change: {lb} vs {la}: {sign}{format_value(abs(diff))} {b.unit}{pct}")


def _difference(a: Fact, b: Fact, lang: str) -> str | None:
    """Two columns of one row (in the question's order): their difference."""
    if (a.metric_code, a.entity, a.period_type, a.period, a.unit) != (
            b.metric_code, b.entity, b.period_type, b.period, b.unit) or a.channel == b.channel:
        return None
    diff = a.value - b.value
    return (f"差额：{a.channel} − {b.channel} = {format_value(diff)} {a.unit}" if lang == "zh"
            else f"Difference: {a.channel} − {b.channel} = {format_value(diff)} {a.unit}")


def _not_computed(results: list[QueryResult], lang: str) -> list[str]:
    """A change or difference the question asks of two operands, one in conflict."""
    ids = [_identity(r) for r in results]
    if None in ids:
        return []
    (m1, e1, c1, t1, p1), (m2, e2, c2, t2, p2) = ids  # type: ignore[misc]
    conflicted = [r for r in results if isinstance(r, ConflictResult)]
    if (m1, e1, c1, t1) == (m2, e2, c2, t2) and p1 != p2:
        return [not_computed_line("change", [period_label(r.period_type, r.period)
                                             for r in conflicted], lang)]
    if (m1, e1, t1, p1) == (m2, e2, t2, p2) and c1 != c2:
        return [not_computed_line("difference", [r.channel for r in conflicted], lang)]
    return []


def _comparison(results: list[QueryResult], lang: str) -> list[str]:
    if len(results) != 2:
        return []
    if any(isinstance(r, ConflictResult) for r in results):
        return _not_computed(results, lang)
    found = [r.fact for r in results if isinstance(r, FoundResult)]
    if len(found) != 2:
        return []
    a, b = found
    return [line for line in (_change(a, b, lang), _difference(a, b, lang)) if line]


def render_structured(results: list[QueryResult], profile: DomainProfile, lang: str
                      ) -> tuple[str, list[dict[str, str]]]:
    """The answer lines and their sources, rebuilt from the store's results only."""
    lines = [_line(r, profile, lang) for r in results]
    sources: list[dict[str, str]] = []
    for r in results:
        sources += [s for s in result_sources(r) if s not in sources]
    lines += _comparison(results, lang)
    if len(results) > 1:
        lines = [TEXT["comparison"][lang]] + [f"- {ln}" for ln in lines]
    return "\n".join(lines), sources


def _fact_excerpt(t: dict[str, Any], value: float, unit: str) -> str:
    n = t.get("normalized") or t
    return (f"{n['metric_code']} · {n['entity']} · {n['period']} · {n['channel']}: "
            f"{format_value(value)} {unit}")


def citations(passages: list[dict[str, Any]], tool_results: list[dict[str, Any]],
              sources: list[dict[str, str]], faq_text: str | None) -> list[dict[str, Any]]:
    """Citation objects: the passages cited [n], then each stored fact, then other sources.

    Every citation has a document and a locator (always cite); a fact's excerpt is the
    stored figure itself — each document's own figure for a conflict — a passage's the
    retrieved text (RESTRICTED never retrieved).
    """
    out = list(passages)
    n = max((c["index"] for c in out), default=0)
    for t in tool_results:
        stated = [(t["source"], t["value"], t["unit"])] if t.get("status") == "found" else [
            (s["source"], s["value"], s["unit"]) for s in t.get("statements", [])]
        for source, value, unit in stated:
            n += 1
            out.append({"index": n, "kind": "fact", "doc_id": source["doc"], "title": "",
                        "locator": source["locator"],
                        "excerpt": _fact_excerpt(t, value, unit)})
    have = {(c["doc_id"], c["locator"]) for c in out}
    for src in sources:
        if (src["doc"], src["locator"]) not in have:
            n += 1
            out.append({"index": n, "kind": "faq" if faq_text else "source",
                        "doc_id": src["doc"], "title": "", "locator": src["locator"],
                        "excerpt": (faq_text or "")[:EXCERPT_CHARS]})
    return out


def sql_of(store: FactStore, results: list[QueryResult]) -> list[tuple[str, tuple[str, ...]]]:
    """The SQL that read each found fact (values bound as parameters)."""
    return [store.sql_for(f.metric_code, f.entity, f.period_type, f.period, f.channel)
            for f in (r.fact for r in results if isinstance(r, FoundResult))]
