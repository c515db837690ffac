"""Follow-up questions: the previous turn's resolved slots fill what the new one lacks.

"And in FY2024?" after "What was Hong Kong revenue in FY2025?" asks for Hong Kong
revenue in FY2024; "Why did it change?" asks about the figure just given. What carries
over is the previous answer's *resolved slots* — controlled codes of the profile
(metric, entity, period, column), never its text — and only into slots the new question
leaves empty. A question naming a row of its own that refers back ("And its operating
profit?", "那它的营业利润呢？") takes the company and period only. The new question is
still parsed and screened by the security gate on its own (a competitor named in it
refuses before anything is carried), a code the profile does not know is dropped (fail
closed), and the answer states what it carried over.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ragspine_nb.agent.reading.intent import ROUTE_COMPOSITE, ROUTE_STRUCTURED, ParsedIntent
from ragspine_nb.agent.reading.labels import column_label, entity_label, metric_label
from ragspine_nb.agent.reading.unstated import qualifies_beyond
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile

__all__ = ["Carried", "carry_over", "carried_slots", "carried_text"]


@dataclass(frozen=True)
class Carried:
    """The resolved slots of one answered question (profile codes only)."""

    metric: str | None = None
    entity: str | None = None
    period: tuple[str, str] | None = None
    channel: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as a conversation stores it with the answer."""
        return {"metric": self.metric, "entity": self.entity,
                "period": list(self.period) if self.period else None, "channel": self.channel}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Carried | None:
        """The slots stored with an answer (``None`` when there are none)."""
        if not data:
            return None
        period = data.get("period")
        return cls(data.get("metric"), data.get("entity"),
                   (str(period[0]), str(period[1])) if period and len(period) == 2 else None,
                   data.get("channel"))

    def __bool__(self) -> bool:
        return any((self.metric, self.entity, self.period, self.channel))


def carried_slots(intent: ParsedIntent, clarification_mode: str) -> Carried | None:
    """The slots an answer resolved, kept for a follow-up; none after a refusal or ask-back.

    A question that named several metrics, entities or periods resolved no single slot
    of that kind.
    """
    if clarification_mode in ("out_of_scope_entity", "ask_first") or intent.external_entity:
        return None
    carried = Carried(intent.metric if len(intent.metrics) <= 1 else None,
                      intent.entity if len(intent.entities) <= 1 else None,
                      intent.period if len(intent.periods) <= 1 else None,
                      intent.channel if len(intent.channels) <= 1 else None)
    return carried or None


def _known(carried: Carried, profile: DomainProfile) -> Carried:
    """Only the codes the profile knows (fail closed on anything else)."""
    return Carried(carried.metric if carried.metric in profile.metrics else None,
                   carried.entity if carried.entity in profile.entities else None,
                   carried.period,
                   carried.channel if carried.channel in profile.channels else None)


def _fills(intent: ParsedIntent, carried: Carried) -> Carried:
    """What the new question leaves empty and the previous answer resolved.

    Nothing carries into a question that names a metric of its own or a list of
    anything, or that names no period, entity or column and asks no "why" (a new topic).
    """
    if intent.metrics or intent.metric_candidates or intent.channel_options or \
            intent.external_entity or len(intent.entities) > 1 or len(intent.periods) > 1:
        return Carried()
    if not (intent.entities or intent.periods or intent.channels or intent.narrative_cue
            or intent.change_cue):
        return Carried()
    return Carried(carried.metric,
                   None if intent.entities else carried.entity,
                   _later(intent, carried.period) if intent.periods else carried.period,
                   None if intent.channels else carried.channel)


def _later(intent: ParsedIntent, period: tuple[str, str] | None) -> tuple[str, str] | None:
    """The previous answer's fiscal year as the end of a change the new question starts.

    Only when the new question names where the change starts and that year is later
    ("… revenue in FY2025?" then "How did it change from FY2024?": FY2024 to FY2025).
    """
    if not (intent.change_from and period and period[0] == "FY" and intent.periods
            and intent.periods[0][0] == "FY"):
        return None
    return period if period[1] > intent.periods[0][1] else None


#: Words referring back to the previous question's subject: "And its operating profit?",
#: "What about their net income?", "那它的营业利润呢？".
_REFERS_BACK = re.compile(r"^\s*(?:and|also|what about|how about)\b|\b(?:its|their)\b"
                          r"|^\s*那|它的|其")


def _referred(intent: ParsedIntent, carried: Carried) -> Carried:
    """The company and period a question with a row of its own refers back to.

    "And its operating profit?" after "What about Mainland China?" (FY2024) asks Mainland
    China's operating profit in FY2024: the company and period carry over, never the row.
    Only one row named, no list, and a word referring back.
    """
    if len(intent.metrics) != 1 or intent.channel_options or intent.external_entity or \
            len(intent.entities) > 1 or len(intent.periods) > 1 or \
            not _REFERS_BACK.search(intent.raw_question.casefold()):
        return Carried()
    return Carried(None, None if intent.entities else carried.entity,
                   None if intent.periods else carried.period, None)


def carry_over(intent: ParsedIntent, carried: Carried | None,
               profile: DomainProfile) -> tuple[ParsedIntent, Carried]:
    """The intent with the previous answer's slots in its empty ones, and what was carried."""
    if carried is None or qualifies_beyond(intent.unstated):  # qualified beyond a row
        return intent, Carried()
    fills = _fills(intent, _known(carried, profile))
    if not fills.metric:
        referred = _referred(intent, _known(carried, profile))
        out = intent
        if referred.entity:
            out = replace(out, entity=referred.entity, entities=(referred.entity,))
        if referred.period:
            out = replace(out, period=referred.period, periods=(referred.period,))
        return out, referred
    route = ROUTE_COMPOSITE if intent.narrative_cue else ROUTE_STRUCTURED
    out = replace(intent, route=route, metric=fills.metric, metrics=(fills.metric,))
    if fills.entity:
        out = replace(out, entity=fills.entity, entities=(fills.entity,))
    if fills.period and intent.periods:  # the end of a change that starts from the named
        out = replace(out, periods=(*intent.periods, fills.period), change_from=False)
    elif fills.period:
        out = replace(out, period=fills.period, periods=(fills.period,))
    if fills.channel:
        out = replace(out, channel=fills.channel, channels=(fills.channel,))
    return out, fills


def carried_text(carried: Carried, profile: DomainProfile) -> str:
    """The carried slots as a reader knows them: "Revenue, ACME Hong Kong, FY2025"."""
    parts = [metric_label(profile, carried.metric) if carried.metric else "",
             entity_label(profile, carried.entity) if carried.entity else "",
             period_label(*carried.period) if carried.period else "",
             column_label(profile, carried.channel) if carried.channel else ""]
    return ", ".join(p for p in parts if p)
