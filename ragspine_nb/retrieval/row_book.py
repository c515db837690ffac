"""Which store rows an index holds: row id → (doc_id, chunk_id), found by document.

A saved index brings its rows as lists in row-id order: the chunk ids, and each row's
document as a number into the list of document names. A new process catching up with
a few changed documents needs a handful of rows, so :class:`RowBook` keeps those
arrays as they were read (a document's rows are one vectorised comparison away), marks
the saved rows that leave, and keeps the rows that come in a small dict grouped by
document. No map of every row is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["RowBook", "doc_codes"]


def doc_codes(docs: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Each row's document as a number into the list of distinct names (first seen first).

    >>> names, codes = doc_codes(["a.md", "b.md", "a.md"])
    >>> names, codes.tolist()
    (['a.md', 'b.md'], [0, 1, 0])
    """
    number: dict[str, int] = {}
    codes = [number.setdefault(d, len(number)) for d in docs]
    return list(number), np.asarray(codes, np.int32)


class RowBook:
    """The rows an index holds.

    Examples
    --------
    >>> book = RowBook()
    >>> book.load([3, 5, 9], ["a.md", "b.md"], [0, 0, 1], ["a#0", "a#1", "b#0"])
    >>> book.track([(12, "c.md", "c#0")])
    >>> book.untrack([5, 12]), sorted(book.rows_of({"a.md", "c.md"})), len(book)
    ([('a.md', 'a#1'), ('c.md', 'c#0')], [3], 2)
    >>> sorted(book.rows()), book.docs_of([9, 3]), book.digest()
    ([3, 9], ['b.md', 'a.md'], (2, 12))
    """

    def __init__(self) -> None:
        self.load([], [], [], [])

    def load(self, keys: Sequence[int] | np.ndarray, names: Sequence[str],
             codes: Sequence[int] | np.ndarray, ids: Sequence[str]) -> None:
        """Start from an index's rows (``keys`` ascending), forgetting everything.

        ``names[codes[i]]`` is the document of row ``keys[i]``, whose chunk is ``ids[i]``.
        """
        if not len(keys) == len(codes) == len(ids):
            raise ValueError(f"{len(keys)} rows, {len(codes)} documents, {len(ids)} chunk ids")
        self._keys = np.asarray(keys, np.int64)
        self._codes = np.asarray(codes, np.int32)
        if self._codes.size and not 0 <= int(self._codes.min()) <= int(self._codes.max()) \
                < len(names):
            raise ValueError(f"a row's document number is not one of {len(names)} names")
        self._names, self._ids = names, ids
        self._code_of: dict[str, int] | None = None  # name → number, made when first needed
        self._gone: set[int] = set()  # loaded rows that left
        self._added: dict[int, tuple[str, str]] = {}
        self._added_by_doc: dict[str, set[int]] = {}

    def position(self, row: int) -> int | None:
        """Where a loaded row still held sits in the lists :meth:`load` was given."""
        i = int(np.searchsorted(self._keys, row))
        hit = i < self._keys.size and int(self._keys[i]) == row and row not in self._gone
        return i if hit else None

    def docs_of(self, rows: Sequence[int]) -> list[str]:
        """Each row's doc_id (``KeyError`` when the index does not hold one)."""
        keys, at = self._keys.tolist(), np.searchsorted(self._keys, rows).tolist()
        codes, out = self._codes.tolist(), []
        for row, i in zip(rows, at, strict=True):
            if row in self._added:
                out.append(self._added[row][0])
            elif i < len(keys) and keys[i] == row and row not in self._gone:
                out.append(self._names[codes[i]])
            else:
                raise KeyError(row)
        return out

    def track(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """Rows the index now holds: ``(row id, doc_id, chunk_id)``."""
        for row, doc, cid in rows:
            self._added[row] = (doc, cid)
            self._added_by_doc.setdefault(doc, set()).add(row)

    def untrack(self, rows: Iterable[int]) -> list[tuple[str, str]]:
        """Rows that left the index; their ``(doc_id, chunk_id)`` (``KeyError`` if unknown)."""
        out = []
        for row in rows:
            found = self._added.pop(row, None)
            if found is not None:
                members = self._added_by_doc[found[0]]
                members.discard(row)
                if not members:
                    del self._added_by_doc[found[0]]
            else:
                i = self.position(row)
                if i is None:
                    raise KeyError(row)
                self._gone.add(row)
                found = (self._names[int(self._codes[i])], self._ids[i])
            out.append(found)
        return out

    def rows(self) -> set[int]:
        """Every row id the index holds."""
        return (set(self._keys.tolist()) - self._gone) | self._added.keys()

    def rows_of(self, docs: set[str]) -> set[int]:
        """The row ids of these documents (one comparison over the loaded rows)."""
        if self._code_of is None:
            self._code_of = {n: i for i, n in enumerate(self._names)}
        wanted = [self._code_of[d] for d in docs if d in self._code_of]
        loaded = set(self._keys[np.isin(self._codes, wanted)].tolist()) - self._gone \
            if wanted else set()
        return loaded.union(*(self._added_by_doc.get(d, ()) for d in docs))

    def digest(self) -> tuple[int, int]:
        """How many rows the index holds, and the sum of their ids."""
        loaded = int(self._keys.sum()) - sum(self._gone)
        return len(self), loaded + sum(self._added)

    def __len__(self) -> int:
        return self._keys.size - len(self._gone) + len(self._added)
