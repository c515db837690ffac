"""One query's results from its ranked lists: RRF fusion, then an optional rerank.

Pure functions over the per-variant rankings a :class:`NarrativeIndex` search produced
(the original query's list first, then its variants), so every stage stays inspectable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ragspine_nb.core import StoredChunk
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.rerank import ListwiseJudge, build_listwise_prompt, listwise_rerank
from ragspine_nb.retrieval.results import Hit

__all__ = ["fuse", "best_ranks", "ranked_hits"]

Ranking = Sequence[tuple[str, float]]


def fuse(bm: Sequence[Ranking], vc: Sequence[Ranking], channels: Sequence[str],
         rrf_k: float) -> list[tuple[str, float]]:
    """RRF over every non-empty list of the channels in use (BM25 lists first).

    Examples
    --------
    >>> [cid for cid, _ in fuse([[("a", 2.0), ("b", 1.0)]], [[("b", 0.9)]],
    ...                         ("bm25", "vector"), 60)]
    ['b', 'a']
    """
    lists = [list(r) for r in bm if "bm25" in channels and r]
    lists += [list(r) for r in vc if "vector" in channels and r]
    k: Any = int(rrf_k) if float(rrf_k).is_integer() else rrf_k
    return rrf_fuse(lists, k=k)


def best_ranks(rankings: Sequence[Ranking]) -> dict[str, tuple[int, float]]:
    """Each id's first (rank, score) across the lists, the original query's list first.

    Examples
    --------
    >>> best_ranks([[("a", 3.0)], [("b", 2.0), ("a", 1.0)]])
    {'a': (1, 3.0), 'b': (1, 2.0)}
    """
    found: dict[str, tuple[int, float]] = {}
    for ranking in rankings:
        for r, (cid, score) in enumerate(ranking, start=1):
            found.setdefault(cid, (r, score))
    return found


def ranked_hits(query: str, fused: Sequence[tuple[str, float]], bm: Sequence[Ranking],
                vc: Sequence[Ranking], chunks: Mapping[str, StoredChunk], top_k: int,
                rerank: tuple[ListwiseJudge | None, int] | None = None,
                read: Callable[[StoredChunk], str] | None = None,
                ) -> tuple[tuple[Hit, ...], dict[str, Any]]:
    """The top ``top_k`` hits with every stage's score and rank, and what the rerank did.

    ``rerank`` is ``(judge, top_n)`` to rerank the head of the fused list (RESTRICTED
    text never reaches the judge: see :func:`listwise_rerank`), or ``None``. ``read``
    gives what a hit's :attr:`~Hit.judged_text` is (its header and text; the text alone
    when not given): what the judge reads.
    """
    bm_best, vc_best = best_ranks(bm), best_ranks(vc)
    head = list(fused[:max(top_k, rerank[1] if rerank else 0)])

    def make(i: int, rank: int, judge: float | None) -> Hit:
        cid, score = head[i]
        b_rank, b_score = bm_best.get(cid, (None, None))
        v_rank, v_score = vc_best.get(cid, (None, None))
        chunk = chunks[cid]
        return Hit(chunk=chunk, rank=rank, fused_score=score, fused_rank=i + 1,
                   bm25_score=b_score, bm25_rank=b_rank, vector_score=v_score,
                   vector_rank=v_rank, judge_score=judge,
                   judged_text=read(chunk) if read is not None else "")

    hits = [make(i, i + 1, None) for i in range(len(head))]
    if rerank is None:
        return tuple(hits[:top_k]), {}
    judge, top_n = rerank
    outcome = listwise_rerank(query, hits, judge, top_n=top_n, text_of=lambda h: h.read)
    hits = [make(i, new_rank, outcome.scores.get(i))
            for new_rank, i in enumerate(outcome.order, start=1)]
    info = {"judge": getattr(judge, "name", type(judge).__name__),
            "called": outcome.judge_called, "fell_back": outcome.fell_back,
            "reason": outcome.reason, "top_n": top_n,
            "prompt_preview": (build_listwise_prompt(query, outcome.prompt_texts)
                               if outcome.judge_called else "")}
    return tuple(hits[:top_k]), info
