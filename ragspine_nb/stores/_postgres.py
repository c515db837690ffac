"""PostgreSQL behind the interface of :class:`~ragspine_nb.stores._sqlite.SQLiteDatabase`.

A store given a ``postgresql://`` URL uses this instead of a SQLite file: the same
schema (types mapped: ``REAL`` → ``DOUBLE PRECISION``), the same statements (``?``
placeholders become ``%s``; ``INSERT OR IGNORE`` / ``INSERT OR REPLACE`` become
``ON CONFLICT``), the same guarantees — every write in one transaction that rolls back
on any error (raised as :class:`~ragspine_nb.errors.StoreError`), values always bound.
A server that is down or a wrong URL raises
:class:`~ragspine_nb.errors.StoreConnectionError`; nothing ever falls back to SQLite.
Requires the ``team`` extra (psycopg 3).

:meth:`PostgresDatabase.execute_read` (a user's statement) has three fences: the text
check of :mod:`ragspine_nb.stores._pg_guard` (one read statement, allowed functions
only); the extended protocol (``Cursor.stream``), which refuses several statements; and
a connection of its own that is ``default_transaction_read_only`` with a
``statement_timeout``, so even a statement that got past the text check cannot write,
run past its time or change the store's own session.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ragspine_nb._optional import import_optional
from ragspine_nb.errors import (
    QueryLimitError,
    ReadOnlyQueryError,
    StoreConnectionError,
    StoreError,
)
from ragspine_nb.stores._connection import LazyConnection
from ragspine_nb.stores._pg_guard import checked_read_sql
from ragspine_nb.stores.limits import (
    DEFAULT_READ_LIMITS,
    ReadLimits,
    ResultBudget,
    timeout_message,
)

__all__ = ["PostgresDatabase", "is_postgres_url", "masked_url"]

_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
#: Conflict targets of the tables written with ``INSERT OR REPLACE``.
_PRIMARY_KEYS: dict[str, tuple[str, ...]] = {"source_document": ("doc_id",),
                                              "document_identity": ("doc_id",)}
_OR_REPLACE = re.compile(r"^\s*INSERT OR REPLACE INTO (\w+) \(([^)]*)\) (VALUES .*)$", re.S)
_OR_IGNORE = re.compile(r"^\s*INSERT OR IGNORE INTO (.*)$", re.S)


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


_CREATED = re.compile(r"^CREATE (?:UNIQUE )?(?:TABLE|INDEX) IF NOT EXISTS (\w+)", re.I)


def schema_objects(statements: Sequence[str]) -> tuple[str, ...]:
    """The tables and indexes a schema creates, in order.

    Examples
    --------
    >>> schema_objects(["CREATE TABLE IF NOT EXISTS t (a INT)",
    ...                 "CREATE INDEX IF NOT EXISTS t_a ON t (a)"])
    ('t', 't_a')
    """
    return tuple(m.group(1) for s in statements if (m := _CREATED.match(s)))


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


def _stream(conn: Any, query: str, params: tuple[Any, ...],
            limits: ReadLimits) -> list[dict[str, Any]]:
    """Rows of one statement sent with the extended protocol, counted as they arrive."""
    budget = ResultBudget(limits)
    out: list[dict[str, Any]] = []
    rows = conn.cursor().stream(query, params)
    try:
        for row in rows:
            budget.take(row)
            out.append(dict(zip(row.keys(), row, strict=True)))
    finally:
        rows.close()  # past a limit: cancel the query now, before the rollback
    return out


class _Tx:
    """What a store sees inside :meth:`PostgresDatabase.transaction` (sqlite3-like)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    @property
    def conn(self) -> Any:
        """The psycopg connection the transaction runs on (for ``COPY`` and other native calls)."""
        return self._conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(translate(sql), tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        cur = self._conn.cursor()
        cur.executemany(translate(sql), [tuple(r) for r in rows])
        return cur


def _connect(url: str, shown: str) -> Any:
    psycopg = import_optional("psycopg", extra="team", feature="PostgreSQL stores")
    try:
        return psycopg.connect(url, autocommit=True, row_factory=_row_factory,
                               connect_timeout=10)
    except psycopg.Error as exc:
        raise StoreConnectionError(
            f"cannot connect to {shown}: {str(exc).strip()}. Is the server running "
            "and the URL right? (Nothing falls back to SQLite.)") from exc


class _ReadSession(LazyConnection[Any]):
    """The connection of :meth:`PostgresDatabase.execute_read`: read-only, with a timeout."""

    def __init__(self, url: str, shown: str, timeout_s: float) -> None:
        super().__init__()
        self._url, self._shown, self._timeout_ms = url, shown, _ms(timeout_s)

    def _open(self) -> Any:
        conn = _connect(self._url, self._shown)
        try:
            conn.execute(
                "SELECT set_config('default_transaction_read_only', 'on', false), "
                "set_config('statement_timeout', %s, false), "
                "set_config('standard_conforming_strings', 'on', false), "
                "set_config('idle_in_transaction_session_timeout', '60000', false)",
                (str(self._timeout_ms),))
            if conn.execute("SHOW default_transaction_read_only").fetchone()[0] != "on":
                raise StoreError(f"{self._shown}: could not make the read session read-only")
        except BaseException:
            conn.close()
            raise
        return conn


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


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
        #: never read-only (the server decides); here for the same interface as SQLite
        self.read_only = False
        #: limits of :meth:`execute_read` when the call gives none
        self.read_limits: ReadLimits = DEFAULT_READ_LIMITS
        self._reader = _ReadSession(url, self.path, DEFAULT_READ_LIMITS.timeout_s)

    def _open(self) -> Any:
        psycopg = import_optional("psycopg", extra="team", feature="PostgreSQL stores")
        conn = _connect(self.url, self.path)
        exists = conn.execute("SELECT to_regclass(%s)", (self._table,)).fetchone()[0]
        if exists is None and not self._create:
            conn.close()
            raise StoreConnectionError(f"{self.path} has no table {self._table!r}; build the "
                                       "store first (nothing was created)")
        missing = self._missing(conn)
        if missing:  # a new store, or one made by an older version (tables added since)
            try:
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._table,))
                    for statement in self._schema:
                        conn.execute(statement)
            except psycopg.errors.InsufficientPrivilege as exc:
                conn.close()
                raise StoreError(
                    f"{self.path} lacks {list(missing)} and this role may not create them: "
                    f"{str(exc).strip()}. Ask the database's owner to open the store once "
                    "(nothing was changed).") from exc
        return conn

    def _missing(self, conn: Any) -> tuple[str, ...]:
        """The schema's tables and indexes that the database does not have yet."""
        names = list(schema_objects(self._schema))
        rows = conn.execute("SELECT n FROM unnest(%s::text[]) AS n WHERE to_regclass(n) IS NULL",
                            (names,)).fetchall()
        return tuple(r[0] for r in rows)

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """One transaction; any exception rolls everything back.

        Writers of one store take turns (a transaction-scoped advisory lock on the store's
        table), as SQLite's ``BEGIN IMMEDIATE`` makes them: a write that reads other
        documents' statements to settle a fact never races another such write.
        """
        psycopg = import_optional("psycopg", extra="team", feature="PostgreSQL stores")
        with self._lock:
            conn = self.conn
            try:
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                                 (f"ragspine write {self._table}",))
                    yield _Tx(conn)
            except psycopg.Error as exc:
                raise StoreError(f"write failed and was rolled back, nothing changed: "
                                 f"{str(exc).strip()}") from exc

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Run a parameterized read of our own and return its rows."""
        with self._lock:
            return list(self.conn.execute(translate(sql), tuple(params)).fetchall())

    def execute_read(self, sql: str, params: Sequence[Any] = (),
                     limits: ReadLimits | None = None) -> list[dict[str, Any]]:
        """Run one user-supplied read-only statement with bound parameters.

        See the module docstring for the three fences; a refused statement raises
        :class:`ReadOnlyQueryError`, a time or size limit :class:`QueryLimitError`, and
        nothing changes either way.
        """
        psycopg = import_optional("psycopg", extra="team", feature="PostgreSQL stores")
        if not isinstance(sql, str):
            raise ReadOnlyQueryError(f"sql must be a string, got {type(sql).__name__}")
        limits = limits or self.read_limits
        query = checked_read_sql(sql)
        with self._reader.lock:
            conn = self._reader.conn
            try:
                with conn.transaction():
                    conn.execute("SELECT set_config('statement_timeout', %s, true)",
                                 (str(_ms(limits.timeout_s)),))
                    return _stream(conn, query, tuple(params), limits)
            except psycopg.errors.QueryCanceled as exc:
                raise QueryLimitError(timeout_message(limits)) from exc
            except (psycopg.errors.ReadOnlySqlTransaction,
                    psycopg.errors.InsufficientPrivilege) as exc:
                raise ReadOnlyQueryError(f"execute_read only runs read-only statements; this "
                                         f"one was refused: {str(exc).strip()}") from exc
            except psycopg.errors.SyntaxError as exc:
                raise ReadOnlyQueryError(f"execute_read runs exactly one valid statement: "
                                         f"{str(exc).strip()}") from exc
            except psycopg.Error as exc:
                raise StoreError(f"query failed: {str(exc).strip()}") from exc

    def close(self) -> None:
        """Close both connections; the next use opens them again."""
        self._reader.close()
        super().close()

    def integrity_check(self) -> str:
        """``"ok"`` when the server answers (PostgreSQL checks integrity itself)."""
        return "ok" if self.fetchall("SELECT 1")[0][0] == 1 else "unreachable"
