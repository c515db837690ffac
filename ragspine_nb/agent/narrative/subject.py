"""Whose a sentence is: the segment a question asks about, or one of its siblings.

A question about one segment or region ("Why did Hong Kong revenue rise?") is not answered by
a sentence about another ("Mainland China revenue fell"), nor by the sentences after it in its
passage that name nobody (they keep its topic). :class:`Subject` holds the names of both, as
the narrative prompt states them; :func:`about_another` and :func:`about_others` read them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Subject", "about_another", "about_others"]


@dataclass(frozen=True)
class Subject:
    """What a question is about (its one segment or region, by every name) and its siblings.

    A sentence naming a sibling and not the subject is about the sibling: "Mainland China
    revenue fell" answers no question about Hong Kong.
    """

    names: tuple[str, ...] = ()
    others: tuple[str, ...] = ()


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for all ``names``: a Latin name as whole words, any other anywhere."""
    latin = sorted({re.escape(n.casefold()) for n in names if n.isascii() and n}, key=len,
                   reverse=True)
    other = sorted({re.escape(n.casefold()) for n in names if not n.isascii()}, key=len,
                   reverse=True)
    parts = [rf"(?<![^\W\d_])(?:{'|'.join(latin)})(?![^\W\d_])"] if latin else []
    parts += other
    return re.compile("|".join(parts)) if parts else None


def _names_any(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` names one of ``names`` (a Latin name as whole words, any case)."""
    pattern = _names_pattern(tuple(names))
    return pattern is not None and pattern.search(text.casefold()) is not None


def about_another(text: str, about: Subject) -> bool:
    """Whether a sentence names only the subject's siblings, never the subject.

    Examples
    --------
    >>> hk = Subject(("Hong Kong", "香港"), ("Mainland China", "内地", "China"))
    >>> about_another("2025年第一季度，ACME中国内地营业收入有所下降。", hk)
    True
    >>> about_another("香港代理人渠道表现强劲，内地访客恢复带动新单销售增长。", hk)
    False
    >>> about_another("Revenue rose on higher margins.", hk), about_another("Chinatown", hk)
    (False, False)
    """
    return bool(about.names) and _names_any(text, about.others) and \
        not _names_any(text, about.names)


def about_others(sentences: Sequence[tuple[int, str]], about: Subject | None) -> list[bool]:
    """Per ``(passage, sentence)``: whether it is about a sibling.

    By its names or, naming nobody, by the sentence before it in its passage: a passage
    keeps its topic until a sentence names another ("ACME Mainland China revenue fell.
    Bancassurance sales dropped 20% …" — the second sentence is Mainland China's too).
    """
    if about is None or not about.names:
        return [False] * len(sentences)
    other, topic, passage = [], False, None
    for snippet, text in sentences:
        if snippet != passage:
            topic, passage = False, snippet
        if _names_any(text, about.names):
            topic = False
        elif _names_any(text, about.others):
            topic = True
        other.append(topic)
    return other
