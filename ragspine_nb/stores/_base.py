"""What every SQLite-backed store shares: path, read-only queries, lifecycle, display."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.stores._postgres import PostgresDatabase, is_postgres_url
from ragspine_nb.stores._sqlite import SQLiteDatabase
from ragspine_nb.stores.limits import ReadLimits

if TYPE_CHECKING:
    from ragspine_nb.display.render import Card

__all__ = ["SQLStore", "open_database"]


def open_database(path: str | Path, *, schema: str, table: str, create: bool = True,
                  read_only: bool = False) -> SQLiteDatabase | PostgresDatabase:
    """A SQLite file (or ``":memory:"``) or, for a ``postgresql://`` URL, PostgreSQL.

    ``read_only`` opens a SQLite file for reading only (a file that cannot be written
    is always opened so); a PostgreSQL store is never opened read-only.
    """
    if is_postgres_url(path):
        return PostgresDatabase(str(path), schema=schema, table=table, create=create)
    return SQLiteDatabase(path, schema=schema, table=table, create=create, read_only=read_only)


class SQLStore(CardReprMixin, ABC):
    """Base of :class:`FactStore` and :class:`ChunkStore` on SQLite or PostgreSQL (``_db``)."""

    _db: SQLiteDatabase | PostgresDatabase

    @property
    def database(self) -> SQLiteDatabase | PostgresDatabase:
        """The database this store reads and writes (SQLite or PostgreSQL).

        For code of this package that shares the store's connection (the vector store and
        embedding cache of a SQL-engine index); a user's reads go through
        :meth:`execute_read`.
        """
        return self._db

    @property
    def path(self) -> str:
        """The database path (or ``":memory:"``)."""
        return self._db.path

    @property
    def read_only(self) -> bool:
        """Whether the store was opened for reading only (its file or folder is read-only).

        A write on such a store raises :class:`~ragspine_nb.errors.ReadOnlyStoreError`.
        """
        _ = self._db.conn  # the mode is chosen when the database opens
        return self._db.read_only

    @property
    def read_limits(self) -> ReadLimits:
        """The limits of :meth:`execute_read` when a call gives none."""
        return self._db.read_limits

    @read_limits.setter
    def read_limits(self, limits: ReadLimits) -> None:
        if not isinstance(limits, ReadLimits):
            raise TypeError(f"read_limits must be a ReadLimits, got {type(limits).__name__}")
        self._db.read_limits = limits

    def execute_read(self, sql: str, params: Sequence[Any] = (), *,
                     limits: ReadLimits | None = None) -> list[dict[str, Any]]:
        """Run one read-only SQL statement with bound ``params``.

        Anything that would write, change the schema, attach a database, set a
        pragma, control a transaction, or call a function outside the allowlist (files,
        programs, settings, extensions) raises
        :class:`~ragspine_nb.errors.ReadOnlyQueryError` and changes nothing. A query that
        runs past ``limits.timeout_s`` or returns more than ``limits.max_rows`` rows or
        ``limits.max_bytes`` bytes raises :class:`~ragspine_nb.errors.QueryLimitError`
        (``limits`` defaults to :attr:`read_limits`).
        """
        if limits is not None and not isinstance(limits, ReadLimits):
            raise TypeError(f"limits must be a ReadLimits, got {type(limits).__name__}")
        return self._db.execute_read(sql, params, limits)

    def integrity_check(self) -> str:
        """SQLite's integrity verdict, ``"ok"`` when sound."""
        return self._db.integrity_check()

    def close(self) -> None:
        """Close the underlying connection (the next use reopens it)."""
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def _display_card(self) -> Card:
        """Describe the store as plain display data."""

