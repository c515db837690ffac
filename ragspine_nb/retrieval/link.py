"""The seam into the agent: snippets with provenance, RESTRICTED exit #2."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ragspine_nb.profile import DomainProfile
from ragspine_nb.retrieval.index import FILTER_KEYS, NarrativeIndex
from ragspine_nb.retrieval.rerank import ProviderListwiseJudge, TextProvider
from ragspine_nb.retrieval.vectors import EmbeddingBackend
from ragspine_nb.stores.chunks import ChunkStore

__all__ = ["NarrativeIndexRetriever", "build_narrative_retriever"]


class NarrativeIndexRetriever:
    """Adapts a :class:`NarrativeIndex` to ``retrieve(query, filters, top_k) -> [snippet]``.

    RESTRICTED exit #2: every chunk whose sensitivity is RESTRICTED (any spelling) is
    dropped before a snippet is built, so its text cannot reach a synthesis prompt.
    If a filtered search finds nothing it retries once without filters.
    """

    def __init__(self, index: NarrativeIndex, *, retry_without_filters: bool = True) -> None:
        self.index = index
        self.retry_without_filters = retry_without_filters
        self.last_results: Any = None

    def retrieve(self, query: str, *, filters: Mapping[str, Any] | None = None,
                 top_k: int = 50, rerank: bool = False) -> list[dict[str, Any]]:
        """Snippet dicts (text, doc_id, title, source_locator, chunk_id, metadata, scores)."""
        known = {k: v for k, v in (filters or {}).items() if k in FILTER_KEYS and v}
        results = self.index.search(query, top_k=top_k, filters=known,
                                    rerank=rerank and self.index.judge is not None)
        if not results.hits and known and self.retry_without_filters:
            results = self.index.search(query, top_k=top_k,
                                        rerank=rerank and self.index.judge is not None)
        self.last_results = results
        return [h.to_snippet() for h in results.hits if not h.restricted]


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
