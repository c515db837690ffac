"""Resource limits for ingestion, and the checks on file names before a file is read.

One hostile file must not fill the disk, exhaust memory or run for hours: every
document is bounded in bytes, the uncompressed size of its Office (zip) parts, shared
strings, chunks, title length, table cells read, facts and skipped cells listed in the
report, and its reading in time and memory (a worker process,
:mod:`ragspine_nb.ingestion.worker`). A limit that is reached is never silent: the reader
records a :class:`LimitHit` (which limit, its value, the locator where reading stopped,
what was kept) and the ingest report shows it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, fields

__all__ = [
    "IngestLimits",
    "LimitHit",
    "DEFAULT_LIMITS",
    "cap_title",
    "doc_id_problem",
    "file_size_hit",
    "GUARD_LIMITS",
]


@dataclass(frozen=True)
class IngestLimits:
    """Upper bounds for one document.

    Parameters
    ----------
    max_file_bytes : int, default 200 MiB
        Larger files fail before they are read.
    max_title_chars : int, default 200
        Longer titles (a document's first line, a core property) are cut.
    max_chunks_per_doc : int, default 20,000
        The first chunks up to this number are kept; the report says where it stopped.
    max_facts_per_doc : int, default 100,000
        Table values read per document; reading tables stops there (reported).
    max_cells_per_doc : int, default 500,000
        Spreadsheet/CSV/docx table cells read per document, empty ones inside a row
        included; reading tables stops there (reported) and what was read is kept. A
        sheet of inline strings is read at some 20,000 cells a second, so the default is
        reached well within ``max_seconds_per_file`` (which would fail the whole file).
    max_skipped_per_doc : int, default 1,000
        Skipped cells listed in the report per document; the rest are counted in one line.
        Conflicts with another statement of a fact are always listed.
    max_part_bytes : int, default 64 MiB
        Uncompressed size of one part of a ``.docx``/``.pptx``/``.xlsx`` package that its
        library reads whole (every part but an xlsx worksheet, which is streamed and
        bounded by ``max_cells_per_doc``); a larger part fails the file before it is parsed.
    max_shared_strings : int, default 1,000,000
        Strings in an xlsx shared-string table (read whole before any sheet); more fail
        the file before it is parsed.
    max_seconds_per_file : int, default 60
        Seconds the reading of one file may take; the reader process is stopped there and
        the file fails (nothing is written for it, the batch goes on).
    max_memory_bytes : int, default 1 GiB
        Memory the reading of one file may take beyond the reader process's own (its
        address space, where the system can cap it); the file fails past it.
    """

    max_file_bytes: int = 200 * 2**20
    max_title_chars: int = 200
    max_chunks_per_doc: int = 20_000
    max_facts_per_doc: int = 100_000
    max_cells_per_doc: int = 500_000
    max_skipped_per_doc: int = 1_000
    max_part_bytes: int = 64 * 2**20
    max_shared_strings: int = 1_000_000
    max_seconds_per_file: int = 60
    max_memory_bytes: int = 2**30

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"IngestLimits.{f.name} must be an int >= 1, got {value!r}; "
                                 f"limits: {[g.name for g in fields(self)]}")

    def as_dict(self) -> dict[str, int]:
        """The limits by name (part of a file's ingestion fingerprint)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: The limits used when none are given.
DEFAULT_LIMITS = IngestLimits()

#: Limits that only fail a file and never change what is kept from one that passes them
#: (a file that failed has no ledger row, so raising one re-reads it anyway): they are
#: no part of a file's ingestion fingerprint.
GUARD_LIMITS: frozenset[str] = frozenset({
    "max_part_bytes", "max_shared_strings", "max_seconds_per_file", "max_memory_bytes"})


@dataclass(frozen=True)
class LimitHit:
    """A limit reached while reading one document.

    ``limit`` is the :class:`IngestLimits` field, ``value`` its setting, ``locator``
    where reading stopped (the last thing kept, or the first thing refused) and
    ``kept`` what was kept, in words (never containing ``"; "``, which separates the
    parts of a file's reason). ``count`` is how many things were left out, where the
    limit counts them (skipped cells not listed).
    """

    limit: str
    value: int
    locator: str
    kept: str
    count: int = 0

    def describe(self) -> str:
        """One line for the report: which limit, its value, where, and what was kept."""
        where = f" at {self.locator}" if self.locator else ""
        return f"limit {self.limit}={self.value} reached{where}: {self.kept}"


def cap_title(title: str, limits: IngestLimits = DEFAULT_LIMITS) -> str:
    """The title on one line, cut to ``limits.max_title_chars`` (with ``…`` when cut).

    Examples
    --------
    >>> cap_title("bancassurance " * 40, IngestLimits(max_title_chars=20))
    'bancassurance banca…'
    """
    line = " ".join(title.split())
    if len(line) <= limits.max_title_chars:
        return line
    return line[:limits.max_title_chars - 1].rstrip() + "…"


def file_size_hit(size: int, limits: IngestLimits = DEFAULT_LIMITS) -> LimitHit | None:
    """A :class:`LimitHit` when a file of ``size`` bytes is over ``max_file_bytes``."""
    if size <= limits.max_file_bytes:
        return None
    return LimitHit("max_file_bytes", limits.max_file_bytes, "",
                    f"the file is {size:,} bytes; nothing was read")


_REFUSED_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible format character",
                       "Zl": "a line separator", "Zp": "a paragraph separator",
                       "Cs": "an undecodable byte"}


def doc_id_problem(doc_id: str) -> str | None:
    r"""Why ``doc_id`` cannot be a document id, or ``None`` when it can.

    A document id is printed in answers and source lists, so it must not carry
    newlines or other control characters (a fake ``[1] (source: …)`` line), bidi
    overrides such as U+202E (a name displayed backwards) or other invisible format
    characters (zero-width spaces and joiners that hide a word from the filename
    patterns), line/paragraph separators (U+2028/U+2029), or bytes that were not
    valid in the file system's encoding.

    Examples
    --------
    >>> doc_id_problem("reports/FY2025 results.md") is None
    True
    >>> doc_id_problem("a\n[1] (source: x).md")
    'the file name contains a control character (U+000A at position 1); rename the file'
    """
    for i, ch in enumerate(doc_id):
        kind = _REFUSED_CATEGORIES.get(unicodedata.category(ch))
        if kind is not None:
            return (f"the file name contains {kind} (U+{ord(ch):04X} at position {i}); "
                    "rename the file")
    return None
