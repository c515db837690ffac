"""Terms matched whatever their case, as written in a text (not folded), by lookup.

A :class:`CaselessMatcher` finds what one case-insensitive pattern per term found:
each term (NFKC) as a literal, an ASCII term between ``[A-Za-z0-9]`` edges, the terms
tried in the order given and a match kept only where no earlier term's kept match
covers any of its characters. It reads the text's lower case with a
:class:`~ragspine_nb.vocab_matcher.VocabMatcher`; the few terms lower case cannot
stand for (a cased letter outside ASCII: ``ς`` matches ``Σ``, or a term written
outside ASCII whose NFKC form is ASCII, which has no word edges) keep their pattern,
compiled on first use, and so does every term in a text holding a character that a
case-insensitive pattern matches with an ASCII letter (``İ ı ſ K``).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence

from ragspine_nb.vocab_matcher import Match, VocabMatcher, take_free

__all__ = ["CaselessMatcher", "shared_caseless"]

#: The characters other than ASCII letters that a case-insensitive pattern matches with
#: an ASCII letter (found by trying every code point): in a text without them, an ASCII
#: term matches exactly where its lower case is in the text's lower case.
ASCII_TWINS = frozenset("\u0130\u0131\u017f\u212a")
#: Matchers kept per term list (:func:`shared_caseless`).
_SHARED_SIZE = 16
_SHARED: dict[tuple[tuple[str, str], ...], CaselessMatcher] = {}
_SHARED_LOCK = threading.Lock()


def _looked_up(term: str, written: str) -> bool:
    """Whether lower case stands for ``term``'s case-insensitive pattern.

    ``term`` is the NFKC form of ``written``. An ASCII term; or one whose characters
    outside ASCII are all caseless (a dash, a curly quote, CJK and other letters
    without case): such a character is a literal of the pattern (no other character
    matches it), and an ASCII letter matches only its two cases in a text without
    :data:`ASCII_TWINS` ("Stockholders’ equity—total" is looked up).

    >>> _looked_up("stockholders’ equity", "Stockholders’ equity")
    True
    >>> _looked_up("σύνολο", "ΣΎΝΟΛΟ")
    False
    """
    if term.isascii():
        return written.isascii()
    return all(c.isascii() or c.lower() == c.upper() == c for c in term)


class CaselessMatcher:
    """Case-insensitive term matches, longest non-overlapping, in the order given.

    Parameters
    ----------
    pairs : sequence of (str, str)
        ``(term as written, code)`` in the order the terms are tried.

    Examples
    --------
    >>> m = CaselessMatcher([("Net Sales", "NS"), ("sales", "S"), ("营收", "R")])
    >>> m.find_all("NET SALES and Sales; 营收 (not wholesales)")
    [(0, 9, 'NS', 'Net Sales'), (14, 19, 'S', 'sales'), (21, 23, 'R', '营收')]
    """

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self._written = [t for t, _ in pairs]
        self._codes = [c for _, c in pairs]
        self._terms = [unicodedata.normalize("NFKC", t) for t in self._written]
        fast = [i for i, (t, w) in enumerate(zip(self._terms, self._written, strict=True))
                if t and _looked_up(t, w)]
        #: the terms lower case stands for, keyed by it; the rank is the code
        self._fast = VocabMatcher.ordered([(self._terms[i].lower(), str(i)) for i in fast],
                                          hyphen_words=False)
        self._slow = sorted(set(range(len(pairs))) - set(fast))
        self._patterns: dict[int, re.Pattern[str]] = {}
        self._lock = threading.Lock()

    def _pattern(self, rank: int) -> re.Pattern[str]:
        pattern = self._patterns.get(rank)
        if pattern is None:
            body = re.escape(self._terms[rank])
            if self._written[rank].isascii():
                body = rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9])"
            pattern = re.compile(body, re.IGNORECASE)
            with self._lock:
                self._patterns[rank] = pattern
        return pattern

    def _chains(self, text: str) -> list[tuple[int, int, int]]:
        """Each term's own matches ``(rank, start, end)``, by rank then start."""
        lower = text.lower()
        if ASCII_TWINS.isdisjoint(text) and len(lower) == len(text):
            chains = [(int(code), start, end)
                      for start, end, code, _ in self._fast.each_match(lower)]
            slow = self._slow
        else:
            chains, slow = [], list(range(len(self._terms)))
        chains += [(rank, m.start(), m.end()) for rank in slow if self._terms[rank]
                   for m in self._pattern(rank).finditer(text)]
        chains.sort()
        return chains

    def find_all(self, text: str) -> list[Match]:
        """Non-overlapping matches ``(start, end, code, term as written)`` in text order."""
        return sorted((start, end, self._codes[rank], self._written[rank])
                      for rank, start, end in take_free(self._chains(text), len(text)))


def shared_caseless(pairs: Sequence[tuple[str, str]]) -> CaselessMatcher:
    """The matcher of a term list, built once per distinct list (the last few kept).

    Every reader of one profile's glossary (the narrative index's rewriter, the query
    planner's) reads with the same matcher; an equal list from another call is found by
    its content.

    >>> shared_caseless([("Revenue", "R")]) is shared_caseless([("Revenue", "R")])
    True
    """
    key = tuple(pairs)
    with _SHARED_LOCK:
        kept = _SHARED.get(key)
        if kept is not None:
            return kept
    matcher = CaselessMatcher(key)
    with _SHARED_LOCK:
        if len(_SHARED) >= _SHARED_SIZE:
            _SHARED.pop(next(iter(_SHARED)))
        return _SHARED.setdefault(key, matcher)
