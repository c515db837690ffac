"""A company's revenue by region, and the share of its revenue a region brings.

Nike's segment table states "TOTAL REVENUES" twice, closing revenues by product and again
by channel, with the same figures: it was read as two rows of its own ("Revenues by:
Total revenues" and one named by the wrapped label above it), so "revenue from Greater
China" was not found. A row stated again is the one row. "What percentage of revenue
came from Greater China?" then divides revenue's Greater China cell by its total — never
another whole's "Greater China" row (earnings before interest and taxes), which the
previous code divided by revenue (8.17%, and 12.24 for "the proportion of revenue from
Greater China"). Each test fails on the code before the rules.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import ingest
from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2023, 9, 1)
SEGMENTS = """(in millions),North America,Greater China,Total
Revenues by:,,,
Footwear,"14,897","5,435","20,332"
Apparel,"5,947","1,666","7,613"
TOTAL REVENUES,"20,844","7,101","27,945"
Revenues by:,,,
Sales to wholesale customers,"11,273","3,866","15,139"
Sales through direct to consumer,"9,571","3,235","12,806"
TOTAL REVENUES,"20,844","7,101","27,945"
"""
INCOME = """(in millions),2023,2022
Revenues,"27,945","25,000"
Net income,"5,070","6,046"
"""
EBIT = """(in millions),2023,2022
Earnings before interest and taxes:,,
North America,"5,454","5,114"
Greater China,"2,283","2,365"
"""
SHARES = """(in millions),2023,2022
Class A shares,305,305
Class B shares,"1,226","1,266"
Total shares,"1,531","1,571"
"""
SHARE_QUESTIONS = ("What percentage of revenue came from Greater China in fiscal 2023?",
                   "What share of fiscal 2023 revenue came from Greater China?",
                   "What is the proportion of revenue from Greater China in fiscal 2023?")


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("regions"), {
        "revenues_FY2023.csv": SEGMENTS, "income.csv": INCOME, "ebit.csv": EBIT,
        "shares.csv": SHARES})


def test_a_total_stated_twice_is_the_rows_total_in_each_column(agent: Agent) -> None:
    result = agent.ask("What was revenue from Greater China in fiscal 2023?",
                       reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(7101.0, "M")], result.answer
    assert "Revenue (greater china), FY2023: 7,101 million" in result.answer


def test_a_regions_share_of_revenue_is_its_cell_over_the_total(agent: Agent) -> None:
    percent, share, proportion = (agent.ask(q, reference_date=REF) for q in SHARE_QUESTIONS)
    assert [f.value for f in percent.figures] == [pytest.approx(25.4106, abs=1e-3)]
    assert "7,101 / 27,945 × 100 = 25.41%" in percent.answer
    assert "Revenue, greater china as a percentage of total, FY2023" in percent.answer
    # "share" names no "Total shares" row; "the proportion of revenue from X": X's part
    for result in (share, proportion):
        assert [f.value for f in result.figures] == [pytest.approx(0.2541, abs=1e-4)], \
            result.answer
        assert "7,101 / 27,945 = 0.25" in result.answer


def test_another_wholes_row_named_by_the_region_is_no_part_of_revenue(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Without revenue by region, "Greater China" is only a row of earnings: refused."""
    agent = tables_agent(tmp_path_factory.mktemp("no_regions"), {
        "income.csv": INCOME, "ebit.csv": EBIT, "shares.csv": SHARES})
    for asked in SHARE_QUESTIONS:
        result = agent.ask(asked, reference_date=REF)
        assert result.figures == (), result.answer
        assert "could not be identified" in result.answer
        assert "2,283" not in result.answer


def test_another_companys_percent_column_is_not_the_shares_word(tmp_path: Path) -> None:
    """Orvale's tables have a "Percent" column; Zentra states none: "what percentage of
    Zentra's revenue" asks a share of Zentra's rows ("Revenue (percent)" was not found)."""
    orvale = '(in millions),2023,Percent\nNet sales,"5,300",100%\nCost of sales,"3,100",58%\n'
    files = {"zentra_segments_FY2023.csv": SEGMENTS, "zentra_income.csv": INCOME,
             "orvale_FY2023.csv": orvale}
    (tmp_path / "reports").mkdir()
    for name, text in files.items():
        (tmp_path / "reports" / name).write_text(text, encoding="utf-8")
    ingest(tmp_path / "reports", workspace=tmp_path / "ws", progress=False, metadata={
        name: {"company": "Zentra Corporation" if name.startswith("zentra") else "Orvale Inc."}
        for name in files})
    result = Agent.from_workspace(tmp_path / "ws").ask(
        "What percentage of Zentra's revenue came from Greater China in fiscal 2023?",
        reference_date=REF)
    assert [f.value for f in result.figures] == [pytest.approx(25.4106, abs=1e-3)], \
        result.answer
    assert "Zentra Corporation Revenue, greater china as a percentage of total" in result.answer


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    from tests.filings import dev_filing_workspace
    return Agent.from_workspace(dev_filing_workspace(
        tmp_path_factory.mktemp("filings"), "NIKE_2023_10K.pdf", "BESTBUY_2023_10K.pdf",
        "AMCOR_2023_10K.pdf"))


def test_nikes_region_revenue_and_share_from_its_filing(filings: Agent) -> None:
    level = filings.ask("What was Nike's revenue from Greater China in fiscal 2023?",
                        reference_date=REF)
    assert [f.value for f in level.figures] == [7248.0], level.answer
    assert "page=87" in level.answer
    share = filings.ask("What percentage of Nike's fiscal 2023 revenues came from Greater "
                        "China?", reference_date=REF)
    assert "7,248 / 51,217 × 100 = 14.15%" in share.answer, share.answer


def test_a_ratio_of_two_named_rows_notes_no_part_of_a_total(filings: Agent) -> None:
    """Each side of a ratio is read apart: the whole question's reading "Revenue, part of
    Operating income" (Amcor's statements sum revenue into gross profit, gross profit into
    operating income) was said before a right 3.88%."""
    result = filings.ask("What was Best Buy's operating income as a percentage of revenue "
                         "in fiscal 2023?", reference_date=REF)
    assert "1,795 / 46,298 × 100 = 3.88%" in result.answer, result.answer
    assert "part of" not in result.answer
