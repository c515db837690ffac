"""Whether the stored facts confirm a claim: pure functions over a metric's stored series.

A claim (:class:`~ragspine_nb.agent.narrative.claims.Claim`) is about one metric of one or more
candidate entities. Its **series** is every stored fact of that metric, entity and
channel. A claim is

* ``"confirmed"`` when a stored value (a level) or a stored change between a period and
  the one before it (a change, a percentage change) matches it, after unit and scale;
* ``"contradicted"`` when the stored facts for its period say otherwise (another value,
  another change, the other direction);
* ``"unreconciled"`` when the series holds facts the claim should match but none does,
  and nothing says which period it is about: a level naming no period that equals no
  stored value, or a figure in another currency than the stored one;
* ``"unknown"`` when nothing is stored to compare it with (a period the store lacks, a
  change with no earlier period stored): nothing contradicts it.

Only ``"confirmed"`` and ``"unknown"`` let a sentence stand.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragspine_nb.agent.narrative.claims import LEVEL, PCT_CHANGE, Claim
from ragspine_nb.core import Fact
from ragspine_nb.units import unit_parts

__all__ = ["verdict", "level_verdict", "change_verdict", "pairs", "CONFIRMED",
           "CONTRADICTED", "UNRECONCILED", "UNKNOWN"]

CONFIRMED, CONTRADICTED, UNRECONCILED, UNKNOWN = (
    "confirmed", "contradicted", "unreconciled", "unknown")
#: Relative slack on a computed percentage change (rounded operands, rounded prose).
_PCT_SLACK = 0.02


def _same_currency(claim: Claim, fact: Fact) -> bool:
    want = unit_parts(fact.unit)
    return not claim.unit.currency or not want.currency or claim.unit.currency == want.currency


#: The scales a stored amount may be in when its table states none.
_SCALES = (1.0, 1e3, 1e6, 1e9)


def _amount(claim: Claim, stored: float, fact_unit: str) -> bool:
    """Whether the claim's amount equals ``stored`` (in ``fact_unit``) after scale.

    A stored amount whose table states no scale may be in units, thousands, millions or
    billions: prose stating a scale ("$4.9 million") matches it at any of them.
    """
    have, want = claim.unit, unit_parts(fact_unit)
    scales = (want.factor,) if want.factor else _SCALES if have.factor else (1.0,)
    factor = have.factor or 1.0
    return any(abs(abs(claim.value) * factor - abs(stored) * s) <=
               claim.tolerance * factor + 1e-9 * abs(stored) * s for s in scales)


def _earlier(claim: Claim, series: Sequence[Fact]) -> list[Fact]:
    """The facts an earlier level may be: before the period beside it, else before the last."""
    if claim.beside is not None:
        return [f for f in series if f.period_type == claim.beside[0]
                and f.period < claim.beside[1]]
    last = {(f.entity, f.period_type): f.period for f in sorted(series, key=lambda f: f.period)}
    return [f for f in series if f.period < last[(f.entity, f.period_type)]]


def level_verdict(claim: Claim, series: Sequence[Fact]) -> str:
    """Verdict on a level claim against the stored series of one entity."""
    facts = _earlier(claim, series) if claim.earlier else [
        f for f in series if claim.period is None or (f.period_type, f.period) == claim.period]
    if not facts:
        return UNKNOWN
    if claim.unit.percent != unit_parts(facts[0].unit).percent:
        return UNKNOWN  # a percentage against an amount: another quantity (a share, a ratio)
    comparable = [f for f in facts if _same_currency(claim, f)]
    if any(_amount(claim, f.value, f.unit) for f in comparable):
        return CONFIRMED
    if not comparable or claim.period is None:
        return UNRECONCILED
    return CONTRADICTED


def pairs(series: Sequence[Fact]) -> list[tuple[Fact, Fact]]:
    """(earlier, later) facts of one entity and period type, each with the period before it.

    >>> from ragspine_nb.core import Fact
    >>> f = [Fact("R", "E", "G", "T", "FY", y, v, "USD_M", "d", "l")
    ...      for y, v in (("2023", 1.0), ("2024", 2.0), ("2025", 3.0))]
    >>> [(a.period, b.period) for a, b in pairs(f)]
    [('2023', '2024'), ('2024', '2025')]
    """
    by: dict[tuple[str, str, str], list[Fact]] = {}
    for f in series:
        by.setdefault((f.entity, f.channel, f.period_type), []).append(f)
    out: list[tuple[Fact, Fact]] = []
    for facts in by.values():
        ordered = sorted(facts, key=lambda f: f.period)
        out += list(zip(ordered, ordered[1:], strict=False))
    return out


def _change_matches(claim: Claim, earlier: Fact, later: Fact) -> bool:
    scale = unit_parts(later.unit).factor or 1.0
    diff = later.value * scale - earlier.value * (unit_parts(earlier.unit).factor or 1.0)
    # prose says how a size moved: an expense stored as -640 and -5,940 "increased"
    grew = abs(later.value) > abs(earlier.value) if later.value <= 0 and earlier.value <= 0 \
        else diff > 0
    if claim.direction and diff and grew != (claim.direction > 0):
        return False
    if claim.kind == PCT_CHANGE:
        if not earlier.value:
            return False
        computed = abs(diff) / abs(earlier.value * (unit_parts(earlier.unit).factor or 1.0))
        computed *= 100
        return abs(abs(claim.value) - computed) <= claim.tolerance + _PCT_SLACK * computed + 0.05
    return _amount(claim, diff / scale, later.unit)


def change_verdict(claim: Claim, series: Sequence[Fact]) -> str:
    """Verdict on a change or a percentage change against the stored series."""
    found = [(a, b) for a, b in pairs(series)
             if claim.period is None or (b.period_type, b.period) == claim.period]
    if not found or (claim.kind == PCT_CHANGE and unit_parts(found[0][1].unit).percent):
        return UNKNOWN  # a ratio "up 2%": points or relative, not said
    if claim.kind != PCT_CHANGE:
        if unit_parts(found[0][1].unit).percent:
            return UNKNOWN  # an amount against a ratio's change: not comparable
        found = [(a, b) for a, b in found if _same_currency(claim, b)]
        if not found:
            return UNRECONCILED
    if any(_change_matches(claim, a, b) for a, b in found):
        return CONFIRMED
    return CONTRADICTED


def verdict(claim: Claim, series: Sequence[Fact]) -> str:
    """The verdict over every candidate entity of the series.

    Confirmed when one entity's facts confirm it; unknown when one entity has nothing to
    compare it with (the figure may be that entity's); else unreconciled or contradicted.
    """
    by: dict[str, list[Fact]] = {}
    for f in series:
        by.setdefault(f.entity, []).append(f)
    judge = level_verdict if claim.kind == LEVEL else change_verdict
    found = {judge(claim, facts) for facts in by.values()} or {UNKNOWN}
    for outcome in (CONFIRMED, UNKNOWN, UNRECONCILED):
        if outcome in found:
            return outcome
    return CONTRADICTED
