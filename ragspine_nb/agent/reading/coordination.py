"""Lists whose items share words: "operating, investing and financing cash flow".

A question lists items that share a head ("domestic and international revenue") or
a lead-in ("net cash from operating activities, investing activities and financing
activities"); each item names a row only with the words it shares. :func:`shared_words`
finds such lists in a folded question and writes each item out in full, with the span
of its own words; the row reader matches those phrases as whole names.

Pure reading of the text: no profile, no store. A list of two to five items of one or
two words each, the items before the last all of one length, the last one that length
plus its head; the lead-in is up to four words before the first item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Distributed", "shared_words", "LEAD_WORDS"]

_WORD = re.compile(r"[a-z][a-z'-]*")
#: Up to this many words before the first item may be every item's lead-in.
LEAD_WORDS = 4
_MAX_ITEM = 2
_MAX_HEAD = 3
_MAX_ITEMS = 5
_CONJUNCTIONS = frozenset({"and", "or", "&"})


@dataclass(frozen=True)
class Distributed:
    """One item of a list written out with the words it shares with the others.

    ``start``/``end`` span the item's own words in the question (the last item's
    head included); ``leads`` are its readings, each with a longer lead-in first
    ("net cash from investing activities", "cash from investing activities", …,
    "investing activities").
    """

    start: int
    end: int
    leads: tuple[str, ...]


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Words, commas and "&" with their spans; any other mark is a boundary ``|``."""
    out: list[tuple[str, int, int]] = []
    for m in re.finditer(r"[a-z][a-z'-]*|,|&|[^\sa-z]", text):
        tok = m.group(0)
        out.append((tok if _WORD.fullmatch(tok) or tok in ",&" else "|", m.start(), m.end()))
    return out


def _items_before(toks: list[tuple[str, int, int]], conj: int, size: int
                  ) -> list[tuple[int, int]] | None:
    """Token ranges of the items of ``size`` words before a conjunction, last first.

    The item next to the conjunction may stand without a comma ("A and B"), the others
    are separated by commas ("A, B, and C"); at least one item is found.
    """
    items: list[tuple[int, int]] = []
    i = conj - 1
    if i >= 0 and toks[i][0] == ",":
        i -= 1  # the serial comma
    while len(items) < _MAX_ITEMS - 1:
        lo = i - size + 1
        if lo < 0 or any(not _WORD.fullmatch(toks[k][0]) or toks[k][0] in _CONJUNCTIONS
                         for k in range(lo, i + 1)):
            break
        items.append((lo, i + 1))
        if lo - 1 < 0 or toks[lo - 1][0] != ",":
            break
        i = lo - 2
    return items or None


def _lead(toks: list[tuple[str, int, int]], first: int) -> list[str]:
    """Up to :data:`LEAD_WORDS` words right before the first item (no mark between)."""
    words: list[str] = []
    k = first - 1
    while k >= 0 and len(words) < LEAD_WORDS and _WORD.fullmatch(toks[k][0]) \
            and toks[k][0] not in _CONJUNCTIONS:
        words.insert(0, toks[k][0])
        k -= 1
    return words


def shared_words(text: str) -> list[list[Distributed]]:
    """Every reading of every list in ``text`` whose items may share words, one per reading.

    A reading is a size of the items (one word, two words) and of the head the last item
    carries (three words to none); the caller keeps the first reading whose every item
    names a row as a whole name.

    Examples
    --------
    >>> [d.leads[-1] for d in shared_words("operating, investing and financing cash flow")[0]]
    ['operating cash flow', 'investing cash flow', 'financing cash flow']
    >>> [d.leads[0] for d in shared_words("net cash from operating activities, investing "
    ...                                   "activities and financing activities")[-1]][1:]
    ['net cash from investing activities', 'net cash from financing activities']
    """
    toks = _tokens(text)
    out: list[list[Distributed]] = []
    for conj, (tok, _, _) in enumerate(toks):
        if tok not in _CONJUNCTIONS:
            continue
        after: list[int] = []
        k = conj + 1
        while k < len(toks) and _WORD.fullmatch(toks[k][0]) and toks[k][0] not in \
                _CONJUNCTIONS and len(after) < _MAX_ITEM + _MAX_HEAD:
            after.append(k)
            k += 1
        for size in range(1, min(_MAX_ITEM, len(after)) + 1):
            items = _items_before(toks, conj, size)
            if items is None:
                continue
            items.reverse()
            lead = _lead(toks, items[0][0])
            for n_head in range(min(_MAX_HEAD, len(after) - size), -1, -1):
                head = [toks[k][0] for k in after[size:size + n_head]]
                group = [_written(toks[lo][1], toks[hi - 1][2], lead,
                                  [toks[k][0] for k in range(lo, hi)], head)
                         for lo, hi in items]
                last = after[:size + n_head]
                group.append(_written(toks[last[0]][1], toks[last[-1]][2], lead,
                                      [toks[k][0] for k in after[:size]], head))
                out.append(group)
    return out


#: A noun of an action before a shared head reads as its verb's -ing form too: "operations,
#: investing and financing activities" lists "operating activities".
_ACTION_NOUN = re.compile(r"(?:(?<=at)ions?|ments?)$")


def _as_modifier(word: str) -> str:
    """The -ing form of an action noun ("operations" → "operating"), else the word.

    Examples
    --------
    >>> _as_modifier("operations"), _as_modifier("investments"), _as_modifier("cash")
    ('operating', 'investing', 'cash')
    """
    return _ACTION_NOUN.sub("ing", word) if len(word) > 7 else word


def _written(start: int, end: int, lead: list[str], own: list[str],
             head: list[str]) -> Distributed:
    """An item's readings: its words after each tail of the lead-in, longest first.

    An item before a shared ``head`` is read as written, then with its last word as a
    modifier (:func:`_as_modifier`).
    """
    forms = [[*own, *head]]
    if head and _as_modifier(own[-1]) != own[-1]:
        forms.append([*own[:-1], _as_modifier(own[-1]), *head])
    return Distributed(start, end, tuple(" ".join([*lead[i:], *form])
                                         for form in forms for i in range(len(lead) + 1)))
