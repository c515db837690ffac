"""Multilingual tokenization for BM25: words for spaced scripts, unigrams + bigrams for CJK.

Text is NFKC-normalised and lower-cased first, so full-width letters and digits
(``ＭＰＦＡ２０２４``) tokenize like their ASCII forms. Then:

* **Words.** A run of letters, digits and combining marks of a script written with
  spaces (Latin, Greek, Cyrillic, Arabic, Devanagari, ...) is one token; anything else
  splits it (``e-mail: A.B`` → ``e, mail, a, b``). ASCII words are as they always were.
* **Accents are folded**, on the document side and the query side alike: Latin and
  Greek letters lose their diacritics (NFD, combining marks dropped), ``ß æ œ ø ł đ ð þ
  ı ħ`` become ``ss ae oe o l d d th i h``, final ``ς`` becomes ``σ`` and Cyrillic ``ё``
  becomes ``е`` (other Cyrillic letters such as ``й`` are distinct letters and stay), so
  ``Zürich``, ``ZURICH`` and ``Zurich`` are all ``zurich``. A word that folds to ASCII is
  then an ASCII word: stop words and the stemmer apply to it.
* **Han** runs give their characters, then their adjacent pairs (``MPFA新规`` → ``mpfa,
  新, 规, 新规``): bigrams give Chinese BM25 most of what a word segmenter would, with no
  dictionary. Unchanged, including what is dropped (``〇``, ``々``, ideographs beyond the
  BMP).
* **Kana and Hangul** runs get the same unigrams + bigrams, each script its own run
  (hiragana and katakana together). Japanese has no spaces; Korean has spaces but glues
  particles to words (``삼성전자의``), so the bigrams of ``삼성전자`` still match where a
  whole-word token would not.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from operator import add

__all__ = ["tokenize", "fold_diacritics", "ENGLISH_STOPWORDS", "Tokenizer"]

Tokenizer = Callable[[str], list[str]]

#: Lucene's classic English stop list (33 words), off by default.
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their "
    "then there these they this to was will with".split()
)

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KANA = "\u3041-\u3096\u3099-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
_HANGUL = "\u1100-\u11ff\u3131-\u318e\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff"
#: Never part of a word: the three scripts above and the CJK blocks around them (radicals,
#: symbols such as 〇 and 々, bopomofo, ideographs beyond the BMP), dropped as before.
_NOT_WORD = f"{_HAN}{_HANGUL}\u2e80-\u33ff\U00020000-\U0003ffff"
#: Latin-1 Supplement to Latin Extended-B, Greek, Latin Extended Additional, Greek Extended.
_FOLDED_BLOCKS = ((0x00C0, 0x024F), (0x0370, 0x03FF), (0x1E00, 0x1EFF), (0x1F00, 0x1FFF))
_SPECIAL_FOLDS = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
                  "þ": "th", "ı": "i", "ħ": "h", "ς": "σ", "ё": "е"}


def _class_ranges(codepoints: Iterable[int]) -> str:
    r"""Body of a regex character class for ascending BMP code points, as ranges.

    Examples
    --------
    >>> print(_class_ranges([0x300, 0x301, 0x302, 0x483]))
    \u0300-\u0302\u0483
    """
    spans: list[list[int]] = []
    for cp in codepoints:
        if spans and cp == spans[-1][1] + 1:
            spans[-1][1] = cp
        else:
            spans.append([cp, cp])
    return "".join(f"\\u{lo:04x}" + (f"-\\u{hi:04x}" if hi > lo else "") for lo, hi in spans)


def _combining_marks() -> str:
    r"""Class body of the BMP's combining marks outside CJK (vowel signs, accents, ...).

    They are not ``\w`` in :mod:`re`, yet belong inside words (Devanagari ``हिन्दी``).

    Examples
    --------
    >>> bool(re.fullmatch(f"[{_combining_marks()}]", "\u0301"))
    True
    """
    return _class_ranges(cp for cp in range(0x0300, 0x10000)
                         if unicodedata.category(chr(cp))[0] == "M"
                         and not 0x2E80 <= cp <= 0x33FF)


def _fold_table() -> dict[int, str]:
    """``str.translate`` table of :func:`fold_diacritics` (lower-case letters suffice).

    Examples
    --------
    >>> table = _fold_table()
    >>> table[ord("ü")], table[ord("ά")], table[0x301], table[ord("ǿ")]
    ('u', 'α', '', 'o')
    """
    specials = {ord(k): v for k, v in _SPECIAL_FOLDS.items()}
    table = {cp: "" for cp in range(0x0300, 0x0370)}  # stray combining diacritics
    for lo, hi in _FOLDED_BLOCKS:
        for cp in range(lo, hi + 1):
            base = "".join(c for c in unicodedata.normalize("NFD", chr(cp))
                           if not unicodedata.combining(c))
            if base != chr(cp) and base.isalpha():
                table[cp] = base.translate(specials)
    table.update(specials)
    return table


_FOLD = _fold_table()
#: Pass 1: spans of ASCII letters/digits and non-ASCII characters. A pure-ASCII span is a
#: finished word (the fast path for English); the others go through pass 2, which never
#: matches across a span's edges, so splitting first changes no token.
_SPAN = re.compile(r"[0-9a-z\x80-\U0010ffff]+")
_WORD_CHAR = rf"[^\W_{_NOT_WORD}]"
#: Pass 2: (Han, kana or Hangul run, "") or ("", word with its combining marks).
_TOKEN = re.compile(rf"([{_HAN}]+|[{_KANA}]+|[{_HANGUL}]+)"
                    rf"|({_WORD_CHAR}+(?:[{_combining_marks()}]+{_WORD_CHAR}*)*)")


def fold_diacritics(word: str) -> str:
    """Drop the accents of a lower-case word (Latin and Greek letters; Cyrillic ``ё``).

    Parameters
    ----------
    word : str
        A lower-case word, NFKC-normalised (as :func:`tokenize` sees it).

    Returns
    -------
    str
        The folded word; other scripts are returned unchanged.

    Examples
    --------
    >>> [fold_diacritics(w) for w in ["café", "zürich", "straße", "são", "ёлка", "ελλάς"]]
    ['cafe', 'zurich', 'strasse', 'sao', 'елка', 'ελλασ']
    >>> fold_diacritics("выручка")
    'выручка'
    """
    return word.translate(_FOLD)


def tokenize(
    text: str,
    *,
    stopwords: Collection[str] | None = None,
    stemmer: Callable[[str], str] | None = None,
) -> list[str]:
    """Lower-case tokens: words (accents folded), Han / kana / Hangul runs as uni + bigrams.

    Parameters
    ----------
    text : str
        Any text.
    stopwords : collection of str, optional
        Words to drop, compared after folding (e.g. :data:`ENGLISH_STOPWORDS`); off by
        default.
    stemmer : callable, optional
        Applied to ASCII words (including words that fold to ASCII), e.g.
        ``Stemmer.Stemmer("english").stemWord``; off by default.

    Returns
    -------
    list of str
        Tokens in order; each Han, kana or Hangul run yields its characters, then its
        adjacent pairs.

    Examples
    --------
    >>> tokenize("MPFA新规")
    ['mpfa', '新', '规', '新规']
    >>> tokenize("Revenue (US$m) rose 5.8% in ＦＹ２０２５")
    ['revenue', 'us', 'm', 'rose', '5', '8', 'in', 'fy2025']
    >>> tokenize("Café in Zürich") == tokenize("cafe in ZURICH")
    True
    >>> tokenize("東京の会社")
    ['東', '京', '東京', 'の', '会', '社', '会社']
    >>> tokenize("매출 выручка")
    ['매', '출', '매출', 'выручка']
    """
    out: list[str] = []
    for span in _SPAN.findall(unicodedata.normalize("NFKC", text).lower()):
        if span.isascii():  # one ASCII word
            if stopwords is None or span not in stopwords:
                out.append(stemmer(span) if stemmer is not None else span)
            continue
        for run, word in _TOKEN.findall(span):
            if run:  # unigrams, then bigrams
                out.extend(run)
                out.extend(map(add, run, run[1:]))
                continue
            word = word.translate(_FOLD)
            if stopwords is None or word not in stopwords:
                out.append(stemmer(word) if stemmer is not None and word.isascii() else word)
    return out
