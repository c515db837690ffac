"""A change the report states itself, answering a change question before any computing.

A "% change" column (or any stated-change channel, ``CHANGE*``) is filed under the later
period, so one period in the question is enough; the figure the report states wins over
one computed from two levels (rounding, restatements), and one in conflict is answered
as the conflict, never computed from levels instead. A stated percentage answers only a
percentage change, a stated amount only a change in amount; and only the change it
states, from the same period a year before (a change from 2015 to 2017 is computed).
"""

from __future__ import annotations

from datetime import date

from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.compute.query_tools import execute_query_metric
from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.scope.clarify import ClarificationResult
from ragspine_nb.core import CHANGE_PCT_CHANNEL, ConflictResult, FoundResult, is_stated_change
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.units import unit_parts

__all__ = ["stated_change", "is_percent_unit"]


def stated_change(intent: ParsedIntent, clar: ClarificationResult, store: FactStore,
                  profile: DomainProfile, ref: date,
                  operation: Operation | None) -> FoundResult | ConflictResult | None:
    """A change the source states itself (a "% change" column), for a change question.

    Asked when the question names a stated-change channel (``CHANGE*``), or asks for a
    percentage change and the profile has :data:`CHANGE_PCT_CHANNEL`. The stated figure
    is filed under the later period, so one period in the question is enough. A figure
    the report states wins over one computed from two levels (rounding, restatements);
    one in conflict is answered as the conflict, never computed from levels instead. A
    stated percentage answers only a percentage change, a stated amount only a change
    in amount.
    """
    # the assumed two periods first: "since FY2024" names the change's start, not its end
    periods = [("FY", p[2:]) for p in clar.assumed_periods] or list(intent.periods)
    if operation is None or operation.kind not in ("difference", "percent_change") \
            or operation.between or operation.nested or operation.compound:
        return None
    if not (intent.change_cue and len(intent.metrics) == 1 and periods
            and len(intent.entities) <= 1):
        return None
    percent = operation.kind == "percent_change"
    channel = intent.channel if intent.channel and is_stated_change(intent.channel) \
        else CHANGE_PCT_CHANNEL if percent and CHANGE_PCT_CHANNEL in profile.channels \
        else None
    if channel is None:
        return None
    later = max(periods, key=lambda p: p[1])
    if not _from_the_year_before(periods, later):
        return None  # "from 2015 to 2017": the stated 2016→2017 change is another one
    entity = intent.entities[0] if intent.entities else profile.home_entity_code
    result = execute_query_metric(store, intent.metrics[0], entity, period_label(*later),
                                  channel, profile=profile, reference_date=ref)
    if isinstance(result, FoundResult) and is_percent_unit(result.fact.unit) != percent:
        return None  # a stated % change does not answer a change in amount, nor vice versa
    return result if isinstance(result, FoundResult | ConflictResult) else None


def _from_the_year_before(periods: list[tuple[str, str]], later: tuple[str, str]) -> bool:
    """Whether the periods asked span one year at most: what a stated change compares.

    A stated change is filed under its later period and compares it with the same period
    a year before ("FY2017 vs FY2016", "Q2 2023 vs Q2 2022").

    >>> _from_the_year_before([("FY", "2016"), ("FY", "2017")], ("FY", "2017"))
    True
    >>> _from_the_year_before([("FY", "2015"), ("FY", "2017")], ("FY", "2017"))
    False
    """
    earlier = min(periods, key=lambda p: p[1])
    if earlier == later:
        return True
    years = earlier[1][:4], later[1][:4]
    return earlier[0] == later[0] and all(y.isdigit() for y in years) and \
        earlier[1][4:] == later[1][4:] and int(years[1]) - int(years[0]) == 1


def is_percent_unit(unit: str) -> bool:
    """Whether a stored unit is a percentage (``PCT``, or written ``percent`` / ``%``)."""
    return unit_parts(unit).percent or unit.strip().lower() in ("percent", "%", "pct")
