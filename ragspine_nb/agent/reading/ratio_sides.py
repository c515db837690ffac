"""Where a ratio's or a share's numerator and denominator are named in a question.

"A as a percentage of B", "what percentage of B is A", "the percentage of B represented
by A", "the ratio of A to B", "A占B的比例": :func:`ratio_split` reads the two spans of a
*folded* question (pure reading, no profile, no store). Words around a side that name no
figure ("made up of", "accounted for") are left out of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.period_phrases import QUESTION_PERIOD

__all__ = ["RatioSplit", "ratio_split", "AS_SHARE", "share_words", "share_nouns", "ratio_words"]


@dataclass(frozen=True)
class RatioSplit:
    """Where a ratio's numerator and denominator are named in the question.

    ``numerator`` and ``denominator`` are ``(start, end)`` spans of the folded text;
    ``kind`` is ``share`` (asked as a percentage) or ``ratio``.
    """

    kind: str
    numerator: tuple[int, int]
    denominator: tuple[int, int]


_PCT_WORD = r"(?:percentage|percent|per cent|%)"
_RATIO_WORD = rf"(?:{_PCT_WORD}|proportion|ratio|fraction|share|portion|multiple)"
_AS_OF = re.compile(rf"(?<![a-z])as an? {_RATIO_WORD} of(?![a-z])")
#: "Hong Kong's share of group operating profit": the owner's part of the whole ("Nike's
#: ratio of current assets to current liabilities" is the ratio of its two named rows)
_OWNED_OF = re.compile(rf"(?<=[a-z])(?:'s|’s|s') (?:{_PCT_WORD}|share|proportion|portion|"
                       r"fraction) of(?![a-z])")
#: "X as a percentage of Y": a share asked with both sides named
AS_SHARE = re.compile(rf"(?<![a-z])as an? (?P<pct>{_PCT_WORD}) of(?![a-z])")
#: "what share of revenue …", "the proportion of sales …": the noun asks a ratio
_SHARE_NOUN = re.compile(r"(?<![a-z])(?:what|which|the|a) (?P<noun>share|portion|proportion|"
                         r"fraction) of(?![a-z])")


def share_words(text: str) -> list[tuple[int, int]]:
    """Spans of the percent words of "X as a percentage of Y" (the operation, not a name).

    A row named "% of revenues" is not what "cost of sales as a % of revenues" names: its
    "%" is the question's "as a % of".

    >>> text = "cost of sales as a % of revenues"
    >>> [text[a:b] for a, b in share_words(text)]
    ['%']
    """
    return [m.span("pct") for m in AS_SHARE.finditer(text)]


def share_nouns(text: str) -> list[tuple[int, int]]:
    """Spans of the nouns asking a share: "what *share* of revenue", "the *proportion* of".

    They name no row: "Total shares" is not what "what share of revenue …" names.

    >>> text = "what share of revenue came from china"
    >>> [text[a:b] for a, b in share_nouns(text)]
    ['share']
    """
    return [m.span("noun") for m in _SHARE_NOUN.finditer(text)]


def ratio_words(text: str) -> list[tuple[int, int]]:
    """Spans of the words asking a ratio or share ("what share of", "as a percentage of").

    They name the operation, never a row or a column ("Shares", "Percent").

    >>> text = "what share of revenue came from china?"
    >>> [text[a:b] for a, b in ratio_words(text)]
    ['what share of']
    """
    spans = {m.span() for p in (_AS_OF, _WHAT_OF, _OF) for m in p.finditer(text)}
    return sorted(s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1]
                                              for o in spans))  # "share of" in "what share of"


_WHAT_OF = re.compile(rf"(?<![a-z])(?:what|which) (?:{_PCT_WORD}|proportion|"
                      r"fraction|share|portion) of(?![a-z])")
_VERB = re.compile(r"(?<![a-z])(?:is|was|are|were|does|did|do|comes?|came|has|had)(?![a-z])")
_OF = re.compile(rf"(?<![a-z])(?:{_RATIO_WORD})(?: constitution| composition)?"
                 rf"(?:,? \(?in {_PCT_WORD}\)?,?)? of(?![a-z])")
_TOTAL_SEP = re.compile(r"(?<![a-z])(?:in|of|to|within|among)(?= (?:the )?total(?![a-z]))")
_STRONG_SEP = re.compile(r"(?<![a-z])(?:over|to|out of|divided by|relative to|against|among|"
                         r"amongst|within|compared to|compared with|versus|vs\.?)(?![a-z])")
_WEAK_SEP = re.compile(r"(?<![a-z])(?:in|from)(?![a-z])")
#: "the percentage of sales represented by gross profit": the numerator comes after
#: Verbs linking a ratio's side to its whole ("made up of", "represented by", "accounted
#: for"): words of the question, never of a side's name.
_SIDE_VERBS = (r"made up|taken up|comprised|composed|constituted|accounted for|represented|"
               r"generated|contributed|derived")
_BY = re.compile(rf"(?<![a-z])(?:{_SIDE_VERBS}) by(?![a-z])")
_NUMERAL = re.compile(r"(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s*$")
_ZH_SHARE = re.compile(r"占(?P<den>.+?)的?(?:比例|比重|百分比|份额|比率|百分之几|百分之多少)")
#: "A divided by B" (one figure each side: a sum or difference divided is a formula)
_DIVIDED_BY = re.compile(r"(?<![a-z])divided by(?![a-z])")
_COMBINED = re.compile(r"(?<![a-z])(?:minus|less|plus|and|sum|total of|difference)(?![a-z])"
                       r"|\s[-+]\s")
_ZH_RATIO = re.compile(r"与(?P<den>.+?)(?:之比|的比率|的比值)")


def _kind(text: str) -> str:
    return "share" if re.search(_PCT_WORD, text) and not re.search(
        r"percentage (?:change|difference|increase|decrease|point)", text) else "ratio"


def _separator(text: str, start: int) -> re.Match[str] | None:
    """The word between a ratio's numerator and denominator, after ``start``."""
    def usable(m: re.Match[str]) -> bool:
        before, after = text[start:m.start()], text[m.end():]
        return bool(before.strip()) and bool(re.search(r"[a-z\u4e00-\u9fff]", after)) \
            and not (m.group(0) == "to" and _NUMERAL.search(before)) \
            and not QUESTION_PERIOD.match(after.strip()) \
            and not re.match(r"\s*(?:the )?(?:year|period|quarter|month)s?\b", after)
    for pattern in (_TOTAL_SEP, _STRONG_SEP, _WEAK_SEP):
        found = [m for m in pattern.finditer(text, start) if usable(m)]
        if found:
            return found[-1]
    return None


#: Words around a ratio's side that name no figure: "made up of money market funds",
#: "egg products accounted for".
_LEADING = re.compile(rf"(?:{_SIDE_VERBS})(?: of| by| from)?\s+")
_TRAILING = re.compile(rf"\s+(?:{_SIDE_VERBS}|accounts? for|represents?|makes? up)"
                       r"(?=(?:\s+(?:in|for|during|at)\s.*)?$)")


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in " ,;:?？，":
        start += 1
    while end > start and text[end - 1] in " ,;:?？，":
        end -= 1
    lead = _LEADING.match(text, start, end)
    if lead and lead.end() < end:
        start = lead.end()
    tail = _TRAILING.search(text, start, end)
    # the period after the words stays outside both sides: the question's, for both
    return (start, tail.start()) if tail and tail.start() > start else (start, end)


def _split(text: str, kind: str, numerator: tuple[int, int],
           denominator: tuple[int, int]) -> RatioSplit | None:
    num, den = _trimmed(text, *numerator), _trimmed(text, *denominator)
    if num[0] == num[1] or den[0] == den[1]:
        return None
    return RatioSplit(kind, num, den)


def ratio_split(text: str) -> RatioSplit | None:
    """The numerator and denominator of a ratio or share the question asks for.

    Examples
    --------
    >>> q = "what is a as a percentage of b in 2019?"
    >>> s = ratio_split(q); s.kind, q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('share', 'what is a', 'b in 2019')
    >>> q = "what percentage of total cost is made up of wages?"
    >>> s = ratio_split(q); q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('wages', 'total cost')
    >>> q = "what percentage of net sales did egg products account for in 2019?"
    >>> s = ratio_split(q); q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('egg products', 'net sales')
    >>> q = "what was the percentage of sales represented by gross profit in 2018?"
    >>> s = ratio_split(q); q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('gross profit in 2018', 'sales')
    >>> q = "what is the ratio of inventory to sales in 2018?"
    >>> s = ratio_split(q); s.kind, q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('ratio', 'inventory', 'sales in 2018')
    >>> q = "what is the proportion of revenue from china in 2018?"
    >>> s = ratio_split(q); q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('from china in 2018', 'revenue')
    >>> q = "what is gross profit divided by revenue in 2022?"
    >>> s = ratio_split(q); s.kind, q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('ratio', 'what is gross profit', 'revenue in 2022')
    >>> ratio_split("what is revenue minus cost of sales divided by revenue?") is None
    True
    >>> q = "what was hong kong's share of group operating profit in fy2025?"
    >>> s = ratio_split(q); s.kind, q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('ratio', 'what was hong kong', 'group operating profit in fy2025')
    >>> q = "what was nike's ratio of current assets to current liabilities?"
    >>> s = ratio_split(q); q[slice(*s.numerator)], q[slice(*s.denominator)]
    ('current assets', 'current liabilities')
    """
    end = len(text)
    m = _AS_OF.search(text) or _OWNED_OF.search(text)
    if m:
        return _split(text, _kind(m.group(0) + text[m.end():]), (0, m.start()), (m.end(), end))
    m = _WHAT_OF.search(text)
    if m:
        verb = _VERB.search(text, m.end())
        if verb is None:
            return None
        return _split(text, "share" if re.search(_PCT_WORD, m.group(0)) else "ratio",
                      (verb.end(), end), (m.end(), verb.start()))
    m = _OF.search(text)
    if m and (by := _BY.search(text, m.end())):
        return _split(text, _kind(text), (by.end(), end), (m.end(), by.start()))
    if m:
        sep = _separator(text, m.end())
        if sep is None:
            return None
        if sep.group(0) == "from":  # "the proportion of revenue from China": China's part
            return _split(text, _kind(text), (sep.start(), end), (m.end(), sep.start()))
        return _split(text, _kind(text), (m.end(), sep.start()), (sep.end(), end))
    m = _ZH_SHARE.search(text) or _ZH_RATIO.search(text)
    if m:
        kind = "share" if m.re is _ZH_SHARE and "比率" not in m.group(0) else "ratio"
        return _split(text, kind, (0, m.start()), (m.start("den"), m.end("den")))
    m = _DIVIDED_BY.search(text)
    if m and not _COMBINED.search(text[:m.start()]):  # "A minus B divided by C": no ratio
        return _split(text, "ratio", (0, m.start()), (m.end(), end))
    return None
