"""Ranking measures under their ``ir_measures`` names (``nDCG@10``, ``R@100``, ``RR``, ``P@5``).

Every measure is computed from the ranks of the judged documents alone, so the same
pure function serves a ranked list (:func:`score_run`) and the tuning engine's rank
arrays (:func:`measures_from_ranks`). Conventions are ``trec_eval``'s, as
``ir_measures`` (through ``pytrec_eval``) applies them:

- ``nDCG@k``: linear gains ``rel / log2(rank + 1)`` over the top k, divided by the ideal
  DCG of all judged documents (``ndcg_cut``).
- ``R@k``: relevant documents (relevance ≥ 1) in the top k / relevant documents judged.
- ``P@k``: relevant documents in the top k / k.
- ``RR`` (``RR@k``): 1 / rank of the first relevant document (0 when none is retrieved).
- ``AP`` (``AP@k``): mean of the precision at each relevant document retrieved, over all
  relevant documents judged.

A query in the qrels that the run does not answer scores 0 (``trec_eval -c``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["Measure", "parse_measure", "parse_measures", "measures_from_ranks", "score_run",
           "mean_scores", "MEASURE_NAMES", "DEFAULT_MEASURES", "write_trec_run"]

#: The measure families understood (``ir_measures`` spelling).
MEASURE_NAMES: tuple[str, ...] = ("nDCG", "R", "P", "RR", "AP")

#: What the tuning panel shows by default.
DEFAULT_MEASURES: tuple[str, ...] = ("nDCG@10", "R@100", "RR", "P@10")

_PATTERN = re.compile(r"^(nDCG|R|P|RR|AP)(?:@(\d+))?$")


@dataclass(frozen=True)
class Measure:
    """One measure: its family and cutoff (``None``: the whole ranking)."""

    family: str
    cutoff: int | None = None

    @property
    def name(self) -> str:
        """The ``ir_measures`` name, e.g. ``nDCG@10``."""
        return self.family if self.cutoff is None else f"{self.family}@{self.cutoff}"

    def __str__(self) -> str:
        return self.name


def parse_measure(name: str | Measure) -> Measure:
    """``"nDCG@10"`` → ``Measure("nDCG", 10)``; R and P need a cutoff.

    >>> parse_measure("R@100")
    Measure(family='R', cutoff=100)
    >>> parse_measure("RR").name
    'RR'
    """
    if isinstance(name, Measure):
        return name
    m = _PATTERN.match(name.strip()) if isinstance(name, str) else None
    if m is None or (m.group(1) in ("R", "P") and m.group(2) is None) or m.group(2) == "0":
        raise ValueError(f"unknown measure {name!r}: use one of nDCG@k, R@k, P@k, RR, RR@k, "
                         "AP, AP@k (ir_measures names, k >= 1)")
    return Measure(m.group(1), int(m.group(2)) if m.group(2) else None)


def parse_measures(names: Sequence[str | Measure]) -> tuple[Measure, ...]:
    """Parse several names, keeping their order and dropping repeats."""
    out: dict[str, Measure] = {}
    for n in names:
        m = parse_measure(n)
        out.setdefault(m.name, m)
    return tuple(out.values())


def measures_from_ranks(q: np.ndarray, ranks: np.ndarray, rel: np.ndarray,
                        gains: Sequence[Sequence[int]], measures: Sequence[Measure]
                        ) -> dict[str, np.ndarray]:
    """Per-query values of ``measures`` from the ranks of the judged relevant documents.

    Parameters
    ----------
    q, ranks, rel : numpy.ndarray
        Aligned: query row, 0-based rank (``inf`` when not retrieved) and relevance (> 0)
        of every judged relevant document.
    gains : sequence of sequences
        Per query row, the relevances of all its judged relevant documents, best first.
    measures : sequence of Measure

    Returns
    -------
    dict
        Measure name → float64 array, one value per query row.
    """
    n_q = len(gains)
    n_rel = np.array([len(g) for g in gains], np.float64)
    out: dict[str, np.ndarray] = {}
    for m in measures:
        k = math.inf if m.cutoff is None else m.cutoff
        hit = ranks < k
        if m.family == "nDCG":
            dcg = np.bincount(q[hit], weights=rel[hit] / np.log2(ranks[hit] + 2), minlength=n_q)
            idcg = np.array([sum(g / math.log2(i + 2) for i, g in
                                 enumerate(gs if m.cutoff is None else gs[:m.cutoff]))
                             for gs in gains])
            out[m.name] = np.divide(dcg, idcg, out=np.zeros(n_q), where=idcg > 0)
        elif m.family in ("R", "P"):
            hits = np.bincount(q[hit], minlength=n_q).astype(np.float64)
            den = n_rel if m.family == "R" else np.full(n_q, float(m.cutoff or 1))
            out[m.name] = np.divide(hits, den, out=np.zeros(n_q), where=den > 0)
        elif m.family == "RR":
            best = np.full(n_q, np.inf)
            np.minimum.at(best, q, ranks)
            out[m.name] = np.where(best < k, 1.0 / (best + 1), 0.0)
        else:  # AP: precision at each relevant hit = (relevant above it + 1) / (rank + 1)
            order = np.lexsort((ranks, q))
            qs, rs = q[order][hit[order]], ranks[order][hit[order]]
            first = np.searchsorted(qs, qs, side="left")
            prec = (np.arange(qs.size) - first + 1) / (rs + 1)
            ap = np.bincount(qs, weights=prec, minlength=n_q)
            out[m.name] = np.divide(ap, n_rel, out=np.zeros(n_q), where=n_rel > 0)
    return out


def _judged_ranks(run: Mapping[str, Sequence[str]], qrels: Mapping[str, Mapping[str, int]],
                  qids: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                list[list[int]]]:
    q, ranks, rel, gains = [], [], [], []
    for i, qid in enumerate(qids):
        judged = {d: r for d, r in qrels[qid].items() if r > 0}
        gains.append(sorted(judged.values(), reverse=True))
        pos: dict[str, int] = {}
        for rank, d in enumerate(run.get(qid, ())):
            pos.setdefault(d, rank)
        for d, r in judged.items():
            q.append(i)
            ranks.append(pos.get(d, math.inf))
            rel.append(r)
    return (np.array(q, np.int64), np.array(ranks, np.float64), np.array(rel, np.float64),
            gains)


def score_run(run: Mapping[str, Sequence[str]], qrels: Mapping[str, Mapping[str, int]],
              measures: Sequence[str | Measure] = DEFAULT_MEASURES
              ) -> dict[str, dict[str, float]]:
    """Per-query measures of a run ``{query id: ranked doc ids}``: ``{qid: {name: value}}``.

    Every query of ``qrels`` is scored (0 when the run lacks it).

    >>> score_run({"q": ["a", "b"]}, {"q": {"b": 1}}, ["RR", "P@2", "R@1"])
    {'q': {'RR': 0.5, 'P@2': 0.5, 'R@1': 0.0}}
    """
    ms = parse_measures(measures)
    qids = list(qrels)
    q, ranks, rel, gains = _judged_ranks(run, qrels, qids)
    values = measures_from_ranks(q, ranks, rel, gains, ms)
    return {qid: {m.name: float(values[m.name][i]) for m in ms} for i, qid in enumerate(qids)}


def mean_scores(per_query: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """Mean of every measure over the queries (0.0 each when there are none)."""
    names: list[str] = list(next(iter(per_query.values()), {}))
    n = max(len(per_query), 1)
    return {name: sum(v[name] for v in per_query.values()) / n for name in names}


def write_trec_run(runs: Mapping[str, Sequence[str]], path: str | Path, tag: str = "ragspine"
                   ) -> Path:
    """Write ``{query id: ranked ids}`` as a TREC run (``qid Q0 docid rank score tag``).

    Scores fall with the rank (``n - rank``), so any tool re-sorting by score keeps the
    order. Written to a temporary file first, then renamed.
    """
    path = Path(path)
    if not tag or any(c.isspace() for c in tag):
        raise ValueError(f"run tag must be one word, got {tag!r}")
    lines = [f"{q} Q0 {d} {i + 1} {len(r) - i} {tag}\n" for q, r in runs.items()
             for i, d in enumerate(r)]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(lines), encoding="utf-8")
    os.replace(tmp, path)
    return path
