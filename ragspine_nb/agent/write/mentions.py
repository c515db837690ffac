"""Where a figure the fact store lacks is mentioned: passages to read, never a number.

A "Not found" answer stays a refusal (no estimate, no figure read from prose); when the
narrative channel has passages that name what was looked for, the answer points to them
so the reader knows where to look.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine_nb.agent.narrative.channel import NarrativeRetriever
from ragspine_nb.agent.reading.labels import entity_label, metric_label
from ragspine_nb.agent.write.templates import TEXT
from ragspine_nb.core import NotFoundResult, QueryResult, Snippet
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile

__all__ = ["mentioning_passages", "mentions_text"]


def _names(profile: DomainProfile, code: str) -> list[str]:
    spec = profile.metrics.get(code)
    names = [metric_label(profile, code), *(spec.synonyms if spec else ())]
    return [fold(n) for n in names if n and len(n) > 2]


def mentioning_passages(retriever: NarrativeRetriever | None, profile: DomainProfile,
                        results: Sequence[QueryResult], limit: int = 3,
                        companies: frozenset[str] = frozenset()) -> list[Snippet]:
    """Passages naming a metric no lookup found (label or synonym) and its year, best first.

    Only the looked-up entity's passages when it is one of ``companies`` (the workspace
    holds its own filings): another company's filing is never pointed to.
    """
    misses = [r for r in results if isinstance(r, NotFoundResult)]
    if retriever is None or not misses or len(misses) != len(results):
        return []
    out: dict[tuple[str, str], Snippet] = {}
    for miss in misses:
        query = " ".join([metric_label(profile, miss.metric_code),
                          entity_label(profile, miss.entity),
                          period_label(miss.period_type, miss.period)])
        names = _names(profile, miss.metric_code)
        year = re.search(r"(?:19|20)\d\d", miss.period)
        own = miss.entity in companies
        for raw in retriever.retrieve(query, top_k=10,
                                      **({"filters": {"entity": miss.entity}} if own else {})):
            s = Snippet.coerce(raw)
            if own and s.entity != miss.entity:
                continue
            text = fold(s.text)
            if any(n in text for n in names) and (year is None or year.group(0) in text):
                out.setdefault((s.doc_id, s.source_locator), s)
    return list(out.values())[:limit]


def mentions_text(passages: Sequence[Snippet], lang: str) -> str:
    """The pointer sentence and its sources (document · locator), or "" when none."""
    if not passages:
        return ""
    lines = [f"- {s.doc_id} · {s.source_locator}" for s in passages]
    return "\n".join([TEXT["mentioned_in"][lang], TEXT["sources"][lang], *lines])
