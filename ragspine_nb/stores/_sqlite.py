"""A small SQLite connection wrapper shared by the stores.

Autocommit connection with explicit ``BEGIN IMMEDIATE`` transactions, WAL for files,
a lock for use from widget threads, and a read-only query entry point enforced by
SQLite's authorizer (not by parsing SQL text).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ragspine_nb.errors import DatabaseNotFoundError, ReadOnlyQueryError, StoreError
from ragspine_nb.stores._connection import LazyConnection

__all__ = ["Database", "MEMORY"]

MEMORY = ":memory:"
_READ_ACTIONS = frozenset({
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    sqlite3.SQLITE_FUNCTION,
    getattr(sqlite3, "SQLITE_RECURSIVE", 33),
})


class Database(LazyConnection[sqlite3.Connection]):
    """One SQLite database file (or ``":memory:"``), opened lazily.

    Parameters
    ----------
    path : str or Path
        Database file, or ``":memory:"``.
    schema : str
        DDL applied idempotently (``CREATE ... IF NOT EXISTS``) on first use.
    table : str
        The store's main table; used to recognise a foreign database.
    create : bool
        When False the file must already exist and hold ``table``;
        :class:`DatabaseNotFoundError` otherwise, and no file is created.
    """

    def __init__(self, path: str | Path, *, schema: str, table: str, create: bool = True) -> None:
        super().__init__()
        if not isinstance(path, str | Path) or not str(path).strip():
            raise ValueError(f"path must be a file path or ':memory:', got {path!r}")
        self.path = str(path)
        self.is_memory = self.path == MEMORY
        self._schema = schema
        self._table = table
        self._create = create
        if not create and not self.is_memory and not Path(self.path).is_file():
            raise DatabaseNotFoundError(
                f"database not found: {self.path}. Build it first "
                "(e.g. `ragspine-nb ingest` or `ragspine-nb demo`); nothing was created."
            )

    # ------------------------------------------------------------ connection
    def _open(self) -> sqlite3.Connection:
        if not self._create and not self.is_memory:
            uri = Path(self.path).resolve().as_uri() + "?mode=rw"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None,
                                   check_same_thread=False, timeout=30.0)
        else:
            conn = sqlite3.connect(self.path, isolation_level=None,
                                   check_same_thread=False, timeout=30.0)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 30000")
        if not self.is_memory:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        exists = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (self._table,)
        ).fetchone()
        if not exists and not self._create:
            conn.close()
            raise DatabaseNotFoundError(
                f"{self.path} is not a ragspine_nb store (no table {self._table!r})"
            )
        conn.executescript(self._schema)
        return conn


    # ------------------------------------------------------------ statements
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; any exception rolls everything back."""
        with self._lock:
            conn = self.conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except sqlite3.Error as exc:
                conn.execute("ROLLBACK")
                raise StoreError(f"write failed and was rolled back, nothing changed: {exc}") \
                    from exc
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run a parameterized read of our own and return its rows."""
        with self._lock:
            return self.conn.execute(sql, tuple(params)).fetchall()

    def execute_read(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Run one user-supplied read-only statement with bound parameters.

        SQLite's authorizer denies every action except reading (SELECT, reading
        columns, calling functions, recursive CTEs), so writes, schema changes,
        ATTACH, PRAGMA and transaction control raise :class:`ReadOnlyQueryError`
        and change nothing.

        Returns
        -------
        list of dict
            One dict per row, keyed by column name.
        """
        if not isinstance(sql, str):
            raise ReadOnlyQueryError(f"sql must be a string, got {type(sql).__name__}")
        denied: list[str] = []

        def authorizer(action: int, arg1: str | None, arg2: str | None,
                       db: str | None, trigger: str | None) -> int:
            if action in _READ_ACTIONS:
                return sqlite3.SQLITE_OK
            denied.append(f"action {action} ({arg1 or ''} {arg2 or ''})".strip())
            return sqlite3.SQLITE_DENY

        with self._lock:
            conn = self.conn
            conn.set_authorizer(authorizer)
            try:
                cursor = conn.execute(sql, tuple(params))
                rows = cursor.fetchall()
            except sqlite3.DatabaseError as exc:
                if "one statement" in str(exc):
                    raise ReadOnlyQueryError(
                        f"execute_read runs exactly one statement: {exc}"
                    ) from exc
                if denied or "not authorized" in str(exc):
                    raise ReadOnlyQueryError(
                        "execute_read only runs read-only statements (SELECT / WITH ... "
                        f"SELECT); this one was refused: {exc}"
                    ) from exc
                raise StoreError(f"query failed: {exc}") from exc
            except sqlite3.Warning as exc:  # e.g. several statements at once
                raise ReadOnlyQueryError(f"execute_read runs exactly one statement: {exc}") from exc
            finally:
                conn.set_authorizer(None)
        return [dict(row) for row in rows]

    def integrity_check(self) -> str:
        """Return SQLite's ``PRAGMA integrity_check`` verdict (``"ok"`` when sound)."""
        return str(self.fetchall("PRAGMA integrity_check")[0][0])
