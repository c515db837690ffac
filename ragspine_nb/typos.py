"""Misspelled words of a metric's name ("operating proft", "revnue"): found, never answered.

:class:`TypoIndex` knows the words of the profile's metric names. A question word that
is none of them but lies one edit away (two for words of eight letters or more; an edit
is an insertion, deletion, substitution or swap of neighbours) is read as that word, so
the parser can offer the metric it completes as an option to ask back — never as an
answer. Lookups go through a deletion index (each word and its one-letter deletions),
so a question costs a few dictionary look-ups however many metrics the profile has.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["TypoIndex", "edit_distance"]

_MIN_LEN = 5  # shorter words are too often other real words ("late"/"rate", "cash"/"case")
_LONG = 8  # from this length two edits are allowed


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """Edits (insert, delete, substitute, swap neighbours) from ``a`` to ``b``.

    Counting stops past ``limit``: anything farther is ``limit + 1``.

    Examples
    --------
    >>> edit_distance("proft", "profit"), edit_distance("revnue", "revenue")
    (1, 1)
    >>> edit_distance("reveune", "revenue"), edit_distance("cash", "capital")
    (1, 3)
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        prev2, prev = prev, row
    return min(prev[-1], limit + 1)


def _deletes(word: str) -> set[str]:
    return {word, *(word[:i] + word[i + 1:] for i in range(len(word)))}


class TypoIndex:
    """The words of metric names, looked up by near spelling.

    Examples
    --------
    >>> idx = TypoIndex(["operating", "profit", "revenue"])
    >>> sorted(idx.correct(frozenset({"group", "operating", "proft"})))
    ['group', 'operating', 'profit']
    >>> idx.correct(frozenset({"profit"})) is None
    True
    """

    def __init__(self, words: Iterable[str], min_len: int = _MIN_LEN) -> None:
        self.words = frozenset(w for w in words if w.isalpha())
        self.min_len = min_len
        self._by_delete: dict[str, set[str]] = {}
        for word in self.words:
            if len(word) >= min_len:
                for key in _deletes(word):
                    self._by_delete.setdefault(key, set()).add(word)

    def candidates(self, word: str, max_edits: int = 2) -> list[str]:
        """Every known word ``word`` may be a misspelling of, in alphabetical order.

        ``max_edits`` caps the edits allowed (two for a word of eight letters or more,
        else one).
        """
        if word in self.words or len(word) < self.min_len or not word.isalpha():
            return []
        limit = min(max_edits, 2 if len(word) >= _LONG else 1)
        found = {w for key in _deletes(word) for w in self._by_delete.get(key, ())}
        return [w for w in sorted(found) if edit_distance(word, w, limit) <= limit]

    def near(self, word: str, max_edits: int = 2) -> str | None:
        """The one known word ``word`` is a misspelling of, else ``None`` (none or several)."""
        close = self.candidates(word, max_edits)
        return close[0] if len(close) == 1 else None

    def correct(self, words: frozenset[str]) -> frozenset[str] | None:
        """``words`` with each misspelling replaced by its known word; ``None`` if none was."""
        fixed = {w: self.near(w) for w in words}
        if not any(fixed.values()):
            return None
        return frozenset(fixed[w] or w for w in words)
