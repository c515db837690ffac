"""Structured answers: the headline figures of the fact channel's results, and their text.

A found fact is one ``lookup`` figure (``stated_change`` when it is a change the report
states). An operation the question asks for (a change, a difference, a percentage
change: :mod:`ragspine_nb.agent.compute.operations`) is computed over two found cells of one row
and is one figure with both operands and its derivation. What is not a figure is said
as such: a conflict lists every document's value, a miss names what was asked, an
operation not computed says why and lists the inputs found — one operand is never the
answer. The text of every figure is rendered from the figure (:func:`render_figures`),
so what is scored is what is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ragspine_nb.agent.compute.operations import (
    NotComputed,
    Operation,
    compute,
    in_points,
    shown_decimals,
)
from ragspine_nb.agent.compute.task import Slot, Task
from ragspine_nb.agent.reading.labels import column_label, entity_label, metric_label, slot_label
from ragspine_nb.agent.write.answer_labels import SLOT_FIELDS, compared_label, slots_of
from ragspine_nb.agent.write.render import result_sources
from ragspine_nb.agent.write.templates import (
    TEXT,
    conflict_line,
    conflicted_text,
    figure_line,
    is_amount,
    miss_line,
    missing_text,
    not_computed_line,
    resolved_note,
    statement_text,
    value_text,
    where_text,
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
from ragspine_nb.period_codes import normalize_period, period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.units import unit_text

__all__ = ["StructuredAnswer", "structured_answer", "figure_label", "figure_text",
           "amount_figure", "shown_value", "render_figures", "layout", "fact_line",
           "input_lines", "cited"]


@dataclass(frozen=True)
class StructuredAnswer:
    """The figures a structured answer asserts, its text and the sources it cites."""

    figures: tuple[Figure, ...]
    text: str
    sources: list[dict[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class _Block:
    """One item of an answer: a figure's text, or a line that asserts no figure."""

    text: str
    figure: Figure | None = None


# ------------------------------------------------------------------ labels
def _sep(lang: str) -> str:
    return "，" if lang == "zh" else ", "


def _what(profile: DomainProfile, metric: str, entity: str, channel: str,
          lang: str = "en") -> str:
    """``ACME Hong Kong New sales (agency channel)``: entity, metric and a non-default column."""
    name = metric_label(profile, metric)
    chan = "" if channel == profile.default_channel \
        else f" ({column_label(profile, channel, lang)})"
    return f"{entity_label(profile, entity)} {name}{chan}"


def miss_label(result: NotFoundResult, profile: DomainProfile, lang: str) -> str:
    """What a lookup looked for, in the profile's words: ``ACME Hong Kong Revenue, FY2026``."""
    what = _what(profile, result.metric_code, result.entity, result.channel, lang)
    return f"{what}{_sep(lang)}{period_label(result.period_type, result.period)}"


def figure_label(fact: Fact, profile: DomainProfile, lang: str) -> str:
    """What a stored level is, in words: ``ACME Hong Kong Revenue, FY2025``."""
    what = _what(profile, fact.metric_code, fact.entity, fact.channel, lang)
    return f"{what}{_sep(lang)}{period_label(fact.period_type, fact.period)}"


def fact_line(fact: Fact, profile: DomainProfile, lang: str) -> str:
    """``the company Revenue, FY2019: 1,405 USD_M (source: t.csv · cell=B3)``."""
    sep = "：" if lang == "zh" else ": "
    return f"{figure_label(fact, profile, lang)}{sep}{statement_text(fact, lang)}"


def input_lines(facts: Sequence[Fact], profile: DomainProfile, lang: str) -> list[str]:
    """Cells found for what was not computed, one line each (inputs, never the answer)."""
    return [f"  {TEXT['input_found'][lang]}{fact_line(f, profile, lang)}" for f in facts]


def cited(facts: Sequence[Fact]) -> list[dict[str, str]]:
    """The sources of ``facts``, each once, in order (an answer's ``sources``)."""
    return [s.to_dict() for s in dict.fromkeys(f.source for f in facts)]


def _operation_label(a: Fact, b: Fact, operation: Operation, axis: str,
                     profile: DomainProfile, lang: str) -> str:
    """``ACME Hong Kong Revenue, change from FY2024 to FY2025`` (a is the later / first)."""
    points = in_points(operation, a.unit)
    pct = operation.kind == "percent_change" and not points
    if axis == "period":
        what = _what(profile, a.metric_code, a.entity, a.channel, lang)
        early, late = period_label(b.period_type, b.period), period_label(a.period_type,
                                                                          a.period)
        if a.period < b.period:  # "how much larger in 2022 than in 2023": as asked
            return compared_label(what, late, early, pct, lang)
        if operation.compound:
            return f"{what}，{early}至{late}年复合增长率" if lang == "zh" else \
                f"{what}, compound annual growth rate from {early} to {late}"
        if lang == "zh":
            return f"{what}，{late}较{early}{'变动率' if pct else '变动'}"
        said = "percentage change" if pct else "change in percentage points" if points \
            else "change"
        return f"{what}, {said} from {early} to {late}"
    period = period_label(a.period_type, a.period)
    if axis == "channel":
        what, names = _what(profile, a.metric_code, a.entity, profile.default_channel), \
            (column_label(profile, a.channel, lang), column_label(profile, b.channel, lang))
    elif axis == "metric":
        what, names = entity_label(profile, a.entity), (
            _what(profile, a.metric_code, "", a.channel, lang).strip(),
            _what(profile, b.metric_code, "", b.channel, lang).strip())
    else:
        what, names = _what(profile, a.metric_code, "", a.channel, lang).strip(), (
            entity_label(profile, a.entity), entity_label(profile, b.entity))
    sep = _sep(lang)
    if lang == "zh":
        return f"{what}{sep}{names[0]} − {names[1]}{'（变动率）' if pct else ''}{sep}{period}"
    return (f"{what}{sep}{names[0]} − {names[1]}"
            f"{' (percentage difference)' if pct else ''}{sep}{period}")


# ----------------------------------------------------------------- rendering
#: Operations whose value is no amount of money (a ratio, a percentage, a count).
_PLAIN_RESULTS = frozenset({"ratio", "share", "count", "percent_change"})


def _operand_name(fact: Fact, operands: Sequence[Fact], lang: str,
                  profile: DomainProfile | None) -> str:
    """What tells one operand from the others: its row, entity or column, and period.

    Each in the profile's words when there is one (``Total assets``), else its code.
    """
    parts = [getattr(fact, SLOT_FIELDS[s]) if profile is None
             else slot_label(profile, s, getattr(fact, SLOT_FIELDS[s]), lang)
             for s in slots_of(operands) if s != "period"]
    return _sep(lang).join([*parts, period_label(fact.period_type, fact.period)])


def amount_figure(figure: Figure) -> bool:
    """Whether a figure is an amount of money (not a ratio, a percentage or a count).

    An amount keeps its operands' unit (a formula over amounts giving days does not).
    """
    return bool(figure.operands) and figure.operation not in _PLAIN_RESULTS \
        and is_amount(figure.operands[0]) \
        and unit_text(figure.operands[0].unit) == unit_text(figure.unit)


def shown_value(figure: Figure) -> float:
    """A figure's value as the answer writes it (an average or a ratio rounded)."""
    places = shown_decimals(figure.operation, figure.operands, figure.value)
    return figure.value if places is None else round(figure.value, places) + 0.0


def figure_text(figure: Figure, lang: str, amount: bool | None = None,
                profile: DomainProfile | None = None) -> str:
    """One figure as text: label, value with its unit, source; then how it was computed.

    A computed figure is followed by its derivation and each operand's value with its
    document and locator (continuation lines are indented). ``amount``: whether the
    value is an amount of money (``None``: read from the operation and first operand).
    ``profile`` names the operands in its words (their codes without one).
    """
    if amount is None:
        amount = amount_figure(figure)
    value = value_text(shown_value(figure), figure.unit, lang, amount)
    if not figure.derivation and len(figure.operands) == 1:
        return figure_line(figure.label, value, where_text(figure.operands[0], lang), lang)
    docs = "; ".join(dict.fromkeys(s.doc for s in figure.sources))
    lines = [figure_line(figure.label, value, docs, lang)]
    if figure.derivation:
        lines.append("  " + TEXT["derivation"][lang].format(d=figure.derivation))
    sep = "：" if lang == "zh" else ": "
    lines += [f"  - {_operand_name(f, figure.operands, lang, profile)}{sep}"
              f"{statement_text(f, lang)}"
              for f in figure.operands]
    return "\n".join(lines)


def layout(blocks: Sequence[str], lang: str) -> str:
    """One block as it is; several under a header, one bullet each."""
    if len(blocks) == 1:
        return blocks[0]
    out = [TEXT["comparison"][lang]] if blocks else []
    for block in blocks:
        first, *rest = block.split("\n")
        out += [f"- {first}", *(f"  {line}" for line in rest)]
    return "\n".join(out)


def render_figures(figures: Sequence[Figure], lang: str,
                   profile: DomainProfile | None = None) -> str:
    """The text of an answer that asserts exactly these figures (and nothing else)."""
    return layout([figure_text(f, lang, profile=profile) for f in figures], lang)


# ------------------------------------------------------------------ results
def _level(result: QueryResult, profile: DomainProfile, lang: str,
           operation: str = "lookup") -> _Block:
    """A result on its own: a found fact is a figure; a conflict or a miss is not."""
    if isinstance(result, FoundResult):
        f = result.fact
        figure = Figure(f.value, unit_text(f.unit), figure_label(f, profile, lang), operation,
                        (f,), (f.source, *result.also_stated_by))
        note = resolved_note(result.resolution, lang) if result.resolution else ""
        return _Block(figure_text(figure, lang, profile=profile) + note, figure)
    if isinstance(result, ConflictResult):
        return _Block(conflict_line(result, entity_label(profile, result.entity),
                                    profile.default_channel, lang))
    return _Block(miss_line(result, lang, lambda r: miss_label(r, profile, lang)))


_SLOTS: tuple[Slot, ...] = ("period", "channel", "metric", "entity")


def _axis(tasks: Sequence[Task]) -> tuple[Slot, tuple[Slot, ...]]:
    """What varies between an operation's operands and the task keys that must agree.

    Two periods first (a change over time), else two columns, two rows, two entities
    (a difference between named figures, in the question's order).
    """
    for axis in _SLOTS:
        if len({t.slot(axis) for t in tasks}) > 1:
            return axis, tuple(k for k in _SLOTS if k != axis)
    return "period", _SLOTS


def _groups(tasks: Sequence[Task], profile: DomainProfile, compared: str = ""
            ) -> tuple[str, list[list[int]]]:
    """The operands of each operation (task indices).

    Two periods of one row (the later first), or two columns of one period (in the
    question's order); ``compared`` (:attr:`Operation.compared`): in the question's
    order, or the other way (``second``).
    """
    axis, keys = _axis(tasks)
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, t in enumerate(tasks):
        groups.setdefault(tuple(t.slot(k) for k in keys), []).append(i)
    if compared:
        return axis, [g[::-1] if compared == "second" else g for g in groups.values()]
    if axis == "period":
        def later(i: int) -> tuple[str, str]:
            return normalize_period(profile, tasks[i].period) or ("", tasks[i].period)
        return axis, [sorted(g, key=later, reverse=True) for g in groups.values()]
    return axis, list(groups.values())


def _ambiguous(tasks: Sequence[Task], operation: Operation,
               profile: DomainProfile, lang: str) -> str | None:
    """Whether a difference *between* named figures over two periods is unclear.

    "The difference between revenue and operating profit in FY2025" names two rows and,
    once a second period is assumed, also reads as each row's change: never pick.
    """
    if not operation.between or len({t.period for t in tasks}) < 2:
        return None
    named = [_what(profile, m, e, profile.default_channel)
             for m, e in dict.fromkeys((t.metric, t.entity) for t in tasks)]
    if len(named) < 2:
        return None
    periods = sorted({t.period for t in tasks},
                     key=lambda p: normalize_period(profile, p) or ("", p))
    names = ("、" if lang == "zh" else " and ").join(named)
    why = NotComputed("ambiguous", (names, periods[0], periods[-1])).text(lang)
    return not_computed_line("difference", why, lang)


def _why_not(rs: Sequence[QueryResult], axis: str, profile: DomainProfile, lang: str) -> str:
    """Why operands that are not two found cells give no figure."""
    if len(rs) != 2:
        return NotComputed("operands", (str(len(rs)),)).text(lang)
    parts = []
    missing = [r for r in rs if isinstance(r, NotFoundResult | UnrecognizedParamResult)]
    if missing:
        parts.append(missing_text(missing, lang, lambda r: miss_label(r, profile, lang)))
    conflicted = [r for r in rs if isinstance(r, ConflictResult)]
    if conflicted:
        parts.append(conflicted_text([period_label(r.period_type, r.period)
                                      if axis == "period" else column_label(profile, r.channel,
                                                                            lang)
                                      for r in conflicted], lang))
    return ("；" if lang == "zh" else "; ").join(parts)


def _operation(rs: Sequence[QueryResult], operation: Operation, axis: str,
               profile: DomainProfile, lang: str, list_inputs: bool) -> list[_Block]:
    """One operation over its operands: a computed figure, or why not and what was found."""
    found = [r.fact for r in rs if isinstance(r, FoundResult)]
    why = _why_not(rs, axis, profile, lang)
    if len(rs) == 2 and len(found) == 2:
        a, b = found
        outcome = NotComputed("periods", (period_label(a.period_type, a.period),
                                          period_label(b.period_type, b.period))) \
            if axis == "period" and a.period_type != b.period_type else compute(operation, found)
        if not isinstance(outcome, NotComputed):
            figure = Figure(outcome.value, unit_text(outcome.unit),
                            _operation_label(a, b, operation, axis, profile, lang),
                            operation.kind, (a, b), tuple(dict.fromkeys((a.source, b.source))),
                            outcome.derivation)
            return [_Block(figure_text(figure, lang, profile=profile), figure)]
        why = outcome.text(lang)
    lines = [not_computed_line("change" if axis == "period" else "difference", why, lang)]
    if list_inputs:  # what was found is listed as an input, never as the answer
        lines += [f"  {TEXT['input_found'][lang]}{_level(r, profile, lang).text}"
                  if isinstance(r, FoundResult) else f"  {_level(r, profile, lang).text}"
                  for r in rs if isinstance(r, FoundResult | ConflictResult)]
    return [_Block("\n".join(lines))]


def _crossed(tasks: Sequence[Task], results: Sequence[QueryResult],
             operation: Operation, profile: DomainProfile, lang: str) -> _Block:
    """Several rows' changes where their total is named too: none computed, inputs listed.

    "The percentage change in total net sales of A and B from 2018 to 2019" may mean
    each row's change or the change of their total: the question does not say which.
    """
    named = [_what(profile, m, e, c, lang).strip()
             for m, e, c in dict.fromkeys((t.metric, t.entity, t.channel) for t in tasks)]
    why = NotComputed("cross", (("、" if lang == "zh" else "; ").join(named),)).text(lang)
    lines = [not_computed_line("change", why, lang)]
    lines += [f"  {TEXT['input_found'][lang]}{_level(r, profile, lang).text}"
              for r in results if isinstance(r, FoundResult)]
    return _Block("\n".join(lines))


def structured_answer(tasks: Sequence[Task], results: Sequence[QueryResult],
                      operation: Operation | None, profile: DomainProfile, lang: str,
                      level_operation: str = "lookup") -> StructuredAnswer:
    """The figures and text of the fact channel's results (``results[i]`` answers ``tasks[i]``).

    Without an operation every found fact is a figure (``level_operation``: ``lookup``,
    or ``stated_change`` for a change the report states). With one, the operands are
    grouped (two periods of one row, or two columns of one period) and each group is one
    computed figure or a line saying why not; a comparison (``with_levels``) also
    asserts the levels.
    """
    if len(tasks) != len(results):
        raise ValueError(f"{len(results)} results for {len(tasks)} tasks")
    blocks: list[_Block] = []
    if operation is None or operation.with_levels:
        blocks += [_level(r, profile, lang, level_operation) for r in results]
    unclear = _ambiguous(tasks, operation, profile, lang) if operation is not None else None
    if unclear is not None:
        blocks.append(_Block(unclear))
    elif operation is not None:
        axis, groups = _groups(tasks, profile, operation.compared)
        if axis != "period" and not (operation.between or operation.with_levels):
            # a change from one named column to another ("between the first and the
            # second quarter"): the first named is the base, as the earlier year is
            groups = [g[::-1] for g in groups]
        computable = [g for g in groups if all(isinstance(results[i], FoundResult) for i in g)]
        if len(computable) > 1 and not (operation.each or operation.with_levels):
            blocks.append(_crossed(tasks, results, operation, profile, lang))
            groups = []
        for group in groups:
            blocks += _operation([results[i] for i in group], operation, axis, profile, lang,
                                 list_inputs=not operation.with_levels)
    sources: list[dict[str, str]] = []
    for r in results:
        sources += [s for s in result_sources(r) if s not in sources]
    return StructuredAnswer(tuple(b.figure for b in blocks if b.figure is not None),
                            layout([b.text for b in blocks], lang), sources)
