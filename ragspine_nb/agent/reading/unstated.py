"""Words of a question that no row, column or entity of the workspace states.

A question may name a row in full and still ask about something else: "the amount
capitalized to internal use software related to continuing operations" names the row
"Internal use software", but "capitalized … continuing operations" qualifies it into a
figure the table does not state (the notes do). Answering the row's level would be a
wrong number. :func:`unstated_words` lists the question's content words that are none of

* the workspace's vocabulary (every word of a metric's label or synonyms, a column's
  synonyms, an entity's names: :func:`vocabulary_words`),
* the general words of a question about reported figures (:data:`QUESTION_WORDS`: what
  is asked, operations, comparisons, time, scale and currency words, the company),
* numbers, single letters and period phrases (read apart).

Two or more such words mean the question qualifies the figure beyond what the tables
state: the parser sends it to the narrative channel (the text that states it), never to
the nearest table row. One word alone is not enough (a table's subject, a segment's
name or an acronym is often left out of its row labels).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

from ragspine_nb.agent.reading.intent_terms import word_set
from ragspine_nb.core import Fact
from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import content_words

__all__ = ["QUESTION_WORDS", "MIN_UNSTATED", "VERSION_WORDS", "PLACE_WORDS", "vocabulary_words",
           "line_item_words",
           "unstated_words", "qualifies_beyond",
           "unresolved_partner", "qualified_in_prose", "restates_any", "prose_figure",
           "unstated_rate"]

#: How many unstated words make a question one the tables do not answer.
MIN_UNSTATED = 2
#: Words naming another version of a figure ("the unrevised value", "adjusted EBITDA",
#: "restated revenue"): one of them unstated by the tables is enough, the plain row's
#: figure is another version's.
VERSION_WORDS = frozenset({"unrevised", "revised", "restated", "unrestated", "adjusted",
                           "proforma", "recast", "reclassified", "normalised",
                           "normalized", "underlying", "organic"})

#: Words naming where a part of a company does business (a geographic segment, a
#: country, a region): one of them unstated by the tables asks for a part they do not
#: state. "United" is the United States' or Kingdom's ("U.S." is written out first).
PLACE_WORDS = frozenset("""
    domestic international foreign overseas offshore onshore abroad
    united america americas american latin europe european emea asia asian apac pacific
    africa african china chinese japan japanese india indian canada canadian mexico
    mexican brazil brazilian germany german france french uk britain british australia
    australian korea korean taiwan singapore switzerland swiss netherlands dutch ireland
    irish spain spanish italy italian russia russian
""".split())

#: General words of questions about reported figures (singular, folded, as
#: :func:`~ragspine_nb.wordset.content_words` gives them): never a row's qualifier.
#: "Unadjusted" is the figure as reported (no adjustment made), the plain row's.
QUESTION_WORDS = frozenset("""
    can could should shall will would may might must has have had having also only just
    value amount figure number total sum average mean median combined combine altogether
    overall aggregate aggregated all both each every respective respectively individually
    separately change increase decrease growth grow grew grown rise rose risen fall fell
    fallen decline drop difference differ compare compared comparison versus v ratio
    proportion percent share portion fraction rate exceed exceeded exceeding above below
    more less greater higher lower larger smaller largest smallest highest lowest most
    least maximum minimum max min top bottom expressed express made make up constitute
    constituted constitution account accounted represent represented representing comprise
    comprised include included including consist component item element category type kind
    line segment part whole fiscal annual annually quarter quarterly month monthly half
    week day date time end ending ended beginning begin began start starting opening
    closing close during over across throughout within since until till through prior past
    previous preceding last next latest recent first second third fourth fifth
    jan feb mar apr may jun jul aug sep oct nov dec thousand million billion trillion
    dollar cent usd eur gbp rmb cny inr aud cad sgd hkd jpy euro pound yen company group
    firm entity corporation inc ltd plc our we they them us you between against among
    under after before about via onto also here following table listed shown show
    report reported unadjusted state stated disclose disclosed present presented provide provided
    give given calculate calculated compute computed find approximately approximate
    nearest rounded round decimal place
    improve improved improving improvement deteriorate deteriorated deteriorating worsen
    worsened worsening declined declining rising
    falling dropped trend trending
    consistent consistently inconsistent stable steady volatile volatility fluctuate
    fluctuated fluctuates fluctuating fluctuation historically roughly
    cagr compound compounded
    minus plus subtract subtracted subtracting deduct deducted divided divide dividing
    tell me my i please kindly need want know like get fetch list display look lookup
    check see pull retrieve help interested exact exactly precise precisely
    thanks thank thx cheers hi hello hey regards appreciate appreciated
""".split())

_NUMBER = re.compile(r"[\d.,]+")
_SENTENCE = re.compile(r"(?<=[.;!?])\s+")
_FIGURE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_YEARS_RANGE = range(1900, 2101)
#: A line this short naming the phrase is a heading ("18 Investment in associates").
_HEADING_WORDS = 6
_TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
#: Two words joined as a list ("domestic and european"), overlapping matches allowed.
_PAIR = re.compile(r"(?=(?<![a-z0-9-])([a-z][a-z0-9-]*)\s*(?:,|\band\b|\bor\b|&|\bvs\.?|"
                   r"\bversus\b)\s*(?:the\s+)?([a-z][a-z0-9-]*))")


@lru_cache(maxsize=64)
def line_item_words(profile: DomainProfile) -> frozenset[str]:
    """Every content word of the profile's line items' labels and synonyms."""
    return frozenset(w for m in profile.metrics.values() for term in (m.label, *m.synonyms)
                     for w in content_words(term))


@lru_cache(maxsize=64)
def vocabulary_words(profile: DomainProfile) -> frozenset[str]:
    """Every content word of the profile's metric, column and entity names."""
    words: set[str] = set(line_item_words(profile))
    for m in profile.metrics.values():
        words |= content_words(m.code.replace("_", " "))
    for c in profile.channels.values():
        for term in (c.code.replace("_", " "), *c.synonyms):
            words |= content_words(term)
    for e in profile.entities.values():
        for term in (e.code.replace("_", " "), e.label, *e.synonyms):
            words |= content_words(term)
    return frozenset(words)


def unstated_words(text: str, known: frozenset[str]) -> tuple[str, ...]:
    """The content words of ``text`` that ``known`` and :data:`QUESTION_WORDS` lack.

    ``text`` is the folded question with its period phrases blanked out.

    Examples
    --------
    >>> known = content_words("Internal use software Revenue")
    >>> unstated_words("what is the amount capitalized to internal use software related "
    ...                "to continuing operations for the years ended", known)
    ('capitalized', 'continuing', 'operation', 'related')
    >>> unstated_words("what was the change in revenue between", known)
    ()
    """
    plain = known | QUESTION_WORDS
    out: set[str] = set()
    for token in _TOKEN.findall(text):
        # a hyphenated word is known when its parts are ("year-end", "weighted-average")
        if "-" in token and word_set(token.replace("-", " ")) <= plain:
            continue
        out |= {w for w in word_set(token) - plain
                if len(w) > 1 and not _NUMBER.fullmatch(w)}
    return tuple(sorted(out))


#: A figure asked per unit ("per share", "per diluted share", "per employee").
_PER = re.compile(r"(?<![a-z])per\s+(?:(?:common|ordinary|diluted|basic|average)\s+)?"
                  r"([a-z]+?)s?(?![a-z])")
#: "per cent", "per annum": no unit of a figure.
_NOT_UNITS = frozenset({"cent", "centum", "annum"})


def unstated_rate(question: str, names: Iterable[str]) -> str:
    """The "per <unit>" a question asks that none of ``names`` (the rows read) says, else "".

    Its words are all general ("per share" of earnings per share, "share" of a share of
    revenue), so :func:`unstated_words` misses it; answering the row named would give a
    total for a rate ("revenue per share" answered by revenue).

    >>> unstated_rate("what was revenue per share in 2017?", ["Revenue"])
    'per share'
    >>> unstated_rate("what was eps per diluted share?", ["Earnings per share"])
    ''
    """
    said = " ".join(fold(n) for n in names)
    for m in _PER.finditer(fold(question)):
        unit = m.group(1)
        if unit not in _NOT_UNITS and not re.search(
                rf"(?<![a-z])per\s+(?:[a-z]+\s+){{0,2}}{unit}s?(?![a-z])", said):
            return f"per {unit}"
    return ""


def qualifies_beyond(unstated: Sequence[str], *, places: bool = True) -> bool:
    """Whether the unstated words qualify the figure beyond what the tables state.

    Two or more words, or one naming another version of a figure ("unrevised") or, with
    ``places``, a place (:data:`PLACE_WORDS`: "the international revenue" where no row
    or column is international is a part of the company the tables do not state; the
    company's total is not it). A caller that read a column passes ``places=False``:
    "the domestic and European rates" lists a column of ours and one that is not, and
    asks back (:func:`unresolved_partner`).

    >>> qualifies_beyond(("unrevised",)), qualifies_beyond(("segment",))
    (True, False)
    >>> qualifies_beyond(("international",)), qualifies_beyond(("united",), places=False)
    (True, False)
    """
    return len(unstated) >= MIN_UNSTATED or bool(VERSION_WORDS.intersection(unstated)) or \
        (places and bool(PLACE_WORDS.intersection(unstated)))


def unresolved_partner(text: str, item: frozenset[str], known: frozenset[str]) -> str:
    """The word listed with one of ``item``'s words that nothing in ``known`` names.

    "the domestic and European rates" names the column "Domestic" and a second one
    the workspace does not have: answering the first alone would answer half the
    question as if it were all of it, so the caller asks back. ``""`` when there is none.

    Examples
    --------
    >>> known = frozenset({"domestic", "international", "rate"})
    >>> unresolved_partner("what were the domestic and european rates?",
    ...                    frozenset({"domestic"}), known)
    'european'
    >>> unresolved_partner("what were the domestic and international rates?",
    ...                    frozenset({"domestic"}), known)
    ''
    """
    plain = known | QUESTION_WORDS
    for m in _PAIR.finditer(text):
        left, right = content_words(m.group(1)), content_words(m.group(2))
        for mine, other in ((left, right), (right, left)):
            if mine and mine <= item and other and not other & plain and \
                    not any(_NUMBER.fullmatch(w) for w in other):
                return sorted(other)[0]
    return ""


def qualified_in_prose(question: str, word: str,
                       passages: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The question's ``word`` with the two words after it, and the sentences saying them.

    One unstated word is usually a table's subject left out of its rows; but when the
    document's prose writes the same qualified phrase ("a $539 million decrease in
    Blizzard in-game net bookings" for "the decrease in Blizzard in-game net bookings"),
    the figure asked for may be the prose's, not the table row's (the caller checks the
    sentences' numbers with :func:`restates_any`). ``("", ())`` when no passage has it,
    or when a heading or a lead-in ending in ":" does ("18 Investment in associates": the
    subject of what follows, its tables too). The two words after ``word`` must say
    something ("IMFT in 2018" names no figure).

    Examples
    --------
    >>> qualified_in_prose("What was the decrease in Blizzard net bookings in 2019?",
    ...                    "blizzard", ["Sales fell. A $572 million decrease in Blizzard "
    ...                                 "net bookings. Other."])
    ('blizzard net bookings', ('A $572 million decrease in Blizzard net bookings.',))
    >>> qualified_in_prose("What were Blizzard net bookings?", "blizzard",
    ...                    ["Net bookings were as follows"])
    ('', ())
    >>> qualified_in_prose("What was the total investment in associates?", "investment",
    ...                    ["18 Investment in associates", "Investment in associates is"])
    ('', ())
    >>> qualified_in_prose("What were the liabilities of IMFT in 2018?", "imft",
    ...                    ["Intel lent $1.01 billion to IMFT in 2018."])
    ('', ())
    """
    tokens = _TOKEN.findall(fold(question))
    for i, token in enumerate(tokens):
        following = [w for t in tokens[i + 1:i + 3] for w in content_words(t)
                     if not _NUMBER.fullmatch(w)]
        if word in content_words(token) and i + 2 < len(tokens) and following:
            pattern = re.compile(r"(?<![a-z0-9])" + r"\W+".join(map(re.escape, tokens[i:i + 3]))
                                 + r"(?![a-z0-9])")
            said = tuple(sentence for p in passages for line in p.splitlines()
                         for sentence in _SENTENCE.split(line)
                         if pattern.search(fold(sentence)))
            if any(len(s.split()) <= _HEADING_WORDS or s.rstrip().endswith(":") for s in said):
                return "", ()  # a heading or a lead-in names it: the subject of what follows
            if said:
                return " ".join(tokens[i:i + 3]), said
    return "", ()


def restates_any(sentences: Sequence[str], values: Iterable[float]) -> bool:
    """Whether a number of ``sentences`` is one of ``values`` (in any scale).

    A sentence restating a table figure ("CMS Adjusted EBITDA increased 31%" beside a
    table whose change column says 31) speaks of the table's own subject; one whose
    numbers the table lacks ("a $572 million decrease" beside 874) speaks of a part.

    >>> restates_any(["increased 31% to $34.4 million"], [34_412.0])
    True
    >>> restates_any(["a $572 million decrease"], [6_388.0, -874.0])
    False
    """
    cells = [abs(v) for v in values]
    for sentence in sentences:
        for m in _FIGURE.finditer(sentence):
            text = m.group(0).replace(",", "")
            number = float(text)
            if number in _YEARS_RANGE and "." not in text or \
                    len(text.replace(".", "").strip("0")) < 2:
                continue  # a year, or too few digits to tell ("(1)", "5")
            slack = 0.5 * 10.0 ** -(len(text.split(".")[1]) if "." in text else 0)
            if any(abs(v / f - number) <= slack * (1 + 1e-9)
                   for v in cells for f in (1.0, 1e3, 1e6, 1e-3)):
                return True
    return False


class _Passages(Protocol):
    def retrieve(self, query: str, *, filters: dict[str, Any] | None = None,
                 top_k: int = 50) -> Sequence[Mapping[str, Any]]: ...


class _Facts(Protocol):
    def iter_facts(self, **filters: str) -> list[Fact]: ...


def prose_figure(question: str, unstated: Sequence[str], metrics: Sequence[str],
                 retriever: _Passages, store: _Facts) -> str:
    """The qualified phrase when the prose, not the table, states the figure asked; else "".

    One unstated word (:func:`qualified_in_prose`) whose sentences restate none of the
    named rows' figures (:func:`restates_any`).
    """
    if len(unstated) != 1:
        return ""
    passages = [s.get("text", "") for s in retriever.retrieve(question, top_k=10)]
    phrase, sentences = qualified_in_prose(question, unstated[0], passages)
    if not phrase or restates_any(sentences, (f.value for m in metrics
                                              for f in store.iter_facts(metric_code=m))):
        return ""  # no such phrase, or the prose restates the table's own figures
    return phrase
