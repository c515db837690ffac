"""Numbers written in words, read as digits: "nine hundred and five million" → ``905 million``.

A figure spelled out says the same as its digits, so a reader of figures must see it:
:func:`spell_out_numbers` rewrites each spelled-out number of a text as digits and leaves
everything else as it is. English cardinals (``one`` … ``nineteen``, the tens, ``hundred``,
``thousand``, ``million``, ``billion``, ``trillion``, ``point`` for decimals, hyphens and
``and`` inside) and Chinese numerals (``九亿五千五百万``, ``十四点零五亿``, ``两千``) are read.

A lone small word is not a figure ("one of the", "two segments", 一季度): a phrase is read
only when it has a multiplier word (hundred, thousand, million, …; 十, 百, 千, 万, 亿) or
at least two number words, or a lone word stands right before ``percent`` / ``per cent`` /
``%``. A trailing scale word stays a word (``955 million``, ``9.55亿``), so the unit reader
that follows sees the scale as written.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["spell_out_numbers", "english_number", "chinese_number", "count_word",
           "NUMBER_WORDS"]

_ONES = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * (i + 2) for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
#: Every English word of a number written out ("three", "twenty", "million").
NUMBER_WORDS = frozenset([*_ONES, *_TENS, "hundred", *_SCALES])
_WORD = "|".join(sorted([*_ONES, *_TENS, "hundred", *_SCALES, "point"], key=len, reverse=True))
_FIRST = "|".join(sorted([*_ONES, *_TENS, "a"], key=len, reverse=True))
_EN_PHRASE = re.compile(rf"(?<![\w$.,-])(?:{_FIRST})(?:(?:\s+and\s+|\s+|-)(?:{_WORD}))*(?![\w-])",
                        re.IGNORECASE)
_PERCENT_AFTER = re.compile(r"^\s*(?:percent|per\s+cent|%)", re.IGNORECASE)

_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
_ZH_BIG = {"万": 10**4, "亿": 10**8}
_ZH_PHRASE = re.compile(r"(?<![第几\d.])[零〇一二两三四五六七八九十]"
                        r"[零〇一二两三四五六七八九十百千万亿]*(?:点[零〇一二三四五六七八九]+[万亿]?)?")


def _below_thousand(words: list[str]) -> int | None:
    """Value of words like ``nine hundred fifty five`` (``None``: not a cardinal)."""
    current = 0
    for w in words:
        if w in _ONES:
            current += _ONES[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = (current or 1) * 100
        else:
            return None
    return current


def _integer(words: list[str]) -> int | None:
    """Value of a cardinal; a scale multiplies every smaller group before it.

    "four thousand seven hundred and sixty million" is 4,760 million; "one billion two
    hundred million" is 1,200 million.
    """
    stack: list[int] = []
    group: list[str] = []
    for w in words:
        if w not in _SCALES:
            group.append(w)
            continue
        value = _below_thousand(group) if group else 1
        if value is None:
            return None
        while stack and stack[-1] < _SCALES[w]:
            value += stack.pop()
        stack.append(value * _SCALES[w])
        group = []
    rest = _below_thousand(group) if group else 0
    return None if rest is None else sum(stack) + rest


def _repeats(words: list[str]) -> bool:
    """Two units or two tens in a row ("two two", "twenty thirty") are no cardinal."""
    return any((a in _ONES and b in _ONES) or (a in _TENS and b in _TENS) or
               (a in _ONES and _ONES[a] >= 10 and b in _ONES)
               for a, b in zip(words, words[1:], strict=False))


def english_number(phrase: str) -> float | None:
    """The value of an English cardinal phrase, or ``None``.

    >>> english_number("nine hundred and fifty-five million")
    955000000.0
    >>> english_number("four thousand seven hundred and sixty million")
    4760000000.0
    >>> english_number("one point two billion")
    1200000000.0
    >>> english_number("a hundred and five")
    105.0
    >>> english_number("two two") is None
    True
    """
    words = [w for w in re.split(r"[\s-]+", phrase.lower()) if w and w != "and"]
    words = ["one" if w == "a" else w for w in words]
    if not words or _repeats(words):
        return None
    if "point" not in words:
        value = _integer(words)
        return None if value is None else float(value)
    at = words.index("point")
    tail = words[at + 1:]
    scale = _SCALES[tail.pop()] if tail and tail[-1] in _SCALES else 1
    whole = _below_thousand(words[:at]) if words[:at] else 0
    if whole is None or not tail or any(w not in _ONES or _ONES[w] > 9 for w in tail):
        return None
    return float(f"{whole}.{''.join(str(_ONES[w]) for w in tail)}") * scale


def chinese_number(phrase: str) -> float | None:
    """The value of a Chinese numeral (``九亿五千五百万``, ``十四点零五亿``), or ``None``.

    >>> chinese_number("九亿五千五百万")
    955000000.0
    >>> chinese_number("十四点零五亿")
    1405000000.0
    >>> chinese_number("两千")
    2000.0
    """
    body, big = phrase, 1
    if body and body[-1] in _ZH_BIG and "点" in body:
        body, big = body[:-1], _ZH_BIG[body[-1]]
    if "点" in body:
        whole, _, frac = body.partition("点")
        head = _zh_integer(whole) if whole else 0
        if head is None or not frac:
            return None
        return float(f"{head}.{''.join(str(_ZH_DIGITS[c]) for c in frac)}") * big
    value = _zh_integer(body)
    return None if value is None else float(value * big)


def _zh_integer(text: str) -> int | None:
    total = section = digit = 0
    for ch in text:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        elif ch in _ZH_UNITS:
            section += (digit or 1) * _ZH_UNITS[ch]
            digit = 0
        elif ch in _ZH_BIG:
            total = (total + section + digit) * _ZH_BIG[ch] if ch == "亿" else \
                total + (section + digit) * _ZH_BIG[ch]
            section = digit = 0
        else:
            return None
    return total + section + digit


def _digits(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _english(m: re.Match[str]) -> str:
    phrase = m.group(0)
    words = [w for w in re.split(r"[\s-]+", phrase.lower()) if w and w != "and"]
    strong = any(w in _SCALES or w == "hundred" for w in words) or len(words) >= 2
    if words == ["a"] or not (strong or _PERCENT_AFTER.match(m.string[m.end():])):
        return phrase
    if words[0] == "a" and not any(w in _SCALES or w == "hundred" for w in words[1:2]):
        return phrase  # "a two-year plan": not "one two"
    last = words[-1]
    value = english_number(phrase)
    if value is None:
        return phrase
    if last in _SCALES and value >= _SCALES[last]:
        return f"{_digits(value / _SCALES[last])} {last}"
    return _digits(value)


def _chinese(m: re.Match[str]) -> str:
    phrase = m.group(0)
    multiplier = any(c in _ZH_UNITS or c in _ZH_BIG for c in phrase)
    if not multiplier and len(phrase) < 2:
        return phrase
    value = chinese_number(phrase)
    if value is None:
        return phrase
    for big, factor in (("亿", 10**8), ("万", 10**4)):
        if phrase.endswith(big) and value >= factor:
            return f"{_digits(value / factor)}{big}"
    return _digits(value)


@lru_cache(maxsize=4096)
def spell_out_numbers(text: str) -> str:
    """``text`` with every spelled-out number written in digits (module docstring).

    >>> spell_out_numbers("revenue was nine hundred and fifty-five million US dollars")
    'revenue was 955 million US dollars'
    >>> spell_out_numbers("营业收入为九亿五千五百万美元，一季度")
    '营业收入为95500万美元，一季度'
    >>> spell_out_numbers("one of the two segments grew twelve percent")
    'one of the two segments grew 12 percent'
    """
    out = _EN_PHRASE.sub(_english, text) if re.search(r"[a-zA-Z]", text) else text
    return _ZH_PHRASE.sub(_chinese, out) if re.search(r"[\u4e00-\u9fff]", out) else out


def count_word(word: str) -> int | None:
    """A small count written as digits or one number word ("3", "three", "三", "两").

    >>> [count_word(w) for w in ("3", "three", "三", "两", "many")]
    [3, 3, 3, 2, None]
    """
    if word.isdigit():
        return int(word)
    value = english_number(word) if word.isascii() else chinese_number(word)
    return int(value) if value is not None and value == int(value) else None
