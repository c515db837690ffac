"""Plain-text and Markdown documents into paragraph chunks with ``para=N`` locators."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ragspine_nb.lang import detect_language
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import classify_sensitivity
from ragspine_nb.types import Chunk

__all__ = ["read_text_chunks", "TEXT_SUFFIXES"]

TEXT_SUFFIXES: tuple[str, ...] = (".md", ".txt")
_PARA = re.compile(r"\S(?:.*\S)?(?:\n[ \t]*\S(?:.*\S)?)*")


def read_text_chunks(
    path: str | Path,
    profile: DomainProfile,
    *,
    metadata: dict[str, str] | None = None,
) -> list[Chunk]:
    """Split a ``.md``/``.txt`` file into one chunk per blank-line-separated paragraph.

    Each chunk's text is an exact substring of the file and its locator is the
    paragraph number (``para=3``). Sensitivity comes from ``metadata["sensitivity"]``
    or the profile's classifier.
    """
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    meta = dict(metadata or {})
    sensitivity = classify_sensitivity(profile, p.name, text, meta.pop("sensitivity", None))
    language = meta.pop("language", "") or detect_language(text)
    chunks = []
    for n, m in enumerate(_PARA.finditer(text), start=1):
        digest = hashlib.sha1(m.group(0).encode("utf-8")).hexdigest()[:8]
        chunks.append(Chunk(
            doc_id=p.name, chunk_id=f"{p.name}#p{n}-{digest}", seq=n - 1, text=m.group(0),
            title=meta.get("title", p.stem), topic=meta.get("topic", ""),
            entity=meta.get("entity", ""), geography=meta.get("geography", ""),
            period=meta.get("period", ""), language=language, sensitivity=sensitivity,
            source_locator=f"para={n}",
        ))
    return chunks
