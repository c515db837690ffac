"""Every document's statement of a fact, conflicts between them and users' resolutions.

``fact_statement`` keeps one row per (fact identity, document): what each document
states. ``fact_metric`` holds the *settled* fact of an identity, derived from its
statements in the same transaction as every write:

* one document states it, or all that state it agree (same value and unit): the
  statement of the first document by id (order independent), the others are listed
  as also stating it;
* documents disagree and a user resolved it (``fact_resolution``, with who, when and
  a note) among exactly these statements: the chosen document's statement;
* documents disagree otherwise: **no row** — the identity is an open conflict and is
  answered with every statement and its source, never with a single number.

A choice holds while the statements it was made among keep their documents, values
and units (re-ingesting a document with the same value keeps it; a changed value
reopens the conflict, or ends it when the documents now agree).

The functions taking ``conn`` run inside one store transaction (SQLite or PostgreSQL;
every value bound).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from typing import Any

from ragspine_nb.core import ConflictResult, Fact, Resolution
from ragspine_nb.units import same_amount

__all__ = ["KEY", "COLUMNS", "statement_schema", "same_value", "disagree", "signature",
           "Settled", "settle", "conflict_of", "key_of", "row_to_fact", "replace_document",
           "overwrite", "remove_document", "settle_keys", "RESOLUTION_COLUMNS", "utc_now",
           "statements_sql", "write_resolution", "resolutions_sql", "parse_resolutions",
           "conflicted_sql", "UPSERT_FACT", "all_statements_sql", "cited_statement",
           "own_periods_sql", "ANNUAL_FILINGS"]

#: The identity of a fact (``fact_metric``'s primary key).
KEY: tuple[str, ...] = ("metric_code", "entity", "channel", "period_type", "period")
#: Columns of ``fact_statement`` (the :class:`Fact` fields, as in ``fact_metric``).
COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Fact))
#: Columns of ``fact_resolution`` after the identity.
RESOLUTION_COLUMNS: tuple[str, ...] = ("keep_doc_id", "statements", "resolved_by",
                                       "resolved_at", "note")
Key = tuple[str, ...]

_COLS = ", ".join(COLUMNS)
_MATCH = " AND ".join(f"{k} = ?" for k in KEY)
_JOIN = " AND ".join(f"o.{k} = d.{k}" for k in KEY)
# Every SQL string below names only fixed column identifiers; values are always bound.
_INSERT_STATEMENT = (
    f"INSERT INTO fact_statement ({_COLS}) VALUES ({', '.join('?' for _ in COLUMNS)}) "  # noqa: S608
    f"ON CONFLICT ({', '.join(KEY)}, source_doc_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c not in (*KEY, "source_doc_id")))
_INSERT_FACT = (
    f"INSERT INTO fact_metric ({_COLS}) VALUES ({', '.join('?' for _ in COLUMNS)}) "  # noqa: S608
    f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c not in KEY))
_ALL = (f"SELECT {_COLS} FROM fact_statement "  # noqa: S608
        f"ORDER BY source_doc_id, {', '.join(KEY)}, source_locator")
#: Insert-or-overwrite of one settled fact in ``fact_metric``.
UPSERT_FACT = _INSERT_FACT
_SHARED = (  # the other documents' statements of the identities one document states
    f"SELECT {', '.join(f'o.{c}' for c in COLUMNS)} FROM fact_statement o "  # noqa: S608
    f"JOIN fact_statement d ON {_JOIN} WHERE d.source_doc_id = ? AND o.source_doc_id <> ?")
_BACKFILL = (  # a store written before statements were kept: its facts are the statements
    f"INSERT INTO fact_statement ({_COLS}) SELECT {_COLS} FROM fact_metric "  # noqa: S608
    "WHERE NOT EXISTS (SELECT 1 FROM fact_statement)")
_STATEMENTS = (f"SELECT {_COLS} FROM fact_statement WHERE {_MATCH} "  # noqa: S608
               "ORDER BY source_doc_id, source_locator")
_CONFLICTED = (  # every statement of an identity stated by several documents
    f"SELECT {', '.join(f'o.{c}' for c in COLUMNS)} FROM fact_statement o JOIN ("  # noqa: S608
    f"SELECT {', '.join(KEY)} FROM fact_statement GROUP BY {', '.join(KEY)} "
    f"HAVING COUNT(*) > 1) d ON {_JOIN} "
    f"ORDER BY {', '.join(f'o.{k}' for k in KEY)}, o.source_doc_id, o.source_locator")
_WRITE_RESOLUTION = (
    f"INSERT INTO fact_resolution ({', '.join(KEY + RESOLUTION_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' for _ in KEY + RESOLUTION_COLUMNS)}) "
    f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in RESOLUTION_COLUMNS))
_RESOLUTIONS = f"SELECT {', '.join(KEY + RESOLUTION_COLUMNS)} FROM fact_resolution"  # noqa: S608


def statement_schema(columns_ddl: str) -> str:
    """DDL of ``fact_statement`` (with ``fact_metric``'s column checks) and ``fact_resolution``."""
    key = ", ".join(KEY)
    return f"""
CREATE TABLE IF NOT EXISTS fact_statement ({columns_ddl},
    PRIMARY KEY ({key}, source_doc_id)
);
CREATE INDEX IF NOT EXISTS fact_statement_by_doc ON fact_statement (source_doc_id);
CREATE TABLE IF NOT EXISTS fact_resolution (
    {", ".join(f"{k} TEXT NOT NULL" for k in KEY)},
    keep_doc_id TEXT NOT NULL CHECK (length(trim(keep_doc_id)) > 0),
    statements TEXT NOT NULL,
    resolved_by TEXT NOT NULL,
    resolved_at TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    PRIMARY KEY ({key})
);
"""


# ------------------------------------------------------------------ pure rules
def utc_now() -> str:
    """Current UTC time as ISO-8601 with seconds (the ``ingested_at`` stamp)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def key_of(fact: Fact) -> Key:
    """The identity of a fact."""
    return tuple(getattr(fact, k) for k in KEY)


def row_to_fact(row: Any) -> Fact:
    """A ``fact_metric`` / ``fact_statement`` row as a :class:`Fact`."""
    return Fact(**{c: row[c] for c in COLUMNS})


def same_value(a: Fact, b: Fact) -> bool:
    """Whether two statements agree: the same amount, in the same unit or another scale.

    1,405 ``USD_M`` and 1,405,123 ``USD_K`` agree (see :func:`~ragspine_nb.units.same_amount`).
    """
    return same_amount(a.value, a.unit, b.value, b.unit)


def disagree(statements: Sequence[Fact]) -> bool:
    """Whether some statement differs from the first in value or unit."""
    return any(not same_value(statements[0], s) for s in statements[1:])


def signature(statements: Iterable[Fact]) -> str:
    """The statements a choice was made among: sorted ``doc|value|unit`` lines."""
    return "\n".join(sorted(f"{s.source_doc_id}|{s.value!r}|{s.unit}" for s in statements))


@dataclass(frozen=True)
class Settled:
    """What ``fact_metric`` holds for one identity, given its statements."""

    fact: Fact | None
    statements: tuple[Fact, ...]
    resolution: Resolution | None = None

    @property
    def conflict(self) -> bool:
        """Documents disagree and no resolution applies."""
        return self.fact is None and len(self.statements) > 1


def settle(statements: Iterable[Fact], resolution: Resolution | None = None) -> Settled:
    """Settle one identity: agreement, an applicable choice, or an open conflict."""
    ordered = tuple(sorted(statements, key=lambda f: (f.source_doc_id, f.source_locator)))
    if not ordered:
        return Settled(None, ())
    if not disagree(ordered):
        return Settled(ordered[0], ordered)
    if resolution is not None and resolution.statements == signature(ordered):
        kept = [s for s in ordered if s.source_doc_id == resolution.keep_doc_id]
        if kept:
            return Settled(kept[0], ordered, resolution)
    return Settled(None, ordered)


#: Document types that are a year's annual filing (the audited statements of that year).
ANNUAL_FILINGS = frozenset({"10-K", "20-F", "40-F"})


def own_periods_sql(n: int) -> str:
    """``(doc_id, period, doc_type)`` of ``n`` documents' identities (``?`` each)."""
    marks = ", ".join("?" * n)
    return f"SELECT doc_id, period, doc_type FROM document_identity WHERE doc_id IN ({marks})"  # noqa: S608


def cited_statement(agreeing: Sequence[Fact], own: dict[str, tuple[str, str]]) -> Fact:
    """Which of several agreeing statements an answer cites.

    The value is the same whichever is cited; the citation is the document that reports
    the fact's year as its own, then a year's annual filing, then the first by document id
    (``own``: each document's ``(period, doc_type)``, as it says of itself). FY2022 net
    sales stated by the 2022 and the 2023 10-K cite the 2022 10-K; Amcor's FY2023 gross
    profit stated by its 10-K and its earnings release cites the 10-K.

    Examples
    --------
    >>> a = Fact("REVENUE", "X", "X", "TOTAL", "FY", "2022", 10.0, "USD_M", "X_2023_10K.pdf", "p1")
    >>> b = replace(a, source_doc_id="X_2022_10K.pdf")
    >>> c = replace(a, source_doc_id="X_2022_Q4_release.pdf")
    >>> own = {"X_2023_10K.pdf": ("FY2023", "10-K"), "X_2022_10K.pdf": ("FY2022", "10-K")}
    >>> cited_statement([a, b, c], own).source_doc_id
    'X_2022_10K.pdf'
    >>> cited_statement([a, c], own).source_doc_id
    'X_2023_10K.pdf'
    """
    year = f"{agreeing[0].period_type}{agreeing[0].period}"

    def rank(f: Fact) -> tuple[int, int, str, str]:
        period, kind = own.get(f.source_doc_id, ("", ""))
        return (period != year, kind not in ANNUAL_FILINGS, f.source_doc_id, f.source_locator)

    return min(agreeing, key=rank)


def conflict_of(settled: Settled) -> ConflictResult:
    """The :class:`ConflictResult` of an open conflict."""
    m, e, c, pt, p = key_of(settled.statements[0])
    return ConflictResult(m, e, pt, p, c, settled.statements)


# ------------------------------------------------------------- in a transaction
def _facts(conn: Any, sql: str, params: Sequence[Any]) -> list[Fact]:
    return [row_to_fact(r) for r in conn.execute(sql, tuple(params)).fetchall()]


def resolutions_sql() -> str:
    """Every recorded choice (the table is small: one row per resolved identity)."""
    return _RESOLUTIONS


def parse_resolutions(rows: Iterable[Any], keys: set[Key] | None = None
                      ) -> dict[Key, Resolution]:
    """Rows of :func:`resolutions_sql` by identity (only ``keys`` when given)."""
    out = {}
    for r in rows:
        key = tuple(r[k] for k in KEY)
        if keys is None or key in keys:
            out[key] = Resolution(r["keep_doc_id"], r["resolved_by"], r["resolved_at"],
                                  r["note"], r["statements"])
    return out


def _resolutions(conn: Any, keys: set[Key]) -> dict[Key, Resolution]:
    return parse_resolutions(conn.execute(_RESOLUTIONS).fetchall(), keys)


def _row(fact: Fact) -> tuple[Any, ...]:
    return tuple(getattr(fact, c) for c in COLUMNS)


def _stamped(facts: list[Fact], stamp: str) -> list[Fact]:
    """Facts without ``ingested_at`` are stamped with the write time."""
    return [f if f.ingested_at else replace(f, ingested_at=stamp) for f in facts]


def settle_keys(conn: Any, by_key: dict[Key, list[Fact]]) -> None:
    """Rewrite ``fact_metric`` for these identities from their statements (given)."""
    if not by_key:
        return
    chosen = _resolutions(conn, set(by_key))
    conn.executemany(f"DELETE FROM fact_metric WHERE {_MATCH}", list(by_key))  # noqa: S608
    rows = [_row(s.fact) for k, stmts in by_key.items()
            if (s := settle(stmts, chosen.get(k))).fact is not None]
    if rows:
        conn.executemany(_INSERT_FACT, rows)


def _shared(conn: Any, doc_id: str) -> dict[Key, list[Fact]]:
    out: dict[Key, list[Fact]] = {}
    for f in _facts(conn, _SHARED, (doc_id, doc_id)):
        out.setdefault(key_of(f), []).append(f)
    return out


def replace_document(conn: Any, doc_id: str, facts: list[Fact], stamp: str) -> int:
    """Replace one document's statements, re-settle every identity it touches.

    Returns the number of the document's previous statements.
    """
    facts = _stamped(facts, stamp)
    conn.execute(_BACKFILL)
    before = _shared(conn, doc_id)  # identities the document stated that others state too
    removed = conn.execute("DELETE FROM fact_statement WHERE source_doc_id = ?", (doc_id,))
    conn.execute("DELETE FROM fact_metric WHERE source_doc_id = ?", (doc_id,))
    if facts:
        conn.executemany(_INSERT_STATEMENT, [_row(f) for f in facts])
    after = _shared(conn, doc_id) if facts else {}
    own = {key_of(f): f for f in facts}  # the last statement of a repeated identity wins
    alone = [_row(f) for k, f in own.items() if k not in after]
    if alone:
        conn.executemany(_INSERT_FACT, alone)
    touched = {k: list(v) for k, v in before.items()}
    touched.update({k: [*v, own[k]] for k, v in after.items()})
    settle_keys(conn, touched)
    return int(removed.rowcount)


def remove_document(conn: Any, doc_id: str) -> int:
    """Delete one document's statements (returns how many); its identities re-settle."""
    return replace_document(conn, doc_id, [], "")


def overwrite(conn: Any, facts: list[Fact], stamp: str) -> None:
    """Write facts as the only statement of their identity (a direct correction)."""
    facts = _stamped(facts, stamp)
    conn.execute(_BACKFILL)
    rows = [_row(f) for f in facts]
    conn.executemany(f"DELETE FROM fact_statement WHERE {_MATCH}",  # noqa: S608
                     [key_of(f) for f in facts])
    conn.executemany(_INSERT_STATEMENT, rows)
    conn.executemany(_INSERT_FACT, rows)


def statements_sql() -> str:
    """The statements of one identity (params: :data:`KEY` order), by document id."""
    return _STATEMENTS


def write_resolution(conn: Any, key: Key, resolution: Resolution) -> None:
    """Record a user's choice for one identity (replacing an earlier one)."""
    conn.execute(_WRITE_RESOLUTION, (*key, *(getattr(resolution, c) for c in RESOLUTION_COLUMNS)))


def conflicted_sql() -> str:
    """Every statement of the identities that several documents state."""
    return _CONFLICTED


def all_statements_sql() -> str:
    """Every statement, by document id then identity."""
    return _ALL
