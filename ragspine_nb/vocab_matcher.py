"""Every term of a vocabulary a text names, found by lookup instead of one regex per term.

A :class:`VocabMatcher` reads a folded text against a vocabulary (folded term → code) and
returns the longest non-overlapping matches, exactly as trying each term's pattern in
turn, longest term first, would:

* an ASCII term matches between word edges, where a word is a run of ``[a-z0-9]`` and a
  hyphenated word is one word ("vested" is not in "non-vested");
* any other term matches anywhere it is written (Chinese has no word edges);
* a term's matches are its non-overlapping occurrences from left to right (a regex's
  ``finditer``), and a match is kept only where no longer (or, among equally long terms,
  alphabetically earlier) term's kept match covers any of its characters.

Building costs a dictionary entry per term (milliseconds for 17,000 terms, where
compiling one pattern per term took seconds); reading costs a lookup per word of the
text, not a scan per term. Both are independent of how the text is cased: the caller
folds (:func:`~ragspine_nb.glossary.fold`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Mapping

__all__ = ["VocabMatcher", "Match", "shared_matcher", "take_free"]

#: ``(start, end, code, term)`` in text order.
Match = tuple[int, int, str, str]

_WORD = re.compile(r"[a-z0-9]+")
#: a term's first word, and its second with what lies between (group 1)
_LEAD = re.compile(r"[a-z0-9]+([^a-z0-9]+[a-z0-9]+)?")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
#: Matchers kept per vocabulary (:func:`shared_matcher`).
_SHARED_SIZE = 32
_SHARED: dict[tuple[frozenset[tuple[str, str]], bool], VocabMatcher] = {}
_SHARED_LOCK = threading.Lock()


def _edge_before(text: str, start: int, hyphen: bool = True) -> bool:
    """Whether a word may start at ``start`` (no word, nor a word and a hyphen, before)."""
    if start == 0:
        return True
    before = text[start - 1]
    if before in _WORD_CHARS:
        return False
    return not (hyphen and before == "-" and start >= 2 and text[start - 2] in _WORD_CHARS)


def _edge_after(text: str, end: int, hyphen: bool = True) -> bool:
    """Whether a word may end at ``end`` (no word, nor a hyphen and a word, after)."""
    if end >= len(text):
        return True
    after = text[end]
    if after in _WORD_CHARS:
        return False
    return not (hyphen and after == "-" and end + 1 < len(text)
                and text[end + 1] in _WORD_CHARS)


class VocabMatcher:
    """One vocabulary's terms, indexed for lookup (built once, read-only, thread-safe).

    Parameters
    ----------
    vocab : mapping of str to str
        Folded term → code; the longest term is tried first, equally long terms in
        alphabetical order.
    hyphen_words : bool, default True
        A hyphenated word is one word: no ASCII term matches a part of it ("vested" is
        not in "non-vested"). ``False``: a hyphen is a word edge like any other.

    Examples
    --------
    >>> m = VocabMatcher({"net sales": "NS", "sales": "S", "vested": "V", "营收": "R"})
    >>> m.find_all("net sales and sales of non-vested stock; 营收")
    [(0, 9, 'NS', 'net sales'), (14, 19, 'S', 'sales'), (41, 43, 'R', '营收')]
    """

    __slots__ = ("_terms", "_codes", "_hyphen", "_by_word", "_by_words", "_by_char",
                 "_by_pair", "_by_single", "_empty")

    def __init__(self, vocab: Mapping[str, str], *, hyphen_words: bool = True) -> None:
        order = sorted(vocab, key=lambda t: (-len(t), t))
        self._index([(t, vocab[t]) for t in order], hyphen_words)

    @classmethod
    def ordered(cls, pairs: Iterable[tuple[str, str]], *,
                hyphen_words: bool = True) -> VocabMatcher:
        """A matcher trying the terms in the order given (a repeated term: its first code).

        >>> VocabMatcher.ordered([("sales", "S"), ("net sales", "NS")]).find_all("net sales")
        [(4, 9, 'S', 'sales')]
        """
        matcher = cls.__new__(cls)
        matcher._index(_first_of_each(pairs), hyphen_words)
        return matcher

    def _index(self, pairs: list[tuple[str, str]], hyphen_words: bool) -> None:
        self._terms = [t for t, _ in pairs]
        self._codes = [c for _, c in pairs]
        self._hyphen = hyphen_words
        #: ASCII terms opening with a word, keyed by it (one word) or their first two words
        #: and what lies between (a term's words are whole words of the text it matches)
        self._by_word: dict[str, list[int]] = {}
        self._by_words: dict[str, list[int]] = {}
        #: ASCII terms opening with another character, keyed by it
        self._by_char: dict[str, list[int]] = {}
        #: other terms (matched anywhere), keyed by their first non-ASCII character (and
        #: the one after it), with its offset in the term
        self._by_pair: dict[str, list[tuple[int, int]]] = {}
        self._by_single: dict[str, list[tuple[int, int]]] = {}
        self._empty: str | None = None
        for rank, (term, code) in enumerate(pairs):
            if not term:
                self._empty = code if self._empty is None else self._empty
            elif not term.isascii():
                at = next(i for i, c in enumerate(term) if c > "\x7f")
                key = term[at:at + 2]
                (self._by_pair if len(key) == 2 else self._by_single).setdefault(
                    key, []).append((rank, at))
            elif lead := _LEAD.match(term):
                key = lead.group(0)
                (self._by_words if lead.lastindex else self._by_word).setdefault(
                    key, []).append(rank)
            else:
                self._by_char.setdefault(term[0], []).append(rank)

    def __len__(self) -> int:
        return len(self._terms)

    def _occurrences(self, text: str) -> list[tuple[int, int]]:
        """Every ``(rank, start)`` where a term's pattern matches (overlaps included)."""
        found: list[tuple[int, int]] = []
        if self._by_word or self._by_words:
            self._word_terms(text, found)
        terms, hyphen = self._terms, self._hyphen
        for char, ranks in self._by_char.items():
            start = text.find(char)
            while start >= 0:
                if _edge_before(text, start, hyphen):
                    for rank in ranks:
                        term = terms[rank]
                        if (text.startswith(term, start)
                                and _edge_after(text, start + len(term), hyphen)):
                            found.append((rank, start))
                start = text.find(char, start + 1)
        if (self._by_pair or self._by_single) and not text.isascii():
            for m in _NON_ASCII.finditer(text):
                at = m.start()
                for key, index in ((text[at:at + 2], self._by_pair),
                                   (text[at], self._by_single)):
                    for rank, offset in index.get(key, ()):
                        if offset <= at and text.startswith(terms[rank], at - offset):
                            found.append((rank, at - offset))
        return found

    def _word_terms(self, text: str, found: list[tuple[int, int]]) -> None:
        """The ASCII terms opening with a word: looked up at each word of ``text``."""
        terms, hyphen, one, two = self._terms, self._hyphen, self._by_word, self._by_words
        words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
        for i, (start, end) in enumerate(words):
            ranks = one.get(text[start:end], ())
            if i + 1 < len(words):
                ranks = [*ranks, *two.get(text[start:words[i + 1][1]], ())]
            if not ranks or not _edge_before(text, start, hyphen):
                continue
            for rank in ranks:
                term = terms[rank]
                if text.startswith(term, start) and _edge_after(text, start + len(term), hyphen):
                    found.append((rank, start))

    def _chained(self, text: str) -> Iterator[tuple[int, int, int]]:
        """Each term's own matches ``(rank, start, end)``, as its pattern's ``finditer``.

        Terms in order; a term's matches left to right, none overlapping the last.
        """
        occurrences = self._occurrences(text)
        occurrences.sort()
        rank_now, resume, size = -1, 0, 0
        for rank, start in occurrences:
            if rank != rank_now:
                rank_now, resume, size = rank, 0, len(self._terms[rank])
            if start >= resume:
                resume = start + size
                yield rank, start, resume

    def _empty_matches(self, text: str) -> list[Match]:
        """An empty term matches between words (as its pattern did), taken or not."""
        if self._empty is None:
            return []
        return [(i, i, self._empty, "") for i in range(len(text) + 1)
                if _edge_before(text, i, self._hyphen) and _edge_after(text, i, self._hyphen)]

    def find_all(self, text: str) -> list[Match]:
        """Non-overlapping longest matches ``(start, end, code, term)`` in text order."""
        kept = [(start, end, self._codes[rank], self._terms[rank])
                for rank, start, end in take_free(self._chained(text), len(text))]
        return sorted(kept + self._empty_matches(text))

    def each_match(self, text: str) -> list[Match]:
        """Every term's own matches, overlapping other terms' (sorted).

        >>> VocabMatcher({"net sales": "NS", "sales": "S"}).each_match("net sales")
        [(0, 9, 'NS', 'net sales'), (4, 9, 'S', 'sales')]
        """
        found = [(start, end, self._codes[rank], self._terms[rank])
                 for rank, start, end in self._chained(text)]
        return sorted(found + self._empty_matches(text))


def take_free(chains: Iterable[tuple[int, int, int]], size: int
              ) -> list[tuple[int, int, int]]:
    """The matches ``(rank, start, end)``, in the order given, that cover no kept one.

    >>> take_free([(0, 0, 9), (1, 4, 9), (1, 11, 16)], 16)
    [(0, 0, 9), (1, 11, 16)]
    """
    taken = bytearray(size)
    kept = []
    for rank, start, end in chains:
        if taken.find(1, start, end) < 0:
            taken[start:end] = b"\x01" * (end - start)
            kept.append((rank, start, end))
    return kept


def _first_of_each(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``pairs`` in order, each term once (with its first code)."""
    seen: dict[str, str] = {}
    for term, code in pairs:
        seen.setdefault(term, code)
    return list(seen.items())


def shared_matcher(vocab: Mapping[str, str], *, hyphen_words: bool = True) -> VocabMatcher:
    """The matcher of a vocabulary, built once per distinct vocabulary (the last few kept).

    Every reader of one profile (intent, rows, figures, claims) reads with the same
    matcher; an equal vocabulary from another call is found by its content.
    """
    key = (frozenset(vocab.items()), hyphen_words)
    with _SHARED_LOCK:
        kept = _SHARED.get(key)
        if kept is not None:
            return kept
    matcher = VocabMatcher(vocab, hyphen_words=hyphen_words)
    with _SHARED_LOCK:
        if len(_SHARED) >= _SHARED_SIZE:
            _SHARED.pop(next(iter(_SHARED)))
        return _SHARED.setdefault(key, matcher)
