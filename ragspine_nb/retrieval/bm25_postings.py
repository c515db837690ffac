"""The postings behind a BM25 index: built in blocks, changed in place, compacted on demand.

A :class:`PostingStore` holds raw term frequencies per document *slot*. The main
segment is a terms × docs CSR; documents added later go to a small delta segment
(rebuilt from their own postings on each add) and are merged into the main one when
the delta grows past a fraction of it. Removing a document clears its ``alive`` flag
and takes its terms out of the document frequencies; its postings stay until the next
compaction. Corpus statistics (live documents, average length, document frequency)
are always those of the live documents, so scores equal a fresh build over them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ragspine_nb.retrieval.bm25_kernels import Postings
from ragspine_nb.retrieval.packed import SavedTerms

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["PostingStore", "count_block", "csr"]


def csr(*args: Any, **kwargs: Any) -> sparse.csr_matrix:
    """``scipy.sparse.csr_matrix(...)``: scipy is imported on first use, not with this module.

    >>> csr((1, 2)).shape
    (1, 2)
    """
    from scipy import sparse

    return sparse.csr_matrix(*args, **kwargs)


BLOCK_DOCS = 20_000  # documents counted per numpy pass while building
MERGE_MIN_POSTINGS = 20_000


def count_block(cols: np.ndarray, lens: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(term, doc, tf) of one block of documents, sorted by term then doc.

    ``cols`` holds the term ids of the block's tokens document after document and
    ``lens`` each document's token count; doc numbers are local to the block.

    Examples
    --------
    >>> t, d, f = count_block(np.array([3, 1, 3, 1]), np.array([3, 1]))
    >>> t.tolist(), d.tolist(), f.tolist()
    ([1, 1, 3], [0, 1, 0], [1, 1, 2])
    """
    docs = np.repeat(np.arange(lens.size, dtype=np.int64), lens)
    keys = (cols.astype(np.int64) << 32) | docs
    uniq, counts = np.unique(keys, return_counts=True)
    return ((uniq >> 32).astype(np.int32), (uniq & 0xFFFFFFFF).astype(np.int32),
            counts.astype(np.int32))


def _scatter(blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
             n_terms: int) -> Postings:
    """Term-major CSR from per-block (term, slot, tf) triples, blocks in slot order."""
    df = np.zeros(n_terms, np.int64)
    for terms, _, _ in blocks:
        df += np.bincount(terms, minlength=n_terms)
    ptr = np.zeros(n_terms + 1, np.int64)
    np.cumsum(df, out=ptr[1:])
    docs = np.empty(int(ptr[-1]), np.int32)
    tf = np.empty(int(ptr[-1]), np.float32)
    filled = ptr[:-1].copy()
    while blocks:
        terms, slots, freq = blocks.pop(0)  # freed as we go: the peak stays low
        if not terms.size:
            continue
        starts = np.flatnonzero(np.r_[True, terms[1:] != terms[:-1]])
        rank = np.arange(terms.size) - np.repeat(starts, np.diff(np.r_[starts, terms.size]))
        where = filled[terms] + rank
        docs[where], tf[where] = slots, freq
        filled[terms[starts]] += np.diff(np.r_[starts, terms.size])
    return Postings(ptr, docs, tf)


def _grow(ptr: np.ndarray, n_terms: int) -> np.ndarray:
    """``ptr`` extended (with its last value) to cover ``n_terms`` terms."""
    if ptr.size - 1 >= n_terms:
        return ptr
    return np.concatenate([ptr, np.full(n_terms + 1 - ptr.size, ptr[-1], np.int64)])


class PostingStore:
    """Raw postings of live and removed document slots, with live corpus statistics.

    Parameters
    ----------
    vocab : dict or SavedTerms
        Term → id (extended in place by :meth:`add_tokens`).
    """

    def __init__(self, vocab: dict[str, int] | SavedTerms) -> None:
        self.vocab = vocab
        self.slot_ids: list[str] = []
        self._positions: dict[str, int] | None = None
        self._scanned = False
        self.alive = np.zeros(0, bool)
        self.slot_len = np.zeros(0, np.float64)
        self.tie = np.zeros(0, np.int64)
        self.df = np.zeros(len(vocab), np.int64)
        self.main = Postings(np.zeros(len(vocab) + 1, np.int64), np.zeros(0, np.int32),
                             np.zeros(0, np.float32))
        self.n_main = 0  # slots below this live in the main segment
        self._delta_blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.delta: Postings | None = None

    # ------------------------------------------------------------------ building
    def _count(self, tokens: Iterable[Sequence[str]],
               first_slot: int) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                                         np.ndarray]:
        """Count ``tokens`` in blocks: (term, slot, tf) triples and each document's length."""
        vocab = self.vocab
        blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        lens_all: list[np.ndarray] = []
        cols: list[int] = []
        lens: list[int] = []

        def flush() -> None:
            t, d, f = count_block(np.asarray(cols, np.int64), np.asarray(lens, np.int64))
            base = first_slot + sum(x.size for x in lens_all)
            blocks.append((t, d + np.int32(base), f))
            lens_all.append(np.asarray(lens, np.int64))
            cols.clear()
            lens.clear()

        for toks in tokens:
            cols.extend([vocab.setdefault(t, len(vocab)) for t in toks])
            lens.append(len(toks))
            if len(lens) >= BLOCK_DOCS:
                flush()
        if lens:
            flush()
        return blocks, (np.concatenate(lens_all) if lens_all else np.zeros(0, np.int64))

    def build(self, ids: Sequence[str], tokens: Iterable[Sequence[str]],
              tie: np.ndarray | None = None) -> None:
        """Index every document into a fresh main segment (streamed, in blocks)."""
        blocks, lens = self._count(tokens, 0)
        if lens.size != len(ids):
            raise ValueError("doc_ids and tokens disagree on the number of documents")
        self._set_slots(list(ids), lens, tie)
        self.df = np.zeros(len(self.vocab), np.int64)
        for terms, _, _ in blocks:
            self.df += np.bincount(terms, minlength=len(self.vocab))
        self.main = _scatter(blocks, len(self.vocab))
        self.n_main = len(ids)

    def load(self, ids: list[str], ptr: np.ndarray, docs: np.ndarray, tf: np.ndarray,
             lens: np.ndarray, tie: np.ndarray | None) -> None:
        """Take a ready terms × docs CSR of raw term frequencies as the main segment."""
        self._set_slots(ids, lens, tie)
        self.main = Postings(np.asarray(ptr, np.int64), np.asarray(docs, np.int32),
                             np.asarray(tf, np.float32))
        self.df = np.diff(self.main.ptr).astype(np.int64)
        self.n_main, self.delta, self._delta_blocks = len(ids), None, []

    def load_matrix(self, ids: list[str], tf: sparse.spmatrix, tie: np.ndarray | None) -> None:
        """Take a docs × terms matrix of raw term frequencies as the main segment."""
        tf_t = csr(tf, dtype=np.float32).T.tocsr()
        tf_t.sum_duplicates()
        tf_t.eliminate_zeros()
        lens = np.asarray(tf.sum(axis=1)).ravel().astype(np.int64)
        self.load(ids, tf_t.indptr, tf_t.indices, tf_t.data, lens, tie)

    def _set_slots(self, ids: list[str], lens: np.ndarray, tie: np.ndarray | None) -> None:
        self.slot_ids = ids
        self._positions, self._scanned = None, False  # document id → slot, made on demand
        self.alive = np.ones(len(ids), bool)
        self.slot_len = lens.astype(np.float64)
        self.tie = (np.arange(len(ids), dtype=np.int64) if tie is None
                    else np.asarray(tie, np.int64))
        if self.tie.size != len(ids):
            raise ValueError("order_keys must give one key per document")

    # ------------------------------------------------------------------ changes
    def add_tokens(self, ids: Sequence[str], tokens: Sequence[Sequence[str]],
                   tie: Sequence[int]) -> bool:
        """Append documents as new slots in the delta segment; True when that compacted."""
        first = len(self.slot_ids)
        blocks, lens = self._count(tokens, first)
        self.slot_ids.extend(ids)
        if self._positions is not None:
            self._positions.update(zip(ids, range(first, first + len(ids)), strict=True))
        self.alive = np.concatenate([self.alive, np.ones(len(ids), bool)])
        self.slot_len = np.concatenate([self.slot_len, lens.astype(np.float64)])
        self.tie = np.concatenate([self.tie, np.asarray(tie, np.int64)])
        self.df = _grow_counts(self.df, len(self.vocab))
        for terms, _, _ in blocks:
            self.df += np.bincount(terms, minlength=len(self.vocab))
        self._delta_blocks.extend(blocks)
        self.main = Postings(_grow(self.main.ptr, len(self.vocab)), self.main.docs,
                             self.main.tf)
        self.delta = _scatter(list(self._delta_blocks), len(self.vocab))
        if self.delta.docs.size > max(MERGE_MIN_POSTINGS, self.main.docs.size // 8):
            self.compact()
            return True
        return False

    def remove_slots(self, slots: np.ndarray) -> None:
        """Mark slots removed and take their terms out of the document frequencies."""
        slots = slots[self.alive[slots]]
        if not slots.size:
            return
        self.alive[slots] = False
        if self._positions is not None:
            for i in slots.tolist():
                del self._positions[self.slot_ids[i]]
        for seg in (self.main, self.delta):
            if seg is None or not seg.docs.size:
                continue
            hit = np.flatnonzero(np.isin(seg.docs, slots))
            terms = np.searchsorted(seg.ptr, hit, side="right") - 1
            self.df -= np.bincount(terms, minlength=self.df.size)

    def compact(self) -> np.ndarray:
        """Merge the delta, drop removed slots; return old slot → new slot (-1 if removed)."""
        remap = np.full(len(self.slot_ids), -1, np.int64)
        keep = np.flatnonzero(self.alive)
        keep = keep[np.argsort(self.tie[keep], kind="stable")]  # slots follow the tie keys
        in_order = bool((np.diff(keep) > 0).all())
        remap[keep] = np.arange(keep.size)
        n_terms = len(self.vocab)
        blocks = [_segment_triples(self.main, n_terms, remap)]
        if self.delta is not None:
            blocks.append(_segment_triples(self.delta, n_terms, remap))
        merged = _merge_sorted(blocks, resort=not in_order)
        self.main = _scatter([merged], n_terms)
        self.slot_ids = [self.slot_ids[i] for i in keep.tolist()]
        self._set_slots(self.slot_ids, self.slot_len[keep], self.tie[keep])
        self.n_main, self.delta, self._delta_blocks = keep.size, None, []
        return remap

    # ------------------------------------------------------------------ reading
    def positions(self) -> dict[str, int]:
        """Document id → slot of the live documents (made when first needed, kept in step)."""
        if self._positions is None:
            where = dict(zip(self.slot_ids, range(len(self.slot_ids)), strict=True))
            if len(where) != len(self.slot_ids):
                raise ValueError("doc_ids must be unique")
            for i in np.flatnonzero(~self.alive).tolist():  # removed: no position
                del where[self.slot_ids[i]]
            self._positions = where
        return self._positions

    def slots_of(self, ids: set[str]) -> dict[str, int]:
        """The live slots of these ids: the first time by a scan, then from the map."""
        if self._positions is None and not self._scanned:
            self._scanned = True  # a new process's first change: no map made for it
            alive = self.alive.tolist()
            return {d: i for i, d in enumerate(self.slot_ids) if d in ids and alive[i]}
        where = self.positions()
        return {d: where[d] for d in ids if d in where}

    def segments(self) -> list[Postings]:
        """The main segment, then the delta segment when there is one."""
        return [self.main] if self.delta is None else [self.main, self.delta]

    @property
    def clean(self) -> bool:
        """No delta segment and no removed slot: slots are positions 0..n-1."""
        return self.delta is None and bool(self.alive.all())


def _grow_counts(df: np.ndarray, n_terms: int) -> np.ndarray:
    return df if df.size >= n_terms else np.concatenate([df, np.zeros(n_terms - df.size,
                                                                      np.int64)])


def _segment_triples(seg: Postings, n_terms: int,
                     remap: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(term, new slot, tf) of a segment's live postings, sorted by term then slot."""
    ptr = _grow(seg.ptr, n_terms)
    terms = np.repeat(np.arange(n_terms, dtype=np.int32), np.diff(ptr))
    slots = remap[seg.docs]
    live = slots >= 0
    return terms[live], slots[live].astype(np.int32), seg.tf[live].astype(np.int32)


def _merge_sorted(blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                  resort: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One (term, slot, tf) list sorted by term then slot.

    Each block is sorted by term; by slot inside a term too unless ``resort``.
    """
    if len(blocks) == 1 and not resort:
        return blocks[0]
    terms = np.concatenate([b[0] for b in blocks])
    slots = np.concatenate([b[1] for b in blocks])
    order = np.lexsort((slots, terms))
    return terms[order], slots[order], np.concatenate([b[2] for b in blocks])[order]
