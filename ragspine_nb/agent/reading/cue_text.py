"""The question's words outside the names it resolved: where operation cues are read.

"Weighted average shares" or "Total revenue" named in a question ask for no average or
sum: the rows' and columns' names are blanked out (written as ``x``, so the words around
them stay words) before any cue is read. A row named in other words than its names has its
cue words blanked instead ("average", "total" …); a column's are kept ("change" may name
the stated-change column and still ask for a change).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragspine_nb.agent.reading.parsed import ParsedIntent
from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile

__all__ = ["cue_text", "names_of"]

#: What a blanked-out name is written as (a letter, so the words around it stay words).
_BLANK = "x"
#: Cue words that name no operation when they are words of a row the question named.
_CUE_WORDS = frozenset({"average", "mean", "total", "sum", "combined", "ratio", "percentage",
                        "percent", "proportion", "share", "change", "increase", "decrease",
                        "highest", "lowest", "largest", "smallest", "maximum", "minimum",
                        "growth", "net", "aggregate", "margin", "margins"})


@lru_cache(maxsize=4096)
def names_of(profile: DomainProfile, codes: tuple[str, ...]) -> tuple[str, ...]:
    """The folded names (label, synonyms, code) of metrics and channels, longest first."""
    terms: set[str] = set()
    for code in codes:
        spec = profile.metrics.get(code) or profile.channels.get(code)
        if spec is not None:
            terms |= {fold(t) for t in (spec.code, getattr(spec, "label", ""), *spec.synonyms)}
    return tuple(sorted((t for t in terms if len(t) > 1), key=len, reverse=True))


def cue_text(intent: ParsedIntent, profile: DomainProfile) -> str:
    """The folded question with the rows and columns it names blanked out (same length).

    Names are blanked as phrases (written as ``x``); when a named row's name appears in
    no phrase of its own (named in other words), the cue words ("average", "total" …)
    of its name are blanked instead (not a column's: "change" may name the stated-change
    column and still ask for a change).
    """
    text = fold(intent.raw_question)
    rows = set(intent.metrics)
    for code in dict.fromkeys((*intent.metrics, *intent.channels)):
        names = names_of(profile, (code,))
        blanked = text
        # a name's "percent" as the question may write it ("external valuation %")
        for name in (*names, *(n.replace(" percent", p) for n in names
                               for p in (" %", "%") if " percent" in n)):
            body = re.escape(name)
            pattern = rf"(?<![a-z0-9]){body}(?![a-z0-9])" if name.isascii() else body
            blanked = re.sub(pattern, lambda m: _BLANK * len(m.group(0)), blanked)
        if blanked == text and code in rows:  # a row named in other words: its cue
            # words are no cue (a column's are: "change" names a stated-change column)
            words = {w for n in names for w in re.findall(r"[a-z]+", n)} & _CUE_WORDS
            for word in words:
                blanked = re.sub(rf"(?<![a-z]){word}(?![a-z])", _BLANK * len(word), blanked)
        text = blanked
    return text
