"""The named steps of a :class:`~ragspine_nb.retrieval.index.NarrativeIndex`.

Construction resolves and checks the wiring and stores it — nothing is loaded or built
here: embedding backends load their models, caches open their files and the BM25 index
is built on first use. A batched search shares one checked :class:`SearchSpec` and one
:class:`Candidates` set over its queries; each query's results are then assembled from
its variants' rankings by the stage functions of
:mod:`~ragspine_nb.retrieval.assemble` (RRF, then the optional rerank).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from ragspine_nb.core import StoredChunk
from ragspine_nb.profile import DomainProfile
from ragspine_nb.retrieval.assemble import fuse, ranked_hits
from ragspine_nb.retrieval.pg_engine import PgEmbeddingCache, PgVectorStore
from ragspine_nb.retrieval.rerank import ListwiseJudge
from ragspine_nb.retrieval.results import SearchResults
from ragspine_nb.retrieval.rewrite import QueryRewriter, shared_rewriter
from ragspine_nb.retrieval.vectors import (
    EmbeddingBackend,
    EmbeddingCache,
    InProcessVectorStore,
    make_embedding_backend,
)
from ragspine_nb.stores.chunks import ChunkStore

__all__ = [
    "resolve_engine",
    "resolve_backend",
    "resolve_rewriter",
    "check_depths",
    "embedding_cache_for",
    "vector_store_for",
    "Candidates",
    "SearchSpec",
    "split_by_query",
    "query_results",
    "stage_timings",
]

Ranking = list[tuple[str, float]]
T = TypeVar("T")


# ------------------------------------------------------------------ construction
def resolve_engine(engine: str, on_postgres: bool) -> str:
    """``"sql"`` (BM25 and vectors inside PostgreSQL) or ``"python"`` (in this process).

    Examples
    --------
    >>> resolve_engine("auto", on_postgres=False)
    'python'
    """
    if engine not in ("auto", "python", "sql"):
        raise ValueError(f"unknown engine {engine!r}. Valid engines: ['auto', 'python', "
                         "'sql']")
    if engine == "sql" and not on_postgres:
        raise ValueError("engine='sql' needs a postgresql:// chunk store")
    return "sql" if engine == "sql" or (engine == "auto" and on_postgres) else "python"


def resolve_backend(spec: EmbeddingBackend | str | None) -> EmbeddingBackend | None:
    """The backend given, or the one a spec string names (its model loads on first use)."""
    return make_embedding_backend(spec) if isinstance(spec, str) else spec


def resolve_rewriter(rewriter: QueryRewriter | bool | None,
                     profile: DomainProfile | None) -> QueryRewriter | None:
    """``None`` or ``True``: the profile's glossary rewriter (none without a profile)."""
    if rewriter is None or rewriter is True:
        return shared_rewriter(profile) if profile is not None else None
    if rewriter is False:
        return None
    return rewriter


def check_depths(candidate_k: int, rerank_top_n: int) -> None:
    """Reject a channel depth below 1 or a negative rerank depth."""
    if candidate_k < 1 or rerank_top_n < 0:
        raise ValueError("candidate_k must be >= 1 and rerank_top_n >= 0")


def embedding_cache_for(embedding_cache: str | Path | EmbeddingCache | None,
                        store: ChunkStore, on_postgres: bool) -> EmbeddingCache:
    """The embedding cache an index uses (no file is opened before the first embedding).

    The cache given (or a path to one), else a table of a PostgreSQL store's database,
    ``embeddings.db`` beside a file store, or memory.
    """
    if isinstance(embedding_cache, EmbeddingCache):
        return embedding_cache
    if embedding_cache is not None:
        return EmbeddingCache(embedding_cache)
    if on_postgres:  # the team's cache lives in the team's database
        return PgEmbeddingCache(store.database)
    if store.path != ":memory:":
        return EmbeddingCache(Path(store.path).with_name("embeddings.db"))
    return EmbeddingCache()


def vector_store_for(engine: str, store: ChunkStore) -> InProcessVectorStore | PgVectorStore:
    """Pgvector beside the chunks on the SQL engine, else an in-process store."""
    return PgVectorStore(store.database) if engine == "sql" else InProcessVectorStore()


# ---------------------------------------------------------------------- search
@dataclass(frozen=True)
class SearchSpec:
    """One batched search's checked options, shared by every query."""

    k1: float
    b: float
    rrf_k: float
    channels: tuple[str, ...]
    filters: dict[str, str]
    top_k: int
    rerank: tuple[ListwiseJudge | None, int] | None  # (judge, top_n), or no rerank


@dataclass(frozen=True)
class Candidates:
    """The active chunks a search may return, after the metadata pre-filter."""

    ids: list[str]
    mask: np.ndarray | None  # the BM25 rows allowed (None: every row)
    filtered: bool

    @property
    def restrict(self) -> list[str] | None:
        """The ids a channel is restricted to (``None`` when nothing was filtered)."""
        return self.ids if self.filtered else None


def split_by_query(flat: Sequence[T], variants_of: Sequence[Sequence[str]]) -> list[list[T]]:
    """Cut a list over every query's variants (in order) back into one list per query.

    Examples
    --------
    >>> split_by_query(["a1", "a2", "b1"], [["a", "a'"], ["b"]])
    [['a1', 'a2'], ['b1']]
    """
    out, pos = [], 0
    for variants in variants_of:
        out.append(list(flat[pos:pos + len(variants)]))
        pos += len(variants)
    return out


def query_results(query: str, variants: Sequence[str], bm: Sequence[Ranking],
                  vc: Sequence[Ranking], spec: SearchSpec, chunks: Mapping[str, StoredChunk],
                  candidates: int, read: Callable[[StoredChunk], str] | None = None
                  ) -> SearchResults:
    """One query's results: RRF over its variants' lists, the optional rerank, top_k.

    ``read`` gives what a judge reads of a chunk (its header and text); its text alone
    when not given.
    """
    fused = fuse(bm, vc, spec.channels, spec.rrf_k)
    hits, rerank_info = ranked_hits(query, fused, bm, vc, chunks, spec.top_k, spec.rerank,
                                    read)
    return SearchResults(
        query=query, hits=hits, variants=tuple(variants), filters=spec.filters,
        params=dict(k1=spec.k1, b=spec.b, rrf_k=spec.rrf_k), candidates=candidates,
        bm25=tuple(tuple(x) for x in bm) if "bm25" in spec.channels else (),
        vector=tuple(tuple(x) for x in vc) if "vector" in spec.channels else (),
        fused=tuple(fused), rerank=rerank_info)


def stage_timings(t0: float, t_filter: float, t_bm25: float, t_vec: float,
                  t_end: float) -> dict[str, float]:
    """Milliseconds per stage from the clock readings between the stages."""
    return {"filter": (t_filter - t0) * 1e3, "bm25": (t_bm25 - t_filter) * 1e3,
            "vector": (t_vec - t_bm25) * 1e3, "fuse+rerank": (t_end - t_vec) * 1e3}
