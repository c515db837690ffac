"""What every reader returns, and the checks that run before a reader opens a file."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ragspine_nb.core import Fact
from ragspine_nb.errors import RagspineError
from ragspine_nb.extract.fiscal_calendar import FiscalCalendar
from ragspine_nb.extract.limits import DEFAULT_LIMITS, IngestLimits, LimitHit
from ragspine_nb.extract.tables import Skip
from ragspine_nb.sensitivity import ScreenText
from ragspine_nb.vocabulary import Vocabulary

__all__ = [
    "ExtractionError", "IngestLimitError", "Segment", "Extraction", "ReadContext", "sniff",
    "SUFFIXES", "READER_VERSIONS", "exception_reason",
]

#: Suffix → the zip part that a genuine OOXML file of that kind contains.
_OOXML_PART = {
    ".pptx": "ppt/presentation.xml",
    ".xlsx": "xl/workbook.xml",
    ".xlsm": "xl/workbook.xml",
    ".docx": "word/document.xml",
}
_KIND = {"ppt/presentation.xml": "a PowerPoint deck", "xl/workbook.xml": "an Excel workbook",
         "word/document.xml": "a Word document"}
_TEXT = (".csv", ".md", ".txt")
#: Every suffix the ingester reads.
SUFFIXES: tuple[str, ...] = (*_OOXML_PART, ".pdf", *_TEXT)
#: Suffix → version of its reader (recorded as every fact's ``extractor_version``).
READER_VERSIONS: dict[str, str] = {
    ".pptx": "pptx@3", ".xlsx": "xlsx@3", ".xlsm": "xlsx@3", ".docx": "docx@3",
    ".pdf": "pdf@9", ".csv": "csv@3", ".md": "text@1", ".txt": "text@1",
}
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


class ExtractionError(RagspineError, ValueError):
    """A file cannot be read; the message says why in words a user can act on."""


class IngestLimitError(ExtractionError):
    """A file is over an ingestion limit and was not read (``hit`` says which and where)."""

    def __init__(self, hit: LimitHit) -> None:
        self.hit = hit
        super().__init__(hit.describe())


def exception_reason(exc: BaseException, reading: str) -> str:
    """``exc`` in words for a report line, never empty.

    Libraries raise exceptions with no message (openpyxl's ``KeyError()``, a bare
    ``MemoryError``): those are named by type and by what was being read.

    Examples
    --------
    >>> exception_reason(ValueError("bad header"), "the workbook")
    'bad header'
    >>> exception_reason(KeyError(), "the workbook")
    'KeyError while reading the workbook'
    """
    text = " ".join(str(exc).split())
    if text and text not in ("None", "''", '""'):
        return text
    return f"{type(exc).__name__} while reading {reading}"


@dataclass(frozen=True)
class Segment:
    """A run of narrative text and where it sits (``"slide=4"``, ``"page=7"``; None = whole)."""

    text: str
    locator_prefix: str | None = None


@dataclass
class Extraction:
    """What a reader found in one file: facts, narrative segments and skips."""

    extractor_version: str
    facts: list[Fact] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    title: str = ""
    warnings: list[str] = field(default_factory=list)
    limit_hits: list[LimitHit] = field(default_factory=list)
    #: text beside the narrative (headers, footers, tables, notes, cells, properties),
    #: searched only by the sensitivity classifier
    screen: list[ScreenText] = field(default_factory=list)
    #: metrics and channels the tables brought (row labels and column headers no profile
    #: names; only with the built-in profile)
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    #: locators of table amounts (and share counts: a scale read from prose applies to
    #: them only when it says so) whose scale the document states nowhere, and every
    #: figure of their tables (a scale read from prose quoting those figures may apply:
    #: :func:`ragspine_nb.extract.prose_scale.infer_scale`, then
    #: :func:`ragspine_nb.extract.prose_scale.with_scale` on these facts' units)
    unscaled: list[str] = field(default_factory=list)
    unscaled_figures: list[float] = field(default_factory=list)
    #: locators of tables that name no period (nor do their titles or the document):
    #: their figures gave no fact; a period stated in the prose beside them may date them
    undated: list[str] = field(default_factory=list)
    #: the company's fiscal calendar as the document states it (None: it states none)
    calendar: FiscalCalendar | None = None


@dataclass(frozen=True)
class ReadContext:
    """Per-file facts a reader needs: document id, entity mapping and lineage.

    ``period`` is the document's own period (``("FY", "2024")``), if it has one: a table
    whose headers and titles name none is of that period; ``period_source`` says where
    it comes from ("metadata", "file name", "notes.md"), recorded in the lineage of the
    facts it dates.
    """

    doc_id: str
    entity: str | None = None
    source_file_hash: str = ""
    mapping_version: str = ""
    valid_as_of: str = ""
    limits: IngestLimits = DEFAULT_LIMITS
    period: tuple[str, str] | None = None
    period_source: str = ""
    #: the company's fiscal calendar (set by a reader from the document's own words)
    calendar: FiscalCalendar | None = None


def sniff(path: Path) -> None:
    """Raise :class:`ExtractionError` when the bytes cannot be what the suffix says.

    Catches empty files, password-protected (encrypted) or legacy Office files,
    renamed files (a zip that is not the right kind, a ``.pdf`` that is not a PDF) and
    binary content in text files.
    """
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ExtractionError(f"unsupported file type {suffix or '(none)'!r}; "
                              f"supported: {list(SUFFIXES)}")
    size = path.stat().st_size
    if size == 0:
        raise ExtractionError("empty file (0 bytes)")
    with path.open("rb") as fh:
        head = fh.read(8)
    if suffix in _OOXML_PART:
        if head.startswith(_OLE_MAGIC):
            raise ExtractionError(
                "password-protected (encrypted) or legacy binary Office file; save it without "
                f"a password in the {suffix} format and ingest again")
        if not zipfile.is_zipfile(path):
            raise ExtractionError(f"not a {suffix} file: the content is not an Office (zip) "
                                  "package — the file is corrupt or has the wrong extension")
        try:
            with zipfile.ZipFile(path) as zf:
                names = set(zf.namelist())
        except zipfile.BadZipFile as exc:
            raise ExtractionError(f"corrupt {suffix} file: {exc}") from exc
        expected = _OOXML_PART[suffix]
        if expected not in names:
            actual = next((kind for part, kind in _KIND.items() if part in names), "another zip")
            raise ExtractionError(f"wrong extension: a {suffix} name but the content is {actual}")
    elif suffix == ".pdf":
        if not head.startswith(b"%PDF"):
            raise ExtractionError("not a PDF: the file does not start with %PDF — it is corrupt "
                                  "or has the wrong extension")
    elif b"\x00" in _head(path, 65536):
        raise ExtractionError(f"binary content in a {suffix} file (NUL bytes); "
                              "wrong extension?")


def _head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of a file (never the whole file)."""
    with path.open("rb") as fh:
        return fh.read(size)
