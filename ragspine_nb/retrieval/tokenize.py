"""CJK-aware tokenization for BM25: ASCII words, CJK unigrams plus adjacent bigrams.

Bigrams give Chinese BM25 most of what a word segmenter would, with no dictionary:
``"MPFA新规"`` → ``mpfa, 新, 规, 新规``. Text is NFKC-normalised first, so full-width
letters and digits (``ＭＰＦＡ２０２４``) tokenize like their ASCII forms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection

__all__ = ["tokenize", "ENGLISH_STOPWORDS", "Tokenizer"]

Tokenizer = Callable[[str], list[str]]

_TOKEN = re.compile(r"[a-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")

#: Lucene's classic English stop list (33 words), off by default.
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their "
    "then there these they this to was will with".split()
)


def tokenize(
    text: str,
    *,
    stopwords: Collection[str] | None = None,
    stemmer: Callable[[str], str] | None = None,
) -> list[str]:
    """Lower-case tokens: ASCII alphanumeric runs as words, CJK runs as unigrams + bigrams.

    Parameters
    ----------
    text : str
        Any text.
    stopwords : collection of str, optional
        ASCII words to drop (e.g. :data:`ENGLISH_STOPWORDS`); off by default.
    stemmer : callable, optional
        Applied to ASCII words, e.g. ``Stemmer.Stemmer("english").stemWord``; off by default.

    Returns
    -------
    list of str
        Tokens in order; each CJK run yields its characters, then its adjacent pairs.

    Examples
    --------
    >>> tokenize("MPFA新规")
    ['mpfa', '新', '规', '新规']
    >>> tokenize("Revenue (US$m) rose 5.8% in ＦＹ２０２５")
    ['revenue', 'us', 'm', 'rose', '5', '8', 'in', 'fy2025']
    """
    out: list[str] = []
    for run in _TOKEN.findall(unicodedata.normalize("NFKC", text).lower()):
        if run.isascii():
            if stopwords is not None and run in stopwords:
                continue
            out.append(stemmer(run) if stemmer is not None else run)
        else:
            out.extend(run)
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out
