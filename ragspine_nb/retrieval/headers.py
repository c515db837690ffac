"""A passage's indexed header: its company, year and section, searched but never shown.

"The decrease in revenue in fiscal 2023 was primarily driven by comparable sales
declines …" names neither its company nor the part of the filing it comes from; the
question ("Why did Best Buy's revenue decrease in fiscal 2023?") names both. The header
says them for the passage: the entity it carries (``BEST_BUY`` → ``BEST BUY``), its
period with the year written out (``FY2023 2023``) and its section path in the document
(:func:`~ragspine_nb.extract.headings.section_paths`: ``Item 7. Management's Discussion
… › Results of Operations › Domestic Segment``). BM25 indexes it with the title and
the text, the dense channel embeds it, the judges read it; answers and displays show
the passage's own text only, whose citation stays exact.

The section path depends on the passages before a chunk, so headers are made per
document, from its active chunks in order (:func:`document_headers`);
:class:`HeaderBook` keeps them per chunk id and reads a document's chunks from the
store the first time one of its chunks is asked for.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence

from ragspine_nb.core import Chunk, StoredChunk
from ragspine_nb.extract.headings import section_paths
from ragspine_nb.stores.chunks import ChunkStore

__all__ = ["passage_header", "document_headers", "headers_by_doc", "indexed_text",
           "HeaderBook", "HEADER_VERSION"]

#: Changes whenever what a header holds changes (a saved BM25 index is built again).
HEADER_VERSION = "header@1"
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def passage_header(chunk: Chunk, section: str = "") -> str:
    """The header of one chunk: entity words, period and its years, section path.

    Examples
    --------
    >>> from ragspine_nb.core import Chunk
    >>> c = Chunk(doc_id="bby.pdf", chunk_id="c1", seq=0, text="Revenue fell.",
    ...           entity="BEST_BUY", period="FY2023", source_locator="page=25")
    >>> passage_header(c, "Item 7. MD&A › Results of Operations")
    'BEST BUY · FY2023 2023 · Item 7. MD&A › Results of Operations'
    >>> passage_header(Chunk(doc_id="d", chunk_id="c", seq=0, text="x", source_locator="p"))
    ''
    """
    parts = []
    entity = " ".join(chunk.entity.replace("_", " ").split())
    if entity:
        parts.append(entity)
    if chunk.period:
        years = [y for y in _YEAR.findall(chunk.period) if y != chunk.period]
        parts.append(" ".join([chunk.period, *dict.fromkeys(years)]))
    if section:
        parts.append(section)
    return " · ".join(parts)


def document_headers(chunks: Sequence[Chunk]) -> dict[str, str]:
    """Chunk id → header for the chunks of ONE document (read in ``seq`` order)."""
    ordered = sorted(chunks, key=lambda c: c.seq)
    sections = section_paths(c.text for c in ordered)
    return {c.chunk_id: passage_header(c, s) for c, s in zip(ordered, sections, strict=True)}


def headers_by_doc(chunks: Iterable[Chunk]) -> dict[str, str]:
    """Chunk id → header for chunks of any documents (each document read on its own)."""
    docs: dict[str, list[Chunk]] = {}
    for c in chunks:
        docs.setdefault(c.doc_id, []).append(c)
    out: dict[str, str] = {}
    for members in docs.values():
        out.update(document_headers(members))
    return out


def indexed_text(chunk: Chunk, with_title: bool = True, header: str = "") -> str:
    r"""What the search channels read for a chunk: title line, header line, then its text.

    >>> from ragspine_nb.core import Chunk
    >>> c = Chunk(doc_id="d", chunk_id="c", seq=0, text="Sales fell.", title="Annual report",
    ...           source_locator="page=2")
    >>> indexed_text(c, True, "ACME · FY2024 2024")
    'Annual report\nACME · FY2024 2024\nSales fell.'
    """
    head = [chunk.title] if with_title and chunk.title else []
    return "\n".join([*head, *([header] if header else []), chunk.text])


class HeaderBook:
    """Headers by chunk id, made per document; a document unknown yet is read from the store.

    Parameters
    ----------
    store : ChunkStore, optional
        Where a document's active chunks are read when a header of it is asked for and
        it was not added; without one such a chunk's header lacks its section.
    """

    def __init__(self, store: ChunkStore | None = None) -> None:
        self._store = store
        self._headers: dict[str, str | None] = {}
        #: headers of a saved index, kept as read until one is asked for
        self._pending: tuple[Sequence[str], Sequence[str | None]] | None = None
        #: where a chunk id sits in the pending lists (read without making a dict of them)
        self._slot_of: Callable[[str], int | None] | None = None
        self._lock = threading.Lock()

    def _settled(self) -> dict[str, str | None]:
        """The headers, with a saved index's put in first (once)."""
        if self._pending is not None:
            with self._lock:
                if self._pending is not None:
                    ids, headers = self._pending
                    self._headers = {**dict(zip(ids, headers, strict=True)), **self._headers}
                    self._pending = None
        return self._headers

    def add(self, chunks: Iterable[Chunk]) -> Mapping[str, str]:
        """Make and keep the headers of ``chunks`` (whole documents); return them."""
        made = headers_by_doc(chunks)
        with self._lock:  # over any pending (saved) header: see _settled
            self._headers.update(made)
        return made

    def add_documents(self, doc_ids: Iterable[str]) -> None:
        """Make the headers of these documents from all their active chunks in the store."""
        if self._store is None:
            return
        for doc_id in doc_ids:
            self.add(self._store.iter_chunks(doc_id=doc_id))

    def known(self, chunk_ids: Iterable[str]) -> list[str | None]:
        """The headers made so far of these chunks (``None`` where none is made yet)."""
        book = self._settled()
        return [book.get(cid) for cid in chunk_ids]

    def preset(self, chunk_ids: Sequence[str], headers: Sequence[str | None],
               slot_of: Callable[[str], int | None] | None = None) -> None:
        """Keep headers made in another process (a saved index); the store is not read.

        ``headers[i]`` is ``chunk_ids[i]``'s (``None``: not made there). They are put in
        when one is first asked for: a search that indexes nothing new never needs them.
        ``slot_of`` (a chunk id's ``i``, if known) lets :meth:`get` read one without
        putting them all in: a search's hits need ten headers, not a dict of them all.
        """
        if len(chunk_ids) != len(headers):
            raise ValueError(f"{len(chunk_ids)} chunk ids but {len(headers)} headers")
        self._settled()
        with self._lock:
            self._pending, self._slot_of = (chunk_ids, headers), slot_of

    def drop(self, chunk_ids: Iterable[str]) -> None:
        """Forget chunks that left the index (over pending headers: ``None`` stands in)."""
        with self._lock:
            for cid in chunk_ids:
                if self._pending is None:
                    self._headers.pop(cid, None)
                else:
                    self._headers[cid] = None

    def clear(self) -> None:
        """Forget every header (the index is built again)."""
        with self._lock:
            self._headers.clear()
            self._pending = None

    def _known(self, chunk_id: str) -> str | None:
        """The header made so far of one chunk (a pending one read by its slot)."""
        pending, slot_of = self._pending, self._slot_of
        if chunk_id in self._headers:  # made here, or dropped, after a preset: it wins
            return self._headers[chunk_id]
        if pending is None or slot_of is None:
            return self._settled().get(chunk_id)
        i = slot_of(chunk_id)
        if i is not None and 0 <= i < len(pending[0]) and pending[0][i] == chunk_id:
            with self._lock:  # kept: a chunk found again is one dict look-up
                self._headers[chunk_id] = pending[1][i]
            return pending[1][i]
        return self._settled().get(chunk_id)

    def get(self, chunk: StoredChunk | Chunk) -> str:
        """The chunk's header (its document's chunks are read once when unknown)."""
        found = self._known(chunk.chunk_id)
        if found is not None:
            return found
        members: list[Chunk] = []
        if self._store is not None:
            members = list(self._store.iter_chunks(doc_id=chunk.doc_id))
        if not any(c.chunk_id == chunk.chunk_id for c in members):
            return passage_header(chunk)  # not stored (a chunk built by hand): no section
        return self.add(members).get(chunk.chunk_id, "")

    def text(self, chunk: StoredChunk | Chunk, with_title: bool = True) -> str:
        """:func:`indexed_text` of the chunk with its header."""
        return indexed_text(chunk, with_title, self.get(chunk))
