"""A BM25 index kept in step with a SQLite chunk store: changes applied, never rebuilt.

Every search asks the store whether anything committed since the last look (a cheap
token: this connection's change count and ``PRAGMA data_version``). When something
did, the active rows are compared by SQLite row id — a row's content never changes
once written, only its ``active`` flag — and only the difference is applied: removed
chunks leave the index, new ones are tokenized and added. Ties rank by row id, the
order of a fresh build, so rankings equal a full rebuild's.

The index is saved beside the database (``chunks.db.bm25``) after a full build, so
a new process reads it instead of tokenizing everything again, then applies whatever
changed since it was saved.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from ragspine_nb.core import StoredChunk
from ragspine_nb.retrieval.array_file import load_arrays, save_arrays
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.headers import HEADER_VERSION, HeaderBook
from ragspine_nb.retrieval.headers import indexed_text as _with_header
from ragspine_nb.retrieval.packed import SavedTerms, byte_order, pack_strings, unpack_strings
from ragspine_nb.retrieval.row_book import RowBook, doc_codes
from ragspine_nb.retrieval.tokenize import Tokenizer, tokenize
from ragspine_nb.stores.chunks import ChunkStore

__all__ = ["LiveBM25", "ChunkTable", "index_file_for", "indexed_text"]

log = logging.getLogger(__name__)
FORMAT = 3  # 2: string lists packed apart from the JSON meta, the store's stamp;
# 3: one mapped array file; the vocabulary's byte order (binary search, no dict); each
# row's document as a number into the list of names
SAVE_AFTER_CHANGES = 1000  # rows applied on top of a loaded file before it is saved again


def _package_version() -> str:
    """The package version and a digest of the tokenizer's source.

    A saved index written by another version, or by a changed tokenizer, is built again.
    """
    try:
        release = version("ragspine_nb")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        release = "unknown"
    source = Path(inspect.getsourcefile(tokenize) or "").read_bytes()
    return f"{release}+{hashlib.sha256(source).hexdigest()[:16]}"


def indexed_text(chunk: StoredChunk, with_title: bool, header: str = "") -> str:
    """What BM25 indexes for a chunk: title line (when asked), header line, then its text.

    The header (:mod:`~ragspine_nb.retrieval.headers`) names its company, year and section.
    """
    return _with_header(chunk, with_title, header)


def index_file_for(store: ChunkStore) -> Path | None:
    """Where a file-backed store's BM25 index is saved (``None`` in memory)."""
    if store.path == ":memory:":
        return None
    path = Path(store.path)
    return path.with_name(path.name + ".bm25")


class ChunkTable(Mapping[str, StoredChunk]):
    """The active chunks by id, read from the store when first asked for (then kept).

    Membership and length come from the row map the index keeps, so a search never
    reads the chunk table for them; a chunk's row is read once, when it is a hit.
    """

    def __init__(self, store: ChunkStore) -> None:
        self._store = store
        self.rowid_of: dict[str, int] = {}
        self._kept: dict[str, StoredChunk] = {}

    def prefetch(self, chunk_ids: Iterable[str]) -> None:
        """Read the rows of ``chunk_ids`` not read yet, in one go."""
        todo = [self.rowid_of[c] for c in chunk_ids
                if c in self.rowid_of and c not in self._kept]
        if todo:
            self.keep(self._store.chunks_by_rowid(todo))

    def keep(self, rows: Iterable[tuple[int, StoredChunk]]) -> None:
        """Remember chunks already read."""
        self._kept.update((c.chunk_id, c) for _, c in rows)

    def drop(self, chunk_id: str) -> None:
        """Forget a chunk that left the index."""
        self.rowid_of.pop(chunk_id, None)
        self._kept.pop(chunk_id, None)

    def __getitem__(self, chunk_id: str) -> StoredChunk:
        hit = self._kept.get(chunk_id)
        if hit is None:
            if chunk_id not in self.rowid_of:
                raise KeyError(chunk_id)
            self.prefetch([chunk_id])
            hit = self._kept[chunk_id]
        return hit

    def __contains__(self, chunk_id: object) -> bool:
        return chunk_id in self.rowid_of

    def __iter__(self) -> Iterator[str]:
        return iter(self.rowid_of)

    def __len__(self) -> int:
        return len(self.rowid_of)


class LiveBM25:
    """The BM25 index and chunk table of a SQLite chunk store, synced on demand.

    Parameters
    ----------
    store : ChunkStore
        A SQLite (file or memory) chunk store.
    tokenizer : callable
        Text → tokens. Only the default tokenizer's index is saved to disk.
    index_titles : bool
        Index ``title`` + text (as a fresh build does) or the text alone.
    """

    def __init__(self, store: ChunkStore, tokenizer: Tokenizer = tokenize,
                 index_titles: bool = True) -> None:
        self.store, self.tokenizer, self.index_titles = store, tokenizer, index_titles
        self.bm25: BM25Index | None = None
        self.by_id = ChunkTable(store)
        self.rows = RowBook()  # row id → (doc_id, chunk_id) of the indexed rows
        self._ids: list[str] | None = None
        self._token: Any = None
        self._log: int | None = None  # position in the store's change log
        self._unsaved = 0
        #: each chunk's header (company, year, section), made per document as it is indexed
        self.headers = HeaderBook(store)

    @property
    def ids(self) -> list[str]:
        """The active chunk ids."""
        if self._ids is None:
            self._ids = list(self.by_id.rowid_of)
        return self._ids

    def text(self, c: StoredChunk) -> str:
        """What is indexed for a chunk (its header made beforehand: :meth:`_texts`)."""
        return indexed_text(c, self.index_titles, self.headers.get(c))

    def _texts(self, rows: list[tuple[int, StoredChunk]], whole: bool = True) -> list[str]:
        """What is indexed for each row; the headers of their documents are made first.

        ``whole``: the rows hold every active chunk of their documents (a build); else
        their documents are read from the store (a section path needs what comes before).
        """
        if whole:
            self.headers.add(c for _, c in rows)
        else:
            self.headers.add_documents({c.doc_id for _, c in rows})
        return [self.text(c) for _, c in rows]

    def sync(self) -> bool:
        """Bring the index up to date with the store; True when anything changed."""
        token = self.store.database.change_token()  # type: ignore[union-attr]
        if self.bm25 is not None and token == self._token:
            return False
        if self.bm25 is None:
            self._start()
        elif self._log is not None:
            position, docs = self.store.docs_changed_since(self._log)
            self._apply_diff(set(self.store.active_rowids(docs)), docs)
            self._log = position
        else:
            self._apply_diff(set(self.store.active_rowids()), None)
        self._token = token
        return True

    # ------------------------------------------------------------------ steps
    def _start(self) -> None:
        """First sync in this process: the saved index plus changes, else a full build."""
        self._log = self.store.change_log_position() if self.store.keep_change_log() else None
        loaded = self._load()
        if loaded is None:
            rows = self.store.chunks_by_rowid()
            self.bm25 = BM25Index.build([c.chunk_id for _, c in rows],
                                        self._texts(rows), self.tokenizer,
                                        order_keys=[r for r, _ in rows])
            keys, ids = [r for r, _ in rows], [c.chunk_id for _, c in rows]
            self.rows.load(keys, *doc_codes([c.doc_id for _, c in rows]), ids)
            self.by_id.rowid_of = dict(zip(ids, keys, strict=True))
            self.by_id.keep(rows)
            self._save()
            return
        self.bm25, self.rows, self.by_id.rowid_of, stamp = loaded
        self._ids = None
        if not self._caught_up(stamp):
            self._apply_diff(set(self.store.active_rowids()), None)  # every row compared
        if self._unsaved >= SAVE_AFTER_CHANGES:
            self._save()

    def _caught_up(self, stamp: Any) -> bool:
        """Apply the documents the change log names since the save; True when then in step.

        ``stamp`` is the saved ``[log position, count, sum]`` of the indexed row ids. In
        step means the indexed rows' count and sum equal the store's active ones (one SQL
        aggregate): a store replaced by another, or a log that was cleared, is not, and the
        caller compares every row.
        """
        if self._log is None or not isinstance(stamp, list) or len(stamp) != 3 \
                or not all(isinstance(v, int) for v in stamp) or stamp[0] > self._log:
            return False
        count, total = stamp[1], stamp[2]
        if stamp[0] < self._log:
            _, docs = self.store.docs_changed_since(stamp[0])
            removed, added = self._apply_diff(set(self.store.active_rowids(docs)), docs)
            count += len(added) - len(removed)
            total += sum(added) - sum(removed)
        return [count, total] == list(self.store.active_rowid_digest())

    def _stamp(self) -> list[int] | None:
        """The change-log position the index is in step with, and its rows' count and sum."""
        if self._log is None:
            return None
        return [self._log, *self.rows.digest()]

    def _track(self, rows: Iterable[tuple[int, str, str]]) -> None:
        triples = list(rows)
        self.rows.track(triples)
        self.by_id.rowid_of.update((cid, r) for r, _, cid in triples)
        self._ids = None

    def _saved_slot(self, chunk_id: str) -> int | None:
        """Where a chunk sits in a saved index's lists (those its rows were loaded from)."""
        row = self.by_id.rowid_of.get(chunk_id)
        return None if row is None else self.rows.position(row)

    def _untrack(self, rowids: Sequence[int]) -> list[str]:
        gone = []
        for r, (_, cid) in zip(rowids, self.rows.untrack(rowids), strict=True):
            if self.by_id.rowid_of.get(cid) == r:
                self.by_id.drop(cid)
            gone.append(cid)
        self._ids = None
        return gone

    def _apply_diff(self, now: set[int], docs: Iterable[str] | None
                    ) -> tuple[list[int], list[int]]:
        """Remove tracked rows missing from ``now`` (active row ids), add rows new in it.

        ``docs`` limits the comparison to those documents (``None``: every row). Returns
        the row ids removed and added.
        """
        assert self.bm25 is not None  # noqa: S101 - internal: called after a build
        ours = self.rows.rows() if docs is None else self.rows.rows_of(set(docs))
        removed = sorted(ours - now)
        if removed:
            gone = self._untrack(removed)
            self.bm25.remove(gone)
            self.headers.drop(gone)
        added = sorted(now - ours)
        if added:
            rows = self.store.chunks_by_rowid(added)
            self.bm25.add([c.chunk_id for _, c in rows],
                          [self.tokenizer(t) for t in self._texts(rows, whole=False)],
                          order_keys=[r for r, _ in rows])
            self._track([(r, c.doc_id, c.chunk_id) for r, c in rows])
            self.by_id.keep(rows)
        self._unsaved += len(removed) + len(added)
        return removed, added

    # ------------------------------------------------------------------ on disk
    def _meta(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": _package_version(),
                "index_titles": self.index_titles, "headers": HEADER_VERSION}

    def _file(self) -> Path | None:
        if self.tokenizer is not tokenize or self.store.read_only:
            return None  # a custom tokenizer's index cannot be checked when read back
        return index_file_for(self.store)

    def _save(self) -> None:
        path = self._file()
        if path is None or self.bm25 is None:
            return
        parts = self.bm25.parts()  # compacts first: slots follow the row ids
        ids = parts.pop("ids")
        names, parts["doc_codes"] = doc_codes(self.rows.docs_of(parts["keys"].tolist()))
        # the headers go with it: a new process reads them instead of every document's
        # chunks (a section path needs the whole document)
        vocab = parts.pop("vocab")
        parts["vocab_order"] = byte_order(vocab)
        lists = {"ids": ids, "doc_names": names, "vocab": vocab,
                 "section_headers": self.headers.known(ids)}
        meta = dict(self._meta(), stamp=self._stamp())
        tmp = path.with_name(path.name + ".tmp")
        try:
            arrays: dict[str, Any] = {**parts, **{
                f"list_{k}": pack_strings(v) for k, v in lists.items()}}
            save_arrays(tmp, meta, arrays)
            os.replace(tmp, path)
            path.with_name(path.name + ".npz").unlink(missing_ok=True)  # format 2's file
            self._unsaved = 0
        except OSError as exc:  # a read-only folder or a full disk: searching still works
            log.info("BM25 index not saved to %s: %s", path, exc)
            tmp.unlink(missing_ok=True)

    def _load(self) -> tuple[BM25Index, RowBook, dict[str, int], Any] | None:
        """The saved index, its rows, chunk id → row id, and its stamp; or None."""
        path = self._file()
        if path is None or not path.exists():
            return None
        try:
            meta, z = load_arrays(path)  # mapped: a search reads the pages it needs
            if {k: meta.get(k) for k in self._meta()} != self._meta():
                return None
            arrays = {k: z[k] for k in ("ptr", "docs", "tf", "lens", "keys")}
            packed = z["list_vocab"]  # a term holding the separator was saved as JSON
            vocab = SavedTerms(packed, z["vocab_order"]) if packed[:1].tobytes() == b"L" \
                else unpack_strings(packed)
            ids, names, headers = (unpack_strings(z[f"list_{k}"]) for k in (
                "ids", "doc_names", "section_headers"))
            index = BM25Index.from_parts(ids, vocab, self.tokenizer, **arrays)
            rows = RowBook()
            rows.load(arrays["keys"], names, z["doc_codes"], ids)  # the lists must agree
            rowid_of = dict(zip(ids, arrays["keys"].tolist(), strict=True))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.info("BM25 index at %s not used (%s): building it again", path, exc)
            return None
        self.headers.preset(ids, headers, self._saved_slot)  # slots follow the row ids
        return index, rows, rowid_of, meta.get("stamp")
