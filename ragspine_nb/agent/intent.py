"""Rule-based intent parsing (zero LLM, driven by the profile).

Slots are read from the gate-masked question: metric, entity, period, channel, the
multi-value lists ``metrics`` / ``entities`` / ``periods`` in question order, and the
route: a recognised metric plus a narrative cue → ``composite``; a metric or a
numeric cue → ``structured``; otherwise ``narrative``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Protocol, runtime_checkable

from ragspine_nb.agent.security_gate import SecurityGate
from ragspine_nb.glossary import (
    channel_vocabulary,
    entity_vocabulary,
    fold,
    metric_vocabulary,
    normalize_period,
)
from ragspine_nb.lang import detect_language
from ragspine_nb.profile import DomainProfile

__all__ = [
    "ParsedIntent",
    "IntentParser",
    "RuleIntentParser",
    "ROUTE_STRUCTURED",
    "ROUTE_NARRATIVE",
    "ROUTE_COMPOSITE",
    "NARRATIVE_CUES",
    "NUMERIC_CUES",
]

ROUTE_STRUCTURED = "structured"
ROUTE_NARRATIVE = "narrative"
ROUTE_COMPOSITE = "composite"
NARRATIVE_CUES: tuple[str, ...] = (
    "为什么", "为何", "原因", "怎么", "如何", "解释", "说明", "影响", "发生了什么", "背景",
    "驱动", "导致", "因素", "why", "how come", "reason", "explain", "what happened", "driver",
    "drivers", "impact", "cause", "caused", "because", "describe", "summarise", "summarize",
    "what drove", "outlook",
)
#: Words that make several metrics / entities an explicit list rather than an ambiguity.
LIST_CUES: tuple[str, ...] = ("和", "与", "及", "以及", "、", "对比", "比较", "分别", " and ",
                              " vs", "versus", "compare", "compared", "both", "each", ",")
#: Words asking for a change between periods rather than a level.
CHANGE_CUES: tuple[str, ...] = ("percentage change", "change in", "changes in", "increase in",
                                "decrease in", "percentage increase", "percentage decrease",
                                "variance", "growth rate", "增长率", "增幅", "降幅", "变化", "同比")
NUMERIC_CUES: tuple[str, ...] = (
    "多少", "是多少", "数值", "金额", "几", "比例", "数字", "how much", "how many", "value",
    "amount", "figure", "number", "total",
)
_PERIOD = re.compile(
    r"(?:fy\s?\d{4}\s?(?:h[12]|q[1-4])?"
    r"|[hq][1-4]\s?(?:fy)?\s?\d{4}"
    r"|[12]h\s?(?:fy)?\s?\d{4}"
    r"|\d{4}\s?(?:h[12]|q[1-4])"
    r"|\d{4}\s?年\s?(?:上半年|下半年|第?[一二三四1-4]季度)?"
    r"|(?<![\d.a-z])(?:19|20)\d{2}(?![\d.%])"
    r"|今年上半年|今年下半年|去年上半年|去年下半年|前年|去年|今年|本年度|上年度"
    r"|本季度|上季度|上个季度|上半年|下半年"
    r"|the year before last|last year|this year|last quarter|this quarter"
    r"|first half of (?:last|this) year|second half of (?:last|this) year"
    r"|first half|second half)"
)


@dataclass(frozen=True)
class ParsedIntent:
    """Slots of one question. ``raw_question`` is always the user's exact text."""

    raw_question: str
    route: str
    language: str
    metric: str | None = None
    entity: str | None = None
    period: tuple[str, str] | None = None
    channel: str | None = None
    metrics: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    periods: tuple[tuple[str, str], ...] = ()
    external_entity: str | None = None
    numeric_cue: bool = False
    narrative_cue: bool = False
    list_cue: bool = False
    change_cue: bool = False
    mentions: dict[str, str] = field(default_factory=dict)  # slot → the text that matched


@runtime_checkable
class IntentParser(Protocol):
    """Parses a question; implementations must fill ``raw_question`` with the input."""

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        """Return the intent."""
        ...


Terms = list[tuple[re.Pattern[str], str, str]]


def _compile(vocab: dict[str, str]) -> Terms:
    """Patterns for a vocabulary, longest term first (ASCII terms on word boundaries)."""
    out = []
    for term in sorted(vocab, key=lambda t: (-len(t), t)):
        body = re.escape(term)
        pattern = rf"(?<![a-z0-9]){body}(?![a-z0-9])" if term.isascii() else body
        out.append((re.compile(pattern), vocab[term], term))
    return out


def _find_all(text: str, terms: Terms) -> list[tuple[int, int, str, str]]:
    """Non-overlapping longest matches ``(start, end, code, term)`` in text order."""
    found: list[tuple[int, int, str, str]] = []
    taken = [False] * len(text)
    for pattern, code, term in terms:
        for m in pattern.finditer(text):
            if not any(taken[m.start():m.end()]):
                taken[m.start():m.end()] = [True] * (m.end() - m.start())
                found.append((m.start(), m.end(), code, term))
    return sorted(found)


def _has_cue(text: str, cues: tuple[str, ...]) -> bool:
    for cue in cues:
        if cue.isascii():
            if re.search(rf"(?<![a-z]){re.escape(cue)}(?![a-z])", text):
                return True
        elif cue in text:
            return True
    return False


class RuleIntentParser:
    """Profile-driven, zero-LLM intent parser.

    Parameters
    ----------
    profile : DomainProfile
        Vocabulary and competitor aliases (the gate masks competitor names first).
    """

    def __init__(self, profile: DomainProfile) -> None:
        self.profile = profile
        self.gate = SecurityGate.from_profile(profile)
        self._metrics = _compile(metric_vocabulary(profile))  # once per parser, not per question
        self._entities = _compile(entity_vocabulary(profile))
        self._channels = _compile(channel_vocabulary(profile))

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        """Parse ``question`` (relative periods resolve against ``reference_date``)."""
        hits, masked = self.gate.detect(question)
        text = fold(masked)
        metrics = _find_all(text, self._metrics)
        entities = _find_all(text, self._entities)
        channels = [c for c in _find_all(text, self._channels)
                    if c[2] != self.profile.default_channel]
        periods: list[tuple[str, str]] = []
        period_text = ""
        for m in _PERIOD.finditer(text):
            p = normalize_period(self.profile, m.group(0), reference_date)
            if p is not None and p not in periods:
                periods.append(p)
                period_text = period_text or m.group(0)
        narrative = _has_cue(text, NARRATIVE_CUES)
        numeric = _has_cue(text, NUMERIC_CUES)
        metric_codes = tuple(dict.fromkeys(m[2] for m in metrics))
        entity_codes = tuple(dict.fromkeys(e[2] for e in entities))
        if metric_codes and narrative:
            route = ROUTE_COMPOSITE
        elif metric_codes or numeric:
            route = ROUTE_STRUCTURED
        else:
            route = ROUTE_NARRATIVE
        mentions = {}
        if metrics:
            mentions["metric"] = metrics[0][3]
        if entities:
            mentions["entity"] = entities[0][3]
        if period_text:
            mentions["period"] = period_text
        return ParsedIntent(
            raw_question=question, route=route, language=detect_language(question),
            metric=metric_codes[0] if metric_codes else None,
            entity=entity_codes[0] if entity_codes else None,
            period=periods[0] if periods else None,
            channel=channels[0][2] if channels else None,
            metrics=metric_codes, entities=entity_codes, periods=tuple(periods),
            external_entity=hits[0].display_name if hits else None,
            numeric_cue=numeric, narrative_cue=narrative, mentions=mentions,
            list_cue=any(cue in f" {text} " for cue in LIST_CUES),
            change_cue=_has_cue(text, CHANGE_CUES),
        )
