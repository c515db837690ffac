"""Issue 15: rows a question names through a measure the tables never state, and layouts.

Every table is a user's ``table.csv`` beside a ``notes.md``, ingested with no profile and
asked as a user would. Each test states the exact figures expected:

* "sales in Germany", "revenue from cloud", "Germany's revenue": a built-in metric with
  no stored figure, written right beside the one row with figures that qualifies it,
  asks for that row; the answer says so. Not beside it, or with figures of its own, the
  question is still asked back;
* of two balance columns of one year ("December 31, 2018" beside "January 1, 2018"),
  the one dated as the table's other years is that year's figure;
* a common-size statement ("Sales 100.0 %", ..., "Net income 7.2 %") is in percent in
  every row, and "the percentage of sales represented by gross profit" is a share; its
  change between two years is the later share less the earlier, in percentage points
  (a relative change of a share, or a change over one year, is not computed);
* a schedule listing its years down the first column ("2021", "2022", ..., "Thereafter"
  under "Operating Leases" | "Finance Leases") is read turned: each measure a row, each
  year a column, every figure cited at the cell as written; the rows naming no year are
  reported, never stored under a guessed one;
* "What did ... exclude?" asks for text;
* a weighted-average fair value is a per-share amount, never scaled; only amounts stated
  without a scale vote for the scale prose quotes them in (a share count equal to a
  prose amount casts no vote);
* "total" beside a row named in full ("the total consolidated net revenue") names no
  built-in row without figures;
* "how many categories are there under total X" counts the rows adding up to X (with a
  test, those passing it), each cited; a quoted defined term ('Apple Inc. ("Apple")')
  names its row;
* "the average difference between A and B" and "the difference between the average A and
  the average B" are one number, the gap of the averages over the same periods (those
  named, else every period both report); a gap changing sign from period to period is
  not computed (signed or absolute?);
* a built-in name without figures ("number of shares outstanding") that a row with
  figures ("Outstanding ...") and a named column ("Number of Shares") explain together
  asks for that cell, stated so;
* a question naming another version of a figure ("unrevised", "adjusted", "restated")
  that no row or column states never gets the plain row's figure;
* a Chinese row label ("德国") is a name, not a bare "Total" row ("合计" is one), so
  "德国的收入" reads the row as "Germany's revenue" does;
* a "Percentage of revenue" row right under a row is that row's percentage ("the product
  percentage of revenue").
"""

from __future__ import annotations

from pathlib import Path

from ragspine_nb.agent.reading.intent import RuleIntentParser
from tests.tablehelpers import (
    AWARDS,
    cells_of,
    csv_agent,
    figures_of,
    read_table,
    tatqa_agent,
)
from tests.tablehelpers import TATQA_REFERENCE as REF

# ------------------------------------------------------- a measure qualified by a row
BY_COUNTRY = [
    ["(In thousands)", "2019", "2018", "2017"],
    ["United States", "$300,853", "$288,843", "$508,178"],
    ["Mexico", "90,795", "12,186", "2,246"],
    ["Germany", "78,062", "167,251", "119,502"],
    ["Other international", "60,351", "60,997", "36,974"],
    ["Total", "$530,061", "$529,277", "$666,900"],
]
NOTES = "Net sales by the location of the customer are shown below."  # (not "as follows")


def test_a_measure_without_figures_qualified_by_a_row_asks_for_the_row(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, BY_COUNTRY, NOTES)
    assert figures_of(agent, "What were the sales in Mexico in 2018?") == [
        (12186.0, "K", "lookup")]
    assert figures_of(agent, "What was Germany's revenue in 2019?") == [
        (78062.0, "K", "lookup")]
    assert figures_of(agent, "What was Germany's 2019 revenue?") == [
        (78062.0, "K", "lookup")]
    assert figures_of(agent, "What was the change in sales in Germany between 2018 and "
                             "2019?") == [(-89189.0, "K", "difference")]
    said = agent.ask("What were the sales in Mexico in 2018?", reference_date=REF).answer
    assert said.startswith("(Assuming the question asks for the row Mexico (MEXICO), as "
                           "Revenue (REVENUE) has no stored figure")


def test_the_reading_is_stated_when_an_operation_picks_its_years(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, BY_COUNTRY, NOTES)
    result = agent.ask("What is the average sales in Mexico between 2017 and 2019?",
                       reference_date=REF)
    assert [(round(f.value, 2), f.unit) for f in result.figures] == [(35075.67, "K")]
    assert result.answer.startswith("(Assuming the question asks for the row Mexico")


def test_a_measure_apart_from_the_row_or_with_figures_is_asked_back(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, BY_COUNTRY, NOTES)
    # the measure and the row are not written together: which one is meant is asked
    assert figures_of(agent, "What were sales in 2018 for the Mexico segment?") == []
    # "Revenue" with figures of its own, not the rows' total: which one is meant is asked
    with_revenue = [*BY_COUNTRY, ["Revenue", "$1,200", "$1,100", "$1,000"]]
    other = tatqa_agent(tmp_path / "b", with_revenue, NOTES)
    result = other.ask("What were the sales in Mexico in 2018?", reference_date=REF)
    assert result.figures == () and "Which of these do you mean" in result.answer


def test_the_parser_reads_the_row_only_beside_a_measure_without_figures(
        tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, BY_COUNTRY, NOTES)
    parser = RuleIntentParser(agent.profile, live_metrics=agent.store.metric_codes())
    intent = parser.parse("What were the sales in Mexico in 2018?", REF)
    assert intent.metrics == ("MEXICO",) and intent.read_as_row == ("REVENUE", "MEXICO")
    assert parser.parse("What were the sales in Mexico in 2018?", REF) == intent
    unknown = RuleIntentParser(agent.profile)  # no live metrics known: nothing is dropped
    assert unknown.parse("What were the sales in Mexico in 2018?", REF).read_as_row == ()


# ------------------------------------------------------ a year's balance beside its start
RECEIVABLES = [
    ["", "December 31, 2019", "December 31, 2018", "January 1, 2018"],
    ["", "$", "$", "$"],
    ["Indirect taxes receivable", "36,821", "3,774", "832"],
    ["Trade receivables", "9,660", "11,191", "7,073"],
    ["Other receivables", "6,665", "8,620", "4,403"],
    ["", "53,146", "23,585", "12,308"],
]


def test_the_column_dated_as_the_other_years_is_the_years_figure(tmp_path: Path) -> None:
    cells = cells_of(read_table(tmp_path, RECEIVABLES))
    assert cells["cell=C4"] == [("ACCOUNTS_RECEIVABLE", "C_DEC_31", "FY", "2018", 11191.0,
                                 "NUMBER"),
                                ("ACCOUNTS_RECEIVABLE", "TOTAL", "FY", "2018", 11191.0, "NUMBER")]
    assert cells["cell=D4"] == [("ACCOUNTS_RECEIVABLE", "C_JAN_1", "FY", "2018", 7073.0,
                                 "NUMBER")]
    agent = tatqa_agent(tmp_path / "ws", RECEIVABLES)
    assert figures_of(agent, "What is the average other receivables for 2018 and 2019?") == [
        (7642.5, "", "average")]


def test_two_columns_dated_alike_in_one_year_stay_apart(tmp_path: Path) -> None:
    twice = [["", "December 31, 2019", "December 31, 2018", "December 31, 2018"],
             ["", "As reported", "As reported", "As adjusted"],
             ["Trade receivables", "9,660", "11,191", "11,000"]]
    cells = cells_of(read_table(tmp_path, twice))
    assert not any(row[1] == "TOTAL" for row in cells["cell=C3"] + cells["cell=D3"])


# ------------------------------------------------------------ a common-size statement
COMMON_SIZE = [
    ["", "Year Ended December 31,", ""],
    ["", "2019", "2018"],
    ["Sales", "100.0 %", "100.0 %"],
    ["Gross profit", "40.0", "50.9"],
    ["Operating expenses", "33.1", "27.0"],
    ["Income from operations", "6.9", "23.9"],
    ["Net income", "7.2 %", "20.5 %"],
]


def test_a_common_size_statement_is_in_percent(tmp_path: Path) -> None:
    cells = cells_of(read_table(tmp_path, COMMON_SIZE))
    assert cells["cell=C4"] == [("GROSS_PROFIT", "TOTAL", "FY", "2018", 50.9, "PCT")]
    agent = tatqa_agent(tmp_path / "ws", COMMON_SIZE)
    assert figures_of(agent, "What was the percentage of sales represented by gross profit "
                             "in 2018?") == [(50.9, "PCT", "share")]


def test_the_change_of_a_share_is_the_difference_of_the_yearly_shares(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, COMMON_SIZE)
    result = agent.ask("What was the change in percentage of sales represented by gross profit "
                       "between 2018 and 2019?", reference_date=REF)
    assert [(round(f.value, 2), f.unit, f.operation) for f in result.figures] == [
        (-10.9, "PCT", "difference")]
    assert result.answer.startswith("the company Gross profit as a percentage of Revenue, "
                                    "change from FY2018 to FY2019: -10.9%")
    assert "Derivation: 40% − 50.9% = -10.9 percentage points" in result.answer
    assert len(result.figures[0].operands) == 4  # each year's two cells, all cited
    for question in ("What was the percentage change in the percentage of sales represented "
                     "by gross profit between 2018 and 2019?",
                     "What was the change in the percentage of sales represented by gross "
                     "profit in 2019?"):
        assert figures_of(agent, question) == []


def test_a_first_row_of_100_percent_alone_makes_no_common_size(tmp_path: Path) -> None:
    kpis = [["", "2019", "2018"], ["Retention", "100 %", "100 %"],
            ["Revenue", "1,200", "1,100"], ["Customers", "340", "310"]]
    cells = cells_of(read_table(tmp_path, kpis))
    assert cells["cell=B3"][0][-1] != "PCT" and cells["cell=B4"][0][-1] != "PCT"


# ------------------------------------------------------------ years down the first column
LEASES = [
    ["", "Operating Leases", "Finance Leases"],
    ["2021", "$138", "$6"],
    ["2022", "135", "6"],
    ["2023", "120", "7"],
    ["Thereafter", "577", "35"],
    ["Total lease liabilities", "$970", "$54"],
]


def test_years_down_the_first_column_are_read_turned(tmp_path: Path) -> None:
    ex = read_table(tmp_path, LEASES)
    assert cells_of(ex) == {
        "cell=B2": [("OPERATING_LEASES", "TOTAL", "FY", "2021", 138.0, "NUMBER")],
        "cell=B3": [("OPERATING_LEASES", "TOTAL", "FY", "2022", 135.0, "NUMBER")],
        "cell=B4": [("OPERATING_LEASES", "TOTAL", "FY", "2023", 120.0, "NUMBER")],
        "cell=C2": [("FINANCE_LEASES", "TOTAL", "FY", "2021", 6.0, "NUMBER")],
        "cell=C3": [("FINANCE_LEASES", "TOTAL", "FY", "2022", 6.0, "NUMBER")],
        "cell=C4": [("FINANCE_LEASES", "TOTAL", "FY", "2023", 7.0, "NUMBER")]}
    assert [(s.locator, s.reason) for s in ex.skipped] == [
        ("cell=A5", "row label 'Thereafter' is not a period; row skipped"),
        ("cell=A6", "row label 'Total lease liabilities' is not a period; row skipped")]
    agent = tatqa_agent(tmp_path / "ws", LEASES, "Lease payments are in millions.")
    assert figures_of(agent, "What was the change in operating leases between 2021 and "
                             "2022?") == [(-3.0, "M", "difference")]
    assert figures_of(agent, "What were the finance leases for 2023?") == [
        (7.0, "M", "lookup")]


MATURITIES = [
    ["", "Operating Leases", "Finance Leases"],
    ["", "(Dollars in millions)", ""],
    ["2020", "$460", "47"], ["2021", "361", "28"], ["2022", "308", "22"],
    ["Thereafter", "686", "170"],
    ["Total lease payments", "1,815", "267"],
    ["Less: interest", "(516)", "(90)"],
    ["Total", "$1,299", "177"],
    ["Less: current portion", "(416)", "(35)"],
    ["Long-term portion", "$883", "142"],
]


def test_a_run_of_years_on_top_under_a_units_row_is_read_turned(tmp_path: Path) -> None:
    ex = read_table(tmp_path, MATURITIES)
    cells = cells_of(ex)
    # the units row is the table's title: millions, for both columns
    assert cells["cell=B3"] == [("OPERATING_LEASES", "TOTAL", "FY", "2020", 460.0, "M")]
    assert cells["cell=C5"] == [("FINANCE_LEASES", "TOTAL", "FY", "2022", 22.0, "M")]
    assert sorted(cells) == ["cell=B3", "cell=B4", "cell=B5", "cell=C3", "cell=C4", "cell=C5"]
    assert [s.locator for s in ex.skipped] == [f"cell=A{r}" for r in range(6, 12)]
    agent = tatqa_agent(tmp_path / "ws", MATURITIES)
    assert figures_of(agent, "What is the sum of finance leases from 2020 to 2022?") == [
        (97.0, "M", "sum")]


def test_what_a_figure_excludes_is_asked_as_text(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, LEASES, "Total lease liabilities excluded payments for "
                        "leases signed but not yet commenced of $361 million.")
    result = agent.ask("What did total lease liabilities as of 2020 exclude?",
                       reference_date=REF)
    assert result.figures == () and "not yet commenced of $361 million" in result.answer


# ------------------------------------------------- what may vote for a table's scale


def test_a_weighted_average_fair_value_is_per_share_and_never_scaled(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, AWARDS, "All amounts are in thousands, except per share "
                        "data.", "Forfeitures reduced expense by $12.6 million.")
    facts = {(f.metric_code, f.channel): (f.value, f.unit) for f in agent.store.iter_facts()
             if f.period == "2019"}
    assert facts[("GRANTED", "C_WEIGHTEDAVERAGE_GRANT_DATE_FAIR_VALUE")] == (53.53, "NUMBER")
    assert facts[("GRANTED", "C_SHARES")] == (473550.0, "shares")


def test_a_share_count_equal_to_a_prose_amount_casts_no_vote(tmp_path: Path) -> None:
    buybacks = [["", "2019", "2018"], ["Shares repurchased", "12,632", "10,118"],
                ["Cost of repurchases", "523", "388"]]
    # 12,632 thousand would be "$12.6 million": a share count, so no vote for thousands
    agent = tatqa_agent(tmp_path, buybacks, "We spent $12.6 million on buybacks in total.")
    assert figures_of(agent, "What was the cost of repurchases in 2019?") == [
        (523.0, "", "lookup")]


def test_total_beside_a_row_named_in_full_is_no_other_row(tmp_path: Path) -> None:
    revenues = [["", "2019", "2018"], ["Consolidated net revenues", "$6,489", "$7,500"],
                ["In-game net revenues", "3,376", "4,249"]]
    agent = tatqa_agent(tmp_path, revenues, "Amounts are in millions.")
    assert figures_of(agent, "What is the total consolidated net revenue in 2018 and "
                             "2019?") == [(13989.0, "M", "sum")]


# ------------------------------------------------------------- rows a total is made of
SBC = [
    ["", "", "Year Ended December 31,", ""],
    ["", "2019", "2018", "2017"],
    ["Cost of revenues", "2,193", "2,315", "2,000"],
    ["Sales and marketing", "6,812", "6,596", "6,621"],
    ["Research and development", "4,804", "6,137", "7,949"],
    ["General and administrative", "18,328", "16,338", "15,682"],
    ["Total stock-based compensation expense", "32,137", "31,386", "32,252"],
]


def test_how_many_rows_a_total_is_made_of_is_a_count_of_its_parts(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, SBC, "Stock-based compensation expense (in thousands):")
    result = agent.ask("How many categories are there under total stock-based compensation "
                       "expense?", reference_date=REF)
    assert [(f.value, f.unit, f.operation) for f in result.figures] == [(4.0, "", "count")]
    assert "number of items reported (of Cost of revenue, Sales and marketing, Research and " \
           "development expenses and General and administrative expenses): 4" in result.answer
    assert [o.source_locator for o in result.figures[0].operands] == [
        "cell=B3", "cell=B4", "cell=B5", "cell=B6"]
    passed = agent.ask("How many categories of stock-based compensation expense were above "
                       "5,000 thousand in 2019?", reference_date=REF)
    assert [(f.value, f.operation) for f in passed.figures] == [(2.0, "count")]
    assert "number of items that are above 5,000 thousand" in passed.answer
    assert "Cost of revenue 2,193 no; Sales and marketing 6,812 yes" in passed.answer


def test_a_quoted_defined_term_names_its_row(tmp_path: Path) -> None:
    customers = [["", "", "Fiscal Year", ""], ["", "2019", "2018", "2017"],
                 ["Apple Inc. (\u201cApple\u201d)", "32%", "36%", "34%"],
                 ["Huawei Technologies Co., Ltd. (\u201cHuawei\u201d)", "13%", "8%", "11%"]]
    agent = tatqa_agent(tmp_path, customers)
    assert figures_of(agent, "What was the change in Huawei from 2018 to 2019?") == [
        (5.0, "PCT", "difference")]


# ------------------------------------------------- the average gap between two rows
FINANCING = [["Net financing costs", "", ""], ["", "2019", "2018"], ["", "€m", "€m"],
             ["Investment income", "433", "685"], ["Financing costs", "(2,088)", "(1,074)"]]


def test_the_average_gap_between_two_rows_is_the_gap_of_their_averages(
        tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, FINANCING)
    for question in ("What is the difference between the average investment income and "
                     "average financing costs?",
                     "What was the average difference between investment income and "
                     "financing costs for 2018 and 2019?"):
        result = agent.ask(question, reference_date=REF)
        assert [(f.value, f.unit, f.operation) for f in result.figures] == [
            (2140.0, "EUR_M", "average")]
        assert "average Investment income less average Financing costs" in result.answer
        assert len(result.figures[0].operands) == 4


def test_an_average_gap_that_changes_sign_is_not_computed(tmp_path: Path) -> None:
    ebitda = [["", "2019", "2018"], ["", "$'000", "$'000"], ["EBITDA", "79,046", "63,954"],
              ["Underlying EBITDA", "85,123", "62,575"]]
    agent = tatqa_agent(tmp_path, ebitda)
    result = agent.ask("What was the average difference between EBITDA and underlying EBITDA "
                       "for both FYs?", reference_date=REF)
    assert result.figures == ()
    assert "the difference changes sign from period to period (-6,077, 1,379)" in result.answer


def test_total_beside_a_row_written_out_sums_it(tmp_path: Path) -> None:
    fees = [["", "2019", "2018"], ["Audit Fees", "$58,000", "$55,000"],
            ["Audit-Related Fees", "$12,000", "$11,000"], ["Total Fees", "$86,000", "$66,000"]]
    agent = tatqa_agent(tmp_path, fees)
    assert figures_of(agent, "What is the total amount of audit fees in both 2018 and "
                             "2019?") == [(113000.0, "", "sum")]
    # both written out and listed: both asked
    assert figures_of(agent, "What were the audit fees and total fees in 2019?") == [
        (58000.0, "", "lookup"), (86000.0, "", "lookup")]


def test_a_row_and_a_column_named_inside_a_built_in_name_without_figures(
        tmp_path: Path) -> None:
    options = [["", "Number of Shares", "Weighted-Average Exercise Price Per Share"],
               ["Outstanding at September 30, 2017", "2,845,866", "$4.21"],
               ["Granted", "299,397", "$8.60"],
               ["Exercised", "(250,823)", "$2.96"],
               ["Canceled", "(88,076)", "$5.23"],
               ["Outstanding at September 30, 2018", "2,806,364", "$4.75"]]
    agent = tatqa_agent(tmp_path, options)
    result = agent.ask("What is the number of shares outstanding as of September 30, 2018?",
                       reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(2806364.0, "shares")]
    assert result.answer.startswith("(Assuming the question asks for the row Outstanding")
    assert "as Shares outstanding (SHARES_OUTSTANDING) has no stored figure" in result.answer
    # without a column naming the rest, the built-in name is not read as the row
    assert figures_of(agent, "What were the shares outstanding in 2018?") == []


def test_another_version_of_a_figure_is_not_the_plain_rows(tmp_path: Path) -> None:
    segments = [["(In millions)", "2019", "2018"], ["Food Care", "$ 1,997.8", "$ 1,914.4"],
                ["EBITDA", "412.0", "398.5"]]
    agent = tatqa_agent(tmp_path, segments, "Prior year amounts were revised to reflect "
                        "the new segment structure.")
    assert figures_of(agent, "What was Food Care in 2018?") == [(1914.4, "M", "lookup")]
    for question in ("What is the unrevised value of Food Care for 2018?",
                     "What was the adjusted EBITDA in 2019?",
                     "What was the restated Food Care in 2018?"):
        assert figures_of(agent, question) == [], question


def test_chinese_row_labels_are_names_not_bare_totals(tmp_path: Path) -> None:
    # a label of no Latin words ("德国") was read as a bare "Total" row and dropped
    # beside any other row named; "合计" still is one
    agent = csv_agent(tmp_path, {"sales.csv": "单位：千元,2019,2018\n德国,\"78,062\",\"167,251\"\n"
                                              "墨西哥,\"90,795\",\"12,186\"\n"
                                              "合计,\"168,857\",\"179,437\"\n"})
    result = agent.ask("德国的收入2019年是多少？", reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(78062.0, "CNY_K")]
    assert [(f.value, f.unit) for f in agent.ask("德国2019年的收入是多少？",
                                                 reference_date=REF).figures] == [
        (78062.0, "CNY_K")]
    assert result.answer.startswith(
        "（假设：问的是德国这一行（Revenue (REVENUE)在所问期间没有数据）")
    reader = RuleIntentParser(agent.profile, live_metrics=agent.store.metric_codes()).rows
    assert [reader._bare_total(c) for c in ("德国", "合计")] == [False, True]


def test_a_percentage_row_under_a_row_is_that_rows_percentage(tmp_path: Path) -> None:
    revenue = [["", "July 27, 2019", "July 28, 2018"],
               ["Revenue:", "", ""],
               ["Product", "$39,005", "$36,709"],
               ["Percentage of revenue", "75.1%", "74.4%"],
               ["Service", "12,899", "12,621"],
               ["Percentage of revenue", "24.9%", "25.6%"],
               ["Total", "$51,904", "$49,330"]]
    agent = tatqa_agent(tmp_path, revenue, "Amounts are in millions.")
    assert figures_of(agent, "What was the product percentage of revenue in 2019?") == [
        (75.1, "PCT", "lookup")]
    assert figures_of(agent, "What was the service percentage of revenue in 2018?") == [
        (25.6, "PCT", "lookup")]
    assert figures_of(agent, "What was the percentage of revenue in 2019?") == []  # which?
