"""The fact store: exact numeric facts with lineage, in a SQLite table ``fact_metric``.

Every document's statement is kept in ``fact_statement``; ``fact_metric`` holds the
settled fact of each identity, and an identity two documents state differently is a
conflict until a user resolves it (see :mod:`ragspine_nb.stores.statements`). The tables
and the SQL they are read and written with: :mod:`ragspine_nb.stores.fact_schema`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine_nb.core import Fact, is_blank
from ragspine_nb.errors import InvalidRecordError, LineageError
from ragspine_nb.stores import fact_schema as sc
from ragspine_nb.stores import statements as st
from ragspine_nb.stores._base import SQLStore, open_database
from ragspine_nb.stores._resolve import ConflictMixin
from ragspine_nb.stores.fact_schema import (
    DOCUMENT_COLUMNS,
    FACT_COLUMNS,
    FACT_FILTERS,
    IDENTITY_COLUMNS,
    REGISTRANT,
)
from ragspine_nb.stores.registrants import read_registrants, write_registrant
from ragspine_nb.stores.statements import utc_now
from ragspine_nb.vocabulary import Vocabulary

if TYPE_CHECKING:
    import pandas as pd

    from ragspine_nb.display.render import Card

__all__ = ["FactStore", "FACT_COLUMNS", "FACT_FILTERS", "DOCUMENT_COLUMNS", "IDENTITY_COLUMNS",
           "REGISTRANT",
           "utc_now"]


def _check(fact: object) -> Fact:
    """Re-validate at write time (a Fact can be forged with ``object.__setattr__``)."""
    if not isinstance(fact, Fact):
        raise InvalidRecordError(f"FactStore.upsert takes Fact objects, got {type(fact).__name__}")
    for name in sc.LINEAGE:
        if is_blank(getattr(fact, name)):
            raise LineageError(f"refusing a fact without {name}: {fact!r}")
    for name in sc.REQUIRED:
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
        self._db = open_database(path, schema=sc.SCHEMA, table="fact_metric", create=create)
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
            conn.execute(sc.VOCABULARY_DELETE, (source_doc_id,))
            conn.execute(sc.IDENTITY_DELETE, (source_doc_id,))
            write_registrant(conn, source_doc_id, registrant)
            if who is not None:
                conn.execute(sc.IDENTITY_UPSERT, who)
            if body is not None:
                conn.execute(sc.VOCABULARY_INSERT, (source_doc_id, sc.VOCABULARY_FORMAT, body))
            if ledger is not None:
                conn.execute(sc.LEDGER_UPSERT, ledger)
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
        rows = self._db.fetchall(sc.LEDGER_SELECT + " ORDER BY doc_id")
        return [dict(r) for r in rows]

    def document_identities(self) -> dict[str, dict[str, str]]:
        """What each document says of itself (company, entity, period, type), by doc_id.

        Documents that name nothing are left out.
        """
        rows = self._db.fetchall(sc.IDENTITY_SELECT + " ORDER BY doc_id")
        filers = read_registrants(self._db)  # the regulator's number of the filer, if stated
        return {str(r[0]): {**{c: str(v) for c, v in zip(IDENTITY_COLUMNS[1:], tuple(r)[1:],
                                                           strict=True)},
                            REGISTRANT: filers.get(str(r[0]), "")} for r in rows}

    def source_document(self, doc_id: str) -> dict[str, Any] | None:
        """The ledger row of one document, or ``None`` if it was never ingested."""
        rows = self._db.fetchall(sc.LEDGER_SELECT + " WHERE doc_id = ?", (doc_id,))
        return dict(rows[0]) if rows else None

    def delete_by_source_doc(self, source_doc_id: str) -> int:
        """Delete every statement of one source document; return the number deleted.

        An identity another document states too settles on what remains; the
        document's derived vocabulary goes with its statements.
        """
        with self._db.transaction() as conn:
            conn.execute(sc.VOCABULARY_DELETE, (source_doc_id,))
            conn.execute(sc.IDENTITY_DELETE, (source_doc_id,))
            write_registrant(conn, source_doc_id, "")
            return st.remove_document(conn, source_doc_id)

    # ------------------------------------------------------------------ reads
    def sql_for(
        self, metric: str, entity: str, period_type: str, period: str, channel: str = "TOTAL"
    ) -> tuple[str, tuple[str, ...]]:
        """Return the exact SQL and bound parameters :meth:`query` runs."""
        return sc.QUERY, (metric, entity, channel, period_type, period)

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
