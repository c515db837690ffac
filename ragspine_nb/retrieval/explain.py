"""Why a chunk scores what it does under BM25: one row per query term (pure).

For each distinct query term ``t`` (counted ``qtf`` times in the query)::

    idf         = ln(1 + (N - df + 0.5) / (df + 0.5))
    length_norm = k1 * (1 - b + b * |d| / avgdl)
    contribution = qtf * idf * tf * (k1 + 1) / (tf + length_norm)

and the chunk's BM25 score is the sum of the contributions (what
:meth:`BM25Index.get_scores` gives, up to float32 rounding). A term the chunk lacks
contributes 0; a term the corpus lacks is listed with ``df = 0``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ragspine_nb.retrieval.bm25 import BM25Index

__all__ = ["TermContribution", "ScoreExplanation", "explain_bm25"]


@dataclass(frozen=True)
class TermContribution:
    """One query term's share of a chunk's BM25 score."""

    term: str
    qtf: int
    df: int
    idf: float
    tf: int
    length_norm: float
    contribution: float


@dataclass(frozen=True)
class ScoreExplanation:
    """A chunk's BM25 score, term by term, and its rank in each channel before fusion."""

    doc_id: str
    query: str
    k1: float
    b: float
    doc_len: int
    avgdl: float
    terms: tuple[TermContribution, ...]
    ranks: Mapping[str, int | None] = field(default_factory=dict)

    @property
    def total(self) -> float:
        """The BM25 score: the sum of the contributions."""
        return sum(t.contribution for t in self.terms)

    def rows(self) -> list[tuple[str, ...]]:
        """Display rows: term, qtf, df, IDF, TF, length norm, contribution."""
        return [(t.term, str(t.qtf), str(t.df), f"{t.idf:.3f}", str(t.tf), f"{t.length_norm:.3f}",
                 f"{t.contribution:.3f}") for t in self.terms]


def explain_bm25(index: BM25Index, query: str, doc_id: str, k1: float, b: float,
                 ranks: Mapping[str, int | None] | None = None) -> ScoreExplanation:
    """Term-by-term BM25 explanation of ``doc_id`` for ``query`` under (k1, b).

    Raises
    ------
    KeyError
        When ``doc_id`` is not in the index (the message names an indexed id).
    """
    pos = index.position_of(doc_id)
    if pos is None:
        example = index.doc_ids[0] if index.doc_ids else "(empty index)"
        raise KeyError(f"{doc_id!r} is not indexed; ids look like {example!r}")
    tm = index.term_matrix
    counts: dict[str, int] = {}
    for tok in index.tokenizer(query):
        counts[tok] = counts.get(tok, 0) + 1
    dl = float(index.doc_len[pos])
    norm = k1 * (1.0 - b + b * dl / index.avgdl) if index.avgdl else k1
    terms = []
    for term, qtf in counts.items():
        tid = index.vocab.get(term)
        if tid is None:
            terms.append(TermContribution(term, qtf, 0, 0.0, 0, norm, 0.0))
            continue
        df = int(index.df[tid])
        idf = float(index.idf[tid])
        lo, hi = tm.indptr[tid], tm.indptr[tid + 1]
        row = tm.indices[lo:hi]
        hit = (row == pos).nonzero()[0]  # postings need not be sorted by position
        tf = int(tm.data[lo + hit[0]]) if hit.size else 0
        contrib = qtf * idf * tf * (k1 + 1.0) / (tf + norm) if tf else 0.0
        terms.append(TermContribution(term, qtf, df, idf, tf, norm, contrib))
    terms.sort(key=lambda t: (-t.contribution, t.term))
    return ScoreExplanation(doc_id, query, k1, b, int(dl), float(index.avgdl), tuple(terms),
                            dict(ranks or {}))

