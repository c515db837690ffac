"""A PDF table's column heads as releases and 10-Ks draw them, read through ingest and ask.

An earnings release names the columns under each period in words stacked over several
lines ("Net" over "Income", "EPS" over "(Diluted" over "cents)"); a 10-K puts a group's
name above the header's top line ("Property, Plant and" / "Equipment - net" over "as of
December 31,") and centres a group head over the middle year of three. Each test fails
on the code before the stacked heads were read: the heads were taken as the table's
titles and the table had no header (nothing stored), or a group's figures were filed
under the group to its left.
"""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb import FactStore, ingest
from ragspine_nb.agent import Agent
from ragspine_nb.extract.beir import data_root
from tests.filings import cover_page, dev_filing_workspace, page_facts, page_values

REF = date(2024, 1, 1)


def _orvale_page(path: Path, year: int) -> Any:
    """A reportlab canvas: Orvale's 10-K cover page, then a page in 7-point type."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    cover_page(c, "ORVALE INC.", year, "1-4242")
    c.setFont("Helvetica", 7)
    return c


def _release(path: Path) -> Path:
    """Orvale's release: a reconciliation whose column names are stacked under periods."""
    c = _orvale_page(path, 2023)
    c.drawString(40, 800, "Reconciliation of non-GAAP measures")
    c.drawString(230, 770, "Twelve Months Ended June 30, 2022")
    c.drawString(400, 770, "Twelve Months Ended June 30, 2023")
    for x in (0, 170):  # each group's names, drawn column by column, words stacked
        c.drawString(232 + x, 740, "EBITDA")
        c.drawString(282 + x, 740, "EBIT")
        c.drawString(330 + x, 750, "Net")
        c.drawString(322 + x, 740, "Income")
    c.drawString(40, 740, "($ million)")
    y = 720
    for label, figures in (("Net income", ("805", "805", "805", "1,048", "1,048", "1,048")),
                           ("Tax expense", ("300", "300", "", "193", "193", "")),
                           ("Adjusted EBITDA, EBIT and Net income",
                            ("2,117", "1,701", "1,224", "2,018", "1,608", "1,089"))):
        c.drawString(40, y, label)
        for k, figure in enumerate(figures):
            if figure:
                c.drawRightString(258 + 43 * (k % 3) + 170 * (k // 3), y, figure)
        y -= 14
    c.showPage()
    c.save()
    return path


def test_column_names_stacked_under_the_periods_are_the_columns(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    _release(folder / "orvale_release.pdf")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    store = FactStore(tmp_path / "ws" / "facts.db", create=False)
    facts = {(f.metric_code, f.channel, f.period): f.value for f in store.iter_facts()}
    assert facts[("ADJUSTED_EBITDA_EBIT_AND_NET_INCOME", "C_NET_INCOME", "2023")] == 1089.0
    assert facts[("ADJUSTED_EBITDA_EBIT_AND_NET_INCOME", "C_EBITDA", "2022")] == 2117.0
    assert facts[("INCOME_TAX", "C_EBIT", "2023")] == 193.0


def test_the_release_answers_its_adjusted_ebitda(tmp_path: Path) -> None:
    # the real Amcor fiscal 2023 earnings release: its reconciliation table stored
    # nothing, its heads read as titles ('cents)(1)', 'US', '(Diluted')
    agent = Agent.from_workspace(dev_filing_workspace(tmp_path, "AMCOR_2023Q4_EARNINGS.pdf"))
    answer = agent.ask("What was Amcor's adjusted EBITDA in fiscal 2023?", reference_date=REF)
    assert answer.route == "structured"
    assert "2,018 million" in answer.answer
    assert "page=12,table=1,row=ADJUSTED_EBITDA,col=FY2023" in answer.answer


def test_a_group_name_above_the_header_and_a_centred_group_head(tmp_path: Path) -> None:
    # 3M's 2018 10-K, page 39: "Property, Plant and" / "Equipment - net" stand above
    # "as of December 31,"; "Capital Spending" is centred over 2017 of 2018/2017/2016.
    # Asia Pacific's PP&E (1,672 in 2017) was filed with no column name and answered
    # "3M's net sales in Asia Pacific in 2017" — a wrong number.
    ws = dev_filing_workspace(tmp_path, "3M_2018_10K.pdf")
    store = FactStore(ws / "facts.db", create=False)
    facts = {(f.channel, f.period): f.value for f in store.iter_facts()
             if f.metric_code == "ASIA_PACIFIC" and "page=39," in f.source_locator}
    assert facts[("C_PROPERTY_PLANT_AND_EQUIPMENT_NET", "2017")] == 1672.0
    assert facts[("C_CAPITAL_SPENDING", "2018")] == 238.0
    assert facts[("C_EMPLOYEES", "2018")] == 18971.0
    answer = Agent.from_workspace(ws).ask("What was 3M's net sales in Asia Pacific in 2017?",
                                          reference_date=REF)
    assert "1,672" not in answer.answer


def _segments(path: Path) -> Path:
    """Orvale's segment table: "Net Sales" and "Operating Income" centred over their years."""
    c = _orvale_page(path, 2016)
    c.drawString(80, 760, "Business Segment Information")
    c.drawString(280, 715, "Net Sales")
    c.drawString(418, 715, "Operating Income")
    c.drawString(80, 706, "(Millions)")
    for k, year in enumerate(("2016", "2015", "2014", "2016", "2015", "2014")):
        c.drawRightString(248 + 51 * k, 706, year)
    y = 694
    for label, figures in (
            ("Industrial", ("10,313", "10,295", "10,985", "2,376", "2,256", "2,381")),
            ("Consumer", ("4,482", "4,422", "4,523", "1,064", "1,046", "995"))):
        c.drawString(80, y, label)
        for k, figure in enumerate(figures):
            c.drawRightString(261 + 51 * k, y, figure)
        y -= 10
    c.showPage()
    c.save()
    return path


def test_group_heads_centred_over_the_middle_year_head_their_three_years(
        tmp_path: Path) -> None:
    # each head overlaps only the middle year of its three: the years nearest a head are
    # its group (they were the table's titles: six years, two per year, no figure filed)
    folder = tmp_path / "reports"
    folder.mkdir()
    _segments(folder / "orvale_segments.pdf")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    store = FactStore(tmp_path / "ws" / "facts.db", create=False)
    facts = {(f.metric_code, f.channel, f.period): f.value for f in store.iter_facts()}
    assert facts[("CONSUMER", "C_NET_SALES", "2014")] == 4523.0
    assert facts[("CONSUMER", "C_OPERATING_INCOME", "2016")] == 1064.0
    assert facts[("INDUSTRIAL", "C_OPERATING_INCOME", "2014")] == 2381.0


def test_a_title_over_one_year_is_no_column_head_and_employees_are_a_count(
        tmp_path: Path) -> None:
    # 3M's 2018 10-K: "(Millions, except Employees)" heads the geographic table, so its
    # employees are people, not millions; its segment tables centre "Net Sales" over the
    # middle year of three (Consumer 2018: 4,796, not 2017's 4,731) and its fourth-quarter
    # table heads each quarter's three columns with "Three months ended" over
    # "December 31, 2018" (Consumer Q4 2018: 1,211)
    ws = dev_filing_workspace(tmp_path, "3M_2018_10K.pdf")
    store = FactStore(ws / "facts.db", create=False)
    facts = {(f.metric_code, f.channel, f.period, f.source_locator.split(",row=")[0]):
             (f.value, f.unit) for f in store.iter_facts()}
    assert facts[("ASIA_PACIFIC", "C_EMPLOYEES", "2018", "page=39,table=1")] == (18971.0, "NUMBER")
    assert facts[("ASIA_PACIFIC", "C_CAPITAL_SPENDING", "2018", "page=39,table=1")] == (238.0, "M")
    assert facts[("CONSUMER", "C_NET_SALES", "2018", "page=22,table=1")] == (4796.0, "M")
    assert facts[("CONSUMER", "C_NET_SALES", "2018Q4", "page=21,table=1")] == (1211.0, "M")


def test_a_title_centred_over_one_year_names_no_column(tmp_path: Path) -> None:
    # Nike's 2018 10-K centres "Financial History" over 2016 of five years: it is the
    # table's title, not a name of the 2016 column
    ws = dev_filing_workspace(tmp_path, "NIKE_2018_10K.pdf")
    facts = list(FactStore(ws / "facts.db", create=False).iter_facts())
    assert not [f for f in facts if f.channel == "C_FINANCIAL_HISTORY"]
    revenue = {f.period: f.value for f in facts
               if f.metric_code == "REVENUE" and f.channel == "TOTAL"}
    assert (revenue["2016"], revenue["2015"]) == (32376.0, 30601.0)


def test_named_columns_with_no_period_line_are_the_tables_own_heads(tmp_path: Path) -> None:
    # Best Buy's fiscal 2017 10-K, page 73: a restructuring roll-forward headed only by
    # "Termination Benefits | Facility Closure and Other Costs | Total" (stacked words, no
    # period line). It took the previous table's header ("2017 | 2016 | Cumulative
    # Amount"): the facility costs' 113 charged in fiscal 2016 were filed as the total
    # charges (141) and a termination benefits balance as a fiscal 2017 figure.
    ws = dev_filing_workspace(tmp_path, "BESTBUY_2017_10K.pdf")
    facts = page_values(ws, "page=73,table=3,")
    assert facts[("CHARGES", "TOTAL", "2016")] == 141.0
    assert facts[("CHARGES", "C_TERMINATION_BENEFITS", "2016")] == 28.0
    assert facts[("BALANCES", "C_FACILITY_CLOSURE_AND_OTHER_COSTS", "2017")] == 34.0


def test_a_quarterly_store_count_table_is_read_as_counts(tmp_path: Path) -> None:
    # Best Buy's fiscal 2024 Q2 10-Q, page 17: "Fiscal 2024 | Fiscal 2023" over names
    # stacked on three lines ("Total Stores at / Beginning of / Second Quarter", "Stores /
    # Opened" …), pdfium giving them as twenty lines, one a "Second Quarter  Quarter" with
    # no year. The table stored nothing; its stores are counts, not the filing's millions.
    ws = dev_filing_workspace(tmp_path, "BESTBUY_2024Q2_10Q.pdf")
    facts = page_facts(ws, "page=17,table=3,")
    assert facts[("TOTAL", "C_TOTAL_STORES", "2024Q2")] == (969.0, "NUMBER")
    assert facts[("TOTAL", "C_TOTAL_STORES", "2023Q2")] == (982.0, "NUMBER")
    assert facts[("TOTAL", "C_STORES_OPENED", "2024")] == (5.0, "NUMBER")


def test_a_segment_tables_total_revenues_is_no_second_reading_of_revenue(
        tmp_path: Path) -> None:
    # Nike's 2023 10-K disaggregates revenues by segment under "Revenues by:" with a
    # "TOTAL REVENUES" row stored only under its segment columns: "Nike's revenue" is the
    # income statement's line, and "each fiscal year" / "FY2021, FY2022 and FY2023" list
    # years, not rows (they asked back or refused between the two once the table was read)
    agent = Agent.from_workspace(dev_filing_workspace(tmp_path, "NIKE_2023_10K.pdf"))
    one = agent.ask("What was Nike's revenue in FY2023?", reference_date=REF)
    assert "Revenue, FY2023: 51,217 million" in one.answer
    three = agent.ask("What was Nike's revenue in FY2021, FY2022 and FY2023?",
                      reference_date=REF)
    assert all(f in three.answer for f in ("44,538 million", "46,710 million", "51,217"))
    every = agent.ask("What was Nike's revenue each fiscal year?", reference_date=REF)
    assert "46,710 million" in every.answer and "Revenues by" not in every.answer


def test_a_unit_caption_among_the_names_is_the_tables_unit(tmp_path: Path) -> None:
    # Netflix's 2015 10-K, page 62: "(in thousands)" drawn under "International
    # Streaming" was read as part of that column's name, so only that column was in
    # thousands and the others took the filing's millions (787,417 million)
    facts = page_facts(dev_filing_workspace(tmp_path, "NETFLIX_2015_10K.pdf"), "page=62,table=1,")
    assert facts[("CONTRIBUTION_PROFIT_LOSS", "C_CONSOLIDATED", "2013")] == (787417.0, "K")
    assert facts[("CONTRIBUTION_PROFIT_LOSS", "C_INTERNATIONAL_STREAMING", "2013")] == \
        (-274332.0, "K")


def test_an_equity_statements_named_columns_in_order_and_in_money(tmp_path: Path) -> None:
    # Amcor's fiscal 2021 10-K, page 53: "Ordinary Shares" and "Additional Paid-In
    # Capital" both nearest one column's centre were one name; "Ordinary Shares", opening
    # with "$ —", is the shares' par value in dollars, not a count of shares
    facts = page_facts(dev_filing_workspace(tmp_path, "AMCOR_2021_10K.pdf"), "page=53,table=1,")
    assert facts[("BALANCE", "C_ORDINARY_SHARES", "2019")] == (16.0, "M")
    assert facts[("BALANCE", "C_ADDITIONAL_PAIDIN_CAPITAL", "2019")] == (6008.0, "M")


def test_a_contents_list_headed_page_no_is_no_table(tmp_path: Path) -> None:
    # Nike's 2018 10-K, page 77, lists the financial statements by page under "Page
    # No.": read as a table once named columns were read, its page numbers became
    # figures of rows such as "and" (which a question's "and" then named)
    ws = dev_filing_workspace(tmp_path, "NIKE_2018_10K.pdf")
    assert not page_facts(ws, "page=77,table=1,")
    options = page_facts(ws, "page=65,table=3,")
    assert options[("GRANTED", "C_WEIGHTED_AVERAGE_OPTION_PRICE", "2018")][1] != "M"


def test_the_clause_verb_names_no_stated_change_row(tmp_path: Path) -> None:
    # once 3M's "Components of net sales change" tables were read, their "Total sales
    # change" row was read from "how did 3M net sales change …" (its words "sales
    # change"), and its parts offered: "change" there is the clause's verb
    # (the review's own folder: 3M's 2018 and 2022 10-Ks and Best Buy's FY2023 10-K)
    ws = dev_filing_workspace(tmp_path, "3M_2022_10K.pdf")
    for name in ("3M_2018_10K.pdf", "BESTBUY_2023_10K.pdf"):
        shutil.copy(data_root() / "financebench" / "pdfs" / name, tmp_path / "reports" / name)
    ingest(tmp_path / "reports", workspace=ws, progress=False)
    agent = Agent.from_workspace(ws)
    answer = agent.ask("How did 3M net sales change from 2021 to 2022?", reference_date=REF)
    assert "change from FY2021 to FY2022: -1,126 million" in answer.answer


def test_figures_written_to_the_cent_take_no_scale_from_the_prose(tmp_path: Path) -> None:
    # Foot Locker's 2023 10-K, page 19: a $100 investment's worth ("$ 83.41") took the
    # filing's millions from its prose; Adobe's 2015 10-K, page 34: basic EPS "$ 1.26"
    # took its thousands
    ws = dev_filing_workspace(tmp_path, "FOOTLOCKER_2023_10K.pdf")
    worth = page_facts(ws, "page=19,table=2,")[("FOOT_LOCKER_INC", "TOTAL", "2020")]
    assert worth[0] == 83.41 and worth[1] not in ("M", "USD_M")
    (tmp_path / "adobe").mkdir()
    eps = page_facts(dev_filing_workspace(tmp_path / "adobe", "ADOBE_2015_10K.pdf"),
                 "page=34,table=2,")[("BASIC", "TOTAL", "2015")]
    assert eps[0] == 1.26 and eps[1] not in ("K", "USD_K")
    # they still say which scale the prose's amounts match: Amcor's 2021 10-K reads its
    # unscaled supplemental cash flow table in millions (it lost them when they did not)
    (tmp_path / "amcor").mkdir()
    paid = page_facts(dev_filing_workspace(tmp_path / "amcor", "AMCOR_2021_10K.pdf"),
                  "page=106,table=1,")[("INCOME_TAXES_PAID", "TOTAL", "2021")]
    assert paid == (321.0, "M")
