"""Auto-tune: a grid over k1, b, RRF k and channel weights, chosen by cross-validation.

Every setting is scored once per query (the measure of one query does not depend on
the fold); then, for each of ``folds`` splits of the queries, the setting best on the
training queries is scored on the held-out queries. The reported gain is the held-out
one (mean over folds of held-out setting − held-out baseline), never the training
fold's, which overstates a grid's gain.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ragspine_nb.retrieval.lab import LabSetting, per_query
from ragspine_nb.retrieval.tuning import TuningEngine

__all__ = ["FoldResult", "AutoTuneResult", "cross_validate", "default_grid", "auto_tune",
           "fold_ids"]


@dataclass(frozen=True)
class FoldResult:
    """One fold: the setting chosen on the training queries and its gains."""

    chosen: int
    train_gain: float
    heldout_gain: float
    n_heldout: int


@dataclass(frozen=True)
class AutoTuneResult:
    """What auto-tune found: the best setting on all queries and the honest held-out gain."""

    measure: str
    settings: tuple[LabSetting, ...]
    means: tuple[float, ...]
    best: LabSetting
    baseline_mean: float
    folds: tuple[FoldResult, ...]
    seconds: float

    @property
    def heldout_gain(self) -> float:
        """Mean held-out gain over the folds (what a new query may expect)."""
        return float(np.mean([f.heldout_gain for f in self.folds])) if self.folds else 0.0

    @property
    def train_gain(self) -> float:
        """Mean training-fold gain (optimistic; shown beside the held-out one)."""
        return float(np.mean([f.train_gain for f in self.folds])) if self.folds else 0.0

    def summary(self) -> str:
        """One line: settings tried, best setting, held-out and training gains."""
        return (f"{len(self.settings)} settings in {self.seconds:.1f} s · best on all queries: "
                f"{self.best.label()} ({self.measure} {max(self.means):.4f} vs baseline "
                f"{self.baseline_mean:.4f}) · {len(self.folds)}-fold held-out gain "
                f"{self.heldout_gain:+.4f} (training folds {self.train_gain:+.4f})")


def fold_ids(n: int, folds: int, seed: int = 0) -> np.ndarray:
    """Fold number of each of ``n`` queries (shuffled with ``seed``, sizes differ by ≤ 1).

    >>> sorted(np.bincount(fold_ids(10, 3)).tolist())
    [3, 3, 4]
    """
    if folds < 2 or folds > max(n, 2):
        raise ValueError(f"folds must be in [2, {max(n, 2)}] for {n} queries, got {folds}")
    out = np.empty(n, np.int64)
    out[np.random.default_rng(seed).permutation(n)] = np.arange(n) % folds
    return out


def cross_validate(matrix: np.ndarray, baseline: np.ndarray, folds: int = 5,
                   seed: int = 0) -> tuple[FoldResult, ...]:
    """Choose on each training split, score on its held-out split (pure).

    ``matrix`` is settings × queries, ``baseline`` one value per query. Ties between
    settings go to the first (the grid's order).
    """
    fid = fold_ids(matrix.shape[1], folds, seed)
    out = []
    for f in range(folds):
        train, test = fid != f, fid == f
        means = matrix[:, train].mean(axis=1)
        chosen = int(np.argmax(means))
        out.append(FoldResult(chosen, float(means[chosen] - baseline[train].mean()),
                              float(matrix[chosen, test].mean() - baseline[test].mean()),
                              int(test.sum())))
    return tuple(out)


def default_grid(engine: TuningEngine, base: LabSetting) -> list[LabSetting]:
    """k1 × b (9 × 6 = 54 BM25 settings) and, with a dense channel, RRF k × weights too."""
    k1s = (0.4, 0.6, 0.9, 1.2, 1.5, 1.8, 2.1, 2.4, 2.8)
    bs = (0.3, 0.45, 0.6, 0.75, 0.9, 1.0)
    if "hybrid" not in engine.channels():
        return [base.with_(k1=k1, b=b, channel="bm25") for k1, b in itertools.product(k1s, bs)]
    fusion = [(k, w) for k in (10, 30, 60, 100) for w in (0.5, 1.0, 2.0)]
    out = [base.with_(k1=k1, b=b, channel="hybrid")
           for k1, b in itertools.product((0.9, 1.2, 1.5, 1.8), (0.4, 0.75, 0.9))]
    out += [base.with_(rrf_k=k, w_bm25=w, channel="hybrid") for k, w in fusion]
    if engine.rerank_runs:
        out += [base.with_(rrf_k=k, w_rerank=w, channel="hybrid") for k, w in fusion]
    out += [base.with_(k1=k1, b=b, channel="bm25") for k1, b in itertools.product(k1s, bs)]
    return out


def auto_tune(engine: TuningEngine, baseline: LabSetting, measure: str = "nDCG@10",
              settings: Sequence[LabSetting] | None = None, folds: int = 5, seed: int = 0,
              progress: bool | object = True) -> AutoTuneResult:
    """Score every setting (a tqdm bar when ``progress``), then cross-validate.

    ``progress`` may also be a callable ``(done, total)`` (the panel's progress bar).
    """
    grid = list(settings) if settings is not None else default_grid(engine, baseline)
    if not grid:
        raise ValueError("auto_tune needs at least one setting")
    t0 = time.perf_counter()
    base = per_query(engine, baseline, [measure])[measure]
    rows = []
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(grid), desc="auto-tune", unit="setting")
    for i, s in enumerate(grid):
        rows.append(per_query(engine, s, [measure])[measure])
        if bar is not None:
            bar.update(1)
        elif callable(progress):
            progress(i + 1, len(grid))
    if bar is not None:
        bar.close()
    matrix = np.vstack(rows)
    means = matrix.mean(axis=1)
    return AutoTuneResult(measure, tuple(grid), tuple(means.tolist()), grid[int(np.argmax(means))],
                          float(base.mean()), cross_validate(matrix, base, folds, seed),
                          time.perf_counter() - t0)
