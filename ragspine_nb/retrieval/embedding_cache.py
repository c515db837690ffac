"""The on-disk embedding cache: vectors keyed by model and text hash, in SQLite.

A notebook never re-embeds an unchanged corpus. A PostgreSQL-backed index keeps its cache
in its own database instead (:class:`~ragspine_nb.retrieval.pg_engine.PgEmbeddingCache`).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["EmbeddingCache"]


class EmbeddingCache:
    """Vectors keyed by (model name, kind, sha256 of the text), in SQLite (or memory).

    A cache file that cannot be written (a read-only workspace, a full disk) is only
    a lost speed-up: the cache then lives in memory, and ``degraded`` says why.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        #: why the cache fell back to memory ("" while it works as asked)
        self.degraded = ""

    def _c(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                self._conn = _cache_connection(self.path)
            except (OSError, sqlite3.Error) as exc:
                self.degraded = f"cannot write {self.path} ({exc}); caching in memory"
                self._conn = _cache_connection(":memory:")
        return self._conn

    @staticmethod
    def key(kind: str, text: str) -> str:
        """Cache key of one text."""
        return kind + ":" + hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get_many(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors for the keys that are present."""
        out: dict[str, np.ndarray] = {}
        with self._lock:
            conn = self._c()
            for start in range(0, len(keys), 500):
                part = list(keys[start:start + 500])
                marks = ",".join("?" for _ in part)
                for k, dim, blob in conn.execute(
                        f"SELECT key, dim, vector FROM embedding WHERE model = ? "  # noqa: S608
                        f"AND key IN ({marks})", [model, *part]):
                    out[k] = np.frombuffer(blob, dtype=np.float32, count=dim)
        return out

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Store vectors (one transaction; a failed write only loses the speed-up)."""
        with self._lock:
            conn = self._c()
            try:
                with conn:
                    conn.executemany("INSERT OR REPLACE INTO embedding VALUES (?, ?, ?, ?)",
                                     [(model, k, int(v.size),
                                       np.asarray(v, np.float32).tobytes())
                                      for k, v in items.items()])
            except sqlite3.OperationalError as exc:  # read-only, disk full: not cached
                self.degraded = f"cannot write {self.path} ({exc}); vectors not cached"

    def count(self) -> int:
        """Number of cached vectors."""
        with self._lock:
            return int(self._c().execute("SELECT COUNT(*) FROM embedding").fetchone()[0])


def _cache_connection(path: str) -> sqlite3.Connection:
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS embedding (model TEXT NOT NULL, "
                     "key TEXT NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL, "
                     "PRIMARY KEY (model, key))")
    except BaseException:
        conn.close()
        raise
    return conn
