"""Sensitivity markings of a PDF page: text-layer lines judged by layout, and annotations.

A PDF text layer may break a sentence or a table heading into one word per line
("Restricted" / "Cash", a column header "Restricted" / "Stock" / "Units"), so a lone
marking word counts only where it stands alone: nothing else on its row of the page,
and nothing but marking words ("Page 3") right above or below it. A marking of two or
more words ("STRICTLY CONFIDENTIAL") or a keyed label ("Classification: Restricted") is
a marking wherever it stands; neither can be a piece of a sentence or a row, whose
other words are no marking vocabulary.

Annotations carry markings too: a FreeText box, a stamp (``/Name /TopSecret``,
Acrobat's ``#SBConfidential``), a sticky note, a form field's value. Their text is
read through pdfium's annotation API, bounded per page and per annotation.
"""

from __future__ import annotations

import ctypes
from typing import Any

from ragspine_nb.markings import marking_lines, stamp_words, vocabulary_only
from ragspine_nb.sensitivity import ScreenText

__all__ = ["page_markings", "annotation_screen", "MAX_ANNOTATIONS", "MAX_ANNOTATION_CHARS"]

#: Annotations read per page (a page may hold any number).
MAX_ANNOTATIONS = 500
#: Characters read per annotation value.
MAX_ANNOTATION_CHARS = 4000
#: Annotation keys whose text is read: the text, the subject, a stamp's name, a value.
_KEYS = ("Contents", "Subj", "Name", "V")
#: Subtypes whose text is no content: links, popups (a note's window), file attachments.
_SKIP_SUBTYPES = ("FPDF_ANNOT_LINK", "FPDF_ANNOT_POPUP", "FPDF_ANNOT_FILEATTACHMENT")


def _box(textpage: Any, start: int, end: int, text: str) -> tuple[float, float, float, float]:
    """The union of the boxes of the non-blank characters in ``text[start:end]``."""
    boxes = [textpage.get_charbox(i) for i in range(start, end) if not text[i].isspace()]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _alone(textpage: Any, text: str, start: int, end: int, width: float) -> bool:
    """Whether the line ``text[start:end]`` stands alone on the page.

    Nothing else on its row (full page width), and above and below it, within 1.2
    line heights and about its width, nothing or only marking words.
    """
    if end <= start or end > textpage.count_chars():
        return False
    left, bottom, right, top = _box(textpage, start, end, text)
    height, span = max(top - bottom, 4.0), max(right - left, 4.0)
    row = textpage.get_text_bounded(0, bottom + 0.25 * height, width, top - 0.25 * height)
    if "".join(row.split()) != "".join(text[start:end].split()):
        return False
    for low, high in ((top, top + 1.2 * height), (bottom - 1.2 * height, bottom)):
        near = textpage.get_text_bounded(left - span, low, right + span, high)
        if near.strip() and not vocabulary_only(near):
            return False
    return True


def page_markings(textpage: Any, text: str, width: float) -> list[str]:
    """The marking lines of one page's text layer, each judged with its layout."""
    starts, pos = [], 0
    for line in text.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    lines = text.splitlines()
    out = []
    for found in marking_lines(text):
        if found.keyed or found.words > 1:
            out.append(found.text)
            continue
        start = starts[found.line]
        end = start + len(lines[found.line])
        try:
            if _alone(textpage, text, start, end, width):
                out.append(found.text)
        except ValueError:  # no character box to judge by: not a marking
            continue
    return out


def _value(pdfium_c: Any, annot: Any, key: str) -> str:
    size = pdfium_c.FPDFAnnot_GetStringValue(annot, key.encode("ascii"), None, 0)
    if size <= 2 or size > 2 * MAX_ANNOTATION_CHARS + 2:
        return ""
    buf = ctypes.create_string_buffer(size)
    pdfium_c.FPDFAnnot_GetStringValue(annot, key.encode("ascii"),
                                      ctypes.cast(buf, ctypes.POINTER(pdfium_c.FPDF_WCHAR)),
                                      size)
    return buf.raw[:size - 2].decode("utf-16-le", errors="replace")


def _annotation_text(pdfium_c: Any, annot: Any) -> list[str]:
    subtype = pdfium_c.FPDFAnnot_GetSubtype(annot)
    if subtype in {getattr(pdfium_c, name) for name in _SKIP_SUBTYPES}:
        return []
    out = []
    for key in _KEYS:
        value = _value(pdfium_c, annot, key).strip()
        if value and key == "Name":
            value = stamp_words(value) if subtype == pdfium_c.FPDF_ANNOT_STAMP else ""
        if value:
            out.append(value)
    return out


def annotation_screen(pdfium_c: Any, page: Any, n: int) -> list[ScreenText]:
    """The text of page ``n``'s annotations (at most :data:`MAX_ANNOTATIONS`)."""
    lines: list[str] = []
    count = min(pdfium_c.FPDFPage_GetAnnotCount(page.raw), MAX_ANNOTATIONS)
    for i in range(count):
        annot = pdfium_c.FPDFPage_GetAnnot(page.raw, i)
        if not annot:
            continue
        try:
            lines += _annotation_text(pdfium_c, annot)
        finally:
            pdfium_c.FPDFPage_CloseAnnot(annot)
    return [ScreenText(f"annotations of page {n}", "\n".join(lines))] if lines else []
