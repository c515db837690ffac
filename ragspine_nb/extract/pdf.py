"""PDF pages with a text layer, through pypdf (locators ``page=N,para=a-b``)."""

from __future__ import annotations

from pathlib import Path

from ragspine_nb._optional import import_optional
from ragspine_nb.extract.base import (
    READER_VERSIONS,
    Extraction,
    ExtractionError,
    ReadContext,
    Segment,
)
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import ScreenText

__all__ = ["read_pdf"]


def _properties(meta: object) -> list[ScreenText]:
    """Title, subject and keywords of the PDF's document information, as screen text."""
    get = getattr(meta, "get", None)
    values = [str(get(key) or "") for key in ("/Title", "/Subject", "/Keywords")] if get else []
    text = "\n".join(v for v in values if v.strip())
    return [ScreenText("document properties", text)] if text else []


def read_pdf(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """One narrative segment per page that has text; pages without a text layer are counted.

    Tables inside PDFs are not turned into facts (their layout is not reliable enough
    to attribute cells without guessing).
    """
    del profile, ctx
    pypdf = import_optional("pypdf", extra="ingest", feature="Reading .pdf files")
    try:
        reader = pypdf.PdfReader(str(path))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ExtractionError("password-protected PDF; remove the password and ingest again")
        pages = [(page.extract_text() or "") for page in reader.pages]
        meta = reader.metadata
    except ExtractionError:
        raise
    except Exception as exc:  # pypdf raises PdfReadError and friends on broken files
        raise ExtractionError(f"cannot read the PDF: {exc}") from exc
    out = Extraction(READER_VERSIONS[".pdf"], title=str((meta.title if meta else "") or path.stem),
                     screen=_properties(meta))
    empty = 0
    for n, text in enumerate(pages, start=1):
        if text.strip():
            out.segments.append(Segment(text, f"page={n}"))
        else:
            empty += 1
    if empty:
        out.warnings.append(f"{empty} of {len(pages)} pages have no text layer (scanned?)")
    return out
