"""Number certificates: each figure's source shown in its file (real files built here)."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest

from ragspine_nb.errors import RagspineError
from ragspine_nb.extract.certificate import certificate, number_texts
from tests.filemakers import make_pdf, make_pptx, make_xlsx


def test_a_sheet_cell_is_shown_in_its_neighbourhood(tmp_path: Path) -> None:
    path = make_xlsx(tmp_path / "s.xlsx", {"Group": [["Metric", "FY2024", "FY2025"],
                                                     ["Revenue", 3610, 4500],
                                                     ["Profit", 410, 520]]})
    cert = certificate(path, "sheet=Group!C2", 4500.0)
    assert (cert.kind, cert.hits) == ("cell", 1)
    hit = cert.html.split("outline:2px solid")[0].rsplit("<td", 1)[0]
    assert ">4500</td>" in cert.html.split("outline:2px solid")[1][:80]  # the cell itself
    assert ">Revenue<" in hit and ">C<" in cert.html and ">2<" in cert.html
    with pytest.raises(RagspineError, match=r"no sheet 'Other'; its sheets: \['Group'\]"):
        certificate(path, "sheet=Other!C2")


def test_a_csv_cell_is_shown_in_its_neighbourhood(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("year,revenue\n2024,4310500\n2025,4402000\n", encoding="utf-8")
    cert = certificate(path, "cell=B2", 4310500.0)
    assert cert.hits == 1 and cert.html.count("outline:2px solid") == 1
    assert ">4310500</td>" in cert.html.split("outline:2px solid")[1][:80]


def test_a_slide_table_is_shown_with_the_figure_highlighted(tmp_path: Path) -> None:
    path = make_pptx(tmp_path / "d.pptx", [{"title": "Results", "table": [
        ["Metric", "FY2024", "FY2025"], ["Revenue", "4,500", "4,790"]]}])
    cert = certificate(path, "slide=1,table=1,row=REVENUE,col=FY2024", 4500.0)
    assert (cert.kind, cert.hits) == ("table", 1)
    assert ">4,500</td>" in cert.html.split("outline:2px solid")[1][:80]
    with pytest.raises(RagspineError, match="has 1 slides; the locator names slide 3"):
        certificate(path, "slide=3,table=1", 4500.0)


def test_a_pdf_figure_is_boxed_on_its_rendered_page_region(tmp_path: Path) -> None:
    from PIL import Image

    path = make_pdf(tmp_path / "r.pdf", [["Annual report"], [
        "Consolidated statement of cash flows (in millions)", "",
        "Capital expenditure      (1,577)     (1,373)", "Dividends paid      (3,193)"]])
    cert = certificate(path, "page=2,table=1,row=CAPEX,col=FY2018", -1577.0)
    assert (cert.kind, cert.hits) == ("page", 1)
    data = cert.html.split("base64,")[1].split("'")[0]
    image = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
    assert image.height < 842 * 1.5 / 2  # a region of the page, not the whole page
    colours = {c for _, c in image.getcolors(maxcolors=1 << 22) or []}
    assert (207, 34, 46) in colours  # the red box around the figure
    assert len(cert.html) < 2 * 1024 * 1024
    missing = certificate(path, "page=2,table=1", 9999.0)
    assert missing.hits == 0 and "not found on it" in missing.html


def test_other_files_and_bad_references_are_named(tmp_path: Path) -> None:
    with pytest.raises(RagspineError, match="certificates cover .xlsx, .csv, .pptx and .pdf"):
        certificate(tmp_path / "a.docx", "para=1")
    path = tmp_path / "h.csv"
    path.write_text("a,b\n", encoding="utf-8")
    with pytest.raises(RagspineError, match="not a cell reference"):
        certificate(path, "cell=2B")


def test_number_texts_cover_the_scales_a_table_uses() -> None:
    assert number_texts(-1577.0)[:2] == ["1,577", "1577"]
    assert "4,310.5" in number_texts(4310500.0 / 1000) and "1.58" in number_texts(1577.0)


def test_an_answers_figures_are_certified_from_the_workspace(tmp_path: Path) -> None:
    from ragspine_nb import Agent
    from ragspine_nb.agent.write.certify import certificates
    from ragspine_nb.cli.commands import DEMO_REFERENCE_DATE, build_demo

    build_demo(tmp_path / "ws")
    agent = Agent.from_workspace(tmp_path / "ws")
    try:
        result = agent.ask("What was ACME Group revenue in FY2025?",
                           reference_date=DEMO_REFERENCE_DATE)
        certs = certificates(result, agent.store)
    finally:
        agent.close()
    assert result.figures and certs.shown and not certs.not_shown
    facts = {(f.source_doc_id, f.source_locator) for fig in result.figures for f in fig.operands}
    assert {(c.doc, c.locator) for c in certs.shown} == facts
    assert all(c.hits >= 1 for c in certs.shown)
    assert "Where the figures come from" in certs._repr_html_()


def test_an_answer_shows_where_its_figures_come_from(tmp_path: Path) -> None:
    from ragspine_nb import Agent
    from ragspine_nb.cli.commands import DEMO_REFERENCE_DATE, build_demo

    build_demo(tmp_path / "ws")
    agent = Agent.from_workspace(tmp_path / "ws")
    try:
        found = agent.ask("What was ACME Group revenue in FY2025?",
                          reference_date=DEMO_REFERENCE_DATE)
        html = found._repr_html_()
        refused = agent.ask("What is the weather tomorrow?", reference_date=DEMO_REFERENCE_DATE)
    finally:
        agent.close()
    assert "Show where each figure comes from (1 source cell(s))" in html
    assert html.count("class='rs-certificate'") == 1 and "outline:2px solid" in html
    assert "Show where each figure" not in refused._repr_html_()  # no figure, no certificate
