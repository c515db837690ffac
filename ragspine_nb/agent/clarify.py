"""The clarification gateway: refuse, ask back, or answer with stated assumptions.

Order (first match wins): out-of-scope entity (the security gate on the *raw*
question, never the parsed slots) → narrative route needs no slots → missing metric
asks first (fuzzy row candidates are offered, never answered) → several metrics or
columns named without a list ask back → missing entity or period is assumed (home entity,
latest complete fiscal year; for a change: the year asked about against the year before,
or the latest two complete fiscal years) and the assumption is surfaced, as are the
parser's readings (a total named with its part asks for the part; a bare balance is the
closing one) → nothing to clarify. A change in one quarter or half-year asks which two
periods to compare; a period phrase that names no period of ours (a quarter ended mid-month,
nine months) asks which period is meant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ragspine_nb.agent.intent import ROUTE_NARRATIVE, ParsedIntent
from ragspine_nb.agent.security_gate import SecurityGate
from ragspine_nb.profile import DomainProfile

__all__ = [
    "ClarificationResult",
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


@dataclass(frozen=True)
class ClarificationResult:
    """The gateway's decision."""

    mode: str
    assumed_slots: dict[str, str] = field(default_factory=dict)
    assumption_note: str = ""
    narrowing_options: tuple[str, ...] = ()
    question: str = ""


def _names(profile: DomainProfile, codes: tuple[str, ...]) -> list[str]:
    """Metric codes as users read them: the label with the code when they differ."""
    out = []
    for code in codes:
        label = profile.metrics[code].label if code in profile.metrics else ""
        out.append(f"{label} ({code})" if label and label != code else code)
    return out


def clarify_scope(intent: ParsedIntent, reference_date: date | None = None, *,
                  profile: DomainProfile, gate: SecurityGate | None = None
                  ) -> ClarificationResult:
    """Decide how to treat a parsed question (see the module docstring for the order)."""
    gate = gate or SecurityGate.from_profile(profile)
    zh = intent.language == "zh"
    verdict = gate.screen(raw_question=intent.raw_question, metric=intent.metric)
    if verdict.refused:
        return ClarificationResult(CLARIFY_OUT_OF_SCOPE_ENTITY, question=verdict.message,
                                   narrowing_options=(profile.company_name,))
    if intent.route == ROUTE_NARRATIVE:
        return ClarificationResult(CLARIFY_NONE)
    if not intent.metrics and intent.metric_candidates:
        # some words matched some metrics: fuzzy, so they are offered, never answered
        options = intent.metric_candidates
        names = _names(profile, options)
        ask = (f"请问您指的是哪个指标？最接近的：{'、'.join(names)}" if zh
               else f"Which metric do you mean? Closest: {'; '.join(names)}")
        return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=options, question=ask)
    if not intent.metrics:
        options = tuple(profile.metrics)
        ask = (f"请问您想查询哪个指标？支持：{'、'.join(options)}" if zh
               else f"Which metric do you mean? Supported: {', '.join(options)}")
        return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=options, question=ask)
    if intent.channel_options:
        options = intent.channel_options
        ask = (f"您指的是哪一列/渠道？{'、'.join(options)}" if zh
               else f"Which of these columns / channels do you mean: {'; '.join(options)}?")
        return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=options, question=ask)
    if intent.unread_period:
        # "the quarter ended July 27, 2019": a span that is no fiscal year, half or quarter
        # of ours; never its year's figure, never an assumed year
        said = intent.unread_period
        ask = (f"“{said}”不是可匹配的财年、半年或季度，请指明期间（例如 2019年、2019年上半年、"
               "2019年第三季度）。" if zh else
               f"Which period do you mean? “{said}” is not a fiscal year, half-year or quarter "
               "I can match; name one (e.g. FY2019, 2019H1, 2019Q3).")
        return ClarificationResult(CLARIFY_ASK_FIRST, question=ask,
                                   narrowing_options=("name the period",))
    # a change between two periods (a difference between two named columns needs one)
    change = intent.change_cue and intent.route != "composite" and len(intent.periods) < 2 \
        and len(intent.channels) < 2
    if change and intent.periods and intent.periods[0][0] != "FY":
        # "the change in Q3 2019": against the previous quarter or the same one a year
        # before? Both are common; ask rather than pick
        ask = ("请给出要比较的两个期间，例如 2024年和2025年。" if zh
               else "Which two periods should I compare (e.g. FY2024 and FY2025)?")
        return ClarificationResult(CLARIFY_ASK_FIRST, question=ask,
                                   narrowing_options=("compare two periods",))
    if len(intent.metrics) > 1 and (not intent.list_cue or len(intent.channels) > 1):
        # several metrics and no list — or two columns named as the list, so the "and"
        # belongs to them, not to the metrics: ask, never answer a cross product
        options = intent.metrics
        names = _names(profile, options)
        ask = (f"您指的是哪个指标？{'、'.join(names)}" if zh
               else f"Which of these do you mean: {'; '.join(names)}?")
        return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=options, question=ask)
    assumed: dict[str, str] = {}
    if not intent.entities:
        assumed["entity"] = profile.home_entity_code
    ref = reference_date or date.today()
    if change:
        # a change needs two periods, never a level passed off as one: the year asked
        # about against the year before, or the latest two complete fiscal years
        later = int(intent.periods[0][1]) if intent.periods else ref.year - 1
        assumed["periods"] = f"FY{later - 1},FY{later}"
    elif not intent.periods:
        assumed["period"] = f"FY{ref.year - 1}"
    if intent.read_as_part:
        assumed["part"] = intent.read_as_part[-1]
    if intent.read_as_closing:
        assumed["closing"] = intent.read_as_closing
    if not assumed:
        return ClarificationResult(CLARIFY_NONE)
    parts = []
    if intent.read_as_part:
        *totals, part = _names(profile, intent.read_as_part)
        parts.append(f"问的是{part}（{'、'.join(totals)}是它所属的合计）" if zh
                     else f"the question asks for {part}, part of {' and '.join(totals)}")
    if intent.read_as_closing:
        (name,) = _names(profile, (intent.read_as_closing,))
        parts.append(f"余额取期末数{name}" if zh else f"the balance is the closing one, {name}")
    if "entity" in assumed:
        label = profile.entities[assumed["entity"]].label
        parts.append(f"主体为{label}" if zh else f"the entity is {label}")
    if "period" in assumed:
        parts.append(f"期间为{assumed['period']}（最近完整财年）" if zh
                     else f"the period is {assumed['period']} (latest complete fiscal year)")
    if "periods" in assumed:
        a, b = assumed["periods"].split(",")
        parts.append(f"比较{b}与{a}" if zh else f"the comparison is {b} against {a}")
    note = ("（假设：" + "，".join(parts) + "）") if zh else ("(Assuming " + " and ".join(parts)
                                                           + ".)")
    options = tuple(e.label for e in profile.entities.values()) if "entity" in assumed else ()
    return ClarificationResult(CLARIFY_ANSWER_WITH_ASSUMPTIONS, assumed, note, options)
