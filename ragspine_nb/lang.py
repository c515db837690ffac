"""Language detection shared by every layer (answers speak the question's language)."""

from __future__ import annotations

import re

__all__ = ["detect_language"]

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z]+")


def detect_language(text: str) -> str:
    """``"zh"`` when CJK ideographs are at least as many as Latin words, else ``"en"``.

    Examples
    --------
    >>> detect_language("中国内地2024年的营业收入是多少？"), detect_language("What was revenue?")
    ('zh', 'en')
    >>> detect_language("ACME Hong Kong 香港 revenue in FY2024")
    'en'
    """
    cjk = len(_CJK.findall(text))
    return "zh" if cjk and cjk >= len(_WORD.findall(text)) else "en"
