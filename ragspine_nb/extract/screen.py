"""Text outside the narrative that the sensitivity classifier must see.

A board paper may carry its marking only in a page header, a table cell, a text box,
the speaker notes or the document properties. The readers hand that text over as
:class:`~ragspine_nb.sensitivity.ScreenText` (``Extraction.screen``) from the objects
they already opened; nothing here parses a file a second time. Table cells are
searched for keywords only (``markings=False``): a cell reading "Restricted" in a cash
table is not a label.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import ScreenText
from ragspine_nb.sensitivity_policy import fold_text

__all__ = ["docx_screen", "pptx_screen", "properties_screen", "RowScreen"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: Word parts beside the body that hold text: headers, footers, notes, comments.
_DOCX_SIDE_PARTS = re.compile(r"^/word/(header|footer|footnotes|endnotes|comments)\d*\.xml$")
_PROPERTIES = ("title", "subject", "keywords", "category", "comments")
#: Rows a :class:`RowScreen` folds and searches at a time.
BATCH_ROWS = 256


def xml_lines(element: Any) -> list[str]:
    """The text of every ``w:p`` paragraph under a WordprocessingML element, nested included."""
    out = []
    for p in element.iter(f"{_W}p"):
        text = "".join(t.text or "" for t in p.iter(f"{_W}t"))
        if text.strip():
            out.append(text)
    return out


def properties_screen(core: Any, where: str = "document properties") -> list[ScreenText]:
    """Title, subject, keywords, category and comments of OOXML core properties."""
    values = [str(getattr(core, name, "") or "") for name in _PROPERTIES]
    text = "\n".join(v for v in values if v.strip())
    return [ScreenText(where, text)] if text else []


def _side_part_element(part: Any) -> Any:
    element = getattr(part, "element", None)
    if element is not None:
        return element
    from docx.oxml.parser import parse_xml  # python-docx's parser: entities not resolved

    return parse_xml(part.blob)


def docx_screen(document: Any) -> list[ScreenText]:
    """Every side text of a docx.

    Headers, footers, footnotes, endnotes and comments of every section, body text
    boxes, every table (nested ones included) and the core properties.
    """
    out: list[ScreenText] = []
    for part in document.part.package.iter_parts():
        m = _DOCX_SIDE_PARTS.match(str(part.partname))
        if m:
            lines = xml_lines(_side_part_element(part))
            if lines:
                out.append(ScreenText(m.group(1), "\n".join(lines)))
    body = document.element.body
    boxes = [line for box in body.iter(f"{_W}txbxContent") for line in xml_lines(box)]
    if boxes:
        out.append(ScreenText("text boxes", "\n".join(boxes)))
    for t, table in enumerate(body.iterchildren(f"{_W}tbl"), start=1):
        lines = xml_lines(table)
        if lines:
            out.append(ScreenText(f"table {t}", "\n".join(lines), markings=False))
    return out + properties_screen(document.core_properties)


def pptx_screen(prs: Any) -> list[ScreenText]:
    """Text on the slide masters and layouts (footers, banners) and the core properties.

    The slides' own tables and titles come from the reader's loop.
    """
    lines: list[str] = []
    for master in prs.slide_masters:
        for owner in (master, *master.slide_layouts):
            lines += [shape.text_frame.text for shape in owner.shapes
                      if getattr(shape, "has_text_frame", False)
                      and not getattr(shape, "is_placeholder", False)
                      and shape.text_frame.text.strip()]
    out = [ScreenText("slide masters", "\n".join(lines))] if lines else []
    return out + properties_screen(prs.core_properties)


def table_screen(where: str, rows: Sequence[Sequence[object]]) -> ScreenText:
    """The cells of one table as keyword-only screen text (a row per line)."""
    return ScreenText(where, "\n".join(" ".join(str(c) for c in row if c not in (None, ""))
                                       for row in rows), markings=False)


class RowScreen:
    """Passes a stream of rows through, remembering where a restricted keyword occurs.

    For streamed tables (CSV, spreadsheet sheets) the cells are never held: rows are
    folded and searched in batches of :data:`BATCH_ROWS` as they pass (a keyword split
    over two adjacent cells or rows is found too), and the first match is kept as a
    short screen text around the keyword, which is all the classifier needs.
    """

    def __init__(self, profile: DomainProfile, where: str) -> None:
        keywords = [k for k in (fold_text(k) for k in profile.sensitivity.restricted_keywords)
                    if k]
        self.pattern = re.compile("|".join(map(re.escape, keywords))) if keywords else None
        self.where = where
        self.found: list[ScreenText] = []

    def tap(self, rows: Iterable[Sequence[object]], where: str = "") -> Iterator[Sequence[object]]:
        """Yield every row unchanged; remember the first batch of rows holding a keyword."""
        batch: list[Sequence[object]] = []
        first = 1
        try:
            for r, row in enumerate(rows, start=1):
                if self.pattern is not None and not self.found:
                    batch.append(row)
                    if len(batch) >= BATCH_ROWS:
                        self._scan(batch, first, where or self.where)
                        batch, first = [], r + 1
                yield row
        finally:  # also when the reader stops early (a limit): rows it read are searched
            if batch and not self.found:
                self._scan(batch, first, where or self.where)

    def _scan(self, batch: list[Sequence[object]], first: int, where: str) -> None:
        text = "\n".join(" ".join(map(str, filter(_filled, row))) for row in batch)
        folded = fold_text(text)
        m = self.pattern.search(folded) if self.pattern is not None else None
        if m:
            self.found.append(ScreenText(
                f"{where} rows {first}-{first + len(batch) - 1}",
                folded[max(0, m.start() - 40):m.end() + 40], markings=False))


def _filled(cell: object) -> bool:
    return cell is not None and cell != ""
