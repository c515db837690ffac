"""A user's read-only statement on SQLite, inside a fence of authorizer, deadline and size.

Three guards, installed for the read and always removed afterwards (also on failure):

* SQLite's authorizer allows reading only (SELECT, reading columns, recursive CTEs) and
  only the SQL functions in :data:`ALLOWED_SQLITE_FUNCTIONS` — no ``load_extension``,
  ``fts3_tokenizer``, ``zeroblob`` or ``randomblob``;
* a progress handler stops the statement at the deadline
  (:attr:`~ragspine_nb.stores.limits.ReadLimits.timeout_s`), which frees the store lock;
* ``SQLITE_LIMIT_LENGTH`` caps every string or blob (even intermediate ones) at
  :attr:`~ragspine_nb.stores.limits.ReadLimits.max_bytes` before it is allocated, and the
  rows and bytes of the result are counted as they are fetched.

The deadline is checked between VM instructions, so it cannot stop one long call of a C
function; that is why ``printf`` (a ``%c`` repeated 2e9 times) is not allowed, and why a
file store runs these reads on a read-only connection of their own (``SQLiteDatabase``), so
even such a call never holds the store's lock.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

from ragspine_nb.errors import QueryLimitError, ReadOnlyQueryError, StoreError
from ragspine_nb.stores.limits import ReadLimits, ResultBudget, timeout_message, too_big_message

__all__ = ["ALLOWED_SQLITE_FUNCTIONS", "guarded_read"]

#: SQL functions a user's read may call (aggregates, window, string, date, math, JSON).
ALLOWED_SQLITE_FUNCTIONS: frozenset[str] = frozenset({
    # aggregates and window functions
    "avg", "count", "group_concat", "string_agg", "max", "min", "sum", "total",
    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
    "first_value", "last_value", "nth_value",
    # scalar
    # (not printf/format: ``printf('%.*c', 2e9, 'x')`` spins for seconds inside one call,
    # where no deadline can stop it; use round(), CAST and ||)
    "abs", "char", "coalesce", "concat", "concat_ws", "glob", "hex", "ifnull",
    "iif", "instr", "length", "like", "likelihood", "likely", "lower", "ltrim", "nullif",
    "octet_length", "quote", "replace", "round", "rtrim", "sign", "substr",
    "substring", "trim", "typeof", "unhex", "unicode", "unlikely", "upper",
    # date and time
    "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
    "current_date", "current_time", "current_timestamp",
    # math
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos",
    "cosh", "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow",
    "power", "radians", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
    # JSON
    "json", "json_array", "json_array_length", "json_extract", "json_group_array",
    "json_group_object", "json_object", "json_quote", "json_type", "json_valid", "->", "->>",
})
_READ_ACTIONS = frozenset({
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    getattr(sqlite3, "SQLITE_RECURSIVE", 33),
})
#: VM instructions between two deadline checks.
_PROGRESS_STEPS = 2000


def _authorizer(denied: list[str]) -> Callable[..., int]:
    def authorize(action: int, arg1: str | None, arg2: str | None,
                  db: str | None, trigger: str | None) -> int:
        if action == sqlite3.SQLITE_FUNCTION:
            if (arg2 or "").lower() in ALLOWED_SQLITE_FUNCTIONS:
                return sqlite3.SQLITE_OK
            denied.append(f"the SQL function {arg2!r} is not allowed")
            return sqlite3.SQLITE_DENY
        if action in _READ_ACTIONS:
            return sqlite3.SQLITE_OK
        denied.append(f"action {action} ({arg1 or ''} {arg2 or ''})".strip())
        return sqlite3.SQLITE_DENY

    return authorize


def _refusal(exc: sqlite3.Error, denied: list[str], expired: bool,
             limits: ReadLimits) -> Exception:
    """The named error for a read SQLite stopped."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if "one statement" in str(exc):
        return ReadOnlyQueryError(f"execute_read runs exactly one statement: {exc}")
    if expired and code == sqlite3.SQLITE_INTERRUPT:
        return QueryLimitError(timeout_message(limits))
    if code == sqlite3.SQLITE_TOOBIG:
        return QueryLimitError(too_big_message(limits))
    functions = [d for d in denied if d.startswith("the SQL function")]
    if functions:
        return ReadOnlyQueryError(
            f"execute_read refused this statement: {functions[0]}; allowed functions: "
            f"{', '.join(sorted(ALLOWED_SQLITE_FUNCTIONS, key=lambda n: (n[0] == '-', n)))}")
    if denied or "not authorized" in str(exc):
        return ReadOnlyQueryError(
            "execute_read only runs read-only statements (SELECT / WITH ... SELECT); this "
            f"one was refused: {exc}")
    return StoreError(f"query failed: {exc}")


def _fetch(cursor: sqlite3.Cursor, limits: ReadLimits) -> list[dict[str, Any]]:
    budget = ResultBudget(limits)
    out: list[dict[str, Any]] = []
    while batch := cursor.fetchmany(256):
        for row in batch:
            budget.take(tuple(row))
            out.append(dict(row))
    return out


def guarded_read(conn: sqlite3.Connection, sql: str, params: Sequence[Any],
                 limits: ReadLimits) -> list[dict[str, Any]]:
    """Run one user statement on ``conn`` inside the guards (the caller holds its lock).

    Raises
    ------
    ReadOnlyQueryError
        A write, a schema change, a pragma, several statements or a function outside
        :data:`ALLOWED_SQLITE_FUNCTIONS`.
    QueryLimitError
        Past the deadline, a value over ``max_bytes``, or a result over the limits.
    """
    denied: list[str] = []
    deadline = time.monotonic() + limits.timeout_s
    expired = False

    def progress() -> int:
        nonlocal expired
        expired = time.monotonic() > deadline
        return int(expired)

    length = conn.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
    conn.set_authorizer(_authorizer(denied))
    conn.set_progress_handler(progress, _PROGRESS_STEPS)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(length, limits.max_bytes))
    cursor: sqlite3.Cursor | None = None
    try:
        cursor = conn.execute(sql, tuple(params))
        return _fetch(cursor, limits)
    except sqlite3.Error as exc:
        raise _refusal(exc, denied, expired, limits) from exc
    finally:
        if cursor is not None:
            cursor.close()
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, length)
        conn.set_progress_handler(None, 0)
        conn.set_authorizer(None)
