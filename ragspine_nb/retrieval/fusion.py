"""Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009).

``score(d) = Σ_lists weight_i / (k + rank_i(d))`` with ranks starting at 1 and the
standard constant ``k = 60``. The result is sorted by ``(-score, id)`` so equal
scores always come out in the same order. Inputs are never modified.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["rrf_fuse", "DEFAULT_RRF_K"]

DEFAULT_RRF_K = 60

Ranking = Sequence[str] | Sequence[tuple[str, float]]


def _ids(ranking: Ranking) -> list[str]:
    return [item if isinstance(item, str) else item[0] for item in ranking]


def rrf_fuse(rankings: Sequence[Ranking], k: int = DEFAULT_RRF_K,
             weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Fuse ranked lists of ids (or ``(id, score)`` pairs; only the order is used).

    Parameters
    ----------
    rankings : sequence of rankings
        Each best first. An id repeated inside one list counts at its first rank.
    k : int, default 60
        The RRF constant (must be >= 0).
    weights : sequence of float, optional
        One weight per list (default 1.0 each).

    Returns
    -------
    list of (id, score)
        Best first, ties broken by id.

    Examples
    --------
    >>> rrf_fuse([["A", "B", "C"], ["A", "C"]], k=60)[:2]  # A: 2/61, C: 1/63 + 1/62
    [('A', 0.03278688524590164), ('C', 0.03200204813108039)]
    """
    if isinstance(k, bool) or not isinstance(k, int | float) or k < 0:
        raise ValueError(f"RRF k must be a number >= 0, got {k!r}")
    if weights is not None and len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    scores: dict[str, float] = {}
    for i, ranking in enumerate(rankings):
        w = 1.0 if weights is None else float(weights[i])
        seen: set[str] = set()
        for rank, doc in enumerate(_ids(ranking), start=1):
            if doc in seen:
                continue
            seen.add(doc)
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
