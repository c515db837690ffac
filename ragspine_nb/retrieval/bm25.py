"""Okapi BM25 with k1 and b chosen per query, over postings that take changes in place.

The index keeps raw term frequencies, document lengths and document frequencies, so
a notebook slider that changes k1 or b re-scores without re-indexing; a query scores
only the documents sharing a term with it (:mod:`~ragspine_nb.retrieval.bm25_kernels`),
with the formulas of :mod:`~ragspine_nb.retrieval.bm25_formulas`::

    score(q, d) = sum of w(t, d) over the query's tokens (a repeated token counts again)

bm25s' "lucene" method ranks identically; its scores lack the constant factor ``k1 + 1``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, pairwise, repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from ragspine_nb.retrieval.bm25_formulas import (
    bm25_weights,
    check_params,
    checked_keys,
    dense_top_k,
    idf_lucene,
    select_top_k,
)
from ragspine_nb.retrieval.bm25_kernels import QueryBatch, TopK, distinct_terms, top_k_batch
from ragspine_nb.retrieval.bm25_postings import PostingStore, csr
from ragspine_nb.retrieval.bm25_weights import WeightCache
from ragspine_nb.retrieval.packed import SavedTerms
from ragspine_nb.retrieval.tokenize import Tokenizer, tokenize

if TYPE_CHECKING:
    from scipy import sparse

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


class BM25Index:
    """A BM25 index whose parameters are chosen per query, and which takes changes in place.

    Build it with :meth:`build` (texts) or :meth:`from_tokens`. ``search`` and
    ``search_many`` take ``k1`` and ``b``; each query scores only the documents that
    share a term with it (a compiled loop when numba is installed). :meth:`add` and
    :meth:`remove` change the index without a rebuild; the corpus statistics are
    always those of the live documents, so every score equals a fresh build's.

    Examples
    --------
    >>> idx = BM25Index.build(["a", "b"], ["x x y", "y z"])
    >>> [(d, round(s, 6)) for d, s in idx.search("x", top_k=5)]
    [('a', 0.930399)]
    >>> idx.add(["c"], [["x"]]); idx.remove(["a"])
    1
    >>> [d for d, _ in idx.search("x")]
    ['c']
    """

    def __init__(self, doc_ids: Sequence[str], vocab: dict[str, int], tf: sparse.csr_matrix,
                 tokenizer: Tokenizer = tokenize, cache_size: int = 4,
                 order_keys: Sequence[int] | None = None) -> None:
        if len(doc_ids) != tf.shape[0]:
            raise ValueError("doc_ids and the tf matrix disagree on the number of documents")
        self.tokenizer = tokenizer
        self._cache_size = cache_size
        self._store = PostingStore(vocab)
        self._store.load_matrix(list(doc_ids), tf, checked_keys(order_keys, len(doc_ids)))
        self._changed()

    @classmethod
    def _empty(cls, tokenizer: Tokenizer, cache_size: int = 4) -> BM25Index:
        """An index of nothing, made without scipy (a saved index loads with no import)."""
        index = cls.__new__(cls)
        index.tokenizer, index._cache_size = tokenizer, cache_size
        index._store = PostingStore({})
        index._store.load([], np.zeros(1, np.int64), np.zeros(0, np.int32),
                          np.zeros(0, np.float32), np.zeros(0, np.int64), None)
        index._changed()
        return index

    def _changed(self) -> None:
        st = self._store
        self.n_docs = int(st.alive.sum())
        total = float(st.slot_len[st.alive].sum())
        self.avgdl = total / self.n_docs if self.n_docs else 0.0
        self.idf = idf_lucene(st.df, self.n_docs)
        self._weights = WeightCache(st, self.idf, self.avgdl, self._cache_size)
        self._ids_array = np.array(st.slot_ids, dtype=object)
        self._term_matrix: sparse.csr_matrix | None = None

    # -------------------------------------------------------------- structure
    @property
    def vocab(self) -> Mapping[str, int]:
        """Term → term id (ids of removed documents' terms stay)."""
        return self._store.vocab

    @property
    def df(self) -> np.ndarray:
        """Live documents containing each term."""
        return self._store.df

    def _clean(self) -> PostingStore:
        if not self._store.clean:
            self._store.compact()
            self._changed()
        return self._store

    @property
    def doc_ids(self) -> list[str]:
        """Live document ids in index order (the column order of :meth:`top_k`)."""
        return self._clean().slot_ids

    @property
    def doc_len(self) -> np.ndarray:
        """Token count of each live document, in index order."""
        return self._clean().slot_len

    @property
    def term_matrix(self) -> sparse.csr_matrix:
        """Raw term frequencies, terms × docs (CSR, sorted indices): one row per term's postings.

        Shared with the index, not a copy: read it, never modify it.
        """
        st = self._clean()
        if self._term_matrix is None:
            self._term_matrix = csr(
                (st.main.tf, st.main.docs, st.main.ptr), shape=(len(st.vocab), self.n_docs))
        return self._term_matrix

    @property
    def postings_docs(self) -> np.ndarray:
        """The document position of each posting, aligned with ``term_matrix.data``.

        Shared with the index, not a copy: read it, never modify it.
        """
        return self._clean().main.docs

    def position_of(self, doc_id: str) -> int | None:
        """The position of ``doc_id`` in the index, or ``None`` if absent.

        Positions are valid until the index next changes.

        Examples
        --------
        >>> idx = BM25Index.build(["a", "b"], ["x", "y"])
        >>> idx.position_of("b"), idx.position_of("zz")
        (1, None)
        """
        return self._store.positions().get(doc_id)

    # -------------------------------------------------------------- building
    @classmethod
    def from_tokens(cls, doc_ids: Sequence[str], tokens: Iterable[Sequence[str]],
                    tokenizer: Tokenizer = tokenize,
                    order_keys: Sequence[int] | None = None) -> BM25Index:
        """Index pre-tokenized documents (streamed in blocks: token lists are not kept).

        ``order_keys`` (strictly increasing, one per document) break score ties: the
        lower key ranks first. By default the position in ``doc_ids``.
        """
        index = cls._empty(tokenizer)
        index._store.build(list(doc_ids), tokens, checked_keys(order_keys, len(doc_ids)))
        index._changed()
        index._store.positions()  # doc_ids are checked unique when built
        return index

    @classmethod
    def build(cls, doc_ids: Sequence[str], texts: Sequence[str],
              tokenizer: Tokenizer = tokenize,
              order_keys: Sequence[int] | None = None) -> BM25Index:
        """Tokenize and index ``texts`` (raw term frequencies, lengths, document frequencies)."""
        if len(doc_ids) != len(texts):
            raise ValueError(f"{len(doc_ids)} doc_ids but {len(texts)} texts")
        return cls.from_tokens(doc_ids, (tokenizer(t) for t in texts), tokenizer, order_keys)

    def parts(self) -> dict[str, Any]:
        """The index as plain arrays and lists (compacted first), for :meth:`from_parts`."""
        st = self._clean()
        terms = st.vocab.terms() if isinstance(st.vocab, SavedTerms) else \
            sorted(st.vocab, key=st.vocab.__getitem__)
        return {"ids": list(st.slot_ids), "vocab": terms, "ptr": st.main.ptr,
                "docs": st.main.docs, "tf": st.main.tf, "lens": st.slot_len, "keys": st.tie}

    @classmethod
    def from_parts(cls, ids: Sequence[str], vocab: Sequence[str] | SavedTerms,
                   tokenizer: Tokenizer,
                   *, ptr: np.ndarray, docs: np.ndarray, tf: np.ndarray, lens: np.ndarray,
                   keys: np.ndarray) -> BM25Index:
        """Rebuild an index from :meth:`parts` (no tokenizing, no counting).

        ``vocab`` is the terms in id order, or a saved table of them (read as it is).
        """
        index = cls._empty(tokenizer)
        index._store.vocab = vocab if isinstance(vocab, SavedTerms) else \
            dict(zip(vocab, range(len(vocab)), strict=True))
        if len(ids) != lens.size or ptr.size != len(vocab) + 1:
            raise ValueError("index parts disagree on the number of documents or terms")
        index._store.load(list(ids), ptr, docs, tf, lens, checked_keys(keys, len(ids)))
        index._changed()
        return index

    # -------------------------------------------------------------- changes
    def add(self, doc_ids: Sequence[str], tokens: Sequence[Sequence[str] | str],
            order_keys: Sequence[int] | None = None) -> None:
        """Add documents (token lists or texts) without rebuilding the index.

        ``order_keys`` place them among the others for ties (default: after all).
        """
        clash = sorted(self._store.slots_of(set(doc_ids))) or \
            sorted(d for d, n in Counter(doc_ids).items() if n > 1)
        if clash:
            raise ValueError(f"already indexed or repeated: {clash[:5]} (remove them first)")
        if len(tokens) != len(doc_ids):
            raise ValueError(f"{len(doc_ids)} doc_ids but {len(tokens)} token lists")
        st = self._store
        start = int(st.tie.max()) + 1 if st.tie.size else 0
        keys = list(order_keys) if order_keys is not None else \
            list(range(start, start + len(doc_ids)))
        toks = [self.tokenizer(t) if isinstance(t, str) else t for t in tokens]
        st.add_tokens(list(doc_ids), toks, keys)  # may compact: slots move, the store keeps up
        self._changed()

    def remove(self, doc_ids: Iterable[str]) -> int:
        """Remove documents (unknown ids are ignored); return how many were removed."""
        slots = list(self._store.slots_of(set(doc_ids)).values())
        if slots:
            self._store.remove_slots(np.asarray(slots, np.int64))
            self._changed()
        return len(slots)

    # -------------------------------------------------------------- scoring
    def weights(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> sparse.csr_matrix:
        """Terms × docs matrix of BM25 weights for (k1, b) (cached)."""
        check_params(k1, b)
        tm = self.term_matrix  # compacts first: the main segment is every posting
        return self._weights.matrix(k1, b, tm)

    def query_matrix(self, queries: Sequence[str] | Sequence[Sequence[str]]) -> sparse.csr_matrix:
        """Queries × terms counts (strings are tokenized; unknown tokens are dropped)."""
        batch = self._query_batch(queries)
        return csr((batch.counts, batch.terms, batch.ptr),
                                 shape=(len(queries), len(self.vocab)), dtype=np.float32)

    def _query_batch(self, queries: Sequence[str] | Sequence[Sequence[str]]) -> QueryBatch:
        """Each query's distinct known term ids in first-appearance order, with counts."""
        toks = [self.tokenizer(q) if isinstance(q, str) else q for q in queries]
        lens = np.fromiter(map(len, toks), np.int64, len(toks))
        flat = list(chain.from_iterable(toks))
        raw = np.fromiter(map(self.vocab.get, flat, repeat(-1)), np.int64, len(flat))
        return distinct_terms(lens, raw, len(self.vocab))

    def score_matrix(self, queries: Sequence[str] | Sequence[Sequence[str]],
                     k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> sparse.csr_matrix:
        """Queries × docs sparse scores (only documents sharing a token are stored)."""
        return (self.query_matrix(queries) @ self.weights(k1, b)).tocsr()

    def mask_for(self, doc_ids: Iterable[str]) -> np.ndarray:
        """Boolean mask over the index for a candidate set (unknown ids are ignored).

        Valid for :meth:`search_many` until the index next changes.
        """
        mask = np.zeros(len(self._store.slot_ids), dtype=bool)
        where = self._store.positions()
        idx = [where[d] for d in doc_ids if d in where]
        mask[idx] = True
        return mask

    def _found(self, queries: Sequence[str] | Sequence[Sequence[str]], top_k: int,
               k1: float, b: float, mask: np.ndarray | None) -> TopK:
        if top_k < 0:
            raise ValueError(f"top_k must be >= 0, got {top_k}")
        check_params(k1, b)
        st = self._store
        allowed = st.alive if mask is None else (st.alive & mask)
        return top_k_batch(self._query_batch(queries), self.idf, self._weights.norm(k1, b),
                           float(k1), st.segments(), allowed, st.tie, top_k,
                           self._weights.main(k1, b, len(queries)))

    def search_many(self, queries: Sequence[str] | Sequence[Sequence[str]], top_k: int = 10,
                    k1: float = DEFAULT_K1, b: float = DEFAULT_B,
                    mask: np.ndarray | None = None) -> list[list[tuple[str, float]]]:
        """Best ``top_k`` (doc_id, score) per query, best first; docs scoring 0 are omitted.

        Ties break by order key (by default the position in the index). ``mask``
        (from :meth:`mask_for`) restricts the ranking to a candidate set; corpus
        statistics stay global.
        """
        found = self._found(queries, top_k, k1, b, mask)
        pairs = list(zip(self._ids_array[found.docs].tolist(), found.scores.tolist(),
                         strict=True))
        return [pairs[a:z] for a, z in pairwise(found.offsets.tolist())]

    def search_arrays(self, queries: Sequence[str] | Sequence[Sequence[str]], top_k: int = 10,
                      k1: float = DEFAULT_K1, b: float = DEFAULT_B,
                      mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Best ``top_k`` positions and scores per query as two queries × ``top_k`` arrays.

        The rankings of :meth:`search_many` without building (doc_id, score) pairs:
        row ``i`` holds query ``i``'s positions in :attr:`doc_ids` (int32) and float32
        scores, best first, padded with -1 and 0 where fewer documents score above 0.

        Examples
        --------
        >>> idx = BM25Index.build(["a", "b"], ["x x y", "y z"])
        >>> pos, sc = idx.search_arrays(["x", "q"], top_k=2)
        >>> pos.tolist(), [round(float(x), 4) for x in sc.ravel()]
        ([[0, -1], [-1, -1]], [0.9304, 0.0, 0.0, 0.0])
        """
        self._clean()  # slots are then positions in doc_ids
        found = self._found(queries, top_k, k1, b, mask)
        n_q, k = len(queries), max(top_k, 0)
        pos = np.full((n_q, k), -1, np.int32)
        scores = np.zeros((n_q, k), np.float32)
        sizes = np.diff(found.offsets)
        filled = np.arange(k) < sizes[:, None]
        pos[filled], scores[filled] = found.docs, found.scores
        return pos, scores

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
        self._clean()
        return dense_top_k(scores, k, self._ids_array)

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
                f"avgdl={self.avgdl:.1f}, cached_params={self._weights.pairs})")
