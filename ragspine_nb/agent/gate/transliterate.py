"""Phonetic views for the security gate: a name spelt by sound in another script.

The gate's folded view (:mod:`ragspine_nb.agent.gate.normalize`) undoes look-alikes; this
module reads what a *transcription* says:

- :func:`phonetic_key` reduces Latin letters to a consonant skeleton (vowels, ``h`` and
  ``y`` dropped; voiced and voiceless pairs, ``l``/``r`` and ``v``/``w``/``b`` merged),
  which is what survives transcription into Cyrillic, Greek, kana or Hangul and back
  (``Rivalis``, ``Ривалис``, ``リヴァリス`` all read ``rbrs``);
- :func:`script_words` cuts the words of such scripts out of a text and transliterates
  them (``anyascii``, a table, no model);
- :func:`han_transcriptions` finds Chinese characters that transcribe a Latin name
  syllable by syllable (``瑞瓦利斯`` = rui-wa-li-si for ri-va-li-s), comparing each
  syllable's initial *and* its vowel, so ordinary Chinese (``润比例是``) does not read as
  a name;
- :func:`rare_han_reading` gives the reading of a character outside GB 2312, so a rare
  variant (``竸`` for ``竞``) can stand for an alias character with the same reading —
  common characters (``静`` of 静安) never do;
- :func:`han_pinyin` spells a Chinese alias in pinyin (for Latin text only: Chinese text
  is never folded to pinyin, since 竞安 and the place 静安 read the same);
- :func:`tone_overrides` drops tone digits from pinyin typed with them (``jing4an1``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from anyascii import anyascii

__all__ = ["phonetic_key", "script_words", "han_units", "han_transcriptions", "HanUnit",
           "rare_han_reading", "han_pinyin", "is_han", "tone_overrides"]

_DIGRAPHS = (("sch", "s"), ("tch", "c"), ("ph", "f"), ("th", "t"), ("sh", "s"), ("ch", "c"),
             ("zh", "j"), ("ck", "k"), ("qu", "k"), ("gh", "g"), ("kh", "k"), ("ts", "s"),
             ("tz", "s"), ("x", "ks"))
_CLASS = {**dict.fromkeys("bpvwf", "b"), **dict.fromkeys("cgkq", "k"), **dict.fromkeys("dt", "t"),
          **dict.fromkeys("sjz", "s"), **dict.fromkeys("lr", "r"), "m": "m", "n": "n"}
_VOWELS = frozenset("aeiouy")
_INITIALS = ("zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q",
             "x", "r", "z", "c", "s", "y", "w")
# what a consonant with no vowel of its own becomes in Chinese: 斯 si, 克 ke, 布 bu, 尔 er
_EPENTHETIC = frozenset({"", "i", "e", "u", "o"})
# the finals a Latin vowel is transcribed with (by how the final starts)
_VOWEL_FINALS = {"a": ("a", "ia", "ua"), "e": ("e", "ie", "ei", "ai"), "i": ("i", "ui", "ei"),
                 "o": ("o", "uo", "ou", "ao"), "u": ("u", "ou", "iu", "v")}
# scripts whose words are transliterated (Han is read syllable by syllable instead)
_PHONETIC_SCRIPTS = frozenset({"CYRILLIC", "GREEK", "KATAKANA", "HIRAGANA", "HANGUL",
                               "ARMENIAN", "GEORGIAN", "HEBREW", "ARABIC", "THAI", "DEVANAGARI"})
_TONE = re.compile(r"(?i)(?<![a-z0-9])(?:[a-zü]{1,6}[0-5]){2,}[a-zü]{0,6}(?![a-z0-9])")
_TONE_DIGIT = re.compile(r"(?i)(?<=[aeiouüvngr])[0-5]")


def _digraphs(text: str) -> str:
    for a, b in _DIGRAPHS:
        text = text.replace(a, b)
    return text


def phonetic_key(latin: str) -> str:
    """The consonant skeleton of Latin letters (repeats merged).

    Examples
    --------
    >>> phonetic_key("Rivalis"), phonetic_key("rivuarisu"), phonetic_key("Ribarisu")
    ('rbrs', 'rbrs', 'rbrs')
    >>> phonetic_key("Holdings"), phonetic_key("hoorudeingusu")
    ('rtnks', 'rtnks')
    """
    out: list[str] = []
    for ch in _digraphs("".join(c for c in latin.casefold() if c.isascii() and c.isalpha())):
        cls = _CLASS.get(ch, "")
        if cls and (not out or out[-1] != cls):
            out.append(cls)
    return "".join(out)


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return "JOIN" if name.startswith("KATAKANA-HIRAGANA") else name.split(" ")[0]


def is_han(ch: str) -> bool:
    """A CJK ideograph (unified or compatibility)."""
    return unicodedata.name(ch, "").startswith(("CJK UNIFIED", "CJK COMPATIBILITY IDEOGRAPH"))


def script_words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, phonetic key) of each word in a transliterated script.

    A word is a run of letters of one such script (marks and the prolonged-sound mark
    ``ー`` join it); ``Рива́лис`` and ``リヴァリス`` are one word each.
    """
    out: list[tuple[int, int, str]] = []
    start, script = -1, ""
    for i, ch in enumerate([*text, " "]):
        c = unicodedata.normalize("NFKC", ch)[:1] or ch
        s = _script(c)
        joins = start >= 0 and (s in ("JOIN", script) or unicodedata.category(c)[0] == "M")
        if joins:
            continue
        if start >= 0:
            out.append((start, i, phonetic_key(anyascii(unicodedata.normalize(
                "NFKC", text[start:i])))))
        start, script = (i, s) if s in _PHONETIC_SCRIPTS and c.isalpha() else (-1, "")
    return out


@dataclass(frozen=True)
class HanUnit:
    """One syllable to match: a consonant class (``""``: none) and its vowel (``""``: none)."""

    consonant: str
    vowel: str


def han_units(latin: str) -> tuple[HanUnit, ...]:
    """A Latin word as the syllables a Chinese transcription gives it, one per consonant.

    Examples
    --------
    >>> [(u.consonant, u.vowel) for u in han_units("Rivalis")]
    [('r', 'i'), ('b', 'a'), ('r', 'i'), ('s', '')]
    """
    units: list[HanUnit] = []
    word = _digraphs("".join(c for c in latin.casefold() if c.isascii() and c.isalpha()))
    for cons, vowel in re.findall(r"([^aeiouy]*)([aeiouy]*)", word):
        classes = [c for c in (_CLASS.get(x, "") for x in cons) if c]
        if not classes and not vowel:
            continue
        v = vowel[:1].replace("y", "i")
        units.extend(HanUnit(c, "") for c in classes[:-1])
        units.append(HanUnit(classes[-1] if classes else "", v))
    return tuple(units)


def _syllable(pinyin: str) -> HanUnit:
    """A pinyin syllable as (initial class, final): ``rui`` → ``r``/``ui``, ``er`` → ``r``/."""
    p = pinyin.casefold()
    if p == "er":
        return HanUnit("r", "")
    for ini in _INITIALS:
        if p.startswith(ini) and len(p) > len(ini):
            cls = {"zh": "s", "ch": "s", "sh": "s", "j": "s", "q": "k", "x": "s", "h": "",
                   "y": "", "w": "b"}.get(ini, _CLASS.get(ini, ""))
            return HanUnit(cls, p[len(ini):])
    return HanUnit("", p)


def _fits(unit: HanUnit, syl: HanUnit) -> bool:
    """Whether a syllable has the unit's consonant and vowel (``rui``, ``li``; not ``lai``)."""
    if unit.consonant != syl.consonant:
        return False
    if not unit.vowel:
        return syl.vowel in _EPENTHETIC
    return syl.vowel.startswith(_VOWEL_FINALS[unit.vowel])


@lru_cache(maxsize=65536)
def _han_syllable(ch: str) -> HanUnit | None:
    reading = anyascii(ch)
    return _syllable(reading) if reading.isascii() and reading.isalpha() else None


def han_transcriptions(text: str, units: Sequence[HanUnit]) -> list[tuple[int, int]]:
    """Spans of consecutive Chinese characters that transcribe ``units`` one by one."""
    n = len(units)
    if n < 3:
        return []
    out = []
    syls = [(_han_syllable(ch) if is_han(ch) else None) for ch in text]
    for start in range(len(text) - n + 1):
        window = syls[start:start + n]
        if all(s is not None and _fits(u, s) for u, s in zip(units, window, strict=True)):
            out.append((start, start + n))
    return out


@lru_cache(maxsize=65536)
def _in_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


@lru_cache(maxsize=65536)
def han_reading(ch: str) -> str:
    """The toneless pinyin of a Chinese character (``""`` if it has none)."""
    reading = anyascii(ch).casefold()
    return reading if reading.isascii() and reading.isalpha() else ""


def rare_han_reading(ch: str) -> str:
    """The reading of a Chinese character outside GB 2312 (``""`` for a common one).

    Examples
    --------
    >>> rare_han_reading("竸"), rare_han_reading("静"), rare_han_reading("a")
    ('jing', '', '')
    """
    return han_reading(ch) if is_han(ch) and not _in_gb2312(ch) else ""


def han_pinyin(name: str) -> tuple[str, ...] | None:
    """The pinyin syllables of an all-Chinese name (None when it has anything else).

    Examples
    --------
    >>> han_pinyin("竞安证券"), han_pinyin("ACME集团")
    (('jing', 'an', 'zheng', 'quan'), None)
    """
    readings = tuple(han_reading(ch) if is_han(ch) else "" for ch in name)
    return readings if readings and all(readings) else None


def tone_overrides(text: str) -> dict[int, str]:
    """Source index → ``""`` for each tone digit of pinyin typed with them.

    Only in tokens of at least two syllables that each end in a digit 0–5 after a vowel
    or a nasal (``jing4an1``); ``FY2025``, ``Q3``, ``A1`` and ``X100`` never change.

    Examples
    --------
    >>> sorted(tone_overrides("jing4an1 zheng4quan4 in FY2025, Q3, A1"))
    [4, 7, 14, 19]
    """
    out: dict[int, str] = {}
    for m in _TONE.finditer(text):
        for d in _TONE_DIGIT.finditer(m.group(0)):
            out[m.start() + d.start()] = ""
    return out
