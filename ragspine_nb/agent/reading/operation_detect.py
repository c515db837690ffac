"""Which operation a parsed question asks for (read from its words, outside its names).

The cue words are read in the folded question with the names of the rows and columns
it resolved blanked out, so "Weighted average shares" or "Total revenue" never ask for
an average or a sum. In order:

* a text question asks for no operation (it goes to the narrative channel);
* a label question (which year / which item) asks for the ``max`` / ``min`` (named as
  text), for which way a row moved (``trend``: "Has the quick ratio improved or
  declined …?"), for the periods passing a test ("In which year was X less than 100 million?":
  ``count`` answered as a label), or for the periods a row is reported for;
* a number question: the difference *between* named figures; a ratio or share
  ("A as a percentage of B"; "the change … as a percentage of" the base year is a
  percentage change); a count ("how many years did X exceed N"); an average or a sum
  (a bare "total" only when several operands are named); a change (a percentage change
  only when the percentage qualifies the change: "percentage change", not "the change
  in the percentage of …"); a comparison. An aggregate of changes, or a change of
  aggregates, is named and refused (``nested``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.agent.reading.bucket_window import window_asked
from ragspine_nb.agent.reading.comparative import (
    COMPARATIVE_WORDS,
    compared_direction,
    compared_first,
)
from ragspine_nb.agent.reading.cue_text import cue_text, names_of
from ragspine_nb.agent.reading.cue_words import (
    HOW_MUCH_MORE,
    MOVEMENT_VERBS,
    PERCENT_CHANGE,
    POINTS_CHANGE,
    SUBTRACTION,
)
from ragspine_nb.agent.reading.intent import ROUTE_COMPOSITE, ParsedIntent
from ragspine_nb.agent.reading.operation import Operation
from ragspine_nb.agent.reading.operation_cues import (
    aggregate_cue,
    compound_span,
    extreme,
    listed_each,
    per_quarter,
    period_range,
    ratio_split,
    signed_extreme,
    threshold,
    year_average,
    years_count,
)
from ragspine_nb.agent.reading.question_kind import (
    KIND_LABEL,
    KIND_TEXT,
    TARGET_DIRECTION,
    TARGET_PERIOD,
    TARGET_SPREAD,
    QuestionKind,
    direction_words,
    question_kind,
)
from ragspine_nb.core import is_stated_change
from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile

__all__ = ["detect_operation", "percent_column", "COMPARE_CUES",
           "DIFFERENCE_CUES", "PERCENT_CHANGE", "REPORTED"]

#: Words asking to compare two figures: both levels are answered, with their difference.
COMPARE_CUES: tuple[str, ...] = ("对比", "比较", "compare", "compared", "comparison", "versus",
                                 "vs")
#: Words asking for the difference *between* two named figures (not a change over time).
DIFFERENCE_CUES: tuple[str, ...] = ("difference", "differences", "differ", "gap", "差额", "差异",
                                    "相差", "差距", "之差")
#: A division written out: a sum or mean divided by something is a formula, not a sum.
_DIVIDED = re.compile(r"(?<![a-z])divided\s+by(?![a-z])|除以")
#: A difference asked as a percentage of the second figure.
RELATIVE_DIFFERENCE_CUES: tuple[str, ...] = ("percentage difference", "percent difference",
                                             "% difference", "差异率")
#: A change asked in percentage points: "the absolute percentage change", "the
#: percentage-point change" (over two percentages, their difference)

#: Words saying which periods a row is reported for ("In which years was X reported?").
REPORTED = re.compile(r"(?<![a-z])(?:calculated|reported|provided|presented|shown|disclosed|"
                      r"recorded|included|available|given|listed|information|stated|"
                      r"measured|recogni[sz]ed)(?![a-z])|列示|披露|提供")
_CHANGE = re.compile(r"(?<![a-z])(?:change|changes|changed|increase|increased|decrease|"
                     rf"decreased|growth|{'|'.join(MOVEMENT_VERBS)}|difference|variance|"
                     r"movement)(?![a-z])|变动|变化|增长|下降|增加|减少|差额")
_HOW_MANY = re.compile(r"(?<![a-z])how many (?P<noun>[a-z-]+)|(?P<zh>多少年|几年|多少个年度)")
_PERIOD_NOUNS = frozenset({"year", "years", "period", "periods", "quarter", "quarters",
                           "month", "months", "time", "times", "fiscal"})
#: A change of a change: "the change in the percentage change", "difference between the
#: changes", "变动率的变化".
_CHANGE_OF_CHANGE = re.compile(
    r"(?<![a-z])(?:change|difference|increase|decrease)s? (?:in|of|between) (?:the )?"
    r"(?P<inner>(?:(?:percentage|percent|%) )?(?:changes?|growth rates?|growth|increases?|"
    r"decreases?|differences?))(?![a-z])|(?P<zh>(?:增长率|变动率|增幅|变动)的(?:变化|变动|差额))")
#: The same asked with the change as the verb: "How much did the increase in revenue
#: change …?", "How much has the percentage change of revenue moved?".
_CHANGED_CHANGE = re.compile(
    r"(?<![a-z])how (?:much )?(?:did|has|have|does|do) (?:the )?(?P<inner>(?:(?:percentage|"
    r"percent|%) )?(?:changes?|growth rates?|growth|increases?|decreases?|differences?)) "
    r"(?:in|of) .*?(?<![a-z])(?:change|changed|differ|move|moved)(?![a-z])")
#: "How many <unit>" asks for an amount in that unit, not for a count.
_NOT_COUNTED = frozenset({"percent", "percentage", "percentages", "per", "basis", "points",
                          "dollars", "million", "millions", "thousand", "thousands",
                          "billion", "billions"})
_SUPERLATIVE = re.compile(r"(?<![a-z])(?:highest|largest|greatest|biggest|maximum|lowest|"
                          r"smallest|least|minimum)(?![a-z])|最高|最大|最低|最小")
def _has_cue(text: str, cues: Sequence[str]) -> bool:
    return any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", text) if c.isascii()
               else c in text for c in cues)



def _label(kind: QuestionKind, cues: str) -> Operation | None:
    """A which-period / which-item question: the winner, the periods passing, or reported.

    A question about which way a row moved is a ``trend`` over its periods.
    """
    if kind.target == TARGET_DIRECTION:
        return Operation("trend", answer="label", over="periods",
                         direction=direction_words(cues))
    test = threshold(cues)
    if kind.target == TARGET_SPREAD:  # "consistent (not fluctuating more than 2%)"
        return Operation("spread", test=test, answer="label", over="periods")
    over = "periods" if kind.target == TARGET_PERIOD else "items"
    ranged = over == "periods" and period_range(cues)  # "from 2019 to 2022": every year
    if test is not None:
        return Operation("count", test=test, answer="label", over=over, over_range=ranged)
    direction = signed_extreme(cues)  # "brought in the most (or lost the least)"
    if direction is not None:
        return Operation(direction, answer="label", over=over, signed=True,
                         over_range=ranged)
    direction = extreme(cues)
    if direction is not None:
        return Operation(direction, answer="label", over=over, over_range=ranged)
    if over == "periods" and REPORTED.search(cues):
        return Operation("count", answer="label", over=over)
    return None


def percent_column(profile: DomainProfile, code: str) -> bool:
    """Whether a column states percentages itself ("% of total", "Percent of sales")."""
    spec = profile.channels.get(code)
    names = [code, *(spec.synonyms if spec else ())]
    return any(re.search(r"%|(?<![a-z])(?:percent|percentage|pct)(?![a-z])", fold(n))
               for n in names)


#: "the average proportion …", "the total percentage …": an aggregate of yearly shares
_OF_SHARES = re.compile(r"\b(average|total|sum)\s+(?:of\s+(?:the\s+)?)?(?:proportions?|"
                        r"percentages?|ratios?|shares?)\b")
#: "the three year average of A as a % of B": the mean of the yearly shares too
_AVERAGE_OF = re.compile(r"\baverage of\b")


def _ratio(intent: ParsedIntent, text: str, cues: str,
           profile: DomainProfile) -> Operation | None:
    """A ratio or share, or a change taken as a percentage of its base.

    A share the tables state in a column of their own ("% of total", named by the
    question) is looked up, not computed.
    """
    split = ratio_split(cues)
    if split is None or any(percent_column(profile, c) for c in intent.channels):
        return None
    numerator = text[slice(*split.numerator)]  # a stated-change column may name "change"
    first = min(split.numerator[0], split.denominator[0])
    change = _CHANGE.search(text)
    if change and _CHANGE.search(numerator) and split.numerator[0] < split.denominator[0]:
        return Operation("percent_change")  # "the change … as a percentage of" its base
    if change and change.start() < first:
        # "the change in the percentage of sales represented by gross profit": the
        # change of a share between two years (in points); a relative one is not read
        relative = re.search(r"(?:percentage|percent|%|relative) (?:change|increase|decrease|"
                             r"growth)|growth rate", text[:first])
        return None if relative or change.group(0).startswith("grow") else Operation(
            split.kind, split=split, then="change")
    before = text[:split.denominator[0]]  # "the average proportion of …", "average of …"
    over = _OF_SHARES.search(before)
    if over and over.group(1) != "average":
        return Operation("sum", nested=split.kind)  # a sum of shares: not computed
    mean = bool(over) or bool(_AVERAGE_OF.search(before))
    return Operation(split.kind, split=split, then="average" if mean else "",
                     over_range=period_range(text))


def _names_the_row(noun: str, intent: ParsedIntent, profile: DomainProfile) -> bool:
    """Whether "how many <noun>" counts what a named row states (its own words)."""
    words = {w for n in names_of(profile, intent.metrics) for w in re.findall(r"[a-z]+", n)}
    stem = noun.rstrip("s")[:5]
    return any(w.startswith(stem) for w in words | {"number", "count", "shares"})


def _count(intent: ParsedIntent, cues: str, profile: DomainProfile) -> Operation | None:
    """"How many years did X exceed N" (periods), "how many <items> …" (items).

    "How many <noun>" with no test asks for a row's level only when the noun is a word of
    the row ("how many shares were repurchased": *shares* purchased); otherwise it counts
    items ("how many services are included in the audit fees"), which only a list names.
    """
    m = _HOW_MANY.search(fold(intent.raw_question))
    if m is None:
        return None
    test = threshold(cues)
    if m.group("noun") in _NOT_COUNTED:  # "how many percent did X change by": a change
        return None
    if m.group("noun") == "times" and test is None:
        return None  # "how many times did A exceed B": a multiple (times over N: periods)
    if m.group("zh") or m.group("noun") in (*_PERIOD_NOUNS, "times"):
        # "how many years did X exceed N" / "in how many years was X reported" count
        # periods; "how many years is the lifespan" asks a duration no period count gives
        counted = test is not None or bool(REPORTED.search(cues)) or bool(m.group("zh"))
        return Operation("count", test=test, over="periods" if counted else "items",
                         over_range=period_range(fold(intent.raw_question)))
    if test is not None or not _names_the_row(m.group("noun"), intent, profile):
        return Operation("count", test=test, over="items")
    return None


def _aggregate(intent: ParsedIntent, text: str, cues: str) -> Operation | None:
    """An average or sum (a bare "total" sums only several operands)."""
    cue = aggregate_cue(cues)
    if cue is None and window_asked(text) is not None and len(intent.channels) > 1:
        cue = "total"  # "due within 5 years": the buckets covering the window, summed
    if cue is None or listed_each(cues):
        return None
    kind = "average" if cue == "average" else "sum"
    changed = _CHANGE.search(cues)
    if changed and cue != "total":
        return Operation(kind, nested="change")
    if changed:
        return None  # "the change in total …": a change
    return Operation(kind, over_range=period_range(text), years=years_count(cues) or 0,
                     implicit=cue == "total",
                     opening=kind == "average" and year_average(text),
                     quarterly=kind == "average" and per_quarter(text))


def _change_of_change(text: str) -> Operation | None:
    """"The change in the percentage change": the later change minus the earlier one.

    >>> _change_of_change("how much did the increase in revenue change from 2018 to 2019?").kind
    'change_of_change'
    >>> _change_of_change("how much did the percentage change of revenue change?").inner
    'percent_change'
    >>> _change_of_change("how much did revenue change from 2018 to 2019?") is None
    True
    """
    m = _CHANGE_OF_CHANGE.search(text) or _CHANGED_CHANGE.search(text)
    if m is None:
        return None
    said = m.group("inner") or m.group("zh")
    percent = bool(re.search(r"%|percent|growth|率|幅", said))
    return Operation("change_of_change", inner="percent_change" if percent else "difference")


#: "比上年减少了多少": a change from the year before (its verb says which), no two figures
#: the question names side by side
_THAN_PRIOR = re.compile(r"[比较](?:上年|去年|上一年|前一年|上年度|上一财年)")


def _earlier_less_later(intent: ParsedIntent) -> bool:
    """"Revenue in 2021 minus revenue in 2022": one row's earlier figure less its later one.

    A change over time is the later figure less the earlier; this asks the reverse, which
    is not read (the net of :func:`operation_asked` refuses it with its inputs listed).
    """
    periods = intent.periods
    return len(intent.metrics) <= 1 and len(periods) == 2 and \
        periods[0][0] == periods[1][0] and periods[0][1] < periods[1][1]


def _change(intent: ParsedIntent, text: str, cues: str) -> Operation | None:
    """A difference between named figures, a change over time, or a comparison."""
    points = bool(POINTS_CHANGE.search(text))
    # several rows' changes, one each, unless the question asks to combine them ("the
    # change in total net sales of A and B"): then none (which is meant is not clear)
    each = listed_each(cues) or aggregate_cue(text) is None
    comparing = bool(HOW_MUCH_MORE.search(cues)) and not (
        intent.change_cue and _THAN_PRIOR.search(cues))
    if _has_cue(cues, DIFFERENCE_CUES) or comparing or \
            (SUBTRACTION.search(cues) and not _earlier_less_later(intent)):
        # a subtraction, unless asked as a percentage
        relative = _has_cue(cues, RELATIVE_DIFFERENCE_CUES)
        compared = compared_first(cues)  # "by what % was A lower than B": base unclear
        return Operation("percent_change" if relative else "difference", between=True,
                         points=relative and points, each=each,
                         compared="" if relative and compared == "second" else compared)
    if intent.change_cue:
        # "% change" read outside the names ("the external valuation % change" is a
        # change of the column "External valuation %"), unless a stated change is named
        stated = any(map(is_stated_change, intent.channels))
        if points or PERCENT_CHANGE.search(text if stated else cues):
            return Operation("percent_change", points=points, each=each)
        return Operation("difference", each=each)
    if _has_cue(cues, COMPARE_CUES):
        return Operation("difference", with_levels=True)
    return None


def detect_operation(intent: ParsedIntent, profile: DomainProfile,
                     kind: QuestionKind | None = None) -> Operation | None:
    """The operation a parsed question asks for, if any (see the module docstring).

    A "why" question (composite) keeps its level as the structured anchor unless it
    names the two periods or columns to compare.
    """
    kind = kind or question_kind(intent.raw_question)
    if kind.kind == KIND_TEXT:
        return None
    cues = cue_text(intent, profile)
    if kind.kind == KIND_LABEL and kind.target == TARGET_DIRECTION and \
            kind.cue in COMPARATIVE_WORDS:  # "was it higher in FY2025 than in FY2024?"
        way = compared_direction(kind.cue, intent.periods)
        return Operation("trend", answer="label", over="periods", direction=way) if way \
            else None
    if kind.kind == KIND_LABEL:
        return _label(kind, cues)
    if intent.route == ROUTE_COMPOSITE and len(intent.periods) < 2 and len(intent.channels) < 2:
        return None
    text = fold(intent.raw_question)
    span = compound_span(text)
    if span is not None:  # one rate over the years between two ends
        return Operation("percent_change", compound=True, years=span)
    # a row's own movement word is no inner change: "the change in Increases for tax
    # positions taken in prior years" is that row's change, not a change of a change (the
    # rows are blanked only for a question that reads as one: blanking adds no match)
    nested = _change_of_change(text) and \
        _change_of_change(cue_text(replace(intent, channels=()), profile))
    if nested is not None:
        return nested
    cue = aggregate_cue(cues)
    if cue in ("average", "sum") and _DIVIDED.search(cues):
        return Operation(cue, nested="ratio")  # "the sum of A and B divided by C": not computed
    if cue in ("average", "sum") and _has_cue(cues, DIFFERENCE_CUES):
        if cue == "average" and len(intent.metrics) == 2:
            # "the average difference between A and B", "the difference between the
            # average A and the average B": one number, the gap of their averages
            return Operation("average", between=True, over_range=period_range(text))
        return Operation(cue, nested="difference")  # a sum of differences: not computed
    if not _has_cue(cues, DIFFERENCE_CUES):
        found = _ratio(intent, text, cues, profile) or _count(intent, cues, profile)
        if found is not None:
            return found
        found = _aggregate(intent, text, cues)
        if found is not None:
            return found
        if _SUPERLATIVE.search(cues) and not intent.change_cue:
            direction = extreme(cues)
            if direction is not None:  # "from 2019 to 2022": every year of the range
                return Operation(direction, over="periods", over_range=period_range(text))
    found = _change(intent, text, cues)
    if found is not None and _DIVIDED.search(cues):  # "A minus B divided by C": a formula
        return replace(found, nested="ratio")
    return found
