"""Issue 35: markings are read where documents carry them, and only markings are.

A corpus of real files (tests/markingcorpus.py) in both directions: every positive
(the outside review's 19 variants as reconstructed here, and generalisations: other
places, languages, spellings, look-alike letters) ends RESTRICTED with the reason
named; every negative (sentences, headings and table rows mentioning confidential
information, restricted cash or the board; a public deck, workbook and filing pages)
keeps its level.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.errors import ProfileError
from ragspine_nb.extract.document import DocumentResult, read_document
from ragspine_nb.markings import board_material, marking_lines, read_marking
from ragspine_nb.sensitivity import classify_sensitivity, decide_sensitivity
from ragspine_nb.sensitivity_policy import BOARD_MATERIAL, SensitivityPolicy, policy_from_table
from tests.conftest import DEMO
from tests.filemakers import make_xlsx
from tests.markingcorpus import (
    NEGATIVES,
    POSITIVES,
    REVIEW_VARIANTS,
    write_negatives,
    write_positives,
)
from tests.markingfiles import annotate, docx_watermark, md, pdf

Results = dict[tuple[str, str], DocumentResult]
PROFILES = {"builtin": DomainProfile.builtin(),
            "demo": DomainProfile.from_file(DEMO / "profile.toml")}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """Every file of the corpus read with the built-in and the demo profile."""
    folder = tmp_path_factory.mktemp("markings")
    names = [p.filename for p in write_positives(folder) + write_negatives(folder)]
    return {(profile, name): read_document(folder / name, name, PROFILES[profile])
            for profile in PROFILES for name in names}


def _why(result: DocumentResult) -> str:
    return next((w for w in result.warnings if w.startswith("sensitivity ")), "")


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("filename", [name for name, _ in POSITIVES])
def test_every_marking_is_read_wherever_it_sits(corpus: Results, filename: str, profile: str
                                                ) -> None:
    result = corpus[profile, filename]
    assert result.sensitivity == "RESTRICTED", result.warnings
    assert _why(result).startswith("sensitivity RESTRICTED: "), result.warnings
    assert result.facts == () and not result.vocabulary


#: Where the review's variants carry their marking, as the ingest report names it.
WHERE = {
    "do_not_distribute.md": "body 'CONFIDENTIAL - DO NOT DISTRIBUTE' is a marking",
    "commercial.md": "body 'Commercial in confidence' is a marking",
    "freetext.pdf": "annotations of page 1 'STRICTLY CONFIDENTIAL'",
    "content_control.docx": "content controls 'STRICTLY CONFIDENTIAL'",
    "BoD_minutes_2026-09.md": "title 'Minutes of the Board of Directors' names board material",
    "print_header.xlsx": "print header of xl/worksheets/sheet1.xml 'STRICTLY CONFIDENTIAL'",
    "html_comment.md": "HTML comments 'RESTRICTED'",
    "traditional.md": "body '\u6a5f\u5bc6' is a marking",
    "french.md": "body 'CONFIDENTIEL' is a marking",
    "cyrillic.md": "body 'STRICTLY C\u043eNFIDENTIAL' is a marking",
    "board_circulation.md": "is a marking",
    "prepared_for_board.md": "prepared for the Board of Directors' is a marking",
}


@pytest.mark.parametrize("filename", sorted(WHERE))
def test_the_report_names_where_the_marking_is(corpus: Results, filename: str) -> None:
    assert WHERE[filename] in _why(corpus["builtin", filename])


def test_the_review_list_is_the_nineteen_variants() -> None:
    assert len(REVIEW_VARIANTS) == 19


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("filename", [name for name, _ in NEGATIVES])
def test_no_public_file_is_locked_away(corpus: Results, filename: str, profile: str) -> None:
    result = corpus[profile, filename]
    assert result.sensitivity == "INTERNAL", result.warnings
    assert _why(result) == ""


def test_public_figures_are_still_extracted(corpus: Results) -> None:
    values = {f.value for f in corpus["builtin", "public_table.docx"].facts}
    assert 1405.0 in values


# ------------------------------------------------------------------------ lines
@pytest.mark.parametrize("line", [
    "CONFIDENTIAL - DO NOT DISTRIBUTE", "Commercial in confidence", "Private & Confidential",
    "CONFIDENTIAL \u2014 prepared for the Board of Directors", "STRICTLY C\u043eNFIDENTIAL",
    "\u4ec5\u4f9b\u8463\u4e8b\u4f1a\u6210\u5458\u4f20\u9605", "<!-- Classification: RESTRICTED -->",
    "\u6a5f\u5bc6", "CONFIDENTIEL", "Strictement confidentiel", "Streng vertraulich",
    "Estrictamente confidencial", "Strettamente riservato", "Strikt vertrouwelijk",
    "\u0421\u0415\u041a\u0420\u0415\u0422\u041d\u041e", "\u6975\u79d8", "\ub300\uc678\ube44",
    "\u8463\u4e8b\u4f1a\u4e13\u7528", "R E S T R I C T E D", "T\u039fP SECRET",
    "C0NFIDENTIAL - D0 N0T F0RWARD", "**Restricted**", "[Highly Confidential \u2013 "
    "Attorneys' Eyes Only]", "Confidential | Page 3 of 12", "For the Board's eyes only",
    "Board members only", "In strictest confidence", "Not for public release",
    "ACME Confidential", "Commercially sensitive", "Sensitivity label: Highly Confidential",
    "classification: restricted", "\u5bc6\u7ea7\uff1a\u673a\u5bc6", "Distribution: Board only",
    "<b>CONFIDENTIAL \u2013 BOARD</b>", "\uff23\uff2f\uff2e\uff26\uff29\uff24\uff25\uff2e"
    "\uff34\uff29\uff21\uff2c \u2014 \uff22\uff2f\uff21\uff32\uff24",
])
def test_a_marking_line_is_read(line: str) -> None:
    assert read_marking(line) is not None, line
    assert classify_sensitivity(SensitivityPolicy(), "memo.md", f"Plans.\n{line}\nMore.",
                                "public") == "RESTRICTED", line


@pytest.mark.parametrize("line", [
    "Restricted cash rose to US$12m.", "Restricted Cash", "Restricted Stock Units",
    "Restricted stock units 2,375 \u2014", "Restricted $ 33 $ 38", "Confidential Information",
    "Confidential treatment has been requested for portions of this exhibit.",
    "The agreement contains customary confidential information provisions.",
    "Board of Directors", "The Board of Directors approved the dividend.",
    "To the Board of Directors and Stockholders", "Report of the Board of Directors",
    "Trade Secrets", "Company Secretary", "Not for distribution", "NON-CONFIDENTIAL",
    "Not confidential", "Unrestricted", "Temporarily restricted net assets",
    "Classification of financial instruments", "Industry classification: insurance",
    "Sensitivity: +/-1% change in the discount rate", "Sensitivity: 10%",
    "NOT FOR RELEASE, PUBLICATION OR DISTRIBUTION IN OR INTO THE UNITED STATES",
    "All rights reserved", "\u53d7\u9650\u8d44\u91d1", "\u8463\u4e8b\u4f1a\u51b3\u8bae\u516c\u544a",
    "\u516c\u53f8\u8463\u4e8b\u4f1a\u5ba1\u8bae\u901a\u8fc7\u4e86\u5e74\u62a5\u3002",
    "Audit Committee", "Board meeting", "This document is confidential and was shared with us.",
    "Derechos reservados", "<!-- generated by pandoc -->",
])
def test_a_word_of_a_sentence_heading_or_row_is_no_marking(line: str) -> None:
    assert read_marking(line) is None, line
    assert classify_sensitivity(SensitivityPolicy(), "memo.md", f"Plans.\n{line}\nMore.",
                                "public") == "PUBLIC", line


def test_a_plain_confidential_marking_states_its_own_level() -> None:
    decision = decide_sensitivity(SensitivityPolicy(), "memo.md", "Plans.\nConfidential\n",
                                  "public")
    assert (decision.label, decision.notes()) == (
        "CONFIDENTIAL", ("sensitivity CONFIDENTIAL: label stated in the body 'Confidential'",))


def test_an_unknown_keyed_label_still_fails_closed() -> None:
    decision = decide_sensitivity(SensitivityPolicy(), "memo.md", "Classification: Amber\n")
    assert decision.label == "RESTRICTED"
    assert decision.warnings == (
        "unknown sensitivity label 'Amber' treated as RESTRICTED (fail closed); valid levels: "
        "['PUBLIC', 'INTERNAL', 'CONFIDENTIAL', 'RESTRICTED']",)


def test_lines_split_by_a_hyphen_or_a_break_in_capitals_are_joined() -> None:
    assert [m.label for m in marking_lines("STRICTLY CON-\nFIDENTIAL")] == [
        "STRICTLY CONFIDENTIAL"]
    assert [m.label for m in marking_lines("STRICTLY\nCONFIDENTIAL")] == [
        "CONFIDENTIAL", "STRICTLY CONFIDENTIAL"]
    assert list(marking_lines("The\nrestricted\ncash\nrose")) == []
    assert list(marking_lines("THE\nRESTRICTED\nCASH")) == []
    assert [m.label for m in marking_lines("RESTRICTED\nBoard paper\nThe plan.")] == [
        "RESTRICTED"]


# ---------------------------------------------------------------- board material
@pytest.mark.parametrize("name, found", [
    ("BoD_minutes_2026-09.md", "BoD minutes"),
    ("Minutes of the Board of Directors", "minutes of the board"),
    ("Minutes of a Meeting of the Board of Directors held on 3 May 2026",
     "minutes of a meeting of the board"),
    ("BoardMinutes2026.pdf", "board minutes"), ("Q3 board pack.pptx", "board pack"),
    ("\u8463\u4e8b\u4f1a\u4f1a\u8bae\u7eaa\u8981 2026",
     "\u8463\u4e8b\u4f1a\u4f1a\u8bae\u7eaa\u8981"),
    ("\u53d6\u7de0\u5f79\u4f1a\u8b70\u4e8b\u9332", "\u53d6\u7de0\u5f79\u4f1a\u8b70\u4e8b\u9332"),
    ("Board of Directors", None), ("Report of the Board of Directors", None),
    ("dashboard_paper_template.xlsx", None), ("board_composition.md", None),
    ("The board minutes were approved at the meeting.", None),
    ("\u8463\u4e8b\u4f1a\u51b3\u8bae\u516c\u544a", None),
])
def test_board_material_is_recognised_by_title_or_name(name: str, found: str | None) -> None:
    assert board_material(name, BOARD_MATERIAL) == found


def test_board_material_is_configurable_in_the_profile() -> None:
    off = policy_from_table({"board_material": []})
    assert classify_sensitivity(off, "BoD_minutes_2026-09.md") == "INTERNAL"
    own = policy_from_table({"board_material": ["ExCo minutes"]})
    assert classify_sensitivity(own, "exco_minutes_may.md") == "RESTRICTED"
    assert classify_sensitivity(own, "BoD_minutes_2026-09.md") == "INTERNAL"
    assert policy_from_table({}).board_material == BOARD_MATERIAL
    assert SensitivityPolicy().to_dict()["board_material"] == list(BOARD_MATERIAL)
    with pytest.raises(ProfileError, match="sensitivity.board_material must be a list"):
        policy_from_table({"board_material": "board minutes"})


def test_a_title_of_board_material_restricts_whatever_the_file_name(
        tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("Minutes of the meeting of the Board of Directors\n\nThe plan.\n", "utf-8")
    result = read_document(path, "notes.md", DomainProfile.builtin())
    assert result.sensitivity == "RESTRICTED"


# ---------------------------------------------------------- places and levels
def test_a_keyword_with_a_look_alike_letter_is_found() -> None:
    demo = PROFILES["demo"]
    text = "This paper is strictly c\u043enfidential and covers the deal."
    assert classify_sensitivity(demo, "memo.md", text) == "RESTRICTED"
    assert classify_sensitivity(demo, "memo.md", "E\u0425EC_C\u041eMP appendix") == "RESTRICTED"


@pytest.mark.parametrize("writer", [
    pdf([(812.0, "CONFIDENTIAL"), (760.0, "Budget review"), (740.0, "{text}")]),
    pdf([(760.0, "Budget review"), (740.0, "{text}")],
        {"Subtype": "/Stamp", "Name": "/SBConfidential"}),
    docx_watermark("CONFIDENTIAL"),
])
def test_a_plain_confidential_marking_is_read_in_every_place(tmp_path: Path, writer: object
                                                            ) -> None:
    path = tmp_path / ("x.docx" if "docx" in repr(writer) else "x.pdf")
    writer(path, "The plan.")  # type: ignore[operator]
    assert read_document(path, path.name, DomainProfile.builtin()).sensitivity == "CONFIDENTIAL"


def test_a_lone_marking_row_of_a_sheet_is_read_only_as_a_banner(tmp_path: Path) -> None:
    rows: list[list[object]] = [["Funds (US$m)", "FY2024", "FY2025"]]
    rows += [[f"Fund {i}", i, i + 1] for i in range(1, 20)]
    make_xlsx(tmp_path / "funds.xlsx", {"Funds": [*rows, ["RESTRICTED"], ["Cash", 3, 4]]})
    make_xlsx(tmp_path / "pack.xlsx", {"Pack": [["STRICTLY CONFIDENTIAL"], *rows]})
    make_xlsx(tmp_path / "top.xlsx", {"Pack": [["SECRET"], *rows]})
    builtin = DomainProfile.builtin()
    assert [read_document(tmp_path / n, n, builtin).sensitivity
            for n in ("funds.xlsx", "pack.xlsx", "top.xlsx")] == [
        "INTERNAL", "RESTRICTED", "RESTRICTED"]


def test_a_pdf_marking_word_inside_a_table_row_or_beside_a_word_is_no_marking(
        tmp_path: Path) -> None:
    builtin = DomainProfile.builtin()
    pdf([(700.0, "60|Restricted"), (700.0, "300|Unrestricted"), (686.0, "60|12"),
         (686.0, "300|14")])(tmp_path / "row.pdf", "")
    pdf([(500.0, "Restricted"), (487.0, "funds")])(tmp_path / "pair.pdf", "")
    pdf([(500.0, "Restricted"), (460.0, "Page 4")])(tmp_path / "alone.pdf", "")
    assert [read_document(tmp_path / n, n, builtin).sensitivity
            for n in ("row.pdf", "pair.pdf", "alone.pdf")] == [
        "INTERNAL", "INTERNAL", "RESTRICTED"]


def test_annotations_that_are_sentences_are_no_markings(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    pdf([(760.0, "Budget review")])(path, "")
    annotate(path, {"Subtype": "/Text", "Contents": "Is this figure restricted? Please check."})
    assert read_document(path, "a.pdf", DomainProfile.builtin()).sensitivity == "INTERNAL"


def test_a_marking_in_a_markdown_comment_or_tag_is_read(tmp_path: Path) -> None:
    md("<!--\n  Sensitivity: Board only\n-->")(tmp_path / "a.md", "The plan.")
    assert read_document(tmp_path / "a.md", "a.md", DomainProfile.builtin()).sensitivity == \
        "RESTRICTED"


def test_a_one_cell_slide_table_banner_is_a_marking_and_a_slide_table_row_is_not(
        tmp_path: Path) -> None:
    from tests.filemakers import make_pptx

    builtin = DomainProfile.builtin()
    banner = make_pptx(tmp_path / "deck.pptx", [{"title": "Plan", "table": [
        ["STRICTLY CONFIDENTIAL", ""], ["Revenue", "100"]]}])
    assert read_document(banner, "deck.pptx", builtin).sensitivity == "RESTRICTED"
    rows = make_pptx(tmp_path / "rows.pptx", [{"title": "Plan", "table": [
        ["Item", "FY2025"], ["Restricted cash", "100"], ["Confidential", "5"]]}])
    assert read_document(rows, "rows.pptx", builtin).sensitivity != "RESTRICTED"
