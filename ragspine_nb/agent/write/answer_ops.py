"""Answers to planned operations: averages, sums, ratios, shares, counts, max / min.

Each answer is computed over the found cells of its plan
(:mod:`ragspine_nb.agent.compute.operation_plan`) and is one headline :class:`Figure` with
every operand, its source and the derivation — or, when an operand is missing, in
conflict or in another unit, no figure: a line saying why and the inputs found (value
and source), never one operand as the answer. A label question ("In which year was X
higher?") names the winner — or the periods passing its test, or the periods a row is
reported for — as text, with the compared values shown as inputs: a year is not a
headline number, so such answers assert no figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.agent.compute.operation_plan import Plan, varying_slots
from ragspine_nb.agent.compute.operations import (
    PERCENT_DECIMALS,
    Computed,
    NotComputed,
    Operation,
    aggregate,
    change_of_change,
    ratio,
    shown_decimals,
    shown_text,
)
from ragspine_nb.agent.compute.operations_over import (
    count_passing,
    gap_of_means,
    passing,
    pick_extreme,
    spread,
    trend,
)
from ragspine_nb.agent.compute.plan_cells import slot_names
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.write.answer import (
    StructuredAnswer,
    fact_line,
    figure_text,
    input_lines,
    layout,
    miss_label,
)
from ragspine_nb.agent.write.answer_labels import (
    OPERATION_WORDS,
    change_label,
    common_of,
    count_label,
    gap_label,
    joined,
    name_of,
    operation_label,
    period_tail,
    ratio_label,
    slots_of,
)
from ragspine_nb.agent.write.render import result_sources
from ragspine_nb.agent.write.templates import (
    PREMISE_POINTS,
    TEXT,
    conflicted_text,
    format_value,
    is_amount,
    missing_text,
    not_computed_line,
    value_text,
)
from ragspine_nb.core import (
    ConflictResult,
    Fact,
    Figure,
    FoundResult,
    NotFoundResult,
    QueryResult,
    UnrecognizedParamResult,
)
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.units import unit_text

__all__ = ["plan_answer", "refusal_answer", "cross_refusal", "OPERATION_WORDS"]

# ------------------------------------------------------------------ refusals
def _inputs(results: Sequence[QueryResult], profile: DomainProfile, lang: str) -> list[str]:
    """What was found, listed as inputs (never as the answer)."""
    lines = []
    for r in results:
        if isinstance(r, FoundResult):
            lines += input_lines([r.fact], profile, lang)
        elif isinstance(r, ConflictResult):
            lines.append("  " + conflicted_text([period_label(r.period_type, r.period)], lang))
    return lines


def _why_missing(results: Sequence[QueryResult], profile: DomainProfile, lang: str) -> str:
    missing = [r for r in results if isinstance(r, NotFoundResult | UnrecognizedParamResult)]
    conflicted = [r for r in results if isinstance(r, ConflictResult)]
    parts = [missing_text(missing, lang, lambda r: miss_label(r, profile, lang))] \
        if missing else []
    if conflicted:
        parts.append(conflicted_text([f"{r.metric_code} "
                                      f"{period_label(r.period_type, r.period)}"
                                      for r in conflicted], lang))
    return ("；" if lang == "zh" else "; ").join(parts)


def refusal_answer(kind: str, why: NotComputed | str, results: Sequence[QueryResult],
                   profile: DomainProfile, lang: str) -> StructuredAnswer:
    """No figure: the operation, why not, and the inputs found with their sources."""
    reason = why.text(lang) if isinstance(why, NotComputed) else why
    lines = [not_computed_line(kind, reason, lang), *_inputs(results, profile, lang)]
    return StructuredAnswer((), "\n".join(lines), _sources(results))


def _sources(results: Sequence[QueryResult]) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for r in results:
        out += [s for s in result_sources(r) if s not in out]
    return out


# ------------------------------------------------------------------ answers
def _figure(kind: str, outcome: Computed, operands: Sequence[Fact], label: str) -> Figure:
    sources = tuple(dict.fromkeys(f.source for f in operands))
    return Figure(outcome.value, unit_text(outcome.unit), label, kind, tuple(operands),
                  sources, outcome.derivation)


def _label_answer(op: Operation, facts: Sequence[Fact], profile: DomainProfile,
                  lang: str) -> str | NotComputed:
    """A which-period / which-item answer as text: the winner or the periods passing."""
    varying = slots_of(facts) or ["period"]
    common = common_of(facts, varying, profile)
    names = [name_of(f, varying, profile) for f in facts]
    if op.kind in ("max", "min"):
        best = pick_extreme(op.kind, facts, op.signed)
        if isinstance(best, NotComputed):
            return best
        word = {"max": ("highest", "最高"), "min": ("lowest", "最低")}[op.kind]
        if "period" not in varying:  # items of one period: say which period and whose
            where = ", ".join(p for p in (common, period_tail(facts, varying, "en")[2:]) if p)
            if lang == "zh":
                return f"{names[best]}：在所比较的{len(facts)}项中{word[1]}（{where}）。"
            return f"{names[best]}: the {word[0]} of the {len(facts)} compared ({where})."
        if lang == "zh":
            return f"{names[best]}：{common}在所比较的{len(facts)}项中{word[1]}。"
        return f"{names[best]}: {common} is the {word[0]} of the {len(facts)} compared."
    if op.kind == "trend":
        return _trend_text(op, facts, profile, lang)
    if op.kind == "spread":
        return _spread_text(op, facts, profile, lang)
    if op.test is None:
        if lang == "zh":
            return f"{common}列示的期间：{joined(names, lang)}。"
        return f"{common} is reported for {joined(names, lang)}."
    passed = passing(facts, op.test)
    if isinstance(passed, NotComputed):
        return passed
    hits = [name_of(f, varying, profile) for f in passed]
    if lang == "zh":
        return f"{joined(hits, lang) if hits else '无'}：{common} {op.test.text}。"
    if not hits:
        return f"None: {common} is not {op.test.text} in any of {joined(names, lang)}."
    return f"{joined(hits, lang)}: {common} is {op.test.text} there (of " \
           f"{joined(names, lang)})."


def _trend_text(op: Operation, facts: Sequence[Fact], profile: DomainProfile,
                lang: str) -> str | NotComputed:
    """Which way a row moved, first period to last: yes / no when asked one way."""
    moved = trend(facts)
    if isinstance(moved, NotComputed):
        return moved
    common = common_of(facts, ["period"], profile)
    (a, pa), (b, pb) = ((value_text(f.value, f.unit, lang, is_amount(f)),
                         period_label(f.period_type, f.period)) for f in (moved.first, moved.last))
    if lang == "zh":
        word = {"up": "上升", "down": "下降", "flat": "持平"}[moved.way]
        head = ("是" if moved.way == op.direction else "否") if op.direction else word
        return f"{head}：{common}从{pa}的{a}{word}至{pb}的{b}（{moved.change}）。"
    word = {"up": "rose", "down": "fell", "flat": "was unchanged"}[moved.way]
    head = ("Yes" if moved.way == op.direction else "No") if op.direction else \
        {"up": "Rose", "down": "Fell", "flat": "Unchanged"}[moved.way]
    return f"{head}: {common} {word} from {a} in {pa} to {b} in {pb} ({moved.change})."


def _spread_text(op: Operation, facts: Sequence[Fact], profile: DomainProfile,
                 lang: str) -> str | NotComputed:
    """How much a row moved from year to year: its largest move and its extremes.

    With a stated bound ("not fluctuating more than roughly 2%") whether every move is
    within it; without one, whether that is consistent is left to the reader.
    """
    moved = spread(facts)
    if isinstance(moved, NotComputed):
        return moved
    within = moved.within(op.test) if op.test is not None else None
    if isinstance(within, NotComputed):
        return within
    common = common_of(facts, ["period"], profile)
    a, b, size = moved.largest
    unit = PREMISE_POINTS[lang if moved.points else "pct"]
    step = f"{size:+.2f}{unit}"
    pa, pb, low, high, first, last = (period_label(f.period_type, f.period) for f in (
        a, b, moved.low, moved.high, facts[0], facts[-1]))
    lo, hi = (value_text(f.value, f.unit, lang, is_amount(f)) for f in (moved.low, moved.high))
    if lang == "zh":
        bound = f"{format_value(op.test.value)}{unit}" if op.test else ""
        head = "" if within is None else \
            (f"是，每年波动均在{bound}以内：" if within else f"否，并非每年均在{bound}以内：")
        return f"{head}{common}，{first}至{last}逐年波动最大为{step}（{pa}至{pb}）；" \
               f"最低{lo}（{low}），最高{hi}（{high}）。"
    bound = f"{format_value(op.test.value)}{unit}" if op.test else ""
    head = "" if within is None else \
        (f"Within {bound} every year: " if within else f"Not within {bound} every year: ")
    tail = "" if within is not None else " Whether that is consistent is left to the reader."
    return f"{head}{common}, {first}–{last}: the largest move from one reported year to the " \
           f"next was {step} ({pa} to {pb}); lowest {lo} in {low}, highest {hi} in " \
           f"{high}.{tail}"


def _computed(op: Operation, plan: Plan, facts: Sequence[Fact], profile: DomainProfile,
              lang: str) -> NotComputed | tuple[Computed, str]:
    """The operation's value and its figure's label."""
    if op.kind == "average" and op.between:  # two rows' averages over the same periods
        half = len(facts) // 2
        outcome = gap_of_means(facts[:half], facts[half:])
        return outcome if isinstance(outcome, NotComputed) else \
            (outcome, gap_label(facts[:half], facts[half:], profile, lang))
    if op.kind in ("average", "sum"):
        outcome = aggregate(op.kind, facts)
        return outcome if isinstance(outcome, NotComputed) else \
            (outcome, operation_label(op.kind, facts, profile, lang))
    if op.kind in ("ratio", "share"):
        top, bottom = facts[: plan.numerators], facts[plan.numerators]
        outcome = ratio(top, bottom, percent=op.kind == "share")
        return outcome if isinstance(outcome, NotComputed) else \
            (outcome, ratio_label(op.kind, top, bottom, profile, lang))
    if op.kind == "change_of_change":
        outcome = change_of_change(op.inner, facts)
        if isinstance(outcome, NotComputed):
            return outcome
        return outcome, change_label(op, facts, profile, lang)
    if op.kind == "count":
        names = [name_of(f, slots_of(facts) or ["period"], profile) for f in facts]
        outcome = count_passing(facts, op.test, names) if op.test is not None else \
            Computed(float(len(facts)), "", f"{joined(names, lang)} → {len(facts)}")
        if isinstance(outcome, NotComputed):
            return outcome
        return outcome, count_label(op, facts, profile, lang)
    best = pick_extreme(op.kind, facts, op.signed)
    if isinstance(best, NotComputed):
        return best
    winner = facts[best]
    shown = ", ".join(f"{name_of(f, slots_of(facts), profile)} {format_value(f.value)}"
                      for f in facts)
    return (Computed(winner.value, winner.unit,
                     f"{op.kind}({shown}) = {format_value(winner.value)}"),
            operation_label(op.kind, facts, profile, lang))


def plan_answer(plan: Plan, results: Sequence[QueryResult], profile: DomainProfile,
                lang: str) -> StructuredAnswer:
    """The figure (or the label text, or why not) of a planned operation."""
    op = plan.operation
    if len(results) != len(plan.tasks):
        raise ValueError(f"{len(results)} results for {len(plan.tasks)} tasks")
    if any(not isinstance(r, FoundResult) for r in results):
        return refusal_answer(op.kind, _why_missing(results, profile, lang), results, profile,
                              lang)
    facts = [r.fact for r in results if isinstance(r, FoundResult)]
    if op.answer == "label":
        said = _label_answer(op, facts, profile, lang)
        if isinstance(said, NotComputed):
            return refusal_answer(op.kind, said, results, profile, lang)
        head = TEXT["compared"][lang]
        body = [said, head, *(f"  - {fact_line(f, profile, lang)}" for f in facts)]
        return StructuredAnswer((), "\n".join(body), _sources(results))
    if plan.groups > 1:
        return _by_year(plan, facts, results, profile, lang)
    outcome = _computed(op, plan, facts, profile, lang)
    if isinstance(outcome, NotComputed):
        return refusal_answer(op.kind, outcome, results, profile, lang)
    figure = _figure(op.kind, outcome[0], facts, outcome[1])
    return StructuredAnswer((figure,), layout([figure_text(figure, lang, profile=profile)],
                                              lang),
                            _sources(results))


def _by_year(plan: Plan, facts: Sequence[Fact], results: Sequence[QueryResult],
             profile: DomainProfile, lang: str) -> StructuredAnswer:
    """A ratio / share asked for several years: one figure each, or their average."""
    op, size = plan.operation, len(facts) // plan.groups
    figures = []
    for g in range(plan.groups):
        run = facts[g * size:(g + 1) * size]
        outcome = _computed(op, replace(plan, tasks=plan.tasks[g * size:(g + 1) * size],
                                        groups=1), run, profile, lang)
        if isinstance(outcome, NotComputed):
            return refusal_answer(op.kind, outcome, results, profile, lang)
        figures.append(_figure(op.kind, outcome[0], run, outcome[1]))
    if op.then:
        figures = [_over_years(op, figures, facts, profile, lang)]
    texts = [figure_text(f, lang, profile=profile) for f in figures]
    return StructuredAnswer(tuple(figures), layout(texts, lang), _sources(results))


def _over_years(op: Operation, figures: Sequence[Figure], facts: Sequence[Fact],
                profile: DomainProfile, lang: str) -> Figure:
    """Yearly ratios / shares combined: their mean, or the change from the first year's.

    A change of shares is the later year's less the earlier's, in percentage points.
    """
    kind, values = op.kind, [f.value for f in figures]
    places = max(shown_decimals(kind, facts) or 0, PERCENT_DECIMALS)
    years = [period_label(f.operands[0].period_type, f.operands[0].period) for f in figures]
    first = figures[0].operands
    base = ratio_label(kind, first[:-1], first[-1], profile, lang, period=False)
    pct = "%" if kind == "share" else ""
    if op.then == "change":
        order = sorted(range(len(figures)), key=lambda i: (first[0].period_type, years[i]))
        early, late = order[0], order[-1]
        value = round(values[late] - values[early], places) + 0.0
        derivation = f"{shown_text(values[late], places)}{pct} − " \
                     f"{shown_text(values[early], places)}{pct} = {shown_text(value, places)}"
        label = f"{base}，{years[early]}至{years[late]}变动" if lang == "zh" else \
            f"{base}, change from {years[early]} to {years[late]}"
        return Figure(value, figures[0].unit, label, "difference", tuple(facts),
                      tuple(dict.fromkeys(s for f in figures for s in f.sources)),
                      derivation + (" percentage points" if pct and lang == "en" else
                                    "个百分点" if pct else ""))
    value = sum(values) / len(values)
    terms = " + ".join(shown_text(v, places) for v in values)
    said = joined(years, lang)
    label = f"{base}，{said}{OPERATION_WORDS['zh']['average']}" if lang == "zh" else \
        f"{base}, {OPERATION_WORDS['en']['average']} {said}"
    derivation = f"({terms}) / {len(values)} = {shown_text(value, places)}{pct}"
    return Figure(value, figures[0].unit, label, "average", tuple(facts),
                  tuple(dict.fromkeys(s for f in figures for s in f.sources)), derivation)


def cross_refusal(tasks: Sequence[Task], lang: str,
                  profile: DomainProfile | None = None) -> StructuredAnswer:
    """Several rows and several periods named with nothing that combines them: no figure."""
    names = slot_names(tasks, varying_slots(tasks), profile)
    return StructuredAnswer((), TEXT["not_answered"][lang].format(
        why=NotComputed("cross", (names,)).text(lang)))
