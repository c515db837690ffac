"""A PDF table's row as a filing draws it: label pieces, dot leaders, names with figures.

Real 10-K tables draw a label in pieces wider apart than a word gap, dot leaders apart
from the label, "n/a" where a year has no figure, and name debt instruments by their
coupon, face amount and denomination ("Euro-denominated 0.5% notes due 2027",
"Medium-term note (€500 million Euros)"). The row is read, its figures are filed by
their columns, and what its name says of the instrument never becomes the unit of its
figures (the table's "(in millions)" of dollars does).
"""

from __future__ import annotations

from pathlib import Path

from ragspine_nb import FactStore, ingest
from tests.filings import cover_page, dev_filing_workspace, filing, page_values


def _facts(tmp_path: Path, rows: list[tuple[str, str, str]]) -> dict[tuple[str, str], tuple]:
    folder = tmp_path / "reports"
    folder.mkdir()
    filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
           [("Net sales", "1,200", "1,000"), *rows], ["Sales grew."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    store = FactStore(tmp_path / "ws" / "facts.db", create=False)
    return {(f.metric_code, f.period): (f.value, f.unit) for f in store.iter_facts()}


def test_a_label_drawn_in_pieces_is_one_row(tmp_path: Path) -> None:
    # the words of "Deferred revenue balance(s)" sit wider apart than a word gap: the
    # line was three text cells and two figures, and no row at all
    facts = _facts(tmp_path, [("Deferred revenue balance(s)", "52", "50")])
    assert facts[("DEFERRED_REVENUE_BALANCE", "2023")] == (52.0, "M")
    assert facts[("REVENUE", "2023")] == (1200.0, "M")


def test_dot_leaders_drawn_apart_leave_the_row_and_its_table_whole(tmp_path: Path) -> None:
    # a leader cell between label and figures made the line no row; the table then
    # lost its header and every figure (net sales too)
    facts = _facts(tmp_path, [("Backlog .........", "75", "60")])
    assert facts[("BACKLOG", "2023")] == (75.0, "M")
    assert facts[("REVENUE", "2022")] == (1000.0, "M")


def test_not_applicable_is_a_columns_cell_not_a_word_of_the_label(tmp_path: Path) -> None:
    facts = _facts(tmp_path, [("Other income", "n/a", "(3.5)")])
    assert facts[("OTHER_INCOME", "2022")] == (-3.5, "M")
    assert ("OTHER_INCOME", "2023") not in facts
    assert not [code for code, _ in facts if "N_A" in code]


def test_a_notes_coupon_face_amount_and_currency_are_its_name_not_its_unit(
        tmp_path: Path) -> None:
    # "0.5% notes" were stored as 336.1 percent, "€500 million Euros" and "Euro bonds"
    # as euros: the table states dollars in millions
    facts = _facts(tmp_path, [("0.5% notes due 2027", "336", "286"),
                              ("Note (€500 million Euros) floating", "523", "540"),
                              ("Euro bonds due 2030", "357", "380")])
    assert facts[("0_5_NOTES_DUE_2027", "2023")] == (336.0, "M")
    assert facts[("NOTE_500_MILLION_EUROS_FLOATING", "2023")] == (523.0, "M")
    assert facts[("EURO_BONDS_DUE_2030", "2023")] == (357.0, "M")


def test_a_title_closing_its_parenthesis_on_the_next_line_states_the_scale(
        tmp_path: Path) -> None:
    """Adobe's "… were as follows (in millions, except" / "Yen):" over its foreign
    currency revenue: only "Yen):" was read as the title, so the scale came from the
    filing's prose elsewhere (thousands): €589.6 million was stored as 589.6 thousand."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    folder = tmp_path / "reports"
    folder.mkdir()
    c = canvas.Canvas(str(folder / "zentra_report.pdf"), pagesize=A4, invariant=1)
    cover_page(c, "ZENTRA CORPORATION", 2023, "1-4101")
    y = 800
    c.setFont("Helvetica", 7)  # a sentence longer than a label: prose, no title of its own
    c.drawString(30, y, "Our significant foreign currency revenue exposures for fiscal 2023 and "
                        "2022, by the currency of the customer contract, were as follows (in "
                        "millions, except")
    c.setFont("Helvetica", 12)
    y -= 16
    c.drawString(60, y, "Yen):")
    y -= 16
    c.drawString(300, y, "2023")
    c.drawString(400, y, "2022")
    y -= 16
    for label, a, b in (("Euro", "589.6", "455.5"), ("Yen (in billions)", "29.7", "28.0")):
        c.drawString(60, y, label)
        c.drawRightString(340, y, a)
        c.drawRightString(440, y, b)
        y -= 16
    c.showPage()
    c.save()
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    store = FactStore(tmp_path / "ws" / "facts.db", create=False)
    facts = {(f.metric_code, f.period): (f.value, f.unit) for f in store.iter_facts()}
    assert facts[("EURO", "2023")] == (589.6, "M")
    assert facts[("YEN_IN_BILLIONS", "2023")] == (29.7, "BN")



def test_an_amount_beside_its_percentage_under_a_percent_caption_is_an_amount(
        tmp_path: Path) -> None:
    """General Mills' margin table writes each year as an amount then its percentage
    ("Restructuring charges (c) 77.6 0.5 % 82.7 0.5 % 221.9 1.4 % …") under one caption
    "Percent of Net Sales": the amounts were stored as percentages (221.9 PCT for $221.9
    million)."""
    ws = dev_filing_workspace(tmp_path, "GENERALMILLS_2019_10K.pdf")
    store = FactStore(ws / "facts.db", create=False)
    cells = {(f.channel, f.period, f.value): f.unit for f in store.iter_facts(
        metric_code="RESTRUCTURING_CHARGES") if f.source_locator.startswith("page=44,")}
    assert cells[("TOTAL", "2017", 221.9)] == "M", cells
    assert cells[("C_PERCENT", "2017", 1.4)] == "PCT", cells


def test_a_label_breaking_off_after_to_goes_on_on_the_next_line(tmp_path: Path) -> None:
    # Nike's 2023 10-K, page 87: "Sales through Direct to" / "Consumer 10,335 …" is one
    # row; "Consumer" was a row of its own (a name another filing's segment has)
    ws = dev_filing_workspace(tmp_path, "NIKE_2023_10K.pdf")
    facts = page_values(ws, "page=87,table=1,")
    assert facts[("SALES_THROUGH_DIRECT_TO_CONSUMER", "C_TOTAL_NIKE_INC", "2023")] == 22282.0
    assert not any(code == "CONSUMER" for code, _, _ in facts)
