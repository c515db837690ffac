"""Lists of strings saved as bytes, and a term table searched in them without a dict.

A saved BM25 index holds its vocabulary (a quarter of a million terms at 100k chunks)
as one packed byte string. Building a ``dict`` of it costs a new process more than a
search; :class:`SavedTerms` answers a query's few look-ups by binary search over the
terms in byte order (saved beside them), remembers the terms it was asked for, and
takes new terms (a document added) in a small dict after the saved ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["SEP", "pack_strings", "unpack_strings", "byte_order", "SavedTerms"]

SEP = "\x1f"  # the unit separator: in no chunk id, path or token
_SEP_BYTE = 0x1F
#: terms remembered (found or not) before the memory of looked-up terms starts again
_MAX_SEEN = 200_000


def pack_strings(strings: Sequence[str | None]) -> np.ndarray:
    """A list of strings as bytes: their count, then the strings with a unit separator between.

    A list holding ``None`` or the separator itself is written as JSON instead.

    >>> [unpack_strings(pack_strings(x)) for x in (["a", ""], [], [""], ["x", None])]
    [['a', ''], [], [''], ['x', None]]
    """
    if all(s is not None and SEP not in s for s in strings):
        text = f"L{len(strings)}:" + SEP.join(s for s in strings if s is not None)
    else:
        text = "J" + json.dumps(list(strings))
    return np.frombuffer(text.encode(), np.uint8)


def unpack_strings(packed: np.ndarray) -> list[Any]:
    """The list :func:`pack_strings` wrote."""
    text = packed.tobytes().decode()
    if text[:1] == "J":
        return list(json.loads(text[1:]))
    count, _, body = text[1:].partition(":")
    out = body.split(SEP) if int(count) else []
    if len(out) != int(count):
        raise ValueError(f"a packed list of {count} strings holds {len(out)}")
    return out


def byte_order(terms: Sequence[str]) -> np.ndarray:
    """The positions of ``terms`` sorted by their UTF-8 bytes (what :class:`SavedTerms` reads).

    >>> byte_order(["b", "a", "é", "ab"]).tolist()
    [1, 3, 0, 2]
    """
    encoded = [t.encode() for t in terms]
    return np.asarray(sorted(range(len(terms)), key=encoded.__getitem__), np.int32)


class SavedTerms(Mapping[str, int]):
    """Term → id over a packed list (ids are positions), searched in byte order.

    New terms (:meth:`setdefault`) take the ids after the saved ones.

    Parameters
    ----------
    packed : numpy.ndarray
        What :func:`pack_strings` wrote for the terms in id order (no JSON form).
    order : numpy.ndarray
        :func:`byte_order` of the same terms.

    Examples
    --------
    >>> terms = ["revenue", "香港", "fell", ""]
    >>> t = SavedTerms(pack_strings(terms), byte_order(terms))
    >>> t.get("香港"), t.get("fell"), t.get(""), t.get("rose", -1), len(t), list(t) == terms
    (1, 2, 3, -1, 4, True)
    >>> t.setdefault("rose", len(t)), t.setdefault("fell", len(t)), t.terms()[-1], len(t)
    (4, 2, 'rose', 5)
    """

    def __init__(self, packed: np.ndarray, order: np.ndarray) -> None:
        raw = packed.tobytes()
        head, colon, _ = raw[:24].partition(b":")
        if not head.startswith(b"L") or not colon:
            raise ValueError("a term list must be packed without JSON")
        self._n = int(head[1:])
        self._blob = raw[len(head) + 1:]
        seps = np.flatnonzero(np.frombuffer(self._blob, np.uint8) == _SEP_BYTE)
        if seps.size != max(self._n - 1, 0) or order.size != self._n:
            raise ValueError(f"a packed list of {self._n} terms holds {seps.size + 1} "
                             f"({order.size} in byte order)")
        self._starts = np.concatenate([[0], seps + 1]).astype(np.int64)
        self._ends = np.concatenate([seps, [len(self._blob)]]).astype(np.int64)
        self._order = np.asarray(order, np.int64)
        #: saved terms looked up (-1: absent): a repeat is a dict hit
        self._seen: dict[str, int] = {}
        #: terms added after the saved ones (ids from ``n`` on)
        self._new: dict[str, int] = {}

    def _term(self, tid: int) -> bytes:
        return self._blob[self._starts[tid]:self._ends[tid]]

    def get(self, term: str, default: Any = None) -> Any:
        """The term's id (``default`` when it is not in the list)."""
        seen = self._seen.get(term)
        if seen is None:
            seen = self._new.get(term)
            if seen is not None:
                return seen
            if len(self._seen) > _MAX_SEEN:  # a long session's queries: start again
                self._seen = {}
            tid = self._search(term)
            seen = self._seen[term] = -1 if tid is None else tid
        return default if seen < 0 else seen

    def setdefault(self, term: str, default: int) -> int:
        """The term's id; a new term is added with id ``default`` (``len(self)``)."""
        tid = self.get(term)
        if tid is None:
            if default != len(self):
                raise ValueError(f"a new term takes id {len(self)}, not {default}")
            self._seen.pop(term, None)  # no longer absent
            tid = self._new[term] = default
        return int(tid)

    def _search(self, term: str) -> int | None:
        key, lo, hi = term.encode(), 0, self._n
        while lo < hi:
            mid = (lo + hi) // 2
            if self._term(int(self._order[mid])) < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < self._n and self._term(tid := int(self._order[lo])) == key:
            return tid
        return None

    def __getitem__(self, term: str) -> int:
        tid = self.get(term)
        if tid is None:
            raise KeyError(term)
        return int(tid)

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and self.get(term) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.terms())

    def __len__(self) -> int:
        return self._n + len(self._new)

    def terms(self) -> list[str]:
        """Every term in id order."""
        return (self._blob.decode().split(SEP) if self._n else []) + list(self._new)
