"""Named numpy arrays and a JSON header in one file, read back memory-mapped.

A saved BM25 index is tens of megabytes of postings of which a search reads a few
terms' worth. ``numpy.load`` of an ``.npz`` reads (and checksums) every byte before the
first search; this file maps them instead, so a new process pays for the pages a query
touches. Layout: :data:`MAGIC`, the header's length (8 bytes, little-endian), the header
(JSON: ``meta`` and each array's dtype, shape and offset), then each array's bytes at a
64-byte boundary. Sizes are checked against the file when read: a truncated file is an
error, never a short array.
"""

from __future__ import annotations

import json
import mmap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["MAGIC", "save_arrays", "load_arrays"]

MAGIC = b"RAGSPINE-ARRAYS1"
_ALIGN = 64


def _padded(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def save_arrays(path: str | Path, meta: Mapping[str, Any],
                arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` (C order, little-endian as stored) and ``meta`` to ``path``.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.bin")
    >>> save_arrays(p, {"format": 3}, {"x": np.arange(3), "e": np.zeros(0, np.int32)})
    >>> meta, got = load_arrays(p)
    >>> meta, got["x"].tolist(), got["e"].shape
    ({'format': 3}, [0, 1, 2], (0,))
    """
    plain = {k: np.ascontiguousarray(a) for k, a in arrays.items()}
    layout: dict[str, Any] = {}
    offset = 0
    for name, a in plain.items():
        layout[name] = {"dtype": a.dtype.newbyteorder("<").str, "shape": list(a.shape),
                        "offset": offset}
        offset = _padded(offset + a.nbytes)
    header = json.dumps({"meta": dict(meta), "arrays": layout}).encode()
    start = _padded(len(MAGIC) + 8 + len(header))
    with open(path, "wb") as f:
        f.write(MAGIC + len(header).to_bytes(8, "little") + header)
        for name, a in plain.items():
            f.seek(start + layout[name]["offset"])
            f.write(a.astype(layout[name]["dtype"], copy=False).data)  # no copy when stored as is
        f.truncate(start + offset)


def load_arrays(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The ``meta`` and read-only arrays :func:`save_arrays` wrote (``ValueError`` if bad)."""
    with open(path, "rb") as f:
        if f.read(len(MAGIC)) != MAGIC:
            raise ValueError(f"{path} is not an array file")
        size = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(size).decode())
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    start = _padded(len(MAGIC) + 8 + size)
    out: dict[str, np.ndarray] = {}
    for name, spec in header["arrays"].items():
        dtype, shape = np.dtype(spec["dtype"]), tuple(int(n) for n in spec["shape"])
        count = int(np.prod(shape, dtype=np.int64))
        at = start + int(spec["offset"])
        if at + count * dtype.itemsize > len(mapped):
            raise ValueError(f"{path} is truncated: array {name!r} runs past its end")
        out[name] = np.frombuffer(mapped, dtype, count, at).reshape(shape)
    return dict(header["meta"]), out
