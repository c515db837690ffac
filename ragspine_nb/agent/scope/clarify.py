"""The clarification gateway: refuse, ask back, or answer with stated assumptions.

Order (first match wins): out-of-scope entity (the security gate on the *raw*
question, never the parsed slots) → narrative route needs no slots → missing metric
asks first (fuzzy row candidates are offered, never answered) → several columns named
without a list ask back → a period phrase that names no period of ours (a quarter ended
mid-month, nine months) asks which period is meant → a change in one quarter or
half-year asks which two periods to compare → several metrics named without a list ask
back (unless the operation takes them as its two sides: a ratio, a share, the
difference between them) → a change of several metrics needs its two periods named
(never each one's change over assumed years) → missing entity or period is
assumed (home entity, latest complete fiscal year — or, when the rows asked about have
no figure in it, the latest fiscal year they are reported for; for a change: the year
asked about against the year before, the year it starts from — "since FY2024" — against
the latest, asked back when none is later, or the latest two such years) and the assumption is
surfaced, as are the parser's readings (a total named with its part asks for the part; a
bare balance is the closing one; "each fiscal year" is every year the rows report) →
nothing to clarify.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

from ragspine_nb.agent.gate.security_gate import SecurityGate
from ragspine_nb.agent.reading.intent import ROUTE_COMPOSITE, ROUTE_NARRATIVE, ParsedIntent
from ragspine_nb.agent.reading.labels import column_label, metric_label
from ragspine_nb.agent.reading.operation_cues import aggregate_cue, compound_span
from ragspine_nb.glossary import fold
from ragspine_nb.period_phrases import latest_years
from ragspine_nb.profile import DomainProfile

__all__ = [
    "ClarificationResult",
    "READING_SLOTS",
    "assumption_note",
    "clarify_scope",
    "CLARIFY_NONE",
    "CLARIFY_ASK_FIRST",
    "CLARIFY_ANSWER_WITH_ASSUMPTIONS",
    "CLARIFY_OUT_OF_SCOPE_ENTITY",
]

CLARIFY_NONE = "none"
CLARIFY_ASK_FIRST = "ask_first"
CLARIFY_ANSWER_WITH_ASSUMPTIONS = "answer_with_assumptions"
CLARIFY_OUT_OF_SCOPE_ENTITY = "out_of_scope_entity"
#: Assumed slots saying how the question was read (a part of a total, the closing
#: balance, a row for a metric without figures, "each year" as the years reported), not
#: which period or entity was assumed.
READING_SLOTS = ("part", "closing", "row", "movement", "average", "years")
#: Operations that may be a change over time.
_CHANGES = ("difference", "percent_change")
#: Operations with a numerator and a denominator named apart.
_TWO_SIDED = ("ratio", "share")
#: Words asking for the difference *between* named figures, not a change over time.
_BETWEEN = re.compile(r"(?<![a-z])(?:difference|differences|differ|gap)(?![a-z])|差额|差异|"
                      r"相差|差距")


class _Operation(Protocol):
    """What the gateway reads of an operation the question asks for."""

    @property
    def kind(self) -> str:
        """What is computed (``share``, ``ratio``, ``difference`` …)."""


@dataclass(frozen=True)
class ClarificationResult:
    """The gateway's decision."""

    mode: str
    assumed_slots: dict[str, str] = field(default_factory=dict)
    assumption_note: str = ""
    narrowing_options: tuple[str, ...] = ()
    question: str = ""

    @property
    def assumed_periods(self) -> list[str]:
        """The periods the gateway assumed, as labels (``["FY2014", "FY2015"]``), if any."""
        return [p for p in self.assumed_slots.get("periods", "").split(",") if p]


#: How many metrics an ask-back lists by name (the rest are counted).
_LISTED = 12


def _names(profile: DomainProfile, codes: tuple[str, ...]) -> list[str]:
    """Metric codes as users read them: the label with the code when they differ."""
    out = []
    for code in codes:
        spec = profile.metrics.get(code)
        label = metric_label(profile, code) if spec is not None and spec.label else ""
        out.append(f"{label} ({code})" if label and label != code else code)
    return out


def _ask_metrics(intent: ParsedIntent, profile: DomainProfile) -> ClarificationResult | None:
    """No metric named: offer the near ones (never answered), else the supported ones."""
    zh = intent.language == "zh"
    if intent.metric_candidates:
        # some words matched some metrics: fuzzy, so they are offered, never answered
        names = _names(profile, intent.metric_candidates)
        ask = (f"请问您指的是哪个指标？最接近的：{'、'.join(names)}" if zh
               else f"Which metric do you mean? Closest: {'; '.join(names)}")
        return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=intent.metric_candidates,
                                   question=ask)
    options = tuple(profile.metrics)
    shown, more = _names(profile, options[:_LISTED]), len(options) - _LISTED
    rest = (f" 等（另有 {more} 个）" if zh else f" (and {more} more)") if more > 0 else ""
    ask = (f"请问您想查询哪个指标？支持：{'、'.join(shown)}{rest}" if zh
           else f"Which metric do you mean? Supported: {'; '.join(shown)}{rest}")
    return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=options, question=ask)


def _ask_which(intent: ParsedIntent, profile: DomainProfile) -> ClarificationResult:
    """Several metrics named where one is wanted: ask which, never pick or answer a grid."""
    names = _names(profile, intent.metrics)
    ask = (f"您指的是哪个指标？{'、'.join(names)}" if intent.language == "zh"
           else f"Which of these do you mean: {'; '.join(names)}?")
    return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=intent.metrics, question=ask)


def _ask_periods(intent: ParsedIntent) -> ClarificationResult:
    """A change whose two periods are not clear: ask for them."""
    ask = ("请给出要比较的两个期间，例如 2024年和2025年。" if intent.language == "zh"
           else "Which two periods should I compare (e.g. FY2024 and FY2025)?")
    return ClarificationResult(CLARIFY_ASK_FIRST, question=ask,
                               narrowing_options=("compare two periods",))


def _ask_unread_period(intent: ParsedIntent) -> ClarificationResult:
    """"the quarter ended July 27, 2019": a span that is no fiscal year, half or quarter."""
    said = intent.unread_period
    ask = (f"“{said}”不是可匹配的财年、半年或季度，请指明期间（例如 2019年、2019年上半年、"
           "2019年第三季度）。" if intent.language == "zh" else
           f"Which period do you mean? “{said}” is not a fiscal year, half-year or quarter "
           "I can match; name one (e.g. FY2019, 2019H1, 2019Q3).")
    return ClarificationResult(CLARIFY_ASK_FIRST, question=ask,
                               narrowing_options=("name the period",))


def _asks_change(intent: ParsedIntent) -> bool:
    """A change between two periods that the question does not both name."""
    return intent.change_cue and intent.route != ROUTE_COMPOSITE and len(intent.periods) < 2 \
        and len(intent.channels) < 2


def _two_sided(operation: _Operation | None) -> bool:
    """Whether the operation takes two metrics as its two sides.

    A ratio, a share, the difference *between* two rows: several metrics named without
    a list are its operands, not an ambiguity.
    """
    if operation is None:
        return False
    return operation.kind in _TWO_SIDED or bool(getattr(operation, "between", False))


def _changes_grid(intent: ParsedIntent, operation: _Operation | None, change: bool) -> bool:
    """A change of several metrics whose two periods the question does not name.

    Each metric's change over assumed years, or the difference between the rows in the
    one period named? Unclear: ask. An operation combining the metrics (a sum, an
    average, a ratio …) or the difference *between* them is no such grid; plain levels
    of several metrics over several periods are the answer step's to refuse.
    """
    if not change or len(intent.metrics) < 2 or _BETWEEN.search(fold(intent.raw_question)):
        return False
    return operation is None or (operation.kind in _CHANGES
                                 and not getattr(operation, "between", False))


def _column_name(profile: DomainProfile, code: str) -> str:
    """A column as a reader knows it: its longest name, and the code to type."""
    name = column_label(profile, code)
    return f"{name} ({code})" if name != code else code


def _ask_first(intent: ParsedIntent, profile: DomainProfile,
               operation: _Operation | None, latest: int) -> ClarificationResult | None:
    """The first reason to ask back, in the module docstring's order, if any.

    ``latest`` is the fiscal year a question naming none is about.
    """
    if not intent.metrics:
        return _ask_metrics(intent, profile)
    if intent.channel_options:
        options = intent.channel_options
        names = [_column_name(profile, c) for c in options]
        ask = (f"您指的是哪一列/渠道？{'、'.join(names)}" if intent.language == "zh"
               else f"Which of these columns / channels do you mean: {'; '.join(names)}?")
        return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=options, question=ask)
    if intent.unread_period:
        return _ask_unread_period(intent)
    if _compound_span(intent) == 0 and len(intent.periods) < 2:
        return _ask_periods(intent)  # "revenue CAGR": over which years is not said
    change = _asks_change(intent)
    if change and intent.periods and intent.periods[0][0] != "FY":
        # "the change in Q3 2019": against the previous quarter or the same one a year
        # before? Both are common; ask rather than pick
        return _ask_periods(intent)
    if intent.change_from and not change:
        # "How did net sales change from 2021?" read as a row of stated changes ("Total
        # sales change"): its figure for 2021 is the change *into* 2021; ask, never that
        return _ask_periods(intent)
    if change and intent.change_from and int(intent.periods[0][1]) >= latest:
        # "since FY2025" when FY2025 is the latest year: no later year to compare with
        return _ask_periods(intent)
    several = len(intent.metrics) > 1
    if several and (not intent.list_cue or len(intent.channels) > 1) and \
            not _two_sided(operation):
        # several metrics and no list — or two columns named as the list, so the "and"
        # belongs to them, not to the metrics: ask, never answer a cross product
        return _ask_which(intent, profile)
    if _changes_grid(intent, operation, change):
        return _ask_which(intent, profile)
    return None


def _compound_span(intent: ParsedIntent) -> int | None:
    """A compound rate's span in years as the question says it (0: unsaid; None: no rate)."""
    return compound_span(fold(intent.raw_question))


def _assumed(intent: ParsedIntent, latest: int, profile: DomainProfile, span: int = 0
             ) -> dict[str, str]:
    """The slots filled by assumption (entity, period or periods, part, closing row).

    ``latest`` is the fiscal year a question naming none is about; ``span`` the years
    of a compound rate the question names ("3-year CAGR"): its two ends.
    """
    assumed: dict[str, str] = {}
    if not intent.entities:
        assumed["entity"] = profile.home_entity_code
    if span and len(intent.periods) < 2 and all(p[0] == "FY" for p in intent.periods):
        later = int(intent.periods[0][1]) if intent.periods else latest
        assumed["periods"] = f"FY{later - span},FY{later}"
    elif _asks_change(intent):
        # a change needs two periods, never a level passed off as one: the year asked
        # about against the year before, the year it starts from ("since FY2024")
        # against the latest, or the latest two fiscal years
        if intent.periods and intent.change_from:
            assumed["periods"] = f"FY{intent.periods[0][1]},FY{latest}"
        else:
            later = int(intent.periods[0][1]) if intent.periods else latest
            assumed["periods"] = f"FY{later - 1},FY{later}"
    elif _averages_balance(intent, profile):
        # "average inventory in FY2023": the mean of the balances at the end of FY2022
        # (the year's start) and of FY2023
        year = int(intent.periods[0][1]) if intent.periods else latest
        assumed["periods"] = f"FY{year - 1},FY{year}"
        assumed["average"] = assumed["periods"]
    elif not intent.periods:
        assumed["period"] = f"FY{latest}"
    if intent.read_as_part:
        assumed["part"] = intent.read_as_part[-1]
    if intent.read_as_closing:
        assumed["closing"] = intent.read_as_closing
    if intent.read_as_row:
        assumed["row"] = intent.read_as_row[-1]
    if intent.read_as_movement:
        assumed["movement"] = intent.read_as_movement[-1]
    return assumed


def _averages_balance(intent: ParsedIntent, profile: DomainProfile) -> bool:
    """Whether the question asks one balance's average over one fiscal year (or none).

    Only a metric the profile marks a balance (a balance sheet's line): the average of a
    flow over a year ("average revenue in FY2023") has no such reading.
    """
    if len(intent.metrics) != 1 or len(intent.periods) > 1 or \
            any(p[0] != "FY" for p in intent.periods):
        return False
    spec = profile.metrics.get(intent.metrics[0])
    return spec is not None and spec.balance and \
        aggregate_cue(fold(intent.raw_question)) == "average"


def assumption_note(intent: ParsedIntent, assumed: dict[str, str], profile: DomainProfile,
                    reported: bool = False) -> str:
    """The assumptions in words, in the question's language.

    ``reported``: the assumed period is the latest the rows are reported for, not the
    latest complete fiscal year.
    """
    zh = intent.language == "zh"
    parts = []
    if intent.read_as_part:
        *totals, part = _names(profile, intent.read_as_part)
        parts.append(f"问的是{part}（{'、'.join(totals)}是它所属的合计）" if zh
                     else f"the question asks for {part}, part of {' and '.join(totals)}")
    if intent.read_as_movement:
        balance, movement = _names(profile, intent.read_as_movement)
        parts.append(f"问的是{movement}（{balance}的变动）" if zh
                     else f"the question asks for {movement}, a movement of {balance}")
    if intent.read_as_row:
        *unfilled, row = _names(profile, intent.read_as_row)
        parts.append(f"问的是{row}这一行（{'、'.join(unfilled)}在所问期间没有数据）" if zh
                     else f"the question asks for the row {row}, as {' and '.join(unfilled)} "
                     "has no stored figure for the period asked")
    if intent.read_as_closing:
        (name,) = _names(profile, (intent.read_as_closing,))
        parts.append(f"余额取期末数{name}" if zh else f"the balance is the closing one, {name}")
    if "entity" in assumed:
        label = profile.entities[assumed["entity"]].label
        parts.append(f"主体为{label}" if zh else f"the entity is {label}")
    if "period" in assumed:
        why = ("有数据的最近财年" if reported else "最近完整财年") if zh else \
            ("latest fiscal year reported" if reported else "latest complete fiscal year")
        parts.append(f"期间为{assumed['period']}（{why}）" if zh
                     else f"the period is {assumed['period']} ({why})")
    if "average" in assumed:
        a, b = assumed["average"].split(",")
        parts.append(f"平均数为{a}与{b}年末余额的平均" if zh else
                     f"the average is of the year-end balances of {a} and {b}")
    elif "years" in assumed:
        years = assumed["years"].split(",")
        latest = latest_years(fold(intent.raw_question)) is not None  # "the last three years"
        which = "最近" if latest else "各"
        parts.append(f"期间为有数据的{which}财年：{'、'.join(years)}" if zh else
                     f"the years are {'the latest' if latest else 'every'} fiscal year"
                     f"{'s' if latest else ''} reported: "
                     f"{', '.join(years[:-1])}{' and ' if len(years) > 1 else ''}{years[-1]}")
    elif "periods" in assumed:
        a, b = assumed["periods"].split(",")
        parts.append(f"比较{b}与{a}" if zh else f"the comparison is {b} against {a}")
    return ("（假设：" + "，".join(parts) + "）") if zh else ("(Assuming " + " and ".join(parts)
                                                          + ".)")


def clarify_scope(intent: ParsedIntent, reference_date: date | None = None, *,
                  profile: DomainProfile, gate: SecurityGate | None = None,
                  operation: _Operation | None = None,
                  reported: int | None = None,
                  every_year: tuple[int, ...] = ()) -> ClarificationResult:
    """Decide how to treat a parsed question (see the module docstring for the order).

    ``operation`` (anything with a ``kind``, e.g. an
    :class:`~ragspine_nb.agent.compute.operations.Operation`) is what the question asks to
    compute, when known: a ratio, a share or the difference *between* two rows takes
    two metrics named without a list as its sides; an operation other than a change
    combines several metrics named with a change cue. ``reported``: the latest fiscal
    year the rows asked about are reported for, when that is before the latest complete
    one (a question naming no period is then about it, and the note says so).
    ``every_year``: the years read for "each fiscal year" (the note lists them).
    """
    gate = gate or SecurityGate.from_profile(profile)
    verdict = gate.screen(raw_question=intent.raw_question, metric=intent.metric)
    if verdict.refused:
        return ClarificationResult(CLARIFY_OUT_OF_SCOPE_ENTITY, question=verdict.message,
                                   narrowing_options=(profile.company_name,))
    if intent.route == ROUTE_NARRATIVE:
        return ClarificationResult(CLARIFY_NONE)
    latest = reported or (reference_date or date.today()).year - 1
    asked = _ask_first(intent, profile, operation, latest)
    if asked is not None:
        return asked
    assumed = _assumed(intent, latest, profile, _compound_span(intent) or 0)
    if every_year:
        assumed["years"] = ",".join(f"FY{y}" for y in every_year)
    if not assumed:
        return ClarificationResult(CLARIFY_NONE)
    options = tuple(e.label for e in profile.entities.values()) if "entity" in assumed else ()
    return ClarificationResult(CLARIFY_ANSWER_WITH_ASSUMPTIONS, assumed,
                               assumption_note(intent, assumed, profile, reported is not None),
                               options)
