"""The metadata filters a narrative search accepts (AND-combined, pushed down to the store)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["FILTER_KEYS", "check_filters"]

#: Metadata filters a search accepts (AND-combined, pushed down to the chunk store).
FILTER_KEYS: tuple[str, ...] = ("doc_id", "topic", "entity", "geography", "period", "language")


def check_filters(filters: Mapping[str, Any] | None) -> dict[str, str]:
    """The filters as strings, empty values left out; an unknown key is a ValueError.

    >>> check_filters({"doc_id": "a.pdf", "topic": ""})
    {'doc_id': 'a.pdf'}
    """
    if not filters:
        return {}
    unknown = sorted(set(filters) - set(FILTER_KEYS))
    if unknown:
        raise ValueError(f"unknown filter(s) {unknown}. Valid filters: {list(FILTER_KEYS)}")
    return {k: str(v) for k, v in filters.items() if v not in (None, "")}
