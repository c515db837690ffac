"""Search inside PostgreSQL: BM25 in SQL from our own term counts, vectors in pgvector.

:class:`SqlBM25` stores, for the active chunks, the term frequencies our tokenizer
produced (``bm25_term``) and each chunk's length (``bm25_doc``, with the position the
in-process index would give it). A query computes Lucene-IDF Okapi BM25 in one SQL
statement with ``k1`` and ``b`` bound at query time — the same formula as
:mod:`ragspine_nb.retrieval.bm25`, the same tie order (lower position first), so the
rankings equal the in-process engine's. :class:`PgVectorStore` keeps L2-normalised
vectors in a ``vector(d)`` column with an HNSW (cosine) index; ``exact=True`` queries
bypass the index, which is how its recall is measured.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from ragspine_nb._optional import import_optional
from ragspine_nb.errors import StoreError
from ragspine_nb.retrieval.tokenize import Tokenizer, tokenize
from ragspine_nb.retrieval.vectors import EmbeddingCache

__all__ = ["SqlBM25", "PgVectorStore", "PgEmbeddingCache", "BM25_SQL", "BULK_ROWS"]

#: An upsert of at least this many rows into a smaller table rebuilds the HNSW index once.
BULK_ROWS = 2000

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS bm25_doc (chunk_id TEXT PRIMARY KEY, pos INTEGER NOT NULL, "
    "dl DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS bm25_term (term TEXT NOT NULL, chunk_id TEXT NOT NULL, "
    "tf DOUBLE PRECISION NOT NULL, PRIMARY KEY (term, chunk_id))",
    "CREATE TABLE IF NOT EXISTS bm25_df (term TEXT PRIMARY KEY, df DOUBLE PRECISION NOT NULL)",
)
#: One statement: idf, the Okapi weight and the sum over the query's tokens (a repeated
#: token counts again), k1 and b bound as parameters; ties by the in-process position.
BM25_SQL = """
WITH q AS (SELECT term, count(*) AS qtf FROM unnest(%(terms)s::text[]) AS term GROUP BY term),
stats AS (SELECT count(*)::float8 AS n, COALESCE(avg(dl), 0)::float8 AS avgdl FROM bm25_doc),
w AS (SELECT q.qtf * ln(1 + (s.n - f.df + 0.5) / (f.df + 0.5)) AS qidf, q.term, s.avgdl
      FROM q JOIN bm25_df f USING (term) CROSS JOIN stats s),
scored AS (
  SELECT t.chunk_id,
         SUM(w.qidf * t.tf * (%(k1)s + 1)
             / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * d.dl / w.avgdl))) AS score,
         MIN(d.pos) AS pos
  FROM bm25_term t JOIN w USING (term) JOIN bm25_doc d USING (chunk_id)
  WHERE %(allowed)s::text[] IS NULL OR t.chunk_id = ANY(%(allowed)s::text[])
  GROUP BY t.chunk_id)
SELECT chunk_id, score, pos FROM scored
ORDER BY round(score::numeric, 9) DESC, pos
LIMIT %(k)s
"""


def _copy(tx: Any, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    """Bulk-load rows with ``COPY`` (values travel as data, never as SQL text)."""
    if not rows:
        return
    with tx.conn.cursor().copy(
            f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def _no_pgvector(conn: Any, where: str) -> str:
    role = conn.info.user
    return (f"pgvector is not installed in {where} and the role {role!r} may not install it "
            "(CREATE EXTENSION vector needs a superuser, as pgvector is not a trusted "
            "extension). Ask an administrator to run `CREATE EXTENSION vector;` once in "
            "this database, or search without vectors (embedding_backend=None). Nothing "
            "was changed.")


class PgEmbeddingCache(EmbeddingCache):
    """The embedding cache of a PostgreSQL-backed index: a table in the same database.

    The team's vectors are cached once, beside the chunks (never in a local folder named
    after the URL). Same interface as :class:`~ragspine_nb.retrieval.vectors.EmbeddingCache`.

    Parameters
    ----------
    db : PostgresDatabase
        The database of the chunk store (``ChunkStore(url).database``).
    """

    def __init__(self, db: Any) -> None:  # noqa: D107 - no SQLite file behind this one
        self.db = db
        self.path = f"{db.path} (table embedding_cache)"
        self._ready = False
        self._lock = threading.Lock()

    def _table(self) -> None:
        if not self._ready:
            with self.db.transaction() as tx:
                tx.execute("CREATE TABLE IF NOT EXISTS embedding_cache (model TEXT NOT NULL, "
                           "key TEXT NOT NULL, dim INTEGER NOT NULL, vector BYTEA NOT NULL, "
                           "PRIMARY KEY (model, key))")
            self._ready = True

    def get_many(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors for the keys that are present."""
        self._table()
        rows = self.db.fetchall("SELECT key, dim, vector FROM embedding_cache WHERE model = ? "
                                "AND key = ANY(?)", (model, list(keys)))
        return {str(k): np.frombuffer(bytes(blob), dtype=np.float32, count=int(dim))
                for k, dim, blob in rows}

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Store vectors (one transaction; a vector stored meanwhile is replaced)."""
        if not items:
            return
        self._table()
        with self.db.transaction() as tx:
            tx.executemany("INSERT INTO embedding_cache VALUES (?, ?, ?, ?) ON CONFLICT "
                           "(model, key) DO UPDATE SET dim = EXCLUDED.dim, "
                           "vector = EXCLUDED.vector",
                           [(model, k, int(v.size), np.asarray(v, np.float32).tobytes())
                            for k, v in items.items()])

    def count(self) -> int:
        """Number of cached vectors."""
        self._table()
        return int(self.db.fetchall("SELECT count(*) FROM embedding_cache")[0][0])


class SqlBM25:
    """BM25 over term counts stored in PostgreSQL (see the module docstring).

    Parameters
    ----------
    db : PostgresDatabase
        The database of the chunk store (``ChunkStore(url).database``).
    tokenizer : callable, default :func:`tokenize`
        Must be the tokenizer of the in-process index for rankings to match.
    """

    def __init__(self, db: Any, tokenizer: Tokenizer = tokenize) -> None:
        self.db = db
        self.tokenizer = tokenizer
        with db.transaction() as tx:
            for statement in _SCHEMA:
                tx.execute(statement)

    def sync(self, chunk_ids: Sequence[str], texts: Sequence[str]) -> int:
        """Replace the stored counts with these chunks (in this order); one transaction."""
        docs, terms = [], []
        for pos, (cid, text) in enumerate(zip(chunk_ids, texts, strict=True)):
            toks = self.tokenizer(text)
            docs.append((cid, pos, float(len(toks))))
            counts: dict[str, int] = {}
            for t in toks:
                counts[t] = counts.get(t, 0) + 1
            terms += [(t, cid, float(n)) for t, n in counts.items()]
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM bm25_term")
            tx.execute("DELETE FROM bm25_doc")
            tx.execute("DELETE FROM bm25_df")
            _copy(tx, "bm25_doc", ("chunk_id", "pos", "dl"), docs)
            _copy(tx, "bm25_term", ("term", "chunk_id", "tf"), terms)
            tx.execute("INSERT INTO bm25_df SELECT term, count(*) FROM bm25_term GROUP BY term")
        with self.db.lock:
            self.db.conn.execute("ANALYZE bm25_term")
        return len(docs)

    def search_many(self, queries: Sequence[str], top_k: int, k1: float, b: float,
                    allowed: Sequence[str] | None = None) -> list[list[tuple[str, float]]]:
        """Best ``top_k`` (chunk_id, score) per query, best first (ties: lower position)."""
        out: list[list[tuple[str, float]]] = []
        conn = self.db.conn
        for query in queries:
            terms = self.tokenizer(query)
            if not terms or top_k <= 0:
                out.append([])
                continue
            with self.db.lock:
                rows = conn.execute(BM25_SQL, {"terms": terms, "k1": float(k1), "b": float(b),
                                               "allowed": list(allowed) if allowed is not None
                                               else None, "k": int(top_k)}).fetchall()
            out.append([(str(r[0]), float(r[1])) for r in rows if float(r[1]) > 0])
        return out


class PgVectorStore:
    """Vectors in pgvector with an HNSW (cosine) index; same interface as the in-process one.

    Parameters
    ----------
    db : PostgresDatabase
        Where the ``chunk_vector`` table lives.
    ef_search : int, default 100
        HNSW search breadth (higher = better recall, slower).
    """

    def __init__(self, db: Any, ef_search: int = 100) -> None:
        import_optional("pgvector", extra="team", feature="pgvector search")
        self.db = db
        self.ef_search = ef_search
        self.dim: int | None = None
        # ids known to be stored, read once and kept up to date by upsert/delete, so the
        # per-search "which candidates still need a vector" check is not a table scan
        # (a vector another process added meanwhile is at worst embedded again)
        self._stored: set[str] | None = None

    def _known_dim(self) -> int | None:
        """The dimension of an existing ``chunk_vector`` table (after a restart)."""
        if self.dim is None:
            rows = self.db.fetchall(
                "SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(?) "
                "AND attname = 'embedding'", ("chunk_vector",))
            if rows:
                self._ensure(int(rows[0][0]))
        return self.dim

    def _ensure(self, dim: int) -> None:
        if self.dim == dim:
            return
        from pgvector.psycopg import register_vector

        psycopg = import_optional("psycopg", extra="team", feature="pgvector search")
        with self.db.lock:
            conn = self.db.conn
            try:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.errors.InsufficientPrivilege as exc:
                raise StoreError(_no_pgvector(conn, self.db.path)) from exc
            register_vector(conn)
            conn.execute(f"CREATE TABLE IF NOT EXISTS chunk_vector (chunk_id TEXT PRIMARY KEY, "
                         f"embedding vector({int(dim)}) NOT NULL)")
            conn.execute("CREATE INDEX IF NOT EXISTS chunk_vector_hnsw ON chunk_vector USING "
                         "hnsw (embedding vector_cosine_ops)")
        self.dim = dim

    def upsert(self, ids: Sequence[str], vectors: Any) -> None:
        """Insert or replace (L2-normalised on the way in)."""
        from ragspine_nb.retrieval.vectors import checked_vectors

        vecs = checked_vectors(ids, vectors)
        if not len(ids):
            return
        self._ensure(int(vecs.shape[1]))
        # a bulk load into a (nearly) empty table builds the HNSW index once, afterwards,
        # instead of maintaining it row by row
        bulk = len(ids) >= BULK_ROWS and self.count() < len(ids)
        with self.db.transaction() as tx:  # COPY into a staging table, then upsert
            if bulk:
                tx.execute("DROP INDEX IF EXISTS chunk_vector_hnsw")
            tx.execute("CREATE TEMP TABLE IF NOT EXISTS chunk_vector_in (LIKE chunk_vector) "
                       "ON COMMIT DELETE ROWS")
            _copy(tx, "chunk_vector_in", ("chunk_id", "embedding"),
                  [(i, "[" + ",".join(f"{x:.9g}" for x in v) + "]")  # float32 round-trips
                   for i, v in zip(ids, vecs, strict=True)])
            tx.execute("INSERT INTO chunk_vector SELECT * FROM chunk_vector_in ON CONFLICT "
                       "(chunk_id) DO UPDATE SET embedding = EXCLUDED.embedding")
            if bulk:
                tx.execute("SET LOCAL maintenance_work_mem = '256MB'")
                tx.execute("CREATE INDEX chunk_vector_hnsw ON chunk_vector USING hnsw "
                           "(embedding vector_cosine_ops)")
        if self._stored is not None:  # after the commit
            self._stored.update(ids)

    def ids(self) -> list[str]:
        """Every stored chunk id."""
        if self._known_dim() is None:
            return []
        return [r[0] for r in self.db.fetchall("SELECT chunk_id FROM chunk_vector")]

    def missing(self, ids: Sequence[str]) -> list[str]:
        """The ids without a stored vector, in order."""
        if self._stored is None:
            self._stored = set(self.ids())
        return [i for i in ids if i not in self._stored]

    def delete(self, ids: Sequence[str]) -> None:
        """Remove vectors (absent ids are ignored)."""
        if ids and self._known_dim() is not None:
            with self.db.transaction() as tx:
                tx.execute("DELETE FROM chunk_vector WHERE chunk_id = ANY(?)", (list(ids),))
            if self._stored is not None:
                self._stored.difference_update(ids)

    def count(self) -> int:
        """Number of stored vectors."""
        if self._known_dim() is None:
            return 0
        return int(self.db.fetchall("SELECT count(*) FROM chunk_vector")[0][0])

    def __contains__(self, vid: object) -> bool:
        if self._known_dim() is None:
            return False
        return bool(self.db.fetchall("SELECT 1 FROM chunk_vector WHERE chunk_id = ?", (vid,)))

    def query(self, vector: Any, top_k: int = 10, ids: Sequence[str] | None = None,
              exact: bool = False) -> list[tuple[str, float]]:
        """Top-k by cosine similarity (HNSW; ``exact=True`` scans), ties by id."""
        from ragspine_nb.retrieval.embedders import unit_rows

        if self._known_dim() is None or top_k <= 0:
            return []
        q = unit_rows(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
        where = "WHERE chunk_id = ANY(%s)" if ids is not None else ""
        params: list[Any] = [q] + ([list(ids)] if ids is not None else []) + [q, int(top_k)]
        sql = (f"SELECT chunk_id, 1 - (embedding <=> %s) AS score FROM chunk_vector {where} "  # noqa: S608
               "ORDER BY embedding <=> %s, chunk_id LIMIT %s")
        with self.db.lock:
            conn = self.db.conn
            with conn.transaction():
                conn.execute(f"SET LOCAL hnsw.ef_search = {int(self.ef_search)}")
                if exact:
                    conn.execute("SET LOCAL enable_indexscan = off")
                rows = conn.execute(sql, params).fetchall()
        return [(str(r[0]), float(r[1])) for r in rows]
