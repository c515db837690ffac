"""Paragraph-granular chunking whose every chunk is a contiguous slice of the source.

A *paragraph* is a non-blank line (numbered 1, 2, … over non-blank lines only).
Paragraphs are packed greedily up to ``max_chars``; each chunk's text is the exact
slice of the source from its first paragraph's first character to its last
paragraph's last character, so blank lines between paragraphs stay inside the chunk
and a citation can always be found verbatim in the source. Consecutive chunks share
trailing whole paragraphs up to ``overlap_chars``. A paragraph longer than
``max_chars`` is split at sentence enders (。！？；.!?;), then hard-cut, with no
overlap between its pieces.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ragspine_nb.types import DEFAULT_SENSITIVITY, Chunk

__all__ = [
    "chunk_document",
    "Span",
    "paragraph_spans",
    "pack_spans",
    "DEFAULT_CHUNK_CHARS",
    "DEFAULT_OVERLAP_CHARS",
]

DEFAULT_CHUNK_CHARS = 480
DEFAULT_OVERLAP_CHARS = 80
_LINE = re.compile(r"[^\n]+")
_SENTENCE = re.compile(r"[^。！？；.!?;]*[。！？；.!?;]+|[^。！？；.!?;]+$")


@dataclass(frozen=True)
class Span:
    """A ``[start, end)`` slice of the source plus the paragraph numbers it covers."""

    start: int
    end: int
    first_para: int
    last_para: int
    part: int = 0  # > 0 for the pieces of an oversized paragraph

    def __len__(self) -> int:
        return self.end - self.start


def paragraph_spans(text: str) -> list[Span]:
    """Spans of the non-blank lines of ``text``, stripped of surrounding whitespace."""
    spans: list[Span] = []
    for m in _LINE.finditer(text):
        line = m.group(0)
        stripped = line.strip()
        if not stripped:
            continue
        start = m.start() + (len(line) - len(line.lstrip()))
        n = len(spans) + 1
        spans.append(Span(start, start + len(stripped), n, n))
    return spans


def _split_oversized(text: str, para: Span, max_chars: int) -> list[Span]:
    """Pieces of one long paragraph: sentences packed up to ``max_chars``, then hard cuts."""
    body = text[para.start:para.end]
    pieces: list[tuple[int, int]] = []
    for m in _SENTENCE.finditer(body):
        s, e = m.start(), m.end()
        while e - s > max_chars:  # a sentence longer than a chunk: hard cut
            pieces.append((s, s + max_chars))
            s += max_chars
        if pieces and e - pieces[-1][0] <= max_chars and pieces[-1][1] == s:
            pieces[-1] = (pieces[-1][0], e)
        else:
            pieces.append((s, e))
    out = []
    for k, (s, e) in enumerate(pieces, start=1):
        seg = body[s:e]
        lead = len(seg) - len(seg.lstrip())
        trail = len(seg.rstrip())
        if trail > lead:
            out.append(Span(para.start + s + lead, para.start + s + trail, para.first_para,
                            para.last_para, part=k))
    return out


def pack_spans(text: str, paras: list[Span], max_chars: int, overlap_chars: int) -> list[Span]:
    """Greedy packing of paragraph spans into chunk spans (see the module docstring)."""
    chunks: list[Span] = []
    buf: list[Span] = []

    def flush() -> None:
        if buf:
            chunks.append(Span(buf[0].start, buf[-1].end, buf[0].first_para, buf[-1].last_para))

    for para in paras:
        if len(para) > max_chars:
            flush()
            buf = []
            chunks.extend(_split_oversized(text, para, max_chars))
            continue
        if buf and para.end - buf[0].start > max_chars:
            flush()
            keep: list[Span] = []
            for prev in reversed(buf):  # trailing whole paragraphs within the overlap
                if buf[-1].end - prev.start > overlap_chars:
                    break
                keep.insert(0, prev)
            while keep and para.end - keep[0].start > max_chars:
                keep.pop(0)
            buf = keep
        buf.append(para)
    flush()
    return chunks


def chunk_document(
    text: str,
    doc_id: str,
    *,
    max_chars: int = DEFAULT_CHUNK_CHARS,
    overlap_chars: int = DEFAULT_OVERLAP_CHARS,
    source_locator_prefix: str | None = None,
    seq_start: int = 0,
    title: str = "",
    topic: str = "",
    entity: str = "",
    geography: str = "",
    period: str = "",
    language: str = "",
    sensitivity: str = DEFAULT_SENSITIVITY,
) -> list[Chunk]:
    r"""Split one document's text into :class:`~ragspine_nb.types.Chunk` objects.

    Parameters
    ----------
    text : str
        The document's extracted text.
    doc_id : str
        Document id carried by every chunk.
    max_chars : int, default 480
        Longest chunk, in characters (a character budget keeps this offline).
    overlap_chars : int, default 80
        Trailing whole paragraphs up to this length are repeated in the next chunk.
    source_locator_prefix : str, optional
        Where ``text`` sits in the document (``"slide=4"``, ``"page=7"``); the chunk
        locator is ``"<prefix>,para=a-b"``.
    seq_start : int, default 0
        First sequence number (to chunk several segments of one document).
    title, topic, entity, geography, period, language, sensitivity : str
        Metadata copied onto every chunk.

    Returns
    -------
    list of Chunk
        In document order; ids are ``"<doc_id>#<seq>-<8 hex of the text>"``.

    Raises
    ------
    ValueError
        If ``max_chars <= 0``, ``overlap_chars < 0`` or ``overlap_chars >= max_chars``.

    Examples
    --------
    >>> src = "First paragraph.\n\nSecond paragraph."
    >>> [c.text for c in chunk_document(src, "d", max_chars=40, overlap_chars=0)]
    ['First paragraph.\n\nSecond paragraph.']
    >>> [c.source_locator for c in chunk_document(src, "d", max_chars=20, overlap_chars=0)]
    ['para=1', 'para=2']
    """
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars <= 0:
        raise ValueError(f"max_chars must be a positive int, got {max_chars!r}")
    if isinstance(overlap_chars, bool) or not isinstance(overlap_chars, int) or overlap_chars < 0:
        raise ValueError(f"overlap_chars must be an int >= 0, got {overlap_chars!r}")
    if overlap_chars >= max_chars:
        raise ValueError(
            f"overlap_chars ({overlap_chars}) must be smaller than max_chars ({max_chars})"
        )
    prefix = f"{source_locator_prefix}," if source_locator_prefix else ""
    chunks = []
    for k, span in enumerate(pack_spans(text, paragraph_spans(text), max_chars, overlap_chars)):
        body = text[span.start:span.end]
        paras = (f"para={span.first_para}" if span.first_para == span.last_para
                 else f"para={span.first_para}-{span.last_para}")
        part = f",part={span.part}" if span.part else ""
        seq = seq_start + k
        digest = hashlib.sha1(body.encode("utf-8")).hexdigest()[:8]
        chunks.append(Chunk(
            doc_id=doc_id, chunk_id=f"{doc_id}#{seq}-{digest}", seq=seq, text=body,
            title=title, topic=topic, entity=entity, geography=geography, period=period,
            language=language, sensitivity=sensitivity,
            source_locator=f"{prefix}{paras}{part}",
        ))
    return chunks
