"""Okapi BM25 over a sparse term-frequency matrix, with k1 and b applied at query time.

The index keeps raw term frequencies, document lengths and document frequencies,
so a notebook slider that changes k1 or b re-scores without re-indexing. Weighted
matrices are cached per (k1, b). One formula per function, composed by
:class:`BM25Index`::

    idf(t)      = ln(1 + (N - df + 0.5) / (df + 0.5))
    w(t, d)     = idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl))
    score(q, d) = sum of w(t, d) over the query's tokens (a repeated token counts again)

(Robertson & Zaragoza, 2009; the ``ln(1 + …)`` IDF is Lucene's, which never goes
negative.) bm25s' "lucene" method ranks identically; its scores lack the constant
factor ``k1 + 1``.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np
from scipy import sparse

from ragspine_nb.retrieval.tokenize import Tokenizer, tokenize

__all__ = [
    "BM25Index",
    "idf_lucene",
    "bm25_weights",
    "select_top_k",
    "DEFAULT_K1",
    "DEFAULT_B",
]

DEFAULT_K1 = 1.5
DEFAULT_B = 0.75


def idf_lucene(df: np.ndarray, n_docs: int) -> np.ndarray:
    """``ln(1 + (N - df + 0.5) / (df + 0.5))`` per term."""
    df = np.asarray(df, dtype=np.float64)
    out: np.ndarray = np.log1p((n_docs - df + 0.5) / (df + 0.5))
    return out


def bm25_weights(tf: np.ndarray, doc_len: np.ndarray, avgdl: float, idf: np.ndarray,
                 k1: float, b: float) -> np.ndarray:
    """Okapi term weights for aligned arrays of tf, document length and idf."""
    norm = k1 * (1.0 - b + b * doc_len / avgdl)
    out: np.ndarray = idf * tf * (k1 + 1.0) / (tf + norm)
    return out


def select_top_k(doc_index: np.ndarray, scores: np.ndarray,
                 k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best (doc index, score) pairs, best first, ties by lower doc index."""
    if k <= 0 or scores.size == 0:
        return doc_index[:0], scores[:0]
    if scores.size > k:
        cut = np.argpartition(-scores, k - 1)[:k]
        kth = scores[cut].min()
        keep = np.flatnonzero(scores >= kth)  # every tie at the boundary, then trim
        doc_index, scores = doc_index[keep], scores[keep]
    order = np.lexsort((doc_index, -scores))[:k]
    return doc_index[order], scores[order]


def _check_params(k1: float, b: float) -> None:
    if not (isinstance(k1, int | float) and k1 >= 0):
        raise ValueError(f"k1 must be a number >= 0, got {k1!r}")
    if not (isinstance(b, int | float) and 0 <= b <= 1):
        raise ValueError(f"b must be a number in [0, 1], got {b!r}")


class BM25Index:
    """A BM25 index whose parameters are chosen per query.

    Build it with :meth:`build` (texts) or :meth:`from_tokens`. ``search`` and
    ``search_many`` take ``k1`` and ``b``; the weighted matrix for each recent
    (k1, b) is cached (``cache_size`` entries).

    Examples
    --------
    >>> idx = BM25Index.build(["a", "b"], ["x x y", "y z"])
    >>> [(d, round(s, 6)) for d, s in idx.search("x", top_k=5)]
    [('a', 0.930399)]
    """

    def __init__(self, doc_ids: Sequence[str], vocab: dict[str, int], tf: sparse.csr_matrix,
                 tokenizer: Tokenizer = tokenize, cache_size: int = 4) -> None:
        if len(doc_ids) != tf.shape[0]:
            raise ValueError("doc_ids and the tf matrix disagree on the number of documents")
        if len(set(doc_ids)) != len(doc_ids):
            raise ValueError("doc_ids must be unique")
        self.doc_ids: list[str] = list(doc_ids)
        self.vocab = vocab
        self.tokenizer = tokenizer
        self._tf_t = tf.T.tocsr()  # terms × docs: a query term's postings are one row
        self._tf_t.sort_indices()
        self.doc_len = np.asarray(tf.sum(axis=1)).ravel().astype(np.float64)
        self.n_docs = len(self.doc_ids)
        self.avgdl = float(self.doc_len.mean()) if self.n_docs else 0.0
        self.df = np.diff(self._tf_t.indptr).astype(np.int64)
        self.idf = idf_lucene(self.df, self.n_docs)
        self._post_docs = self._tf_t.indices  # doc of each posting
        self._post_terms = np.repeat(np.arange(len(vocab)), np.diff(self._tf_t.indptr))
        self._cache: OrderedDict[tuple[float, float], sparse.csr_matrix] = OrderedDict()
        self._cache_size = cache_size
        self._position = {d: i for i, d in enumerate(self.doc_ids)}
        self._ids_array = np.array(self.doc_ids, dtype=object)

    # -------------------------------------------------------------- structure
    @property
    def term_matrix(self) -> sparse.csr_matrix:
        """Raw term frequencies, terms × docs (CSR, sorted indices): one row per term's postings.

        Shared with the index, not a copy: read it, never modify it.
        """
        return self._tf_t

    @property
    def postings_docs(self) -> np.ndarray:
        """The document position of each posting, aligned with ``term_matrix.data``.

        Shared with the index, not a copy: read it, never modify it.
        """
        out: np.ndarray = self._post_docs
        return out

    def position_of(self, doc_id: str) -> int | None:
        """The position of ``doc_id`` in the index (its row in scores), or ``None`` if absent.

        Examples
        --------
        >>> idx = BM25Index.build(["a", "b"], ["x", "y"])
        >>> idx.position_of("b"), idx.position_of("zz")
        (1, None)
        """
        return self._position.get(doc_id)

    # -------------------------------------------------------------- building
    @classmethod
    def from_tokens(cls, doc_ids: Sequence[str], tokens: Iterable[Sequence[str]],
                    tokenizer: Tokenizer = tokenize) -> BM25Index:
        """Index pre-tokenized documents (streamed: token lists are not kept)."""
        vocab: dict[str, int] = {}
        cols = array("q")
        lens = array("q")
        for toks in tokens:
            cols.extend([vocab.setdefault(t, len(vocab)) for t in toks])
            lens.append(len(toks))
        n_docs = len(doc_ids)
        if len(lens) != n_docs:
            raise ValueError("doc_ids and tokens disagree on the number of documents")
        indptr = np.zeros(n_docs + 1, dtype=np.int64)
        np.cumsum(np.frombuffer(lens, dtype=np.int64) if n_docs else [], out=indptr[1:])
        col = np.frombuffer(cols, dtype=np.int64) if len(cols) else np.zeros(0, np.int64)
        tf = sparse.csr_matrix((np.ones(col.size, np.float32), col, indptr),
                               shape=(n_docs, len(vocab)), dtype=np.float32)
        tf.sum_duplicates()
        return cls(doc_ids, vocab, tf, tokenizer)

    @classmethod
    def build(cls, doc_ids: Sequence[str], texts: Sequence[str],
              tokenizer: Tokenizer = tokenize) -> BM25Index:
        """Tokenize and index ``texts`` (raw term frequencies, lengths, document frequencies)."""
        if len(doc_ids) != len(texts):
            raise ValueError(f"{len(doc_ids)} doc_ids but {len(texts)} texts")
        return cls.from_tokens(doc_ids, (tokenizer(t) for t in texts), tokenizer)

    # -------------------------------------------------------------- scoring
    def weights(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> sparse.csr_matrix:
        """Terms × docs matrix of BM25 weights for (k1, b) (cached)."""
        _check_params(k1, b)
        key = (float(k1), float(b))
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        data = bm25_weights(self._tf_t.data.astype(np.float64), self.doc_len[self._post_docs],
                            self.avgdl or 1.0, self.idf[self._post_terms], k1, b)
        weighted = sparse.csr_matrix((data.astype(np.float32), self._tf_t.indices,
                                      self._tf_t.indptr), shape=self._tf_t.shape)
        self._cache[key] = weighted
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return weighted

    def query_matrix(self, queries: Sequence[str] | Sequence[Sequence[str]]) -> sparse.csr_matrix:
        """Queries × terms counts (strings are tokenized; unknown tokens are dropped)."""
        rows, cols = [], []
        for i, q in enumerate(queries):
            toks = self.tokenizer(q) if isinstance(q, str) else q
            ids = [self.vocab[t] for t in toks if t in self.vocab]
            rows.extend([i] * len(ids))
            cols.extend(ids)
        return sparse.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)),
                                 shape=(len(queries), len(self.vocab)), dtype=np.float32)

    def score_matrix(self, queries: Sequence[str] | Sequence[Sequence[str]],
                     k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> sparse.csr_matrix:
        """Queries × docs sparse scores (only documents sharing a token are stored)."""
        return (self.query_matrix(queries) @ self.weights(k1, b)).tocsr()

    def mask_for(self, doc_ids: Iterable[str]) -> np.ndarray:
        """Boolean mask over the index for a candidate set (unknown ids are ignored)."""
        mask = np.zeros(self.n_docs, dtype=bool)
        idx = [self._position[d] for d in doc_ids if d in self._position]
        mask[idx] = True
        return mask

    def search_many(self, queries: Sequence[str] | Sequence[Sequence[str]], top_k: int = 10,
                    k1: float = DEFAULT_K1, b: float = DEFAULT_B,
                    mask: np.ndarray | None = None) -> list[list[tuple[str, float]]]:
        """Best ``top_k`` (doc_id, score) per query, best first; docs scoring 0 are omitted.

        Ties break by the document's position in the index. ``mask`` restricts the
        ranking to a candidate set (corpus statistics stay global). Queries are
        scored in batches whose dense score block stays under ~4M cells.
        """
        if top_k < 0:
            raise ValueError(f"top_k must be >= 0, got {top_k}")
        batch = max(1, 4_000_000 // max(self.n_docs, 1))
        out: list[list[tuple[str, float]]] = []
        for start in range(0, len(queries), batch):
            scores = self.score_matrix(queries[start:start + batch], k1, b).toarray()
            if mask is not None:
                scores[:, ~mask] = 0.0
            out.extend(self.top_k(scores, top_k))
        return out

    def top_k(self, scores: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """Row-wise best ``k`` (doc_id, score) of a dense queries × docs score block.

        Ties break by document position in the index and documents scoring 0 are
        dropped, exactly as :meth:`search_many` orders its results.

        Parameters
        ----------
        scores : numpy.ndarray
            Queries × docs scores (columns in index order).
        k : int
            How many documents to keep per row.

        Returns
        -------
        list of list of (str, float)
            One ranking per row, best first.

        Examples
        --------
        >>> idx = BM25Index.build(["a", "b", "c"], ["x", "y", "z"])
        >>> idx.top_k(np.array([[0.5, 0.0, 0.5]]), 5)
        [[('a', 0.5), ('c', 0.5)]]
        """
        n_rows, n = scores.shape
        if k <= 0 or n == 0:
            return [[] for _ in range(n_rows)]
        k = min(k, n)
        sel = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < n else \
            np.tile(np.arange(n), (n_rows, 1))
        sel.sort(axis=1)                              # doc position order inside the pick
        vals = np.take_along_axis(scores, sel, axis=1)
        order = np.argsort(-vals, axis=1, kind="stable")
        sel = np.take_along_axis(sel, order, axis=1)
        vals = np.take_along_axis(vals, order, axis=1)
        if k < n:  # a tie at the boundary may hide a lower-positioned doc: redo those rows
            kth = vals[:, -1]
            ties = (scores == kth[:, None]).sum(axis=1) > (vals == kth[:, None]).sum(axis=1)
            for r in np.flatnonzero(ties & (kth > 0)):
                d, v = select_top_k(np.arange(n), scores[r], k)
                sel[r], vals[r] = d, v
        ids = self._ids_array
        out = []
        for docs, row in zip(sel, vals, strict=True):
            live = row > 0
            out.append(list(zip(ids[docs[live]].tolist(), row[live].tolist(), strict=True)))
        return out

    def search(self, query: str | Sequence[str], top_k: int = 10, k1: float = DEFAULT_K1,
               b: float = DEFAULT_B, mask: np.ndarray | None = None) -> list[tuple[str, float]]:
        """Best ``top_k`` (doc_id, score) for one query, best first."""
        return self.search_many([query], top_k, k1, b, mask)[0]

    def get_scores(self, query: str | Sequence[str], k1: float = DEFAULT_K1,
                   b: float = DEFAULT_B) -> np.ndarray:
        """Dense score of every document for one query (index order)."""
        out: np.ndarray = self.score_matrix([query], k1, b).toarray()[0]
        return out

    def __len__(self) -> int:
        return self.n_docs

    def __repr__(self) -> str:
        return (f"BM25Index(docs={self.n_docs}, terms={len(self.vocab)}, "
                f"avgdl={self.avgdl:.1f}, cached_params={list(self._cache)})")
