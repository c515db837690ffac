"""A privacy-aware trace: identifiers, codes, statuses and timings — never content.

Any attempt to record a value, a chunk text, a prompt, a question or an answer raises
:class:`~ragspine_nb.errors.TraceError`, so the trace can be logged or shown safely.
"""

from __future__ import annotations

import uuid
from typing import Any

from ragspine_nb.errors import TraceError

__all__ = ["Trace", "FORBIDDEN_KEYS"]

FORBIDDEN_KEYS = frozenset({"answer", "value", "values", "text", "content", "prompt",
                            "question", "snippet", "snippets", "messages", "history"})


class Trace:
    """Collects one request's structured trace."""

    def __init__(self, request_id: str | None = None) -> None:
        self.data: dict[str, Any] = {"request_id": request_id or uuid.uuid4().hex[:16]}

    def record(self, **fields: Any) -> None:
        """Add fields; content-bearing keys are refused."""
        for key, value in fields.items():
            self._check(key, value)
        self.data.update(fields)

    def _check(self, key: str, value: Any) -> None:
        if key.lower() in FORBIDDEN_KEYS:
            raise TraceError(f"the trace refuses to record {key!r} (privacy: no content)")
        if isinstance(value, dict):
            for k, v in value.items():
                self._check(str(k), v)
        elif isinstance(value, list | tuple):
            for v in value:
                if isinstance(v, dict):
                    self._check("item", v)

    def to_dict(self) -> dict[str, Any]:
        """A copy of the trace."""
        return dict(self.data)
