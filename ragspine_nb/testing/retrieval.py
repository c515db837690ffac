"""Contracts of the vector channel: :class:`VectorStore` and :class:`EmbeddingBackend`.

:class:`VectorStoreContract` checks what ``VectorStore`` and :func:`checked_vectors`
promise: ``query`` ranks by cosine (never by raw dot product), ``top_k`` bounds the
results, ``ids=`` restricts them, ``upsert`` replaces, ``delete`` removes for good, a
length mismatch is a ``ValueError`` — plus what every shipped store keeps (absent ids
are ignored, ties break by id). :class:`EmbeddingBackendContract` checks one 2-D row
per text, deterministic for the same input, and an ``embed_queries`` of the same
dimension when a backend has one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from ragspine_nb.retrieval.vectors import EmbeddingBackend, VectorStore

__all__ = ["VectorStoreContract", "EmbeddingBackendContract", "cosine_matrix"]

#: The dimension of the contract's vectors.
DIM = 4
#: Score tolerance: stores may keep float32 (pgvector does).
TOL = 1e-4


def _axis(i: int, scale: float = 1.0) -> list[float]:
    """A basis vector of :data:`DIM` dimensions, scaled."""
    return [scale if k == i else 0.0 for k in range(DIM)]


def cosine_matrix(a: Any, b: Any) -> np.ndarray:
    """Cosine similarity of every row of ``a`` with every row of ``b``.

    Parameters
    ----------
    a, b : array-like
        2-D, the same number of columns.

    Returns
    -------
    numpy.ndarray
        ``len(a) x len(b)``; a zero row has similarity 0.

    Examples
    --------
    >>> cosine_matrix([[1, 0], [0, 3]], [[2, 0]]).tolist()
    [[1.0], [0.0]]
    """
    x, y = (np.asarray(m, dtype=np.float64) for m in (a, b))
    nx = np.linalg.norm(x, axis=1, keepdims=True)
    ny = np.linalg.norm(y, axis=1, keepdims=True)
    x = np.divide(x, nx, out=np.zeros_like(x), where=nx > 0)
    y = np.divide(y, ny, out=np.zeros_like(y), where=ny > 0)
    out: np.ndarray = x @ y.T
    return out


def _ids(hits: Sequence[tuple[str, float]]) -> list[str]:
    return [vid for vid, _ in hits]


class VectorStoreContract:
    """The behavioural contract of :class:`~ragspine_nb.retrieval.vectors.VectorStore`.

    Notes
    -----
    The inheriting class defines the fixture ``vector_store``: a fresh, **empty** store
    for every test. The contract stores a handful of 4-dimensional vectors in it.
    """

    def test_vector_store_starts_empty(self, vector_store: VectorStore) -> None:
        """An empty store counts 0 and finds nothing."""
        assert vector_store.count() == 0
        assert vector_store.query(_axis(0), top_k=5) == []

    def test_vector_store_nearest_vector_comes_first(self, vector_store: VectorStore) -> None:
        """The stored vector equal to the query ranks first, with cosine 1."""
        vector_store.upsert(["a", "b", "c"], [_axis(0), _axis(1), _axis(2)])
        assert vector_store.count() == 3
        hits = vector_store.query(_axis(1), top_k=3)
        assert hits[0][0] == "b"
        assert hits[0][1] == pytest.approx(1.0, abs=TOL)
        assert all(isinstance(v, str) and isinstance(s, float) for v, s in hits)
        assert sorted(_ids(hits)) == ["a", "b", "c"]

    def test_vector_store_ranks_by_cosine_not_dot_product(
            self, vector_store: VectorStore) -> None:
        """A long vector pointing elsewhere never beats a short one pointing the same way."""
        vector_store.upsert(["long", "aligned"], [[100.0, 100.0, 0.0, 0.0], _axis(1, 0.5)])
        hits = vector_store.query(_axis(1, 7.0), top_k=2)
        assert _ids(hits) == ["aligned", "long"]
        assert hits[0][1] == pytest.approx(1.0, abs=TOL)
        assert hits[1][1] == pytest.approx(2 ** -0.5, abs=TOL)

    def test_vector_store_ranking_is_the_exact_cosine_ranking(
            self, vector_store: VectorStore) -> None:
        """On a handful of random vectors the ranking and scores are exact cosine's."""
        rng = np.random.default_rng(7)
        vecs = rng.normal(size=(8, DIM))
        ids = [f"v{i}" for i in range(8)]
        vector_store.upsert(ids, vecs)
        for q in rng.normal(size=(4, DIM)):
            sims = cosine_matrix(vecs, [q])[:, 0]
            order = sorted(range(8), key=lambda i: -sims[i])
            hits = vector_store.query(q, top_k=8)
            assert _ids(hits) == [ids[i] for i in order]
            assert [s for _, s in hits] == pytest.approx([sims[i] for i in order], abs=TOL)

    def test_vector_store_top_k_bounds_the_results(self, vector_store: VectorStore) -> None:
        """``top_k`` results at most: the best ones, all of them when fewer are stored."""
        vector_store.upsert(["a", "b", "c"], [_axis(0), [1.0, 1.0, 0.0, 0.0], _axis(2)])
        assert _ids(vector_store.query(_axis(0), top_k=1)) == ["a"]
        assert _ids(vector_store.query(_axis(0), top_k=2)) == ["a", "b"]
        assert len(vector_store.query(_axis(0), top_k=10)) == 3
        assert vector_store.query(_axis(0), top_k=0) == []

    def test_vector_store_ids_restrict_the_search(self, vector_store: VectorStore) -> None:
        """``ids=`` searches among those ids only; unknown ids are ignored."""
        vector_store.upsert(["a", "b", "c"], [_axis(0), _axis(1), [0.0, 1.0, 1.0, 0.0]])
        hits = vector_store.query(_axis(1), top_k=3, ids=["c", "a"])
        assert _ids(hits) == ["c", "a"]
        assert hits[0][1] == pytest.approx(2 ** -0.5, abs=TOL)
        assert _ids(vector_store.query(_axis(1), top_k=3, ids=["a", "nowhere"])) == ["a"]
        assert vector_store.query(_axis(1), top_k=3, ids=[]) == []

    def test_vector_store_upsert_replaces(self, vector_store: VectorStore) -> None:
        """Upserting a stored id replaces its vector; the count does not grow."""
        vector_store.upsert(["a", "b"], [_axis(0), _axis(1)])
        vector_store.upsert(["a"], [_axis(2)])
        assert vector_store.count() == 2
        hits = vector_store.query(_axis(2), top_k=2)
        assert hits[0][0] == "a" and hits[0][1] == pytest.approx(1.0, abs=TOL)
        old = dict(vector_store.query(_axis(0), top_k=2))
        assert old["a"] == pytest.approx(0.0, abs=TOL)

    def test_vector_store_delete_removes_for_good(self, vector_store: VectorStore) -> None:
        """A deleted id is never returned again; deleting an absent id changes nothing."""
        vector_store.upsert(["a", "b", "c"], [_axis(0), _axis(1), _axis(2)])
        vector_store.delete(["b"])
        assert vector_store.count() == 2
        assert "b" not in _ids(vector_store.query(_axis(1), top_k=10))
        assert vector_store.query(_axis(1), top_k=10, ids=["b"]) == []
        vector_store.delete(["b", "never-stored"])
        assert vector_store.count() == 2
        assert _ids(vector_store.query(_axis(0), top_k=1)) == ["a"]

    def test_vector_store_length_mismatch_is_a_value_error(
            self, vector_store: VectorStore) -> None:
        """More ids than vectors (or fewer) raises ``ValueError`` and stores nothing."""
        with pytest.raises(ValueError):
            vector_store.upsert(["a", "b"], [_axis(0)])
        with pytest.raises(ValueError):
            vector_store.upsert(["a"], [_axis(0), _axis(1)])
        assert vector_store.count() == 0

    def test_vector_store_ties_break_by_id(self, vector_store: VectorStore) -> None:
        """Equal cosines come in id order, whatever the insertion order."""
        vector_store.upsert(["m", "b", "x"], [_axis(3), _axis(3), _axis(0)])
        assert _ids(vector_store.query(_axis(3), top_k=2)) == ["b", "m"]

    def test_vector_store_accepts_arrays_and_lists(self, vector_store: VectorStore) -> None:
        """Vectors may be a 2-D numpy array or a list of lists; an empty upsert is a no-op."""
        vector_store.upsert([], np.zeros((0, DIM), dtype=np.float32))
        assert vector_store.count() == 0
        vector_store.upsert(["a"], np.array([_axis(0)], dtype=np.float32))
        vector_store.upsert(["b"], [_axis(1)])
        assert _ids(vector_store.query(np.array(_axis(1)), top_k=1)) == ["b"]
        assert _ids(vector_store.query(_axis(0), top_k=1)) == ["a"]


#: Texts the embedding contract embeds: three passages on unrelated subjects.
PASSAGES = ("Hong Kong agency new sales grew strongly this year.",
            "Mainland China revenue fell because bank commissions were capped.",
            "The staff canteen opens at eight in the morning.")
#: Shares most of its words with ``PASSAGES[0]``, at most a function word with the others.
NEAR_FIRST = "Agency new sales in Hong Kong grew strongly."
#: Cosine at or above which two rows are the same vector (float noise, padding).
SAME = 0.999
#: The same between a text embedded alone and in a batch (padding moves int8 models).
BATCH_SAME = 0.99


def _rows(embed: Callable[[list[str]], Any], texts: Sequence[str]) -> np.ndarray:
    """What ``embed`` returns as a float64 array, checked 2-D with one row per text."""
    arr = np.asarray(embed(list(texts)), dtype=np.float64)
    assert arr.ndim == 2, f"expected a 2-D array, got shape {arr.shape}"
    assert arr.shape[0] == len(texts) and arr.shape[1] > 0
    assert np.isfinite(arr).all()
    return arr


class EmbeddingBackendContract:
    """The behavioural contract of :class:`~ragspine_nb.retrieval.vectors.EmbeddingBackend`.

    Notes
    -----
    The inheriting class defines the fixture ``embedding_backend``: the backend under
    test. The contract embeds a few short texts only, so a real model stays quick once
    loaded (return one built by a module- or session-scoped fixture).
    """

    def test_embedding_backend_has_a_name(self, embedding_backend: EmbeddingBackend) -> None:
        """``name`` is a non-empty string (it keys the embedding cache)."""
        assert isinstance(embedding_backend.name, str) and embedding_backend.name.strip()

    def test_embed_texts_gives_one_row_per_text(
            self, embedding_backend: EmbeddingBackend) -> None:
        """2-D, one non-zero row per text, the same width for one text or several."""
        many = _rows(embedding_backend.embed_texts, PASSAGES)
        one = _rows(embedding_backend.embed_texts, PASSAGES[:1])
        assert one.shape[1] == many.shape[1]
        assert (np.linalg.norm(many, axis=1) > 0).all()

    def test_embed_texts_is_deterministic(self, embedding_backend: EmbeddingBackend) -> None:
        """The same texts give the same vectors."""
        first = _rows(embedding_backend.embed_texts, PASSAGES)
        again = _rows(embedding_backend.embed_texts, PASSAGES)
        np.testing.assert_allclose(first, again, rtol=1e-5, atol=1e-6)

    def test_embed_texts_keeps_the_input_order(
            self, embedding_backend: EmbeddingBackend) -> None:
        """Row ``i`` is text ``i``'s vector, whatever the batch around it."""
        forward = _rows(embedding_backend.embed_texts, PASSAGES)
        backward = _rows(embedding_backend.embed_texts, PASSAGES[::-1])[::-1]
        alone = _rows(embedding_backend.embed_texts, PASSAGES[-1:])
        assert (np.diag(cosine_matrix(forward, backward)) >= SAME).all()
        # padding a batch may move a vector a little, never towards another text's
        sims = cosine_matrix(alone, forward)[0]
        assert sims[-1] >= BATCH_SAME and int(np.argmax(sims)) == len(PASSAGES) - 1


    def test_embed_texts_puts_shared_wording_closer(
            self, embedding_backend: EmbeddingBackend) -> None:
        """A text sharing a passage's wording is nearer to it than an unrelated text."""
        vecs = _rows(embedding_backend.embed_texts, [*PASSAGES, NEAR_FIRST])
        sims = cosine_matrix(vecs, vecs)
        assert sims[3, 0] > sims[3, 2]
        assert sims[3, 0] > sims[3, 1]
        assert sims[0, 2] < SAME  # different texts are different vectors

    def test_embed_queries_when_present_matches_the_passages(
            self, embedding_backend: EmbeddingBackend) -> None:
        """An optional ``embed_queries``: same width as passages, nearest passage first."""
        embed_queries = getattr(embedding_backend, "embed_queries", None)
        if not callable(embed_queries):
            pytest.skip("this backend has no embed_queries (symmetric embeddings)")
        passages = _rows(embedding_backend.embed_texts, PASSAGES)
        queries = _rows(embed_queries, [NEAR_FIRST, NEAR_FIRST])
        assert queries.shape[1] == passages.shape[1]
        assert cosine_matrix(queries[:1], queries[1:])[0, 0] >= SAME
        sims = cosine_matrix(queries[:1], passages)[0]
        assert int(np.argmax(sims)) == 0
