"""A small SQLite connection wrapper shared by the stores.

Autocommit connection with explicit ``BEGIN IMMEDIATE`` transactions, WAL for files,
a lock for use from widget threads, and a read-only query entry point enforced by
SQLite's authorizer with a deadline and size limits (not by parsing SQL text; see
:mod:`ragspine_nb.stores._sqlite_read`).

A file that cannot be written (the file or its folder is read-only, or ``read_only=True``)
is opened read-only (``mode=ro``; ``immutable=1`` when even the WAL index cannot be
created beside it): reads and ``execute_read`` work and a write raises
:class:`~ragspine_nb.errors.ReadOnlyStoreError`. A full disk raises
:class:`~ragspine_nb.errors.DiskFullError`; every failed write is rolled back.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ragspine_nb.errors import (
    DatabaseNotFoundError,
    DiskFullError,
    ReadOnlyQueryError,
    ReadOnlyStoreError,
    StoreError,
)
from ragspine_nb.stores._connection import LazyConnection
from ragspine_nb.stores._sqlite_read import guarded_read
from ragspine_nb.stores.limits import DEFAULT_READ_LIMITS, ReadLimits

__all__ = ["SQLiteDatabase", "MEMORY", "write_error"]

MEMORY = ":memory:"
_CREATE_TABLE = re.compile(r"^\s*CREATE\s+TABLE\b", re.I)


def _code(exc: BaseException) -> int:
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF


def write_error(exc: sqlite3.Error, path: str) -> StoreError:
    """The named error for a failed (and rolled back) write to ``path``."""
    code = _code(exc)
    if code == sqlite3.SQLITE_FULL:
        return DiskFullError(f"disk full while writing {path}; nothing changed (the write "
                             "was rolled back). Free some disk space and run it again.")
    if code == sqlite3.SQLITE_READONLY:
        return ReadOnlyStoreError(f"{path} is read-only (the file or its folder cannot be "
                                  "written); nothing was changed.")
    if code == sqlite3.SQLITE_IOERR:
        return StoreError(f"I/O error while writing {path} ({exc}); nothing changed (the "
                          "write was rolled back). Is the disk full or failing?")
    return StoreError(f"write failed and was rolled back, nothing changed: {exc}")


def _writable(path: Path) -> bool:
    """Whether this process may write the file (when it exists) and its folder."""
    folder = path.parent if str(path.parent) else Path(".")
    return os.access(folder, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def _statements(script: str) -> list[str]:
    """A DDL script split into complete statements."""
    out, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n\t;"):
                out.append(pending.strip())
            pending = ""
    return out


def _read_only_schema(conn: sqlite3.Connection, schema: str) -> None:
    """Apply what can be applied to a read-only file; tables it lacks appear empty."""
    for statement in _statements(schema):
        try:
            conn.execute(statement)
        except sqlite3.OperationalError:
            if _CREATE_TABLE.match(statement):  # a table newer than the file: empty, TEMP
                conn.execute(_CREATE_TABLE.sub("CREATE TEMP TABLE", statement, count=1))


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """``mode=ro``; ``immutable=1`` when the WAL index cannot be made beside the file."""
    last: sqlite3.Error | None = None
    for options in ("?mode=ro", "?mode=ro&immutable=1"):
        conn = sqlite3.connect(path.resolve().as_uri() + options, uri=True,
                               isolation_level=None, check_same_thread=False, timeout=30.0)
        try:
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.Error as exc:
            conn.close()
            last = exc
            continue
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 30000")
        return conn
    raise StoreError(f"cannot open {path}, not even for reading: {last}") from last


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass


class SQLiteDatabase(LazyConnection[sqlite3.Connection]):
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
    read_only : bool
        Open the file for reading only even when it could be written. A file that
        cannot be written is always opened read-only; see :attr:`read_only`.
    """

    def __init__(self, path: str | Path, *, schema: str, table: str, create: bool = True,
                 read_only: bool = False) -> None:
        super().__init__()
        if not isinstance(path, str | Path) or not str(path).strip():
            raise ValueError(f"path must be a file path or ':memory:', got {path!r}")
        self.path = str(path)
        self.is_memory = self.path == MEMORY
        self._schema = schema
        self._table = table
        self._create = create
        #: True once the file was opened read-only (asked for, or not writable)
        self.read_only = self._asked_read_only = bool(read_only) and not self.is_memory
        #: limits of :meth:`execute_read` when the call gives none
        self.read_limits: ReadLimits = DEFAULT_READ_LIMITS
        self._read_conn: sqlite3.Connection | None = None
        self._read_lock = threading.Lock()
        if not create and not self.is_memory and not Path(self.path).is_file():
            raise DatabaseNotFoundError(
                f"database not found: {self.path}. Build it first "
                "(e.g. `ragspine-nb ingest` or `ragspine-nb demo`); nothing was created."
            )

    # ------------------------------------------------------------ connection
    def _open(self) -> sqlite3.Connection:
        if self.is_memory:
            conn = sqlite3.connect(MEMORY, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            self._check_table(conn)
            conn.executescript(self._schema)
            return conn
        path = Path(self.path)
        if self.read_only or (path.exists() and not _writable(path)):
            return self._open_read_only(path)
        if not path.parent.is_dir():
            raise StoreError(f"cannot create {path}: the folder {path.parent} does not exist")
        if not _writable(path):
            raise ReadOnlyStoreError(f"cannot create {path}: its folder is read-only; nothing "
                                     "was created. Choose a writable folder.")
        try:
            return self._open_writable(path)
        except sqlite3.Error as exc:
            if _code(exc) in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN) \
                    and path.is_file():  # e.g. a read-only mount os.access did not see
                return self._open_read_only(path)
            raise self._open_error(exc) from exc

    def _open_writable(self, path: Path) -> sqlite3.Connection:
        if not self._create:
            conn = sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True,
                                   isolation_level=None, check_same_thread=False, timeout=30.0)
        else:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                   timeout=30.0)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            self._check_table(conn)
            conn.executescript(self._schema)
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_read_only(self, path: Path) -> sqlite3.Connection:
        conn = _connect_read_only(path)
        try:
            self._check_table(conn)
            _read_only_schema(conn, self._schema)
        except BaseException:
            conn.close()
            raise
        self.read_only = True
        return conn

    def _check_table(self, conn: sqlite3.Connection) -> None:
        exists = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (self._table,)
        ).fetchone()
        if not exists and not self._create:
            raise DatabaseNotFoundError(
                f"{self.path} is not a ragspine_nb store (no table {self._table!r})"
            )

    def _open_error(self, exc: sqlite3.Error) -> StoreError:
        if _code(exc) == sqlite3.SQLITE_FULL:
            return DiskFullError(f"disk full while writing {self.path} (opening the store); "
                                 "nothing changed. Free some disk space and run it again.")
        if _code(exc) in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY):
            return write_error(exc, self.path)
        return StoreError(f"cannot open {self.path}: {exc}. Is it a SQLite file in a folder "
                          "that exists?")

    def _read_only_message(self) -> str:
        return (f"{self.path} is read-only (opened for reading only: the file or its folder "
                "is not writable); nothing was changed. Copy it to a writable folder to "
                "change it.")

    # ------------------------------------------------------------ statements
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; any exception rolls everything back.

        Raises :class:`ReadOnlyStoreError` on a read-only file and
        :class:`DiskFullError` when the disk fills up; nothing is changed either way.
        """
        with self._lock:
            conn = self.conn
            if self.read_only:
                raise ReadOnlyStoreError(self._read_only_message())
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise write_error(exc, self.path) from exc
            try:
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                _rollback(conn)
                raise write_error(exc, self.path) from exc
            except BaseException:
                _rollback(conn)
                raise

    def change_token(self) -> tuple[int, int, int]:
        """A value that changes whenever a write to the database commits, from any connection.

        This connection's ``total_changes`` counts its own writes and ``PRAGMA
        data_version`` moves when another connection commits; both are cheap, unlike
        reading a table. (A reopened connection gives a new token as well.)
        """
        with self._lock:
            conn = self.conn
            version = conn.execute("PRAGMA data_version").fetchone()[0]
            return (id(conn), int(conn.total_changes), int(version))

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run a parameterized read of our own and return its rows."""
        with self._lock:
            return self.conn.execute(sql, tuple(params)).fetchall()

    def execute_read(self, sql: str, params: Sequence[Any] = (),
                     limits: ReadLimits | None = None) -> list[dict[str, Any]]:
        """Run one user-supplied read-only statement with bound parameters.

        SQLite's authorizer denies every action except reading (SELECT, reading
        columns, calling allowed functions, recursive CTEs), so writes, schema changes,
        ATTACH, PRAGMA and transaction control raise :class:`ReadOnlyQueryError` and
        change nothing; a deadline and size limits (``limits``, else
        :attr:`read_limits`) raise :class:`~ragspine_nb.errors.QueryLimitError`.

        Returns
        -------
        list of dict
            One dict per row, keyed by column name.
        """
        if not isinstance(sql, str):
            raise ReadOnlyQueryError(f"sql must be a string, got {type(sql).__name__}")
        if self.is_memory:  # one connection: the read waits for (and holds) the lock
            with self._lock:
                return guarded_read(self.conn, sql, params, limits or self.read_limits)
        with self._read_lock:  # a file: a read-only connection of its own, never our lock
            return guarded_read(self._reader(), sql, params, limits or self.read_limits)

    def _reader(self) -> sqlite3.Connection:
        """The read-only connection of :meth:`execute_read` (opened after the store's)."""
        if self._read_conn is None:
            _ = self.conn  # the schema exists before the reader looks at it
            conn = _connect_read_only(Path(self.path))
            try:
                _read_only_schema(conn, self._schema)
            except BaseException:
                conn.close()
                raise
            self._read_conn = conn
        return self._read_conn

    def close(self) -> None:
        """Close both connections; the next use opens them again."""
        with self._read_lock:
            if self._read_conn is not None:
                self._read_conn.close()
                self._read_conn = None
        with self._lock:
            super().close()
            self.read_only = self._asked_read_only  # chosen again at the next open

    def integrity_check(self) -> str:
        """Return SQLite's ``PRAGMA integrity_check`` verdict (``"ok"`` when sound)."""
        return str(self.fetchall("PRAGMA integrity_check")[0][0])
