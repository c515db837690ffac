"""The lazy, thread-safe connection lifecycle both database backends share."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

__all__ = ["LazyConnection"]

C = TypeVar("C")  # a DB-API connection with close()


class LazyConnection(ABC, Generic[C]):
    """A connection opened on first use and closed on :meth:`close`.

    :meth:`_open` runs once even when several threads ask at the same time; after
    :meth:`close` the next use opens again.
    """

    def __init__(self) -> None:
        self._conn: C | None = None
        self._lock = threading.RLock()

    @property
    def lock(self) -> threading.RLock:
        """The re-entrant lock that serialises use of :attr:`conn` across threads.

        Code sharing this connection (another component's statements on it) holds it
        around each use, as this class's own methods do.
        """
        return self._lock

    @property
    def conn(self) -> C:
        """The open connection (opened and schema-checked on first use)."""
        if self._conn is None:
            with self._lock:
                if self._conn is None:
                    self._conn = self._open()
        return self._conn

    @abstractmethod
    def _open(self) -> C:
        """Open and check the connection (each backend's own)."""

    def close(self) -> None:
        """Close the connection; the next use opens it again."""
        with self._lock:
            conn: Any = self._conn
            if conn is not None:
                conn.close()
                self._conn = None
