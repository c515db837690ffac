"""The operands of a question: which stored cells to look up, and in which roles.

:func:`base_tasks` is what a question names: its rows × entities × periods × columns
(with the gateway's assumptions). An operation then decides its operands
(:func:`plan_operation`):

* an ``average`` / ``sum`` runs over what varies among the named cells — periods
  (a range "from 2017 to 2019" is every fiscal year in it; "the 3 years" the row's
  latest three; "the average X" naming no period, every period the row is reported for,
  named in the figure's label) or listed rows / columns / entities; one varying slot
  only: several rows *and* several periods with nothing combining them are not answered
  (``cross``);
* a ``count``, ``max`` or ``min`` runs over the periods the question names (two or
  more), the quarters of the one year it names, else every period the row is reported
  for, or over listed items;
* a ``change_of_change`` runs over two consecutive fiscal years named and the year
  before them (the later change minus the earlier one); a ``trend`` over the periods
  named, the year named and the one before, or the row's latest two; a ``spread`` over
  the periods named, or every fiscal year the row (a formula: all its operands) reports;
* a ``ratio`` / ``share`` has a numerator (one or more cells, summed) and one
  denominator, each read from its own part of the question ("A as a percentage of B"):
  :mod:`~ragspine_nb.agent.compute.ratio_plan`.

Nothing is computed here and nothing is answered: a plan, ``None`` (no operation after
all: a bare "total" naming one cell asks for that level) or why not.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragspine_nb.agent.compute.operations import NotComputed, Operation
from ragspine_nb.agent.compute.plan_cells import (
    SLOTS,
    Plan,
    PlanContext,
    Task,
    base_tasks,
    distinct_rows,
    fiscal_years,
    ranged,
    reported_years,
    slot_names,
    varying_slots,
)
from ragspine_nb.agent.compute.ratio_plan import plan_ratio
from ragspine_nb.period_codes import period_label

__all__ = ["Task", "Plan", "PlanContext", "base_tasks", "plan_operation", "varying_slots",
           "ranged", "SLOTS"]


def _crossed(rows: Sequence[Task], ctx: PlanContext) -> NotComputed:
    """Several rows where one is wanted (named in words), or none at all."""
    if not rows:
        return NotComputed("operands", ("0",))
    return NotComputed("cross", (slot_names(rows, varying_slots(rows), ctx.profile),))


def _row_periods(ctx: PlanContext, task: Task, period_type: str) -> list[str]:
    """The periods (latest first) one row is reported for, of one period type."""
    facts = ctx.store.iter_facts(metric_code=task.metric, entity=task.entity,
                                 channel=task.channel, period_type=period_type)
    return sorted({f.period for f in facts}, reverse=True)


def _period_type(ctx: PlanContext, task: Task) -> str:
    """The named periods' type, else fiscal years, else the row's only type."""
    if ctx.intent.periods:
        return ctx.intent.periods[0][0]
    kinds = {f.period_type for f in ctx.store.iter_facts(
        metric_code=task.metric, entity=task.entity, channel=task.channel)}
    return "FY" if "FY" in kinds or len(kinds) != 1 else next(iter(kinds))


def _over_periods(ctx: PlanContext, task: Task, periods: Sequence[str]) -> list[Task]:
    return [task.but(period=p) for p in periods]


def _counted_cell(ctx: PlanContext, task: Task) -> Task:
    """The total's cell whose parts are counted: its row's latest (or named) period.

    The count is of rows, so any column the total is reported in serves; the task's own
    column first.
    """
    facts = list(ctx.store.iter_facts(metric_code=task.metric, entity=task.entity))
    same = [f for f in facts if f.channel == task.channel] or \
        sorted(facts, key=lambda f: f.channel)
    if ctx.intent.periods:
        same = [f for f in same if period_label(f.period_type, f.period) == task.period]
    if not same:
        return task
    best = max(same, key=lambda f: (f.period_type == "FY", f.period))
    return task.but(channel=best.channel, period=period_label(best.period_type, best.period))


def _quarters_of_year(ctx: PlanContext, task: Task) -> list[Task] | NotComputed:
    """"The average quarterly low price in 2018": the named year's four quarters."""
    year = ctx.intent.periods[0][1]
    quarters = sorted(p for p in _row_periods(ctx, task, "QUARTER") if p.startswith(year))
    if len(quarters) != 4:
        return NotComputed("no_periods", ("average",))
    return _over_periods(ctx, task, [period_label("QUARTER", p) for p in quarters])


def _fiscal_range(ctx: PlanContext) -> list[str] | None:
    """Every fiscal year from the first to the last named ("from 2017 to 2019")."""
    named = ctx.intent.periods
    if len(named) < 2 or any(p[0] != "FY" for p in named):
        return None
    years = [int(p[1]) for p in named]
    return fiscal_years(max(years), min(years))


def _aggregate(op: Operation, ctx: PlanContext) -> Plan | NotComputed | None:
    tasks = base_tasks(ctx.intent, ctx.clar, ctx.profile)
    if not tasks:
        return NotComputed("operands", ("0",))
    spread = _fiscal_range(ctx) if op.over_range else None
    if spread is not None:
        tasks = [t.but(period=p) for t in distinct_rows(tasks) for p in spread]
    elif not ctx.intent.periods and len(varying_slots(tasks)) == 0:
        if op.implicit and not op.years:
            return None
        if op.kind == "sum" and not op.years:
            return NotComputed("no_periods", (op.kind,))
        kind = _period_type(ctx, tasks[0])
        reported = _row_periods(ctx, tasks[0], kind)
        latest = reported[: op.years] if op.years else reported
        if len(latest) < max(op.years, 2):
            return NotComputed("no_periods", (op.kind,))
        tasks = _over_periods(ctx, tasks[0], [period_label(kind, p) for p in latest])
    elif op.quarterly and len(tasks) == 1 and [p[0] for p in ctx.intent.periods] == ["FY"]:
        quarters = _quarters_of_year(ctx, tasks[0])
        if isinstance(quarters, NotComputed):
            return quarters
        tasks = quarters
    elif op.opening and len(tasks) == 1 and [p[0] for p in ctx.intent.periods] == ["FY"]:
        year = int(ctx.intent.periods[0][1])  # the year's closing and opening balances
        tasks = _over_periods(ctx, tasks[0], fiscal_years(year, year - 1))
    varying = varying_slots(tasks)
    if not varying:
        return None if op.implicit else NotComputed("operands", ("1",))
    if len(varying) > 1:
        return NotComputed("cross", (slot_names(tasks, varying, ctx.profile),))
    return _years_said(op, tasks) or Plan(op, tuple(tasks))


def _years_said(op: Operation, tasks: Sequence[Task]) -> NotComputed | None:
    """The years the question counts ("the 3 years") against the periods taken.

    "The average over the 3 year period in 2019 vs 2017" names two years and counts
    three: an average of two would answer another question.
    """
    periods = list(dict.fromkeys(t.period for t in tasks))
    if not op.years or len(periods) == op.years:
        return None
    return NotComputed("years_count", (str(op.years), str(len(periods)), ", ".join(periods)))


def _gap_of_averages(op: Operation, ctx: PlanContext) -> Plan | NotComputed:
    """Two rows over the same periods: those named, else every period both report."""
    rows = distinct_rows(base_tasks(ctx.intent, ctx.clar, ctx.profile))
    if len(rows) != 2 or varying_slots(rows) != ["metric"]:
        return _crossed(rows, ctx)
    spread = _fiscal_range(ctx) if op.over_range else None
    if spread is None and len(ctx.intent.periods) >= 2:
        spread = [period_label(*p) for p in ctx.intent.periods]
    if spread is None and ctx.intent.periods:
        return NotComputed("operands", ("1",))  # one period: no average
    if spread is None:
        kind = _period_type(ctx, rows[0])
        both = set(_row_periods(ctx, rows[0], kind)) & set(_row_periods(ctx, rows[1], kind))
        spread = [period_label(kind, p) for p in sorted(both, reverse=True)]
    if len(spread) < 2:
        return NotComputed("no_periods", (op.kind,))
    return Plan(op, tuple(t for row in rows for t in _over_periods(ctx, row, spread)))


def _over(op: Operation, ctx: PlanContext) -> Plan | NotComputed | None:
    """A count, max or min: over the named / reported periods, or over listed items."""
    tasks = base_tasks(ctx.intent, ctx.clar, ctx.profile)
    if not tasks:
        return NotComputed("items")
    varying = varying_slots(tasks)
    if op.over == "items":
        parts = ctx.profile.metrics[tasks[0].metric].parts \
            if len(tasks) == 1 and tasks[0].metric in ctx.profile.metrics else ()
        if parts and op.kind == "count":  # "how many categories are there under total X"
            return Plan(op, tuple(_counted_cell(ctx, tasks[0]).but(metric=p)
                                  for p in parts))
        if parts:  # "which cash flow activity brought in the most": its parts compared
            return Plan(op, tuple(tasks[0].but(metric=p) for p in parts))
        if len(varying) != 1 or "period" in varying:
            return NotComputed("items")
        return Plan(op, tuple(tasks))
    if len(ctx.intent.periods) >= 2 and varying == ["period"]:
        spread = _fiscal_range(ctx) if op.over_range else None
        over = _over_periods(ctx, tasks[0], spread) if spread else tasks
        return _years_said(op, over) or Plan(op, tuple(over))
    rows = distinct_rows(tasks)
    if len(rows) != 1:
        return _crossed(rows, ctx)
    if len(ctx.intent.periods) == 1:  # "the lowest quarterly revenue in fiscal 2023"
        return _within_year(op, ctx, rows[0])
    kind = _period_type(ctx, rows[0])
    periods = [period_label(kind, p) for p in _row_periods(ctx, rows[0], kind)]
    if op.years:
        periods = periods[: op.years]
    if not periods:
        return NotComputed("operands", ("0",))
    return Plan(op, tuple(_over_periods(ctx, rows[0], periods)))


def _within_year(op: Operation, ctx: PlanContext, task: Task) -> Plan | NotComputed:
    """One year named: the extreme or count runs over its quarters, never over every year.

    "Nike's lowest quarterly revenue in fiscal 2023" answered the lowest of ten fiscal
    years (FY2014's); over a year, only the quarters it states are its periods.
    """
    kind, year = ctx.intent.periods[0]
    quarters = sorted(p for p in _row_periods(ctx, task, "QUARTER") if p.startswith(year)) \
        if kind == "FY" else []
    if len(quarters) < 2:
        return NotComputed("no_periods", (op.kind,))
    return Plan(op, tuple(_over_periods(ctx, task, [period_label("QUARTER", q)
                                                    for q in quarters])))


def _one_row(ctx: PlanContext) -> list[Task] | NotComputed:
    """The distinct rows (every slot but the period) the question names; one, or why not."""
    tasks = base_tasks(ctx.intent, ctx.clar, ctx.profile)
    rows = distinct_rows(tasks)
    if len(rows) == 1:
        return rows
    return _crossed(rows, ctx)


def _change_of_change(op: Operation, ctx: PlanContext) -> Plan | NotComputed:
    """Two consecutive fiscal years named: the later one, the earlier one, the year before."""
    rows = _one_row(ctx)
    if isinstance(rows, NotComputed):
        return rows
    years = sorted({int(p[1]) for p in ctx.intent.periods if p[0] == "FY"})
    if len(years) != 2 or years[1] - years[0] != 1 or len(ctx.intent.periods) != 2:
        return NotComputed("change_periods")
    periods = [period_label("FY", str(y)) for y in (years[1], years[0], years[0] - 1)]
    return Plan(op, tuple(_over_periods(ctx, rows[0], periods)))


def _trend(op: Operation, ctx: PlanContext) -> Plan | NotComputed:
    """One row, earliest first: the periods named, a year and the one before, or the last two."""
    rows = _one_row(ctx)
    if isinstance(rows, NotComputed):
        return rows
    named = sorted(set(ctx.intent.periods), key=lambda p: p[1])
    last = None if op.kind == "spread" else 2
    if len(named) == 1 and named[0][0] == "FY" and last:
        periods = fiscal_years(int(named[0][1]) - 1, int(named[0][1]))
    elif len(named) > 1 or named and last:
        periods = [period_label(*p) for p in named]
    else:
        kind = _period_type(ctx, rows[0])
        found = _row_periods(ctx, rows[0], kind) or ([str(y) for y in sorted(reported_years(
            ctx.store, ctx.profile, rows[0].metric, rows[0].entity, rows[0].channel),
            reverse=True)] if kind == "FY" else [])  # a formula's: its operands' years
        periods = [period_label(kind, p) for p in found[:last]][::-1]
    if len(periods) < 2:
        return NotComputed("no_periods", (op.kind,))
    return Plan(op, tuple(_over_periods(ctx, rows[0], periods)))


def plan_operation(op: Operation, ctx: PlanContext) -> Plan | NotComputed | None:
    """The operands of ``op`` (see the module docstring); ``None``: not an operation.

    ``difference`` / ``percent_change`` are planned by the caller (two periods of one
    row, or two named cells: :mod:`ragspine_nb.agent.write.answer`); they return ``None``.
    """
    if op.nested:
        return NotComputed("nested", (op.kind, op.nested))
    if op.kind == "average" and op.between:
        return _gap_of_averages(op, ctx)
    if op.kind in ("average", "sum"):
        return _aggregate(op, ctx)
    if op.kind in ("count", "max", "min"):
        return _over(op, ctx)
    if op.kind in ("ratio", "share"):
        return plan_ratio(op, ctx)
    if op.kind == "change_of_change":
        return _change_of_change(op, ctx)
    if op.kind in ("trend", "spread"):
        return _trend(op, ctx)
    return None

