"""The versioned chunk store: narrative chunks in a SQLite table ``narrative_chunk``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine_nb.core import Chunk, StoredChunk, is_blank, is_restricted
from ragspine_nb.errors import InvalidRecordError, LineageError, StoreError
from ragspine_nb.stores._base import SQLStore, open_database
from ragspine_nb.stores.chunk_changes import ChunkChanges
from ragspine_nb.stores.facts import utc_now

if TYPE_CHECKING:
    import pandas as pd

    from ragspine_nb.display.render import Card

__all__ = ["ChunkStore", "StagedVersion", "CHUNK_COLUMNS", "CHUNK_FILTERS"]

_CHUNK_FIELDS = (
    "doc_id", "chunk_id", "seq", "text", "title", "topic", "entity", "geography", "period",
    "language", "sensitivity", "source_locator",
)
#: Columns of ``narrative_chunk`` in :class:`~ragspine_nb.core.StoredChunk` order.
CHUNK_COLUMNS: tuple[str, ...] = _CHUNK_FIELDS + ("valid_as_of", "ingested_at", "version", "active")
#: Metadata filters of :meth:`ChunkStore.iter_chunks` (AND-combined in SQL).
CHUNK_FILTERS: tuple[str, ...] = (
    "doc_id", "topic", "entity", "geography", "period", "language", "sensitivity",
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS narrative_chunk (
    doc_id TEXT NOT NULL CHECK (length(trim(doc_id)) > 0),
    chunk_id TEXT NOT NULL CHECK (length(trim(chunk_id)) > 0),
    seq INTEGER NOT NULL CHECK (seq >= 0),
    text TEXT NOT NULL CHECK (length(trim(text)) > 0),
    title TEXT NOT NULL DEFAULT '',
    topic TEXT NOT NULL DEFAULT '',
    entity TEXT NOT NULL DEFAULT '',
    geography TEXT NOT NULL DEFAULT '',
    period TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL DEFAULT '',
    sensitivity TEXT NOT NULL CHECK (length(trim(sensitivity)) > 0),
    source_locator TEXT NOT NULL CHECK (length(trim(source_locator)) > 0),
    valid_as_of TEXT NOT NULL DEFAULT '',
    ingested_at TEXT NOT NULL CHECK (length(trim(ingested_at)) > 0),
    version INTEGER NOT NULL CHECK (version >= 1),
    active INTEGER NOT NULL CHECK (active IN (0, 1)),
    PRIMARY KEY (doc_id, version, seq),
    UNIQUE (chunk_id, version)
);
CREATE INDEX IF NOT EXISTS narrative_chunk_active ON narrative_chunk (active, doc_id, seq);
-- a search scoped to a company (or a company and year) reads its chunk ids from this
-- index alone, in their order
CREATE INDEX IF NOT EXISTS narrative_chunk_entity
    ON narrative_chunk (entity, active, doc_id, version, seq, period, chunk_id);
CREATE TABLE IF NOT EXISTS chunk_version (
    doc_id TEXT NOT NULL CHECK (length(trim(doc_id)) > 0),
    version INTEGER NOT NULL CHECK (version >= 1),
    fingerprint TEXT NOT NULL DEFAULT '',
    staged INTEGER NOT NULL CHECK (staged IN (0, 1)),
    written_at TEXT NOT NULL,
    PRIMARY KEY (doc_id, version)
);
"""
_INSERT = (
    f"INSERT INTO narrative_chunk ({', '.join(CHUNK_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' for _ in CHUNK_COLUMNS)})"
)


def _check_chunks(doc_id: str, chunks: Sequence[object]) -> list[Chunk]:
    if is_blank(doc_id):
        raise LineageError(f"doc_id must be a non-empty string, got {doc_id!r}")
    seen_ids: set[str] = set()
    seen_seq: set[int] = set()
    out: list[Chunk] = []
    for c in chunks:
        if not isinstance(c, Chunk):
            raise InvalidRecordError(
                f"replace_doc_chunks takes Chunk objects, got {type(c).__name__}"
            )
        for name in ("doc_id", "source_locator"):
            if is_blank(getattr(c, name)):
                raise LineageError(f"refusing a chunk without {name}: {c.chunk_id!r}")
        for name in ("chunk_id", "text", "sensitivity"):
            if is_blank(getattr(c, name)):
                raise InvalidRecordError(f"refusing a chunk with blank {name}: {c.chunk_id!r}")
        if c.doc_id != doc_id:
            raise InvalidRecordError(
                f"chunk {c.chunk_id!r} belongs to {c.doc_id!r}, not to {doc_id!r}"
            )
        if c.chunk_id in seen_ids or c.seq in seen_seq:
            raise InvalidRecordError(f"duplicate chunk_id or seq in {doc_id!r}: {c.chunk_id!r}")
        seen_ids.add(c.chunk_id)
        seen_seq.add(c.seq)
        out.append(c)
    return out


@dataclass(frozen=True)
class StagedVersion:
    """A version of a document's chunks that was written but not (yet) made active."""

    doc_id: str
    version: int
    fingerprint: str


def _next_version(conn: Any, doc_id: str) -> int:
    """One more than the highest version with rows or still staged."""
    row = conn.execute(
        "SELECT MAX(v) FROM (SELECT MAX(version) AS v FROM narrative_chunk WHERE doc_id = ? "
        "UNION ALL SELECT MAX(version) AS v FROM chunk_version WHERE doc_id = ? AND staged = 1"
        ") AS versions", (doc_id, doc_id)).fetchone()
    return int(row[0] or 0) + 1


def _write_version(conn: Any, doc_id: str, chunks: list[Chunk], valid_as_of: str,
                   fingerprint: str, active: bool) -> int:
    version = _next_version(conn, doc_id)
    stamp = utc_now()
    if active:
        conn.execute(
            "UPDATE narrative_chunk SET active = 0 WHERE doc_id = ? AND active = 1", (doc_id,))
    conn.executemany(_INSERT, [
        tuple(getattr(c, f) for f in _CHUNK_FIELDS) + (valid_as_of, stamp, version, int(active))
        for c in chunks
    ])
    conn.execute("DELETE FROM chunk_version WHERE doc_id = ? AND version = ?", (doc_id, version))
    conn.execute("INSERT INTO chunk_version (doc_id, version, fingerprint, staged, written_at) "
                 "VALUES (?, ?, ?, ?, ?)", (doc_id, version, fingerprint, int(not active), stamp))
    return version


def _check_args(doc_id: str, chunks: Sequence[object], valid_as_of: object,
                fingerprint: object) -> list[Chunk]:
    checked = _check_chunks(doc_id, list(chunks))
    for name, value in (("valid_as_of", valid_as_of), ("fingerprint", fingerprint)):
        if not isinstance(value, str):
            raise InvalidRecordError(f"{name} must be a string, got {value!r}")
    return checked


#: The metadata columns a chunk read may filter on (names from this fixed list only).
_FILTER_COLUMNS = ("doc_id", "topic", "entity", "geography", "period", "language",
                   "sensitivity")


def _where(filters: dict[str, str | None], include_inactive: bool) -> tuple[str, list[Any]]:
    """A WHERE clause (AND of the given values, active rows unless asked) and its params."""
    clauses = [f"{k} = ?" for k, v in filters.items() if v is not None]
    params: list[Any] = [v for v in filters.values() if v is not None]
    if not include_inactive:
        clauses.append("active = 1")
    return " AND ".join(clauses) or "1 = 1", params


def _row_to_chunk(row: Any) -> StoredChunk:
    data = {c: row[c] for c in CHUNK_COLUMNS}
    data["active"] = bool(data["active"])
    return StoredChunk(**data)


class ChunkStore(ChunkChanges, SQLStore):
    """Versioned narrative chunks with metadata and locators, backed by SQLite.

    Parameters
    ----------
    path : str or Path, default ":memory:"
        SQLite file (created with its schema if absent), ``":memory:"``, or a
        ``postgresql://`` URL (a shared team database; the ``team`` extra).
    create : bool, default True
        When False the database must already exist.

    Notes
    -----
    :meth:`replace_doc_chunks` is atomic: the new version is ``max(version) + 1``,
    the old rows become inactive and the new rows active in one transaction, so a
    crash in the middle leaves the previous version active.

    Ingestion writes in two steps so that chunks and the fact store's ledger (another
    database) can never disagree for long: :meth:`stage_doc_chunks` writes the new
    version inactive, the facts and ledger are written, then :meth:`activate_version`
    switches to it. A version left staged by a crash is listed by
    :meth:`staged_versions` and either activated or dropped (:meth:`drop_version`) by
    the workspace's reconciliation.
    """

    _chunk_columns = CHUNK_COLUMNS
    _chunk_from_row = staticmethod(_row_to_chunk)

    def __init__(self, path: str | Path = ":memory:", *, create: bool = True) -> None:
        self._db = open_database(path, schema=_SCHEMA, table="narrative_chunk", create=create)

    # ----------------------------------------------------------------- writes
    def replace_doc_chunks(
        self, doc_id: str, chunks: Sequence[Chunk], valid_as_of: str = "", fingerprint: str = ""
    ) -> int:
        """Replace a document's chunks with a new version; return the rows written.

        An empty ``chunks`` withdraws the document (no active rows remain). Invalid
        chunks (blank lineage, another doc_id, duplicate ids) reject the call before
        anything is written.
        """
        checked = _check_args(doc_id, chunks, valid_as_of, fingerprint)
        with self._db.transaction() as conn:
            _write_version(conn, doc_id, checked, valid_as_of, fingerprint, active=True)
        return len(checked)

    def stage_doc_chunks(self, doc_id: str, chunks: Sequence[Chunk], valid_as_of: str = "",
                         fingerprint: str = "") -> int:
        """Write a new version of a document's chunks *inactive*; return its number.

        Readers keep seeing the previous version until :meth:`activate_version`.
        ``fingerprint`` names what the version was built from (the ingestion
        fingerprint recorded in the fact store's ledger), so a reconciliation can tell
        whether the rest of the document's ingestion was written.
        """
        checked = _check_args(doc_id, chunks, valid_as_of, fingerprint)
        with self._db.transaction() as conn:
            return _write_version(conn, doc_id, checked, valid_as_of, fingerprint, active=False)

    def activate_version(self, doc_id: str, version: int) -> int:
        """Make a staged version the document's active one; return its chunk count.

        Raises :class:`~ragspine_nb.errors.StoreError` (and changes nothing) when that
        version is not staged.
        """
        with self._db.transaction() as conn:
            if conn.execute("SELECT 1 FROM chunk_version WHERE doc_id = ? AND version = ? "
                            "AND staged = 1", (doc_id, version)).fetchone() is None:
                raise StoreError(f"version {version} of {doc_id!r} is not staged; "
                                 f"staged: {[v.version for v in self.staged_versions(doc_id)]}")
            conn.execute("UPDATE narrative_chunk SET active = 0 WHERE doc_id = ? AND active = 1",
                         (doc_id,))
            n = conn.execute("UPDATE narrative_chunk SET active = 1 WHERE doc_id = ? AND "
                             "version = ?", (doc_id, version)).rowcount
            conn.execute("UPDATE chunk_version SET staged = 0 WHERE doc_id = ? AND version = ?",
                         (doc_id, version))
        return int(n)

    def drop_version(self, doc_id: str, version: int) -> int:
        """Delete a staged (never active) version; return the chunks deleted.

        Active and previously active versions are history and are never deleted here.
        """
        with self._db.transaction() as conn:
            if conn.execute("SELECT 1 FROM chunk_version WHERE doc_id = ? AND version = ? "
                            "AND staged = 1", (doc_id, version)).fetchone() is None:
                return 0
            n = conn.execute("DELETE FROM narrative_chunk WHERE doc_id = ? AND version = ? "
                             "AND active = 0", (doc_id, version)).rowcount
            conn.execute("DELETE FROM chunk_version WHERE doc_id = ? AND version = ?",
                         (doc_id, version))
        return int(n)

    def staged_versions(self, doc_id: str | None = None) -> list[StagedVersion]:
        """Versions written by :meth:`stage_doc_chunks` and not activated (oldest first)."""
        where, params = ("AND doc_id = ? ", (doc_id,)) if doc_id is not None else ("", ())
        rows = self._db.fetchall(
            "SELECT doc_id, version, fingerprint FROM chunk_version WHERE staged = 1 "  # noqa: S608
            f"{where}ORDER BY doc_id, version", params)
        return [StagedVersion(str(r[0]), int(r[1]), str(r[2])) for r in rows]

    # ------------------------------------------------------------------ reads
    def iter_chunks(
        self,
        *,
        doc_id: str | None = None,
        topic: str | None = None,
        entity: str | None = None,
        geography: str | None = None,
        period: str | None = None,
        language: str | None = None,
        sensitivity: str | None = None,
        include_inactive: bool = False,
    ) -> list[StoredChunk]:
        """Return chunks matching every given filter (AND-combined in SQL).

        Active versions only unless ``include_inactive``; ordered by doc, version, seq.
        """
        where, params = _where({
            "doc_id": doc_id, "topic": topic, "entity": entity, "geography": geography,
            "period": period, "language": language, "sensitivity": sensitivity,
        }, include_inactive)
        rows = self._db.fetchall(
            f"SELECT {', '.join(CHUNK_COLUMNS)} FROM narrative_chunk "  # noqa: S608
            f"WHERE {where} "
            "ORDER BY doc_id, version, seq",
            params,
        )
        return [_row_to_chunk(r) for r in rows]

    def chunk_ids(self, **filters: str) -> list[str]:
        """The ids of the active chunks :meth:`iter_chunks` returns for these filters.

        In the same order, without reading the chunks (a search's metadata pre-filter
        needs only the ids). The keys are those of :meth:`iter_chunks`.

        >>> ChunkStore().chunk_ids(entity="ACME")
        []
        """
        unknown = sorted(set(filters) - set(_FILTER_COLUMNS))
        if unknown:
            raise ValueError(f"unknown chunk filter(s) {unknown}. Valid: {list(_FILTER_COLUMNS)}")
        where, params = _where(dict(filters), include_inactive=False)
        rows = self._db.fetchall(
            f"SELECT chunk_id FROM narrative_chunk WHERE {where} "  # noqa: S608
            "ORDER BY doc_id, version, seq", params)
        return [str(r[0]) for r in rows]

    def has_chunks(self, **filters: str) -> bool:
        """Whether some active chunk has every given metadata value (one ``LIMIT 1`` read).

        The keys are those of :meth:`iter_chunks` (``entity=``, ``period=``, …).
        """
        unknown = sorted(set(filters) - set(_FILTER_COLUMNS))
        if unknown:
            raise ValueError(f"unknown chunk filter(s) {unknown}. Valid: {list(_FILTER_COLUMNS)}")
        where, params = _where(dict(filters), include_inactive=False)
        sql = f"SELECT 1 FROM narrative_chunk WHERE {where} LIMIT 1"  # noqa: S608
        return bool(self._db.fetchall(sql, params))

    def doc_versions(self, doc_id: str) -> list[tuple[int, int, bool]]:
        """Return ``(version, chunk count, active)`` for every version of a document."""
        rows = self._db.fetchall(
            "SELECT version, COUNT(*), MAX(active) FROM narrative_chunk WHERE doc_id = ? "
            "GROUP BY version ORDER BY version",
            (doc_id,),
        )
        return [(int(r[0]), int(r[1]), bool(r[2])) for r in rows]

    def doc_ids(self, include_inactive: bool = False) -> list[str]:
        """Documents with active chunks (or any chunks, with ``include_inactive``)."""
        where = "" if include_inactive else "WHERE active = 1"
        sql = f"SELECT DISTINCT doc_id FROM narrative_chunk {where} ORDER BY 1"  # noqa: S608
        rows = self._db.fetchall(sql)
        return [str(r[0]) for r in rows]

    def count(self, include_inactive: bool = False) -> int:
        """Number of chunks (active only by default)."""
        where = "" if include_inactive else "WHERE active = 1"
        sql = f"SELECT COUNT(*) FROM narrative_chunk {where}"  # noqa: S608
        return int(self._db.fetchall(sql)[0][0])

    def to_frame(self, include_inactive: bool = False) -> pd.DataFrame:
        """Chunks as a pandas DataFrame, one column per :data:`CHUNK_COLUMNS`."""
        import pandas as pd

        chunks = self.iter_chunks(include_inactive=include_inactive)
        return pd.DataFrame([c.to_dict() for c in chunks], columns=list(CHUNK_COLUMNS))

    # ---------------------------------------------------------------- display
    def _display_card(self, max_rows: int = 10) -> Card:
        from ragspine_nb.display.render import Card, Table

        by_label = self._db.fetchall(
            "SELECT sensitivity, SUM(active), COUNT(*), "
            "COUNT(DISTINCT CASE WHEN active = 1 THEN doc_id END) "
            "FROM narrative_chunk GROUP BY sensitivity"
        )
        active = sum(int(r[1]) for r in by_label)
        restricted = sum(int(r[1]) for r in by_label if is_restricted(r[0]))
        preview = [
            (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
             "[restricted text hidden]" if is_restricted(r[4]) else r[8])
            for r in self._db.fetchall(
                "SELECT doc_id, seq, source_locator, version, sensitivity, language, entity, "
                "period, substr(text, 1, 120) FROM narrative_chunk WHERE active = 1 "
                "ORDER BY doc_id, seq LIMIT ?",
                (max_rows,),
            )
        ]
        stats = (active, sum(int(r[2]) for r in by_label), len(self.doc_ids()), restricted)
        return Card(
            title="ChunkStore",
            subtitle=self.path,
            stats=(
                ("active chunks", str(stats[0])), ("rows, all versions", str(stats[1])),
                ("documents", str(stats[2])), ("restricted chunks", str(stats[3])),
            ),
            tables=(Table(
                caption="Active chunks with locators",
                columns=("doc", "seq", "locator", "version", "sensitivity", "lang", "entity",
                         "period", "text"),
                rows=tuple(tuple(str(v) for v in r) for r in preview),
                total_rows=stats[0],
            ),),
        )

    def __repr__(self) -> str:
        return (
            f"ChunkStore(path={self.path!r}, active_chunks={self.count()}, "
            f"documents={len(self.doc_ids())})"
        )
