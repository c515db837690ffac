"""Paired significance of a change, per query, against a pinned baseline (pure functions).

- :func:`paired_t_test`: two-sided paired t-test (``scipy.stats.ttest_rel``).
- :func:`randomisation_test`: two-sided Fisher randomisation (sign-flip) test of the mean
  difference; exact over all ``2**n`` sign patterns when ``n`` is small, else
  ``n_resamples`` random patterns with a fixed seed (the same call gives the same p).
- :func:`holm`: Holm–Bonferroni step-down adjustment of several p-values.
- :func:`compare`: wins, losses, ties and both tests for one measure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["paired_t_test", "randomisation_test", "holm", "Comparison", "compare",
           "EXACT_MAX_N"]

#: Up to this many non-zero differences the randomisation test enumerates every pattern.
EXACT_MAX_N = 14


def paired_t_test(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Two-sided p-value of the paired t-test of ``a`` against ``b`` (1.0 when undefined).

    >>> round(paired_t_test([0.5, 0.7, 0.9, 0.6], [0.4, 0.5, 0.6, 0.6]), 4)
    0.1027
    """
    from scipy import stats

    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    n = d.size
    if n < 2:
        return 1.0
    sd = d.std(ddof=1)
    if sd == 0:
        return 1.0 if d.mean() == 0 else 0.0
    t = d.mean() / (sd / math.sqrt(n))
    return float(min(1.0, 2.0 * stats.t.sf(abs(t), n - 1)))


def randomisation_test(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray,
                       n_resamples: int = 10_000, seed: int = 0) -> float:
    """Two-sided p-value of the paired randomisation (sign-flip) test of the mean difference.

    The p-value counts the patterns whose |mean| is at least the observed one (the
    observed pattern included), as ``scipy.stats.permutation_test`` does.

    >>> randomisation_test([1, 2, 3], [1, 2, 3])
    1.0
    """
    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    d = d[d != 0]  # a zero difference flips to itself
    n = d.size
    if n == 0:
        return 1.0
    observed = abs(d.sum())
    tol = 1e-12 * max(1.0, observed)
    if n <= EXACT_MAX_N:
        bits = (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1
        signs = 1.0 - 2.0 * bits
        sums = np.abs(signs @ d)
        return float(np.count_nonzero(sums >= observed - tol) / sums.size)
    rng = np.random.default_rng(seed)
    hits = 0
    done = 0
    while done < n_resamples:  # blocks bound the memory to ~8 MB
        step = min(n_resamples - done, max(1, 1_000_000 // n))
        flips = rng.integers(0, 2, size=(step, n), dtype=np.int8) * 2 - 1
        hits += int(np.count_nonzero(np.abs(flips @ d) >= observed - tol))
        done += step
    return float((hits + 1) / (n_resamples + 1))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order (monotone, capped at 1).

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = round(running, 15)
    return adjusted


@dataclass(frozen=True)
class Comparison:
    """One measure, now vs the pinned baseline, over the same queries."""

    measure: str
    now: float
    baseline: float
    wins: int
    losses: int
    ties: int
    p_t: float
    p_randomisation: float
    p_t_holm: float = 1.0
    p_randomisation_holm: float = 1.0

    @property
    def delta(self) -> float:
        """``now - baseline``."""
        return self.now - self.baseline

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether both Holm-adjusted p-values are below ``alpha``."""
        return max(self.p_t_holm, self.p_randomisation_holm) < alpha


def compare(measure: str, now: Sequence[float] | np.ndarray,
            baseline: Sequence[float] | np.ndarray, n_resamples: int = 10_000,
            seed: int = 0) -> Comparison:
    """Wins / losses / ties and both paired tests of ``now`` against ``baseline``."""
    a, b = np.asarray(now, np.float64), np.asarray(baseline, np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired values differ in length: {a.size} vs {b.size}")
    d = a - b
    return Comparison(measure, float(a.mean()) if a.size else 0.0,
                      float(b.mean()) if b.size else 0.0, int((d > 1e-12).sum()),
                      int((d < -1e-12).sum()), int((np.abs(d) <= 1e-12).sum()),
                      paired_t_test(a, b), randomisation_test(a, b, n_resamples, seed))


def holm_adjusted(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """The comparisons with Holm-adjusted p-values (each test adjusted over the measures)."""
    from dataclasses import replace

    pt = holm([c.p_t for c in comparisons])
    pr = holm([c.p_randomisation for c in comparisons])
    return [replace(c, p_t_holm=x, p_randomisation_holm=y)
            for c, x, y in zip(comparisons, pt, pr, strict=True)]


__all__ += ["holm_adjusted"]
