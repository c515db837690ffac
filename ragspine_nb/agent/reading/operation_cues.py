"""The words of a question that ask for an operation (pure reading, no profile, no store).

Every function reads a *folded* question (:func:`~ragspine_nb.glossary.fold`) in which
the names of rows and columns may have been blanked out (same length), so that a word
inside a name ("Weighted average shares", "Total revenue", "% of total") is never read
as a cue. English and Chinese.

* :func:`aggregate_cue` — ``average`` ("average", "mean", 平均) or ``sum`` ("sum of",
  "in total", "combined", "altogether", 合计); a bare "total" is returned apart
  (``total``): it sums only when several operands are named.
* :func:`listed_each` — "respectively", "each", 分别: the levels, never their sum.
* :func:`period_range` — two periods written as a range ("from 2017 to 2019",
  "2017-2019", "between 2017 and 2019").
* :func:`years_count` — "the 3 years", "over the three-year period".
* :func:`threshold` — a test against a stated amount ("exceed $200,000 thousand",
  "less than 20%", "超过100万").
* :func:`extreme` — ``max`` / ``min`` ("highest", "larger", "最低").
* :func:`~ragspine_nb.agent.reading.ratio_sides.ratio_split` — a ratio or a share and where its
  numerator and denominator are named (re-exported here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.agent.reading.cue_words import COMPOUND_GROWTH, MOVEMENT_VERBS, SUBTRACTION
from ragspine_nb.agent.reading.ratio_sides import RatioSplit, ratio_split
from ragspine_nb.number_words import count_word
from ragspine_nb.period_phrases import QUESTION_PERIOD
from ragspine_nb.units import SCALE_WORDS, scale_pattern

__all__ = ["Threshold", "RatioSplit", "aggregate_cue", "listed_each", "period_range",
           "years_count", "compound_span", "year_average", "per_quarter", "threshold", "extreme",
           "signed_extreme", "without_signed_extreme", "ratio_split",
           "THRESHOLD_SCALES", "operation_asked", "without_year_spans", "without_operands"]

_AVERAGE = re.compile(r"(?<![a-z-])(?:average|averages|mean|avg)(?![a-z-])|平均|均值")
_WEIGHTED = re.compile(r"weighted[- ]average")
_SUM = re.compile(r"(?<![a-z])(?:in total(?=\s*(?:$|[,.;:?]|(?:for|across|over|during|in|from|"
                  r"between|of)\b|\d))|sum|summed|combined|altogether|all together|"
                  r"together|aggregate|aggregated|add up|added up)(?![a-z])|合计|总和|总计|共计|"
                  r"加总|之和|一共")
_TOTAL = re.compile(r"(?<![a-z])total(?![a-z])")
_EACH = re.compile(r"(?<![a-z])(?:respectively|respective|each|separately|individually)"
                   r"(?![a-z])|分别|各自")

_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5}
_N = r"(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)"
#: "the 3 years", "across all 3 years", "over the last three years", "the 3-year period",
#: "过去三年" — never a maturity ("within 5 years", "after 5 years").
_YEARS = re.compile(
    rf"(?<![a-z])(?:the|all|last|past|previous|prior|these|those|over|across|for)\s+"
    rf"(?:(?:the|all|last|past)\s+)?{_N}[- ](?:fiscal[- ])?years?(?![a-z])(?! (?:or|and) )"
    rf"|(?<![\w$]){_N}[- ](?:fiscal[- ])?years?[- ]period|(?:近|过去)([两二三四五\d])年")
#: "3 year average", "five-year CAGR": the years an aggregate runs over
_YEAR_SPAN = re.compile(rf"(?<![\w$]){_N}[- ](?:fiscal[- ])?years?\s+"
                        r"(?:average|mean|total|cumulative|cagr|compound|growth)(?![a-z])")
_RANGE_GAP = re.compile(r"\s*(?:-|–|—|~|to|through|thru|until|till|至|到)\s*")


def aggregate_cue(text: str) -> str | None:
    """``average``, ``sum``, ``total`` (a bare "total") or ``None``.

    Examples
    --------
    >>> aggregate_cue("what was the average revenue from 2017 to 2019?")
    'average'
    >>> aggregate_cue("what is the weighted average exercise price?") is None
    True
    >>> aggregate_cue("what is the total deposits in 2018 and 2019?")
    'total'
    """
    if _AVERAGE.search(_WEIGHTED.sub(" ", text)):
        return "average"
    if _SUM.search(text):
        return "sum"
    return "total" if _TOTAL.search(text) else None


def listed_each(text: str) -> bool:
    """Whether the question asks for each value on its own ("respectively", 分别)."""
    return bool(_EACH.search(text))


def period_range(text: str) -> bool:
    """Whether two periods are written as a range: every period between them is meant.

    Examples
    --------
    >>> period_range("average from 2017 to 2019"), period_range("between 2017 and 2019")
    (True, True)
    >>> period_range("in 2017 and 2019"), period_range("2017-2019 average")
    (False, True)
    """
    found = list(QUESTION_PERIOD.finditer(text))
    for a, b in zip(found, found[1:], strict=False):
        gap = text[a.end():b.start()]
        if _RANGE_GAP.fullmatch(gap):
            return True
        if re.fullmatch(r"\s*(?:and|&|和|与)\s*", gap) and \
                re.search(r"(?:between|from|从|介于)\s*$", text[:a.start()]):
            return True
    return False


def years_count(text: str) -> int | None:
    """How many years a question names as a span ("the 3 years", "three-year period").

    Examples
    --------
    >>> years_count("the average over the 3 year period"), years_count("in 2019") is None
    (3, True)
    >>> years_count("across all 3 years"), years_count("obligations due within 5 years")
    (3, None)
    """
    m = _YEARS.search(text)
    if m is None:
        return None
    word = next(g for g in m.groups() if g)
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word)


_SPAN_YEARS = re.compile(rf"(?<![\w$]){_N}[- ](?:fiscal[- ])?years?(?![a-z])"
                         r"|([两二三四五六七八九十])年")


def compound_span(text: str) -> int | None:
    """The years a compound growth rate is asked over ("3-year CAGR": 3; 0: unsaid).

    ``None`` when the question asks no compound rate.

    >>> compound_span("nike's 3-year revenue cagr"), compound_span("revenue cagr")
    (3, 0)
    >>> compound_span("revenue growth over three years") is None
    True
    """
    if not COMPOUND_GROWTH.search(text):
        return None
    m = _SPAN_YEARS.search(text)
    return (count_word(next(g for g in m.groups() if g)) or 0) if m else 0


_YEAR_AVERAGE = re.compile(r"(?<![\d.])(?:fy\s?)?(?:19|20)\d\d\s+average(?![a-z-])")


def without_year_spans(text: str) -> str:
    """``text`` without the years an aggregate runs over ("3 year average", "five-year CAGR").

    The span is the operation's, not a column's: "the 3 year average net margin" names
    no "1 to 3 years" maturity column.

    >>> without_year_spans("the fy2015 - fy2017 3 year average net margin")
    'the fy2015 - fy2017   net margin'
    """
    return _YEAR_SPAN.sub(" ", text)


def without_operands(text: str) -> str:
    """``text`` without the words of an operation's span or bound: never a column's.

    The years an aggregate spans (:func:`without_year_spans`) and a test's bound ("more
    than roughly 3%").

    >>> without_operands("not fluctuating more than roughly 3% each year")
    'not fluctuating   each year'
    """
    text = without_year_spans(text)
    test = threshold(text)
    return text.replace(test.text, " ") if test is not None else text


def year_average(text: str) -> bool:
    """Whether an average is asked as one year's ("the 2019 average total assets").

    A year's average balance is that of its opening and closing balances: the ends of
    the year before and of the year itself.

    Examples
    --------
    >>> year_average("what is the 2019 average total assets?")
    True
    >>> year_average("the average total assets in 2019"), year_average("2017-2019 average")
    (False, False)
    """
    return bool(_YEAR_AVERAGE.search(text)) and not period_range(text)


#: A figure asked per quarter over a year: "average quarterly", "per quarter".
_QUARTERLY = re.compile(r"(?<![a-z])(?:quarterly|per quarter|each quarter|a quarter)(?![a-z])")


def per_quarter(text: str) -> bool:
    """Whether an average is asked per quarter ("the average quarterly low price in 2018").

    >>> per_quarter("what is the average quarterly low price in 2018?")
    True
    >>> per_quarter("the average price in the third quarter of 2018")
    False
    """
    return bool(_QUARTERLY.search(text))


# ------------------------------------------------------------------ thresholds
#: The scale a threshold's words give, as a unit scale code (``PCT``: a percentage).
#: Its words are the scale lexicon's (:data:`ragspine_nb.units.SCALE_WORDS`), a
#: percentage's, and a scale's first letter.
THRESHOLD_SCALES: dict[str, str] = {
    "%": "PCT", "percent": "PCT", "per cent": "PCT", **SCALE_WORDS, "k": "K", "m": "M",
    "b": "BN"}
_GREATER = ("exceed", "exceeded", "exceeds", "exceeding", "more than", "greater than",
            "higher than", "larger than", "bigger than", "above", "over", "in excess of",
            "超过", "高于", "大于", "多于")
_AT_LEAST = ("at least", "no less than", "not less than", "不少于", "不低于")
_LESS = ("less than", "lower than", "smaller than", "fewer than", "below", "under", "低于",
         "少于", "小于", "不足")
_AT_MOST = ("at most", "no more than", "not more than", "不超过", "不高于")
_COMPARATORS = {**{w: ">" for w in _GREATER}, **{w: ">=" for w in _AT_LEAST},
                **{w: "<" for w in _LESS}, **{w: "<=" for w in _AT_MOST}}
_THRESHOLD = re.compile(
    r"(?P<cmp>" + "|".join(sorted(map(re.escape, _COMPARATORS), key=len, reverse=True)) + r")"
    r"\s*(?:approximately |about |roughly )?(?P<cur>us\$|hk\$|\$|€|£|¥|rmb|usd|eur|gbp)?\s*"
    r"(?P<num>[-−]?\d[\d,]*(?:\.\d+)?)\s*"
    r"(?P<scale>%|per cent|percent|" + scale_pattern(marks=False) + r"|[mkb])?"
    r"(?![a-z0-9])(?P<after>\s*(?:years?|months?|days?|weeks?|quarters?|times|年|个月|天))?")


@dataclass(frozen=True)
class Threshold:
    """A test against a stated amount: ``value`` in ``scale`` (``""`` none stated)."""

    op: str
    value: float
    scale: str
    text: str

    def passes(self, value: float) -> bool:
        """Whether ``value`` (in the threshold's own scale) passes the test."""
        return {">": value > self.value, ">=": value >= self.value,
                "<": value < self.value, "<=": value <= self.value}[self.op]


def threshold(text: str) -> Threshold | None:
    """The test a question states against an amount, if any.

    A year ("over 2018"), a duration ("less than one year", "more than 5 years") or a
    number written as a word is no threshold.

    Examples
    --------
    >>> threshold("how many years did net sales exceed $200,000 thousand?")
    Threshold(op='>', value=200000.0, scale='K', text='exceed $200,000 thousand')
    >>> threshold("in which year was the rate less than 20%?").scale
    'PCT'
    >>> threshold("due in less than one year") is None, threshold("up over 2018") is None
    (True, True)
    """
    for m in _THRESHOLD.finditer(text):
        num = m.group("num").replace(",", "").replace("−", "-")
        scale = THRESHOLD_SCALES.get(m.group("scale") or "", "")
        if m.group("after") or (re.fullmatch(r"(?:19|20)\d\d", num) and not m.group("cur")
                                and not scale):
            continue
        return Threshold(_COMPARATORS[m.group("cmp")], float(num), scale,
                         m.group(0).strip())
    return None


_MAX = re.compile(r"(?<![a-z])(?:highest|largest|greatest|biggest|most|maximum|max|peak|"
                  r"peaked|higher|larger|greater|bigger|more)(?![a-z])|最高|最大|最多|更高|更大|"
                  r"更多|较高|较大")
_MIN = re.compile(r"(?<![a-z])(?:lowest|smallest|least|fewest|minimum|min|lower|smaller|"
                  r"less|fewer)(?![a-z])|最低|最小|最少|更低|更小|更少|较低|较小")


def extreme(text: str) -> str | None:
    """``max`` or ``min`` when the question asks for the highest / lowest, else ``None``.

    The words of a threshold ("more than 5") are not read; a question naming both
    directions is neither.

    Examples
    --------
    >>> extreme("in which year was revenue higher?"), extreme("哪一年最低？")
    ('max', 'min')
    """
    found = _THRESHOLD.search(text)
    if found:
        text = text[:found.start()] + text[found.end():]
    text = re.sub(r"most recent|more or less|at least|at most", " ", text)
    up, down = bool(_MAX.search(text)), bool(_MIN.search(text))
    return "max" if up and not down else "min" if down and not up else None


#: A loss's extreme named beside a gain's ("brought in the most (or lost the least)", "the
#: least negative"): the values are compared signed. ``w``: the loss side's word.
_LOSS_EXTREME = re.compile(
    r"(?:\bor\s+)?(?<![a-z])(?:lost|los(?:e|es|ing)|used|us(?:e|es|ing)|spent|spend(?:s|ing)?|"
    r"burn(?:ed|t|s|ing)?)\s+the\s+(?P<w>least|most)(?![a-z])"
    r"|(?<![a-z])(?P<n>least|most)\s+negative(?![a-z])")


#: The gain side said beside a loss's extreme ("brought in the most (or lost the least)").
_GAIN_EXTREME = re.compile(r"(?<![a-z])(?:(?:brought|brings?|bringing) in|generat(?:ed|es|e|ing)|"
                           r"earn(?:ed|s|ing)?|provid(?:ed|es|e|ing))\s+the\s+(?:most|least)"
                           r"(?![a-z])")


def without_signed_extreme(text: str) -> str:
    """``text`` with the words of a signed extreme blanked (same length), if it asks one.

    They ask the operation and name no figure ("brought in", "lost").

    Examples
    --------
    >>> without_signed_extreme("which brought in the most (or lost the least) cash?")
    'which                     (                 ) cash?'
    """
    if signed_extreme(text) is None:
        return text
    for pattern in (_LOSS_EXTREME, _GAIN_EXTREME):
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text


def signed_extreme(text: str) -> str | None:
    """``max`` / ``min`` over signed values, when the question names a loss's extreme.

    "Lost the least" or "the least negative" is the highest value, a loss below any
    gain; the extreme the rest of the question names, if any, must agree.

    Examples
    --------
    >>> signed_extreme("which brought in the most (or lost the least) cash?")
    'max'
    >>> signed_extreme("which segment lost the most?"), signed_extreme("the least negative")
    ('min', 'max')
    >>> signed_extreme("which brought in the least (or lost the least)?") is None
    True
    >>> signed_extreme("which segment had the highest revenue?") is None
    True
    """
    found = _LOSS_EXTREME.search(text)
    if found is None:
        return None
    word = found.group("w") or found.group("n")
    way = "max" if word == "least" else "min"
    rest = extreme(text[:found.start()] + text[found.end():])
    return way if rest in (None, way) else None


#: Words that ask for an operation in any phrasing: what the detector did not read is
#: still asked (checked in order; the first found names the operation refused).
_ASKED: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ratio", re.compile(r"(?<![a-z])(?:ratio|proportion|divided\s+by)(?![a-z])|比率|比例|除以")),
    # "the EBITDA % margin": a margin of a row whose name has none is a share of revenue
    ("share", re.compile(r"(?<![a-z])margins?(?![a-z])|利润率")),
    ("percent_change", re.compile(r"(?:percentage|percent|per cent|%)\s*(?:change|increase|"
                                  r"decrease|growth|decline)|增长率|变动率")),
    ("average", re.compile(r"(?<![a-z-])(?<!weighted )(?:average|mean)(?![a-z-])|平均")),
    ("difference", SUBTRACTION),  # "revenue less cost of revenue", "2022 minus 2021"
    ("change", re.compile(r"(?<![a-z])(?:change|changes|changed|increase|increased|"
                          rf"decrease|decreased|growth|{'|'.join(MOVEMENT_VERBS)}|"
                          r"difference)(?![a-z])|变动|变化|增长|下降|差额")),
    # "half of revenue", "twice", "3 times": a multiple, never computed (a level is no answer)
    ("multiple", re.compile(r"(?<![a-z])(?:(?<!first )(?<!second )(?<!1st )(?<!2nd )half\s+of|"
                            r"halved|double|doubled|twice|triple|tripled|multiplied\s+by|"
                            r"(?:\d+(?:\.\d+)?|how\s+many)\s+times)"
                            r"(?![a-z])|一半|两倍|三倍|几倍|多少倍")),
)


def operation_asked(text: str) -> str:
    """The operation ``text`` (a folded question, names blanked) asks for, or ``""``.

    A safety net, not the detector: when no operation was read but one of these words
    is there, a level is never the answer.

    >>> operation_asked("what is the ratio of xxxx in fiscal 2019 to fiscal 2018?")
    'ratio'
    >>> operation_asked("what was xxxx in 2019 and 2018?")
    ''
    >>> operation_asked("what is half of xxxx in fy2025?"), operation_asked("xxxx的一半是多少？")
    ('multiple', 'multiple')
    >>> operation_asked("what was xxxx in the first half of 2022?")
    ''
    >>> operation_asked("what is the weighted average rate of return?")
    ''
    >>> operation_asked("what is the fy2015 unadjusted xxxx % margin?")
    'share'
    >>> operation_asked("what was revenue less xxxx?"), operation_asked("due in 1 year or less")
    ('difference', '')
    """
    return next((kind for kind, pattern in _ASKED if pattern.search(text)), "")
