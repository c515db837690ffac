"""The cells a question names: tasks, the plan of an operation, what planning reads.

A :data:`Task` is one cell to look up (metric, entity, period label, column);
:func:`base_tasks` is every cell the question names (rows × entities × periods ×
columns, with the gateway's assumptions); :mod:`ragspine_nb.agent.compute.operation_plan` turns
them into an operation's :class:`Plan`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.compute.task import SLOTS, Slot, Task
from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.labels import slot_label
from ragspine_nb.agent.reading.operation_cues import compound_span, period_range
from ragspine_nb.agent.scope.clarify import ClarificationResult
from ragspine_nb.extract.header_periods import YEAR
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import period_label
from ragspine_nb.period_phrases import EVERY_YEAR, latest_years
from ragspine_nb.profile import DomainProfile
from ragspine_nb.profile_fields import formula_codes
from ragspine_nb.stores.facts import FactStore

__all__ = ["Task", "SLOTS", "Plan", "PlanContext", "base_tasks", "ranged", "fiscal_years",
           "varying_slots", "slot_names", "year_span", "distinct_rows", "reported_year",
           "group_parts", "reported_years"]



@dataclass(frozen=True)
class Plan:
    """The operands of an operation, in order (a ratio's numerators first)."""

    operation: Operation
    tasks: tuple[Task, ...]
    #: a ratio / share: the first ``numerators`` tasks are summed over the last one
    numerators: int = 0
    #: a ratio / share asked for several years: ``groups`` runs of tasks, one per year
    groups: int = 1


@dataclass(frozen=True)
class PlanContext:
    """What planning reads: the parsed question, the gateway's decision, the store."""

    intent: ParsedIntent
    clar: ClarificationResult
    profile: DomainProfile
    store: FactStore
    #: parses part of the question with the agent's own parser
    parse: Callable[[str], ParsedIntent]


def base_tasks(intent: ParsedIntent, clar: ClarificationResult,
               profile: DomainProfile) -> list[Task]:
    """Every cell the question names (rows × entities × periods × columns), in its order."""
    entities = list(intent.entities) or [clar.assumed_slots.get("entity",
                                                                 profile.home_entity_code)]
    periods = clar.assumed_periods or [period_label(*p) for p in intent.periods] or \
        [clar.assumed_slots.get("period", "")]
    channels = list(intent.channels) or [intent.channel or profile.default_channel]
    return [Task(m, e, p, c)
            for m in intent.metrics for e in entities for p in periods for c in channels]


def ranged(tasks: Sequence[Task], intent: ParsedIntent) -> list[Task]:
    """Lookups over a range of fiscal years written out: every year in it, as written.

    "For fiscal years 2019 to 2017" names 2019, 2018 and 2017; other tasks stay.

    >>> from ragspine_nb.agent.reading.intent import ParsedIntent
    >>> i = ParsedIntent(raw_question="net income for fiscal years 2019 to 2017?",
    ...                  route="structured", language="en",
    ...                  periods=(("FY", "2019"), ("FY", "2017")))
    >>> [t.period for t in ranged([Task("NI", "CO", "FY2019", "TOTAL"),
    ...                            Task("NI", "CO", "FY2017", "TOTAL")], i)]
    ['FY2019', 'FY2018', 'FY2017']
    """
    years = year_span(intent) if period_range(fold(intent.raw_question)) else None
    if years is None:
        return list(tasks)
    return [t.but(period=y) for t in distinct_rows(tasks) for y in years]


def distinct_rows(tasks: Sequence[Task]) -> list[Task]:
    """One task per row (every slot but the period), the first of each, in order."""
    return list({t.row(): t for t in tasks}.values())


def year_span(intent: ParsedIntent) -> list[str] | None:
    """Every fiscal year from the first named to the last, in the order written.

    ``None`` unless the question names exactly two periods, both fiscal years.
    """
    named = intent.periods
    if len(named) != 2 or any(p[0] != "FY" for p in named):
        return None
    return fiscal_years(int(named[0][1]), int(named[1][1]))


def fiscal_years(first: int, last: int) -> list[str]:
    """Fiscal years ``first`` to ``last`` as labels, either way round, both included."""
    step = 1 if last >= first else -1
    return [period_label("FY", str(y)) for y in range(first, last + step, step)]


def varying_slots(tasks: Sequence[Task]) -> list[Slot]:
    """The slots whose value differs between the tasks."""
    return [s for s in SLOTS if len({t.slot(s) for t in tasks}) > 1]


def slot_names(tasks: Sequence[Task], slots: Sequence[Slot],
               profile: DomainProfile | None = None) -> str:
    """The values of ``slots`` over the tasks, for a message ("Revenue and COGS; FY2019").

    Rows, entities and columns in the profile's words when one is given, else as codes.
    """
    def said(slot: str, value: str) -> str:
        return value if profile is None else slot_label(profile, slot, value)

    return "; ".join(" and ".join(dict.fromkeys(said(s, t.slot(s)) for t in tasks)) for s in slots)


def reported_year(intent: ParsedIntent, store: FactStore, profile: DomainProfile,
                  ref: date) -> int | None:
    """The latest fiscal year the rows asked about are reported for, when it is earlier.

    A question naming no period is about the latest complete fiscal year. When the rows
    it names do not all have a figure in that year (a report of years past), the latest
    fiscal year in which *every* such row has one is meant, and the answer says so.
    ``None`` when the question names a period, when every row is reported for the latest
    complete year, when the rows share no earlier year, or when that year's figures sit
    beside columns named by later years (a schedule of payments due).
    """
    if intent.periods or not intent.metrics:
        return None
    rows = _rows(intent, profile)
    shared = set.intersection(*(reported_years(store, profile, m, e, c) for m, e, c in rows))
    latest = ref.year - 1
    earlier = [y for y in shared if y < latest]
    if latest in shared or not earlier:
        return None
    year = max(earlier)
    return None if _schedule(store, profile, rows, year) else year


def every_year(intent: ParsedIntent, store: FactStore, profile: DomainProfile
               ) -> tuple[int, ...]:
    """The fiscal years "each year" means: every year all the rows asked about report.

    "What was Nike's revenue in each fiscal year?" names no period and asks for them
    all; "in the last three fiscal years" the latest three of them (fewer when fewer
    are reported: each answered figure says its year). ``()`` when the question names
    a period, asks a change (its two years are assumed as for any change), says no
    "each year" (:data:`EVERY_YEAR`, :data:`LATEST_YEARS`) or no row has a figure for
    any year.
    """
    asked = fold(intent.raw_question)
    latest = latest_years(asked)
    if intent.periods or not intent.metrics or intent.change_cue or \
            compound_span(asked) is not None or not (latest or EVERY_YEAR.search(asked)):
        return ()
    rows = _rows(intent, profile)
    years = sorted(set.intersection(*(reported_years(store, profile, m, e, c)
                                      for m, e, c in rows)))
    return tuple(years[-latest:] if latest else years)


def _rows(intent: ParsedIntent, profile: DomainProfile) -> list[tuple[str, str, str]]:
    """The (metric, entity, channel) rows a question asks about (the home entity if none)."""
    entities = list(intent.entities) or [profile.home_entity_code]
    channels = list(intent.channels) or [intent.channel or profile.default_channel]
    return [(m, e, c) for m in intent.metrics for e in entities for c in channels]


def reported_years(store: FactStore, profile: DomainProfile, metric: str, entity: str,
                   channel: str, seen: frozenset[str] = frozenset()) -> set[int]:
    """The fiscal years a row has a figure for; a formula's, the years of all its operands.

    "3M's net income" is computed from the owners' line (Net income = Net income
    attributable to shareholders of the parent): its years are that line's.
    """
    years = {int(f.period) for f in store.iter_facts(
        metric_code=metric, entity=entity, channel=channel, period_type="FY")
        if f.period.isdigit()}
    spec = profile.metrics.get(metric)
    if years or spec is None or not spec.formula or metric in seen:
        return years
    operands = formula_codes(spec.formula)
    return set.intersection(*(reported_years(store, profile, c, entity,
                                             profile.default_channel, seen | {metric})
                              for c in operands)) if operands else set()


def _schedule(store: FactStore, profile: DomainProfile, rows: Sequence[tuple[str, str, str]],
              year: int) -> bool:
    """Whether a row's figures of ``year`` sit beside columns named by later years.

    "Total | 2020 | 2021-2022 | Thereafter" is a schedule of payments due, not a
    report of fiscal years: its year is no period to fall back on.
    """
    for metric, entity, _ in rows:
        for fact in store.iter_facts(metric_code=metric, entity=entity, period_type="FY",
                                     period=str(year)):
            spec = profile.channels.get(fact.channel)
            names = (fact.channel, *(spec.synonyms if spec else ()))
            if any(int(y) > year for n in names for y in YEAR.findall(n)):
                return True
    return False


def group_parts(task: Task, profile: DomainProfile) -> list[Task]:
    """The cells of a group's parts, when the task's metric is a group with ``parts``.

    A group no table states ("cash flow activities": operating, investing, financing)
    asked as a figure is answered by its parts, each in the group's cell.

    >>> from ragspine_nb.profile import DomainProfile
    >>> p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"},
    ...     "metrics": {"OCF": {"unit": "USD_M"}, "ICF": {"unit": "USD_M"},
    ...                 "CFA": {"unit": "", "parts": ["OCF", "ICF"]}}})
    >>> [t.metric for t in group_parts(Task("CFA", "A", "FY2023", "TOTAL"), p)]
    ['OCF', 'ICF']
    >>> group_parts(Task("OCF", "A", "FY2023", "TOTAL"), p)
    []
    """
    spec = profile.metrics.get(task.metric)
    return [task.but(metric=p) for p in spec.parts] if spec is not None else []
