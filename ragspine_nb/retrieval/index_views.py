"""How a :class:`~ragspine_nb.retrieval.NarrativeIndex` is looked at: wiring, words, widgets.

Mixed into the index; everything here reads the index's configuration and state (the
words its text writes, which the question reader spells against) and never changes how
a search ranks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import Card, render_html
from ragspine_nb.display.views import make_view
from ragspine_nb.errors import QrelsError
from ragspine_nb.retrieval.judgments import Judgments, check_judged
from ragspine_nb.retrieval.topology import PipelineGraph, index_graph
from ragspine_nb.retrieval.tuning import TuningEngine

if TYPE_CHECKING:
    from ragspine_nb.retrieval.bm25 import BM25Index
    from ragspine_nb.retrieval.pg_engine import PgVectorStore
    from ragspine_nb.retrieval.rerank import ListwiseJudge
    from ragspine_nb.retrieval.rewrite import QueryRewriter
    from ragspine_nb.retrieval.vectors import CachedEmbedder, EmbeddingBackend, InProcessVectorStore
    from ragspine_nb.stores.chunks import ChunkStore

__all__ = ["IndexViews"]


class IndexViews(CardReprMixin):
    """Topology, inspector and tuning widgets, frames and displays of an index."""

    store: ChunkStore
    rewriter: QueryRewriter | None
    embedding_backend: EmbeddingBackend | None
    judge: ListwiseJudge | None
    k1: float
    b: float
    rrf_k: float
    candidate_k: int
    rerank_top_n: int
    _embedder: CachedEmbedder | None
    _vectors: InProcessVectorStore | PgVectorStore
    _chunk_ids: list[str]

    refresh: Callable[[], BM25Index]
    _ensure_vectors: Callable[[Sequence[str]], None]

    def knows_word(self, word: str) -> bool:
        """Whether every token of ``word`` occurs in the indexed text (a word of the corpus).

        A question's unknown word that the reports write is no misspelling.
        """
        bm25 = self.refresh()
        tokens = bm25.tokenizer(word)
        return bool(tokens) and all(t in bm25.vocab for t in tokens)

    def long_words(self, min_len: int) -> list[str]:
        """The words of ``min_len`` letters or more the indexed text writes (a-z only).

        What a question's long misspelt word may be read as, beside the workspace's names.
        """
        return [t for t in self.refresh().vocab if len(t) >= min_len and t.isascii()
                and t.isalpha()]

    def topology(self) -> PipelineGraph:
        """The configured wiring (only components that are really wired appear)."""
        return index_graph(
            rewriter=type(self.rewriter).__name__ if self.rewriter is not None else None,
            k1=self.k1, b=self.b, rrf_k=self.rrf_k,
            embedding=self.embedding_backend.name if self.embedding_backend else None,
            judge=(getattr(self.judge, "name", type(self.judge).__name__)
                   if self.judge is not None else None),
            rerank_top_n=self.rerank_top_n)

    def inspect(self, query: str = "", top_k: int = 10,
                filters: Mapping[str, Any] | None = None) -> Any:
        """A :class:`~ragspine_nb.widgets.RerankInspector`: fused vs reranked order."""
        return make_view("inspector", self, query, top_k, dict(filters) if filters else None)

    def tune(self, queries: Mapping[str, str] | Judgments,
             qrels: Mapping[str, Mapping[str, int]] | None = None,
             vector_runs: Mapping[str, list[str]] | None = None) -> Any:
        """A :class:`~ragspine_nb.widgets.TuningPanel` over this index (qrels keyed by chunk id).

        ``index.tune(judgments)`` takes the queries and qrels of a
        :class:`~ragspine_nb.retrieval.judgments.Judgments` (the inspector's, or
        :func:`~ragspine_nb.retrieval.synthetic_queries.synthetic_queries`').
        ``vector_runs`` (query id → ranked ids) enables the vectors / hybrid channels;
        with an embedding backend they are computed here (once) when not given.

        Raises
        ------
        NoJudgmentsError
            When the qrels are empty, or no judged query is a query with a relevant chunk
            of this index (a QrelsError).
        QrelsError
            When a judged id is not a chunk id of this index (a document id is the usual
            mistake) or no qrels query id is a query id; the message shows what is expected.
        """
        if isinstance(queries, Judgments) and qrels is None:
            qrels = queries
        if isinstance(queries, Judgments):
            queries = queries.queries
        if qrels is None:
            raise TypeError("tune needs qrels: index.tune(queries, qrels) or index.tune(judgments)")
        bm25 = self.refresh()
        self._check_qrels(bm25, queries, qrels)
        check_judged(queries, qrels, lambda d: bm25.position_of(d) is not None)
        if vector_runs is None and self._embedder is not None:
            vector_runs = self.vector_runs(queries)
        return make_view("tuning", TuningEngine(bm25, queries, qrels, vector_runs), k1=self.k1,
                         b=self.b, rrf_k=int(self.rrf_k))

    def _check_qrels(self, bm25: BM25Index, queries: Mapping[str, str],
                     qrels: Mapping[str, Mapping[str, int]]) -> None:
        if qrels and not set(qrels) & set(queries):
            raise QrelsError(f"no qrels query id is a query id: qrels has {next(iter(qrels))!r}, "
                             f"queries has {next(iter(queries), '(none)')!r}")
        judged = {cid for q in qrels for cid in qrels[q]}
        unknown = sorted(cid for cid in judged if bm25.position_of(cid) is None)
        if not unknown:
            return
        docs = set(self.store.doc_ids())
        first = unknown[0]
        what = (f" (a document id: it has {len(self.store.iter_chunks(doc_id=first))} chunks)"
                if first in docs else "")
        example = bm25.doc_ids[0] if bm25.doc_ids else "doc.md#0-1a2b3c4d"
        raise QrelsError(
            f"qrels must be keyed by chunk id ({{query id: {{chunk id: relevance}}}}); "
            f"{len(unknown)} of {len(judged)} judged ids are not chunk ids of this index, "
            f"e.g. {first!r}{what}. A chunk id looks like {example!r}. Judge the chunks "
            "that hold the answer; a document's chunk ids are "
            "[c.chunk_id for c in index.store.iter_chunks(doc_id=doc)] (or see "
            "index.to_frame()[['doc_id', 'chunk_id', 'text']]).")

    def vector_runs(self, queries: Mapping[str, str]) -> dict[str, list[str]]:
        """Each query's vector ranking over every active chunk (query id → chunk ids)."""
        if self._embedder is None:
            raise ValueError("vector_runs needs an embedding_backend")
        self.refresh()
        self._ensure_vectors(self._chunk_ids)
        vecs = self._embedder.queries(list(queries.values()))
        return {q: [cid for cid, _ in self._vectors.query(v, self.candidate_k)]
                for q, v in zip(queries, vecs, strict=True)}

    def to_frame(self, include_inactive: bool = False) -> Any:
        """The chunk store as a DataFrame."""
        return self.store.to_frame(include_inactive=include_inactive)

    def _display_card(self) -> Card:
        card = self.store.display_card()
        stats = (("pipeline", repr(self.topology())),
                 ("embedding", self.embedding_backend.name if self.embedding_backend
                  else "none (pure BM25 + RRF)"),
                 ("judge", getattr(self.judge, "name", "none") if self.judge else "none"))
        return Card(title="NarrativeIndex", subtitle=self.store.path,
                    stats=card.stats + stats, tables=card.tables)

    def __repr__(self) -> str:
        return (f"NarrativeIndex(store={self.store.path!r}, chunks={self.store.count()}, "
                f"pipeline={self.topology()!r})")

    def _display_html(self) -> str:
        return self.topology()._display_html() + render_html(self._display_card())
