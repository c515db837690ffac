"""Paragraph-granular chunking whose every chunk is a contiguous slice of the source.

A *paragraph* is a non-blank line (numbered 1, 2, … over non-blank lines only). A
sentence that a line break cut (a line that ends no sentence, then one that starts in
lower case: a PDF's wrapped line) is one unit, so no chunk ends inside it. Units are
packed greedily up to ``max_chars``; each chunk's text is the exact slice of the source
from its first paragraph's first character to its last paragraph's last character, so
blank lines between paragraphs stay inside the chunk and a citation can always be found
verbatim in the source. Consecutive chunks share trailing whole units up to
``overlap_chars``. A heading (:func:`~ragspine_nb.extract.headings.heading_level`: a
filing's item, a statement's title, a sub-heading, a table's caption) starts a new chunk
with no overlap, so a chunk does not straddle two sections and a table stays with its
caption. A unit longer than ``max_chars`` is split at sentence enders (。！？；.!?;),
then hard-cut, with no overlap between its pieces.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from ragspine_nb.core import DEFAULT_SENSITIVITY, Chunk
from ragspine_nb.extract.headings import heading_level

__all__ = [
    "chunk_document",
    "Span",
    "paragraph_spans",
    "iter_paragraph_spans",
    "pack_spans",
    "iter_pack_spans",
    "iter_units",
    "DEFAULT_CHUNK_CHARS",
    "DEFAULT_OVERLAP_CHARS",
    "CHUNKER_VERSION",
]

#: Changes whenever the same text would be cut into other chunks (part of what an
#: ingestion depends on, so a document is chunked again).
CHUNKER_VERSION = "chunker@2"

DEFAULT_CHUNK_CHARS = 480
DEFAULT_OVERLAP_CHARS = 80
_LINE = re.compile(r"[^\n]+")
_SENTENCE = re.compile(r"[^。！？；.!?;]*[。！？；.!?;]+|[^。！？；.!?;]+$")
#: A line that ends a sentence (or a heading's colon): the next line starts a new unit.
_ENDS = re.compile(r"[。！？；.!?;:：]['\")”’]*$")


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


def iter_paragraph_spans(text: str) -> Iterator[Span]:
    """Spans of the non-blank lines of ``text``, stripped, one at a time (linear)."""
    n = 0
    for m in _LINE.finditer(text):
        line = m.group(0)
        stripped = line.strip()
        if not stripped:
            continue
        start = m.start() + (len(line) - len(line.lstrip()))
        n += 1
        yield Span(start, start + len(stripped), n, n)


def paragraph_spans(text: str) -> list[Span]:
    """Spans of the non-blank lines of ``text``, stripped of surrounding whitespace."""
    return list(iter_paragraph_spans(text))


def _sentence_pieces(text: str, para: Span, max_chars: int) -> Iterator[tuple[int, int]]:
    """``[s, e)`` offsets in ``text``: sentences packed up to ``max_chars``, then hard cuts."""
    last: tuple[int, int] | None = None
    for m in _SENTENCE.finditer(text, para.start, para.end):
        s, e = m.start(), m.end()
        while e - s > max_chars:  # a sentence longer than a chunk: hard cut
            if last is not None:
                yield last
            last = (s, s + max_chars)
            s += max_chars
        if last is not None and e - last[0] <= max_chars and last[1] == s:
            last = (last[0], e)
        else:
            if last is not None:
                yield last
            last = (s, e)
    if last is not None:
        yield last


def _split_oversized(text: str, para: Span, max_chars: int) -> Iterator[Span]:
    """Pieces of one long paragraph, stripped; empty pieces are dropped."""
    k = 0
    for s, e in _sentence_pieces(text, para, max_chars):
        k += 1
        seg = text[s:e]
        lead = len(seg) - len(seg.lstrip())
        trail = len(seg.rstrip())
        if trail > lead:
            yield Span(s + lead, s + trail, para.first_para, para.last_para, part=k)


#: A line this long that ends no sentence was wrapped (a short one is a label or a bullet).
_WRAPPED_CHARS = 40


def _continues(text: str, prev: Span, para: Span) -> bool:
    """Whether ``para`` goes on with the sentence ``prev`` left open (a wrapped line)."""
    last_line = text[prev.start:prev.end].rsplit("\n", 1)[-1]
    return (len(last_line) >= _WRAPPED_CHARS and not _ENDS.search(last_line)
            and text[para.start].isascii() and text[para.start].islower())


def iter_units(text: str, paras: Iterable[Span]) -> Iterator[Span]:
    r"""Paragraph spans with each sentence a line break cut joined back into one span.

    A line of 40 characters or more that ends no sentence, then a line starting in lower
    case: one sentence (a label or a bullet is shorter).

    Examples
    --------
    >>> src = "Revenue fell in every region this year, driven by\nlower demand.\nCosts rose."
    >>> [src[u.start:u.end] for u in iter_units(src, iter_paragraph_spans(src))]
    ['Revenue fell in every region this year, driven by\nlower demand.', 'Costs rose.']
    """
    cur: Span | None = None
    for para in paras:
        if cur is not None and _continues(text, cur, para):
            cur = Span(cur.start, para.end, cur.first_para, para.last_para)
            continue
        if cur is not None:
            yield cur
        cur = para
    if cur is not None:
        yield cur


def _with_next(units: Iterator[Span]) -> Iterator[tuple[Span, Span | None]]:
    """Each unit with the one after it (``None`` after the last)."""
    prev = next(units, None)
    while prev is not None:
        nxt = next(units, None)
        yield prev, nxt
        prev = nxt


def iter_pack_spans(text: str, paras: Iterable[Span], max_chars: int,
                    overlap_chars: int) -> Iterator[Span]:
    """Greedy packing of paragraph spans into chunk spans, one at a time (linear).

    Paragraphs are first joined into units (:func:`iter_units`); a heading starts a new
    chunk unless the chunk so far holds only headings.
    """
    buf: list[Span] = []
    opened = False  # the buffer holds more than headings
    for para, nxt in _with_next(iter_units(text, paras)):
        heading = heading_level(text[para.start:para.end],
                                text[nxt.start:nxt.end] if nxt is not None else "") > 0
        if len(para) > max_chars:
            if buf:
                yield Span(buf[0].start, buf[-1].end, buf[0].first_para, buf[-1].last_para)
            buf, opened = [], False
            yield from _split_oversized(text, para, max_chars)
            continue
        if buf and heading and opened:  # a new section: no overlap with the last one
            yield Span(buf[0].start, buf[-1].end, buf[0].first_para, buf[-1].last_para)
            buf, opened = [], False
        elif buf and para.end - buf[0].start > max_chars:
            yield Span(buf[0].start, buf[-1].end, buf[0].first_para, buf[-1].last_para)
            keep: list[Span] = []
            for prev in reversed(buf):  # trailing whole paragraphs within the overlap
                if buf[-1].end - prev.start > overlap_chars:
                    break
                keep.insert(0, prev)
            while keep and para.end - keep[0].start > max_chars:
                keep.pop(0)
            buf = keep
        buf.append(para)
        opened = opened or not heading
    if buf:
        yield Span(buf[0].start, buf[-1].end, buf[0].first_para, buf[-1].last_para)


def pack_spans(text: str, paras: list[Span], max_chars: int, overlap_chars: int) -> list[Span]:
    """Greedy packing of paragraph spans into chunk spans (see the module docstring)."""
    return list(iter_pack_spans(text, paras, max_chars, overlap_chars))


def _check_sizes(max_chars: int, overlap_chars: int) -> None:
    """Reject a non-positive ``max_chars`` or an ``overlap_chars`` outside ``[0, max_chars)``."""
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars <= 0:
        raise ValueError(f"max_chars must be a positive int, got {max_chars!r}")
    if isinstance(overlap_chars, bool) or not isinstance(overlap_chars, int) or overlap_chars < 0:
        raise ValueError(f"overlap_chars must be an int >= 0, got {overlap_chars!r}")
    if overlap_chars >= max_chars:
        raise ValueError(
            f"overlap_chars ({overlap_chars}) must be smaller than max_chars ({max_chars})"
        )


@dataclass(frozen=True)
class _ChunkLabels:
    """What every chunk of one document carries besides its text and place."""

    doc_id: str
    prefix: str  # "<source_locator_prefix>," or ""
    title: str
    topic: str
    entity: str
    geography: str
    period: str
    language: str
    sensitivity: str


def _span_locator(prefix: str, span: Span) -> str:
    """``"<prefix>para=a-b"`` (``para=a`` for one paragraph), plus ``",part=k"`` for a piece."""
    paras = (f"para={span.first_para}" if span.first_para == span.last_para
             else f"para={span.first_para}-{span.last_para}")
    part = f",part={span.part}" if span.part else ""
    return f"{prefix}{paras}{part}"


def _chunk_at(text: str, span: Span, seq: int, labels: _ChunkLabels) -> Chunk:
    """The chunk of one packed span; its id is ``"<doc_id>#<seq>-<8 hex of the text>"``."""
    body = text[span.start:span.end]
    digest = hashlib.sha1(body.encode("utf-8")).hexdigest()[:8]
    return Chunk(
        doc_id=labels.doc_id, chunk_id=f"{labels.doc_id}#{seq}-{digest}", seq=seq, text=body,
        title=labels.title, topic=labels.topic, entity=labels.entity,
        geography=labels.geography, period=labels.period, language=labels.language,
        sensitivity=labels.sensitivity, source_locator=_span_locator(labels.prefix, span),
    )


def chunk_document(
    text: str, doc_id: str, *, max_chars: int = DEFAULT_CHUNK_CHARS,
    overlap_chars: int = DEFAULT_OVERLAP_CHARS, source_locator_prefix: str | None = None,
    seq_start: int = 0, title: str = "", topic: str = "", entity: str = "",
    geography: str = "", period: str = "", language: str = "",
    sensitivity: str = DEFAULT_SENSITIVITY, max_chunks: int | None = None,
) -> list[Chunk]:
    r"""Split one document's text into :class:`~ragspine_nb.core.Chunk` objects.

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
    max_chunks : int, optional
        Stop after this many chunks (the rest of the text is not even split); ask for
        one more than you keep to learn whether anything was left out.

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
    _check_sizes(max_chars, overlap_chars)
    labels = _ChunkLabels(
        doc_id=doc_id, prefix=f"{source_locator_prefix}," if source_locator_prefix else "",
        title=title, topic=topic, entity=entity, geography=geography, period=period,
        language=language, sensitivity=sensitivity)
    spans = iter_pack_spans(text, iter_paragraph_spans(text), max_chars, overlap_chars)
    return [_chunk_at(text, span, seq_start + k, labels)
            for k, span in enumerate(islice(spans, max_chunks))]
