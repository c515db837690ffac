"""What ingestion reports: one row per file, every skipped cell, and why."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.errors import InvalidRecordError

__all__ = [
    "INGEST_STATUSES",
    "SkippedItem",
    "FileReport",
    "IngestReport",
]


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
class IngestReport(CardReprMixin):
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

