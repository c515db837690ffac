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
from ragspine_nb.agent.typos import TypoIndex
from ragspine_nb.glossary import (
    channel_vocabulary,
    entity_vocabulary,
    fold,
    metric_vocabulary,
    normalize_periods,
)
from ragspine_nb.lang import detect_language
from ragspine_nb.period_phrases import QUESTION_PERIOD, phrase_periods
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import WordSetIndex, content_words

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
                                "increased by", "decreased by", "grew by", "fell by",
                                "change", "changed", "increase", "decrease", "increased",
                                "decreased", "growth", "difference between",
                                "variance", "growth rate", "增长率", "增幅", "降幅", "变化", "同比")
#: Words asking for a change as a percentage (a stated "% change" answers these first).
PERCENT_CUES: tuple[str, ...] = ("percentage", "percent", "per cent", "%", "growth rate",
                                 "增长率", "增幅", "降幅", "百分比")
#: Words asking for a share of something (a percentage column), not a change.
SHARE_CUES: tuple[str, ...] = ("percentage of", "percent of", "% of", "share of",
                               "proportion of", "占比")
NUMERIC_CUES: tuple[str, ...] = (
    "多少", "是多少", "数值", "金额", "几", "比例", "数字", "how much", "how many", "value",
    "amount", "figure", "number", "total",
)
_PERIOD = QUESTION_PERIOD


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
    #: several channels (columns) named as a list: one sub-task each
    channels: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    periods: tuple[tuple[str, str], ...] = ()
    external_entity: str | None = None
    numeric_cue: bool = False
    narrative_cue: bool = False
    list_cue: bool = False
    change_cue: bool = False
    percent_cue: bool = False
    #: fuzzy candidates (some words shared) when no metric matched: options to ask back
    metric_candidates: tuple[str, ...] = ()
    #: several channels (e.g. table columns) named at once: options to ask back
    channel_options: tuple[str, ...] = ()
    #: the row read as the closing balance ("... end of the year") of a balance named bare
    read_as_closing: str | None = None
    #: a total and its part were both named: ``(*totals, part)``, the part is answered
    read_as_part: tuple[str, ...] = ()
    #: a period phrase that names no period of ours ("the quarter ended July 27, 2019",
    #: "nine months ended ..."): never read as the year in it; the gateway asks back
    unread_period: str = ""
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
        # a hyphenated word is one word: "vested" is not in "non-vested"
        pattern = (rf"(?<![a-z0-9])(?<![a-z0-9]-){body}(?![a-z0-9])(?!-[a-z0-9])"
                   if term.isascii() else body)
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


#: Words placing a balance at the start or the end of a period.
_START = frozenset({"beginning", "begin", "opening", "start", "starting"})
_END = frozenset({"end", "ending", "closing", "close"})

_DATE_COMMA = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*"
                         r"\d{1,2}\s*,")


def _mask(text: str, spans: list[tuple[int, int, str, str]]) -> str:
    for start, end, _, _ in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _list_cue(text: str) -> bool:
    """A list of metrics / entities, not "between 2018 and 2019" (periods are not a list)."""
    text = _DATE_COMMA.sub(" ", text)  # "as of December 31, 2019" is a date, not a list
    text = _PERIOD.sub("\x00", text)
    text = re.sub(r"\x00\s*(?:and|to|&|vs\.?|versus|,|和|与|至|到)\s*\x00", " ", text)
    return any(cue in f" {text} " for cue in LIST_CUES)


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
        self._metric_words = WordSetIndex(
            [(t, m.code) for m in profile.metrics.values() for t in (m.label, *m.synonyms)],
            rival_pairs=[(m.label or m.code, m.code) for m in profile.metrics.values()])
        self._channel_words = WordSetIndex(
            [(t, c.code) for c in profile.channels.values() if c.code != profile.default_channel
             for t in c.synonyms])
        self._typos: TypoIndex | None = None  # built on the first misspelled question

    def _near_miss(self, words: frozenset[str]) -> tuple[tuple[str, ...], bool]:
        """Metrics to offer when none was named, and whether a misspelling named them.

        A misspelled word ("proft") read as the metric word it is one edit from, when
        that completes a metric's name, offers that metric; otherwise metrics sharing
        some words are offered. Never an answer: the caller asks back.
        """
        if self._typos is None:
            self._typos = TypoIndex(w for m in self.profile.metrics.values()
                                    for t in (m.label, *m.synonyms) for w in content_words(t))
        fixed = self._typos.correct(words)
        if fixed is not None and (named := self._metric_words.contained(fixed)):
            return named, True
        return self._metric_words.closest(words), False

    def _first_mention(self, code: str, text: str) -> int:
        """Where a channel is first named in ``text`` (its code, a synonym, or a word)."""
        spec = self.profile.channels.get(code)
        terms = [code, *(spec.synonyms if spec else ())]
        hits = [m.start() for t in terms for w in [fold(t), *content_words(t)]
                for m in [re.search(rf"(?<![a-z0-9]){re.escape(w)}", text)] if m]
        return min(hits, default=len(text))

    def _closing_balance(self, words: frozenset[str]) -> str | None:
        """The one row named but for "end of the year" when the question states no point.

        "Goodwill in 2019" for the rows "Goodwill, beginning of the year" / "..., end of
        the year": a balance asked for a period is its closing balance (stated).
        """
        if words & (_START | _END):
            return None
        found = self._metric_words.contained(words | _END)
        if len(found) == 1 and self._metric_words.words_of(found[0], words | _END) & _END:
            return found[0]
        return None

    def _is_share(self, code: str) -> bool:
        """Whether a channel is a percentage column ("% of Total")."""
        spec = self.profile.channels.get(code)
        return any("percent" in content_words(t) for t in (spec.synonyms if spec else ()))

    def _named_part(self, codes: tuple[str, ...], phrased: set[str],
                    words: frozenset[str]) -> str | None:
        """The one named metric that every other candidate is a sum of, if any.

        A question naming a total and one of its parts without a list ("revenue from
        external customers from UK") asks for the part; the part must be named in full.
        """
        named = [c for c in codes if c in phrased or self._metric_words.words_of(c, words)]
        found = [p for p in named
                 if all(self.profile.contains(c, p) for c in codes if c != p)]
        return found[0] if len(found) == 1 else None

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        """Parse ``question`` (relative periods resolve against ``reference_date``)."""
        hits, masked = self.gate.detect(question)
        text = fold(masked)
        metrics = _find_all(text, self._metrics)
        entities = _find_all(text, self._entities)
        list_cue = _list_cue(text)
        words = row_words = content_words(text)
        if len({m[2] for m in metrics}) > 1:
            # a phrase that is part of a column's name ("Total" in "% of Total") is the
            # column, not a second row, as long as another row is named
            column_words = frozenset().union(*(self._channel_words.words_of(c, words)
                                               for c in self._channel_words.contained(words)))
            rows = [m for m in metrics if not content_words(m[3]) <= column_words]
            if rows and len(rows) < len(metrics):
                metrics, row_words = rows, words - column_words
        metric_codes = tuple(dict.fromkeys(m[2] for m in metrics))
        metric_words: frozenset[str] = frozenset()
        read_as_closing: str | None = None
        candidates: tuple[str, ...] = ()
        misspelled = False
        if len(metric_codes) <= 1 or not list_cue:
            # the row named in another word order, or a longer (section-qualified) name
            # that includes every phrase matched; several codes left = ambiguous (ask)
            contained = self._metric_words.contained(row_words)
            if metric_codes and len(contained) == 1:
                kept = self._metric_words.words_of(contained[0], row_words)
                if not all(content_words(m[3]) <= kept for m in metrics):
                    # another row is named in full besides the phrase: ask (one metric
                    # phrase + one other row) or keep the listed phrases (several)
                    contained = tuple(dict.fromkeys([*metric_codes, *contained])) \
                        if len(metric_codes) == 1 and contained[0] not in metric_codes else ()
            elif len(metric_codes) == 1 and len(contained) > 1:
                # one phrase matched, but other rows are named at least as fully: ask
                contained = tuple(dict.fromkeys([*metric_codes, *contained]))
            elif metric_codes:
                contained = ()  # several phrases matched and no longer name explains them
            if contained:
                metric_codes = contained
                metric_words = frozenset().union(
                    *(self._metric_words.words_of(c, row_words) for c in contained))
            elif not metric_codes:
                closing = self._closing_balance(row_words)
                if closing is not None:
                    metric_codes, read_as_closing = (closing,), closing
                    metric_words = self._metric_words.words_of(closing, row_words | _END)
                else:
                    candidates, misspelled = self._near_miss(row_words)
        read_as_part: tuple[str, ...] = ()
        # "revenue from software maintenance": the total's words name the group
        part = self._named_part(metric_codes, {m[2] for m in metrics}, row_words) \
            if len(metric_codes) > 1 else None
        if part is not None and not list_cue:
            read_as_part = (*(c for c in metric_codes if c != part), part)
            metric_codes = (part,)
            metric_words = self._metric_words.words_of(part, row_words) or metric_words
        # a channel is read from what the metric did not use (no "total" of "total debt")
        rest = _mask(text, metrics)
        channels = [c for c in _find_all(rest, self._channels)
                    if c[2] != self.profile.default_channel]
        rest_words = content_words(_PERIOD.sub(" ", rest)) - metric_words
        # a column may share words with the row ("number of shares granted" → "Number of
        # Shares"), but at least one of its words must lie outside the row's name
        picked = tuple(c for c in self._channel_words.contained(words)
                       if self._channel_words.words_of(c, words) & rest_words)
        channel_options: tuple[str, ...] = ()
        # a phrase hit explained by a longer column name ("denominated" in "non-USD
        # denominated") is that column, not a second one
        unexplained = [c for c in channels if not any(
            content_words(c[3]) < self._channel_words.words_of(p, words) for p in picked)]
        named = list(dict.fromkeys([*(c[2] for c in unexplained), *picked]))
        channel_codes: tuple[str, ...] = ()
        if not named:
            # a column named in part ("net additions" of "Net additions (losses)"): ask
            channel_options = self._channel_words.closest(rest_words, min_shared=2)
        elif len(named) == 1:
            channel_codes = (named[0],)
        elif _list_cue(rest):  # "the domestic and international rates": both, in order
            channel_codes = tuple(sorted(named, key=lambda c: self._first_mention(c, rest)))
        elif len(shares := [c for c in named if self._is_share(c)]) == 1 and \
                _has_cue(rest, SHARE_CUES):
            # "the percentage of sales from APAC to total net sales": the share column;
            # the other column named is what the share is taken of
            channel_codes = (shares[0],)
        else:  # two columns named without a list: ask, never pick
            channel_options = tuple(named)
        if part is not None and not read_as_part and len(channel_codes) > 1:
            # the list is of columns ("1-90 and 91-180 days past due in low risk country")
            read_as_part = (*(c for c in metric_codes if c != part), part)
            metric_codes = (part,)
        periods: list[tuple[str, str]] = []
        period_text = unread = ""
        for m in _PERIOD.finditer(text):
            found = normalize_periods(self.profile, m.group(0), reference_date)
            if None in (phrase_periods(m.group(0)) or ()):  # one of its dates is no period
                unread = unread or m.group(0)
            for p in found:
                if p not in periods:
                    periods.append(p)
                    period_text = period_text or m.group(0)
        # cues are read outside the metric's own name ("Net increase in cash" is a level)
        cue_text = rest
        for w in metric_words:
            cue_text = re.sub(rf"(?<![a-z0-9]){re.escape(w)}s?(?![a-z0-9])", " ", cue_text)
        narrative = _has_cue(text, NARRATIVE_CUES)
        numeric = _has_cue(text, NUMERIC_CUES)
        entity_codes = tuple(dict.fromkeys(e[2] for e in entities))
        if metric_codes and narrative:
            route = ROUTE_COMPOSITE
        elif metric_codes or numeric or (candidates and (periods or misspelled)):
            # a near-miss row with a period, or a misspelled metric: ask back, not search
            route = ROUTE_STRUCTURED
        else:
            route = ROUTE_NARRATIVE
        mentions = {}
        if metrics and metric_codes and metrics[0][2] == metric_codes[0]:
            mentions["metric"] = metrics[0][3]
        elif metric_codes:
            mentions["metric"] = " ".join(sorted(metric_words))
        if entities:
            mentions["entity"] = entities[0][3]
        if period_text:
            mentions["period"] = period_text
        return ParsedIntent(
            raw_question=question, route=route, language=detect_language(question),
            metric=metric_codes[0] if metric_codes else None,
            entity=entity_codes[0] if entity_codes else None,
            period=periods[0] if periods else None,
            channel=channel_codes[0] if channel_codes else None, channels=channel_codes,
            metrics=metric_codes, entities=entity_codes, periods=tuple(periods),
            external_entity=hits[0].display_name if hits else None,
            numeric_cue=numeric, narrative_cue=narrative, mentions=mentions,
            list_cue=list_cue, change_cue=_has_cue(cue_text, CHANGE_CUES),
            percent_cue=_has_cue(cue_text, PERCENT_CUES), metric_candidates=candidates,
            channel_options=channel_options, read_as_part=read_as_part,
            read_as_closing=read_as_closing, unread_period=unread,
        )
