"""Rule-based slot scanning: which metric, entity, period and channel a question names.

Zero LLM, driven by the profile's vocabulary. Each slot is the longest vocabulary
term found in the (gate-masked) question; ASCII terms must sit on word boundaries
so ``cn`` does not match inside ``concern``. Periods are found by pattern and then
normalized by :func:`~ragspine_nb.glossary.normalize_period`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ragspine_nb.glossary import (
    channel_vocabulary,
    entity_vocabulary,
    fold,
    metric_vocabulary,
    normalize_period,
)
from ragspine_nb.lang import detect_language
from ragspine_nb.profile import DomainProfile

__all__ = ["ScannedQuestion", "scan_question"]

_PERIOD = re.compile(
    r"(?:fy\s?\d{4}\s?(?:h[12]|q[1-4])?"
    r"|[hq][1-4]\s?(?:fy)?\s?\d{4}"
    r"|[12]h\s?(?:fy)?\s?\d{4}"
    r"|\d{4}\s?(?:h[12]|q[1-4])"
    r"|\d{4}\s?年\s?(?:上半年|下半年|第?[一二三四1-4]季度)?"
    r"|(?<![\d.a-z])(?:19|20)\d{2}(?![\d.%])"
    r"|今年上半年|今年下半年|去年上半年|去年下半年|前年|去年|今年|本年度|上年度"
    r"|本季度|上季度|上个季度|上半年|下半年"
    r"|the year before last|last year|this year|last quarter|this quarter"
    r"|first half of (?:last|this) year|second half of (?:last|this) year"
    r"|first half|second half)"
)


@dataclass(frozen=True)
class ScannedQuestion:
    """Slots found in a question, as controlled codes plus the text that matched."""

    raw_question: str
    language: str
    metric: str | None = None
    metric_text: str = ""
    entity: str | None = None
    entity_text: str = ""
    period: tuple[str, str] | None = None
    period_text: str = ""
    channel: str | None = None
    channel_text: str = ""


def _longest(text: str, vocab: dict[str, str]) -> tuple[str | None, str]:
    best: tuple[int, int, str, str] | None = None
    for term, code in vocab.items():
        if term.isascii():
            m = re.search(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])", text)
            pos = m.start() if m else -1
        else:
            pos = text.find(term)
        if pos >= 0:
            key = (-len(term), pos, term, code)
            if best is None or key < best:
                best = key
    return (best[3], best[2]) if best else (None, "")


def scan_question(
    question: str, profile: DomainProfile, reference_date: date | None = None,
    *, masked_question: str | None = None,
) -> ScannedQuestion:
    """Find the metric, entity, period and channel a question names.

    Parameters
    ----------
    question : str
        The raw question (kept as ``raw_question``).
    profile : DomainProfile
        Vocabulary source.
    reference_date : date, optional
        Anchor for relative periods.
    masked_question : str, optional
        The question with competitor names masked by the security gate; slots are
        read from it so a fragment of a competitor's name is never taken as ours.
    """
    text = fold(masked_question if masked_question is not None else question)
    metric, metric_text = _longest(text, metric_vocabulary(profile))
    entity, entity_text = _longest(text, entity_vocabulary(profile))
    channel, channel_text = _longest(text, channel_vocabulary(profile))
    period = None
    period_text = ""
    for m in _PERIOD.finditer(text):
        found = normalize_period(profile, m.group(0), reference_date)
        if found is not None:
            period, period_text = found, m.group(0)
            break
    return ScannedQuestion(
        raw_question=question, language=detect_language(question),
        metric=metric, metric_text=metric_text, entity=entity, entity_text=entity_text,
        period=period, period_text=period_text, channel=channel, channel_text=channel_text,
    )
