"""A list whose other item names nothing of the workspace: "revenue and EBITDA", one row read.

"What were ACME Hong Kong revenue and EBITDA in FY2025?" over a deck stating no EBITDA
answered the revenue alone, as if it were the whole answer; "香港2025年营业收入和营业利润
分别是多少？" (the deck's operating profit is "经营利润") the same. Half an answer is not
given as the whole: :func:`unread_partner` finds the item listed beside the one row read
("and", "or", a comma; 和, 与, 及, 、) that no name of the workspace holds, and the question
is asked back. English items are words the workspace does not know
(:func:`~ragspine_nb.agent.reading.unstated.unresolved_partner`, as for columns); a
Chinese item is the run of characters after the row's name up to "分别", "各", "是",
"的", "为" or the question's end, when no name of the workspace contains it or is
contained in it.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ragspine_nb.agent.reading.unstated import unresolved_partner

__all__ = ["unread_partner"]

_ZH_PAIR = re.compile(r"(?:和|与|及|、)(?P<b>[\u4e00-\u9fff]{2,12}?)"
                      r"(?=分别|各|是|的|为|有|共|合计|多少|[？?，,。]|$)")


def unread_partner(text: str, said: str, row_words: frozenset[str], known: frozenset[str],
                   terms: Collection[str]) -> str:
    """The item listed with the row read (written ``said``) that nothing names, or ``""``.

    ``text``: the folded question; ``row_words``: the row's names' words; ``known``: every
    word of the workspace's names; ``terms``: its names as written (for Chinese).

    Examples
    --------
    >>> known = frozenset({"revenue", "new", "sale"})
    >>> unread_partner("what were revenue and ebitda in fy2025?", "revenue",
    ...                frozenset({"revenue"}), known, ["营业收入", "新单销售"])
    'ebitda'
    >>> unread_partner("香港2025年营业收入和营业利润分别是多少?", "营业收入", frozenset(),
    ...                known, ["营业收入", "新单销售", "香港"])
    '营业利润'
    >>> unread_partner("香港2025年营业收入和新单销售分别是多少?", "营业收入", frozenset(),
    ...                known, ["营业收入", "新单销售"])
    ''
    """
    english = unresolved_partner(text, row_words, known)
    if english:
        return english
    at = text.find(said) if said else -1
    if at < 0 or not re.search(r"[\u4e00-\u9fff]", said):
        return ""
    found = _ZH_PAIR.match(text, at + len(said))
    if found is None:
        return ""
    item = found.group("b")
    cjk = [t for t in terms if re.search(r"[\u4e00-\u9fff]", t)]
    return "" if any(t in item or item in t for t in cjk) else item
