"""A company the question names that the workspace does not know: ask, never assume home.

A question that names no entity is about the home company, and the answer says it
assumed so. But "What was Zentrix revenue in FY2025?" does name one — just not one the
profile knows — and answering with the home company's figure would put a number under a
name it does not belong to. :func:`unknown_organisation` finds such a name by its
position, narrowly (English questions only):

* directly before a metric name, as its owner: "Zentrix revenue", "Zentrix's revenue";
* or right after it with "of": "revenue of Zentrix";
* or anywhere else in a question about a metric, written as a name (capitalised words,
  no acronym alone): "In which fiscal year did Nike have the lowest revenue?", "the
  maximum revenue Nike reported".

The name is one to three capitalised words (or a word opening with digits then a capital:
"3M", "7-Eleven"), not the question's first word, not after a determiner ("the Total
revenue" is a line item), and each of its words is
one the workspace does not know (:func:`~ragspine_nb.agent.reading.unstated.unstated_words`:
no metric, column or entity name and no general word of questions about figures) and
no month or weekday. The question must not be written in title case (there capitals
say nothing). Last, :func:`ask_unknown_entity` asks only when no passage of the
workspace mentions the name either: a report's own company or segment ("Autodesk's
goodwill" over Autodesk's filing) is answered as before.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.scope.clarify import (
    CLARIFY_ANSWER_WITH_ASSUMPTIONS,
    CLARIFY_ASK_FIRST,
    CLARIFY_NONE,
    ClarificationResult,
)
from ragspine_nb.glossary import fold
from ragspine_nb.lexicon import MONTHS
from ragspine_nb.profile import DomainProfile
from ragspine_nb.vocab_matcher import VocabMatcher, shared_matcher
from ragspine_nb.wordset import content_words

__all__ = ["unknown_organisation", "unknown_part", "ask_unknown_entity"]

#: a capitalised word, or one opening with digits then a capital ("3M", "7-Eleven")
_NAME = r"(?:[A-Z]|\d+-?[A-Z])[A-Za-z&\-]*(?:\.(?=\s))?"
#: the owner right before the metric's name, a year between allowed ("3M's 2022 revenue"),
#: or a possessive and up to two lowercase words ("Nike's lowest quarterly revenue")
_BEFORE = re.compile(rf"(?:^|(\S+)\s+)((?:{_NAME}\s+){{0,2}}{_NAME})(?:(?:['\u2019]s?)?\s+"
                     r"(?:(?:FY|[Ff]iscal\s+(?:[Yy]ear\s+)?)?(?:19|20)\d\d\s+)?"
                     r"|['\u2019]s?\s+(?:[a-z]+\s+){1,2})$")
_AFTER = re.compile(rf"^\s+of\s+((?:{_NAME}\s+){{0,2}}{_NAME})(?![A-Za-z0-9])")
_DETERMINERS = frozenset("the a an its their our his her this that these those each every "
                         "any all total per".split())
_CALENDAR = frozenset(MONTHS) | frozenset(
    "monday tuesday wednesday thursday friday saturday sunday".split())
_WORD = re.compile(r"[A-Za-z]+")
#: a name anywhere: capitalised words (or digit-led ones), the word before it kept
_ANYWHERE = re.compile(rf"(\S+)\s+((?:{_NAME}\s+){{0,2}}{_NAME})(?![A-Za-z0-9&\-])")
#: an acronym, its plural too ("GAAP", "FYs"): no name by itself
_ACRONYM = re.compile(r"[A-Z][A-Z0-9&\-]*s?")
#: a quarter or a half written with digits ("4Q", "2H"): a period, no company
_QUARTER = re.compile(r"\d+[QH]\d*")


def _title_case(question: str, name: str, unknown: frozenset[str]) -> bool:
    """Whether the question's other words are mostly capitalised (no signal in capitals).

    Words of four letters or more after the first, the name's own words and the other
    words no table states left out ("Nike's revenue in North America": two names).
    """
    mine = set(_WORD.findall(name))
    words = [w for w in _WORD.findall(question)[1:] if len(w) >= 4 and w not in mine
             and w.casefold() not in unknown]
    return bool(words) and 2 * sum(w[0].isupper() for w in words) >= len(words)


def _unknown(name: str, unstated: frozenset[str]) -> bool:
    words = [w for w in re.split(r"[\s\-]+", name) if w]
    if any(w.casefold().strip(".") in _CALENDAR or _QUARTER.fullmatch(w) for w in words):
        return False
    folded = content_words(fold(name))  # "3M's" is read as the word "3ms"
    return bool(folded) and all(w in unstated or f"{w}s" in unstated for w in folded)


#: Profiles whose metric names' matcher is kept (:func:`_metric_names`).
_PROFILES = 8
_NAMES: dict[int, tuple[DomainProfile, VocabMatcher]] = {}
_NAMES_LOCK = threading.Lock()


def _name_matcher(names: Iterable[str]) -> VocabMatcher:
    """The ASCII names, case folded, each matched between ``[a-z0-9]`` edges."""
    return shared_matcher({n.casefold(): "" for n in names if n and n.isascii()},
                          hyphen_words=False)


def _metric_names(profile: DomainProfile) -> VocabMatcher:
    """The profile's metric labels and synonyms, matched (built once per profile object)."""
    with _NAMES_LOCK:
        kept = _NAMES.get(id(profile))
        if kept is not None and kept[0] is profile:
            return kept[1]
    matcher = _name_matcher(t for m in profile.metrics.values() for t in (m.label, *m.synonyms))
    with _NAMES_LOCK:
        if len(_NAMES) >= _PROFILES:
            _NAMES.pop(next(iter(_NAMES)))
        _NAMES[id(profile)] = (profile, matcher)
    return matcher


def _spans(question: str, names: Iterable[str] | VocabMatcher) -> list[tuple[int, int]]:
    """Where each name is written in ``question`` as a word (every name's own matches)."""
    matcher = names if isinstance(names, VocabMatcher) else _name_matcher(names)
    return [(start, end) for start, end, _, _ in matcher.each_match(question.casefold())]


def _owner(question: str, start: int) -> tuple[str, str] | None:
    """The text before and the capitalised name right before the metric at ``start``.

    Not after a determiner ("the Total revenue"); the question's first word is never
    part of it ("Was 3M's 2022 revenue …": "3M").
    """
    before = _BEFORE.search(question[:start])
    if before is None:
        return None
    if before.group(1) is not None:
        return None if before.group(1).casefold() in _DETERMINERS else \
            (question[:before.start(2)], before.group(2))
    first, _, rest = before.group(2).partition(" ")
    return (question[:before.start(2) + len(first) + 1], rest.strip()) if rest.strip() \
        else None


def unknown_organisation(question: str, metric_names: Iterable[str] | VocabMatcher,
                         unstated: Iterable[str], anywhere: bool = True) -> str:
    """The unknown company named as the owner of a metric in ``question``, or ``""``.

    ``metric_names``: the profile's metric labels and synonyms (or their matcher, as
    :func:`_metric_names` builds it); ``unstated``: the question's words the workspace
    does not know (``ParsedIntent.unstated``); ``anywhere``: also a name written away
    from the metric (:func:`_named_elsewhere`).

    Examples
    --------
    >>> unknown_organisation("What was Zentrix revenue in FY2025?", ["revenue"], ["zentrix"])
    'Zentrix'
    >>> unknown_organisation("What was the revenue of Zentrix Corp?", ["revenue"],
    ...                      ["zentrix", "corp"])
    'Zentrix Corp'
    >>> unknown_organisation("What was 3M's revenue in FY2025?", ["revenue"], ["3ms"])
    '3M'
    >>> unknown_organisation("What was Nike's lowest quarterly revenue?", ["revenue"], ["nikes"])
    'Nike'
    >>> unknown_organisation("What was the Total revenue in 2019?", ["revenue"], ["total"])
    ''
    >>> unknown_organisation("What was March revenue?", ["revenue"], ["march"])
    ''
    >>> unknown_organisation("In which fiscal year did Nike have the lowest revenue?",
    ...                      ["revenue"], ["nike"])
    'Nike'
    >>> unknown_organisation("What was revenue under GAAP?", ["revenue"], ["gaap"])
    ''
    >>> unknown_organisation("What was the revenue in both FYs?", ["revenue"], ["fys"])
    ''
    """
    if not question.isascii():
        return ""
    unknown = frozenset(unstated)
    spans = sorted(_spans(question, metric_names))
    for start, end in spans:
        owner = _owner(question, start)
        after = _AFTER.match(question[end:])
        names = [n for n in (owner[1] if owner else "", after.group(1) if after else "") if n]
        for name in names:
            if _unknown(name, unknown) and not _title_case(question, name, unknown):
                return name
    return _named_elsewhere(question, unknown) if spans and anywhere else ""


def _named_elsewhere(question: str, unknown: frozenset[str]) -> str:
    """A name the question writes away from the metric ("did Nike have the lowest …").

    Not the first word, not after a determiner, not an acronym alone ("under GAAP"):
    capitalised words (or digit-led ones, "3M") no table states.
    """
    for found in _ANYWHERE.finditer(question):
        before, name = found.group(1), found.group(2)
        if before.casefold().strip(",;:(") in _DETERMINERS:
            continue
        words = name.split()
        if all(_ACRONYM.fullmatch(w) for w in words):
            continue
        if _unknown(name, unknown) and not _title_case(question, name, unknown):
            return name
    return ""


def _part_words(words: list[str], unknown: frozenset[str]) -> bool:
    """Whether ``words`` name a part no table states: capitalised, none an acronym."""
    return bool(words) and all(w[0].isupper() and not w.isupper() for w in words) and \
        _unknown(" ".join(words), unknown)


def _owned_part(head: str, name: str, owners: Iterable[str],
                unknown: frozenset[str]) -> str:
    """``name`` as a part of a known company written in it or just before it (``head``)."""
    words = name.split()
    for owner in sorted(owners, key=len, reverse=True):
        size = len(owner.split())
        if " ".join(words[:size]).casefold() == owner and _part_words(words[size:], unknown):
            return name  # "ACME Singapore revenue"
        said = re.search(rf"(?<![a-z0-9]){re.escape(owner)}(?:['\u2019]s?)?\s+$",
                         head.casefold())
        if said and _part_words(words, unknown):  # "Nike's Zentrix revenue"
            return f"{head[said.start():].strip()} {name}"
    return ""


def unknown_part(question: str, metric_names: Iterable[str] | VocabMatcher,
                 unstated: Iterable[str], owners: Iterable[str]) -> str:
    """A part of a known company the question names as a metric's owner, or ``""``.

    "ACME Singapore revenue", "Nike's Zentrix revenue", "revenue of ACME Singapore":
    the company is known (``owners``: its names, case folded) but the capitalised words
    beside it are words no table states (``unstated``): a segment, a country or a
    subsidiary the workspace holds no figure of. The company's own figure would be
    another one's. An acronym ("Nike's GAAP revenue") and a word the workspace knows
    ("ACME Hong Kong revenue") name no such part.

    Examples
    --------
    >>> unknown_part("What was ACME Singapore revenue in FY2025?", ["revenue"],
    ...              ["singapore"], ["acme"])
    'ACME Singapore'
    >>> unknown_part("What was the revenue of ACME Singapore?", ["revenue"],
    ...              ["singapore"], ["acme"])
    'ACME Singapore'
    >>> unknown_part("What was Nike's Zentrix revenue?", ["revenue"], ["zentrix"], ["nike"])
    "Nike's Zentrix"
    >>> unknown_part("What was Nike's GAAP revenue?", ["revenue"], ["gaap"], ["nike"])
    ''
    """
    if not question.isascii():
        return ""
    unknown, owned = frozenset(unstated), [o for o in owners if o]
    for start, end in sorted(_spans(question, metric_names)):
        owner = _owner(question, start)
        after = _AFTER.match(question[end:])
        found = [owner] if owner else []
        found += [("", after.group(1))] if after else []
        for head, name in found:
            part = _owned_part(head, name, owned, unknown)
            if part and not _title_case(question, part, unknown):
                return part
    return ""


def ask_unknown_entity(intent: ParsedIntent, profile: DomainProfile,
                       clar: ClarificationResult, mentioned: Callable[[str], bool],
                       anywhere: bool = True) -> ClarificationResult | None:
    """Ask which company is meant, where the answer would otherwise take the home one.

    Only for a question that would be answered (no other ask-back, no refusal): one
    that names no known entity, for a name that ``mentioned`` (the workspace's passages)
    does not know either; or one that names a part of a known entity no table states
    (:func:`unknown_part`: the entity's own figure would be another one's).
    ``anywhere=False`` reads a name only as a metric's owner (a folder of several
    companies asks which one anyway, listing them).
    """
    if clar.mode not in (CLARIFY_NONE, CLARIFY_ANSWER_WITH_ASSUMPTIONS):
        return None
    if intent.entities:
        owners = [fold(n) for code in intent.entities if (e := profile.entities.get(code))
                  for n in (e.label, *e.synonyms)]
        name = unknown_part(intent.raw_question, _metric_names(profile), intent.unstated,
                            owners)
    else:
        name = unknown_organisation(intent.raw_question, _metric_names(profile),
                                    intent.unstated, anywhere)
        name = "" if name and mentioned(name) else name
    if not name:
        return None
    known = tuple(e.label for code, e in profile.entities.items()
                  if not (profile.is_builtin and code == profile.home_entity_code)) or \
        tuple(e.label for e in profile.entities.values())  # "the company": no name
    return ClarificationResult(
        CLARIFY_ASK_FIRST, narrowing_options=known,
        question=f"Which company do you mean? I do not know “{name}”. I know: "
                 f"{', '.join(known)}.")
