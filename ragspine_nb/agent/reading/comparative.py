"""Which way "how much more … than …" asks its difference: the figure compared, less the other.

"How much larger was revenue in 2023 than in 2022?" asks 2023's figure less 2022's, the
change over time; "… in 2022 than in 2023?" asks 2022's less 2023's, which is no change
from 2022 to 2023 (the sign is the other way). "How much lower was cost of sales than
revenue?" asks revenue less cost of sales: the second figure written less the first. The
first figure the question writes is the one compared ("A" of "how much more was A than
B"), whatever the order of the years. :func:`compared_first` says which figure the
difference is taken from; the writer keeps the figures in the question's order.

Asked yes or no ("Was revenue higher in FY2024 than in FY2025?"), the comparison is which
way the row moved between the two years: :func:`compared_direction` says which way the
question asks about (here down: did it fall from FY2024 to FY2025?).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine_nb.agent.reading.cue_words import HOW_MUCH_MORE

__all__ = ["COMPARED", "COMPARATIVE_WORDS", "compared_first", "compared_direction"]

#: ``first``: the first figure written less the second ("how much more was A than B");
#: ``second``: the second less the first ("how much less was A than B").
COMPARED: tuple[str, ...] = ("first", "second")
_LESS = re.compile(r"(?<![a-z])(?:less|lower|smaller)(?![a-z])|[低少小]了?多少$")


def compared_first(text: str) -> str:
    """``first``, ``second`` or ``""`` (no "how much more … than …" in ``text``, folded).

    Examples
    --------
    >>> compared_first("how much larger was revenue in 2022 than in 2023?")
    'first'
    >>> compared_first("how much lower was cost of sales than revenue in 2022?")
    'second'
    >>> compared_first("2024年营业收入比2025年低多少？"), compared_first("a比b高多少")
    ('second', 'first')
    >>> compared_first("how much more revenue was there?")
    ''
    """
    found = HOW_MUCH_MORE.search(text)
    if found is None or not (" than " in text or "比" in found.group(0)):
        return ""
    return "second" if _LESS.search(found.group(0)) else "first"


_LESS_WORDS = ("lower", "smaller", "less", "低于", "少于", "小于")
#: The words a yes/no comparison is asked with (:func:`compared_direction`).
COMPARATIVE_WORDS: tuple[str, ...] = ("higher", "larger", "greater", "bigger", "more",
                                      "高于", "多于", "大于", *_LESS_WORDS)


def compared_direction(word: str, periods: Sequence[tuple[str, str]]) -> str:
    """Which way "was it <word> in A than in B" asks the row moved from the earlier to the later.

    ``up``, ``down``, or ``""`` unless the question names exactly two periods of one type
    (two rows or two companies in one year are no movement).

    >>> compared_direction("higher", [("FY", "2025"), ("FY", "2024")])
    'up'
    >>> compared_direction("higher", [("FY", "2024"), ("FY", "2025")])
    'down'
    >>> compared_direction("低于", [("FY", "2025"), ("FY", "2024")])
    'down'
    >>> compared_direction("higher", [("FY", "2025")])
    ''
    """
    if len(periods) != 2 or periods[0][0] != periods[1][0] or periods[0][1] == periods[1][1]:
        return ""
    first_later = periods[0][1] > periods[1][1]
    return "up" if first_later != (word in _LESS_WORDS) else "down"
