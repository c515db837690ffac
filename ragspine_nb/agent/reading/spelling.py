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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from ragspine_nb.agent.reading.cue_words import (
    CHANGE_CUES,
    MOVEMENT_VERBS,
    NARRATIVE_CUES,
    NUMERIC_CUES,
    PERCENT_CUES,
    SHARE_CUES,
)
from ragspine_nb.agent.reading.unstated import QUESTION_WORDS
from ragspine_nb.lexicon import MONTHS
from ragspine_nb.number_words import NUMBER_WORDS
from ragspine_nb.period_phrases import ORDINALS
from ragspine_nb.profile import DomainProfile
from ragspine_nb.typos import TypoIndex
from ragspine_nb.wordset import STOP_WORDS, content_words

__all__ = ["Respelt", "Speller", "MIN_LETTERS", "MIN_SHORT", "respelt_note", "doubt_question",
           "name_texts"]

#: The shortest word read as a misspelling of any known word.
MIN_LETTERS = 7
#: The shortest word read as a misspelling ("toal": total) ...
MIN_SHORT = 4
#: ... and the shortest word it is read as ("male" is no "made").
MIN_TARGET = 5
_WORD = re.compile(r"[A-Za-z]+")
_CUE_WORDS = frozenset(w for cues in (CHANGE_CUES, MOVEMENT_VERBS, NARRATIVE_CUES,
                                      NUMERIC_CUES, PERCENT_CUES, SHARE_CUES)
                       for cue in cues for w in _WORD.findall(cue.lower()))


#: The words that ask (function words otherwise): "whch year" asks which year.
_ASKING = frozenset({"which", "where", "whose", "what", "when"})
#: The words a question asks with (:data:`QUESTION_WORDS`, the operation cues).
_CLOSED = frozenset(w for w in QUESTION_WORDS | _CUE_WORDS | _ASKING if w.isalpha())
#: Words read apart from names, never misspellings: function words ("there"), numbers
#: written out ("three"), months and ordinals.
_READ_APART = STOP_WORDS | NUMBER_WORDS | frozenset(MONTHS) | frozenset(ORDINALS)


@dataclass(frozen=True)
class Respelt:
    """A question with its misspellings read as known words, and the pairs read.

    ``doubtful``: each word that is no known word but one letter from several (one of
    them a question word): the caller asks which is meant before answering a figure.
    """

    text: str
    fixed: tuple[tuple[str, str], ...] = ()
    doubtful: tuple[tuple[str, tuple[str, ...]], ...] = ()


class Speller:
    """The words a workspace's questions may be misspelt from, known once.

    Parameters
    ----------
    names : iterable of str
        The workspace's row, column and entity names.
    corpus : callable, optional
        Whether the workspace's text writes a word: such a word is read as written.
    corpus_words : callable, optional
        The words of so many letters or more the workspace's text writes: a long word
        may be misspelt from one of them too ("determied": determined).

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

    A word of five or six letters is read only as a question word ("chage": change), and
    only when no name is as near; else it is doubtful:

    >>> s.respell("What was the chage in net cash from financing activities?").fixed
    (('chage', 'change'),)
    >>> s.respell("In whch year was EBITDA the largest?").fixed
    (('whch', 'which'),)
    >>> Speller(["Restructuring charges"]).respell("What was the chage in 2019?").doubtful
    (('chage', ('change', 'charge')),)

    A known word, another form of one and a word whose first letter differs stay as
    written:

    >>> s.respell("What is the plan for the losing investments?")
    Respelt(text='What is the plan for the losing investments?', fixed=(), doubtful=())
    >>> s.respell("What was revenue three years ago?").fixed
    ()
    """

    def __init__(self, names: Iterable[str], corpus: Callable[[str], bool] | None = None,
                 corpus_words: Callable[[int], Iterable[str]] | None = None) -> None:
        self.corpus, self.corpus_words = corpus, corpus_words
        self._written = frozenset(_WORD.findall(" ".join(names).lower()))
        self.known = _CLOSED | self._written | _READ_APART

    @cached_property
    def _indexes(self) -> tuple[TypoIndex, TypoIndex, TypoIndex]:
        """Long words, question words and name words by near spelling.

        Built on first use: only a question with an unknown word needs them.
        """
        named = self._written | {w for t in self._written for w in content_words(t)}
        written = set(self.corpus_words(MIN_LETTERS)) if self.corpus_words else set()
        return (TypoIndex(w for w in _CLOSED | self._written | written if len(w) >= MIN_LETTERS),
                TypoIndex((w for w in _CLOSED if len(w) >= MIN_TARGET), MIN_SHORT),
                TypoIndex((w for w in named if len(w) >= MIN_TARGET), MIN_SHORT))

    def _read(self, word: str) -> tuple[tuple[str, ...], bool]:
        """The known words ``word`` may be misspelt from, and whether it is read as the one.

        ``((), False)`` for a known word or one near none.
        """
        lower = word.lower()
        if len(lower) < MIN_SHORT or lower in self.known or content_words(lower) <= self.known:
            return (), False
        found, certain = self._near(lower)
        # a word the reports write is a word ("charge"), not a typo of a question word
        if found and self.corpus is not None and self.corpus(lower):
            return (), False
        return found, certain

    def _near(self, lower: str) -> tuple[tuple[str, ...], bool]:
        """A long word's one near known word; a short word's near question words and names.

        A short word is read as a question word only when no name is as near; near a
        name, it is doubtful ("incme": income?).
        """
        long_, question_words, name_words = self._indexes
        if len(lower) >= MIN_LETTERS:
            near = _one_word([w for w in long_.candidates(lower, 1) if _typo_of(lower, w)])
            return (tuple(near), True) if len(near) == 1 else ((), False)
        closed = [w for w in question_words.candidates(lower, 1) if _typo_of(lower, w)]
        names = [w for w in name_words.candidates(lower, 1)
                 if _typo_of(lower, w) and w not in closed]
        return tuple(closed + names), len(closed) == 1 and not names

    def respell(self, question: str) -> Respelt:
        """``question`` with each misspelt word replaced by the known word it is near."""
        fixed: dict[str, str] = {}
        doubtful: dict[str, tuple[str, ...]] = {}
        for m in _WORD.finditer(question):
            if m.group() in fixed or m.group() in doubtful:
                continue
            read, certain = self._read(m.group())
            if certain:
                fixed[m.group()] = read[0]
            elif read:
                doubtful[m.group()] = tuple(sorted(read))
        text = _WORD.sub(lambda m: fixed.get(m.group(), m.group()), question) if fixed \
            else question
        return Respelt(text, tuple(fixed.items()), tuple(doubtful.items()))


def _one_word(near: list[str]) -> list[str]:
    """Near words that are forms of one word ("expense", "expenses") as the longest.

    A typo most often leaves a letter out; the forms name the same rows.

    >>> _one_word(["expense", "expenses"]), _one_word(["expense", "expanse"])
    (['expenses'], ['expense', 'expanse'])
    """
    longest = max(near, key=len, default="")
    return [longest] if len(near) > 1 and all(
        _ending_apart(w, longest) for w in near if w != longest) else near


def _typo_of(word: str, known: str) -> bool:
    """Whether ``word`` may be a typo of ``known``: same first letter, not another form.

    A typo seldom hits the first letter ("losing" is no "closing").

    >>> _typo_of("chage", "change"), _typo_of("losing", "closing")
    (True, False)
    """
    return word[:1] == known[:1] and not _ending_apart(word, known)


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


def doubt_question(doubtful: tuple[tuple[str, tuple[str, ...]], ...], lang: str) -> str:
    """The ask-back for words that may be misspelt from several, in the question's language.

    >>> doubt_question((("chage", ("change", "charge")),), "en")
    "Which word do you mean by 'chage': 'change' or 'charge'? Please ask again with it."
    >>> doubt_question((("chage", ("change", "charge")),), "zh")
    '“chage”是指“change”还是“charge”？请用该词重新提问。'
    >>> doubt_question((("incme", ("income",)),), "en")
    "Do you mean 'income' by 'incme'? Please ask again with it."
    >>> doubt_question((("incme", ("income",)),), "zh")
    '“incme”是指“income”吗？请用该词重新提问。'
    """
    word, options = doubtful[0]
    if lang == "zh":
        said = "还是".join(f"“{o}”" for o in options) + ("" if len(options) > 1 else "吗")
        return f"“{word}”是指{said}？请用该词重新提问。"
    if len(options) == 1:
        return f"Do you mean '{options[0]}' by '{word}'? Please ask again with it."
    listed = " or ".join(f"'{o}'" for o in options)
    return f"Which word do you mean by '{word}': {listed}? Please ask again with it."
