"""How far a user's ``execute_read`` may go: time, rows and bytes (both backends)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ragspine_nb.errors import QueryLimitError

__all__ = ["ReadLimits", "DEFAULT_READ_LIMITS", "ResultBudget"]


@dataclass(frozen=True)
class ReadLimits:
    """Limits of one :meth:`~ragspine_nb.stores._base.SQLStore.execute_read`.

    Parameters
    ----------
    timeout_s : float, default 5.0
        Wall-clock seconds the statement may run (SQLite: a progress-handler deadline;
        PostgreSQL: ``statement_timeout``). The store lock is free again right after.
    max_rows : int, default 100_000
        Rows a result may have.
    max_bytes : int, default 64 MiB
        Bytes of text and blobs a result may hold; on SQLite no single value (even an
        intermediate one) may grow past it either.

    Examples
    --------
    >>> ReadLimits(timeout_s=1.0).max_rows
    100000
    >>> ReadLimits(max_rows=0)
    Traceback (most recent call last):
    ...
    ValueError: max_rows must be an integer >= 1, got 0
    """

    timeout_s: float = 5.0
    max_rows: int = 100_000
    max_bytes: int = 64 * 2**20

    def __post_init__(self) -> None:
        t = self.timeout_s
        if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) \
                or t <= 0:
            raise ValueError(f"timeout_s must be a number of seconds > 0, got {t!r}")
        for name in ("max_rows", "max_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


DEFAULT_READ_LIMITS = ReadLimits()


def _size(value: Any) -> int:
    if isinstance(value, str | bytes | bytearray | memoryview):
        return len(value)
    return 8


class ResultBudget:
    """Counts the rows and bytes of a result as they arrive; raises past the limits."""

    def __init__(self, limits: ReadLimits) -> None:
        self.limits = limits
        self.rows = 0
        self.bytes = 0

    def take(self, row: Any) -> None:
        """Account for one row (any sequence of values)."""
        self.rows += 1
        if self.rows > self.limits.max_rows:
            raise QueryLimitError(
                f"execute_read stopped: the result has more than {self.limits.max_rows} rows "
                "(ReadLimits.max_rows); nothing changed. Add a LIMIT or aggregate.")
        self.bytes += sum(_size(v) for v in row)
        if self.bytes > self.limits.max_bytes:
            raise QueryLimitError(
                f"execute_read stopped: the result holds more than {self.limits.max_bytes} "
                "bytes (ReadLimits.max_bytes); nothing changed. Select fewer or shorter "
                "columns.")


def timeout_message(limits: ReadLimits) -> str:
    """The message of a read cut by the time limit."""
    return (f"execute_read stopped: the query ran past its {limits.timeout_s:g} s limit "
            "(ReadLimits.timeout_s); nothing changed. Narrow the query or raise the limit.")


def too_big_message(limits: ReadLimits) -> str:
    """The message of a read that built a value past the size limit."""
    return (f"execute_read stopped: a value grew too big (over {limits.max_bytes} bytes, "
            "ReadLimits.max_bytes); nothing changed.")
