"""Word rules of the security gate: where a matched alias is a name and where it is not.

Each rule reads the decoded question around a match ``text[a:b]``:

- :func:`glued` — an alias run together with other letters is still a name at a case
  change (``RivalisHK``, ``ACMEvsRivalis``), before an inflection or a corporate
  designator (``Rivalises``, ``RIVALISHK``); otherwise it is part of a longer word
  (``arrival``, ``festival``);
- :func:`benign_split` — a one-word alias split into a word and a short English word
  (``rival is``) is English only where a sentence goes on after it: another word follows
  that is not a metric name or a designator ("the rival is cheaper", but "Rival Is
  revenue", "Rival—is's revenue", "revenue of Rival Is?"); a capitalised short word
  (``Is``) mid-sentence is part of a name unless the words around it are capitalised too
  ("Which Rival Is Biggest", not "How did Rival Is perform");
- :func:`person_name` — a short Chinese alias that is the given name of a person named
  with a title (``副总裁王竞安``, ``王竞安先生``) is not the company;
- :func:`closed_after` — a Chinese alias whose halves were split by punctuation or
  Latin letters (``竞；安``, ``竞x安``) reads as the name only when the text after it
  cannot continue a word (a particle, a metric name, a digit, the end): ``参与竞，安排``
  is a clause break before 安排;
- :func:`near_alias` — a multi-word alias with one word misspelt (one edit in a word
  of six letters or more) or abbreviated (``Jingan Sec.``) while the others are exact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ragspine_nb.typos import edit_distance

__all__ = ["glued", "benign_split", "person_name", "closed_after", "near_alias",
           "DESIGNATORS", "FUNCTION_WORDS"]

#: "the rival is" is not "Rivalis": a split before one of these words may read as English.
FUNCTION_WORDS = frozenset("is in on at as an or of it us so no to by be if".split())
#: Short words after which a metric name is still English ("our rival in revenue terms").
_PREPOSITIONS = frozenset("in on at as of to by".split())
#: What may follow a company's name inside the same word or as the next word.
DESIGNATORS = frozenset(
    "s es hk cn sg us uk eu ltd inc co corp plc llc lp ag sa nv bhd group grp holding "
    "holdings hldgs bank asia intl international limited life insurance securities "
    "capital".split())
# what may stand between two English words: spaces, dashes, brackets and quotes
_GAP = re.compile(r"[\s\-\u2012-\u2015\u2212()\[\]{}\"'\u2018\u2019\u201c\u201d\u00ab\u00bb]+")
_NEXT = re.compile(r"[\s\-\u2012-\u2015\u2212()\[\]{}\"'\u2018\u2019\u201c\u201d\u00ab\u00bb]*"
                   r"([^\W\d_]+)?")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
#: Titles written right before a person's name (副总裁王竞安) or right after it (王竞安先生).
_TITLES_BEFORE = ("总裁", "副总裁", "总经理", "副总经理", "经理", "董事长", "董事", "主席",
                  "副主席", "主任", "总监", "行长", "副行长", "首席执行官", "首席财务官",
                  "秘书", "同事", "员工", "代表", "分析师", "顾问", "教授", "博士")
_TITLES_AFTER = ("先生", "女士", "小姐", "总裁", "副总裁", "经理", "总经理", "董事长", "董事",
                 "主席", "主任", "总监", "行长", "教授", "博士", "总")
#: Common single-character Chinese surnames.
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝"
    "龚邵万钱严覃武戴莫孔向汤")
#: Chinese characters after which a name ends: particles, prepositions, verbs of asking.
_CLOSING_HAN = frozenset("的地得了着过是在和与及或跟同对于吗呢吧啊呀之等有为被把从向比也都还就又"
                         "各每这那哪什怎如何多少几第去今明上下全半季度年月日")


def _letter(text: str, i: int, extra: frozenset[int] = frozenset()) -> bool:
    return 0 <= i < len(text) and ((text[i].isascii() and text[i].isalpha()) or i in extra)


def _rest_of_word(text: str, i: int) -> str:
    j = i
    while j < len(text) and text[j].isascii() and text[j].isalpha():
        j += 1
    return text[i:j]


def glued(text: str, a: int, b: int, letters: frozenset[int] = frozenset()) -> bool:
    """Whether an ASCII alias at ``[a, b)`` with letters beside it is still a name.

    ``letters``: positions read as letters though they are not (leet digits).

    Examples
    --------
    >>> [glued(t, t.casefold().index("rivalis"), t.casefold().index("rivalis") + 7)
    ...  for t in ("RivalisHK", "ACMEvsRivalis", "Rivalises", "RIVALISHK", "xRivalisx")]
    [True, True, True, True, False]
    """
    left = not _letter(text, a - 1, letters) or (
        text[a].isupper() and (text[a - 1].islower() or (
            text[a - 1].isupper() and a + 1 < b and text[a + 1].islower())))
    right = not _letter(text, b, letters) or (text[b - 1].islower() and text[b].isupper()) \
        or _rest_of_word(text, b).casefold() in DESIGNATORS
    return left and right


def benign_split(text: str, a: int, b: int, starts_metric: Callable[[int], bool]) -> bool:
    """"rival is cheaper", "rival—is it", "rival-is-cheaper": English, not a name.

    ``starts_metric(i)``: whether a metric name of the profile starts at ``text[i]``.
    """
    region = text[a:b]
    parts = _GAP.split(region)
    if not (len(parts) == 2 and parts[1].casefold() in FUNCTION_WORDS
            and len(parts[0]) >= 3 and parts[0].isalpha()):
        return False
    gap = region[len(parts[0]):len(region) - len(parts[1])]
    hyphenated = gap == "-" and text[b:b + 1] == "-" and _letter(text, b + 1)
    if not ("--" in gap or hyphenated or any(c.isspace() or "\u2012" <= c <= "\u2015"
                                             for c in gap)):
        return False
    m = _NEXT.match(text, b)
    nxt = m.group(1) if m is not None else None
    if m is None or not nxt or len(nxt) < 2 or nxt.casefold() in DESIGNATORS:
        return False  # nothing after it ("revenue of Rival Is?"), "Rival Is's", "Rival Is HK"
    if starts_metric(m.start(1)) and parts[1].casefold() not in _PREPOSITIONS:
        return False  # a name in an entity's position: "Rival Is revenue"
    # a capitalised "Is" mid-sentence belongs to a name, unless the text is title case
    return not parts[1][0].isupper() or nxt[0].isupper()


def person_name(text: str, a: int, b: int) -> bool:
    """A one- or two-character Chinese alias that is a titled person's given name.

    Examples
    --------
    >>> person_name("副总裁王竞安在会上说了什么", 4, 6), person_name("王竞安先生说", 1, 3)
    (True, True)
    >>> person_name("竞安总裁说", 0, 2), person_name("王竞安的营收", 1, 3)
    (False, False)
    """
    if not (1 <= b - a <= 2 and a >= 1 and text[a - 1] in _SURNAMES):
        return False
    before, after = text[:a - 1], text[b:]
    return before.endswith(_TITLES_BEFORE) or after.startswith(_TITLES_AFTER)


def closed_after(text: str, b: int, names: Sequence[str]) -> bool:
    """Whether nothing at ``text[b]`` continues a Chinese word (so a name ends at ``b``).

    ``names``: metric and entity names of the profile that may follow a name directly.

    Examples
    --------
    >>> closed_after("竞；安的营收", 3, ()), closed_after("竞；安2025年", 3, ())
    (True, True)
    >>> closed_after("参与竞，安排如何", 5, ()), closed_after("竞x安营收", 3, ("营收",))
    (False, True)
    """
    rest = text[b:].lstrip()
    if not rest or not ("\u3400" <= rest[0] <= "\u9fff" or "\uf900" <= rest[0] <= "\ufaff"):
        return True
    return rest[0] in _CLOSING_HAN or rest.startswith(tuple(n for n in names if n))


def _abbreviates(short: str, word: str) -> bool:
    """``sec`` for ``securities`` (a prefix), ``hldgs`` for ``holdings`` (its consonants)."""
    if len(short) < 3 or len(short) >= len(word) or short[0] != word[0]:
        return False
    if word.startswith(short) or (short.endswith("s") and word.startswith(short[:-1])
                                  and len(short) >= 4):
        return True  # "Sec", "Secs"
    if any(c in "aeiou" for c in short[1:]):
        return False
    it = iter(word)
    return all(c in it for c in short)


def _near_word(text_word: str, alias_word: str) -> bool:
    return (len(alias_word) >= 6 and edit_distance(text_word, alias_word, 1) <= 1) \
        or _abbreviates(text_word, alias_word)


def near_alias(text: str, alias_words: Sequence[str],
               fold: Callable[[str], str]) -> list[tuple[int, int]]:
    """Spans where a multi-word alias is written with one word misspelt or abbreviated.

    ``alias_words``: the alias's words, folded; ``fold``: the same folding for the text.

    Examples
    --------
    >>> near_alias("Jingan Securties and Jingan Sec. revenue", ["jingan", "securities"],
    ...            str.casefold)
    [(0, 16), (21, 31)]
    >>> near_alias("Jingan security guards", ["jingan", "securities"], str.casefold)
    []
    """
    n = len(alias_words)
    if n < 2:
        return []
    words = [(m.start(), m.end(), fold(m.group(0))) for m in _WORD.finditer(text)]
    out = []
    for k in range(len(words) - n + 1):
        window = words[k:k + n]
        if any(text[window[j][1]:window[j + 1][0]].strip(" -") for j in range(n - 1)):
            continue  # only spaces or a hyphen between the words
        off = [j for j in range(n) if window[j][2] != alias_words[j]]
        if len(off) == 1 and _near_word(window[off[0]][2], alias_words[off[0]]):
            out.append((window[0][0], window[-1][1]))
    return out
