"""A ratio's or a share's operands: the numerator's and the denominator's cells.

A ``ratio`` / ``share`` has a numerator (one or more cells, summed) and one
denominator, each read from its own part of the question ("A as a percentage of B",
:func:`~ragspine_nb.agent.reading.ratio_sides.ratio_split`): a part that names no row,
period or column takes it from the rest of the question; a part named by a qualifier
only ("what percentage of revenue came from Greater China") is read with the whole's
words; a part naming no column, stated only in columns, takes the whole's column. Sides
named unclearly give no plan but the reason (``sides``): never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.agent.compute.operations import NotComputed, Operation
from ragspine_nb.agent.compute.plan_cells import Plan, PlanContext, Task, year_span
from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.labels import metric_label
from ragspine_nb.agent.reading.ratio_sides import ratio_words
from ragspine_nb.agent.scope.stored_readings import metric_names
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import content_words

__all__ = ["plan_ratio"]


def _one(values: Sequence[str], *fallbacks: Sequence[str]) -> list[str]:
    """A side's own values, else the first fallback that has some."""
    for candidate in (values, *fallbacks):
        if candidate:
            return list(dict.fromkeys(candidate))
    return []


def _side_tasks(side: ParsedIntent, other: ParsedIntent, rest: ParsedIntent,
                ctx: PlanContext, year: str = "") -> list[Task]:
    """The cells one side of a ratio names, completed from the rest of the question."""
    intent, profile = ctx.intent, ctx.profile
    metrics = _one(side.metrics, rest.metrics,
                   other.metrics if len(other.metrics) == 1 else (),
                   intent.metrics if len(intent.metrics) == 1 else ())
    periods = [year] if year else _one([period_label(*p) for p in side.periods],
                   [period_label(*p) for p in rest.periods],
                   [period_label(*p) for p in other.periods],
                   [period_label(*p) for p in intent.periods][:1],
                   [ctx.clar.assumed_slots.get("period", "")])
    entities = _one(side.entities, rest.entities, intent.entities[:1],
                    [profile.home_entity_code])
    channels = _one(side.channels, rest.channels,
                    _whole_column(metrics, other, ctx, (*periods, *entities)),
                    [profile.default_channel])
    if len(periods) != 1 or len(entities) != 1 or not metrics or not periods[0]:
        return []
    if len(metrics) > 1 and len(channels) > 1:
        return []
    return [Task(m, entities[0], periods[0], c) for m in metrics for c in channels]


def _whole_column(metrics: Sequence[str], other: ParsedIntent, ctx: PlanContext,
                  cell: tuple[str, ...]) -> list[str]:
    """The other side's one column, for rows stated only in columns, each with a figure there.

    "What percentage of the total unrealized gain is generated from U.S. government
    obligations in 2018?": the row has no figure of its own, only its amortized cost,
    unrealized gains … — the part is its figure in the whole's column. A row with a figure
    of its own keeps it (nothing read before is read otherwise).
    """
    if not metrics or len(other.channels) != 1 or len(cell) != 2:
        return []  # one column, one period and one company
    period, entity = cell
    for metric in metrics:
        stated = {f.channel for f in ctx.store.iter_facts(metric_code=metric, entity=entity)
                  if period_label(f.period_type, f.period) == period}
        if ctx.profile.default_channel in stated or other.channels[0] not in stated:
            return []
    return [other.channels[0]]


def _whole_named_once(num: ParsedIntent,
                      den: ParsedIntent) -> tuple[ParsedIntent, ParsedIntent]:
    """The sides without the whole one of them names beside its own row.

    "Net sales from total electronic components as a percentage of total net sales":
    the numerator names the denominator's one row as the group its row belongs to —
    the numerator is the other row. "Operating leases of more than 5 years in the total
    operating leases": the denominator names the numerator's one row beside a "Total"
    row — it is that row (in its total column).
    """
    def without(side: ParsedIntent, whole: str) -> ParsedIntent:
        return replace(side, metrics=tuple(m for m in side.metrics if m != whole))

    def only(side: ParsedIntent, row: str) -> ParsedIntent:
        return replace(side, metrics=(row,))

    if len(den.metrics) == 1 and len(num.metrics) == 2 and den.metrics[0] in num.metrics:
        return without(num, den.metrics[0]), den
    if len(num.metrics) == 1 and len(den.metrics) > 1 and num.metrics[0] in den.metrics:
        return num, only(den, num.metrics[0])
    return num, den


def _completed(num: ParsedIntent, den: ParsedIntent, read: ParsedIntent, part: str,
               profile: DomainProfile) -> ParsedIntent:
    """A part named by a qualifier only, read with the whole's words before it (``read``).

    "What percentage of revenue came from Greater China?": "from Greater China" may name
    rows of other wholes too (earnings, assets … of Greater China). Read as "revenue from
    Greater China" it is the whole's own row in the Greater China column, or one row
    named with the whole's words ("Revenues: Greater China"): that cell is the part. A
    part named after "from" that the whole's words do not name so (they read the whole
    and another row, "Greater China" under earnings) is no part of it: no side is read,
    and the share is refused rather than another whole's row divided by this one.
    """
    if len(den.metrics) != 1 or den.channels:
        return num
    if read.metrics == den.metrics and len(read.channels) == 1:
        return read  # the whole's row in the part's column
    named_from = part.lstrip(" ,").startswith("from ")
    if not named_from or len(num.metrics) == 1 and num.metrics == read.metrics:
        return num
    if len(num.metrics) == 1 and _names_whole(profile, num.metrics[0], den.metrics[0]):
        return num  # "came from services revenue": a row named with the whole's words
    if len(read.metrics) == 1 and read.metrics != den.metrics:
        # one row named with the whole's words; a column read from the row's own words
        # ("Revenues: North America" beside a "North America" column) is no column asked
        own = content_words(" ".join(metric_names(profile, read.metrics[0])))
        columns = [c for c in read.channels if not _column_words(profile, c) <= own]
        return replace(read, channels=tuple(columns), channel=columns[0] if columns else None)
    return replace(num, metrics=())


def _names_whole(profile: DomainProfile, row: str, whole: str) -> bool:
    """Whether a name of ``row`` holds every word of the whole's ("Services revenue")."""
    words = content_words(metric_label(profile, whole)) - {"total"}
    return bool(words) and row != whole and any(
        words <= content_words(name) for name in metric_names(profile, row))


def _column_words(profile: DomainProfile, code: str) -> frozenset[str]:
    """The words of a column's shortest name (its code's where it has none)."""
    spec = profile.channels.get(code)
    names = [n for n in (spec.synonyms if spec else ()) if n] or [code.replace("_", " ")]
    return frozenset(content_words(min(names, key=len)))


def _apart(profile: DomainProfile, codes: Sequence[str]) -> bool:
    """Whether the rows' names share no word ("Total" aside): no name runs into another."""
    seen: set[str] = set()
    for code in codes:
        words = content_words(metric_label(profile, code)) - {"total"}
        if words & seen:
            return False
        seen |= words
    return True


def _sides_clear(top: Sequence[Task], bottom: Sequence[Task],
                 parts: tuple[ParsedIntent, ParsedIntent, ParsedIntent],
                 profile: DomainProfile) -> bool:
    """Whether the two sides name their cells clearly enough to divide them."""
    num, den, rest = parts
    # a total or its part? named unclearly — unless the total is the other side and the
    # names run into each other nowhere ("revenue from services as a percentage of total
    # revenue"; not "prepaid expenses and other current assets" beside "Total prepaid
    # expenses and other")
    whole = set(num.read_as_part[:-1]) <= {t.metric for t in bottom} and \
        _apart(profile, num.read_as_part)
    if den.read_as_part or (num.read_as_part and not whole):
        return False
    if not top or len(bottom) != 1 or bottom[0] in top:
        return False
    if not den.channels and not rest.channels and bottom[0].metric not in \
            {t.metric for t in top} and \
            any(t.channel != profile.default_channel for t in top):
        # "A due in less than one year as a percentage of the total": the total in that
        # column too, or the whole total? Never pick
        return False
    return len(top) == 1 or num.list_cue


def plan_ratio(op: Operation, ctx: PlanContext) -> Plan | NotComputed:
    """The cells of a ratio's or share's two sides, one run per fiscal year asked."""
    split = op.split
    if split is None:
        return NotComputed("sides", ("",))
    text = fold(ctx.intent.raw_question)
    (a, b), (c, d) = split.numerator, split.denominator
    asked = ratio_words(text)  # "what share of": the operation's words, no column
    outside = "".join(" " if a <= i < b or c <= i < d or any(x <= i < y for x, y in asked)
                      else ch for i, ch in enumerate(text))
    num, den = _whole_named_once(ctx.parse(text[a:b]), ctx.parse(text[c:d]))
    num = _completed(num, den, ctx.parse(f"{text[c:d]} {text[a:b]}"), text[a:b], ctx.profile)
    rest = ctx.parse(outside) if outside.strip() else replace(num, metrics=(), periods=(),
                                                              channels=(), entities=())
    said = f"{text[a:b]!r} / {text[c:d]!r}"
    years = _yearly(ctx.intent, num, den, rest) or [""]
    if op.over_range and len(years) == 2:  # "from FY2016 to FY2018": every year in it
        years = year_span(ctx.intent) or years
    if op.then and len(years) < 2 or op.then == "change" and len(years) != 2:
        # an average of one year's share; a change of shares over other than two years
        return NotComputed("operands", (str(len(years) if years != [""] else 1),))
    tasks: list[Task] = []
    for year in years:  # one numerator / denominator run per year asked, same rows
        top = _side_tasks(num, den, rest, ctx, year)
        bottom = _side_tasks(den, num, rest, ctx, year)
        if not _sides_clear(top, bottom, (num, den, rest), ctx.profile):
            return NotComputed("sides", (said,))
        tasks += [*top, *bottom]
    return Plan(op, tuple(tasks), numerators=len(tasks) // len(years) - 1, groups=len(years))


def _yearly(intent: ParsedIntent, *parts: ParsedIntent) -> list[str]:
    """The fiscal years a ratio is asked for, one result each ("… in 2018 and 2019").

    Two or more fiscal years named, and every part of the question naming either none
    of them or all of them; else none (the sides name their own periods).
    """
    named = [period_label(*p) for p in intent.periods]
    if len(set(named)) < 2 or any(p[0] != "FY" for p in intent.periods):
        return []
    every = set(named)
    if any(part.periods and {period_label(*p) for p in part.periods} != every
           for part in parts):
        return []
    return list(dict.fromkeys(named))
