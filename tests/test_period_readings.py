"""Readings on a folder of filings: rows with no figure for the periods named, a region's row.

On the folder of the 29 FinanceBench dev filings (no metadata), "How much cash did Best
Buy have at the end of Q2 FY2024?" asked back among four rows, two of them stated only
in its 2017 10-K ("Cash and Cash Equivalents at End of Period - held for sale"); the
quarter's balance sheet states one: 1,093 (``scope/stored_readings.narrow_to_periods``).
Each test fails on the code before its rule.
"""

from __future__ import annotations

import shutil
from datetime import date

import pytest

from ragspine_nb import ingest
from ragspine_nb.agent import Agent
from ragspine_nb.extract.beir import data_root


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    pdfs = sorted((data_root() / "financebench" / "pdfs").glob("*.pdf"))
    if len(pdfs) < 29:
        pytest.skip("FinanceBench filings not found (set RAGSPINE_DATA)")
    root = tmp_path_factory.mktemp("folder")
    (root / "reports").mkdir()
    for pdf in pdfs:
        shutil.copy(pdf, root / "reports" / pdf.name)
    ingest(root / "reports", workspace=root / "ws", progress=False)
    return Agent.from_workspace(root / "ws")


def test_a_row_with_no_figure_for_the_quarter_is_no_reading(folder: Agent) -> None:
    result = folder.ask("How much cash did Best Buy have at the end of Q2 FY2024?",
                        reference_date=date(2024, 1, 1))
    assert [f.value for f in result.figures] == [1093.0], \
        result.answer
    assert "2024Q2: 1,093 million" in result.answer
    assert "held for sale" not in result.answer


def test_a_regions_share_named_by_a_row_and_a_column_of_its_words(folder: Agent) -> None:
    """"North America" names a row of Nike's revenues ("Revenues: North America") and a
    column of its segment table: read as both, the share was refused ("could not be
    identified"); the column is the row's own words, no column asked."""
    result = folder.ask("What percentage of Nike's revenue came from North America in "
                        "fiscal 2023?", reference_date=date(2024, 1, 1))
    assert "21,608 / 51,217 × 100 = 42.19%" in result.answer, result.answer


def test_periods_compared_keep_to_the_row_named(folder: Agent) -> None:
    """"Nike's inventories at the end of fiscal 2023 compared with fiscal 2022" was read as a
    list of three rows ("Inventories", a "Year end" row with no figure of Nike's and the
    cash flow's "(Increase) in inventories", stated for 2016–2018 only) and refused as rows
    × periods; "compared" lists the periods, and a row found only inside another's words is
    no item of a list: both levels and their difference."""
    result = folder.ask("What were Nike's inventories at the end of fiscal 2023 compared with "
                        "fiscal 2022?", reference_date=date(2024, 1, 1))
    assert [f.value for f in result.figures] == [8454.0, 8420.0, 34.0], result.answer
    assert "(8,454 − 8,420) = 34" in result.answer


def test_a_row_listed_in_its_own_words_is_still_asked(folder: Agent) -> None:
    """A list's item written in full stays an item when it has no figure for the year: it
    is said not found, never dropped."""
    result = folder.ask("What were Adobe's revenue and total digital media revenue in fiscal "
                        "2017?", reference_date=date(2024, 1, 1))
    assert [f.value for f in result.figures] == [7301505.0], result.answer
    assert "Not found: Adobe Systems Incorporated Total Digital Media revenue, FY2017" \
        in result.answer


def test_a_row_with_no_figure_for_the_year_read_as_a_row_and_a_column(folder: Agent) -> None:
    """"Adobe's Digital Media revenue in fiscal 2017": its 2022 10-K's row "Total Digital
    Media revenue" (2020–2022 only) took the words and the answer was "not found", while
    the 2017 segment table states Revenue in a "Digital Media" column: read as that row and
    column, the reading said."""
    result = folder.ask("What was Adobe's Digital Media revenue in fiscal 2017?",
                        reference_date=date(2024, 1, 1))
    assert [f.value for f in result.figures] == [5010579.0], result.answer
    assert "row=REVENUE,col=FY2017.C_DIGITAL_MEDIA" in result.answer
    later = folder.ask("What was Adobe's Digital Media revenue in fiscal 2022?",
                       reference_date=date(2024, 1, 1))
    assert [f.value for f in later.figures] == [12842.0], later.answer


def test_a_notes_row_is_no_answer_for_the_balance_sheets_total(folder: Agent) -> None:
    """General Mills' note on joint ventures states "Current liabilities" 1,298.8 (the
    ventures', on a 100 percent basis); its balance sheet "Total current liabilities"
    8,019.9. The previous code answered 1,298.8; both are readings now (asked back). For
    Nike, whose filings state only the total, the total is answered, the reading said."""
    general_mills = folder.ask("What were General Mills' current liabilities at the end of "
                               "fiscal 2022?", reference_date=date(2024, 1, 1))
    assert general_mills.figures == (), general_mills.answer
    assert "Total current liabilities (CURRENT_LIABILITIES)" in general_mills.answer
    nike = folder.ask("What were Nike's current liabilities at the end of fiscal 2023?",
                      reference_date=date(2024, 1, 1))
    assert [f.value for f in nike.figures] == [9256.0], nike.answer


def test_a_row_never_stated_alone_offers_its_variants(folder: Agent) -> None:
    """General Mills states "Basic" and "Diluted earnings per share", never "Earnings per
    share" alone: "not found" before; the two are offered now (which is meant is not
    said), and a formula's row (free cash flow) is still computed, not offered."""
    eps = folder.ask("What was General Mills' earnings per share in fiscal 2020?",
                     reference_date=date(2024, 1, 1))
    assert eps.figures == (), eps.answer
    assert eps.answer == ("Which metric do you mean? Closest: Basic earnings per share "
                          "(EPS_BASIC); Diluted earnings per share (EPS_DILUTED)")
    fcf = folder.ask("What was Amcor's free cash flow in FY2023?",
                     reference_date=date(2024, 1, 1))
    assert len(fcf.figures) == 1 and fcf.figures[0].operation != "lookup", fcf.answer


def test_a_ratio_side_with_no_figure_takes_its_total(folder: Agent) -> None:
    """"Nike's ratio of current assets to current liabilities": both sides named rows of
    other filings ("Current assets", "Current liabilities") with no figure of Nike's and
    the ratio was not computed; each side takes the total Nike states."""
    result = folder.ask("What was Nike's ratio of current assets to current liabilities at "
                        "the end of fiscal 2023?", reference_date=date(2024, 1, 1))
    assert "25,202 / 9,256 = 2.72" in result.answer, result.answer
