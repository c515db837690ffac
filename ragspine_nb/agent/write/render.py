"""The citations of every answer, the sources of each fact result and the SQL that read it.

The structured answer itself (figures and their text) is built in
:mod:`ragspine_nb.agent.write.answer`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ragspine_nb.agent.write.templates import format_value
from ragspine_nb.core import (
    CHANGE_PCT_CHANNEL,
    Citation,
    ConflictResult,
    FoundResult,
    QueryResult,
)
from ragspine_nb.extract.placement import CHANGE_CHANNEL
from ragspine_nb.lang import detect_language
from ragspine_nb.period_phrases import MONTH
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = ["citations", "entity_label", "metric_label", "column_label", "slot_label",
           "result_sources", "sql_of",
           "EXCERPT_CHARS"]

#: Characters of a passage kept as a citation's excerpt.
EXCERPT_CHARS = 500


def entity_label(profile: DomainProfile, code: str) -> str:
    """The profile's label of an entity code (the code itself when unknown)."""
    spec = profile.entities.get(code)
    return spec.label if spec else code


#: The date a balance row is at ("as at June 30, 2017", "31 December 2018"): the metric of
#: the dated rows is named without it (its figure's period is stated beside it).
_ROW_DATE = re.compile(rf",?\s*(?:\b(?:at|as\s+of|as\s+at|on)\s+)?(?:the\s+)?"
                       rf"(?:{MONTH}\s+\d{{1,2}},?\s+|\d{{1,2}}\s+{MONTH},?\s+)(?:19|20)\d\d\b",
                       re.I)


def metric_label(profile: DomainProfile, code: str) -> str:
    """The profile's label of a metric code: else its first name, else the code itself.

    A row named with its section ("Operating revenue" under "Continuing Operations")
    may carry names only: "Continuing operations operating revenue". A label carrying the
    date of one balance row ("Balance payable as at June 30, 2017") names the metric of
    every dated row: it is shown without the date.
    """
    spec = profile.metrics.get(code)
    if spec is None:
        return code
    if spec.label:
        return " ".join(_ROW_DATE.sub(" ", spec.label).split()).strip(" ,;:-") or spec.label
    name = next((s for s in spec.synonyms if s), "")
    return name[:1].upper() + name[1:] if name else code


#: The columns of a change the report states, named in words.
_STATED_CHANGES = {CHANGE_PCT_CHANNEL: {"en": "% change as stated", "zh": "列示变动率"},
                   CHANGE_CHANNEL: {"en": "change as stated", "zh": "列示变动"}}


def column_label(profile: DomainProfile, code: str, lang: str = "en") -> str:
    """A column (channel) as a reader knows it: its longest written name, else its code.

    A name in the answer's language is preferred (Chinese characters for ``"zh"``); a
    stated change's column is named as one.
    """
    spec = profile.channels.get(code)
    written = [s for s in (spec.synonyms if spec else ()) if s and s != code]
    own = [s for s in written if (detect_language(s) == "zh") == (lang == "zh")]
    if written:
        return max(own or written, key=len)
    stated = _STATED_CHANGES.get(code)
    return stated.get(lang, stated["en"]) if stated else code


def slot_label(profile: DomainProfile, slot: str, code: str, lang: str = "en") -> str:
    """A ``metric``, ``entity`` or ``channel`` code in the profile's words (else the code)."""
    if slot == "metric":
        return metric_label(profile, code)
    if slot == "entity":
        return entity_label(profile, code)
    return column_label(profile, code, lang) if slot == "channel" else code


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
