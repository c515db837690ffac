"""Word-order-insensitive matching of profile terms against a question.

A table row is often named in a question with its words in another order
("net interest expense" for the row "Interest expense, net") or with a section word in
front ("federal deferred ..." for the row "Deferred: Federal"). :func:`content_words`
reduces a text to its content words (folded, singular, without stop words), and
:class:`WordSetIndex` finds

* :meth:`~WordSetIndex.contained` — the terms *all* of whose content words occur in the
  question; the codes with the largest such term win (several codes tied = ambiguous,
  the caller asks back). This is exact up to word order, inflection and stop words.
* :meth:`~WordSetIndex.closest` — terms that share only *some* words. These are fuzzy:
  callers offer them as options when asking back, never as an answer.

Only ASCII words take part; Chinese terms are matched as exact substrings elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from ragspine_nb.glossary import fold
from ragspine_nb.lexicon import MONTHS

__all__ = ["singular", "content_words", "WordSetIndex", "STOP_WORDS"]

#: Function words and question words that never identify a row or column.
STOP_WORDS = frozenset(
    "a an and the of in on at for to by from as is are was were be been being what which "
    "who whom whose how much many did does do done with its it this that these those there "
    "their than then into per or during year years period".split()
    # the "s" left of a possessive ("Best Buy's" with the company's name read apart) or
    # a plural note ("balance(s)") is no word of a name
    + ["s"]
)
_YEAR_WORD = re.compile(r"(?:19|20)\d\d")
_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")  # "non-current" stays one word; "%" is a unit
_DASH = re.compile(r"(?<=[a-z0-9])[\u2010\u2011\u2012\u2013\u2014](?=[a-z0-9])")
_SAME = {"percentage": "percent", "pct": "percent", "%": "percent", "sept": "sep",
         # a month's whole name is its stem ("july" → "jul"; "may" is both)
         **{m: m[:3] for m in MONTHS if m != "may"},
         # a verb's past a row is named by is the verb a question asks with ("Dividends
         # paid": "how much did Nike pay in dividends?")
         "paid": "pay", "pays": "pay", "sold": "sell", "sells": "sell", "spent": "spend",
         "spends": "spend"}


def singular(word: str) -> str:
    """A crude English singular: ``"assets"`` → ``"asset"``, ``"taxes"`` → ``"taxe"``.

    Applied to both sides of a comparison, so only consistency matters.
    """
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def content_words(text: str, *, keep: Iterable[str] = ()) -> frozenset[str]:
    """The folded, singular content words of ``text`` (stop words dropped unless kept).

    A dash joining two words is a hyphen ("Domestic–state" is "domestic-state").

    >>> sorted(content_words("Domestic–state")), sorted(content_words("Domestic-state"))
    (['domesticstate'], ['domesticstate'])
    """
    if keep:
        return _content_words(text, frozenset(keep))
    return _name_words(text) if len(text) <= _NAME_CHARS else _content_words(text, _NONE)


_NONE: frozenset[str] = frozenset()
#: Texts up to this long (a name, a question) have their words remembered.
_NAME_CHARS = 200


@lru_cache(maxsize=65536)
def _name_words(text: str) -> frozenset[str]:
    """:func:`content_words` of a short text, remembered.

    A profile's names are read by several indexes: their words are computed once per
    process, not once per index.
    """
    return _content_words(text, _NONE)


def _content_words(text: str, kept: frozenset[str]) -> frozenset[str]:
    # a stop word is one as written too ("does" is no content word "doe")
    folded = fold(text)
    raw = (w.replace("-", "").replace("'", "")
           for w in _WORD.findall(_DASH.sub("-", folded)))
    words = (_SAME.get(s, s) for w in raw if w not in STOP_WORDS or w in kept
             for s in (singular(w),))
    out = frozenset(w for w in words if w not in STOP_WORDS or w in kept)
    # a leading "%" names a percentage of what follows ("% of revenues" is no revenue);
    # a trailing one is a unit ("Gross margin %")
    return out | _PERCENT if folded.startswith("%") else out


_PERCENT = frozenset({"percent"})


class _Term(NamedTuple):  # a tuple: tens of thousands are built when an agent starts
    words: frozenset[str]
    code: str


def _postings(terms: list[_Term]) -> dict[str, list[int]]:
    """Each word → the indexes of the terms holding it, ascending."""
    out: dict[str, list[int]] = {}
    for i, t in enumerate(terms):
        for w in t.words:
            out.setdefault(w, []).append(i)
    return out


class WordSetIndex:
    """Terms (``(text, code)`` pairs) matched by their content words.

    Parameters
    ----------
    pairs : iterable of (str, str)
        Term text and the code it stands for; terms without content words are ignored.
    rival_pairs : iterable of (str, str), optional
        The terms whose partial matches make a full match ambiguous (default: ``pairs``);
        e.g. row labels only, not their section-qualified forms.
    cues : iterable of str, optional
        Words a question uses to ask an operation ("change", "difference"): shared with
        a term they name it fully, but they never make a partial match outweigh a full
        one ("the change in net income" names "Net income", not "Change in equity from
        net income").

    Examples
    --------
    >>> idx = WordSetIndex([("Interest expense, net", "R1"), ("Interest income", "R2")])
    >>> idx.contained(content_words("What was net interest expense in 2019?"))
    ('R1',)
    >>> idx.closest(content_words("What was the net interest cost?"))
    ('R1', 'R2')

    A word asking an operation makes no partial match a rival of a full one:

    >>> pairs = [("Net income", "N"), ("Change in equity from net income", "C")]
    >>> asked = content_words("What was the change in net income?")
    >>> WordSetIndex(pairs).contained(asked), WordSetIndex(pairs, cues={"change"}).contained(asked)
    (('N', 'C'), ('N',))
    """

    def __init__(self, pairs: Iterable[tuple[str, str]],
                 rival_pairs: Iterable[tuple[str, str]] | None = None,
                 cues: Iterable[str] = ()) -> None:
        self._cues = frozenset(cues)
        self._terms = [_Term(w, code) for text, code in pairs
                       if (w := content_words(text))]
        self._rivals = self._terms if rival_pairs is None else [
            _Term(w, code) for text, code in rival_pairs if (w := content_words(text))]
        # lookups instead of a scan of every term per question (tens of thousands on a
        # folder of filings): the terms by code, and by each of their words
        self._by_code: dict[str, list[_Term]] = {}
        for t in self._terms:
            self._by_code.setdefault(t.code, []).append(t)
        self._postings = _postings(self._terms)
        self._rival_postings = (self._postings if self._rivals is self._terms
                                else _postings(self._rivals))

    @staticmethod
    def _having(terms: list[_Term], postings: dict[str, list[int]],
                words: Iterable[str]) -> list[_Term]:
        """The terms sharing a word with ``words``, in their order."""
        found: set[int] = set()
        for w in words:
            found.update(postings.get(w, ()))
        return [terms[i] for i in sorted(found)]

    def contained(self, words: frozenset[str]) -> tuple[str, ...]:
        """Codes of the terms fully contained in ``words`` that explain the others.

        One code when its term's words include every other contained term's words
        (the longer name settles it: "deferred federal" over "federal"); otherwise the
        codes of the largest contained terms — several of them mean "ask back".
        """
        # a term with words is inside only if it shares one: only those are tried
        inside = [t for t in self._having(self._terms, self._postings, words)
                  if t.words <= words]
        if not inside:
            return ()
        best = max(len(t.words) for t in inside)
        plain = frozenset(w for w in words if not _YEAR_WORD.fullmatch(w))  # periods apart
        # a full match is as strong as the words any of its names shares with the
        # question ("diluted weighted-average shares": "Diluted" under its section title)
        codes = {t.code for t in inside if len(t.words) == best}
        strength = max(len(t.words & plain) for c in codes for t in self._by_code[c])
        rivals = self.outnaming(words, strength)
        if rivals:  # a partial match sharing more words than any full one: ask back
            top = [t.code for t in inside if len(t.words) == best]
            return tuple(dict.fromkeys([*top, *rivals]))
        top = list(dict.fromkeys(t.code for t in inside if len(t.words) == best))
        if len(top) == 1:
            winner = max((t for t in inside if t.code == top[0]), key=lambda t: len(t.words))
            if all(t.words <= winner.words for t in inside if t.code != top[0]):
                return tuple(top)
            others = [t.code for t in inside if not t.words <= winner.words]
            return tuple(dict.fromkeys([*top, *others]))
        return tuple(top)

    def outnaming(self, words: frozenset[str], strength: int) -> list[str]:
        """Codes of the rival terms sharing more than ``strength`` of ``words``.

        Years and the operation cues are not counted: a name is shared by what it names.

        >>> idx = WordSetIndex([("Cash and cash equivalents", "C"),
        ...                     ("Net cash from financing activities", "F")])
        >>> idx.outnaming(content_words("net cash provided by financing activites"), 1)
        ['F']
        """
        plain = frozenset(w for w in words if not _YEAR_WORD.fullmatch(w))
        return [t.code for t in self._having(self._rivals, self._rival_postings, plain)
                if len((t.words & plain) - self._cues) > strength]

    def inside(self, words: frozenset[str]) -> list[str]:
        """Codes of every term whose words are all among ``words``, in their order.

        >>> WordSetIndex([("Current tax", "A"), ("Tax", "C")]).inside(frozenset({"tax"}))
        ['C']
        """
        return [t.code for t in self._having(self._terms, self._postings, words)
                if t.words <= words]

    def holding(self, words: frozenset[str]) -> list[tuple[frozenset[str], str]]:
        """``(its words, code)`` of every term holding all of ``words``, in their order.

        >>> idx = WordSetIndex([("Current tax", "A"), ("Deferred tax", "B"), ("Tax", "C")])
        >>> [code for _, code in idx.holding(frozenset({"tax"}))]
        ['A', 'B', 'C']
        >>> [code for _, code in idx.holding(frozenset({"tax", "current"}))]
        ['A']
        """
        lists = [self._postings.get(w, []) for w in words]
        if not lists:
            return []
        return [(t.words, t.code) for i in min(lists, key=len)
                if words <= (t := self._terms[i]).words]

    def words_of(self, code: str, words: frozenset[str]) -> frozenset[str]:
        """The content words of ``code``'s largest term contained in ``words``."""
        inside = [t.words for t in self._by_code.get(code, ()) if t.words <= words]
        return max(inside, key=len, default=frozenset())

    def shared(self, code: str, words: frozenset[str]) -> frozenset[str]:
        """The most words any one of ``code``'s terms shares with ``words``."""
        return max((t.words & words for t in self._by_code.get(code, ())), key=len,
                   default=frozenset())

    def closest(self, words: frozenset[str], n: int = 5, min_share: float = 0.5,
                min_shared: int = 1) -> tuple[str, ...]:
        """Up to ``n`` codes sharing some of a term's words — fuzzy, for asking back only.

        A code qualifies with at least ``min_share`` of a term's words and at least
        ``min_shared`` words in common.
        """
        scored: dict[str, float] = {}
        # a term sharing no word scores nothing: only those sharing one are tried
        tried = self._having(self._terms, self._postings, words) if min_shared >= 1 \
            else self._terms
        for term in tried:
            shared = len(term.words & words)
            share = shared / len(term.words)
            if shared >= min_shared and share >= min_share and \
                    share > scored.get(term.code, 0.0):
                scored[term.code] = share
        ranked = sorted(scored, key=lambda c: -scored[c])
        return tuple(ranked[:n])
