"""Which end of a change the one period a question names is.

"How did revenue change in FY2025?" names the change's *later* period (FY2025 against
FY2024); "How did revenue change from FY2024?", "… since FY2024?", "… compared with
FY2024?", "自2024财年以来…", "较2024年…", "与2024年相比…" name its *starting* period
(FY2024 against a later one). The word that says so stands right before the period phrase
(a preposition of origin or comparison, with at most an article or "fiscal year" between)
or, in Chinese, right after it ("以来", "相比"). Pure functions over the folded question.
"""

from __future__ import annotations

import re

__all__ = ["names_start"]

#: Filler allowed between the cue and the period phrase ("from the fiscal year 2024").
_FILL = r"(?:\s*(?:the|fiscal|financial|year|years|fy|the\s+end\s+of|end\s+of|年度|财年|财政年度))*"
#: A cue right before the period: the period is the change's base.
_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:from|since|compared\s+(?:with|to)|relative\s+to|versus|vs\.?|"
    r"against|as\s+against)"
    r"|自|从|较|比|相比|相较于?|对比|同|与|和)" + _FILL + r"\s*$")
#: A cue right after the period (Chinese): "2024年以来", "与2024年相比", "2024年起".
_AFTER = re.compile(r"^\s*(?:财年|年度|财政年度)?\s*(?:以来|至今|起|开始|相比|比较|相较)")
#: Chinese words that open a comparison only together with a closing word after the
#: period ("与2024年相比"; a bare "与" or "和" is a list).
_PAIRED = re.compile(r"(?:同|与|和)" + _FILL + r"\s*$")


def names_start(text: str, start: int, end: int) -> bool:
    """Whether the period phrase at ``text[start:end]`` is where a change starts from.

    Parameters
    ----------
    text : str
        The folded question.
    start, end : int
        Where the period phrase is.

    Examples
    --------
    >>> q = "how did revenue change from fy2024?"
    >>> names_start(q, q.index("fy2024"), q.index("fy2024") + 6)
    True
    >>> q = "how did revenue change in fy2024?"
    >>> names_start(q, q.index("fy2024"), q.index("fy2024") + 6)
    False
    >>> q = "收入自2024财年以来有何变化"
    >>> names_start(q, q.index("2024"), q.index("2024") + 4)
    True
    >>> q = "收入与2024年相比变化多少"
    >>> names_start(q, q.index("2024"), q.index("2024") + 5)
    True
    >>> q = "2023年与2024年的收入"   # a list, no comparison word after it
    >>> names_start(q, q.index("2024"), q.index("2024") + 5)
    False
    """
    before, after = text[:start], text[end:]
    if _AFTER.search(after):
        return True
    return bool(_BEFORE.search(before)) and not _PAIRED.search(before)
