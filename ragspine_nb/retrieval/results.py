"""Search results that keep every stage for inspection (BM25, vectors, fused, reranked)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ragspine_nb.core import StoredChunk
from ragspine_nb.display.mixin import CardReprMixin

__all__ = ["Hit", "SearchResults", "REDACTED"]

#: What displays show instead of RESTRICTED text.
REDACTED = "[RESTRICTED — text withheld]"


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk with its score and rank at every stage (1-based ranks)."""

    chunk: StoredChunk
    rank: int
    fused_score: float
    fused_rank: int
    bm25_score: float | None = None
    bm25_rank: int | None = None
    vector_score: float | None = None
    vector_rank: int | None = None
    judge_score: float | None = None
    #: what a judge reads: the chunk's title, indexed header and text ("": the text alone)
    judged_text: str = field(default="", repr=False, compare=False)

    @property
    def read(self) -> str:
        """What a judge reads of this hit (header and text; never shown as its text)."""
        return self.judged_text or self.chunk.text

    @property
    def moved(self) -> int:
        """Positions gained by the rerank (positive = moved up)."""
        return self.fused_rank - self.rank

    @property
    def restricted(self) -> bool:
        """Whether the chunk is RESTRICTED (any spelling)."""
        return self.chunk.restricted

    @property
    def display_text(self) -> str:
        """The text, or a placeholder for RESTRICTED chunks."""
        return REDACTED if self.restricted else self.chunk.text

    def to_snippet(self) -> dict[str, Any]:
        """A snippet dict with full provenance and scores (what the agent receives)."""
        c = self.chunk
        return {
            "text": c.text, "doc_id": c.doc_id, "title": c.title,
            "source_locator": c.source_locator, "chunk_id": c.chunk_id, "topic": c.topic,
            "entity": c.entity, "geography": c.geography, "period": c.period,
            "language": c.language, "sensitivity": c.sensitivity,
            "scores": {"bm25": self.bm25_score, "vector": self.vector_score,
                       "fused": self.fused_score, "judge": self.judge_score},
        }


@dataclass(frozen=True)
class SearchResults(CardReprMixin):
    """The outcome of one search, with the whole pipeline's intermediate lists."""

    query: str
    hits: tuple[Hit, ...]
    variants: tuple[str, ...] = ()
    filters: dict[str, str] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    candidates: int = 0
    bm25: tuple[tuple[tuple[str, float], ...], ...] = ()     # per variant
    vector: tuple[tuple[tuple[str, float], ...], ...] = ()   # per variant
    fused: tuple[tuple[str, float], ...] = ()
    rerank: dict[str, Any] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)

    def __len__(self) -> int:
        return len(self.hits)

    def __iter__(self) -> Iterator[Hit]:
        return iter(self.hits)

    def __getitem__(self, i: int) -> Hit:
        return self.hits[i]

    @property
    def chunk_ids(self) -> list[str]:
        """Chunk ids in final order."""
        return [h.chunk.chunk_id for h in self.hits]

    @property
    def doc_ids(self) -> list[str]:
        """Document ids in final order, first occurrence only."""
        return list(dict.fromkeys(h.chunk.doc_id for h in self.hits))

    def to_frame(self) -> Any:
        """One row per hit: ranks and scores of every stage, locator, redacted text."""
        import pandas as pd

        return pd.DataFrame([{
            "rank": h.rank, "fused_rank": h.fused_rank, "moved": h.moved,
            "doc_id": h.chunk.doc_id, "source_locator": h.chunk.source_locator,
            "chunk_id": h.chunk.chunk_id, "bm25_rank": h.bm25_rank, "bm25": h.bm25_score,
            "vector_rank": h.vector_rank, "vector": h.vector_score, "fused": h.fused_score,
            "judge": h.judge_score, "sensitivity": h.chunk.sensitivity,
            "text": h.display_text,
        } for h in self.hits])

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        def fmt(v: float | int | None, digits: int = 4) -> str:
            return "—" if v is None else (f"{v:.{digits}f}" if isinstance(v, float) else str(v))

        rows = tuple((str(h.rank), f"{h.moved:+d}" if h.moved else "", h.chunk.doc_id,
                      h.chunk.source_locator, fmt(h.bm25_rank), fmt(h.bm25_score, 3),
                      fmt(h.vector_rank), fmt(h.vector_score, 3), fmt(h.fused_score),
                      fmt(h.judge_score, 3), h.display_text) for h in self.hits[:20])
        stats = [("hits", str(len(self.hits))), ("candidates", str(self.candidates)),
                 ("variants", str(len(self.variants)))]
        stats += [(k, str(v)) for k, v in self.params.items()]
        notes = [f"query variants: {' | '.join(self.variants)}"] if self.variants else []
        if self.filters:
            notes.append("metadata pre-filter: " + ", ".join(f"{k}={v}"
                                                           for k, v in self.filters.items()))
        if self.rerank:
            notes.append(f"rerank: {self.rerank.get('reason', '')}")
        return Card(title="SearchResults", subtitle=self.query, stats=tuple(stats),
                    tables=(Table("Hits (RESTRICTED text withheld)",
                                  ("rank", "moved", "doc", "locator", "bm25 rank", "bm25",
                                   "vector rank", "vector", "fused", "judge", "text"),
                                  rows, total_rows=len(self.hits)),),
                    notes=tuple(notes))

    def __repr__(self) -> str:
        return (f"SearchResults(query={self.query!r}, hits={len(self.hits)}, "
                f"candidates={self.candidates})")

