"""A misspelt word of a question read as the word it is one letter from, and said so.

"What was the percentge change in net sales?" read "percentge" as no word at all and
answered the change in units, a wrong number; "the underlyng EBITDA" answered EBITDA.
A question word of seven letters or more that the workspace's names and the question
words (:data:`~ragspine_nb.agent.reading.unstated.QUESTION_WORDS`, the operation cues)
do not know, one edit (a letter left out, added, changed or two swapped) from exactly one
word they know, is read as that word; the answer says so ("Read 'percentge' as
'percentage'."). Shorter words are too often other real words ("losing", "closing"),
and two words apart only in their last letter are two forms of one ("franchise",
"franchisee").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ragspine_nb.agent.reading.cue_words import (
    CHANGE_CUES,
    MOVEMENT_VERBS,
    NARRATIVE_CUES,
    NUMERIC_CUES,
    PERCENT_CUES,
    SHARE_CUES,
)
from ragspine_nb.agent.reading.unstated import QUESTION_WORDS
from ragspine_nb.profile import DomainProfile
from ragspine_nb.typos import TypoIndex
from ragspine_nb.wordset import content_words

__all__ = ["Respelt", "Speller", "MIN_LETTERS", "respelt_note", "name_texts"]

#: The shortest word read as a misspelling.
MIN_LETTERS = 7
_WORD = re.compile(r"[A-Za-z]+")
_CUE_WORDS = frozenset(w for cues in (CHANGE_CUES, MOVEMENT_VERBS, NARRATIVE_CUES,
                                      NUMERIC_CUES, PERCENT_CUES, SHARE_CUES)
                       for cue in cues for w in _WORD.findall(cue.lower()))


@dataclass(frozen=True)
class Respelt:
    """A question with its misspellings read as known words, and the pairs read."""

    text: str
    fixed: tuple[tuple[str, str], ...] = ()


class Speller:
    """The words a workspace's questions may be misspelt from, known once.

    Parameters
    ----------
    names : iterable of str
        The workspace's row, column and entity names.

    Examples
    --------
    >>> s = Speller(["Net cash from financing activities", "Underlying EBITDA"])
    >>> r = s.respell("What was the percentge change in the underlyng EBITDA?")
    >>> r.text
    'What was the percentage change in the underlying EBITDA?'
    >>> r.fixed
    (('percentge', 'percentage'), ('underlyng', 'underlying'))
    >>> s.respell("What was net cash provided by financing activites in 2019?").fixed
    (('activites', 'activities'),)

    A known word, a short one and one as near to two words stay as written:

    >>> s.respell("What is the plan for the losing investments?").fixed
    ()
    """

    def __init__(self, names: Iterable[str]) -> None:
        written = {w for name in names for w in _WORD.findall(name.lower())}
        targets = written | QUESTION_WORDS | _CUE_WORDS
        self.known = frozenset(targets | {w for t in written for w in content_words(t)})
        self._index = TypoIndex(w for w in targets if len(w) >= MIN_LETTERS)

    def _near(self, word: str) -> str | None:
        """The one known word ``word`` is one edit from, else ``None``."""
        lower = word.lower()
        if len(lower) < MIN_LETTERS or lower in self.known or content_words(lower) <= self.known:
            return None
        near = self._index.near(lower, max_edits=1)
        if near is None or _ending_apart(lower, near):
            return None
        return near

    def respell(self, question: str) -> Respelt:
        """``question`` with each misspelt word replaced by the known word it is near."""
        fixed: dict[str, str] = {}
        for m in _WORD.finditer(question):
            if m.group() not in fixed and (near := self._near(m.group())):
                fixed[m.group()] = near
        if not fixed:
            return Respelt(question)
        text = _WORD.sub(lambda m: fixed.get(m.group(), m.group()), question)
        return Respelt(text, tuple(fixed.items()))


def _ending_apart(word: str, known: str) -> bool:
    """Whether two words differ in their last letter only: another form, not a typo.

    "franchise" / "franchisee", "provided" / "provider", "acquire" / "acquired".

    >>> _ending_apart("franchise", "franchisee"), _ending_apart("provided", "provider")
    (True, True)
    >>> _ending_apart("percentge", "percentage")
    False
    """
    short, long_ = sorted((word, known), key=len)
    return long_.startswith(short) or (len(word) == len(known) and word[:-1] == known[:-1])


def respelt_note(fixed: tuple[tuple[str, str], ...], lang: str) -> str:
    """What the answer says of the words it read otherwise, in the question's language.

    >>> respelt_note((("percentge", "percentage"),), "en")
    "(Read 'percentge' as 'percentage'.)"
    >>> respelt_note((("percentge", "percentage"),), "zh")
    '（将“percentge”读作“percentage”）'
    """
    if not fixed:
        return ""
    if lang == "zh":
        return "（" + "；".join(f"将“{a}”读作“{b}”" for a, b in fixed) + "）"
    return "(Read " + "; ".join(f"'{a}' as '{b}'" for a, b in fixed) + ".)"


def name_texts(profile: DomainProfile) -> list[str]:
    """The profile's row, column and entity names, as written."""
    texts = [t for m in profile.metrics.values() for t in (m.label, *m.synonyms) if t]
    texts += [t for c in profile.channels.values() for t in c.synonyms]
    return texts + [t for e in profile.entities.values() for t in (e.label, *e.synonyms) if t]
