"""Language detection shared by every layer (answers speak the question's language)."""

from __future__ import annotations

import re

__all__ = ["detect_language"]

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def detect_language(text: str) -> str:
    """``"zh"`` when the text contains CJK ideographs, else ``"en"``."""
    return "zh" if _CJK.search(text) else "en"
