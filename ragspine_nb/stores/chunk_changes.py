"""How a reader learns what changed in a SQLite chunk store without reading every row.

SQLite triggers log the document of every chunk row inserted, deleted or switched
(``active``) into ``chunk_change``; row ids name chunk versions (a row's content never
changes once written). :class:`~ragspine_nb.retrieval.live_bm25.LiveBM25` reads both
to keep a BM25 index in step. PostgreSQL stores have no log (they rebuild).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ragspine_nb.core import StoredChunk
from ragspine_nb.stores._sqlite import SQLiteDatabase

__all__ = ["ChunkChanges"]

#: SQLite only (kept out of the shared schema, which PostgreSQL also reads)
_CHANGE_LOG = (
    "CREATE TABLE IF NOT EXISTS chunk_change (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "doc_id TEXT NOT NULL)",
    "CREATE TRIGGER IF NOT EXISTS chunk_change_insert AFTER INSERT ON narrative_chunk "
    "WHEN new.active = 1 BEGIN INSERT INTO chunk_change (doc_id) VALUES (new.doc_id); END",
    "CREATE TRIGGER IF NOT EXISTS chunk_change_update AFTER UPDATE OF active ON "
    "narrative_chunk WHEN new.active <> old.active BEGIN "
    "INSERT INTO chunk_change (doc_id) VALUES (new.doc_id); END",
    "CREATE TRIGGER IF NOT EXISTS chunk_change_delete AFTER DELETE ON narrative_chunk "
    "WHEN old.active = 1 BEGIN INSERT INTO chunk_change (doc_id) VALUES (old.doc_id); END",
)


class ChunkChanges:
    """Change tracking for :class:`~ragspine_nb.stores.chunks.ChunkStore` (SQLite only)."""

    _db: Any
    #: the chunk columns and the reader of one row (given by the store class)
    _chunk_columns: tuple[str, ...]
    _chunk_from_row: Callable[[Any], StoredChunk]

    # ------------------------------------------- change tracking (SQLite files only)
    def keep_change_log(self) -> bool:
        """Make sure the change log exists (SQLite triggers); False where there is none.

        Every insert, delete or ``active`` flip of a chunk row adds the row's document
        to ``chunk_change``, so a reader learns which documents changed without
        reading the chunk table. PostgreSQL and read-only files have no log here.
        """
        if not isinstance(self._db, SQLiteDatabase):
            return False
        if not self._db.read_only:
            with self._db.transaction() as conn:
                for statement in _CHANGE_LOG:
                    conn.execute(statement)
        return bool(self._db.fetchall(
            "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = "
            "'chunk_change_update'"))

    def change_log_position(self) -> int:
        """The newest entry of the change log (0 when empty)."""
        return int(self._db.fetchall("SELECT COALESCE(MAX(id), 0) FROM chunk_change")[0][0])

    def docs_changed_since(self, position: int) -> tuple[int, list[str]]:
        """(newest position, documents changed after ``position``) from the change log."""
        rows = self._db.fetchall("SELECT id, doc_id FROM chunk_change WHERE id > ? "
                                 "ORDER BY id", (position,))
        if not rows:
            return position, []
        return int(rows[-1][0]), sorted({str(r[1]) for r in rows})

    def active_rowids(self, doc_ids: Sequence[str] | None = None) -> list[int]:
        """Row ids of the active chunks [of some documents] (read from an index alone).

        A row's content never changes after it is written (only ``active`` does), so
        a row id names one chunk version for the life of the file. SQLite only.
        """
        sql = "SELECT rowid FROM narrative_chunk WHERE active = 1"
        if doc_ids is None:
            return [int(r[0]) for r in self._db.fetchall(sql)]
        out, docs = [], list(doc_ids)
        for start in range(0, len(docs), 500):
            part = docs[start:start + 500]
            rows = self._db.fetchall(f"{sql} AND doc_id IN ({', '.join('?' for _ in part)})",
                                     part)
            out += [int(r[0]) for r in rows]
        return out

    def active_rowid_digest(self) -> tuple[int, int]:
        """(count, sum) of the active chunks' row ids: one aggregate, no rows read."""
        row = self._db.fetchall("SELECT COUNT(*), COALESCE(SUM(rowid), 0) FROM narrative_chunk "
                                "WHERE active = 1")
        return int(row[0][0]), int(row[0][1])

    def chunks_by_rowid(self, rowids: Sequence[int] | None = None
                        ) -> list[tuple[int, StoredChunk]]:
        """(row id, chunk) of the given rows, or of every active chunk; by row id. SQLite only."""
        cols = ", ".join(self._chunk_columns)
        if rowids is None:
            rows = self._db.fetchall(f"SELECT rowid, {cols} FROM narrative_chunk "  # noqa: S608
                                     "WHERE active = 1 ORDER BY rowid")
        else:
            rows = []
            ids = sorted(int(r) for r in rowids)
            for start in range(0, len(ids), 500):
                part = ids[start:start + 500]
                rows += self._db.fetchall(
                    f"SELECT rowid, {cols} FROM narrative_chunk "  # noqa: S608
                    f"WHERE rowid IN ({', '.join('?' for _ in part)}) ORDER BY rowid", part)
        return [(int(r[0]), self._chunk_from_row(r)) for r in rows]

