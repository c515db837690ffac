"""Questions with two asks: a figure, and why it moved.

"What was ACME Hong Kong revenue in FY2025, and why did it fall?" and "香港2025年营业收入
是多少，为什么下降了？" ask for a level *and* for its cause. Read from the question's
structure: a clause asking for a figure ("what was …", "how much …", "…是多少"), then
at a clause boundary (a comma, a question mark, "and", "以及") a clause asking why
("why", "how come", "what caused / drove …", "为什么", "为何", "什么原因"). The figure
clause is answered as the headline figure; the why clause from the narrative; a
direction the why clause takes for granted (:mod:`ragspine_nb.agent.reading.premise`) is
checked against the store.

A question asking only why ("Why did revenue fall in FY2025?"), only for a figure, or
with a why that is no clause of its own ("How much of the increase was due to …") has
no two asks. Pure: the question's words in, a typed reading out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.agent.reading.premise import Premise, premise_of
from ragspine_nb.agent.reading.question_kind import KIND_NUMBER, question_kind

__all__ = ["TwoAsks", "read_two_asks"]

_WHY_EN = (r"why\b|how come\b|what (?:caused|causes|drove|drives|led to|leads to|explains|"
           r"is behind|was behind)\b|what (?:is|was|are|were) (?:the )?(?:main |key |primary )?"
           r"(?:reasons?|drivers?|causes?) (?:for|of|behind)\b")
_WHY_ZH = r"为什么|为何|什么原因|原因(?:是什么|为何|何在)|是什么导致"
#: A clause boundary before the why clause: punctuation or a space, then a joining word.
_JOIN_EN = r"(?:[,;:?.!，；：？。！]\s*|\s+)(?:(?:and|but|also|so|then)[,\s]\s*)?"
_JOIN_ZH = r"[,;:?!，；：？。！]?\s*(?:以及|并且|而且|那么|另外|同时|并|且|又)?"
_SPLIT = re.compile(rf"{_JOIN_EN}(?=(?:{_WHY_EN}))|{_JOIN_ZH}(?=(?:{_WHY_ZH}))",
                    re.IGNORECASE)
#: What a clause asking for a figure says: "what was …", "how much …", "…是多少".
_FIGURE_ASK = re.compile(r"\b(?:what|how (?:much|many|large|big|high|low))\b|多少|几", re.I)


@dataclass(frozen=True)
class TwoAsks:
    """A question read as two asks.

    Parameters
    ----------
    figure : str
        The clause asking for a figure, as written ("What was … in FY2025").
    why : str
        The clause asking why, as written ("why did it fall?").
    premise : Premise or None
        The direction the why clause takes for granted (``None``: none said).
    """

    figure: str
    why: str
    premise: Premise | None = None


def read_two_asks(question: str) -> TwoAsks | None:
    """The figure and the why of a question asking both; ``None`` when it asks one.

    Examples
    --------
    >>> read_two_asks("What was ACME Hong Kong revenue in FY2025, and why did it fall?")
    TwoAsks(figure='What was ACME Hong Kong revenue in FY2025', why='why did it fall?', \
premise=Premise(direction='down', word='fall'))
    >>> read_two_asks("香港2025年营业收入是多少，为什么下降了？").figure
    '香港2025年营业收入是多少'
    >>> read_two_asks("How much was revenue in 2019 and what drove the increase?").why
    'what drove the increase?'
    >>> read_two_asks("Why did revenue fall in FY2025?") is None
    True
    >>> read_two_asks("How much of the increase was due to higher volumes?") is None
    True
    >>> read_two_asks("Explain why revenue fell") is None
    True
    """
    for match in _SPLIT.finditer(question):
        if match.end() == 0:
            continue
        figure = question[:match.start()].strip(" ,;:，；：")
        why = question[match.end():].strip()
        if figure and _asks_figure(figure) and why:
            return TwoAsks(figure, why, premise_of(why))
    return None


def _asks_figure(clause: str) -> bool:
    """Whether a clause asks for a figure (and for nothing else: no why of its own)."""
    return bool(_FIGURE_ASK.search(clause)) and question_kind(clause).kind == KIND_NUMBER \
        and not re.search(rf"\b(?:{_WHY_EN})|{_WHY_ZH}", clause, re.IGNORECASE)
