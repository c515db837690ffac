"""What a sentence claims about stored quantities: every figure, as a level or a change.

Grounding (:mod:`ragspine_nb.agent.narrative.grounding`) must catch a restated figure however it is
phrased, so a :class:`ClaimReader` reads every figure of a sentence — digits or number
words (:func:`~ragspine_nb.number_words.spell_out_numbers`), any currency, a scale, a
percentage — with

* its **metric**: the name before it in its clause (a profile synonym, or a common idiom
  for a profile metric: "top line" for the metric named "revenue"); in a sentence naming
  none and whose subject points back ("It …", "This …", "The figure …"), the last metric
  the sentence before names ("… revenue in FY2025? It came in at US$988m");
* its **kind**: a level ("was 1,405"), a change ("fell by 833", "up 85") or a percentage
  change ("grew 6.4%"), with the direction the words give; a number after "from",
  "versus" or "prior" is an earlier period's level;
* its **period**: the one named nearest to it in its clause ("in FY2024 was 822; it then
  rose in FY2025" reads 822 for FY2024), else the sentence's one period, else unknown;
* its **entities**: the one named with it (before the metric's name, or right after the
  number: "US$811m in Hong Kong"), else every entity the sentence names, else unknown.

A name that is not the figure's subject (a complement, a container, a date:
:mod:`ragspine_nb.agent.narrative.claim_subject`), numbers counting things ("58,733,844 shares"),
numbers naming a cause or a part ("driven by write-offs of $64 million"), a hypothesis
("if …, operating income would have increased by $6.5 million"), a reference
("ASC 605"), points ("2 percentage points") or a date are no claims of the metric, nor is
a percentage stated as the level of an amount ("30% of group revenue": a share).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ragspine_nb.agent.narrative.claim_subject import complement, container, counted, dated_name
from ragspine_nb.agent.narrative.figures import (
    _CLAUSE_END,
    _DATE_PARTS,
    _MAX_GAP,
    _NUMBER,
    _POINTS,
    _REFERENCE,
    FigureReader,
    _after_cause_or_part,
    _near,
    _tolerance,
    _unit_of,
    _words_before,
)
from ragspine_nb.agent.reading.intent import _PERIOD, _compile, _find_all
from ragspine_nb.extract.values import parse_number
from ragspine_nb.glossary import fold, metric_vocabulary
from ragspine_nb.number_words import spell_out_numbers
from ragspine_nb.period_codes import normalize_period
from ragspine_nb.profile import DomainProfile
from ragspine_nb.units import UnitParts

__all__ = ["Claim", "ClaimReader", "LEVEL", "CHANGE", "PCT_CHANGE", "IDIOMS"]

LEVEL, CHANGE, PCT_CHANGE = "level", "change", "pct_change"
#: Common names of a quantity and the words a profile metric's names must include for the
#: idiom to name it (exactly one metric must qualify).
IDIOMS: dict[str, tuple[str, ...]] = {
    "top line": ("revenue", "revenues", "sales", "turnover"),
    "top-line": ("revenue", "revenues", "sales", "turnover"),
    "topline": ("revenue", "revenues", "sales", "turnover"),
    "bottom line": ("net income", "net profit", "net earnings", "profit for the year"),
    "bottom-line": ("net income", "net profit", "net earnings", "profit for the year"),
}
_CHANGE_WORD = re.compile(
    r"(?<![a-z])(?:up|down|by|rose|rises?|rising|fell|falls?|fallen|grew|grows?|grown|growth|"
    r"increas\w*|decreas\w*|declin\w*|drop\w*|gain\w*|chang\w*|jump\w*|climb\w*|surg\w*|"
    r"slump\w*|plung\w*|soar\w*|shr[aiu]nk\w*)(?![a-z])|增长|下降|增加|减少|同比|上升|变动|增幅|降幅|下滑")
_DOWN = re.compile(r"(?<![a-z])(?:down|fell|falls?|fallen|declin\w*|decreas\w*|drop\w*|"
                   r"lower|reduc\w*|shr[aiu]nk\w*|slump\w*|plung\w*|contract\w*)(?![a-z])"
                   r"|下降|减少|下滑|降幅|降低")
_UP = re.compile(r"(?<![a-z])(?:up|rose|rises?|rising|grew|grows?|grown|growth|increas\w*|"
                 r"gain\w*|higher|jump\w*|climb\w*|surg\w*|soar\w*)(?![a-z])|增长|增加|上升|增幅|提高")
#: A number right after these is an earlier period's level ("up from 1,320").
_PRIOR = re.compile(r"(?:(?<![a-z])(?:from|compared (?:with|to)|versus|vs\.?|against|prior|"
                    r"previous|a year earlier)|较|相比)\s*(?:us\$|hk\$|rmb|usd|hkd|cny|人民币|\$)?"
                    r"\s*$")
#: What the words say a level is, at the end of the words before it ("was", "to", "at").
_LEVEL_END = re.compile(r"(?:\bto|\bat|\bwas|\bwere|\bis|\breached|\btotal(?:l)?ed|"
                        r"\bstood at|[:=为达至是])\s*(?:us\$|hk\$|rmb|usd|hkd|cny|人民币|\$)?\s*$")
_AFTER_ENTITY = re.compile(r"\s*(?:in|for|at|from|of|by)\s+(?:the\s+)?$")
_AFTER_REACH = 30
#: "Amounts billed include $60.3 million …": a part, not the level.
_INCLUDE = re.compile(r"(?<![a-z])include(?![a-z])")
#: A figure after a condition or a modal is a hypothesis, not a statement of what was
#: ("if … were higher by one point, operating income would have increased by $6.5 million").
_HYPOTHETICAL = re.compile(r"(?<![a-z])(?:if|would|could|might|unless|assuming|hypothetical\w*)"
                           r"(?![a-z])|如果|假如|假设|若")
#: A sentence whose subject points back ("It came in at …", "This was …", "该数字为…"):
#: its figures are the quantity the sentence before names.
_ANAPHOR = re.compile(r"^\W*(?:(?:and|but|so|yet)\s+)?(?:it|this|that|these|those|which|"
                      r"the (?:figure|amount|number|total|sum|result|latter|former)|它|该|这|此)"
                      r"(?![a-z])")
_LIST_GAP = re.compile(r"\s*(?:,|and|&|、|和|及)\s*(?:and\s+)?(?:the\s+)?")
#: Currencies named in words after a number (and its scale word).
_CURRENCY_WORDS = re.compile(
    r"\s?(?:million|billion|thousand|trillion|mn|bn|m|k|b)?\s*(?:of\s+)?"
    r"(?:(u\.?s\.? dollars?|american dollars?|us\$)|(hong kong dollars?|hk dollars?|hk\$)"
    r"|(renminbi|yuan|rmb|chinese yuan)|(euros?)|(pounds? sterling|british pounds?|pounds?)"
    r"|(japanese yen|yen))(?![a-z])")
_CURRENCY_CODES = ("USD", "HKD", "CNY", "EUR", "GBP", "JPY")


@dataclass(frozen=True)
class Claim:
    """One figure a sentence states, read as a level or a change of one metric."""

    metric: str
    #: the channel named with it: ``""`` none (the default), ``None`` several
    channel: str | None
    #: the entities it may be about (``()``: none named, the context decides)
    entities: tuple[str, ...]
    #: the period named with it; ``None``: none (any stored period may match)
    period: tuple[str, str] | None
    kind: str
    #: +1 a rise, -1 a fall, 0 not said
    direction: int
    token: str
    value: float
    unit: UnitParts
    tolerance: float
    #: the content words written just before the metric's name
    before: frozenset[str] = frozenset()
    #: the metric comes from the sentence before (this one names none)
    carried: bool = False
    #: an earlier period's level ("up from 1,320"): its period is not said
    earlier: bool = False
    #: for an earlier level, the period its sentence names nearest it (it is before that)
    beside: tuple[str, str] | None = None
    #: the metric's name is qualified by another metric's name right before it
    #: ("Services revenue" for a stored "Services" row): the figure is the compound's
    compound: bool = False


def _idioms(profile: DomainProfile) -> dict[str, str]:
    """Idiom → the one metric code whose names include one of its words."""
    names = metric_vocabulary(profile)
    out: dict[str, str] = {}
    for idiom, words in IDIOMS.items():
        codes = {names[fold(w)] for w in words if fold(w) in names}
        if len(codes) == 1 and fold(idiom) not in names:
            out[fold(idiom)] = next(iter(codes))
    return out


def _direction(words: str) -> int:
    down, up = _DOWN.search(words), _UP.search(words)
    if down and up:  # the word nearest the number says it
        return -1 if down.end() > up.end() else 1
    return -1 if down else 1 if up else 0


class ClaimReader:
    """Reads a sentence's claims with one profile's vocabulary (compiled once)."""

    def __init__(self, profile: DomainProfile) -> None:
        self.profile = profile
        self.figures = FigureReader.shared(profile)
        self._idioms = _compile(_idioms(profile))

    def claims(self, sentence: str, previous: str = "") -> tuple[Claim, ...]:
        """Every claim of ``sentence``; ``previous`` is the sentence before it (or ``""``)."""
        # a full stop after a digit and before a space ends the sentence ("… in 2018.")
        text = re.sub(r"(?<=\d)\.(?=\s|$)", " ",
                      fold(spell_out_numbers(re.sub(r"\[\d+\]", " ", sentence))))
        periods = [(m.start(), m.end(), p) for m in _PERIOD.finditer(text)
                   if (p := normalize_period(self.profile, m.group(0), relative=False))]
        taken = [False] * len(text)
        for m in (*_PERIOD.finditer(text), *_DATE_PARTS.finditer(text)):
            taken[m.start():m.end()] = [True] * (m.end() - m.start())
        numbers = [m for m in _NUMBER.finditer(text) if not taken[m.start()]]
        if not numbers:
            return ()
        metrics = self._metrics(text)
        carried = False
        if not metrics and previous and _ANAPHOR.match(text):
            last = self._metrics(fold(previous))
            if last:
                metrics, carried = [(0, 0, last[-1][2], "")], True
        entities = _find_all(text, self.figures._entities)
        channels = [c for c in _find_all(text, self.figures._channels)
                    if c[2] != self.profile.default_channel]
        out: list[Claim] = []
        for i, (start, end, code, _term) in enumerate(metrics):
            limit = metrics[i + 1][0] if i + 1 < len(metrics) else len(text)
            clause = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
            prev = end
            for number in (n for n in numbers if end <= n.start() < limit):
                gap = text[prev:number.start()]
                if _CLAUSE_END.search(gap) or number.start() - end > _MAX_GAP:
                    break
                prev = number.end()
                compound = i > 0 and not text[metrics[i - 1][1]:start].strip()
                claim = self._claim(text, (start, end, code, compound), number, gap, clause,
                                    periods, entities, channels)
                if claim is not None:
                    out.append(claim if not carried else _carried(claim))
        return _respectively(text, out, periods)

    def _metrics(self, text: str) -> list[tuple[int, int, str, str]]:
        named = [m for m in _find_all(text, self.figures._metrics) if not dated_name(m[3])]
        spans = [s for s in _find_all(text, self._idioms)
                 if not any(a < s[1] and s[0] < b for a, b, *_ in named)]
        return sorted(named + spans)

    def _claim(self, text: str, metric: tuple[int, int, str, bool], number: re.Match[str],
               gap: str, clause: int, periods: list[tuple[int, int, tuple[str, str]]],
               entities: list[tuple[int, int, str, str]],
               channels: list[tuple[int, int, str, str]]) -> Claim | None:
        start, end, code, compound = metric
        after = text[number.end():]
        before_name = text[clause:start] if end > start else ""
        if _after_cause_or_part(text[clause:number.start()]) or _INCLUDE.search(gap) \
                or _REFERENCE.search(gap) \
                or complement(before_name) or container(before_name) \
                or _POINTS.match(after) or _HYPOTHETICAL.search(text[:number.start()]):
            return None
        parsed = parse_number(number.group(0))
        if parsed.value is None:
            return None
        unit = _currency_after(_unit_of(text[:number.start()], after), after)
        if not unit.currency and counted(after):  # "58,733,844 ordinary shares"
            return None
        prior = bool(_PRIOR.search(gap))
        signed = number.group(0)[0] in "+-" and unit.percent
        changed = signed or (not prior and bool(_CHANGE_WORD.search(gap))
                             and not _LEVEL_END.search(gap))
        spec = self.profile.metrics.get(code)
        if unit.percent and not changed and spec is not None and spec.unit != "PCT":
            return None  # a percentage as an amount's level: a share, not the level
        kind = LEVEL if not changed else PCT_CHANGE if unit.percent else CHANGE
        direction = (-1 if number.group(0).startswith("-") else 1) if signed else \
            _direction(text[end:number.start()]) if changed else 0
        entity = _near(entities, start - 40, number.start())  # "" none, None several
        named = (entity,) if entity else (_entity_after(text, number.end(), entities)
                                          or tuple(sorted({e[2] for e in entities})))
        nearest = _nearest(periods, number, clause, text)
        before = _words_before(text, start) if end > start else frozenset()
        return Claim(code, _near(channels, start - 24, number.start()), named,
                     None if prior else nearest, kind, direction, number.group(0),
                     parsed.value, unit, _tolerance(number.group(0), parsed.value),
                     before, False, prior, nearest if prior else None, compound)


def _currency_after(unit: UnitParts, after: str) -> UnitParts:
    """The currency written after a number and its scale ("955 million US dollars")."""
    if unit.currency or unit.percent:
        return unit
    m = _CURRENCY_WORDS.match(after)
    code = next((c for c, g in zip(_CURRENCY_CODES, m.groups(), strict=True) if g), "") \
        if m else ""
    return UnitParts(code, unit.factor, unit.percent) if code else unit


def _respectively(text: str, claims: list[Claim],
                  periods: list[tuple[int, int, tuple[str, str]]]) -> tuple[Claim, ...]:
    """Figures listed "respectively" take the periods in the order the sentence lists them.

    "$60.3 million and $80.5 million … at September 30, 2019 and 2018, respectively".
    """
    listed = list(dict.fromkeys(p for _s, _e, p in periods))
    if "respectively" not in text or len(listed) < 2:
        return tuple(claims)
    out = list(claims)
    for metric in dict.fromkeys(c.metric for c in claims):
        at = [i for i, c in enumerate(claims) if c.metric == metric and not c.earlier]
        if len(at) == len(listed):
            for i, period in zip(at, listed, strict=True):
                out[i] = replace(claims[i], period=period)
    return tuple(out)


def _carried(claim: Claim) -> Claim:
    return replace(claim, carried=True)


def _entity_after(text: str, at: int, entities: list[tuple[int, int, str, str]]
                  ) -> tuple[str, ...]:
    """The entities named right after a number ("US$811m in Hong Kong").

    A list after it names them all ("… in Hong Kong and Mainland China").
    """
    found: list[str] = []
    end = at
    for s, e, code, _t in entities:
        if s < at:
            continue
        gap = text[end:s]
        if not found and s <= at + _AFTER_REACH and _AFTER_ENTITY.search(
                re.sub(r"^\S*", "", gap, count=1)):
            found.append(code)
        elif found and _LIST_GAP.fullmatch(gap):
            found.append(code)
        else:
            break
        end = e
    return tuple(dict.fromkeys(found))


def _nearest(periods: list[tuple[int, int, tuple[str, str]]], number: re.Match[str],
             clause: int, text: str) -> tuple[str, str] | None:
    """The period named nearest the number in its clause, else the sentence's one period.

    For an earlier level ("Revenue grew 85 from 1,320 in FY2025") it is the period the
    earlier level comes before, not its own.
    """
    ends = [m.start() for m in _CLAUSE_END.finditer(text, number.end())]
    stop = ends[0] if ends else len(text)
    best: tuple[int, tuple[str, str]] | None = None
    for s, e, p in periods:
        if not (clause <= s and e <= stop):
            continue
        distance = number.start() - e if e <= number.start() else s - number.end() + 1
        if best is None or distance < best[0]:
            best = (distance, p)
    if best is not None:
        return best[1]
    whole = {p for _s, _e, p in periods}
    return next(iter(whole)) if len(whole) == 1 else None
