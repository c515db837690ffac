"""NarrativeIndex: the narrative channel as one object a notebook can explore.

Chunks live in a versioned :class:`~ragspine_nb.stores.chunks.ChunkStore`; the BM25
index over the active chunks is built on first use and rebuilt when the store
changes. A search runs, in this order: metadata pre-filter (pushed down to the
store) → query variants (glossary rewriter) → BM25 ∥ vectors per variant → RRF →
optional rerank (RESTRICTED exit #1) → top_k. Every stage's list is kept in the
:class:`~ragspine_nb.retrieval.results.SearchResults`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ragspine_nb.core import DEFAULT_SENSITIVITY, Chunk, StoredChunk
from ragspine_nb.extract.chunking import DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS, chunk_document
from ragspine_nb.profile import DomainProfile
from ragspine_nb.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, BM25Index
from ragspine_nb.retrieval.filters import FILTER_KEYS, check_filters
from ragspine_nb.retrieval.fusion import DEFAULT_RRF_K
from ragspine_nb.retrieval.headers import HeaderBook
from ragspine_nb.retrieval.index_steps import (
    Candidates,
    SearchSpec,
    check_depths,
    embedding_cache_for,
    query_results,
    resolve_backend,
    resolve_engine,
    resolve_rewriter,
    split_by_query,
    stage_timings,
    vector_store_for,
)
from ragspine_nb.retrieval.index_views import IndexViews
from ragspine_nb.retrieval.live_bm25 import ChunkTable, LiveBM25, indexed_text
from ragspine_nb.retrieval.pg_engine import PgVectorStore, SqlBM25
from ragspine_nb.retrieval.rerank import (
    DEFAULT_TOP_N,
    ListwiseJudge,
    ProviderListwiseJudge,
    TextProvider,
)
from ragspine_nb.retrieval.results import SearchResults
from ragspine_nb.retrieval.retriever import NarrativeIndexRetriever
from ragspine_nb.retrieval.rewrite import QueryRewriter
from ragspine_nb.retrieval.tokenize import Tokenizer, tokenize
from ragspine_nb.retrieval.vectors import (
    CachedEmbedder,
    EmbeddingBackend,
    EmbeddingCache,
    InProcessVectorStore,
)
from ragspine_nb.stores._postgres import is_postgres_url
from ragspine_nb.stores.chunks import ChunkStore

__all__ = ["NarrativeIndex", "build_narrative_retriever", "FILTER_KEYS", "CHANNELS"]

#: Retrieval channels a search may use.
CHANNELS: tuple[str, ...] = ("bm25", "vector")


class NarrativeIndex(IndexViews):
    r"""Hybrid narrative retrieval over a versioned chunk store.

    Parameters
    ----------
    store : str, Path or ChunkStore, default ":memory:"
        The chunk store (a SQLite file such as ``ws/chunks.db``).
    embedding_backend : EmbeddingBackend or spec str, optional
        ``None`` (default) = pure BM25 + RRF. A spec such as ``"e5"`` is built with
        :func:`~ragspine_nb.retrieval.vectors.make_embedding_backend`.
    judge : ListwiseJudge, optional
        Used when ``search(..., rerank=True)``.
    profile : DomainProfile, optional
        Enables the glossary query rewriter (unless ``rewriter`` is given).
    rewriter : QueryRewriter or False, optional
        Query variants; ``False`` disables rewriting.
    k1, b, rrf_k : float
        Defaults for searches (each search may override them).
    candidate_k : int, default 100
        Depth of each channel's ranking before fusion.
    rerank_top_n : int, default 10
        How many fused hits the judge sees.
    embedding_cache : path or EmbeddingCache, optional
        Defaults to ``embeddings.db`` beside a file store, a table of a PostgreSQL
        store's database, else in memory.

    Examples
    --------
    >>> index = NarrativeIndex()
    >>> index.add_document("review.md", "Hong Kong agency sales grew.\n\nMainland China fell.")
    1
    >>> [h.chunk.source_locator for h in index.search("mainland china", top_k=3)]
    ['para=1-2']
    """

    def __init__(
        self,
        store: str | Path | ChunkStore = ":memory:",
        *,
        embedding_backend: EmbeddingBackend | str | None = None,
        judge: ListwiseJudge | None = None,
        profile: DomainProfile | None = None,
        rewriter: QueryRewriter | bool | None = None,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
        rrf_k: float = DEFAULT_RRF_K,
        candidate_k: int = 100,
        rerank_top_n: int = DEFAULT_TOP_N,
        embedding_cache: str | Path | EmbeddingCache | None = None,
        tokenizer: Tokenizer = tokenize,
        index_titles: bool = True,
        engine: str = "auto",
    ) -> None:
        self.store = store if isinstance(store, ChunkStore) else ChunkStore(store)
        on_postgres = is_postgres_url(self.store.path)
        #: "sql": BM25 and vectors run inside PostgreSQL; "python": in this process
        self.engine = resolve_engine(engine, on_postgres)
        backend = resolve_backend(embedding_backend)
        self.embedding_backend = backend
        self.judge, self.profile = judge, profile
        self.rewriter: QueryRewriter | None = resolve_rewriter(rewriter, profile)
        self._check(k1=k1, b=b, rrf_k=rrf_k)
        check_depths(candidate_k, rerank_top_n)
        self.k1, self.b, self.rrf_k = k1, b, rrf_k
        self.candidate_k, self.rerank_top_n = candidate_k, rerank_top_n
        self.tokenizer, self.index_titles = tokenizer, index_titles
        cache = embedding_cache_for(embedding_cache, self.store, on_postgres)
        self._embedder = CachedEmbedder(backend, cache) if backend is not None else None
        self._sql: SqlBM25 | None = None
        self._vectors: InProcessVectorStore | PgVectorStore = vector_store_for(self.engine,
                                                                               self.store)
        self._bm25: BM25Index | None = None
        #: pre-filter results by filter, until the chunks change (a folder's questions
        #: filter by the same few companies and years)
        self._cands: dict[tuple[tuple[str, str], ...], Candidates] = {}
        self._chunk_ids: list[str] = []
        self._by_id: Mapping[str, StoredChunk] = {}
        self._signature: tuple[Any, ...] | None = None
        #: SQLite: changes are applied to the index as they come (PostgreSQL: rebuilt)
        self._live = None if on_postgres else LiveBM25(self.store, tokenizer, index_titles)
        #: each chunk's indexed header: company, year, section (never shown as its text)
        self.headers = self._live.headers if self._live is not None else HeaderBook(self.store)

    @staticmethod
    def _check(**params: float) -> None:
        for name, value in params.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ValueError(f"{name} must be a number >= 0, got {value!r}")
        if "b" in params and params["b"] > 1:
            raise ValueError(f"b must be in [0, 1], got {params['b']!r}")

    # ------------------------------------------------------------------ writing
    def add_document(self, doc_id: str, text: str, title: str = "", topic: str = "",
                     entity: str = "", geography: str = "", period: str = "",
                     language: str = "", sensitivity: str = DEFAULT_SENSITIVITY,
                     source_locator_prefix: str | None = None, *,
                     max_chars: int = DEFAULT_CHUNK_CHARS,
                     overlap_chars: int = DEFAULT_OVERLAP_CHARS, valid_as_of: str = "") -> int:
        """Chunk ``text`` and replace the document's chunks (new version); return chunks written."""
        chunks = chunk_document(text, doc_id, max_chars=max_chars, overlap_chars=overlap_chars,
                                source_locator_prefix=source_locator_prefix, title=title,
                                topic=topic, entity=entity, geography=geography, period=period,
                                language=language, sensitivity=sensitivity)
        return self.store.replace_doc_chunks(doc_id, chunks, valid_as_of=valid_as_of)

    def add_chunks(self, doc_id: str, chunks: Sequence[Chunk], valid_as_of: str = "") -> int:
        """Replace a document's chunks with ready-made ones."""
        return self.store.replace_doc_chunks(doc_id, chunks, valid_as_of=valid_as_of)

    def add_texts(self, ids: Sequence[str], texts: Sequence[str],
                  titles: Sequence[str] | None = None, locator: str = "doc",
                  progress: bool = True) -> int:
        """Add each text as one whole-document chunk (e.g. a BEIR corpus); return count."""
        if len(ids) != len(texts) or (titles is not None and len(titles) != len(ids)):
            raise ValueError("ids, texts and titles must have the same length")
        items = range(len(ids))
        if progress and len(ids) > 2000:
            from tqdm.auto import tqdm

            items = tqdm(items, desc="add texts", unit="doc")
        written = 0
        for i in items:
            text = texts[i].strip() or (titles[i] if titles else "") or "(empty)"
            chunk = Chunk(doc_id=ids[i], chunk_id=ids[i], seq=0, text=text,
                          title=titles[i] if titles else "", source_locator=locator)
            written += self.store.replace_doc_chunks(ids[i], [chunk])
        return written

    # ---------------------------------------------------------------- indexing
    def _store_signature(self) -> tuple[Any, ...]:
        # portable (SQLite and PostgreSQL): every replace inserts rows or deactivates some
        row = self.store.database.fetchall(  # our own read: not a user's guarded execute_read
            "SELECT COALESCE(SUM(active), 0) AS n, COALESCE(SUM(version * active), 0) AS v, "
            "COUNT(*) AS r FROM narrative_chunk")[0]
        return (int(row["n"]), int(row["v"]), int(row["r"]))

    def refresh(self) -> BM25Index:
        """Bring the BM25 index up to date with the store.

        On SQLite the changes since the last look are applied (added chunks indexed,
        withdrawn ones removed) and the index is saved beside the database; on
        PostgreSQL the index is rebuilt when the store changed.
        """
        if self._live is not None:
            if self._live.sync() or self._bm25 is None:
                self._bm25, self._by_id = self._live.bm25, self._live.by_id
                self._chunk_ids = self._live.ids
                self._drop_stale_vectors()
                self._cands.clear()
            assert self._bm25 is not None  # noqa: S101 - sync() always leaves an index
            return self._bm25
        sig = self._store_signature()
        if self._bm25 is None or sig != self._signature:
            chunks = self.store.iter_chunks()
            self._by_id = {c.chunk_id: c for c in chunks}
            self._chunk_ids = [c.chunk_id for c in chunks]
            self.headers.clear()
            self.headers.add(chunks)
            texts = [indexed_text(c, self.index_titles, self.headers.get(c)) for c in chunks]
            self._bm25 = BM25Index.build(self._chunk_ids, texts, self.tokenizer)
            if self.engine == "sql":  # the term counts live beside the chunks
                self._sql = self._sql or SqlBM25(self.store.database, self.tokenizer)
                self._sql.sync(self._chunk_ids, texts)
            self._drop_stale_vectors()
            self._cands.clear()
            self._signature = sig
        return self._bm25

    def _drop_stale_vectors(self) -> None:
        """Forget the vectors of chunks that are no longer active."""
        self._vectors.delete([cid for cid in self._vectors.ids() if cid not in self._by_id])

    def _ensure_vectors(self, chunk_ids: Sequence[str], progress: bool = True) -> None:
        if self._embedder is None:
            return
        todo = (self._vectors.missing(chunk_ids) if isinstance(self._vectors, PgVectorStore)
                else [cid for cid in chunk_ids if cid not in self._vectors])
        if todo:
            if isinstance(self._by_id, ChunkTable):
                self._by_id.prefetch(todo)  # one read, not one per chunk
            texts = [self.passage_text(self._by_id[cid]) for cid in todo]
            self._vectors.upsert(todo, self._embedder.passages(texts, progress=progress))

    def passage_text(self, chunk: StoredChunk) -> str:
        """What the dense channel and the judges read: title, header, then the text.

        The header (:mod:`~ragspine_nb.retrieval.headers`) names the chunk's company, year
        and section; hits, snippets and answers show the text alone.
        """
        return self.headers.text(chunk, with_title=True)

    # ----------------------------------------------------------------- search
    def search(self, query: str, top_k: int = 50, filters: Mapping[str, Any] | None = None,
               rerank: bool = False, **overrides: Any) -> SearchResults:
        """Search the active chunks; every stage is kept in the result.

        Parameters
        ----------
        query : str
            The question.
        top_k : int, default 50
            Hits returned.
        filters : mapping, optional
            Metadata pre-filter (see :data:`FILTER_KEYS`), applied before any scoring
            or embedding.
        rerank : bool, default False
            Rerank the fused top ``rerank_top_n`` with the judge (RESTRICTED chunks are
            never shown to it).
        **overrides
            ``k1``, ``b``, ``rrf_k``, ``channels`` (subset of :data:`CHANNELS`),
            ``variants`` (list of query strings, replacing the rewriter).
        """
        return self.search_many([query], top_k, filters, rerank, **overrides)[0]

    def _options(self, overrides: Mapping[str, Any], rerank: bool
                 ) -> tuple[float, float, float, tuple[str, ...]]:
        """k1, b, rrf_k and the channels of one search, checked (named errors)."""
        unknown = sorted(set(overrides) - {"k1", "b", "rrf_k", "channels", "variants"})
        if unknown:
            raise ValueError(f"unknown search option(s) {unknown}. Valid: "
                             "['k1', 'b', 'rrf_k', 'channels', 'variants']")
        k1, b = overrides.get("k1", self.k1), overrides.get("b", self.b)
        rrf_k = overrides.get("rrf_k", self.rrf_k)
        self._check(k1=k1, b=b, rrf_k=rrf_k)
        channels = tuple(overrides.get("channels") or
                         (("bm25", "vector") if self.embedding_backend else ("bm25",)))
        bad = sorted(set(channels) - set(CHANNELS))
        if bad or not channels:
            raise ValueError(f"unknown channel(s) {bad}. Valid channels: {list(CHANNELS)}")
        if "vector" in channels and self._embedder is None:
            raise ValueError("the vector channel needs an embedding_backend "
                             "(e.g. NarrativeIndex(..., embedding_backend='e5'))")
        if rerank and self.judge is None:
            raise ValueError("rerank=True needs a judge (e.g. NarrativeIndex(..., "
                             "judge=CrossEncoderJudge()))")
        return k1, b, rrf_k, channels

    def search_many(self, queries: Sequence[str], top_k: int = 50,
                    filters: Mapping[str, Any] | None = None, rerank: bool = False,
                    **overrides: Any) -> list[SearchResults]:
        """Search several queries at once (BM25 and vector scoring are batched)."""
        if top_k < 1:
            raise ValueError(f"top_k must be >= 1, got {top_k}")
        k1, b, rrf_k, channels = self._options(overrides, rerank)
        spec = SearchSpec(k1=k1, b=b, rrf_k=rrf_k, channels=channels,
                          filters=check_filters(filters), top_k=top_k,
                          rerank=(self.judge, self.rerank_top_n) if rerank else None)
        t0 = time.perf_counter()
        index = self.refresh()
        cands = self._candidates(index, spec.filters)
        t_filter = time.perf_counter()
        variants_of = [self._variants(q, overrides) for q in queries]
        flat = [v for vs in variants_of for v in vs]
        bm25_of = split_by_query(self._bm25_rankings(index, flat, cands, spec), variants_of)
        t_bm25 = time.perf_counter()
        vec_of = split_by_query(self._vector_rankings(flat, cands, spec), variants_of)
        t_vec = time.perf_counter()
        out = [query_results(query, variants, bm, vc, spec, self._by_id, len(cands.ids),
                             self.passage_text)
               for query, variants, bm, vc in zip(queries, variants_of, bm25_of, vec_of,
                                                  strict=True)]
        timings = stage_timings(t0, t_filter, t_bm25, t_vec, time.perf_counter())
        for r in out:
            r.timings_ms.update(timings)
        return out

    def _candidates(self, index: BM25Index, flt: Mapping[str, str]) -> Candidates:
        """The active chunks the metadata pre-filter allows (every one when there is none)."""
        if not flt:
            return Candidates(ids=self._chunk_ids, mask=None, filtered=False)
        key = tuple(sorted(flt.items()))
        if key not in self._cands:
            allowed = self.store.chunk_ids(**flt)
            if len(self._cands) >= 64:
                self._cands.clear()
            self._cands[key] = Candidates(ids=[cid for cid in allowed if cid in self._by_id],
                                          mask=index.mask_for(allowed), filtered=True)
        return self._cands[key]

    def _variants(self, query: str, overrides: Mapping[str, Any]) -> list[str]:
        """The strings searched for ``query``: the ``variants`` given, the rewriter's, or it."""
        if overrides.get("variants"):
            return list(overrides["variants"])
        return self.rewriter.rewrite(query) if self.rewriter else [query]

    def _bm25_rankings(self, index: BM25Index, flat: Sequence[str], cands: Candidates,
                       spec: SearchSpec) -> list[list[tuple[str, float]]]:
        """Each query string's BM25 ranking (inside PostgreSQL on the SQL engine)."""
        if "bm25" not in spec.channels or not cands.ids:
            return [[] for _ in flat]
        if self._sql is not None:
            return self._sql.search_many(flat, self.candidate_k, spec.k1, spec.b,
                                         cands.restrict)
        return index.search_many(flat, self.candidate_k, spec.k1, spec.b, cands.mask)

    def _vector_rankings(self, flat: Sequence[str], cands: Candidates,
                         spec: SearchSpec) -> list[list[tuple[str, float]]]:
        """Each query string's vector ranking (missing passage vectors are embedded first)."""
        if "vector" not in spec.channels or not cands.ids or self._embedder is None:
            return [[] for _ in flat]
        self._ensure_vectors(cands.ids)
        qv = self._embedder.queries(flat)
        return [self._vectors.query(v, self.candidate_k, cands.restrict) for v in qv]

    def retriever(self, retry_without_filters: bool = True, **options: Any) -> Any:
        """Adapt this index to the agent's ``NarrativeRetriever`` contract.

        ``options`` go to :class:`~ragspine_nb.retrieval.retriever.NarrativeIndexRetriever`
        (``plan``, ``planner``, ``evidence_judge``, ``threshold``, ``max_loops``).
        """
        return NarrativeIndexRetriever(self, retry_without_filters=retry_without_filters,
                                       **options)


def build_narrative_retriever(
    chunk_db: str | Path,
    provider: TextProvider | None = None,
    *,
    embedding_backend: EmbeddingBackend | str | None = None,
    profile: DomainProfile | None = None,
) -> tuple[NarrativeIndexRetriever, ChunkStore]:
    """The default chain: BM25 + RRF (+ vectors if given) + glossary variants + LLM rerank.

    The caller owns closing the returned store.
    """
    store = ChunkStore(chunk_db)
    judge = ProviderListwiseJudge(provider) if provider is not None else None
    index = NarrativeIndex(store, embedding_backend=embedding_backend, judge=judge,
                           profile=profile)
    return NarrativeIndexRetriever(index), store
