"""A quarterly report's periods in the company's fiscal calendar, through ingest and ask.

A 10-Q of a company whose fiscal year ends in January ("… Form 10-K for the fiscal year
ended January 28, 2023") heads its columns "Three Months Ended July 29, 2023": the second
quarter of fiscal 2024, as the company, its readers and their questions name it. An
earnings release of a company whose year ends June 30 heads "Three Months Ended June 30,
2023": its fourth quarter. Each test fails on the code before the calendar was read: the
quarter ended July 29 was filed under calendar 2023 (and a balance of July 30, 2022 as
the fiscal-2022 figure), the quarter ended June 30 as the second quarter of 2023 — so
"Q2 FY2023" answered the fourth quarter's net sales.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb import FactStore, ingest
from ragspine_nb.agent import Agent
from tests.filings import dev_filing_workspace, page_values

REF = date(2024, 1, 1)


def _canvas(path: Path, lines: tuple[str, ...]) -> Any:
    """A reportlab canvas with a cover page of ``lines`` drawn and ended."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    y = 800
    for line in lines:
        c.drawString(60, y, line)
        y -= 16
    c.showPage()
    return c


def _rows(c: Any, y: int, rows: tuple[tuple[str, tuple[str, ...]], ...], step: int = 80
          ) -> int:
    for label, figures in rows:
        c.drawString(40, y, label)
        for k, figure in enumerate(figures):
            c.drawRightString(300 + step * k, y, figure)
        y -= 16
    return y


def _ten_q(path: Path) -> Path:
    """Orvale's 10-Q for the quarter ended July 29, 2023 (its fiscal year ends in January)."""
    c = _canvas(path, ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-Q",
                       "For the quarterly period ended July 29, 2023",
                       "Commission File Number: 1-4242", "ORVALE INC.",
                       "(Exact name of registrant as specified in its charter)"))
    c.drawString(40, 800, "Read this report with our Annual Report on Form 10-K for the fiscal "
                          "year ended January 28, 2023.")
    c.drawString(40, 784, "Sales fell in the second quarter of fiscal 2024 on July 29, 2023.")
    c.drawString(40, 750, "Consolidated Statements of Earnings ($ in millions)")
    c.drawString(250, 730, "Three Months Ended")
    c.drawString(410, 730, "Six Months Ended")
    for x, text in ((240, "July 29, 2023"), (320, "July 30, 2022"), (400, "July 29, 2023"),
                    (480, "July 30, 2022")):
        c.drawString(x, 716, text)
    y = _rows(c, 700, (("Revenue", ("9,583", "10,329", "18,050", "20,976")),
                       ("Net earnings", ("274", "306", "518", "647"))))
    c.drawString(40, y - 20, "Consolidated Balance Sheets ($ in millions)")
    for x, text in ((300, "July 29, 2023"), (400, "January 28, 2023"), (500, "July 30, 2022")):
        c.drawRightString(x, y - 40, text)
    _rows(c, y - 56, (("Cash and cash equivalents", ("1,093", "1,874", "840")),
                      ("Total assets", ("15,244", "15,803", "17,046"))), step=100)
    c.showPage()
    c.drawString(40, 800, "Restructuring accrual activity was as follows ($ in millions):")
    c.drawString(270, 780, "Total")
    _rows(c, 764, (("Balances at January 28, 2023", ("107",)), ("Charges", ("12",)),
                   ("Cash payments", ("(46)",)), ("Balances at July 29, 2023", ("73",))))
    c.showPage()
    c.save()
    return path


def _release(path: Path) -> Path:
    """Zentra's fourth-quarter release: its fiscal year ends June 30."""
    c = _canvas(path, ("ZENTRA PLC", "Results for the fiscal year ended June 30, 2023",
                       "Annual Report on Form 10-K for the fiscal year ended June 30, 2022"))
    c.setFont("Helvetica", 8)
    c.drawString(40, 800, "Condensed Consolidated Statements of Income ($ million)")
    c.drawString(262, 780, "Three Months Ended June 30,")
    c.drawString(422, 780, "Twelve Months Ended June 30,")
    for x, text in ((300, "2022"), (380, "2023"), (460, "2022"), (540, "2023")):
        c.drawRightString(x, 766, text)
    _rows(c, 750, (("Net sales", ("3,909", "3,673", "14,544", "14,694")),
                   ("Net income", ("112", "184", "815", "1,058"))))
    c.showPage()
    c.save()
    return path


def _workspace(tmp_path: Path, make: Any, name: str) -> Path:
    folder = tmp_path / "reports"
    folder.mkdir()
    make(folder / name)
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    return tmp_path / "ws"


def test_a_ten_q_files_its_columns_under_its_fiscal_quarter_and_half(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, _ten_q, "orvale_10q.pdf")
    got = page_values(ws, "page=2,table=1,")
    assert {k: v for k, v in got.items() if k[1] == "TOTAL"} == {
        ("REVENUE", "TOTAL", "2024Q2"): 9583.0, ("REVENUE", "TOTAL", "2023Q2"): 10329.0,
        ("REVENUE", "TOTAL", "2024H1"): 18050.0, ("REVENUE", "TOTAL", "2023H1"): 20976.0,
        ("NET_INCOME", "TOTAL", "2024Q2"): 274.0, ("NET_INCOME", "TOTAL", "2023Q2"): 306.0,
        ("NET_INCOME", "TOTAL", "2024H1"): 518.0, ("NET_INCOME", "TOTAL", "2023H1"): 647.0}


def test_a_balance_at_a_quarters_end_is_that_quarters_not_the_years(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, _ten_q, "orvale_10q.pdf")
    got = page_values(ws, "page=2,table=2,")
    assert got == {("CASH", "TOTAL", "2024Q2"): 1093.0, ("CASH", "TOTAL", "2023"): 1874.0,
                   ("CASH", "TOTAL", "2023Q2"): 840.0,
                   ("TOTAL_ASSETS", "TOTAL", "2024Q2"): 15244.0,
                   ("TOTAL_ASSETS", "TOTAL", "2023"): 15803.0,
                   ("TOTAL_ASSETS", "TOTAL", "2023Q2"): 17046.0}


def test_movements_between_two_balances_are_of_the_span_between_them(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, _ten_q, "orvale_10q.pdf")
    got = page_values(ws, "page=3,table=1,")
    assert {(m, p): v for (m, ch, p), v in got.items() if ch == "TOTAL"} == {
        ("BALANCES", "2023"): 107.0, ("CHARGES", "2024H1"): 12.0,
        ("CASH_PAYMENTS", "2024H1"): -46.0, ("BALANCES", "2024Q2"): 73.0}


def test_the_quarterly_report_is_of_its_fiscal_quarter_and_answers_it(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, _ten_q, "orvale_10q.pdf")
    [row] = FactStore(ws / "facts.db", create=False).document_identities().values()
    assert (row["company"], row["doc_type"], row["period"]) == ("Orvale Inc.", "10-Q", "2024Q2")
    agent = Agent.from_workspace(ws)
    result = agent.ask("What was Orvale's revenue in Q2 FY2024?", reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(9583.0, "M")]
    assert "col=2024Q2" in result.answer


def test_a_june_year_ends_fourth_quarter_is_no_second_quarter(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, _release, "zentra_release.pdf")
    got = page_values(ws, "page=2,table=1,")
    assert {k: v for k, v in got.items() if k[0] == "REVENUE"} == {
        ("REVENUE", "TOTAL", "2022Q4"): 3909.0, ("REVENUE", "TOTAL", "2023Q4"): 3673.0,
        ("REVENUE", "TOTAL", "2022"): 14544.0, ("REVENUE", "TOTAL", "2023"): 14694.0}
    agent = Agent.from_workspace(ws)
    q2 = agent.ask("What were Zentra's net sales in Q2 FY2023?", reference_date=REF)
    assert q2.figures == () and "3,673" not in q2.answer
    q4 = agent.ask("What were Zentra's net sales in Q4 FY2023?", reference_date=REF)
    assert [f.value for f in q4.figures] == [3673.0]


def test_a_quarter_named_in_words_is_the_period_not_a_column(tmp_path: Path) -> None:
    """3M's 10-K brings a "Second Quarter" column; the question's "second quarter of fiscal
    2024" is the period it names, not that column (it asked back between two revenues)."""
    agent = Agent.from_workspace(
        dev_filing_workspace(tmp_path, "3M_2016_10K.pdf", "BESTBUY_2024Q2_10Q.pdf"))
    result = agent.ask("What was Best Buy's revenue in the second quarter of fiscal 2024?",
                       reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(9583.0, "M")]
    assert "BESTBUY_2024Q2_10Q.pdf · page=4,table=1,row=REVENUE,col=2024Q2" in result.answer


def _ten_k_by_start(path: Path) -> Path:
    """Vesta's 10-K: a retailer naming its fiscal year by the year it starts in."""
    c = _canvas(path, ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K",
                       "For the fiscal year ended January 28, 2023",
                       "Commission File No. 1-5151", "VESTA STORES, INC.",
                       "(Exact name of registrant as specified in its charter)"))
    c.drawString(40, 800, "Fiscal year 2022 and 2021 represented the 52 weeks ended January 28,")
    c.drawString(40, 784, "2023 and January 29, 2022, respectively.")
    c.drawString(40, 750, "Consolidated Statements of Operations ($ in millions)")
    for x, text in ((300, "2022"), (400, "2021")):
        c.drawRightString(x, 730, text)
    y = _rows(c, 714, (("Sales", ("8,759", "8,968")), ("Net income", ("341", "892"))),
              step=100)
    c.drawString(40, y - 20, "Consolidated Balance Sheets ($ in millions)")
    for x, text in ((300, "January 28, 2023"), (400, "January 29, 2022")):
        c.drawRightString(x, y - 40, text)
    _rows(c, y - 56, (("Cash and cash equivalents", ("536", "804")),
                      ("Inventories", ("1,643", "1,266"))), step=100)
    c.showPage()
    c.save()
    return path


def test_a_year_named_by_its_start_names_the_balance_sheet_too(tmp_path: Path) -> None:
    """The statement of operations heads "2022" for the year ended January 28, 2023; the
    balance sheet "January 28, 2023" is that same fiscal 2022 (it was filed as 2023, so
    "fiscal 2022 cash" answered the previous year's 804)."""
    ws = _workspace(tmp_path, _ten_k_by_start, "vesta_10k.pdf")
    assert page_values(ws, "page=2,table=2,") == {
        ("CASH", "TOTAL", "2022"): 536.0, ("CASH", "TOTAL", "2021"): 804.0,
        ("INVENTORIES", "TOTAL", "2022"): 1643.0, ("INVENTORIES", "TOTAL", "2021"): 1266.0}
    [row] = FactStore(ws / "facts.db", create=False).document_identities().values()
    assert row["period"] == "FY2022"
    agent = Agent.from_workspace(ws)
    result = agent.ask("What were Vesta's inventories at the end of fiscal 2022?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [1643.0]


def test_a_date_the_question_names_is_read_in_the_companys_calendar(tmp_path: Path) -> None:
    """"As of July 29, 2023" is the balance filed under 2024Q2; its calendar reading,
    FY2023, is the balance of January 28, 2023 (it answered 1,874)."""
    agent = Agent.from_workspace(_workspace(tmp_path, _ten_q, "orvale_10q.pdf"))
    cash = agent.ask("What was Orvale's cash and cash equivalents as of July 29, 2023?",
                     reference_date=REF)
    assert [f.value for f in cash.figures] == [1093.0]
    revenue = agent.ask("What was Orvale's revenue for the three months ended July 29, 2023?",
                        reference_date=REF)
    assert [f.value for f in revenue.figures] == [9583.0]


def test_a_quarter_ended_on_a_date_is_the_fiscal_quarter_it_was_filed_under(
        tmp_path: Path) -> None:
    """Zentra's "three months ended June 30, 2023" is its fourth quarter (2023Q4); read as
    calendar 2023Q2 it was not found (in a folder with its 10-Q: another quarter's)."""
    agent = Agent.from_workspace(_workspace(tmp_path, _release, "zentra_release.pdf"))
    result = agent.ask("What were Zentra's net sales for the three months ended June 30, "
                       "2023?", reference_date=REF)
    assert [f.value for f in result.figures] == [3673.0]
    assert "col=2023Q4" in result.answer


def test_a_dates_words_name_no_row_of_the_question(tmp_path: Path) -> None:
    """Best Buy's equity statement has rows "Balances at January 28, 2023": the date of
    "inventory as of January 28, 2023" named them too, and the question asked back."""
    agent = Agent.from_workspace(
        dev_filing_workspace(tmp_path, "BESTBUY_2023_10K.pdf", "BESTBUY_2024Q2_10Q.pdf"))
    result = agent.ask("What was Best Buy's inventory as of January 28, 2023?",
                       reference_date=REF)
    assert [(f.value, f.operands[0].period) for f in result.figures] == [(5140.0, "2023")]


def test_a_date_written_in_chinese_is_read_in_the_calendar_too(tmp_path: Path) -> None:
    """"截至2023年7月29日" read by the calendar was FY2023: the balance of January 28, 2023."""
    agent = Agent.from_workspace(_workspace(tmp_path, _ten_q, "orvale_10q.pdf"))
    result = agent.ask("Orvale截至2023年7月29日的现金及现金等价物是多少？", reference_date=REF)
    assert [f.value for f in result.figures] == [1093.0]
    assert result.answer.startswith("Orvale Inc. Cash and cash equivalents，2024Q2：1,093百万")


def test_a_day_before_its_month_and_a_months_end_are_dates_too(tmp_path: Path) -> None:
    """"At 29 July 2023" and "at the end of July 2023" were read as the year 2023."""
    agent = Agent.from_workspace(_workspace(tmp_path, _ten_q, "orvale_10q.pdf"))
    for asked in ("What was Orvale's cash and cash equivalents at 29 July 2023?",
                  "What was Orvale's cash and cash equivalents at the end of July 2023?"):
        result = agent.ask(asked, reference_date=REF)
        assert [f.value for f in result.figures] == [1093.0], asked


def test_a_span_ended_in_a_month_is_the_period_that_ended_then(tmp_path: Path) -> None:
    """"The quarter ended July 2023" (no day) was read as the year 2023: FY2023's balance or
    no row; "six months ended July 2023" answered nothing of the half."""
    agent = Agent.from_workspace(_workspace(tmp_path, _ten_q, "orvale_10q.pdf"))
    quarter = agent.ask("What was Orvale's revenue for the quarter ended July 2023?",
                        reference_date=REF)
    assert [f.value for f in quarter.figures] == [9583.0]
    half = agent.ask("What was Orvale's revenue for the six months ended July 2023?",
                     reference_date=REF)
    assert [f.value for f in half.figures] == [18050.0]


def test_a_june_years_quarter_ended_in_a_month_is_no_fiscal_year(tmp_path: Path) -> None:
    """Zentra's "quarter ended June 2023" answered the year's net sales (14,694) as FY2023;
    "the nine months ended March 31, 2023" (no period of ours) answered it too."""
    agent = Agent.from_workspace(_workspace(tmp_path, _release, "zentra_release.pdf"))
    quarter = agent.ask("What were Zentra's net sales for the quarter ended June 2023?",
                        reference_date=REF)
    assert [f.value for f in quarter.figures] == [3673.0]
    year = agent.ask("What were Zentra's net sales for the fiscal year ended June 2023?",
                     reference_date=REF)
    assert [f.value for f in year.figures] == [14694.0]
    nine = agent.ask("What were Zentra's net sales for the nine months ended March 31, 2023?",
                     reference_date=REF)
    assert nine.figures == ()
    assert "nine months ended march 31, 2023" in nine.answer


def test_a_quarter_ended_in_a_month_is_never_the_years_figure(tmp_path: Path) -> None:
    """Yearly columns only, no calendar read (a CSV): "the quarter ended December 2022" was
    read as FY2022 and answered the year's revenue."""
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "zentra_results.csv").write_text(
        "(in millions),2021,2022\nRevenue,\"1,200\",\"1,250\"\n", encoding="utf-8")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    result = agent.ask("What was revenue for the quarter ended December 2022?",
                       reference_date=REF)
    assert result.figures == ()
    assert "2022Q4" in result.answer
    year = agent.ask("What was revenue for the year ended December 2022?", reference_date=REF)
    assert [f.value for f in year.figures] == [1250.0]


def test_a_month_alone_is_no_fiscal_year_of_a_company_whose_year_ends_apart(
        tmp_path: Path) -> None:
    """"Revenue in May 2023" was read as FY2023 (the year ended January 28, 2023, before
    May 2023): asked back, naming the month."""
    agent = Agent.from_workspace(_workspace(tmp_path, _ten_q, "orvale_10q.pdf"))
    result = agent.ask("What was Orvale's revenue in May 2023?", reference_date=REF)
    assert result.figures == ()
    assert "may 2023" in result.answer
    assert agent.ask("What was Orvale's revenue in fiscal 2024 Q2?",
                     reference_date=REF).figures[0].value == 9583.0


def test_a_date_names_no_row_of_a_calendar_year_company_either(tmp_path: Path) -> None:
    """3M's year ends December 31: "cash at December 31, 2022" also named its rows
    labelled "December 31" and listed them as not found beside the cash balance."""
    agent = Agent.from_workspace(dev_filing_workspace(tmp_path, "3M_2022_10K.pdf"))
    result = agent.ask("What was 3M's cash at December 31, 2022?", reference_date=REF)
    assert [f.value for f in result.figures] == [3655.0]
    assert "Not found" not in result.answer


def test_the_month_a_year_ends_in_names_that_year(tmp_path: Path) -> None:
    """Zentra's year ends in June: "the year to June 2023" is its fiscal 2023 (the rule
    asking back a month alone asked it back too)."""
    agent = Agent.from_workspace(_workspace(tmp_path, _release, "zentra_release.pdf"))
    result = agent.ask("What were Zentra's net sales in the year to June 2023?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [14694.0]
    assert agent.ask("What were Zentra's net sales in March 2023?",
                     reference_date=REF).figures == ()
