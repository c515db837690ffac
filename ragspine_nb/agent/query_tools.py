"""The structured channel's only fact-producing primitive: ``query_metric``."""

from __future__ import annotations

from datetime import date

from ragspine_nb.glossary import (
    normalize_channel,
    normalize_entity,
    normalize_metric,
    normalize_period,
)
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.types import (
    FoundResult,
    NotFoundResult,
    QueryResult,
    UnrecognizedParamResult,
)

__all__ = ["execute_query_metric"]


def execute_query_metric(
    store: FactStore,
    profile: DomainProfile,
    metric: str,
    entity: str,
    period: str,
    channel: str | None = None,
    *,
    reference_date: date | None = None,
) -> QueryResult:
    """Normalize every parameter through the glossary and look the fact up exactly.

    Returns
    -------
    FoundResult
        The exact row exists; the value and lineage come from the store.
    NotFoundResult
        Every parameter normalized but no row matches. Nothing is inferred.
    UnrecognizedParamResult
        ``metric``, ``entity`` or ``period`` did not normalize (named with its raw
        value). An unknown *channel* is passed through literally instead, so a typo
        yields ``not_found`` rather than a silent fallback to the default channel.
    """
    metric_code = normalize_metric(profile, metric)
    if metric_code is None:
        return UnrecognizedParamResult("metric", str(metric))
    entity_code = normalize_entity(profile, entity)
    if entity_code is None:
        return UnrecognizedParamResult("entity", str(entity))
    period_key = normalize_period(profile, period, reference_date)
    if period_key is None:
        return UnrecognizedParamResult("period", str(period))
    channel_code = normalize_channel(profile, channel) or str(channel).strip()
    period_type, period_value = period_key
    fact = store.query(metric_code, entity_code, period_type, period_value, channel_code)
    if fact is None:
        return NotFoundResult(metric_code, entity_code, period_type, period_value, channel_code)
    return FoundResult(fact)
