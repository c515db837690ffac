"""Narrative grounding: prose never contradicts a stored fact or its own structured line.

Each sentence of a model's narrative answer is kept only when

1. every number in it appears in some retrieved snippet (no invented figures), and
2. every figure it states for a metric whose entity and period are identified agrees
   with the fact store. The entity and period are the ones the sentence names, else
   the ones the snippets it cites name (when they name exactly one), else the
   question's (its one entity, or the home entity when it names none; its one period).
   Values are compared after unit and scale ("1,405 million" = 1405 ``USD_M``); a
   figure in another currency or a percentage against an amount is not comparable
   and is kept — except for a fact of the answer's own structured line, where only
   the line's value may appear. No amount is kept for a fact the documents state
   differently (a conflict), in any unit: the structured channel answers those with
   every value and its source.

Dropped sentences are returned with the reason, the fact's identity and both values,
so the trace can record them (identities only) and the result can show them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragspine_nb.agent.clarify import ClarificationResult
from ragspine_nb.agent.figures import FigureReader, Mentions, Stated, unit_parts
from ragspine_nb.agent.intent import ParsedIntent
from ragspine_nb.agent.providers import SENTENCE
from ragspine_nb.agent.templates import format_value
from ragspine_nb.core import ConflictResult, Dropped, Fact, FoundResult, QueryResult
from ragspine_nb.glossary import normalize_period, period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = ["Grounder", "GroundingContext", "Dropped", "Grounded", "compare", "sentences",
           "question_context", "REASONS"]

#: Why a sentence was dropped.
REASONS = {
    "not_in_snippets": "a number in it appears in no retrieved passage",
    "contradicts_fact": "it states a figure the fact store holds with another value",
    "fact_in_conflict": "it states a figure for a fact the documents state differently",
    "contradicts_answer": "it gives the structured line's fact another figure",
}
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_LEADING_MARKS = re.compile(r"^\s*(?:\[\d+\]\s*)+")
Key = tuple[str, str, str, str, str]  # metric, entity, period_type, period, channel


@dataclass(frozen=True)
class GroundingContext:
    """What a sentence that names no entity or period is about.

    ``entity``/``period``: the question's (``None`` when it names several or, for the
    period, none). ``anchors``: the answer's structured line (composite answers).
    ``qualifiers``: the question's words that qualify its row beyond the names the
    tables use ("unrecognized" in "total unrecognized compensation cost"): a sentence
    writing one of them before a row's name states another quantity, not the row.
    """

    entity: str | None = None
    period: tuple[str, str] | None = None
    anchors: tuple[QueryResult, ...] = ()
    qualifiers: frozenset[str] = frozenset()


def question_context(intent: ParsedIntent, clar: ClarificationResult,
                     profile: DomainProfile) -> GroundingContext:
    """What a sentence naming no entity or period is about, from the question.

    Its one entity (the home entity when it names none) and its one period (or the
    period assumed for it).
    """
    entity = intent.entities[0] if len(intent.entities) == 1 else (
        None if intent.entities else profile.home_entity_code)
    period = intent.periods[0] if len(intent.periods) == 1 else None
    if not intent.periods and clar.assumed_slots.get("period"):
        period = normalize_period(profile, clar.assumed_slots["period"], relative=False)
    # words the question writes right before its row's name that no table uses (read only
    # when it writes words no table uses)
    said = FigureReader.shared(profile).qualifiers(intent.raw_question) if intent.unstated \
        else frozenset()
    return GroundingContext(entity, period, qualifiers=said & frozenset(intent.unstated))


@dataclass(frozen=True)
class Grounded:
    """The kept text and the dropped sentences."""

    text: str
    dropped: tuple[Dropped, ...] = field(default_factory=tuple)


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with the ``[n]`` markers that follow it.

    A model writes "... grew. [1] Next ..."; the marker cites the sentence before it.
    """
    out: list[str] = []
    for sent in SENTENCE.findall(text):
        lead = _LEADING_MARKS.match(sent)
        if lead and out:
            out[-1] = f"{out[-1].rstrip()} {lead.group(0).strip()}"
            sent = sent[lead.end():]
        if sent.strip():
            out.append(sent)
    return out


def compare(stated: Stated, fact: Fact) -> bool | None:
    """True: the same value; False: another value; None: not comparable (unit/currency).

    Prose states a magnitude and says its direction in words ("net cash used in
    operating activities was $0.6 million" for a stored -618 thousand): sizes compare.
    """
    have, want = stated.unit, unit_parts(fact.unit)
    if have.percent != want.percent and (have.percent or have.currency or have.factor):
        return None
    if have.currency and have.currency != want.currency:
        return None
    factor = have.factor or want.factor or 1.0
    stored = fact.value * (want.factor or 1.0)
    return abs(abs(stated.value) * factor - abs(stored)) <= \
        stated.tolerance * factor + 1e-9 * abs(stored)


def _only(values: frozenset[Any]) -> Any:
    return next(iter(values)) if len(values) == 1 else None


def _key_of(result: QueryResult) -> Key | None:
    if isinstance(result, FoundResult):
        f = result.fact
        return f.metric_code, f.entity, f.period_type, f.period, f.channel
    if isinstance(result, ConflictResult):
        return (result.metric_code, result.entity, result.period_type, result.period,
                result.channel)
    return None


class Grounder:
    """Checks narrative sentences against the snippets and the fact store.

    Parameters
    ----------
    profile : DomainProfile
        The glossary the sentences are read with.
    store : FactStore
        The facts prose must agree with.
    """

    def __init__(self, profile: DomainProfile, store: FactStore) -> None:
        self.profile = profile
        self.store = store
        self.reader = FigureReader.shared(profile)  # compiled once per profile

    def ground(self, answer: str, snippets: Sequence[Mapping[str, Any]],
               context: GroundingContext | None = None) -> Grounded:
        """Keep the sentences of ``answer`` that pass both checks (module docstring)."""
        corpus = " ".join(str(s.get("text", "")) for s in snippets).replace(",", "")
        cache: dict[Key, QueryResult] = {}
        kept, dropped = [], []
        for sent in sentences(answer):
            numbers = [n.replace(",", "") for n in _NUMBER.findall(re.sub(r"\[\d+\]", "", sent))]
            why = None if all(n in corpus for n in numbers) else Dropped(sent.strip(),
                                                                        "not_in_snippets")
            why = why or self.check(sent, context or GroundingContext(), snippets, cache)
            if why is None:
                kept.append(sent.strip())
            else:
                dropped.append(why)
        return Grounded(" ".join(s for s in kept if s), tuple(dropped))

    def first_clash(self, text: str, context: GroundingContext) -> Dropped | None:
        """The first sentence of ``text`` the fact store contradicts (e.g. a FAQ answer)."""
        cache: dict[Key, QueryResult] = {}
        for sent in sentences(text):
            why = self.check(sent, context, (), cache)
            if why is not None:
                return why
        return None

    def check(self, sentence: str, context: GroundingContext,
              snippets: Sequence[Mapping[str, Any]] = (),
              cache: dict[Key, QueryResult] | None = None) -> Dropped | None:
        """Why ``sentence`` must be dropped (its first offending figure), or ``None``."""
        figures = self.reader.figures(sentence)
        if not figures:
            return None
        own = self.reader.mentions(sentence)
        cited = self._cited(sentence, snippets)
        cache = {} if cache is None else cache
        for stated in figures:
            if stated.before & context.qualifiers:
                continue  # "unrecognized compensation cost" asked and stated: not "Cost"
            key = self._key(stated, own, cited, context)
            if key is None:
                continue
            if key not in cache:
                cache[key] = self.store.lookup(key[0], key[1], key[2], key[3], key[4])
            anchored = any(_key_of(a) == key for a in context.anchors)
            why = self._verdict(stated, cache[key], anchored)
            if why is not None:
                return Dropped(sentence.strip(), why[0], key[0], key[1],
                               period_label(key[2], key[3]), key[4], stated.token, why[1])
        return None

    def _cited(self, sentence: str, snippets: Sequence[Mapping[str, Any]]) -> Mentions:
        numbers = {int(n) for n in re.findall(r"\[(\d+)\]", sentence)}
        texts = [str(snippets[n - 1].get("text", "")) for n in sorted(numbers)
                 if 1 <= n <= len(snippets)]
        return self.reader.mentions("\n".join(texts)) if texts else Mentions()

    def _key(self, stated: Stated, own: Mentions, cited: Mentions,
             context: GroundingContext) -> Key | None:
        """The identity a figure is stated for, or ``None`` when one slot is unknown."""
        if stated.entity is None:  # several entities named next to the figure
            return None
        entity = stated.entity or (_only(own.entities) if own.entities else (
            _only(cited.entities) if cited.entities else context.entity))
        period = _only(own.periods) if own.periods else (
            _only(cited.periods) if cited.periods else context.period)
        channel = stated.channel if stated.channel != "" else self.profile.default_channel
        if entity is None or period is None or channel is None:
            return None
        return stated.metric, entity, period[0], period[1], channel

    @staticmethod
    def _verdict(stated: Stated, result: QueryResult, anchored: bool
                 ) -> tuple[str, str] | None:
        """``(reason, stored)`` when the figure may not stand, else ``None``."""
        if isinstance(result, ConflictResult):  # any amount for it: no single number
            if any(compare(stated, f) is not None for f in result.statements) or \
                    not stated.unit.percent:
                return "fact_in_conflict", " | ".join(
                    f"{format_value(f.value)} {f.unit}" for f in result.statements)
            return None
        if not isinstance(result, FoundResult):
            return None
        same = compare(stated, result.fact)
        stored = f"{format_value(result.fact.value)} {result.fact.unit}"
        if same is False:
            return ("contradicts_answer" if anchored else "contradicts_fact"), stored
        if same is None and anchored and not stated.unit.percent:
            return "contradicts_answer", stored
        return None
