"""Text outside the narrative that the sensitivity classifier must see.

A board paper may carry its marking only in a page header, a table cell, a text box,
a content control, a watermark, the speaker notes, a slide layout, a print header, a
cell note or the document properties. The readers hand that text over as
:class:`~ragspine_nb.sensitivity.ScreenText` (``Extraction.screen``) from the objects
they already opened; :func:`package_screen` reads the few package parts no reader opens
(custom properties, spreadsheet print headers and footers, cell notes and slide
comments), bounded. Table cells are searched for keywords only (``markings=False``): a
cell reading "Restricted" in a cash table is not a label; a row whose only cell is a
marking ("STRICTLY CONFIDENTIAL" above a table) is one.
"""

from __future__ import annotations

import html
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from ragspine_nb.markings import read_marking
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import ScreenText
from ragspine_nb.sensitivity_policy import fold_text

__all__ = ["docx_screen", "pptx_screen", "properties_screen", "package_screen", "RowScreen",
           "print_header_lines", "banner_rows", "lone_marking"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: A watermark: VML WordArt whose text is an attribute, not a ``w:t``.
_TEXTPATH = "{urn:schemas-microsoft-com:vml}textpath"
#: Word parts beside the body that hold text: headers, footers, notes, comments.
_DOCX_SIDE_PARTS = re.compile(r"^/word/(header|footer|footnotes|endnotes|comments)\d*\.xml$")
_PROPERTIES = ("title", "subject", "keywords", "category", "comments", "content_status",
               "contentStatus")
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


def _watermarks(element: Any) -> list[str]:
    return [str(e.get("string")) for e in element.iter(_TEXTPATH) if e.get("string")]


def _content_controls(body: Any) -> list[str]:
    """The text of every content control (``w:sdt``): block ones by paragraph."""
    out = []
    for sdt in body.iter(f"{_W}sdt"):
        lines = xml_lines(sdt) or ["".join(t.text or "" for t in sdt.iter(f"{_W}t"))]
        out += [line for line in lines if line.strip()]
    return out


def docx_screen(document: Any) -> list[ScreenText]:
    """Every side text of a docx.

    Headers, footers, footnotes, endnotes and comments of every section, watermarks,
    body text boxes, content controls (python-docx's paragraphs skip a body-level
    ``w:sdt``), every table (nested ones included) and the core properties.
    """
    out: list[ScreenText] = []
    for part in document.part.package.iter_parts():
        m = _DOCX_SIDE_PARTS.match(str(part.partname))
        if m:
            element = _side_part_element(part)
            lines = xml_lines(element) + _watermarks(element)
            if lines:
                out.append(ScreenText(m.group(1), "\n".join(lines)))
    body = document.element.body
    boxes = [line for box in body.iter(f"{_W}txbxContent") for line in xml_lines(box)]
    for where, lines in (("text boxes", boxes), ("content controls", _content_controls(body)),
                         ("watermarks", _watermarks(body))):
        if lines:
            out.append(ScreenText(where, "\n".join(lines)))
    for t, table in enumerate(body.iterchildren(f"{_W}tbl"), start=1):
        lines = xml_lines(table)
        if lines:
            out.append(ScreenText(f"table {t}", "\n".join(lines), markings=False))
            rows = [[" ".join(xml_lines(tc)) for tc in tr.iterchildren(f"{_W}tc")]
                    for tr in table.iterchildren(f"{_W}tr")]
            out += banner_rows(f"table {t}", rows)
    return out + properties_screen(document.core_properties)


def _master_text(shape: Any) -> bool:
    """Whether ``shape`` is a master's or layout's own text.

    A text box, or a footer, header or date placeholder; the other placeholders hold
    prompts such as "Click to edit Master title style".
    """
    if not getattr(shape, "has_text_frame", False) or not shape.text_frame.text.strip():
        return False
    if not getattr(shape, "is_placeholder", False):
        return True
    kind = str(getattr(shape.placeholder_format, "type", ""))
    return any(name in kind for name in ("FOOTER", "HEADER", "DATE"))


def pptx_screen(prs: Any) -> list[ScreenText]:
    """Text on the slide masters, layouts and notes master, and the core properties.

    Footers and banners of the masters; the slides' own tables and titles come from
    the reader's loop.
    """
    owners = [o for master in prs.slide_masters for o in (master, *master.slide_layouts)]
    owners.append(prs.notes_master)
    lines = [shape.text_frame.text for owner in owners for shape in owner.shapes
             if _master_text(shape)]
    out = [ScreenText("slide masters", "\n".join(lines))] if lines else []
    return out + properties_screen(prs.core_properties)


def banner_rows(where: str, rows: Sequence[Sequence[object]]) -> list[ScreenText]:
    """The rows of a table whose only cell is a marking (:func:`lone_marking`), as markings.

    A one-cell table or a merged top row reading "STRICTLY CONFIDENTIAL" is a banner; a
    cell beside others is a table's word, searched for keywords only.
    """
    for r, row in enumerate(rows, start=1):
        cells = [c for c in row if _filled(c) and str(c).strip()]
        if len(cells) == 1 and isinstance(cells[0], str) and lone_marking(cells[0], r):
            return [ScreenText(f"{where} row {r}", cells[0])]
    return []


def table_screen(where: str, rows: Sequence[Sequence[object]]) -> ScreenText:
    """The cells of one table as keyword-only screen text (a row per line)."""
    return ScreenText(where, "\n".join(" ".join(str(c) for c in row if c not in (None, ""))
                                       for row in rows), markings=False)


class RowScreen:
    """Passes a stream of rows through, remembering where a restricted keyword occurs.

    For streamed tables (CSV, spreadsheet sheets) the cells are never held: rows are
    folded and searched in batches of :data:`BATCH_ROWS` as they pass (a keyword split
    over two adjacent cells or rows is found too), and the first match is kept as a
    short screen text around the keyword, which is all the classifier needs. A row whose
    only cell is a marking is kept too (:func:`lone_marking`).
    """

    def __init__(self, profile: DomainProfile, where: str) -> None:
        keywords = [k for k in (fold_text(k) for k in profile.sensitivity.restricted_keywords)
                    if k]
        self.pattern = re.compile("|".join(map(re.escape, keywords))) if keywords else None
        self.where = where
        self.found: list[ScreenText] = []
        self.marked = False

    def tap(self, rows: Iterable[Sequence[object]], where: str = "") -> Iterator[Sequence[object]]:
        """Yield every row unchanged.

        Remember the first batch of rows holding a keyword and the first row that is a
        marking.
        """
        batch: list[Sequence[object]] = []
        first = 1
        try:
            for r, row in enumerate(rows, start=1):
                if not self.marked:
                    self._mark(row, r, where or self.where)
                if self.pattern is not None and not self.found:
                    batch.append(row)
                    if len(batch) >= BATCH_ROWS:
                        self._scan(batch, first, where or self.where)
                        batch, first = [], r + 1
                yield row
        finally:  # also when the reader stops early (a limit): rows it read are searched
            if batch and not self.found:
                self._scan(batch, first, where or self.where)

    def _mark(self, row: Sequence[object], r: int, where: str) -> None:
        cells = [c for c in row if _filled(c)]
        if len(cells) == 1 and isinstance(cells[0], str) and lone_marking(cells[0], r):
            self.marked = True
            self.found.append(ScreenText(f"{where} row {r}", cells[0]))

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


def lone_marking(cell: str, row: int) -> bool:
    """Whether the only cell of row ``row`` (from 1) is a marking.

    A marking of two or more words or a keyed label anywhere; a lone upper-case or CJK
    marking word ("CONFIDENTIAL", "机密") only in the first five rows, as a banner: a
    lone "Restricted" further down is a section of a table.
    """
    found = read_marking(cell)
    if found is None:
        return False
    if found.keyed or found.words > 1:
        return True
    return row <= 5 and (cell.strip().isupper() or not cell.isascii())


# ------------------------------------------------------------------- package parts
#: Decompressed bytes read from one part when looking for its print header.
MAX_PART_BYTES = 1 << 30
#: Bytes of a small part read whole (custom properties, comments).
MAX_SMALL_PART = 16 << 20
#: Parts read per package.
MAX_PARTS = 2000
_OOXML = (".docx", ".xlsx", ".xlsm", ".pptx")
_SHEET_PART = re.compile(r"^xl/(?:worksheets|chartsheets)/[^/]+\.xml$")
_COMMENT_PART = re.compile(r"^(?:xl/comments[^/]*|xl/(?:comments|threadedComments)/[^/]+|"
                           r"ppt/comments/[^/]+)\.xml$")
_HF_START = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?headerFooter[\s>]")
_HF_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?headerFooter\s*>")
_HF_PART = re.compile(r"<(?:[\w.-]+:)?(odd|even|first)(Header|Footer)(?:\s[^>]*)?>(.*?)</",
                      re.S)
#: Print header codes: a font, a size, a colour, a section, a field (&P, &N, &D …).
_HF_CODE = re.compile(r'&"[^"]*"|&\d+|&K(?:[0-9A-Fa-f]{6}|\d\d[+-]\d{3})|&[A-Za-z]')
_PROPERTY = re.compile(r'<(?:[\w.-]+:)?property\b[^>]*?\bname="([^"]{1,200})"[^>]*>(.*?)'
                       r"</(?:[\w.-]+:)?property\s*>", re.S)
_COMMENT = re.compile(r"<(?:[\w.-]+:)?(comment|threadedComment|cm)\b.*?"
                      r"</(?:[\w.-]+:)?\1\s*>", re.S)
_PARAGRAPH_END = re.compile(r"</(?:[\w.-]+:)?(?:p|text|r)\s*>")
_TAG = re.compile(r"<[^>]*>")


def print_header_lines(xml: str) -> list[tuple[str, str]]:
    """``(kind, line)`` for each section of the print headers and footers in ``xml``.

    >>> print_header_lines('<oddHeader>&amp;L&amp;"Arial,Bold"&amp;12STRICTLY '
    ...                    'CONFIDENTIAL&amp;RPage &amp;P of &amp;N</oddHeader>')
    [('header', 'STRICTLY CONFIDENTIAL'), ('header', 'Page of')]
    """
    out = []
    for _, kind, raw in _HF_PART.findall(xml):
        text = html.unescape(raw).replace("&&", "\x00")
        for section in re.split(r"&[LCR]", text):
            line = " ".join(_HF_CODE.sub(" ", section).replace("\x00", "&").split())
            if line:
                out.append((kind.lower(), line))
    return out


def _stream_header_footer(fh: IO[bytes]) -> str:
    """The ``headerFooter`` element of a sheet part, read in blocks (the part is never held)."""
    tail, seen = b"", 0
    while seen < MAX_PART_BYTES:
        chunk = fh.read(1 << 20)
        if not chunk:
            return ""
        seen += len(chunk)
        buf = tail + chunk
        m = _HF_START.search(buf)
        if m:
            block = buf[m.start():]
            while not _HF_END.search(block) and len(block) < (1 << 16):
                more = fh.read(1 << 16)
                if not more:
                    break
                block += more
            return block[:1 << 16].decode("utf-8", errors="replace")
        tail = buf[-64:]
    return ""


def _sheet_screen(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> list[ScreenText]:
    with z.open(info) as fh:
        lines = print_header_lines(_stream_header_footer(fh))
    out = []
    for kind in ("header", "footer"):
        text = "\n".join(line for k, line in lines if k == kind)
        if text:
            out.append(ScreenText(f"print {kind} of {info.filename}", text))
    return out


def _text_of(xml: str) -> str:
    return html.unescape(_TAG.sub("", _PARAGRAPH_END.sub("\n", xml)))


def _properties_lines(xml: str) -> list[str]:
    """Custom properties as lines.

    A sensitivity label (``MSIP_Label_…_Name``) as a keyed label, any other property
    as ``name: value`` and its value alone.
    """
    out = []
    for name, inner in _PROPERTY.findall(xml):
        value = " ".join(_text_of(inner).split())
        if not value:
            continue
        if re.fullmatch(r"MSIP_Label_.*_Name", name, re.IGNORECASE):
            out.append(f"Sensitivity label: {value}")
        elif not name.upper().startswith("MSIP_"):
            out += [f"{name}: {value}", value]
    return out


def package_screen(path: Path) -> list[ScreenText]:
    """Package parts of an Office file that no reader opens, as screen text.

    Custom document properties (a sensitivity label), every sheet's print headers and
    footers (``oddHeader`` … ``firstFooter``: a workbook printed "STRICTLY
    CONFIDENTIAL"), cell notes and slide comments. Bounded: a sheet is scanned in
    blocks for its ``headerFooter`` (at most :data:`MAX_PART_BYTES`), small parts are
    read whole up to :data:`MAX_SMALL_PART`, at most :data:`MAX_PARTS` parts. Other
    files give nothing.
    """
    if path.suffix.lower() not in _OOXML:
        return []
    out: list[ScreenText] = []
    try:
        with zipfile.ZipFile(path) as z:
            for info in z.infolist()[:MAX_PARTS]:
                name = info.filename
                if _SHEET_PART.match(name):
                    out += _sheet_screen(z, info)
                elif info.file_size > MAX_SMALL_PART:
                    continue
                elif name == "docProps/custom.xml":
                    lines = _properties_lines(z.read(info).decode("utf-8", errors="replace"))
                    if lines:
                        out.append(ScreenText("custom properties", "\n".join(lines)))
                elif _COMMENT_PART.match(name):
                    xml = z.read(info).decode("utf-8", errors="replace")
                    notes = [_text_of(m.group(0)).strip() for m in _COMMENT.finditer(xml)]
                    if any(notes):
                        out.append(ScreenText(f"comments {name}", "\n".join(filter(None, notes))))
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        return out  # the reader opened the file; a part it cannot give adds nothing
    return out
