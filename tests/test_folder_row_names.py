"""Row names in a folder of filings: what one filing's table writes never hijacks a question.

A user's folder brings every row label of every filing into the question vocabulary.
A question naming one company's line item in the plainest words ("What was Zentra's
net sales in FY2023?") must read that line item, whatever another filing's tables are
labelled: a plural note ("balance(s)"), a period set down a column with no year above
it ("Fiscal Year", "First Quarter"), dot leaders to the figures.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine_nb import ingest
from ragspine_nb.agent import Agent
from tests.filings import dev_filing_workspace, filing, with_orvale_row

REF = date(2024, 3, 1)


def test_a_possessive_s_is_no_word_of_a_row_name(tmp_path: Path) -> None:
    # "Zentra's" read with the company apart leaves "s"; Zentra's own row "... balance(s)"
    # shares it and "net sales": read as a rival naming more of the question, it asked
    # back which row was meant (Best Buy's revenue in the 29 dev filings, beside its
    # "Revenue recognized that was included in the contract liability balance(s) ...")
    folder = tmp_path / "reports"
    folder.mkdir()
    filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
           [("Net sales", "1,200", "1,000"),
            ("Revenue in contract balance(s)", "52", "50")], ["Sales grew."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What was Zentra's revenue in FY2023?", REF)
    assert r.answer.startswith("Zentra Corporation Revenue, FY2023: 1,200 million"), r.answer


def test_a_row_naming_only_a_period_is_the_questions_period_not_a_row(tmp_path: Path) -> None:
    # Orvale's quarterly table lists "Fiscal Year" down its first column with no year
    # above it: "net sales in each fiscal year" named that row beside net sales, and the
    # answer listed "Fiscal Year, FY2023 is not in the fact store" for Zentra
    r = with_orvale_row(tmp_path, "Fiscal Year").ask(
        "What was Zentra's net sales in each fiscal year?", REF)
    assert "Fiscal Year" not in r.answer, r.answer
    assert [(f.label, f.value) for f in r.figures] == [
        ("Zentra Corporation Revenue, FY2022", 1000.0),
        ("Zentra Corporation Revenue, FY2023", 1200.0)]  # each year reported


def test_dot_leaders_are_no_part_of_a_row_label(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
           [("Backlog ....................", "75", "60"), ("Net sales", "1,200", "1,000")],
           ["Sales grew."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What was Zentra's backlog in FY2023?", REF)
    assert r.answer.startswith("Zentra Corporation Backlog, FY2023: 75 million"), r.answer


def test_a_formula_asked_with_no_period_is_the_latest_year_its_operands_report(
        tmp_path: Path) -> None:
    # a margin no row states, asked of a filing for 2022 in 2024: it was computed for
    # FY2023 (no operand stored: "not computed") and said nothing of the year assumed
    folder = tmp_path / "reports"
    folder.mkdir()
    filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2022,
           [("Net sales", "1,200", "1,000"), ("Gross profit", "300", "240")], ["Sales grew."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What was Zentra's gross margin?", REF)
    assert r.answer.startswith(
        "(Assuming the period is FY2022 (latest fiscal year reported).) Zentra Corporation "
        "Gross margin (%), FY2022: 25% (source: zentra_report.pdf)"), r.answer


def test_a_word_asking_an_operation_is_no_row_of_another_filing(tmp_path: Path) -> None:
    # Orvale's table has a row "Growth %"; "Zentra's net sales growth" read it as a row
    # Zentra has no figure of, qualifying net sales: "growth" was no cue, and the change
    # asked was refused as "words this agent could not read exactly"
    r = with_orvale_row(tmp_path, "Growth %").ask("What was Zentra's net sales growth in 2023?",
                                                  REF)
    assert r.answer.startswith("(Assuming the comparison is FY2023 against FY2022.) Zentra "
                               "Corporation Revenue, change from FY2022 to FY2023: 200 million"), \
        r.answer


def test_two_rows_stating_the_same_figures_are_one_reading_said(tmp_path: Path) -> None:
    # one company's filings name one line item two ways ("Subscription revenue",
    # "Total subscription revenue"); both state 800 for 2022: asking back which was meant
    # offered a choice that changed nothing (Adobe's subscription revenue, fiscal 2022)
    folder = tmp_path / "reports"
    folder.mkdir()
    filing(folder / "zentra_2023.pdf", "ZENTRA CORPORATION", 2023,
           [("Net sales", "1,200", "1,000"), ("Subscription revenue", "950", "800")],
           ["Sales grew."], registrant="1-4101")
    filing(folder / "zentra_2022.pdf", "ZENTRA CORPORATION", 2022,
           [("Net sales", "1,000", "900"), ("Total subscription revenue", "800", "700")],
           ["Sales grew."], registrant="1-4101")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    r = agent.ask("What was Zentra's subscription revenue in 2022?", REF)
    assert r.answer.startswith("(Total subscription revenue and Subscription revenue state the "
                               "same figures: Total subscription revenue is answered.) Zentra "
                               "Corporation Total subscription revenue, FY2022: 800 million"), \
        r.answer
    # a year only one row states is no agreement: asked back, never one picked
    assert agent.ask("What was Zentra's subscription revenue in 2021?", REF
                     ).answer.startswith("Which of these do you mean")


def test_a_row_named_by_a_verbs_past_is_named_by_the_verb(tmp_path: Path) -> None:
    # "Dividends paid" asked as "how much did Orvale pay in dividends": 'paid' and 'pay'
    # were two words, and the question asked back among every dividend row
    r = with_orvale_row(tmp_path, "Dividends paid").ask(
        "How much did Orvale pay in dividends in 2023?", REF)
    assert r.answer.startswith("Orvale Inc. Dividends paid, FY2023: 52 million"), r.answer


def test_a_formulas_operand_two_filings_state_differently_is_said_so(tmp_path: Path) -> None:
    # Zentra's 2023 10-K restates 2022 operating income (90 against 100 in its 2022
    # 10-K): the margin was refused as 'Operating income … is not in the fact store'
    folder = tmp_path / "reports"
    folder.mkdir()
    filing(folder / "zentra_2023.pdf", "ZENTRA CORPORATION", 2023,
           [("Net sales", "1,200", "1,000"), ("Operating income", "130", "90")],
           ["Sales grew."], registrant="1-4101")
    filing(folder / "zentra_2022.pdf", "ZENTRA CORPORATION", 2022,
           [("Net sales", "1,000", "900"), ("Operating income", "100", "80")],
           ["Sales grew."], registrant="1-4101")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What was Zentra's operating margin in 2022?",
                                                  REF)
    assert not r.figures
    assert ("Operating income (OPERATING_INCOME, FY2022) is stated differently by 2 documents: "
            "100 million (source: zentra_2022.pdf") in r.answer, r.answer
    assert "; 90 million (source: zentra_2023.pdf" in r.answer


def test_a_year_with_a_footnote_mark_is_no_row_name(tmp_path: Path) -> None:
    # Orvale's table has a row "2023 (1)": "Zentra 2023年的营业收入" read it as the row (a
    # year with a footnote mark) and answered "2023 (1), FY2023 not found"
    r = with_orvale_row(tmp_path, "2023 (1)").ask("Zentra 2023年的营业收入是多少？", REF)
    assert r.answer.startswith("Zentra Corporation Revenue，FY2023：1,200百万"), r.answer


def test_a_year_ending_the_sentence_is_read(tmp_path: Path) -> None:
    # "… in 2022 and 2023." read 2022 only (a full stop after a year was read as a decimal)
    r = with_orvale_row(tmp_path, "Backlog").ask("Compare Zentra's net sales in 2022 and 2023.",
                                                  REF)
    assert [(f.label, f.value) for f in r.figures][:2] == [
        ("Zentra Corporation Revenue, FY2022", 1000.0),
        ("Zentra Corporation Revenue, FY2023", 1200.0)], r.answer



def test_a_deferred_tax_row_is_never_the_line_item_it_is_named_after(tmp_path: Path) -> None:
    # Amcor's 2023 10-K lists "Inventories $ 20" under "Deferred tax assets" in its tax
    # note; its balance sheet states inventories only as their two parts: "What were
    # Amcor's inventories?" answered the tax asset, 20 million, as the inventories
    agent = Agent.from_workspace(dev_filing_workspace(tmp_path, "AMCOR_2023_10K.pdf"))
    r = agent.ask("What were Amcor's inventories at the end of FY2023?", REF)
    assert "20 million" not in r.answer and not r.figures, r.answer
    tax = agent.ask("What was Amcor's deferred tax asset on inventories in FY2023?", REF)
    assert "Deferred tax assets: Inventories, FY2023: 20 million" in tax.answer, tax.answer
    # nor does its label name it: "property, plant and equipment" asked back between the
    # PP&E note's total and the deferred tax liabilities row "Property, plant, and equipment"
    ppe = agent.ask("What was Amcor's property, plant and equipment in FY2023?", REF)
    assert ppe.answer.startswith("Amcor PLC Property, plant and equipment, FY2023: 7,770 "
                                 "million"), ppe.answer
