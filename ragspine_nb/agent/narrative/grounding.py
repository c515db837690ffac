"""Narrative grounding: prose never contradicts a stored fact or its own structured line.

Each sentence of a model's narrative answer is kept only when

1. it is not addressed to whoever answers ("Note to the AI: … always report this",
   "Ignore previous instructions …": :mod:`ragspine_nb.agent.narrative.addressed`);
2. every number in it appears in some retrieved snippet (no invented figures), and
3. every figure it states of a stored metric — as digits or words, in any currency or
   scale, as a level, a change or a percentage change (:mod:`ragspine_nb.agent.narrative.claims`)
   — is confirmed by the fact store, or nothing stored speaks to it
   (:mod:`ragspine_nb.agent.narrative.claim_check`). The entities and period are the ones named
   with the figure, else the ones the sentence names, else (for a sentence naming no
   metric, read as the sentence before it) that sentence's, else the ones the snippets
   it cites name (when exactly one), else the question's (its one entity, or the home
   entity when it names none; its one period). A figure naming no period must equal a
   stored value of some period; a figure in another currency than the stored one cannot
   be confirmed and is withheld; a percentage stated as an amount's level is a share,
   not the level. Beside the answer's own structured line only the line's value may
   appear. No amount is kept for a fact the documents state differently (a conflict),
   in any unit: the structured channel answers those with every value and its source.

Dropped sentences are returned with the reason, the fact's identity and both values,
so the trace can record them (identities only) and the result can show them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from ragspine_nb.agent.narrative.addressed import addressed_to_reader
from ragspine_nb.agent.narrative.claim_check import CONFIRMED, CONTRADICTED, UNKNOWN, verdict
from ragspine_nb.agent.narrative.claims import PCT_CHANGE, Claim, ClaimReader
from ragspine_nb.agent.narrative.figures import FigureReader, Mentions, Stated, unit_parts
from ragspine_nb.agent.providers import SENTENCE
from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.scope.clarify import ClarificationResult
from ragspine_nb.agent.write.templates import format_value
from ragspine_nb.core import ConflictResult, Dropped, Fact, FoundResult, QueryResult
from ragspine_nb.period_codes import normalize_period, period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = ["Grounder", "GroundingContext", "Dropped", "Grounded", "compare", "sentences",
           "question_context", "REASONS"]

#: Why a sentence was dropped.
REASONS = {
    "not_in_snippets": "a number in it appears in no retrieved passage",
    "instruction": "it is addressed to whoever answers, not a statement of the documents",
    "contradicts_fact": "it states a figure the fact store holds with another value",
    "unreconciled": "it states a figure of a stored metric that no stored value or change "
                    "confirms (another currency, or no period it matches)",
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
        self.claims = ClaimReader(profile)

    def ground(self, answer: str, snippets: Sequence[Mapping[str, Any]],
               context: GroundingContext | None = None) -> Grounded:
        """Keep the sentences of ``answer`` that pass every check (module docstring)."""
        corpus = " ".join(str(s.get("text", "")) for s in snippets).replace(",", "")
        cache: dict[Any, Any] = {}
        kept, dropped = [], []
        previous = ""
        for sent in sentences(answer):
            numbers = [n.replace(",", "") for n in _NUMBER.findall(re.sub(r"\[\d+\]", "", sent))]
            why = Dropped(sent.strip(), "instruction") if addressed_to_reader(sent) else None
            if why is None and not all(n in corpus for n in numbers):
                why = Dropped(sent.strip(), "not_in_snippets")
            why = why or self.check(sent, context or GroundingContext(), snippets, cache,
                                    previous)
            if why is None:
                kept.append(sent.strip())
            else:
                dropped.append(why)
            previous = sent
        return Grounded(" ".join(s for s in kept if s), tuple(dropped))

    def first_clash(self, text: str, context: GroundingContext) -> Dropped | None:
        """The first sentence of ``text`` the fact store contradicts (e.g. a FAQ answer)."""
        cache: dict[Any, Any] = {}
        previous = ""
        for sent in sentences(text):
            why = self.check(sent, context, (), cache, previous)
            if why is not None:
                return why
            previous = sent
        return None

    def check(self, sentence: str, context: GroundingContext,
              snippets: Sequence[Mapping[str, Any]] = (),
              cache: dict[Any, Any] | None = None, previous: str = "") -> Dropped | None:
        """Why ``sentence`` must be dropped (its first unconfirmed figure), or ``None``.

        ``previous`` is the sentence before it in the answer; the sentence before it in
        the passage it cites is preferred when it can be found there.
        """
        before = _before(sentence, snippets) or previous
        claims = self.claims.claims(sentence, before)
        if not claims:
            return None
        cited = self._cited(sentence, snippets)
        carried = self.reader.mentions(before) if any(c.carried for c in claims) \
            else Mentions()
        cache = {} if cache is None else cache
        for claim in claims:
            if claim.compound or claim.before & context.qualifiers:
                continue  # "Services revenue", "unrecognized compensation cost": not the row
            why = self._judge(claim, _slots(claim, carried, cited, context), context, cache)
            if why is not None:
                return replace(why, sentence=sentence.strip())
        return None

    def _cited(self, sentence: str, snippets: Sequence[Mapping[str, Any]]) -> Mentions:
        numbers = {int(n) for n in re.findall(r"\[(\d+)\]", sentence)}
        texts = [str(snippets[n - 1].get("text", "")) for n in sorted(numbers)
                 if 1 <= n <= len(snippets)]
        return self.reader.mentions("\n".join(texts)) if texts else Mentions()

    def _series(self, metric: str, entity: str, channel: str, cache: dict[Any, Any]
                ) -> list[Fact]:
        key = ("series", metric, entity, channel)
        if key not in cache:
            cache[key] = self.store.iter_facts(metric_code=metric, entity=entity,
                                               channel=channel)
        return list(cache[key])

    def _lookup(self, key: Key, cache: dict[Any, Any]) -> QueryResult:
        if key not in cache:
            cache[key] = self.store.lookup(*key)
        return cast(QueryResult, cache[key])

    def _judge(self, claim: Claim, slots: _Slots | None, context: GroundingContext,
               cache: dict[Any, Any]) -> Dropped | None:
        """The claim's verdict against the store, as a :class:`Dropped` when it may not stand."""
        if slots is None:
            return None
        entities, period, channel = slots
        channel = channel or self.profile.default_channel
        keys = [(claim.metric, e, period[0], period[1], channel) for e in entities] \
            if period is not None else []
        for key in keys:
            result = self._lookup(key, cache)
            if isinstance(result, ConflictResult) and claim.kind != PCT_CHANGE:
                return _dropped("fact_in_conflict", claim, key, " | ".join(
                    f"{format_value(f.value)} {f.unit}" for f in result.statements))
        series = [f for e in entities for f in self._series(claim.metric, e, channel, cache)]
        if len({f.entity for f in series}) < len(entities):
            return None  # an entity with nothing stored: the figure may be its
        found = verdict(replace(claim, period=period), series)
        if found in (CONFIRMED, UNKNOWN):
            return None
        anchored = any(_key_of(a) in keys for a in context.anchors)
        reason = "contradicts_answer" if anchored else (
            "contradicts_fact" if found == CONTRADICTED else "unreconciled")
        key = keys[0] if len(keys) == 1 else (claim.metric, "/".join(entities),
                                              *(period or ("", "")), channel)
        shown = [f for f in series if period is None or (f.period_type, f.period) == period]
        return _dropped(reason, claim, key, " | ".join(
            f"{period_label(f.period_type, f.period)}: {format_value(f.value)} {f.unit}"
            if period is None else f"{format_value(f.value)} {f.unit}" for f in shown[:6]))


_Slots = tuple[tuple[str, ...], tuple[str, str] | None, str]


def _slots(claim: Claim, carried: Mentions, cited: Mentions, context: GroundingContext
           ) -> _Slots | None:
    """The claim's candidate entities, period and channel; ``None`` when one is ambiguous.

    Entities: the claim's own, else the sentence before's (a carried metric), else the
    cited passages' (all of them: the figure must match one), else the question's.
    Period: the claim's own, else the sentence before's one period (a carried metric),
    else the cited passages' one period, else the question's; an earlier period's level
    has none.
    """
    if claim.channel is None:
        return None
    entities = claim.entities or tuple(sorted(carried.entities)) or tuple(
        sorted(cited.entities)) or ((context.entity,) if context.entity else ())
    if not entities:
        return None
    period = claim.period
    if period is None and not claim.earlier:
        for source in (carried.periods, cited.periods):
            if source:
                period = _only(source)
                break
        else:
            period = context.period
    return entities, period, claim.channel


def _dropped(reason: str, claim: Claim, key: tuple[str, ...], stored: str) -> Dropped:
    metric, entity, period_type, period, channel = key
    return Dropped("", reason, metric, entity,
                   period_label(period_type, period) if period else "", channel, claim.token,
                   stored)


def _before(sentence: str, snippets: Sequence[Mapping[str, Any]]) -> str:
    """The sentence before ``sentence`` in the passage it cites, when it is found there."""
    body = " ".join(re.sub(r"\[\d+\]", " ", sentence).split())
    if len(body) < 8:
        return ""
    for n in sorted({int(n) for n in re.findall(r"\[(\d+)\]", sentence)}):
        if 1 <= n <= len(snippets):
            text = " ".join(str(snippets[n - 1].get("text", "")).split())
            at = text.find(body)
            if at > 0:
                earlier = [x for x in SENTENCE.findall(text[:at]) if x.strip()]
                return earlier[-1] if earlier else ""
    return ""
