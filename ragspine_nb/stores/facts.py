"""The fact store: exact numeric facts with lineage, in a SQLite table ``fact_metric``.

Every document's statement is kept in ``fact_statement``; ``fact_metric`` holds the
settled fact of each identity, and an identity two documents state differently is a
conflict until a user resolves it (see :mod:`ragspine_nb.stores.statements`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine_nb.core import PERIOD_TYPES, Fact, is_blank
from ragspine_nb.errors import InvalidRecordError, LineageError
from ragspine_nb.stores import statements as st
from ragspine_nb.stores._base import SQLStore, open_database
from ragspine_nb.stores._resolve import ConflictMixin
from ragspine_nb.stores.registrants import REGISTRANT_SCHEMA, read_registrants, write_registrant
from ragspine_nb.stores.statements import utc_now
from ragspine_nb.vocabulary import Vocabulary

if TYPE_CHECKING:
    import pandas as pd

    from ragspine_nb.display.render import Card

__all__ = ["FactStore", "FACT_COLUMNS", "FACT_FILTERS", "DOCUMENT_COLUMNS", "IDENTITY_COLUMNS",
           "REGISTRANT",
           "utc_now"]

#: Columns of ``fact_metric`` in :class:`~ragspine_nb.core.Fact` field order.
FACT_COLUMNS: tuple[str, ...] = (
    "metric_code", "entity", "geography", "channel", "period_type", "period", "value", "unit",
    "source_doc_id", "source_locator", "source_file_hash", "extractor_version",
    "mapping_version", "valid_as_of", "ingested_at",
)
#: Keyword filters accepted by :meth:`FactStore.iter_facts`.
FACT_FILTERS: tuple[str, ...] = (
    "metric_code", "entity", "geography", "channel", "period_type", "period", "source_doc_id",
)
_REQUIRED = ("metric_code", "entity", "geography", "channel", "period", "unit")
_LINEAGE = ("source_doc_id", "source_locator")


def _nonblank(col: str) -> str:
    return f"{col} TEXT NOT NULL CHECK (length(trim({col})) > 0)"


_COLUMNS_DDL = f"""
    {_nonblank("metric_code")},
    {_nonblank("entity")},
    {_nonblank("geography")},
    {_nonblank("channel")},
    period_type TEXT NOT NULL CHECK (period_type IN ({", ".join(repr(p) for p in PERIOD_TYPES)})),
    {_nonblank("period")},
    value REAL NOT NULL,
    {_nonblank("unit")},
    {_nonblank("source_doc_id")},
    {_nonblank("source_locator")},
    source_file_hash TEXT NOT NULL DEFAULT '',
    extractor_version TEXT NOT NULL DEFAULT '',
    mapping_version TEXT NOT NULL DEFAULT '',
    valid_as_of TEXT NOT NULL DEFAULT '',
    {_nonblank("ingested_at")}"""
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS fact_metric ({_COLUMNS_DDL},
    PRIMARY KEY (metric_code, entity, channel, period_type, period)
);
CREATE INDEX IF NOT EXISTS fact_metric_by_doc ON fact_metric (source_doc_id);
CREATE INDEX IF NOT EXISTS fact_metric_by_entity ON fact_metric (entity, metric_code, channel);
CREATE TABLE IF NOT EXISTS source_document (
    doc_id TEXT PRIMARY KEY CHECK (length(trim(doc_id)) > 0),
    path TEXT NOT NULL,
    file_hash TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    extractor_version TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    sensitivity TEXT NOT NULL DEFAULT '',
    facts INTEGER NOT NULL,
    chunks INTEGER NOT NULL,
    ingested_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS document_identity (
    doc_id TEXT PRIMARY KEY CHECK (length(trim(doc_id)) > 0),
    company TEXT NOT NULL DEFAULT '',
    entity TEXT NOT NULL DEFAULT '',
    period TEXT NOT NULL DEFAULT '',
    fiscal_year_end TEXT NOT NULL DEFAULT '',
    doc_type TEXT NOT NULL DEFAULT '',
    sources TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS vocabulary (
    doc_id TEXT PRIMARY KEY CHECK (length(trim(doc_id)) > 0),
    format INTEGER NOT NULL,
    body TEXT NOT NULL
);
{REGISTRANT_SCHEMA}
{st.statement_schema(_COLUMNS_DDL)}"""
#: Columns of the ``source_document`` ledger (what was ingested, from which bytes).
DOCUMENT_COLUMNS: tuple[str, ...] = (
    "doc_id", "path", "file_hash", "fingerprint", "extractor_version", "title", "sensitivity",
    "facts", "chunks", "ingested_at",
)

# Every SQL string below names only fixed column identifiers; values are always bound.
_LEDGER_UPSERT = (
    f"INSERT OR REPLACE INTO source_document ({', '.join(DOCUMENT_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' for _ in DOCUMENT_COLUMNS)})"
)
_LEDGER_SELECT = f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM source_document"  # noqa: S608
_VOCABULARY_DELETE = "DELETE FROM vocabulary WHERE doc_id = ?"
#: What a document says of itself (``extract.identity.DocumentIdentity.to_row`` + entity).
IDENTITY_COLUMNS: tuple[str, ...] = ("doc_id", "company", "entity", "period",
                                     "fiscal_year_end", "doc_type", "sources")
#: The identity row's key for the filer's registrant number (kept in a table of its own).
REGISTRANT = "registrant"
_IDENTITY_DELETE = "DELETE FROM document_identity WHERE doc_id = ?"
_IDENTITY_UPSERT = (
    f"INSERT OR REPLACE INTO document_identity ({', '.join(IDENTITY_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' for _ in IDENTITY_COLUMNS)})")
_IDENTITY_SELECT = f"SELECT {', '.join(IDENTITY_COLUMNS)} FROM document_identity"  # noqa: S608
_VOCABULARY_INSERT = "INSERT INTO vocabulary (doc_id, format, body) VALUES (?, ?, ?)"
#: The shape of a stored vocabulary's JSON body (:meth:`Vocabulary.to_dict`).
_VOCABULARY_FORMAT = 1
_QUERY = (
    f"SELECT {', '.join(FACT_COLUMNS)} FROM fact_metric "  # noqa: S608
    "WHERE metric_code = ? AND entity = ? AND channel = ? AND period_type = ? AND period = ?"
)


def _check(fact: object) -> Fact:
    """Re-validate at write time (a Fact can be forged with ``object.__setattr__``)."""
    if not isinstance(fact, Fact):
        raise InvalidRecordError(f"FactStore.upsert takes Fact objects, got {type(fact).__name__}")
    for name in _LINEAGE:
        if is_blank(getattr(fact, name)):
            raise LineageError(f"refusing a fact without {name}: {fact!r}")
    for name in _REQUIRED:
        if is_blank(getattr(fact, name)):
            raise InvalidRecordError(f"refusing a fact with blank {name}: {fact!r}")
    return fact


_row_to_fact = st.row_to_fact
#: Insert-or-overwrite of one settled fact (what bench/bench_fact_store.py's raw peer runs).
_UPSERT = st.UPSERT_FACT


class FactStore(ConflictMixin, SQLStore):
    """Exact numeric facts with lineage, backed by SQLite.

    Parameters
    ----------
    path : str or Path, default ":memory:"
        SQLite file (created with its schema if absent), ``":memory:"``, or a
        ``postgresql://`` URL (a shared team database; the ``team`` extra).
    create : bool, default True
        When False the database must already exist; a missing file raises
        :class:`~ragspine_nb.errors.DatabaseNotFoundError` and nothing is created.

    Notes
    -----
    The identity of a fact is metric + entity + channel + period_type + period, so
    FY 2024 and HY 2024H1 are different facts. Each document's statement of a fact is
    kept: when two documents state one identity with different values it is a
    conflict (:meth:`lookup` returns both, :meth:`query` nothing) until a user
    resolves it (:meth:`resolve_conflict`) or a document's new version agrees.
    :meth:`upsert` is a direct correction: the written fact replaces every statement
    of its identity. Every write of a batch is one transaction.

    Examples
    --------
    >>> from ragspine_nb import Fact, FactStore
    >>> store = FactStore(":memory:")
    >>> store.upsert([Fact("REVENUE", "ACME_HK", "HK", "TOTAL", "FY", "2024", 1320.0,
    ...                    "USD_M", "ACME_FY2024_Review.pptx", "slide=2,table=1")])
    1
    >>> store.query("REVENUE", "ACME_HK", "FY", "2024").value
    1320.0
    """

    def __init__(self, path: str | Path = ":memory:", *, create: bool = True) -> None:
        self._db = open_database(path, schema=_SCHEMA, table="fact_metric", create=create)
        #: the documents' vocabularies as last read, with the database's change token then
        self._vocabularies: tuple[object, dict[str, Vocabulary]] | None = None
        #: metric_channels' answers as last read, by entity, with the change token then
        self._channels: dict[str | None, tuple[object, frozenset[tuple[str, str]]]] = {}

    # ----------------------------------------------------------------- writes
    def upsert(self, facts: Iterable[Fact]) -> int:
        """Insert or overwrite facts in one transaction; return the number written.

        Each written fact becomes the only statement of its identity (other
        documents' statements of it are dropped). A fact with blank or missing
        lineage, or any invalid record, rejects the whole batch before anything is
        written.
        """
        checked = [_check(f) for f in facts]
        with self._db.transaction() as conn:
            st.overwrite(conn, checked, utc_now())
        return len(checked)

    def replace_source_doc(
        self,
        source_doc_id: str,
        facts: Iterable[Fact],
        *,
        document: Mapping[str, object] | None = None,
        vocabulary: Vocabulary | None = None,
        identity: Mapping[str, str] | None = None,
    ) -> int:
        """Atomically replace every statement of one source document; return the number written.

        The document's old statements are deleted and the new ones written in one
        transaction, together with its ``source_document`` ledger row when
        ``document`` is given (keys: :data:`DOCUMENT_COLUMNS`) and its derived
        ``vocabulary`` (which replaces the stored one; none given = none kept), so a
        failure leaves the previous facts, vocabulary and ledger in place. ``identity``
        (keys: :data:`IDENTITY_COLUMNS` but ``doc_id``) is what the document says of
        itself — its company, period and type — and replaces the stored one (none given =
        none kept). Every fact identity the document states (or stated) is settled again:
        agreement, a still-valid user choice, or a conflict.
        """
        checked = [_check(f) for f in facts]
        strangers = sorted({f.source_doc_id for f in checked} - {source_doc_id})
        if strangers:
            raise InvalidRecordError(
                f"replace_source_doc({source_doc_id!r}) got facts from other documents: {strangers}"
            )
        ledger = None
        if document is not None:
            unknown = sorted(set(document) - set(DOCUMENT_COLUMNS))
            if unknown or document.get("doc_id") != source_doc_id:
                raise InvalidRecordError(
                    f"document row must describe {source_doc_id!r} with keys from "
                    f"{list(DOCUMENT_COLUMNS)}; got doc_id={document.get('doc_id')!r}, "
                    f"unknown={unknown}")
            ledger = tuple(document.get(c, utc_now() if c == "ingested_at" else "")
                           for c in DOCUMENT_COLUMNS)
        body = json.dumps(vocabulary.to_dict(), ensure_ascii=False) if vocabulary else None
        who, registrant = None, str((identity or {}).get(REGISTRANT, ""))
        if identity is not None:
            unknown = sorted(set(identity) - {*IDENTITY_COLUMNS[1:], REGISTRANT})
            if unknown:
                raise InvalidRecordError(f"identity keys must be from {list(IDENTITY_COLUMNS[1:])}"
                                         f"; got unknown {unknown}")
            who = (source_doc_id, *(str(identity.get(c, "")) for c in IDENTITY_COLUMNS[1:]))
        with self._db.transaction() as conn:
            st.replace_document(conn, source_doc_id, checked, utc_now())
            conn.execute(_VOCABULARY_DELETE, (source_doc_id,))
            conn.execute(_IDENTITY_DELETE, (source_doc_id,))
            write_registrant(conn, source_doc_id, registrant)
            if who is not None:
                conn.execute(_IDENTITY_UPSERT, who)
            if body is not None:
                conn.execute(_VOCABULARY_INSERT, (source_doc_id, _VOCABULARY_FORMAT, body))
            if ledger is not None:
                conn.execute(_LEDGER_UPSERT, ledger)
        return len(checked)

    def vocabularies(self) -> dict[str, Vocabulary]:
        """Each document's derived vocabulary (documents with none are left out), by doc_id.

        On SQLite read again only after a write to the database (from any connection): a
        folder of 10-Ks holds hundreds of them and every question consults them.
        """
        changed = getattr(self._db, "change_token", None)  # PostgreSQL: read every time
        token = changed() if changed is not None else object()
        if self._vocabularies is None or self._vocabularies[0] != token:
            rows = self._db.fetchall("SELECT doc_id, body FROM vocabulary ORDER BY doc_id")
            self._vocabularies = (token, {str(r[0]): Vocabulary.from_dict(json.loads(r[1]))
                                          for r in rows})
        return dict(self._vocabularies[1])

    def source_documents(self) -> list[dict[str, Any]]:
        """The ingestion ledger: one row per ingested document, ordered by doc_id."""
        rows = self._db.fetchall(_LEDGER_SELECT + " ORDER BY doc_id")
        return [dict(r) for r in rows]

    def document_identities(self) -> dict[str, dict[str, str]]:
        """What each document says of itself (company, entity, period, type), by doc_id.

        Documents that name nothing are left out.
        """
        rows = self._db.fetchall(_IDENTITY_SELECT + " ORDER BY doc_id")
        filers = read_registrants(self._db)  # the regulator's number of the filer, if stated
        return {str(r[0]): {**{c: str(v) for c, v in zip(IDENTITY_COLUMNS[1:], tuple(r)[1:],
                                                           strict=True)},
                            REGISTRANT: filers.get(str(r[0]), "")} for r in rows}

    def source_document(self, doc_id: str) -> dict[str, Any] | None:
        """The ledger row of one document, or ``None`` if it was never ingested."""
        rows = self._db.fetchall(_LEDGER_SELECT + " WHERE doc_id = ?", (doc_id,))
        return dict(rows[0]) if rows else None

    def delete_by_source_doc(self, source_doc_id: str) -> int:
        """Delete every statement of one source document; return the number deleted.

        An identity another document states too settles on what remains; the
        document's derived vocabulary goes with its statements.
        """
        with self._db.transaction() as conn:
            conn.execute(_VOCABULARY_DELETE, (source_doc_id,))
            conn.execute(_IDENTITY_DELETE, (source_doc_id,))
            write_registrant(conn, source_doc_id, "")
            return st.remove_document(conn, source_doc_id)

    # ------------------------------------------------------------------ reads
    def sql_for(
        self, metric: str, entity: str, period_type: str, period: str, channel: str = "TOTAL"
    ) -> tuple[str, tuple[str, ...]]:
        """Return the exact SQL and bound parameters :meth:`query` runs."""
        return _QUERY, (metric, entity, channel, period_type, period)

    def query(
        self, metric: str, entity: str, period_type: str, period: str, channel: str = "TOTAL"
    ) -> Fact | None:
        """Return the fact with exactly this identity, or ``None``. Nothing is inferred."""
        sql, params = self.sql_for(metric, entity, period_type, period, channel)
        rows = self._db.fetchall(sql, params)
        return _row_to_fact(rows[0]) if rows else None

    def iter_facts(self, **filters: str) -> list[Fact]:
        """Return facts matching every given filter (AND), ordered by identity.

        Valid filters: see :data:`FACT_FILTERS`.
        """
        unknown = sorted(set(filters) - set(FACT_FILTERS))
        if unknown:
            raise ValueError(f"unknown filter(s) {unknown}. Valid filters: {list(FACT_FILTERS)}")
        where = " AND ".join(f"{k} = ?" for k in filters) or "1 = 1"
        rows = self._db.fetchall(
            f"SELECT {', '.join(FACT_COLUMNS)} FROM fact_metric "  # noqa: S608
            f"WHERE {where} "
            "ORDER BY metric_code, entity, channel, period_type, period",
            list(filters.values()),
        )
        return [_row_to_fact(r) for r in rows]

    def metric_codes(self) -> frozenset[str]:
        """The metric codes that have at least one stored fact."""
        rows = self._db.fetchall("SELECT DISTINCT metric_code FROM fact_metric")
        return frozenset(str(r[0]) for r in rows)

    def metric_channels(self, entity: str | None = None) -> frozenset[tuple[str, str]]:
        """The ``(metric_code, channel)`` pairs with at least one stored fact (of ``entity``).

        On SQLite read again only after a write to the database (from any connection):
        every question asks it of the entities it names.
        """
        changed = getattr(self._db, "change_token", None)  # PostgreSQL: read every time
        token = changed() if changed is not None else object()
        kept = self._channels.get(entity)
        if kept is not None and kept[0] == token:
            return kept[1]
        where, args = ("WHERE entity = ?", (entity,)) if entity is not None else ("", ())
        rows = self._db.fetchall(
            f"SELECT DISTINCT metric_code, channel FROM fact_metric {where}", args)  # noqa: S608
        pairs = frozenset((str(r[0]), str(r[1])) for r in rows)
        if len(self._channels) > 256:  # bounded: entities of one workspace, read by name
            self._channels.clear()
        self._channels[entity] = (token, pairs)
        return pairs

    def count(self) -> int:
        """Number of facts."""
        return int(self._db.fetchall("SELECT COUNT(*) FROM fact_metric")[0][0])

    def to_frame(self) -> pd.DataFrame:
        """All facts as a pandas DataFrame, one column per :data:`FACT_COLUMNS`."""
        import pandas as pd

        return pd.DataFrame([f.to_dict() for f in self.iter_facts()], columns=list(FACT_COLUMNS))

    # ---------------------------------------------------------------- display
    def _display_card(self, max_rows: int = 10) -> Card:
        from ragspine_nb.display.render import Card, Table, format_number

        stats = self._db.fetchall(
            "SELECT COUNT(*), COUNT(DISTINCT metric_code), COUNT(DISTINCT entity), "
            "COUNT(DISTINCT period_type || period), COUNT(DISTINCT source_doc_id) FROM fact_metric"
        )[0]
        preview = self._db.fetchall(
            "SELECT metric_code, entity, channel, period_type, period, value, unit, "
            "source_doc_id, source_locator, substr(source_file_hash, 1, 12), extractor_version, "
            "valid_as_of, ingested_at FROM fact_metric "
            "ORDER BY metric_code, entity, channel, period_type, period LIMIT ?",
            (max_rows,),
        )
        return Card(
            title="FactStore",
            subtitle=self.path,
            stats=(
                ("facts", str(stats[0])), ("metrics", str(stats[1])),
                ("entities", str(stats[2])), ("periods", str(stats[3])),
                ("source documents", str(stats[4])),
            ),
            tables=(Table(
                caption="Facts with lineage",
                columns=("metric", "entity", "channel", "type", "period", "value", "unit",
                         "source", "locator", "file hash", "extractor", "valid as of",
                         "ingested at"),
                rows=tuple(tuple("" if v is None else format_number(v)
                                 if isinstance(v, float) else str(v) for v in r)
                           for r in preview),
                total_rows=int(stats[0]),
            ),),
        )

    def __repr__(self) -> str:
        return f"FactStore(path={self.path!r}, facts={self.count()})"
