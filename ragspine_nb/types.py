"""Plain value types exchanged between layers.

Stores, retrieval, the agent, displays and evaluation exchange only these frozen
dataclasses. Construction validates what every layer relies on: a fact or chunk
always carries a non-empty source document and locator (the *always cite*
invariant), so a record without lineage cannot exist in memory either.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from ragspine_nb.errors import InvalidRecordError, LineageError

__all__ = [
    "Fact",
    "Chunk",
    "StoredChunk",
    "Source",
    "FoundResult",
    "NotFoundResult",
    "UnrecognizedParamResult",
    "ConflictResult",
    "Resolution",
    "QueryResult",
    "PERIOD_TYPES",
    "CHANGE_PCT_CHANNEL",
    "RESTRICTED",
    "DEFAULT_SENSITIVITY",
    "is_blank",
    "is_restricted",
    "RESTRICTED_MENTIONS",
    "INGEST_STATUSES",
    "SkippedItem",
    "FileReport",
    "IngestReport",
]

#: Period types of the fact store. FY 2024 and HY 2024H1 are different facts.
PERIOD_TYPES: tuple[str, ...] = ("FY", "HY", "QUARTER")
#: The channel of a percentage change *stated by the source* (e.g. a "% change" column),
#: filed under the later period. The agent answers a percentage-change question from it
#: before computing one from two levels.
CHANGE_PCT_CHANNEL = "CHANGE_PCT"
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


@dataclass(frozen=True)
class Resolution:
    """A user's recorded choice between the conflicting statements of one fact.

    ``keep_doc_id`` is the document whose statement is answered; the choice holds while
    the statements it was made among (``statements``: ``doc|value|unit`` lines) are
    unchanged.
    """

    keep_doc_id: str
    resolved_by: str
    resolved_at: str
    note: str = ""
    statements: str = ""

    def to_dict(self) -> dict[str, str]:
        """Return every field as a plain dict."""
        return asdict(self)


@dataclass(frozen=True)
class FoundResult:
    """``query_metric`` found the exact row; the value comes from the fact store.

    ``also_stated_by`` lists the other documents stating the same value;
    ``resolution`` is set when documents disagreed and a user chose this statement.
    """

    fact: Fact
    status: Literal["found"] = field(default="found", init=False)
    also_stated_by: tuple[Source, ...] = ()
    resolution: Resolution | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the seed's JSON shape (value, unit, codes, source)."""
        out = self._seed_dict()
        if self.also_stated_by:
            out["also_stated_by"] = [s.to_dict() for s in self.also_stated_by]
        if self.resolution is not None:
            out["resolution"] = self.resolution.to_dict()
        return out

    def _seed_dict(self) -> dict[str, Any]:
        f = self.fact
        return {
            "status": self.status,
            "value": f.value,
            "unit": f.unit,
            "metric_code": f.metric_code,
            "entity": f.entity,
            "period_type": f.period_type,
            "period": f.period,
            "channel": f.channel,
            "source": f.source.to_dict(),
            "lineage": {
                "source_file_hash": f.source_file_hash,
                "extractor_version": f.extractor_version,
                "mapping_version": f.mapping_version,
                "valid_as_of": f.valid_as_of,
                "ingested_at": f.ingested_at,
            },
        }


@dataclass(frozen=True)
class NotFoundResult:
    """Every parameter normalized, but no row matches; never interpolated."""

    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str
    status: Literal["not_found"] = field(default="not_found", init=False)

    def to_dict(self) -> dict[str, Any]:
        """Return the seed's JSON shape."""
        return {
            "status": self.status,
            "normalized": {
                "metric_code": self.metric_code,
                "entity": self.entity,
                "period_type": self.period_type,
                "period": self.period,
                "channel": self.channel,
            },
        }


@dataclass(frozen=True)
class UnrecognizedParamResult:
    """A parameter could not be normalized to a controlled code."""

    param: str
    raw: str
    status: Literal["unrecognized_param"] = field(default="unrecognized_param", init=False)

    def to_dict(self) -> dict[str, Any]:
        """Return the seed's JSON shape."""
        return {"status": self.status, "param": self.param, "raw": self.raw}


@dataclass(frozen=True)
class ConflictResult:
    """Documents state this fact with different values: no single number is answered.

    ``statements`` holds one :class:`Fact` per document (value, unit and source each),
    ordered by document id, until a user resolves the conflict or a later version of
    a document makes them agree.
    """

    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str
    statements: tuple[Fact, ...]
    status: Literal["conflict"] = field(default="conflict", init=False)

    def __post_init__(self) -> None:
        if len(self.statements) < 2:
            raise InvalidRecordError("a ConflictResult needs at least two statements")

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape: the identity and every statement with its source."""
        return {
            "status": self.status,
            "normalized": {
                "metric_code": self.metric_code,
                "entity": self.entity,
                "period_type": self.period_type,
                "period": self.period,
                "channel": self.channel,
            },
            "statements": [{"value": f.value, "unit": f.unit, "source": f.source.to_dict(),
                            "valid_as_of": f.valid_as_of, "ingested_at": f.ingested_at}
                           for f in self.statements],
        }


QueryResult = FoundResult | NotFoundResult | UnrecognizedParamResult | ConflictResult


#: Statuses of one file in an ingestion report.
INGEST_STATUSES: tuple[str, ...] = ("ingested", "skipped_unchanged", "failed", "no_text")


@dataclass(frozen=True)
class SkippedItem:
    """A table cell, row or column that was not turned into a fact, and why."""

    doc_id: str
    locator: str
    reason: str


@dataclass(frozen=True)
class FileReport:
    """What ingestion did with one file."""

    path: str
    doc_id: str
    status: str
    reason: str = ""
    facts: int = 0
    chunks: int = 0
    skipped: int = 0
    extractor: str = ""
    sensitivity: str = ""
    file_hash: str = ""

    def __post_init__(self) -> None:
        if self.status not in INGEST_STATUSES:
            raise InvalidRecordError(
                f"FileReport.status {self.status!r} is not valid. Valid: {list(INGEST_STATUSES)}"
            )


@dataclass(frozen=True)
class IngestReport:
    """The per-file outcome of one ingestion batch, plus every skipped cell."""

    files: tuple[FileReport, ...]
    skipped: tuple[SkippedItem, ...] = ()
    workspace: str = ""
    dry_run: bool = False
    warnings: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)
    #: Why the batch stopped early (a full disk, a read-only workspace); "" when it ran through.
    error: str = ""

    def count(self, status: str) -> int:
        """Number of files with ``status``."""
        return sum(f.status == status for f in self.files)

    @property
    def facts(self) -> int:
        """Facts written (or that would be written, in a dry run)."""
        return sum(f.facts for f in self.files if f.status == "ingested")

    @property
    def chunks(self) -> int:
        """Chunks written (or that would be written, in a dry run)."""
        return sum(f.chunks for f in self.files if f.status == "ingested")

    def to_frame(self) -> Any:
        """One row per file (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame([asdict(f) for f in self.files],
                            columns=[f.name for f in fields(FileReport)])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what ``ragspine-nb ingest --json`` writes)."""
        return {
            "workspace": self.workspace, "dry_run": self.dry_run,
            "counts": {s: self.count(s) for s in INGEST_STATUSES},
            "facts": self.facts, "chunks": self.chunks,
            "files": [asdict(f) for f in self.files],
            "skipped": [asdict(s) for s in self.skipped],
            "warnings": list(self.warnings),
            "error": self.error,
        }

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        return Card(
            title="IngestReport" + (" (dry run: nothing written)" if self.dry_run else ""),
            subtitle=self.workspace,
            stats=tuple((s, str(self.count(s))) for s in INGEST_STATUSES)
            + (("facts", str(self.facts)), ("chunks", str(self.chunks))),
            tables=(
                Table("Files", ("doc", "status", "facts", "chunks", "skipped cells",
                                "extractor", "sensitivity", "reason"),
                      tuple((f.doc_id, f.status, str(f.facts), str(f.chunks), str(f.skipped),
                             f.extractor, f.sensitivity, f.reason) for f in self.files)),
                Table("Skipped cells, rows and columns (never guessed)",
                      ("doc", "locator", "reason"),
                      tuple((s.doc_id, s.locator, s.reason) for s in self.skipped[:50]),
                      total_rows=len(self.skipped)),
            ),
            notes=((f"batch stopped early: {self.error}",) if self.error else ()) + self.warnings,
        )

    def __repr__(self) -> str:
        counts = ", ".join(f"{s}={self.count(s)}" for s in INGEST_STATUSES)
        return (f"IngestReport({counts}, facts={self.facts}, chunks={self.chunks}"
                + (", dry_run=True" if self.dry_run else "") + ")")

    def _repr_html_(self) -> str:
        from ragspine_nb.display.render import render_html

        return render_html(self._display_card())
