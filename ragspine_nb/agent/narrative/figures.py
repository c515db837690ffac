"""Figures a sentence states: which metric, which number, in which unit and scale.

Pure reading, no store: the metric, entity, period and channel names come from the
profile's glossary (the intent parser's vocabulary matcher and period pattern), the
number from :func:`~ragspine_nb.extract.values.parse_number` and its unit and scale
from :func:`~ragspine_nb.extract.values.detect_unit` on the words around it. A figure
is the first number after a metric's name in the same clause, unless the words between
say it is a change ("grew 6.4%", "up by 85", "增长6.4%") rather than a level.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from ragspine_nb.agent.reading.intent import _PERIOD, _compile, _find_all
from ragspine_nb.extract.values import detect_unit, parse_number
from ragspine_nb.glossary import entity_vocabulary, fold, metric_vocabulary, text_channel_vocabulary
from ragspine_nb.lexicon import MONTH, MONTH_WORD
from ragspine_nb.period_codes import normalize_period
from ragspine_nb.profile import DomainProfile
from ragspine_nb.units import SCALES, UnitParts, unit_parts
from ragspine_nb.wordset import STOP_WORDS, content_words

__all__ = ["Stated", "Mentions", "FigureReader", "UnitParts", "unit_parts", "SCALES"]

_NUMBER = re.compile(r"(?<![a-z0-9_.,])[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d])")
_CLAUSE_END = re.compile(r"[;。!?！？]|\.(?:\s|$)")
_CHANGE = re.compile(r"(?<![a-z])(?:up|down|by|rose|rises?|rising|fell|falls?|grew|grows?|"
                     r"growth|increas\w*|decreas\w*|declin\w*|drop\w*|gain\w*|chang\w*|from|"
                     r"compared|versus|vs|against|prior|previous|last)(?![a-z])"
                     r"|增长|下降|增加|减少|同比|上升|变动|增幅|降幅|较|相比|上年|去年")
#: ("due to $36.1 billion" names a cause's amount, not the level: "to" ends a level only
#: after a movement, "rose to 1,405")
_LEVEL_END = re.compile(r"(?:(?<!due )(?<!owing )(?<!related )(?<!relating )"
                        r"(?<!attributable )(?<!attributed )(?<!contributed )(?<!compared )"
                        r"\bto|\bat|\bof|\bwas|\bwere|\bis|\breached|\btotal(?:l)?ed|"
                        r"\bstood at|[:=为达至是])\s*(?:us\$|hk\$|rmb|usd|hkd|cny|人民币|\$)?\s*$")
_POINTS = re.compile(r"^\s?(?:percentage points?|pp\b|ppt|个百分点|百分点|bps?\b|basis points?)")
_CURRENCY_BEFORE = re.compile(r"(us\$|hk\$|rmb|usd|hkd|cny|人民币|美元|港元|港币)\s?$")
_LETTER_SCALE = {"m": "million", "mn": "million", "bn": "billion", "b": "billion",
                 "k": "thousand"}
#: Dates and bare years are not figures: "March 31" (a day), "in 2019 and 2018." (years)
_DATE_PARTS = re.compile(
    rf"(?<![a-z]){MONTH}\s+\d{{1,2}}"
    r"(?:st|nd|rd|th)?(?![\d,.]\d)|(?<![\d.,])\d{1,2}(?:st|nd|rd|th)?\s+"
    rf"{MONTH_WORD}(?![a-z])"
    r"|(?<![\d.,$€£¥])(?:19|20)\d\d(?![\d%]|[.,]\d|\s*(?:million|billion|thousand|"
    r"mn|bn|m|k|b|百万|亿|万|元)(?![a-z]))")
#: Words after which a clause's numbers are a cause's or a part's, not the metric's level.
_CAUSE_OR_PART = re.compile(r"(?<![a-z])(?:due to|driven by|as a result of|resulting from|"
                            r"attributable to|owing to|caused by|offset by|because|reflecting|"
                            r"includ(?:ed|es|ing)|compris(?:ed|es|ing)|consist(?:ed|s|ing) of|"
                            r"of which|such as)(?![a-z])|由于|因为|其中|包括")
_LEVEL_VERB = re.compile(r"(?<![a-z])(?:was|were|is|are|totall?ed|reached|stood at|"
                         r"amounted to|came to)(?![a-z])|为|达")


#: The words running up to a metric's name (back to punctuation or a number).
_RUN_UP = re.compile(r"((?:[a-z][a-z'’-]*\s+){1,4})$")


def _words_before(text: str, start: int) -> frozenset[str]:
    """The content words written right before ``start``: up to four, back to a stop word.

    >>> sorted(_words_before("total unrecognized compensation cost was", 32))
    ['compensation', 'total', 'unrecognized']
    >>> sorted(_words_before("and print the revenue", 14))
    []
    """
    m = _RUN_UP.search(text[max(0, start - 60):start])
    run: list[str] = []
    for word in reversed(m.group(1).split() if m else []):
        if word in STOP_WORDS:
            break
        run.append(word)
    return content_words(" ".join(run))


def _after_cause_or_part(between: str) -> bool:
    """Whether a number follows a cause or a part with no level verb after it.

    "was driven by write-offs of $64 million" (the cause's amount) but not "revenue,
    driven by demand, was 999" (the level, stated after the cause).
    """
    marks = list(_CAUSE_OR_PART.finditer(between))
    return bool(marks) and not _LEVEL_VERB.search(between[marks[-1].end():])


#: A number right after these names a standard, note or section ("ASC 605"), not a figure.
_REFERENCE = re.compile(r"(?<![a-z])(?:asc|asu|ifrs|ias|sfas|fas|topic|note|notes|section|"
                        r"item|rule|article|chapter|schedule|exhibit|form|tier|level|phase|"
                        r"no\.?)\s*$")
_MAX_GAP = 120
#: Texts whose figures and mentions a reader keeps (they depend on the text alone).
_CACHE_SIZE = 4096
#: Profiles whose shared reader is kept (:meth:`FigureReader.shared`).
_SHARED_PROFILES = 8
_SHARED: dict[int, tuple[DomainProfile, FigureReader]] = {}
_SHARED_LOCK = threading.Lock()
#: how far before a metric's name a channel or entity may qualify it ("agency new
#: sales", "ACME Hong Kong's revenue")
_CHANNEL_REACH = 24
_ENTITY_REACH = 40


@dataclass(frozen=True)
class Stated:
    """A number a sentence states for a metric, as written."""

    metric: str
    #: the channel named with it (between the name and the number or just before the
    #: name); ``""`` none named (the default channel), ``None`` several (ambiguous)
    channel: str | None
    #: the entity named with it, the same way; ``""`` none named there, ``None`` several
    entity: str | None
    token: str
    value: float
    unit: UnitParts
    #: half a unit of the token's last significant digit, at most 5% of it (written scale)
    tolerance: float
    start: int
    #: the content words written just before the metric's name ("total unrecognized
    #: compensation" before "cost"): they may make it another quantity
    before: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Mentions:
    """The entities, periods and (non-default) channels a text names."""

    entities: frozenset[str] = frozenset()
    periods: frozenset[tuple[str, str]] = frozenset()
    channels: frozenset[str] = frozenset()


def _tolerance(token: str, value: float) -> float:
    digits = token.lstrip("+-").replace(",", "")
    if "." in digits:
        half = 0.5 * 10 ** -len(digits.split(".")[1])
    else:
        half = 0.5 * 10 ** (len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0)
    return float(max(min(half, 0.05 * abs(value)), 1e-9))


def _unit_of(before: str, after: str) -> UnitParts:
    """The unit written around a number: ``US$`` before, ``million`` / ``亿元`` / ``%`` after."""
    currency = _CURRENCY_BEFORE.search(before)
    prefix = currency.group(1) if currency else ""
    word = re.match(r"\s?([^\s\d,.;:()（）\[\]]*)", after)
    suffix = word.group(1) if word else ""
    suffix = _LETTER_SCALE.get(suffix, suffix)
    parts = unit_parts(detect_unit(f"{prefix} {suffix}"))
    if parts.factor is not None and not parts.currency and re.match(r"[亿万]", suffix):
        return UnitParts("CNY", parts.factor)  # 亿 / 万 without a currency: yuan
    return parts


def _near(spans: list[tuple[int, int, str, str]], start: int, end: int) -> str | None:
    """The one code named within ``[start, end)``: ``""`` none, ``None`` several."""
    named = {code for s, e, code, _ in spans if start <= s and e <= end}
    return "" if not named else next(iter(named)) if len(named) == 1 else None


class FigureReader:
    """Reads figures and mentions with one profile's vocabulary (compiled once).

    What a text states and names depends on the text alone: each reader keeps the
    last texts' readings, keyed by the text (a changed text is read anew).
    """

    def __init__(self, profile: DomainProfile) -> None:
        self.profile = profile
        self._metrics = _compile(metric_vocabulary(profile))
        self._entities = _compile(entity_vocabulary(profile))
        self._channels = _compile(text_channel_vocabulary(profile))
        self._mentions = lru_cache(maxsize=_CACHE_SIZE)(self._read_mentions)
        self._figures = lru_cache(maxsize=_CACHE_SIZE)(self._read_figures)

    @classmethod
    def shared(cls, profile: DomainProfile) -> FigureReader:
        """One reader per profile object, compiled on first use (the last few profiles kept).

        A profile is read-only: every question of an agent reads with the same reader
        instead of compiling the vocabulary again.
        """
        with _SHARED_LOCK:
            kept = _SHARED.get(id(profile))
            if kept is not None and kept[0] is profile:
                return kept[1]
            reader = cls(profile)
            if len(_SHARED) >= _SHARED_PROFILES:
                _SHARED.pop(next(iter(_SHARED)))
            _SHARED[id(profile)] = (profile, reader)
            return reader

    def mentions(self, text: str) -> Mentions:
        """What ``text`` names: entities, explicit periods and non-default channels."""
        return self._mentions(text)

    def qualifiers(self, text: str) -> frozenset[str]:
        """The content words written right before each metric name ``text`` uses."""
        folded = fold(text)
        return frozenset().union(*(_words_before(folded, start)
                                   for start, *_ in _find_all(folded, self._metrics)))

    def figures(self, sentence: str) -> list[Stated]:
        """The levels the sentence states, one per metric name followed by a number."""
        return list(self._figures(sentence))

    def _read_mentions(self, text: str) -> Mentions:
        folded = fold(text)
        entities = {e[2] for e in _find_all(folded, self._entities)}
        periods = {p for m in _PERIOD.finditer(folded)
                   if (p := normalize_period(self.profile, m.group(0), relative=False))}
        channels = {c[2] for c in _find_all(folded, self._channels)
                    if c[2] != self.profile.default_channel}
        return Mentions(frozenset(entities), frozenset(periods), frozenset(channels))

    def _read_figures(self, sentence: str) -> tuple[Stated, ...]:
        text = fold(re.sub(r"\[\d+\]", " ", sentence))
        taken = [False] * len(text)
        for m in (*_PERIOD.finditer(text), *_DATE_PARTS.finditer(text)):
            taken[m.start():m.end()] = [True] * (m.end() - m.start())
        numbers = [m for m in _NUMBER.finditer(text) if not taken[m.start()]]
        metrics = _find_all(text, self._metrics)
        channels = [c for c in _find_all(text, self._channels)
                    if c[2] != self.profile.default_channel]
        entities = _find_all(text, self._entities)
        out = []
        for i, (start, end, code, _term) in enumerate(metrics):
            limit = metrics[i + 1][0] if i + 1 < len(metrics) else len(text)
            clause = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
            number = self._level(text, end, [n for n in numbers if end <= n.start() < limit],
                                 clause)
            if number is None:
                continue
            channel = _near(channels, start - _CHANNEL_REACH, number.start())
            entity = _near(entities, start - _ENTITY_REACH, number.start())
            parsed = parse_number(number.group(0))
            if parsed.value is not None:
                out.append(Stated(code, channel, entity, number.group(0), parsed.value,
                                  _unit_of(text[:number.start()], text[number.end():]),
                                  _tolerance(number.group(0), parsed.value), number.start(),
                                  _words_before(text, start)))
        return tuple(out)

    @staticmethod
    def _level(text: str, end: int, numbers: list[re.Match[str]],
               clause: int = 0) -> re.Match[str] | None:
        """The first number after a metric's name that states its level, in its clause.

        Numbers the words before them mark as a change or a reference ("grew 6.4%",
        "up by 85", "from 1,320", "同比增长6.4%", "ASC 605") are passed over; the clause ends
        at ``;`` / ``。`` / a full stop. A number past words naming a cause or a part, with
        no level verb after them ("driven by write-offs of $64 million", "included S$215
        million for …", "as a result of interest expense of $3.3 million" — the name itself
        inside the cause), is the cause's or the part's, not the metric's level; "revenue,
        driven by demand, was 999" is the level. ``clause`` is where the name's clause starts.
        """
        prev = end
        for number in numbers:
            gap = text[prev:number.start()]
            if _CLAUSE_END.search(gap) or number.start() - end > _MAX_GAP:
                return None
            prev = number.end()
            if _after_cause_or_part(text[clause:number.start()]):
                continue
            if _REFERENCE.search(gap):
                continue
            if _CHANGE.search(gap) and not _LEVEL_END.search(gap):
                continue
            if _POINTS.match(text[number.end():]):
                continue
            return number
        return None
