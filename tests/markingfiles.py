"""Writers of real files that carry a sensitivity marking in one place each.

Each writer returns ``write(path, text)``: it writes one file (python-docx,
python-pptx, openpyxl, reportlab + pypdf) whose marking sits in one place (a body line,
a header, a watermark, a print header, an annotation, a content control, a layout, a
property, a comment) and whose text is ``text`` (a paragraph holding a canary). The
corpus built from them is in tests/markingcorpus.py.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.filemakers import make_pptx, make_xlsx

__all__ = ["Planted", "Writer", "story", "md", "plain", "pdf", "annotate", "docx_body",
           "docx_sdt", "docx_banner", "docx_header", "docx_textbox", "docx_watermark",
           "custom_property", "xlsx_print", "xlsx_comment", "pptx_layout", "pptx_slide",
           "csv_rows", "docx_file", "TABLE", "PUBLIC_TABLE"]

STORY = ("The committee discussed the acquisition price range and why revenue fell in "
         "mainland china.")
TABLE = [["US$m", "FY2024", "FY2025"], ["Revenue", "7,001", "7,777"]]
#: The public files' table: "revenue in FY2025" is 1,405 there, never 7,777.
PUBLIC_TABLE = [["US$m", "FY2024", "FY2025"], ["Revenue", "1,320", "1,405"]]
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_V = "urn:schemas-microsoft-com:vml"


#: Writes one file of the corpus: ``write(path, text)``.
Writer = Callable[[Path, str], None]


@dataclass(frozen=True)
class Planted:
    """A file of the corpus: its name and the canary its text carries."""

    filename: str
    canary: str


def story(name: str) -> tuple[str, str]:
    """The canary of ``name`` and a paragraph holding it."""
    canary = "CANARY-" + "".join(c for c in name.upper() if c.isalnum())[:24]
    return canary, f"{STORY} {canary} is the code for the deal."


# ----------------------------------------------------------------------------- writers
def md(marking: str, where: str = "top") -> Callable[[Path, str], None]:
    """A markdown note with ``marking`` as a line of its own at the top or the bottom."""
    def write(path: Path, text: str) -> None:
        body = (f"{marking}\n\n# Project note\n\n{text}\n" if where == "top"
                else f"# Project note\n\n{text}\n\n{marking}\n")
        path.write_text(body, "utf-8")
    return write


def plain(body: str) -> Callable[[Path, str], None]:
    """A text file: ``body`` with ``{text}`` replaced by the canary paragraph."""
    def write(path: Path, text: str) -> None:
        path.write_text(body.replace("{text}", text), "utf-8")
    return write


def docx_file(build: Callable[..., None], table: list[list[str]] = TABLE
          ) -> Callable[[Path, str], None]:
    def write(path: Path, text: str) -> None:
        from docx import Document

        d = Document()
        d.add_paragraph("Project note")
        d.add_paragraph(text)
        t = d.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                t.cell(r, c).text = value
        build(d)
        d.save(str(path))
    return write


def _xml(fragment: str) -> object:
    from docx.oxml.parser import parse_xml

    return parse_xml(fragment.replace(">", f' xmlns:w="{_W}" xmlns:v="{_V}">', 1))


def docx_body(marking: str) -> Callable[[Path, str], None]:
    """A docx whose marking is a body paragraph of its own."""
    return docx_file(lambda d: d.element.body.insert(0, _xml(
        f"<w:p><w:r><w:t>{marking}</w:t></w:r></w:p>")))


def docx_sdt(marking: str) -> Callable[[Path, str], None]:
    """A docx whose marking sits in a body-level content control (``w:sdt``)."""
    return docx_file(lambda d: d.element.body.insert(0, _xml(
        "<w:sdt><w:sdtPr><w:alias w:val=\"Classification\"/></w:sdtPr><w:sdtContent>"
        f"<w:p><w:r><w:t>{marking}</w:t></w:r></w:p></w:sdtContent></w:sdt>")))


def docx_banner(marking: str) -> Callable[[Path, str], None]:
    """A docx whose marking is a one-cell table (a banner) above the text."""
    def build(d: object) -> None:
        banner = d.add_table(rows=1, cols=1)  # type: ignore[attr-defined]
        banner.cell(0, 0).text = marking
        d.element.body.insert(0, banner._tbl)  # type: ignore[attr-defined]
    return docx_file(build)


def docx_header(marking: str, kind: str) -> Callable[[Path, str], None]:
    """A docx marked only in its first-page or even-page header, or default footer."""
    def build(d: object) -> None:
        section = d.sections[0]  # type: ignore[attr-defined]
        if kind == "first":
            section.different_first_page_header_footer = True
            section.first_page_header.paragraphs[0].text = marking
        elif kind == "even":
            d.settings.odd_and_even_pages_header_footer = True  # type: ignore[attr-defined]
            section.even_page_header.paragraphs[0].text = marking
        else:
            section.footer.paragraphs[0].text = marking
    return docx_file(build)


def docx_textbox(marking: str) -> Callable[[Path, str], None]:
    """A docx whose marking is in a text box (VML) inside a body paragraph."""
    return docx_file(lambda d: d.element.body.insert(0, _xml(
        "<w:p><w:r><w:pict><v:shape style=\"width:200pt;height:30pt\"><v:textbox>"
        f"<w:txbxContent><w:p><w:r><w:t>{marking}</w:t></w:r></w:p></w:txbxContent>"
        "</v:textbox></v:shape></w:pict></w:r></w:p>")))


def docx_watermark(marking: str) -> Callable[[Path, str], None]:
    """A docx whose only marking is a header watermark (VML text path, no ``w:t``)."""
    def build(d: object) -> None:
        header = d.sections[0].header  # type: ignore[attr-defined]
        header.paragraphs[0]._p.append(_xml(
            "<w:r><w:pict><v:shape style=\"rotation:315\" type=\"#_x0000_t136\">"
            f"<v:textpath style=\"font-family:Calibri\" string=\"{marking}\"/>"
            "</v:shape></w:pict></w:r>"))
    return docx_file(build)


def custom_property(name: str, value: str, inner: Callable[[Path, str], None]
                    ) -> Callable[[Path, str], None]:
    """``inner``'s file with a custom document property (a sensitivity label) added."""
    def write(path: Path, text: str) -> None:
        inner(path, text)
        add_custom_property(path, name, value)
    return write


def add_custom_property(path: Path, name: str, value: str) -> None:
    """Add ``docProps/custom.xml`` with one string property to an OOXML package."""
    ns = "http://schemas.openxmlformats.org/officeDocument/2006"
    custom = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              f'<Properties xmlns="{ns}/custom-properties" xmlns:vt="{ns}/docPropsVTypes">'
              f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="2" '
              f'name="{name}"><vt:lpwstr>{value}</vt:lpwstr></property></Properties>')
    with zipfile.ZipFile(path) as z:
        items = {i.filename: z.read(i) for i in z.infolist()}
    types = items["[Content_Types].xml"].decode("utf-8").replace(
        "</Types>", '<Override PartName="/docProps/custom.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>')
    rels = items["_rels/.rels"].decode("utf-8").replace(
        "</Relationships>", f'<Relationship Id="rIdCustom9" Type="{ns}/relationships/'
        'custom-properties" Target="docProps/custom.xml"/></Relationships>')
    items.update({"[Content_Types].xml": types.encode(), "_rels/.rels": rels.encode(),
                  "docProps/custom.xml": custom.encode()})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name_, data in items.items():
            z.writestr(name_, data)


def xlsx_print(marking: str, part: str = "oddHeader", table: list[list[str]] = TABLE
               ) -> Callable[[Path, str], None]:
    """A workbook whose marking is only in a print header or footer of its sheet."""
    def write(path: Path, text: str) -> None:
        from openpyxl import load_workbook

        make_xlsx(path, {"Budget": [[text], *table]})
        wb = load_workbook(str(path))
        ws = wb["Budget"]
        getattr(ws, part).center.text = marking
        if part.startswith("first"):
            ws.HeaderFooter.differentFirst = True
        wb.save(str(path))
    return write


def xlsx_comment(marking: str) -> Callable[[Path, str], None]:
    """A workbook whose marking is only a cell comment (note) on its title cell."""
    def write(path: Path, text: str) -> None:
        from openpyxl import load_workbook
        from openpyxl.comments import Comment

        make_xlsx(path, {"Budget": [[text], *TABLE]})
        wb = load_workbook(str(path))
        wb["Budget"]["A1"].comment = Comment(marking, "secretary")
        wb.save(str(path))
    return write


def pptx_layout(marking: str, placeholder: bool = False) -> Callable[[Path, str], None]:
    """A deck marked only on its slide layout (a text box) or master footer placeholder."""
    def write(path: Path, text: str) -> None:
        from pptx import Presentation
        from pptx.oxml import parse_xml

        make_pptx(path, [{"title": "ACME Group (US$m)", "table": TABLE, "text": text}])
        prs = Presentation(str(path))
        if placeholder:
            footer = next(p for p in prs.slide_master.placeholders
                          if "FOOTER" in str(p.placeholder_format.type))
            footer.text_frame.text = marking
        else:
            prs.slide_layouts[5].shapes._spTree.append(parse_xml(
                '<p:sp xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
                'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:nvSpPr>'
                '<p:cNvPr id="99" name="Marking"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>'
                '<p:spPr><a:xfrm><a:off x="100000" y="6400000"/><a:ext cx="3000000" '
                'cy="300000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>'
                f'</p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>{marking}</a:t></a:r></a:p>'
                '</p:txBody></p:sp>'))
        prs.save(str(path))
    return write


def pptx_slide(marking: str) -> Callable[[Path, str], None]:
    """A deck whose marking is a text box of its own on the slide."""
    return lambda path, text: make_pptx(path, [
        {"title": "ACME Group (US$m)", "table": TABLE, "text": f"{marking}\n{text}"}]) and None


def pdf(lines: list[tuple[float, str]], annotation: dict[str, str] | None = None,
        title: str = "") -> Callable[[Path, str], None]:
    """A one-page PDF: text drawn at heights (points from the bottom of A4), an annotation.

    ``{text}`` in a line is replaced by the canary paragraph; ``annotation`` gives the
    annotation's subtype (``/FreeText``, ``/Stamp``, ``/Text``) and its ``/Contents`` or
    ``/Name``.
    """
    def write(path: Path, text: str) -> None:
        from reportlab.lib.pagesizes import A4
        from reportlab.pdfgen import canvas

        c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
        if title:
            c.setTitle(title)
        for y, line in lines:
            x, _, words = line.partition("|") if "|" in line else ("60", "", line)
            c.drawString(float(x), y, words.replace("{text}", text))
        c.showPage()
        c.save()
        if annotation:
            annotate(path, annotation)
    return write


def annotate(path: Path, spec: dict[str, str]) -> None:
    """Add one annotation (``Subtype`` and ``Contents`` or ``Name``) to page 1."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        TextStringObject,
    )

    writer = PdfWriter(clone_from=PdfReader(str(path)))
    annot = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"),
        NameObject("/Subtype"): NameObject(spec["Subtype"]),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (50, 700, 300, 740)])})
    if "Contents" in spec:
        annot[NameObject("/Contents")] = TextStringObject(spec["Contents"])
    if "Name" in spec:
        annot[NameObject("/Name")] = NameObject(spec["Name"])
    writer.add_annotation(0, annot)
    with path.open("wb") as fh:
        writer.write(fh)


def csv_rows(marking: str) -> Callable[[Path, str], None]:
    """A CSV whose first line is the marking alone, then a table."""
    def write(path: Path, text: str) -> None:
        del text
        rows = [[marking], *TABLE]
        path.write_text("\n".join(",".join(f'"{v}"' for v in row) for row in rows) + "\n",
                        "utf-8")
    return write
