"""The marking corpus: real files in both directions, built with tests/markingfiles.py.

Each positive carries its only marking in one place and a canary in its text; the
review's 19 variants (as reconstructed here) come first, then generalisations (other
places, languages, spellings, decorations). Each negative is a public-looking file whose
words mention confidential information, restricted cash or the board inside sentences,
table rows and headings: it must not be locked away.
"""

from __future__ import annotations

from pathlib import Path

from tests.filemakers import make_pptx, make_xlsx
from tests.markingfiles import (
    PUBLIC_TABLE,
    TABLE,
    Planted,
    Writer,
    csv_rows,
    custom_property,
    docx_banner,
    docx_body,
    docx_file,
    docx_header,
    docx_sdt,
    docx_textbox,
    docx_watermark,
    md,
    pdf,
    plain,
    pptx_layout,
    pptx_slide,
    story,
    xlsx_comment,
    xlsx_print,
)

__all__ = ["POSITIVES", "NEGATIVES", "REVIEW_VARIANTS", "MORE_VARIANTS", "write_positives",
           "write_negatives"]

_PAGE = [(760.0, "Budget review"), (740.0, "{text}")]

#: The reviewer's 19 variants as this suite reconstructs them: (file name, writer).
REVIEW_VARIANTS: list[tuple[str, Writer]] = [
    ("do_not_distribute.md", md("CONFIDENTIAL - DO NOT DISTRIBUTE")),
    ("private.md", md("Private & Confidential")),
    ("commercial.md", md("Commercial in confidence")),
    ("prepared_for_board.md", md("CONFIDENTIAL \u2014 prepared for the Board of Directors")),
    ("freetext.pdf", pdf(_PAGE, {"Subtype": "/FreeText", "Contents": "STRICTLY CONFIDENTIAL"})),
    ("content_control.docx", docx_sdt("STRICTLY CONFIDENTIAL")),
    ("first_header.docx", docx_header("STRICTLY CONFIDENTIAL", "first")),
    ("even_header.docx", docx_header("STRICTLY CONFIDENTIAL", "even")),
    ("text_box.docx", docx_textbox("STRICTLY CONFIDENTIAL")),
    ("cyrillic.md", md("STRICTLY C\u043eNFIDENTIAL")),
    ("zero_width.md", md("STRICTLY CON\u200bFIDENTIAL")),
    ("hyphenated.md", md("STRICTLY CON-\nFIDENTIAL")),
    ("board_circulation.md", md("\u4ec5\u4f9b\u8463\u4e8b\u4f1a\u6210\u5458\u4f20\u9605")),
    ("BoD_minutes_2026-09.md", plain("Minutes of the Board of Directors\n\n{text}\n")),
    ("print_header.xlsx", xlsx_print("STRICTLY CONFIDENTIAL")),
    ("layout.pptx", pptx_layout("STRICTLY CONFIDENTIAL")),
    ("html_comment.md", md("<!-- Classification: RESTRICTED -->")),
    ("traditional.md", md("\u6a5f\u5bc6")),
    ("french.md", md("CONFIDENTIEL")),
]

#: Generalisations: other places, languages, spellings and decorations of a marking.
MORE_VARIANTS: list[tuple[str, Writer]] = [
    ("bottom_line.md", md("Confidential \u2013 not for onward distribution", "bottom")),
    ("decorated.md", md("*** STRICTLY PRIVATE AND CONFIDENTIAL ***")),
    ("bold.md", md("**RESTRICTED**")),
    ("bracketed.md", md("[Highly Confidential \u2013 Attorneys' Eyes Only]")),
    ("spaced.md", md("R E S T R I C T E D")),
    ("mixed_case.md", md("cOnFiDeNtIaL \u2014 BoArD oNlY")),
    ("fullwidth.md", md("\uff23\uff2f\uff2e\uff26\uff29\uff24\uff25\uff2e\uff34\uff29\uff21\uff2c"
                        " \u2014 \uff22\uff4f\uff41\uff52\uff44")),
    ("greek.md", md("T\u039fP SECRET")),
    ("leet.md", md("C0NFIDENTIAL - D0 N0T F0RWARD")),
    ("accented.md", md("Conf\u00efdential \u2013 Board")),
    ("in_confidence.md", md("In strict confidence")),
    ("board_members.md", md("For Board members only")),
    ("company_conf.md", md("ACME Confidential")),
    ("sensitive.md", md("OFFICIAL-SENSITIVE")),
    ("german.md", md("STRENG VERTRAULICH")),
    ("spanish.md", md("Confidencial \u2014 uso interno")),
    ("italian.md", md("RISERVATO")),
    ("dutch.md", md("Vertrouwelijk")),
    ("russian.md", md("\u041a\u041e\u041d\u0424\u0418\u0414\u0415\u041d\u0426\u0418\u0410\u041b"
                      "\u042c\u041d\u041e")),
    ("japanese.md", md("\u793e\u5916\u79d8")),
    ("korean.md", md("\ub300\uc678\ube44")),
    ("chinese_secret.md", md("\u7d55\u5bc6\u6587\u4ef6")),
    ("chinese_board.md", md("\u8463\u4e8b\u4f1a\u4e13\u7528\uff0c\u8bf7\u52ff\u5916\u4f20")),
    ("yaml_front.md", plain("---\ntitle: Plan\nclassification: restricted\n---\n\n{text}\n")),
    ("keyed_french.md", md("Classification : Diffusion restreinte")),
    ("html_span.md", md('<p align="center"><b>STRICTLY CONFIDENTIAL</b></p>')),
    ("multiline_comment.md", md("<!--\n  Sensitivity: Board only\n-->")),
    ("board_minutes_title.md", plain("# ACME Group \u2014 Board Minutes, 12 March 2026\n\n"
                                     "{text}\n")),
    ("meeting_minutes.txt", plain("Minutes of the meeting of the Board of Directors held on "
                                  "12 March 2026\n\n{text}\n")),
    ("cn_minutes.md", plain("\u8463\u4e8b\u4f1a\u4f1a\u8bae\u7eaa\u8981\n\n{text}\n")),
    ("docx_body.docx", docx_body("Confidential \u2013 prepared for the Audit Committee")),
    ("docx_footer.docx", docx_header("Commercial in Confidence | page 1", "footer")),
    ("docx_sdt_board.docx", docx_sdt("RESTRICTED \u2013 BOARD ONLY")),
    ("watermark.docx", docx_watermark("STRICTLY CONFIDENTIAL")),
    ("banner_table.docx", docx_banner("PRIVATE AND CONFIDENTIAL")),
    ("msip_label.docx", custom_property("MSIP_Label_7f3a_Name", "Highly Confidential",
                                        docx_file(lambda d: None))),
    ("even_footer.xlsx", xlsx_print("&\"Arial,Bold\"&12Confidential &K00FF00\u2014 Board",
                                    "evenFooter")),
    ("first_header.xlsx", xlsx_print("Restricted", "firstHeader")),
    ("cell_note.xlsx", xlsx_comment("Strictly private and confidential")),
    ("msip.xlsx", custom_property("Classification", "Restricted",
                                  lambda p, t: make_xlsx(p, {"Budget": [[t], *TABLE]}) and None)),
    ("master_footer.pptx", pptx_layout("Confidential \u2014 Board use only", placeholder=True)),
    ("slide_box.pptx", pptx_slide("VERTRAULICH")),
    ("stamp.pdf", pdf(_PAGE, {"Subtype": "/Stamp", "Name": "/TopSecret"})),
    ("acrobat_stamp.pdf", pdf(_PAGE, {"Subtype": "/Stamp", "Name": "/SBNotForPublicRelease"})),
    ("sticky_note.pdf", pdf(_PAGE, {"Subtype": "/Text",
                                    "Contents": "Restricted \u2013 board only"})),
    ("pdf_header.pdf", pdf([(812.0, "RESTRICTED"), *_PAGE])),
    ("pdf_footer.pdf", pdf([*_PAGE, (30.0, "Commercial in confidence \u2014 Page 1 of 1")])),
    ("pdf_cover.pdf", pdf([(500.0, "280|SECRET"), (760.0, "Budget review"),
                           (300.0, "{text}")])),
    ("pdf_title.pdf", pdf(_PAGE, title="Board minutes \u2014 September 2026")),
    ("marking.csv", csv_rows("Strictly confidential")),
]

POSITIVES = REVIEW_VARIANTS + MORE_VARIANTS


def _stacked_header_pdf(path: Path, text: str) -> None:
    """A filing page: a table whose column header stacks 'Restricted / Stock / Units'."""
    rows = [(700.0, "300|Restricted"), (688.0, "300|Stock"), (676.0, "300|Units"),
            (700.0, "400|Weighted"), (688.0, "400|Average"), (676.0, "400|Price"),
            (660.0, "Balance at January 1"), (660.0, "300|1,234"), (660.0, "400|31.05"),
            (646.0, "Granted"), (646.0, "300|567"), (646.0, "400|35.10"),
            (760.0, "Note 12. Stock-based compensation"), (740.0, "{text}")]
    pdf(rows)(path, text)


def _word_per_line_pdf(path: Path, text: str) -> None:
    """A text layer that breaks a sentence and a row label into one word per line."""
    words = "Cash and cash equivalents and Restricted Cash increased during the year".split()
    lines = [(700.0 - 13 * i, w) for i, w in enumerate(words)]
    pdf([(760.0, "Liquidity"), (740.0, "{text}"), *lines,
         (500.0, "Restricted"), (500.0, "300|$ 33"), (500.0, "400|$ 38"),
         (487.0, "cash")])(path, text)


#: Public-looking files that mention the marking words in sentences, rows and headings.
NEGATIVES: list[tuple[str, Writer]] = [
    ("sentences.md", plain(
        "# Annual report 2025\n\n{text}\n\nThe agreement contains customary confidential "
        "information provisions.\nRestricted cash rose to US$12m.\nThe Board of Directors "
        "approved the dividend.\nWe protect our trade secrets.\nConfidential treatment has "
        "been requested for portions of this exhibit.\nThis release is not for "
        "distribution in the United States.\n")),
    ("headings.md", plain(
        "# Notes to the accounts\n\n{text}\n\n## Restricted Cash\n\nCash held in escrow.\n\n"
        "## Restricted Stock Units\n\nUnits vest over four years.\n\n## Confidential "
        "Information\n\nSee the policy.\n\n## Board of Directors\n\nNine members.\n\n"
        "To the Board of Directors and Stockholders\n\nReport of the Board of Directors\n\n"
        "Trade Secrets\n\nNot for distribution\n\nNON-CONFIDENTIAL\n\nUnrestricted\n\n"
        "Classification of financial instruments\n\nInformation classification policy\n")),
    ("comments.md", plain("<!-- generated by pandoc -->\n# Results\n\n{text}\n\n<!-- TODO: "
                          "check the restricted cash figures with the board -->\n")),
    ("public_table.docx", docx_file(lambda d: _table_rows(d), PUBLIC_TABLE)),
    ("Board_of_Directors_overview.md", plain("# Board of Directors\n\n{text}\n")),
    ("board_composition.md", plain("# Corporate governance\n\nThe board of directors met "
                                   "eight times; minutes of the board are kept by the "
                                   "secretary.\n\n{text}\n")),
    ("cn_public.md", plain("# \u8463\u4e8b\u4f1a\u51b3\u8bae\u516c\u544a\n\n"
                           "\u516c\u53f8\u8463\u4e8b\u4f1a\u5ba1\u8bae\u901a\u8fc7\u4e86"
                           "\u5e74\u62a5\u3002\u53d7\u9650\u8d44\u91d1\u589e\u52a0\u3002\n\n"
                           "{text}\n")),
    ("deck.pptx", lambda p, t: make_pptx(p, [
        {"title": "ACME Group results (US$m)", "table": [
            *PUBLIC_TABLE, ["Restricted cash", "12", "14"]], "text": t,
         "notes": "Board of Directors approved the plan."}]) and None),
    ("workbook.xlsx", xlsx_print("Page &P of &N \u2014 &A", table=PUBLIC_TABLE)),
    ("stacked_header.pdf", _stacked_header_pdf),
    ("word_per_line.pdf", _word_per_line_pdf),
    ("public_release.pdf", pdf([
        (812.0, "NOT FOR RELEASE, PUBLICATION OR DISTRIBUTION IN OR INTO THE UNITED STATES"),
        *_PAGE, (600.0, "Restricted Cash"), (586.0, "Board of Directors")],
        {"Subtype": "/Text", "Contents": "Check the restricted cash note before release."})),
]


def _table_rows(d: object) -> None:
    rows = [["", "2025", "2024"], ["Restricted stock units", "1,234", "1,100"],
            ["Restricted", "33", "38"], ["Confidential", "", ""], ["Board fees", "5", "4"]]
    t = d.add_table(rows=len(rows), cols=3)  # type: ignore[attr-defined]
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            t.cell(r, c).text = value
    d.add_paragraph("Restricted stock units vested during the year.")  # type: ignore


def _write(folder: Path, corpus: list[tuple[str, Writer]]
           ) -> list[Planted]:
    out = []
    for filename, write in corpus:
        canary, text = story(filename)
        write(folder / filename, text)
        out.append(Planted(filename, canary))
    return out


def write_positives(folder: Path, corpus: list[tuple[str, Writer]]
                    | None = None) -> list[Planted]:
    """Write every positive (or ``corpus``) into ``folder``; return what was planted."""
    return _write(folder, POSITIVES if corpus is None else corpus)


def write_negatives(folder: Path) -> list[Planted]:
    """Write every negative into ``folder``; return what was written."""
    return _write(folder, NEGATIVES)
