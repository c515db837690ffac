"""Headings read from the shape of a filing's lines, and the section path of each passage."""

from __future__ import annotations

import pytest

from ragspine_nb.extract.headings import heading_level, heading_text, section_paths


@pytest.mark.parametrize(("line", "after", "level"), [
    ("PART II", "", 1),
    ("Item 7. Management's Discussion and Analysis of Financial Condition and Results of "
     "Operations", "", 1),
    ("ITEM 1A. RISK FACTORS", "", 1),
    ("Item 7. Management's Discussion and Analysis 23", "", 0),  # a contents entry
    ("Consolidated Statements of Cash Flows", "", 2),
    ("Note 5. Goodwill and Intangible Assets", "", 2),
    ("RESULTS OF OPERATIONS", "", 2),
    ("Liquidity and Capital Resources",
     "Cash and cash equivalents were as follows at the end of the fiscal years presented:", 3),
    ("Domestic Segment Performance Summary:", "", 3),
    ("Selected financial data for the Domestic segment was as follows ($ in millions):",
     "Revenue $ 46,298 $ 51,761", 4),
])
def test_headings_of_a_filing(line: str, after: str, level: int) -> None:
    assert heading_level(line, after) == level


@pytest.mark.parametrize(("line", "after"), [
    ("Table of Contents", ""),  # page furniture
    ("42", ""),
    ("Revenue $ 46,298 $ 51,761", ""),  # a table row
    ("Total Stores", "Fiscal Year"),  # a column header before no prose
    ("Gross Profit", "Revenue $ 46,298 $ 51,761"),  # a row label before figures
    ("The decrease was driven by lower comparable sales.", ""),  # a sentence
    ("Revenue decreased in fiscal 2023 compared to fiscal 2022 primarily due to", "lower"),
])
def test_benign_lines_are_no_headings(line: str, after: str) -> None:
    assert heading_level(line, after) == 0


def test_heading_text_joins_split_glyphs_and_drops_markup() -> None:
    assert heading_text("Consolidated Statement of Incom e") == "Consolidated Statement of Income"
    assert heading_text("## Hong Kong:") == "Hong Kong"


def test_section_path_is_in_force_where_each_passage_starts() -> None:
    passages = [
        "PART II\nItem 7. Management's Discussion and Analysis",
        "RESULTS OF OPERATIONS\nLiquidity and Capital Resources\nCash and cash equivalents "
        "were lower at the end of the year than at its start, as shown below:",
        "Cash fell because of share repurchases and lower operating cash flows this year.",
        "Item 8. Financial Statements and Supplementary Data",
        "Revenue is recognised when control of the goods passes to the customer at the store.",
    ]
    mdna = "Item 7. Management's Discussion and Analysis"
    liquidity = f"{mdna} › RESULTS OF OPERATIONS › Liquidity and Capital Resources"
    # an item replaces the part before it (both of level 1), a heading those below it
    assert section_paths(passages) == [
        "", mdna, liquidity, liquidity, "Item 8. Financial Statements and Supplementary Data"]
