"""A table's unstated period, read from the sentence that introduces it.

A table of buckets ("Less than 1 year | 1-3 years | Total") or of names ("Age | Title")
names no period in its header; the report says it in the sentence before it: "The
following table summarizes our contractual obligations as of December 31, 2019:". When
the lines of the prose beside a table that introduce a table ("the following table",
"as follows", "set out below", a sentence ending with a colon, a heading line; 如下,
下表) state exactly one period — every date and year they write falls in one year, or
each of them states the date its table is at ("as of December 31, 2019") and those
dates fall in one year — and none names a part of a year (a quarter, six months), the
table is of that period (a date is its year's, as a dated column header is). Anything
else (two years, a quarter, no introducing line) tells nothing: the table stays
skipped and reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.extract.header_periods import YEAR, Period, duration
from ragspine_nb.lexicon import MONTH

__all__ = ["PeriodInference", "infer_period", "introducing_sentences"]

_INTRO = re.compile(
    r"\b(?:the|these) following\b|\bas follows\b|\btables?\b"
    r"|\b(?:set out|set forth|shown|presented|summari[sz]ed|detailed|listed|provided|"
    r"disclosed|analy[sz]ed|included|reconciled|as) below\b|如下|下表", re.I)
#: Words every match of :data:`_INTRO` holds (a cheap test before it, on long prose).
_INTRO_WORDS = ("follow", "table", "below", "如下", "下表")
#: Sentence ends: a full stop, question or exclamation mark (a closing quote may follow)
#: before a space, a Chinese full stop, or a line break. "Dec. 31" and "U.S." are not
#: cut: a full stop ends a sentence only before a capital letter, a digit or a bracket.
#: A colon ends an introducing sentence only at the end of its paragraph.
_SPLIT = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][”\"’)]))\s+(?=[A-Z0-9(\"“])|(?<=。)\s*|\n+")
_MONTH = MONTH
_CN_DATE = re.compile(r"((?:19|20)\d\d)年(?:\d{1,2}月(?:\d{1,2}日)?)?")
_DATE = rf"(?:{_MONTH}\s+\d{{1,2}},?\s+(?:19|20)\d\d|\d{{1,2}}\s+{_MONTH},?\s+(?:19|20)\d\d)"
#: The date a table is stated at ("as of December 31, 2019"), with the years listed after
#: it ("as of December 31, 2019 and 2018" states two).
_AS_OF = re.compile(
    rf"\b(?:as of|as at|at)\s+(?:the\s+)?({_DATE}(?:(?:\s*,\s*|,?\s+and\s+)(?:19|20)\d\d\b)*)",
    re.I)
#: What ends a sentence or a clause at the end of a line (a heading ends with none).
_ENDS = tuple(".!?;:。：")
#: A heading line: a few words with no sentence end ("Ageing of receivables at 31 March 2019").
_HEADING_WORDS = 15


@dataclass(frozen=True)
class PeriodInference:
    """The one period the introducing sentences state, and those sentences."""

    period: Period
    evidence: tuple[str, ...]


def introducing_sentences(prose: str) -> list[str]:
    r"""The sentences of ``prose`` that introduce a table.

    Examples
    --------
    >>> introducing_sentences("Revenue grew. Our obligations as of May 26, 2019, were as "
    ...                       "follows:\n\nDebt fell below plan.")
    ['Our obligations as of May 26, 2019, were as follows:']
    """
    out = []
    for line in prose.splitlines():
        line = " ".join(line.split()).lstrip("#").strip()
        if not line:
            continue
        short = len(line.split()) <= _HEADING_WORDS and not line.endswith(_ENDS)
        lower = line.lower()
        if not short and ":" not in line and "：" not in line and \
                not any(w in lower for w in _INTRO_WORDS):
            continue  # no sentence of it introduces a table, nor is it a heading
        pieces = _SPLIT.split(line)
        if len(pieces) == 1 and short:
            out.append(line)  # a heading over what follows
            continue
        for piece in pieces:
            sentence = piece.strip()
            if sentence and (_INTRO.search(sentence) or sentence.endswith((":", "："))):
                out.append(sentence)
    return out


def _years(sentence: str) -> set[str]:
    """Every year a sentence writes (in dates, fiscal labels or alone)."""
    folded = sentence.casefold()
    found = set(YEAR.findall(folded)) | {m.group(1) for m in _CN_DATE.finditer(sentence)}
    found |= {f"20{m.group(1)}" for m in re.finditer(r"\bfy\s?'?(\d\d)\b", folded)}
    return found


def infer_period(prose: Sequence[str]) -> PeriodInference | None:
    """The one period the table-introducing sentences of ``prose`` state, else None.

    Examples
    --------
    >>> infer_period(["The following table summarizes our obligations as of "
    ...               "December 31, 2019 (in thousands):"]).period
    ('FY', '2019')
    >>> infer_period(["The following table shows revenue for 2019 and 2018:"]) is None
    True
    >>> infer_period(["The following table summarizes, as of December 31, 2019, our "
    ...               "obligations under the lease entered into during 2018:"]).period
    ('FY', '2019')
    >>> infer_period(["The following table shows balances as of December 31, 2019 and "
    ...               "2018:"]) is None
    True
    >>> infer_period(["The following table shows the three months ended June 30, 2019:"]
    ...              ) is None
    True
    """
    dated = [sentence for text in prose for sentence in introducing_sentences(text)
             if _years(sentence)]
    if any(duration(sentence) for sentence in dated):  # a quarter, a half: not the year
        return None
    years = set().union(*(_years(sentence) for sentence in dated))
    if len(years) > 1 and all(_AS_OF.search(sentence) for sentence in dated):
        # every sentence states the date its table is at: other years it mentions ("the
        # lease entered into during 2018") are not the table's
        years = {y for sentence in dated for m in _AS_OF.finditer(sentence)
                 for y in YEAR.findall(m.group(1))}
    if len(years) != 1:
        return None
    return PeriodInference(("FY", years.pop()), tuple(dated))
