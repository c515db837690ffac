"""What every SQLite-backed store shares: path, read-only queries, lifecycle, display."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ragspine_nb.stores._postgres import PostgresDatabase, is_postgres_url
from ragspine_nb.stores._sqlite import Database

if TYPE_CHECKING:
    from ragspine_nb.display.render import Card

__all__ = ["SQLiteStore", "open_database"]


def open_database(path: str | Path, *, schema: str, table: str,
                  create: bool = True) -> Database | PostgresDatabase:
    """A SQLite file (or ``":memory:"``) or, for a ``postgresql://`` URL, PostgreSQL."""
    if is_postgres_url(path):
        return PostgresDatabase(str(path), schema=schema, table=table, create=create)
    return Database(path, schema=schema, table=table, create=create)


class SQLiteStore(ABC):
    """Base of :class:`FactStore` and :class:`ChunkStore`; subclasses set ``_db``."""

    _db: Database | PostgresDatabase

    @property
    def path(self) -> str:
        """The database path (or ``":memory:"``)."""
        return self._db.path

    def execute_read(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Run one read-only SQL statement with bound ``params``.

        Anything that would write, change the schema, attach a database, set a
        pragma or control a transaction raises
        :class:`~ragspine_nb.errors.ReadOnlyQueryError` and changes nothing.
        """
        return self._db.execute_read(sql, params)

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

    def _repr_html_(self) -> str:
        from ragspine_nb.display.render import render_html

        return render_html(self._display_card())
