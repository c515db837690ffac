"""The row names a question writes out: whole names, cut at the clause, lists written out.

:func:`named_phrases` finds every name of a vocabulary written in a folded question,
longest first, then

1. reads each without the clause's words (:mod:`~ragspine_nb.agent.reading.name_edges`): a name
   before "flow" or after "non" names nothing, a name ending in the clause's verb ("why did revenue
   decrease") is the names before that verb;
2. writes out a list whose items share words (:mod:`~ragspine_nb.agent.reading.coordination`):
   each item names its row with the words shared, when every item then names one and no
   row named around the list says which of it is asked.

:func:`outnamed` tells a phrase that is no reading: another row shares more of the
question's words ("net cash provided by financing" writes out "cash").
"""

from __future__ import annotations

from collections.abc import Collection

from ragspine_nb.agent.reading.coordination import Distributed, shared_words
from ragspine_nb.agent.reading.intent_readings import Hit
from ragspine_nb.agent.reading.intent_terms import Terms, find_all, word_set
from ragspine_nb.agent.reading.name_edges import (
    before_flow,
    negated,
    verb_end,
    without_flow_phrases,
)
from ragspine_nb.wordset import WordSetIndex, content_words

__all__ = ["named_phrases", "outnamed"]


def named_phrases(text: str, terms: Terms, index: WordSetIndex) -> list[Hit]:
    """Every name of ``terms`` written out in ``text``, longest first, in text order.

    ``index`` holds the same names as word sets (a row named around a list by its
    words). An item's own words named alone ("operations", a row of some table) give
    way to its name with the words it shares ("operating activities").
    """
    hits = _clause_cut(text, find_all(text, terms), terms)
    for group in shared_words(text):
        found = _listed(group, hits, text, terms, index)
        if found:
            hits = sorted([*(h for h in hits if not any(
                f[0] <= h[0] and h[1] <= f[1] for f in found)), *found])
    return hits


def _clause_cut(text: str, hits: list[Hit], terms: Terms) -> list[Hit]:
    """The hits without the clause's words (:mod:`~ragspine_nb.agent.reading.name_edges`)."""
    out: list[Hit] = []
    for h in hits:
        if before_flow(text, h[1]) or negated(text, h[0]):
            continue
        cut = verb_end(text, h[0], h[1])
        if cut is None:
            out.append(h)
            continue
        out += [(h[0] + a, h[0] + b, code, term)
                for a, b, code, term in find_all(text[h[0]:cut], terms)]
    return out


def _whole(phrase: str, terms: Terms) -> Hit | None:
    """The one name that is the whole ``phrase``, as a hit of the phrase."""
    found = find_all(phrase, terms)
    if len(found) == 1 and found[0][0] == 0 and found[0][1] == len(phrase):
        return found[0]
    return None


def _listed(group: list[Distributed], hits: list[Hit], text: str, terms: Terms,
            index: WordSetIndex) -> list[Hit]:
    """Hits of a list's items not named already, if every item names a row.

    Not when the question names another row outside the list (as a phrase or by its
    words): the list then says which of that row ("underlying rights and other for both
    finite-lived and indefinite-lived intangible assets"), not what is asked.
    """
    if any(not any(h[0] < d.end and d.start < h[1] for d in group) for h in hits):
        return []
    wholes = []
    for item in group:
        whole = next((w for lead in item.leads if (w := _whole(lead, terms))), None)
        if whole is None:
            return []
        wholes.append(whole)
    beside = without_flow_phrases(f"{text[:group[0].start]} {text[group[-1].end:]}")
    if index.contained(content_words(beside) - word_set(wholes[0][3])):
        return []  # a row named by the words around the list
    out: list[Hit] = []
    codes = set()
    for item, whole in zip(group, wholes, strict=True):
        inside = [h for h in hits if h[0] < item.end and item.start < h[1]]
        around = [h for h in inside if h[0] <= item.start and item.end <= h[1]
                  and h[1] - h[0] > item.end - item.start]
        if around:  # named with more words than its own ("net cash from operating …")
            codes.add(around[0][2])
        elif any(not (item.start <= h[0] and h[1] <= item.end) for h in inside):
            return []  # another name crosses the item: not this reading
        else:
            out.append((item.start, item.end, whole[2], whole[3]))
            codes.add(whole[2])
    return out if len(codes) == len(group) else []


def outnamed(index: WordSetIndex, live: Collection[str] | None, hits: list[Hit],
             words: frozenset[str]) -> list[str]:
    """The rows sharing most of ``words``, more than the rows the phrase ``hits`` name.

    Numbers name no row (a date's day), one word shared is no fuller name, and with
    ``live`` known only rows with stored figures count.

    >>> idx = WordSetIndex([("Cash and cash equivalents", "CASH"),
    ...                     ("Net cash from financing activities", "FIN"),
    ...                     ("Net cash from operating activities", "OPS")])
    >>> asked = content_words("net cash provided by financing activites in 2019")
    >>> outnamed(idx, None, [(0, 4, "CASH", "cash")], asked)
    ['FIN']
    >>> outnamed(idx, None, [(0, 4, "CASH", "cash")], content_words("cash in 2019"))
    []
    """
    words = frozenset(w for w in words if not w.isdigit())
    codes = {h[2] for h in hits}
    strength = max(1, *(len(word_set(h[3]) | index.shared(h[2], words)) for h in hits))
    rivals = {c: len(index.shared(c, words)) for c in index.outnaming(words, strength)
              if c not in codes and (live is None or c in live)}
    return [c for c, n in rivals.items() if n == max(rivals.values())]
