"""The narrative channel's retriever: index hits as the agent's snippets, RESTRICTED exit #2."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ragspine_nb.core import is_restricted
from ragspine_nb.retrieval.evidence import (
    DEFAULT_MAX_LOOPS,
    DEFAULT_THRESHOLD,
    EvidenceReport,
    gather_evidence,
)
from ragspine_nb.retrieval.filters import FILTER_KEYS
from ragspine_nb.retrieval.planning import QueryPlan, QueryPlanner, RuleQueryPlanner
from ragspine_nb.retrieval.rerank import judge_reads
from ragspine_nb.retrieval.results import SearchResults

if TYPE_CHECKING:
    from ragspine_nb.retrieval.index import NarrativeIndex

__all__ = ["NarrativeIndexRetriever"]


class NarrativeIndexRetriever:
    """Adapts a :class:`NarrativeIndex` to ``retrieve(query, filters, top_k) -> [snippet]``.

    RESTRICTED exit #2: every chunk whose sensitivity is RESTRICTED (any spelling) is
    dropped before a snippet is built, so its text cannot reach a synthesis prompt.
    If a filtered search finds nothing it retries once without filters; when no active
    chunk has the filters' values (asked of the store each time, so never stale) the
    filtered search is not run at all, as it could find nothing. The query plan is
    made once per call and serves both searches.

    With ``plan=True`` (default) retrieval runs the query plan and the evidence gap loop
    (:func:`~ragspine_nb.retrieval.evidence.gather_evidence`): the snippets are the
    passages judged relevant (>= ``threshold``), and ``last_report`` says how many
    queries, candidates, evidence passages and loops it took. ``plan=False`` is the plain
    single search (every fused hit becomes a snippet).

    ``rerank=None`` (default) reranks the head of every search with the index's judge
    when it has one that reads the query's language (the offline cross-encoder reads
    English only: :func:`~ragspine_nb.retrieval.rerank.judge_reads`); ``True`` or
    ``False`` says so for every query (each :meth:`retrieve` may say otherwise).
    """

    def __init__(self, index: NarrativeIndex, *, retry_without_filters: bool = True,
                 plan: bool = True, planner: QueryPlanner | None = None,
                 evidence_judge: Any = None, threshold: float = DEFAULT_THRESHOLD,
                 max_loops: int = DEFAULT_MAX_LOOPS, rerank: bool | None = None) -> None:
        self.index = index
        self.rerank = rerank
        self.retry_without_filters = retry_without_filters
        self.plan = plan
        self.planner = planner or RuleQueryPlanner(index.profile)
        self.evidence_judge = evidence_judge
        self.threshold = threshold
        self.max_loops = max_loops
        self._last = threading.local()  # one agent answers from several threads

    @property
    def last_results(self) -> SearchResults | None:
        """The last search results of this thread (``None`` before the first)."""
        return getattr(self._last, "results", None)

    @last_results.setter
    def last_results(self, results: SearchResults | None) -> None:
        self._last.results = results

    @property
    def last_report(self) -> EvidenceReport | None:
        """The last query plan and evidence loop of this thread (``None`` with ``plan=False``)."""
        return getattr(self._last, "report", None)

    @last_report.setter
    def last_report(self, report: EvidenceReport | None) -> None:
        self._last.report = report

    def _reranks(self, query: str, rerank: bool | None) -> bool:
        """Whether this query's searches are reranked (the class docstring)."""
        judge = self.index.judge
        chosen = self.rerank if rerank is None else rerank
        if judge is None or chosen is False:
            return False
        return chosen is True or judge_reads(judge, query)

    def _search(self, query: str, filters: dict[str, Any], top_k: int,
                rerank: bool, plan: QueryPlan | None) -> SearchResults:
        if not self.plan:
            self.last_report = None
            return self.index.search(query, top_k=top_k, filters=filters,
                                     rerank=rerank and self.index.judge is not None)
        results, report = gather_evidence(
            self.index, query, planner=self.planner, judge=self.evidence_judge,
            threshold=self.threshold, max_loops=self.max_loops, top_k=top_k, filters=filters,
            rerank=rerank and self.index.judge is not None, plan=plan)
        self.last_report = report
        return SearchResults(query=query, hits=report.evidence, variants=results.variants,
                             filters=results.filters, params=results.params,
                             candidates=results.candidates, bm25=results.bm25,
                             vector=results.vector, fused=results.fused,
                             rerank=results.rerank, timings_ms=results.timings_ms)

    def _can_match(self, filters: Mapping[str, Any]) -> bool:
        """Whether some active chunk has every one of ``filters``' values.

        One ``LIMIT 1`` read of the chunk store per call (nothing is cached, so a
        document written since is seen); ``True`` when the index has no store to ask.
        """
        store = getattr(self.index, "store", None)
        if store is None or not filters:
            return True
        return bool(store.has_chunks(**{k: str(filters[k]) for k in FILTER_KEYS
                                        if k in filters}))

    def retrieve(self, query: str, *, filters: Mapping[str, Any] | None = None,
                 top_k: int = 50, rerank: bool | None = None) -> list[dict[str, Any]]:
        """Snippet dicts (text, doc_id, title, source_locator, chunk_id, metadata, scores).

        JSON-ready; the agent reads each as a :class:`~ragspine_nb.core.Snippet`.
        ``rerank=None``: as the retriever was made (the class docstring).
        """
        rerank = self._reranks(query, rerank)
        known = {k: v for k, v in (filters or {}).items() if k in FILTER_KEYS and v}
        plan = self.planner.plan(query) if self.plan else None
        retry = bool(known) and self.retry_without_filters
        results = self._search(query, known, top_k, rerank, plan) \
            if not retry or self._can_match(known) else None
        if results is None or (retry and not results.hits):
            results = self._search(query, {}, top_k, rerank, plan)
        self.last_results = results
        return [h.to_snippet() for h in results.hits if not h.restricted]

    def folder_passages(self, doc_id: str, limit: int = 500) -> list[dict[str, Any]]:
        """Passages of ``doc_id`` and of the documents in its folder; RESTRICTED never.

        What a document points to in the notes beside it (a table row's footnote) is read
        from here, not searched. At most ``limit`` passages, in document order.
        """
        folder = PurePosixPath(doc_id).parent
        docs = [d for d in self.index.store.doc_ids() if PurePosixPath(d).parent == folder]
        return self._passages(docs, limit)

    def document_passages(self, doc_id: str, limit: int = 500) -> list[dict[str, Any]]:
        """The passages of ``doc_id`` alone, in document order; RESTRICTED never.

        What a filing reports is read from here, not searched. At most ``limit``.
        """
        return self._passages([doc_id], limit)

    def _passages(self, docs: Sequence[str], limit: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for doc in docs:
            for c in self.index.store.iter_chunks(doc_id=doc):
                if is_restricted(c.sensitivity):
                    continue
                out.append({"text": c.text, "doc_id": c.doc_id, "title": c.title,
                            "source_locator": c.source_locator, "chunk_id": c.chunk_id,
                            "sensitivity": c.sensitivity})
                if len(out) >= limit:
                    return out
        return out
