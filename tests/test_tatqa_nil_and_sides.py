"""Issue 15: nil cells and the sides of an operation, read from real CSV tables.

Every table is a user's ``table.csv`` beside a ``notes.md``, ingested with no profile and
asked as a user would; each test states the exact figures expected:

* a dash ("—", "–", "-") in a row of figures is nil, as statements print zero: stored as
  0 at its cell, so a change from it is computed and cited there; a dash in a change
  column, or in a row with no figure, stores nothing;
* a column is named by the date its header states ("the quarter ended July 27, 2019"
  over "Quarters Ended | July 27, 2019"), its year the period; a date no column states
  names none;
* quarters listed down the first column under a year row ("2019:") or a caption stating
  one year ("Common Stock Price Range 2018") are that year's quarters, read turned and
  cited as written; "in 2019, ... between the third quarter and fourth quarter" names
  2019's quarters; "the average quarterly low price in 2018" averages its four quarters;
* a column headed "Total" holds the row's total for its period (its plain figure), and
  "the difference between total X and current X" is that column against "Current";
* a short row label under a section heading that together name a built-in line item
  ("Basic" under "Earnings per share:") is that item ("basic net income per share");
  "cash dividend per share" and "net income per share" are the usual names they are;
* "$1,000,000" is one number, never a list of rows;
* prose states a magnitude and says its direction in words: "net cash used in operating
  activities was $0.6 million" agrees with a stored -618 thousand.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ragspine_nb.agent.narrative.figures import FigureReader
from ragspine_nb.agent.narrative.grounding import compare
from ragspine_nb.agent.reading.intent_terms import list_cue
from ragspine_nb.core import Fact
from ragspine_nb.profile import DomainProfile
from tests.tablehelpers import TATQA_REFERENCE as REF
from tests.tablehelpers import figures_of, read_table, tatqa_agent

# ------------------------------------------------------------------- nil cells
CHARGES = [
    ["($ in millions)", "", "", ""],
    ["For the year ended December 31:", "2019", "2018", "Yr.-to-Yr. Percent Change"],
    ["Interest expense", "$1,344", "$723", "85.9%"],
    ["Acquisition-related charges", "(228)", "—", "—"],
    ["Pending items", "—", "—", "—"],
]


def test_a_dash_in_a_row_of_figures_is_nil(tmp_path: Path) -> None:
    ex = read_table(tmp_path, CHARGES)
    got = sorted((f.metric_code, f.channel, f.period, f.value, f.source_locator)
                 for f in ex.facts if f.metric_code != "INTEREST_EXPENSE")
    assert got == [
        ("ACQUISITION_RELATED_CHARGES", "TOTAL", "2018", 0.0, "cell=C4"),
        ("ACQUISITION_RELATED_CHARGES", "TOTAL", "2019", -228.0, "cell=B4")]


def test_a_change_from_nil_is_computed_and_cited_at_the_dash(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, CHARGES, "Interest expense rose with the new debt.")
    q = "What is the increase / (decrease) in Acquisition-related charges from 2018 to 2019?"
    assert figures_of(agent, q) == [(-228.0, "M", "difference")]
    r = agent.ask(q, reference_date=REF)
    assert "(-228 − 0) = -228" in r.answer
    assert "FY2018: 0 million (source: table.csv · cell=C4)" in r.answer
    agent.close()


# ----------------------------------------------------------- columns named by dates
QUARTERS = [
    ["Quarters Ended", "July 27, 2019 (1)", "April 27, 2019", "January 26, 2019",
     "October 27, 2018"],
    ["Revenue", "$13,428", "$12,958", "$12,446", "$13,072"],
    ["Gross margin", "$8,574", "$8,173", "$7,773", "$8,146"],
]


def test_a_column_is_named_by_the_date_its_header_states(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, QUARTERS, "Amounts are in millions of dollars.")
    assert figures_of(agent, "What was the revenue for the quarter ended July 27, 2019?") \
        == [(13428.0, "M", "lookup")]
    r = agent.ask("What was the gross margin for the quarter ended October 27, 2018?",
                  reference_date=REF)
    assert [(f.value, f.sources[0].locator) for f in r.figures] == [(8146.0, "cell=E3")]
    # a date no column states names no column: never the nearest quarter
    r = agent.ask("What was the revenue for the quarter ended March 31, 2019?",
                  reference_date=REF)
    assert r.figures == ()
    agent.close()


# -------------------------------------------------------- quarters under their year
PRICES = [
    ["", "High", "Low"],
    ["2019:", "", ""],
    ["Fourth Quarter", "$11.44", "$9.47"],
    ["Third Quarter", "$14.96", "$10.26"],
    ["Second Quarter", "$20.91", "$12.61"],
    ["First Quarter", "$18.19", "$8.87"],
    ["2018:", "", ""],
    ["Fourth Quarter", "$12.16", "$7.43"],
    ["Third Quarter", "$20.60", "$10.95"],
    ["Second Quarter", "$18.30", "$6.70"],
    ["First Quarter", "$7.35", "$6.00"],
]


def test_quarter_rows_under_a_year_row_are_that_years_quarters(tmp_path: Path) -> None:
    ex = read_table(tmp_path, PRICES)
    got = {(f.metric_code, f.period_type, f.period): (f.value, f.source_locator)
           for f in ex.facts}
    assert len(got) == 16
    assert got[("HIGH", "QUARTER", "2019Q4")] == (11.44, "cell=B3")
    assert got[("LOW", "QUARTER", "2018Q1")] == (6.0, "cell=C11")


def test_a_caption_states_the_quarters_year(tmp_path: Path) -> None:
    ex = read_table(tmp_path, [["", "", "Common Stock Price Range 2018"],
                               ["", "Low", "High"],
                               ["First Quarter", "$ 5.99", "$ 8.40"],
                               ["Second Quarter", "$ 4.79", "$ 6.48"]])
    assert sorted((f.metric_code, f.period, f.value, f.source_locator) for f in ex.facts) == [
        ("HIGH", "2018Q1", 8.4, "cell=C3"), ("HIGH", "2018Q2", 6.48, "cell=C4"),
        ("LOW", "2018Q1", 5.99, "cell=B3"), ("LOW", "2018Q2", 4.79, "cell=B4")]
    # no year above the quarters and none in the caption: never a guessed year
    ex = read_table(tmp_path, [["", "Low", "High"], ["First Quarter", "5.99", "8.40"],
                               ["Second Quarter", "4.79", "6.48"]], name="undated.csv")
    assert not any(f.period_type == "QUARTER" for f in ex.facts)


def test_quarters_asked_within_a_year_and_their_average(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, PRICES, "Prices are per share.")
    assert figures_of(agent, "In 2019, what is the change in high price between the third "
                             "quarter and fourth quarter?") == [(-3.52, "", "difference")]
    r = agent.ask("What is the average quarterly low price for 2019?", reference_date=REF)
    assert [(round(f.value, 4), f.operation) for f in r.figures] == [(10.3025, "average")]
    assert "(8.87 + 12.61 + 10.26 + 9.47) / 4 = 10.3" in r.answer
    # a year without its four quarters stored is not averaged
    assert figures_of(agent, "What is the average quarterly low price for 2017?") == []
    agent.close()


# ------------------------------------------------------------- a "Total" column
AGING = [
    ["30 June 2019", "Current", "0 to 30 days past due", "More than 60 days past due", "Total"],
    ["", "$'000", "$'000", "$'000", "$'000"],
    ["Gross carrying amount", "23,762", "2,068", "2,490", "28,320"],
    ["Net receivables", "23,524", "1,965", "2,090", "27,579"],
]


def test_a_total_column_is_the_rows_total_and_a_side_of_a_difference(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, AGING, "Receivables are shown by days past due.")
    r = agent.ask("What were the net receivables in 2019?", reference_date=REF)
    assert [(f.value, f.unit, f.sources[0].locator) for f in r.figures] == [
        (27579.0, "K", "cell=E4")]
    assert figures_of(agent, "What was the difference between total net receivables and "
                             "current net receivables?") == [(4055.0, "K", "difference")]
    # written the other way round, the difference is taken in the order written
    assert figures_of(agent, "What is the difference in the gross carrying amount between "
                             "the current and the total?") == [(-4558.0, "K", "difference")]
    agent.close()


# ----------------------------------------------- section-named rows, list cues, prose
EPS = [
    ["", "Year ended September 30,", "", ""],
    ["", "2019", "2018", "2017"],
    ["Net income", "$4,566,156", "$4,274,547", "$3,847,839"],
    ["Weighted average common shares", "13,442,871", "13,429,232", "13,532,375"],
    ["Earnings per share:", "", "", ""],
    ["Basic", "$0.34", "$0.32", "$0.28"],
    ["Diluted", "$0.34", "$0.32", "$0.28"],
]


def test_a_row_under_its_section_is_the_line_item_they_name(tmp_path: Path) -> None:
    ex = read_table(tmp_path, EPS)
    assert sorted((f.metric_code, f.period, f.source_locator) for f in ex.facts
                  if f.metric_code.startswith("EPS") and f.period == "2019") == [
        ("EPS_BASIC", "2019", "cell=B6"), ("EPS_DILUTED", "2019", "cell=B7")]
    agent = tatqa_agent(tmp_path / "ws", EPS, "Earnings per share are in dollars.")
    assert figures_of(agent, "What is the basic net income per share in 2019?") == [
        (0.34, "", "lookup")]
    assert figures_of(agent, "What is the change in basic net income per share from 2018 "
                             "to 2019?") == [(0.02, "", "difference")]
    agent.close()


def test_a_grouped_number_is_no_list(tmp_path: Path) -> None:
    assert not list_cue("which years did net sales from united states exceed $1,000,000?")
    assert list_cue("what were the sales in germany, mexico and china?")


def test_prose_states_a_magnitude_its_words_give_the_sign() -> None:
    reader = FigureReader(DomainProfile.builtin())
    stated = reader.figures("Net cash used was $0.6 million.")
    fact = Fact("OPERATING_CASH_FLOW", "COMPANY", "US", "TOTAL", "FY", "2019", -618.0,
                "USD_K", "table.csv", "cell=B5")
    assert [compare(s, fact) for s in stated] == [True]
    assert [compare(s, replace(fact, value=-900.0)) for s in stated] == [False]
