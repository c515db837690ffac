"""Where a row's name written in a question ends: words of the clause are not the name.

A workspace pools the row labels of every table it holds, some of them ending in a word a
question uses for something else:

* a name before "flow" modifies it: "cash flow" is no cash balance
  (:func:`before_flow`, :func:`without_flow_phrases`);
* a movement verb after do-support is the clause's verb, not a name's last word: in "Why
  did Best Buy's revenue decrease in FY2023?" the row is "revenue", not another filing's
  "Total revenue decrease" (:func:`verb_end`) — while "the revenue decrease amounted to"
  or "What was the revenue decrease?" keep it;
* a name after "non" is negated, not named: "non-GAAP EBITDA" asks for no "GAAP" row
  (:func:`negated`) — a name that begins with "non" ("non-current assets") is matched
  whole, longest first, before this is asked.

Pure reading of a folded question; no profile, no store.
"""

from __future__ import annotations

import re

from ragspine_nb.wordset import content_words

__all__ = ["before_flow", "without_flow_phrases", "verb_end", "negated", "negated_words",
           "clause_verbs", "MOVEMENT_VERBS"]

_FLOW_AFTER = re.compile(r"\s+flows?(?![a-z])")
_MODIFIED_FLOW = re.compile(r"(?<![a-z])[a-z]+\s+flows?(?![a-z])")
#: Movement verbs in their bare form (the form do-support takes).
MOVEMENT_VERBS = frozenset({"decrease", "increase", "decline", "change", "grow", "fall", "rise",
                            "drop", "improve", "deteriorate", "shrink", "vary", "fluctuate"})
#: Do-support and modals: the bare verb after them (and their subject) is the clause's.
_SUPPORT = re.compile(r"(?<![a-z])(?:did|does|do|will|would|could|should|can|might|may)"
                      r"(?![a-z])")
#: What may follow a clause's verb: its end, a preposition or a period.
_AFTER_VERB = re.compile(r"\s*(?:$|[?,.;:!)]|(?:in|from|between|during|since|over|by|to|"
                         r"for|compared|versus|vs|year|yoy|so|last|this|after|before|and|"
                         r"or|at|on|fy|q[1-4]|\d)(?![a-z]))")
_NON_BEFORE = re.compile(r"(?<![a-z])non[\s-]*$")
_NON_WORD = re.compile(r"(?<![a-z])non\s+([a-z]+)")
_VERB = re.compile(rf"(?<![a-z])(?:{'|'.join(sorted(MOVEMENT_VERBS))})(?![a-z])")
_CLAUSE_END = re.compile(r"[,;:?.!]|(?<![a-z])(?:and|but|while|which|that)(?![a-z])")


def before_flow(text: str, end: int) -> bool:
    """Whether a name ending at ``end`` is followed by "flow(s)", which it then modifies.

    >>> before_flow("what was cash flow in 2023?", 13), before_flow("cash in 2023", 4)
    (True, False)
    """
    return _FLOW_AFTER.match(text, end) is not None


def negated(text: str, start: int) -> bool:
    """Whether the name starting at ``start`` follows "non" ("non gaap", "non-gaap").

    >>> negated("adjusted non gaap ebitda", 13), negated("adjusted non-gaap ebitda", 13)
    (True, True)
    >>> negated("gaap net income", 0), negated("canon gaap", 6)
    (False, False)
    """
    return _NON_BEFORE.search(text[:start]) is not None


def negated_words(text: str) -> frozenset[str]:
    """The words "non" negates in a folded question: they name no row by themselves.

    >>> sorted(negated_words("what was adjusted non gaap ebitda and non current debt?"))
    ['current', 'gaap']
    """
    return frozenset().union(*(content_words(m.group(1)) for m in _NON_WORD.finditer(text)))


def without_flow_phrases(text: str) -> str:
    """``text`` without any "<word> flow(s)": the word modifies a flow, naming no row.

    >>> without_flow_phrases("which brought in the most cash flow in fy2023")
    'which brought in the most   in fy2023'
    """
    return _MODIFIED_FLOW.sub(" ", text)


def clause_verbs(text: str) -> frozenset[str]:
    """The movement verbs a folded question uses as its clause's verb: no row's words.

    As in :func:`verb_end`, for rows read by their words: a bare movement verb after
    do-support in the same clause, followed by a preposition, a period or the clause's end
    ("how did 3m net sales change from 2021 to 2022" reads no "Total sales change" row).

    >>> sorted(clause_verbs("how did 3m net sales change from 2021 to 2022?"))
    ['change']
    >>> clause_verbs("what was the net sales change in 2022?")
    frozenset()
    """
    found: set[str] = set()
    for support in _SUPPORT.finditer(text):
        end = next((m.start() for m in _CLAUSE_END.finditer(text, support.end())), len(text))
        for verb in _VERB.finditer(text, support.end(), end):
            if _AFTER_VERB.match(text, verb.end()):
                found.add(verb.group(0))
    return content_words(" ".join(found)) if found else frozenset()


def verb_end(text: str, start: int, end: int) -> int | None:
    """Where the name ends if its last word is its clause's verb, else ``None``.

    The last word must be a bare movement verb, with do-support (or a modal) before the
    name in the same clause and nothing after the verb but a preposition, a period or
    the clause's end.

    Examples
    --------
    >>> q = "why did best buy's revenue decrease in fy2023?"
    >>> verb_end(q, 19, 35)
    26
    >>> verb_end("what was the revenue decrease in fy2023?", 13, 29) is None
    True
    >>> verb_end("what did the revenue decrease amount to?", 13, 29) is None
    True
    """
    name = text[start:end]
    last = re.search(r"([a-z]+)\s*$", name)
    if last is None or last.group(1) not in MOVEMENT_VERBS or last.start() == 0:
        return None
    if _AFTER_VERB.match(text, end) is None:
        return None
    clause = text[:start]
    cut = max((m.end() for m in _CLAUSE_END.finditer(clause)), default=0)
    if not _SUPPORT.search(clause, cut):
        return None
    return start + len(name[:last.start()].rstrip())
