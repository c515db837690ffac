"""Records: facts and chunks with their lineage, and the labels they carry.

Construction validates what every layer relies on: a fact or chunk always carries a
non-empty source document and locator (the *always cite* invariant), so a record
without lineage cannot exist in memory either.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

from ragspine_nb.errors import InvalidRecordError, LineageError

__all__ = [
    "Fact",
    "Chunk",
    "StoredChunk",
    "Source",
    "PERIOD_TYPES",
    "CHANGE_PCT_CHANNEL",
    "CHANGE_CHANNEL",
    "is_stated_change",
    "RESTRICTED",
    "DEFAULT_SENSITIVITY",
    "is_blank",
    "is_restricted",
    "RESTRICTED_MENTIONS",
]

#: Period types of the fact store. FY 2024 and HY 2024H1 are different facts.
PERIOD_TYPES: tuple[str, ...] = ("FY", "HY", "QUARTER")
#: The channel of a percentage change *stated by the source* (e.g. a "% change" column),
#: filed under the later period. The agent answers a percentage-change question from it
#: before computing one from two levels.
CHANGE_PCT_CHANNEL = "CHANGE_PCT"
#: The channel of a change *stated by the source* in the unit of its rows (a "Change"
#: column), filed under the later period.
CHANGE_CHANNEL = "CHANGE"


def is_stated_change(channel: str) -> bool:
    """Whether a channel holds a change the source states, not a level.

    :data:`CHANGE_CHANNEL` (in the rows' unit) or :data:`CHANGE_PCT_CHANNEL` (in percent).

    >>> is_stated_change("CHANGE_PCT"), is_stated_change("CHANGE"), is_stated_change("TOTAL")
    (True, True, False)
    """
    return channel.startswith(CHANGE_CHANNEL)


#: The sensitivity label that must never reach a prompt.
RESTRICTED = "RESTRICTED"
#: Sensitivity of a chunk when nothing else is known.
DEFAULT_SENSITIVITY = "INTERNAL"


def is_blank(value: object) -> bool:
    """Return True for ``None``, non-strings and strings that are empty after ``strip()``."""
    return not isinstance(value, str) or not value.strip()


#: A label mentioning one of these (folded) means RESTRICTED, whatever else it says.
RESTRICTED_MENTIONS: tuple[str, ...] = ("restricted", "board", "secret", "机密", "绝密", "秘密",
                                        "董事会", "受限")


def is_restricted(label: object) -> bool:
    r"""Return True when a sensitivity label means RESTRICTED, in any spelling.

    This is the final guard of retrieval, prompts and answers, so it fails closed:
    case, whitespace, punctuation and invisible format characters are ignored
    (``" restricted\\u200b"``), a label that mentions restricted, board or secret
    (``"Restricted - Board only"``, ``"UNRESTRICTED"``, :data:`RESTRICTED_MENTIONS`) is
    RESTRICTED, and so is a qualified confidential (``"Strictly confidential"``); plain
    ``CONFIDENTIAL``, ``INTERNAL`` and ``PUBLIC`` are not.
    """
    if not isinstance(label, str):
        return False
    folded = unicodedata.normalize("NFKC", label).casefold()
    kept = "".join(c for c in folded if unicodedata.category(c)[0] not in ("C", "Z", "P"))
    if any(word in kept for word in RESTRICTED_MENTIONS):
        return True
    return any(word in kept for word in ("confidential", "保密")) and kept != "confidential"


def _require_text(record: str, name: str, value: object, *, lineage: bool = False) -> None:
    if is_blank(value):
        error = LineageError if lineage else InvalidRecordError
        raise error(f"{record}.{name} must be a non-empty string, got {value!r}")


def _no_nul(record: str, obj: object) -> None:
    """SQLite truncates text at NUL; refuse it rather than store something else."""
    for name, value in vars(obj).items():
        if isinstance(value, str) and "\x00" in value:
            raise InvalidRecordError(f"{record}.{name} contains a NUL character: {value!r}")


@dataclass(frozen=True)
class Source:
    """Where a fact or chunk came from: a document id and a locator inside it."""

    doc: str
    locator: str

    def __post_init__(self) -> None:
        _require_text("Source", "doc", self.doc, lineage=True)
        _require_text("Source", "locator", self.locator, lineage=True)

    def to_dict(self) -> dict[str, str]:
        """Return ``{"doc": ..., "locator": ...}``."""
        return {"doc": self.doc, "locator": self.locator}


@dataclass(frozen=True)
class Fact:
    """One numeric fact with its lineage.

    The first ten fields are positional (the seed's shape); version lineage is
    optional and keyword-friendly.

    Parameters
    ----------
    metric_code, entity, geography, channel : str
        Controlled codes (e.g. ``"REVENUE"``, ``"ACME_HK"``, ``"HK"``, ``"TOTAL"``).
    period_type : str
        One of :data:`PERIOD_TYPES`.
    period : str
        ``"2024"`` for FY, ``"2024H1"`` for HY, ``"2025Q1"`` for QUARTER.
    value : float
        The number, finite.
    unit : str
        E.g. ``"USD_M"`` or ``"PCT"``.
    source_doc_id, source_locator : str
        Lineage; both must be non-empty.
    source_file_hash, extractor_version, mapping_version, valid_as_of, ingested_at : str
        Optional version lineage.
    """

    metric_code: str
    entity: str
    geography: str
    channel: str
    period_type: str
    period: str
    value: float
    unit: str
    source_doc_id: str
    source_locator: str
    source_file_hash: str = ""
    extractor_version: str = ""
    mapping_version: str = ""
    valid_as_of: str = ""
    ingested_at: str = ""

    def __post_init__(self) -> None:
        for name in ("metric_code", "entity", "geography", "channel", "period", "unit"):
            _require_text("Fact", name, getattr(self, name))
        for name in ("source_doc_id", "source_locator"):
            _require_text("Fact", name, getattr(self, name), lineage=True)
        if self.period_type not in PERIOD_TYPES:
            raise InvalidRecordError(
                f"Fact.period_type {self.period_type!r} is not valid. "
                f"Valid period types: {list(PERIOD_TYPES)}"
            )
        value = self.value
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        if not numeric or not math.isfinite(value):
            raise InvalidRecordError(f"Fact.value must be a finite number, got {value!r}")
        object.__setattr__(self, "value", float(value))
        for name in (
            "source_file_hash", "extractor_version", "mapping_version", "valid_as_of",
            "ingested_at",
        ):
            if not isinstance(getattr(self, name), str):
                raise InvalidRecordError(f"Fact.{name} must be a string")
        _no_nul("Fact", self)

    @property
    def source(self) -> Source:
        """The fact's :class:`Source`."""
        return Source(self.source_doc_id, self.source_locator)

    @property
    def identity(self) -> tuple[str, str, str, str, str]:
        """What the fact states a value of: metric, entity, channel, period type, period.

        The fact store's key: two facts of one identity state the same thing.
        """
        return (self.metric_code, self.entity, self.channel, self.period_type, self.period)

    def to_dict(self) -> dict[str, Any]:
        """Return every field as a plain dict."""
        return asdict(self)


@dataclass(frozen=True, kw_only=True)
class Chunk:
    """A narrative passage with its metadata and locator.

    ``text`` is a contiguous substring of the source document's extracted text and
    ``source_locator`` says where it is (``slide=4``, ``page=7``, ``para=12-14``).
    """

    doc_id: str
    chunk_id: str
    seq: int
    text: str
    title: str = ""
    topic: str = ""
    entity: str = ""
    geography: str = ""
    period: str = ""
    language: str = ""
    sensitivity: str = DEFAULT_SENSITIVITY
    source_locator: str

    def __post_init__(self) -> None:
        _require_text("Chunk", "doc_id", self.doc_id, lineage=True)
        _require_text("Chunk", "source_locator", self.source_locator, lineage=True)
        _require_text("Chunk", "chunk_id", self.chunk_id)
        _require_text("Chunk", "text", self.text)
        _require_text("Chunk", "sensitivity", self.sensitivity)
        if isinstance(self.seq, bool) or not isinstance(self.seq, int) or self.seq < 0:
            raise InvalidRecordError(f"Chunk.seq must be an int >= 0, got {self.seq!r}")
        for name in ("title", "topic", "entity", "geography", "period", "language"):
            if not isinstance(getattr(self, name), str):
                raise InvalidRecordError(f"Chunk.{name} must be a string")
        _no_nul(type(self).__name__, self)

    @property
    def restricted(self) -> bool:
        """Whether this chunk is RESTRICTED (any spelling of the label)."""
        return is_restricted(self.sensitivity)

    @property
    def source(self) -> Source:
        """The chunk's :class:`Source`."""
        return Source(self.doc_id, self.source_locator)

    def to_dict(self) -> dict[str, Any]:
        """Return every field as a plain dict."""
        return asdict(self)


@dataclass(frozen=True, kw_only=True)
class StoredChunk(Chunk):
    """A :class:`Chunk` as stored: plus ingestion metadata and its version."""

    valid_as_of: str = ""
    ingested_at: str = ""
    version: int = 1
    active: bool = True
