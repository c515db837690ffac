"""One table pipeline: real csv, xlsx and docx tables through the readers users run.

Every rule of the layout (header blocks, spanning headers, dates, quarters, change
columns, sub-column channels, sections, totals and roll-forwards) and of the units
(per-share, count and rate rows, except-clauses, ``$’000``, ``%`` header rows, no stated
scale) is checked on a file written in ``tmp_path`` and read by ``read_csv`` /
``read_xlsx`` / ``read_docx`` with the built-in profile (tables bring their own
vocabulary) or a user's profile (closed).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.extract.base import Extraction, ReadContext
from ragspine_nb.extract.office import read_docx, read_xlsx
from ragspine_nb.extract.plain import read_csv
from tests.filemakers import make_xlsx
from tests.tablehelpers import Row
from tests.tablehelpers import cells_of as _cells
from tests.tablehelpers import read_table as _csv


def _one(ex: Extraction, locator: str) -> Row:
    """The plain fact of a cell (its TOTAL one when it is also named by its header)."""
    rows = _cells(ex)[locator]
    return next((r for r in rows if r[1] == "TOTAL"), rows[0])


# ------------------------------------------------------------------ header blocks
def test_a_caption_row_above_the_years_and_a_scale_caption(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["($ in millions)", "", ""],
                         ["", "Years Ended September 30,", ""],
                         ["", "2019", "2018"],
                         ["Net sales", "$1,452.4", "$1,146.2"],
                         ["Cost of sales", "1,000.1", "800.0"]])
    assert _one(ex, "cell=B4") == ("REVENUE", "TOTAL", "FY", "2019", 1452.4, "M")
    assert _one(ex, "cell=C5") == ("COST_OF_REVENUE", "TOTAL", "FY", "2018", 800.0, "M")
    assert ex.skipped == [] and ex.unscaled == []


def test_a_year_spanning_two_sub_columns_is_assigned_by_its_span(tmp_path: Path) -> None:
    # the year sits over the second of its two sub-columns: "Low" of 2018 is not 2019's
    ex = _csv(tmp_path, [["", "", "2019", "", "2018"],
                         ["", "Low", "High", "Low", "High"],
                         ["Share price", "$10.10", "$12.20", "$9.00", "$11.50"]])
    got = {loc: _one(ex, loc)[1:4] for loc in ("cell=B3", "cell=C3", "cell=D3", "cell=E3")}
    assert got == {"cell=B3": ("C_LOW", "FY", "2019"), "cell=C3": ("C_HIGH", "FY", "2019"),
                   "cell=D3": ("C_LOW", "FY", "2018"), "cell=E3": ("C_HIGH", "FY", "2018")}
    # a price is a per-share amount: never scaled, never a TOTAL of the year
    assert {u for rows in _cells(ex).values() for *_, u in rows} == {"NUMBER"}
    assert "TOTAL" not in {r[1] for rows in _cells(ex).values() for r in rows}


def test_a_group_title_does_not_span_a_column_of_another_kind(tmp_path: Path) -> None:
    # "Percent Change" sits over "Actual | Constant", not over the 2019 / 2018 columns
    ex = _csv(tmp_path, [["", "", "", "Percent Change", ""],
                         ["(Dollars in millions)", "2019", "Actual", "Constant", "2018"],
                         ["Total revenues", "$32,582", "2%", "4%", "$32,041"]])
    cells = _cells(ex)
    assert _one(ex, "cell=B3") == ("REVENUE", "TOTAL", "FY", "2019", 32582.0, "M")
    assert _one(ex, "cell=E3") == ("REVENUE", "TOTAL", "FY", "2018", 32041.0, "M")
    assert cells["cell=C3"] == [("REVENUE", "CHANGE_PCT_ACTUAL", "FY", "2019", 2.0, "PCT")]
    assert cells["cell=D3"] == [("REVENUE", "CHANGE_PCT_CONSTANT", "FY", "2019", 4.0, "PCT")]


@pytest.mark.parametrize("header, period", [
    ("December 31, 2019", ("FY", "2019")), ("30 June 2019", ("FY", "2019")),
    ("As of February 28, 2019", ("FY", "2019")), ("FY2019", ("FY", "2019")),
    ("F19", ("FY", "2019")), ("2018/2019", ("FY", "2019")), ("2018/19", ("FY", "2019")),
    ("Q4 2019", ("QUARTER", "2019Q4")), ("Q3 FY24", ("QUARTER", "2024Q3")),
    ("1H2025", ("HY", "2025H1")), ("H1 2025", ("HY", "2025H1")),
    ("2025年上半年", ("HY", "2025H1")), ("2025年第三季度", ("QUARTER", "2025Q3")),
])
def test_period_headers(tmp_path: Path, header: str, period: tuple[str, str]) -> None:
    ex = _csv(tmp_path, [["US$m", header], ["Revenue", "1,234"]])
    assert _one(ex, "cell=B2") == ("REVENUE", "TOTAL", *period, 1234.0, "USD_M")


def test_a_month_end_date_under_a_quarter_header_is_that_quarter(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "Three Months Ended", ""],
                         ["", "September 30, 2019", "September 30, 2018"],
                         ["Revenue", "2,493", "2,407"]])
    assert _one(ex, "cell=B3")[1:4] == ("TOTAL", "QUARTER", "2019Q3")
    assert _one(ex, "cell=C3")[1:4] == ("TOTAL", "QUARTER", "2018Q3")


def test_a_quarter_that_is_no_calendar_quarter_is_never_the_fiscal_year(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "Quarter Ended", ""],
                         ["", "July 27, 2019", "April 27, 2019"],
                         ["Revenue", "13,428", "12,958"]])
    assert _cells(ex)["cell=B3"] == [
        ("REVENUE", "C_QUARTER_JUL_27", "FY", "2019", 13428.0, "NUMBER")]
    assert _cells(ex)["cell=C3"] == [
        ("REVENUE", "C_QUARTER_APR_27", "FY", "2019", 12958.0, "NUMBER")]
    # nine months are a part of the year too, even as the year's only column
    ex = _csv(tmp_path, [["", "Nine Months Ended September 30,"], ["", "2019"],
                         ["Revenue", "7,000"]], name="nine.csv")
    assert [r[1] for r in _cells(ex)["cell=B3"]] == ["C_NINE_MONTHS_SEP_30"]


def test_ordinal_quarters_under_a_fiscal_year_are_that_years_quarters(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "", "Fiscal 2019", "", "", ""],
                         ["", "First", "Second", "Third", "Fourth", ""],
                         ["", "Quarter", "Quarter", "Quarter", "Quarter", "Total"],
                         ["Revenues", "$94,888", "$96,037", "$88,495", "$84,380", "$363,800"]])
    assert [_one(ex, f"cell={c}4")[2:4] for c in "BCDEF"] == [
        ("QUARTER", "2019Q1"), ("QUARTER", "2019Q2"), ("QUARTER", "2019Q3"),
        ("QUARTER", "2019Q4"), ("FY", "2019")]


def test_year_titles_over_rows_date_them(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "First", "Second"],
                         ["2019", "", ""], ["Net sales", "117,625", "120,684"],
                         ["2018", "", ""], ["Net sales", "113,530", "118,021"]])
    assert _cells(ex)["cell=B3"] == [("REVENUE", "C_FIRST", "FY", "2019", 117625.0, "NUMBER")]
    assert _cells(ex)["cell=B5"] == [("REVENUE", "C_FIRST", "FY", "2018", 113530.0, "NUMBER")]


def test_a_header_restarting_inside_the_table_starts_a_block(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "Fiscal 2019"], ["Revenue", "10"], ["Backlog", "4"],
                         ["", "Fiscal 2018"], ["Revenue", "9"], ["Backlog", "3"]])
    assert [(_one(ex, loc)[0], _one(ex, loc)[3]) for loc in ("cell=B3", "cell=B6")] == \
        [("BACKLOG", "2019"), ("BACKLOG", "2018")]


# ------------------------------------------------------------------ change columns
def test_stated_change_columns_are_channels_of_the_later_year(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["(in thousands)", "2019", "2018", "$ Change", "% Change"],
                         ["Net sales", "1,200", "1,000", "200", "20.0%"]])
    assert _cells(ex)["cell=D2"] == [("REVENUE", "CHANGE", "FY", "2019", 200.0, "K")]
    assert _cells(ex)["cell=E2"] == [("REVENUE", "CHANGE_PCT", "FY", "2019", 20.0, "PCT")]
    ex = _csv(tmp_path, [["", "2019", "2018", "2019 vs 2018", "2018 vs 2017"],
                         ["Backlog", "12", "10", "2", "1"]], name="vs.csv")
    assert [(r[1], r[3]) for loc in ("cell=D2", "cell=E2") for r in _cells(ex)[loc]] == \
        [("CHANGE", "2019"), ("CHANGE", "2018")]


def test_a_range_of_years_is_a_bucket_not_a_change(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["(In thousands)", "Total", "2020", "2021-2022", "Thereafter"],
                         ["Operating leases", "$19,437", "$4,143", "$7,111", "$4,497"]])
    cells = _cells(ex)
    assert cells["cell=C2"] == [("OPERATING_LEASES", "TOTAL", "FY", "2020", 4143.0, "K")]
    assert cells["cell=D2"] == [("OPERATING_LEASES", "C_2021_2022", "FY", "2020", 7111.0, "K")]
    # "Total" beside a plain period column is a channel of its own, never that TOTAL
    assert cells["cell=B2"] == [("OPERATING_LEASES", "C_TOTAL", "FY", "2020", 19437.0, "K")]


# ------------------------------------------------------------------ sub-columns
def test_sub_columns_of_one_period_are_channels_and_none_is_the_total(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019", "", "2018", ""],
                         ["", "As reported", "Adjusted", "As reported", "Adjusted"],
                         ["Operating income", "500", "620", "450", "560"]])
    assert {r[1] for rows in _cells(ex).values() for r in rows} == \
        {"C_AS_REPORTED", "C_ADJUSTED"}
    assert {c.code: c.synonyms for c in ex.vocabulary.channels} == {
        "C_AS_REPORTED": ("as reported",), "C_ADJUSTED": ("adjusted",)}


def test_a_percent_sub_column_is_a_percentage(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019", "", "2018", ""],
                         ["(in millions)", "$", "%", "$", "%"],
                         ["Americas", "533.3", "38.6", "500.0", "37.0"]])
    cells = _cells(ex)
    assert cells["cell=B3"] == [("AMERICAS", "TOTAL", "FY", "2019", 533.3, "M")]
    assert cells["cell=C3"] == [("AMERICAS", "C_PERCENT", "FY", "2019", 38.6, "PCT")]


# ------------------------------------------------------------------ sections and totals
def test_sections_qualify_repeated_labels_and_totals_record_their_parts(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019", "2018"],
                         ["Revenue:", "", ""],
                         ["Products", "60", "50"], ["Other", "40", "30"], ["", "100", "80"],
                         ["Expenses:", "", ""],
                         ["Staff", "30", "20"], ["Other", "10", "15"], ["", "40", "35"]])
    metrics = {m.code: m for m in ex.vocabulary.metrics}
    assert {_one(ex, loc)[0] for loc in ("cell=B4", "cell=B8")} == \
        {"REVENUE_OTHER", "EXPENSES_OTHER"}
    assert metrics["REVENUE_OTHER"].synonyms[:2] == ("revenue other", "other revenue")
    # an unlabelled row closing a section is its total, checked on the figures
    assert _one(ex, "cell=B5")[0] == "REVENUE_TOTAL"
    assert metrics["REVENUE_TOTAL"].parts == ("PRODUCTS", "REVENUE_OTHER")
    assert metrics["EXPENSES_TOTAL"].parts == ("STAFF", "EXPENSES_OTHER")
    # the section's name is its total's (the profile's REVENUE claims "revenue" when merged)
    assert metrics["EXPENSES_TOTAL"].synonyms == (
        "expenses total", "total expenses", "expense total", "expenses", "total expense")


def test_a_roll_forward_is_not_a_total_and_its_parts(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019", "2018"],
                         ["Balance at beginning of year", "100", "90"],
                         ["Additions", "30", "25"], ["Disposals", "(20)", "(15)"],
                         ["Balance at end of year", "110", "100"]])
    assert [m.parts for m in ex.vocabulary.metrics] == [(), (), (), ()]
    # the same figures as a plain sum are a total with its parts
    ex = _csv(tmp_path, [["", "2019", "2018"], ["Products", "100", "90"],
                         ["Services", "30", "25"], ["Licences", "(20)", "(15)"],
                         ["Total segments", "110", "100"]], name="sum.csv")
    assert {m.code: m.parts for m in ex.vocabulary.metrics if m.parts} == \
        {"TOTAL_SEGMENTS": ("PRODUCTS", "SERVICES", "LICENCES")}


def test_row_dated_roll_forward_periods_come_from_the_balances(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "Software", "Total"],
                         ["Balances at December 31, 2017", "$4,565.4", "$8,820.3"],
                         ["Goodwill acquired", "684.4", "717.5"],
                         ["Balances at December 31, 2018", "$5,236.1", "$9,346.8"],
                         ["Goodwill acquired", "143.4", "1,447.0"],
                         ["Balances at December 31, 2019", "$5,389.4", "$10,815.4"]])
    assert [_one(ex, f"cell=C{r}")[0::3] for r in range(2, 7)] == [
        ("BALANCES", "2017"), ("GOODWILL_ACQUIRED", "2018"), ("BALANCES", "2018"),
        ("GOODWILL_ACQUIRED", "2019"), ("BALANCES", "2019")]
    assert _cells(ex)["cell=B3"] == [
        ("GOODWILL_ACQUIRED", "C_SOFTWARE", "FY", "2018", 684.4, "NUMBER")]


# ------------------------------------------------------------------ units
def test_per_share_count_and_rate_rows_are_never_scaled(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["(In millions, except per share data)", "2019"],
                         ["Net income", "$1,169"],
                         ["Shares used in basic computation", "262"],
                         ["Diluted earnings per share", "$4.51"],
                         ["Effective tax rate", "21.0"],
                         ["Number of employees", "9,800"],
                         ["Earnings per share:", ""], ["Basic", "$4.60"]])
    units = {loc: _one(ex, loc)[5] for loc in _cells(ex)}
    assert units == {"cell=B2": "M", "cell=B3": "shares_M", "cell=B4": "NUMBER",
                     "cell=B5": "PCT", "cell=B6": "NUMBER", "cell=B8": "NUMBER"}


def test_an_except_clause_takes_away_only_the_rows_it_names(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["(in thousands, except share data)", "2019"],
                         ["Net income", "35,842"],
                         ["Weighted average shares outstanding", "48,123,000"],
                         ["Net income per share", "0.74"]])
    assert [_one(ex, f"cell=B{r}")[5] for r in (2, 3, 4)] == ["K", "shares", "NUMBER"]
    # a scale stated over one column is that column's
    ex = _csv(tmp_path, [["(in millions)", "Shares (in thousands)", "2019"],
                         ["Net income", "", "1,169"],
                         ["Shares used in basic computation", "262", ""]], name="col.csv")
    assert (_one(ex, "cell=C2")[5], _cells(ex)["cell=B3"][0][5]) == ("M", "shares_K")


@pytest.mark.parametrize("scale_cell, unit", [
    ("$’000", "K"), ("$'000", "K"), ("US$’000", "USD_K"), ("RMB’000", "CNY_K"),
    ("€ million", "EUR_M"), ("(inthousands)", "K"), ("USDm", "USD_M"), ("人民币亿元", "CNY_100M"),
])
def test_stated_scales_with_typographic_quotes(tmp_path: Path, scale_cell: str, unit: str
                                               ) -> None:
    ex = _csv(tmp_path, [["", "2019", "2018"], ["", scale_cell, scale_cell],
                         ["Operating revenue", "154,159", "176,931"]])
    assert _one(ex, "cell=B3")[5] == unit


def test_percent_from_a_title_or_header_row(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["Expenses as a percentage of revenue", "", ""],
                         ["", "2019", "2018"], ["Research and development", "12.5", "11.0"]])
    assert _one(ex, "cell=B3") == ("RD_EXPENSES", "TOTAL", "FY", "2019", 12.5, "PCT")


def test_no_stated_scale_keeps_none_and_prose_can_tell_it(tmp_path: Path) -> None:
    from ragspine_nb.extract.prose_scale import infer_scale, rescale_facts

    ex = _csv(tmp_path, [["", "2018", "2017"], ["Net sales", "$757,336", "$700,100"],
                         ["Diluted earnings per share", "$1.20", "$1.10"]])
    assert [_one(ex, loc)[5] for loc in ("cell=B2", "cell=B3")] == ["NUMBER", "NUMBER"]
    assert ex.unscaled == ["cell=B2", "cell=C2"]  # the amounts, not the per-share row
    found = infer_scale(ex.unscaled_figures, ["Net sales were $757.3 million in 2018."])
    assert found is not None and (found.scale, found.evidence) == ("K", ("757.3 million",))
    units = {f.source_locator: f.unit for f in rescale_facts(ex.facts, ex.unscaled, found)}
    assert units == {"cell=B2": "K", "cell=C2": "K", "cell=B3": "NUMBER", "cell=C3": "NUMBER"}


# ------------------------------------------------------------------ vocabulary, entity
def test_unknown_labels_become_metrics_whole_and_known_ones_keep_their_code(tmp_path: Path
                                                                           ) -> None:
    ex = _csv(tmp_path, [["US$m", "2019"], ["Revenue", "1,405"],
                         ["Cloud and license revenues", "210"],
                         ["Customers’ deposits (1)", "88"]])
    assert [_one(ex, f"cell=B{r}")[0] for r in (2, 3, 4)] == [
        "REVENUE", "CLOUD_AND_LICENSE_REVENUES", "CUSTOMERS_DEPOSITS"]
    metrics = {m.code: m for m in ex.vocabulary.metrics}
    assert set(metrics) == {"CLOUD_AND_LICENSE_REVENUES", "CUSTOMERS_DEPOSITS"}
    # the whole label, "and" included, is the metric's first name
    assert metrics["CLOUD_AND_LICENSE_REVENUES"].synonyms == (
        "cloud and license revenues", "cloud and license revenue")
    assert metrics["CUSTOMERS_DEPOSITS"].label == "Customers’ deposits (1)"
    assert metrics["CUSTOMERS_DEPOSITS"].unit == "USD_M"
    assert {f.entity for f in ex.facts} == {"COMPANY"}


def test_two_rows_claiming_one_profile_metric_are_kept_apart(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019"], ["Revenue", "100"], ["Total revenues", "100"]])
    codes = sorted(_one(ex, loc)[0] for loc in ("cell=B2", "cell=B3"))
    assert "REVENUE" not in codes and len(set(codes)) == 2


def test_a_users_profile_stays_closed(tmp_path: Path, profile: DomainProfile) -> None:
    ex = _csv(tmp_path, [["ACME Group (US$m)", "", ""], ["Metric", "FY2024", "FY2025"],
                         ["Revenue", "4,500", "4,760"], ["Embedded value", "21,300", "22,050"]],
              profile=profile)
    assert [(f.metric_code, f.entity, f.unit) for f in ex.facts] == \
        [("REVENUE", "ACME_GROUP", "USD_M")] * 2
    assert [s.reason for s in ex.skipped] == [
        "row label 'Embedded value' not in the glossary; row skipped"]
    assert not ex.vocabulary


# ------------------------------------------------------------------ xlsx and docx
def test_an_xlsx_sheet_with_a_multi_row_header_and_a_title(tmp_path: Path) -> None:
    path = make_xlsx(tmp_path / "book.xlsx", {"Summary": [
        ["Key figures ($ in thousands)"], [],
        [None, "Years ended December 31,", None],
        [None, 2019, 2018],
        ["Net sales", 757336, 700100],
        ["Diluted earnings per share", 1.2, 1.1]]})
    ex = read_xlsx(path, DomainProfile.builtin(), ReadContext("book.xlsx"))
    assert _one(ex, "sheet=Summary!B5") == ("REVENUE", "TOTAL", "FY", "2019", 757336.0, "K")
    assert _one(ex, "sheet=Summary!C6")[2:] == ("FY", "2018", 1.1, "NUMBER")


def test_a_docx_table_with_merged_year_cells(tmp_path: Path) -> None:
    from docx import Document

    d = Document()
    d.add_paragraph("Segment results")
    t = d.add_table(rows=3, cols=5)
    rows = [["", "2019", "", "2018", ""], ["(in millions)", "$", "%", "$", "%"],
            ["Americas", "533.3", "38.6", "500.0", "37.0"]]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            t.cell(r, c).text = text
    t.cell(0, 1).merge(t.cell(0, 2))
    t.cell(0, 3).merge(t.cell(0, 4))
    t.cell(0, 1).text, t.cell(0, 3).text = "2019", "2018"
    path = tmp_path / "memo.docx"
    d.save(str(path))
    ex = read_docx(path, DomainProfile.builtin(), ReadContext("memo.docx"))
    got = sorted((f.source_locator, f.channel, f.period, f.value, f.unit) for f in ex.facts)
    assert got == [
        ("table=1,row=AMERICAS,col=FY2018", "TOTAL", "2018", 500.0, "M"),
        ("table=1,row=AMERICAS,col=FY2018.C_PERCENT", "C_PERCENT", "2018", 37.0, "PCT"),
        ("table=1,row=AMERICAS,col=FY2019", "TOTAL", "2019", 533.3, "M"),
        ("table=1,row=AMERICAS,col=FY2019.C_PERCENT", "C_PERCENT", "2019", 38.6, "PCT")]


# ------------------------------------------------------------------ ported loader shapes
def test_a_named_absolute_change_is_asked_for_by_its_name(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019", "2018", "Variance in Dollars", "Variance in Percent"],
                         ["Net sales", "$9,296", "$7,000", "$2,296", "32.8%"]])
    assert _cells(ex)["cell=D2"] == [("REVENUE", "CHANGE", "FY", "2019", 2296.0, "NUMBER")]
    assert _cells(ex)["cell=E2"] == [("REVENUE", "CHANGE_PCT", "FY", "2019", 32.8, "PCT")]
    assert {c.code: c.synonyms for c in ex.vocabulary.channels} == {
        "CHANGE": ("variance dollars", "variance in dollars"), "CHANGE_PCT": ()}
    # beside a plain change column, a named one gets a channel of its own
    ex = _csv(tmp_path, [["", "2019", "2018", "$ Change", "Change in constant currency"],
                         ["Net sales", "$9,296", "$7,000", "$2,296", "$2,400"]], name="two.csv")
    assert [_cells(ex)[loc][0][1] for loc in ("cell=D2", "cell=E2")] == \
        ["CHANGE", "CHANGE_CONSTANT_CURRENCY"]


def test_a_group_header_over_two_years_names_both_columns(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "Financial assets", "", "Financial liabilities", ""],
                         ["", "2019", "2018", "2019", "2018"],
                         ["Level 1", "100", "90", "40", "30"]])
    assert [_one(ex, f"cell={c}3")[1:4] for c in "BCDE"] == [
        ("C_FINANCIAL_ASSETS", "FY", "2019"), ("C_FINANCIAL_ASSETS", "FY", "2018"),
        ("C_FINANCIAL_LIABILITIES", "FY", "2019"), ("C_FINANCIAL_LIABILITIES", "FY", "2018")]


def test_aging_buckets_name_their_columns(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019", "1–90", "91-180", ">360"],
                         ["Trade receivables", "1,000", "700", "200", "100"]])
    assert {c.code: c.synonyms for c in ex.vocabulary.channels} == {
        "C_1_90": ("1-90",), "C_91_180": ("91-180",), "C_360": ("360+",)}


def test_a_dated_title_over_low_and_high_names_neither(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "Common Stock Price Range 2018", ""], ["", "Low", "High"],
                         ["First quarter", "$10.10", "$12.20"]])
    assert {c.code: c.synonyms for c in ex.vocabulary.channels} == \
        {"C_LOW": ("low",), "C_HIGH": ("high",)}
    assert _cells(ex)["cell=B3"] == [("FIRST_QUARTER", "C_LOW", "FY", "2018", 10.1, "NUMBER")]


def test_a_dash_in_a_years_own_column_borrows_no_other_column(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["(In thousands)", "Total", "2020", "2021"],
                         ["Asset retirement obligation", "400", "—", "150"],
                         ["Capital leases", "65", "27", "38"]])
    # a dash is nil (zero, as statements print it), never the Total column's 400
    assert [(f.period, f.value) for f in ex.facts
            if f.metric_code == "ASSET_RETIREMENT_OBLIGATION"] == [("2020", 0.0), ("2021", 150.0)]
    # a dash is not a failure; the "Total" of two years is no period's
    assert [s.reason for s in ex.skipped] == [
        "column header 'Total' is not a period; column skipped"]


def test_a_row_with_one_figure_per_year_is_that_years(tmp_path: Path) -> None:
    # two named groups per year; a row filling only one has the year's only figure
    ex = _csv(tmp_path, [["", "2019", "", "2018", ""],
                         ["", "Domestic", "Foreign", "Domestic", "Foreign"],
                         ["Deferred revenue", "963,947", "", "900,000", ""]])
    assert _cells(ex)["cell=B3"] == [
        ("DEFERRED_REVENUE", "C_DOMESTIC", "FY", "2019", 963947.0, "NUMBER"),
        ("DEFERRED_REVENUE", "TOTAL", "FY", "2019", 963947.0, "NUMBER")]


def test_a_table_naming_no_period_is_of_the_documents_period(tmp_path: Path) -> None:
    rows = [["", "Total", "Less than 1 Year", "1-3 Years"],
            ["Long-term debt", "$10,556.6", "$—", "$2,747.6"]]
    path = tmp_path / "obligations.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    bare = read_csv(path, DomainProfile.builtin(), ReadContext("obligations.csv"))
    assert bare.facts == [] and len(bare.skipped) == 3
    dated = read_csv(path, DomainProfile.builtin(),
                     ReadContext("obligations.csv", period=("FY", "2019")))
    assert _cells(dated)["cell=B2"] == [
        ("LONG_TERM_DEBT", "C_TOTAL", "FY", "2019", 10556.6, "NUMBER"),
        ("LONG_TERM_DEBT", "TOTAL", "FY", "2019", 10556.6, "NUMBER")]
    assert _cells(dated)["cell=D2"] == [
        ("LONG_TERM_DEBT", "C_1_3", "FY", "2019", 2747.6, "NUMBER")]


def test_a_row_adding_up_to_a_share_count_is_a_share_count(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["(in millions, except per share data)", "2019", "2018"],
                         ["Net income", "$1,887.8", "$1,236.4"],
                         ["Basic weighted average common shares outstanding", "442.3", "439.6"],
                         ["Dilutive securities", "3.2", "3.4"],
                         ["Diluted weighted average common shares outstanding", "445.5", "443.0"]])
    assert [_one(ex, f"cell=B{r}")[5] for r in (2, 3, 4, 5)] == \
        ["M", "shares_M", "shares_M", "shares_M"]


def test_a_blank_row_inside_a_table_does_not_end_it(tmp_path: Path) -> None:
    ex = _csv(tmp_path, [["", "2019", "2018"], ["", "", "(in millions)"],
                         ["Deferred tax assets:", "", ""], ["Inventories", "43", "58"],
                         ["", "", ""],
                         ["Deferred tax liabilities:", "", ""], ["Other", "(47)", "(38)"],
                         ["", "", ""],
                         ["Net deferred tax assets", "$ 2,620", "$ 1,937"]])
    assert _one(ex, "cell=B7") == ("OTHER", "TOTAL", "FY", "2019", -47.0, "M")
    assert _one(ex, "cell=B9")[2:] == ("FY", "2019", 2620.0, "M")
    # a header after the blank row starts another table (with its own title)
    ex = _csv(tmp_path, [["ACME Hong Kong (US$m)", "", ""], ["Metric", "FY2021", "FY2022"],
                         ["Revenue", "1,080", "1,150"], ["", "", ""],
                         ["ACME Mainland China (US$m)", "", ""], ["Metric", "FY2021", "FY2022"],
                         ["Revenue", "1,590", "1,620"]], name="two.csv",
              profile=DomainProfile.from_file(Path(__file__).parent.parent / "ragspine_nb" /
                                              "demo" / "profile.toml"))
    assert [(f.source_locator, f.entity) for f in ex.facts][::2] == [
        ("cell=B3", "ACME_HK"), ("cell=B7", "ACME_CN")]
