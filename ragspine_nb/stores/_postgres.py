"""PostgreSQL behind the same small interface as :class:`~ragspine_nb.stores._sqlite.Database`.

A store given a ``postgresql://`` URL uses this instead of a SQLite file: the same
schema (types mapped: ``REAL`` → ``DOUBLE PRECISION``), the same statements (``?``
placeholders become ``%s``; ``INSERT OR IGNORE`` / ``INSERT OR REPLACE`` become
``ON CONFLICT``), the same guarantees — every write in one transaction that rolls back
on any error (raised as :class:`~ragspine_nb.errors.StoreError`), values always bound,
and :meth:`execute_read` inside a ``READ ONLY`` transaction. A server that is down or a
wrong URL raises :class:`~ragspine_nb.errors.StoreConnectionError`; nothing ever falls
back to SQLite. Requires the ``team`` extra (psycopg 3).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ragspine_nb._optional import import_optional
from ragspine_nb.errors import ReadOnlyQueryError, StoreConnectionError, StoreError
from ragspine_nb.stores._connection import LazyConnection

__all__ = ["PostgresDatabase", "is_postgres_url", "masked_url"]

_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
#: Conflict targets of the tables written with ``INSERT OR REPLACE``.
_PRIMARY_KEYS: dict[str, tuple[str, ...]] = {"source_document": ("doc_id",)}
_OR_REPLACE = re.compile(r"^\s*INSERT OR REPLACE INTO (\w+) \(([^)]*)\) (VALUES .*)$", re.S)
_OR_IGNORE = re.compile(r"^\s*INSERT OR IGNORE INTO (.*)$", re.S)
_READ_START = re.compile(r"^\s*(?:\(\s*)*(?:SELECT|WITH|VALUES|TABLE|EXPLAIN)\b", re.I)


def is_postgres_url(path: object) -> bool:
    """Whether ``path`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(path, str) and path.lower().startswith(_SCHEMES)


def masked_url(url: str) -> str:
    """The URL with any password replaced by ``***`` (for messages and ``path``)."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


@lru_cache(maxsize=512)
def translate(sql: str) -> str:
    """A SQLite-dialect statement of ours in PostgreSQL's dialect.

    Examples
    --------
    >>> translate("SELECT a FROM t WHERE b = ? AND c = ?")
    'SELECT a FROM t WHERE b = %s AND c = %s'
    >>> translate("INSERT OR REPLACE INTO source_document (doc_id, path) VALUES (?, ?)")[-55:]
    'ON CONFLICT (doc_id) DO UPDATE SET path = EXCLUDED.path'
    """
    if m := _OR_REPLACE.match(sql):
        table, cols, values = m.group(1), m.group(2), m.group(3)
        keys = _PRIMARY_KEYS[table]
        names = [c.strip() for c in cols.split(",")]
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in names if c not in keys)
        sql = (f"INSERT INTO {table} ({cols}) {values} ON CONFLICT ({', '.join(keys)}) "
               f"DO UPDATE SET {updates}")
    elif m := _OR_IGNORE.match(sql):
        sql = f"INSERT INTO {m.group(1)} ON CONFLICT DO NOTHING"
    return sql.replace("?", "%s")


def _schema(ddl: str) -> list[str]:
    ddl = re.sub(r"\bREAL\b", "DOUBLE PRECISION", ddl)
    return [s.strip() for s in ddl.split(";") if s.strip()]


class _Row(tuple):  # type: ignore[type-arg]
    """A row readable by position and by column name, like ``sqlite3.Row``."""

    _names: tuple[str, ...] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names.index(key))
        return tuple.__getitem__(self, key)

    def keys(self) -> tuple[str, ...]:
        return self._names


@lru_cache(maxsize=256)
def _row_type(names: tuple[str, ...]) -> type[_Row]:
    return type("Row", (_Row,), {"_names": names})


def _row_factory(cursor: Any) -> Any:
    row_type = _row_type(tuple(d.name for d in cursor.description or ()))

    def make(values: Sequence[Any]) -> _Row:
        return row_type(values)

    return make


class _Tx:
    """What a store sees inside :meth:`PostgresDatabase.transaction` (sqlite3-like)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(translate(sql), tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        cur = self._conn.cursor()
        cur.executemany(translate(sql), [tuple(r) for r in rows])
        return cur


class PostgresDatabase(LazyConnection[Any]):
    """One PostgreSQL database, opened lazily (see the module docstring).

    Parameters
    ----------
    url : str
        ``postgresql://user:password@host:port/dbname`` (or a socket ``host=`` query).
    schema : str
        The store's DDL (SQLite dialect; ``CREATE ... IF NOT EXISTS``).
    table : str
        The store's main table; with ``create=False`` it must already exist.
    create : bool
        Create the schema when absent.
    """

    def __init__(self, url: str, *, schema: str, table: str, create: bool = True) -> None:
        super().__init__()
        if not is_postgres_url(url):
            raise ValueError(f"not a PostgreSQL URL: {url!r} (expected postgresql://...)")
        self.url = url
        self.path = masked_url(url)
        self.is_memory = False
        self._schema = _schema(schema)
        self._table = table
        self._create = create

    def _open(self) -> Any:
        psycopg = import_optional("psycopg", extra="team", feature="PostgreSQL stores")
        try:
            conn = psycopg.connect(self.url, autocommit=True, row_factory=_row_factory,
                                   connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreConnectionError(
                f"cannot connect to {self.path}: {str(exc).strip()}. Is the server running "
                "and the URL right? (Nothing falls back to SQLite.)") from exc
        exists = conn.execute("SELECT to_regclass(%s)", (self._table,)).fetchone()[0]
        if exists is None and not self._create:
            conn.close()
            raise StoreConnectionError(f"{self.path} has no table {self._table!r}; build the "
                                       "store first (nothing was created)")
        if exists is None:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._table,))
                for statement in self._schema:
                    conn.execute(statement)
        return conn

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """One transaction; any exception rolls everything back."""
        psycopg = import_optional("psycopg", extra="team", feature="PostgreSQL stores")
        with self._lock:
            conn = self.conn
            try:
                with conn.transaction():
                    yield _Tx(conn)
            except psycopg.Error as exc:
                raise StoreError(f"write failed and was rolled back, nothing changed: "
                                 f"{str(exc).strip()}") from exc

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Run a parameterized read of our own and return its rows."""
        with self._lock:
            return list(self.conn.execute(translate(sql), tuple(params)).fetchall())

    def execute_read(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Run one read-only statement with bound parameters (a ``READ ONLY`` transaction)."""
        psycopg = import_optional("psycopg", extra="team", feature="PostgreSQL stores")
        if not isinstance(sql, str):
            raise ReadOnlyQueryError(f"sql must be a string, got {type(sql).__name__}")
        if not _READ_START.match(sql):
            raise ReadOnlyQueryError("execute_read only runs read-only statements (SELECT / "
                                     "WITH ... SELECT); this one was refused")
        with self._lock:
            conn = self.conn
            try:
                with conn.transaction():
                    conn.execute("SET TRANSACTION READ ONLY")
                    rows = conn.execute(sql.replace("?", "%s"), tuple(params)).fetchall()
            except (psycopg.errors.ReadOnlySqlTransaction,
                    psycopg.errors.InsufficientPrivilege) as exc:
                raise ReadOnlyQueryError(f"execute_read only runs read-only statements; this "
                                         f"one was refused: {str(exc).strip()}") from exc
            except psycopg.errors.SyntaxError as exc:
                raise ReadOnlyQueryError(f"execute_read runs exactly one valid statement: "
                                         f"{str(exc).strip()}") from exc
            except psycopg.Error as exc:
                raise StoreError(f"query failed: {str(exc).strip()}") from exc
        return [dict(zip(r.keys(), r, strict=True)) for r in rows]

    def integrity_check(self) -> str:
        """``"ok"`` when the server answers (PostgreSQL checks integrity itself)."""
        return "ok" if self.fetchall("SELECT 1")[0][0] == 1 else "unreachable"
