"""The structured channel's only fact-producing primitive: the ``query_metric`` tool."""

from __future__ import annotations

from datetime import date
from typing import Any

from ragspine_nb.core import QueryResult, UnrecognizedParamResult
from ragspine_nb.glossary import normalize_channel, normalize_entity, normalize_metric
from ragspine_nb.period_codes import normalize_period
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = [
    "execute_query_metric",
    "build_query_metric_tool_anthropic",
    "build_query_metric_tool_openai",
    "TOOL_NAME",
]

TOOL_NAME = "query_metric"


def execute_query_metric(store: FactStore, metric: str, entity: str, period: str,
                         channel: str | None = "TOTAL", *, profile: DomainProfile,
                         reference_date: date | None = None) -> QueryResult:
    """Normalise every parameter through the glossary and look the fact up exactly.

    Returns
    -------
    FoundResult
        The exact row exists; value and lineage come from the store.
    NotFoundResult
        Every parameter normalised but no row matches; nothing is inferred.
    ConflictResult
        Documents state this fact with different values and no user choice settles it:
        every value with its source, and no single number.
    UnrecognizedParamResult
        ``metric``, ``entity`` or ``period`` did not normalise (named, with its raw
        value). A present-but-unknown channel is passed through literally, so a typo
        gives ``not_found`` rather than a silent fallback to the default channel.
    """
    metric_code = normalize_metric(profile, metric)
    if metric_code is None:
        return UnrecognizedParamResult("metric", str(metric))
    entity_code = normalize_entity(profile, entity)
    if entity_code is None:
        return UnrecognizedParamResult("entity", str(entity))
    key = normalize_period(profile, period, reference_date)
    if key is None:
        return UnrecognizedParamResult("period", str(period))
    channel_code = normalize_channel(profile, channel) or str(channel).strip()
    return store.lookup(metric_code, entity_code, key[0], key[1], channel_code)


def _properties(profile: DomainProfile) -> dict[str, Any]:
    def examples(values: list[str]) -> str:
        return ", ".join(values[:6])

    metrics = [s for m in profile.metrics.values() for s in (m.code, *m.synonyms[:2])]
    entities = [s for e in profile.entities.values() for s in (e.code, *e.synonyms[:1])]
    channels = list(profile.channels)
    return {
        "metric": {"type": "string", "description": f"Metric, e.g. {examples(metrics)}"},
        "entity": {"type": "string", "description": f"Entity, e.g. {examples(entities)}"},
        "period": {"type": "string",
                   "description": "Period: FY2024, 2024H1, 2025Q1, or 去年/last year"},
        "channel": {"type": "string",
                    "description": f"Channel (default {profile.default_channel}), e.g. "
                                   f"{examples(channels)}"},
    }


_DESCRIPTION = ("Look up one reported number in the fact store. Returns found (value, unit, "
                "source), conflict (documents disagree: every value with its source — state "
                "no single number), not_found or unrecognized_param. It never estimates: a "
                "miss is reported as not_found — do not invent a number.")


def build_query_metric_tool_anthropic(profile: DomainProfile) -> dict[str, Any]:
    """The tool schema in Anthropic's shape, with examples from the profile."""
    return {"name": TOOL_NAME, "description": _DESCRIPTION,
            "input_schema": {"type": "object", "properties": _properties(profile),
                             "required": ["metric", "entity", "period"]}}


def build_query_metric_tool_openai(profile: DomainProfile) -> dict[str, Any]:
    """The tool schema in OpenAI's function-calling shape."""
    return {"type": "function", "function": {
        "name": TOOL_NAME, "description": _DESCRIPTION,
        "parameters": {"type": "object", "properties": _properties(profile),
                       "required": ["metric", "entity", "period"]}}}
