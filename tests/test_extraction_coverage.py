"""Cells a question needs get a fact: header shapes that used to lose rows or columns.

Each case is a real CSV written in ``tmp_path`` and read by ``read_csv`` with the
built-in profile, as a user's file is; the expectations are the exact facts of the cells
that, before these rules, gave no fact at all (or, for the letter-spaced year, a wrong
one).
"""

from __future__ import annotations

from pathlib import Path

from tests.tablehelpers import cells_of as _cells
from tests.tablehelpers import read_table as _csv


def test_a_period_title_in_the_header_block_dates_the_rows_below_it(tmp_path: Path) -> None:
    # "June 30, 2019" sits above the first section, inside the header block
    ex = _csv(tmp_path, [["", "Gross", "Amortization", "Net"],
                         ["", "", "(in millions)", ""],
                         ["June 30, 2019", "", "", ""],
                         ["Finite-lived assets", "", "", ""],
                         ["Customer lists", "$1,500.0", "$(400.0)", "$1,100.0"],
                         ["Licences", "3.0", "(1.0)", "2.0"],
                         ["June 30, 2018", "", "", ""],
                         ["Finite-lived assets", "", "", ""],
                         ["Customer lists", "$1,400.0", "$(300.0)", "$1,100.0"],
                         ["Licences", "2.5", "(0.5)", "2.0"]])
    cells = _cells(ex)
    assert cells["cell=D6"] == [("LICENCES", "C_NET", "FY", "2019", 2.0, "M")]
    assert cells["cell=B5"] == [("CUSTOMER_LISTS", "C_GROSS", "FY", "2019", 1500.0, "M")]
    assert cells["cell=D10"] == [("LICENCES", "C_NET", "FY", "2018", 2.0, "M")]
    assert ex.skipped == []


def test_a_period_in_the_header_label_cell_dates_the_table(tmp_path: Path) -> None:
    # the date is the caption of the header row; the columns are buckets, not periods
    ex = _csv(tmp_path, [["30 June 2019", "Current", "More than 60 days past due", "Total"],
                         ["", "$'000", "$'000", "$'000"],
                         ["Expected loss rate", "1%", "20%", "-"],
                         ["Gross carrying amount", "23,762", "1,703", "25,465"]])
    cells = _cells(ex)
    assert cells["cell=B4"] == [
        ("GROSS_CARRYING_AMOUNT", "C_CURRENT", "FY", "2019", 23762.0, "K")]
    assert cells["cell=B3"] == [("EXPECTED_LOSS_RATE", "C_CURRENT", "FY", "2019", 1.0, "PCT")]
    assert cells["cell=D4"] == [
        ("GROSS_CARRYING_AMOUNT", "C_TOTAL", "FY", "2019", 25465.0, "K"),
        ("GROSS_CARRYING_AMOUNT", "TOTAL", "FY", "2019", 25465.0, "K")]


def test_a_letter_spaced_year_is_a_year_not_a_figure(tmp_path: Path) -> None:
    # "2 0 1 8" (a PDF's letter spacing) used to be the figure 2018: the row of years
    # became data and 2018's column was filed under 2019 with the row labels shifted
    ex = _csv(tmp_path, [["", "December 31", ""],
                         ["", "2019", "2 0 1 8"],
                         ["", "U.S. $ in thousands", ""],
                         ["Operating loss carryforward", "73,260", "57,768"],
                         ["Net deferred tax asset", "795", "772"]])
    cells = _cells(ex)
    assert cells["cell=B4"] == [
        ("OPERATING_LOSS_CARRYFORWARD", "TOTAL", "FY", "2019", 73260.0, "K")]
    assert cells["cell=C4"] == [
        ("OPERATING_LOSS_CARRYFORWARD", "TOTAL", "FY", "2018", 57768.0, "K")]
    assert cells["cell=C5"] == [("NET_DEFERRED_TAX_ASSET", "TOTAL", "FY", "2018", 772.0, "K")]
    assert "cell=C2" not in cells


def test_empty_columns_under_a_restarted_header_are_no_sub_columns(tmp_path: Path) -> None:
    # the second header fills two of four columns: the empty ones beside "FY 2018 (%)"
    # hold nothing and must not make 2018 a period with three unnamed columns
    ex = _csv(tmp_path, [["Currency", "Weight (%)", "FY 2019", "FY 2018", "% Change"],
                         ["USD", "53.6", "70.07", "64.49", "8.7"],
                         ["Breakup of growth", "FY 2019 (%)", "FY 2018 (%)", "", ""],
                         ["Volume growth", "11.4", "6.7", "", ""],
                         ["Exchange rate impact", "7.6", "(2.3)", "", ""]])
    cells = _cells(ex)
    assert cells["cell=C5"] == [("EXCHANGE_RATE_IMPACT", "TOTAL", "FY", "2018", -2.3, "PCT")]
    assert cells["cell=B4"] == [("VOLUME_GROWTH", "TOTAL", "FY", "2019", 11.4, "PCT")]


def test_an_amount_and_an_unheaded_percent_column_of_one_year(tmp_path: Path) -> None:
    # "2019" spans an amount column and a column of percentages with no header of its
    # own: the amount is the year's figure, the percentages a channel of their own
    ex = _csv(tmp_path, [["(Dollars in thousands)", "2019", "", "2018", ""],
                         ["Licences", "$275,792", "99%", "$282,950", "98%"],
                         ["Services", "254,924", "91%", "239,310", "91%"]])
    cells = _cells(ex)
    assert cells["cell=B2"] == [("LICENCES", "TOTAL", "FY", "2019", 275792.0, "K")]
    assert cells["cell=C2"] == [("LICENCES", "C_PERCENT", "FY", "2019", 99.0, "PCT")]
    assert cells["cell=D3"] == [("SERVICES", "TOTAL", "FY", "2018", 239310.0, "K")]
    assert ex.skipped == []


def test_a_caption_naming_a_plan_does_not_date_a_row_dated_table(tmp_path: Path) -> None:
    # "Fiscal 2017 Restructuring Plan" names a plan; the balances date the rows
    ex = _csv(tmp_path, [["Fiscal 2017 Restructuring Plan", "Workforce", "Facilities", "Total"],
                         ["Balance as at June 30, 2017", "$10,045", "$1,369", "$11,414"],
                         ["Cash payments", "(12,342)", "(1,627)", "(13,969)"],
                         ["Balance as at June 30, 2018", "$1,590", "$3,431", "$5,021"],
                         ["Cash payments", "(213)", "(1,290)", "(1,503)"],
                         ["Balance as at June 30, 2019", "$1,046", "$2,949", "$3,995"]])
    assert [(f.period, f.value) for f in ex.facts if f.source_locator == "cell=B6"] == \
        [("2019", 1046.0)]
    assert [(f.period, f.value) for f in ex.facts if f.source_locator == "cell=B3"] == \
        [("2018", -12342.0)]
    # a table whose period is also the document's: the dated rows still date themselves
    ex = _csv(tmp_path, [["", "Workforce", "Total"],
                         ["Balance as at June 30, 2018", "$1,590", "$5,021"],
                         ["Cash payments", "(213)", "(1,503)"],
                         ["Balance as at June 30, 2019", "$1,046", "$3,995"]],
              name="dated.csv", period=("FY", "2019"))
    assert [(f.period, f.value) for f in ex.facts if f.source_locator == "cell=B2"] == \
        [("2018", 1590.0)]


def test_maturity_buckets_keep_their_bounds_and_a_spanning_caption_names_none(
        tmp_path: Path) -> None:
    # "1 to 3 years" and "3 to 5 years" used to be one label ("to years"): nothing told
    # the columns apart; the caption over every column is the table's, not a column's;
    # "Over 5 years" is a bucket, not a change "over" another period
    ex = _csv(tmp_path, [["", "", "Payments due by period", "", ""],
                         ["", "Less than one year", "1 to 3 years", "3 to 5 years",
                          "Over 5 years"],
                         ["Operating lease obligations", "16,164", "19,812", "6,551", "5,883"]],
              period=("FY", "2019"))
    cells = _cells(ex)
    assert [cells[f"cell={c}3"][0][1] for c in "BCDE"] == [
        "C_LESS_THAN_1_YEAR", "C_1_3", "C_3_5", "C_OVER_5_YEARS"]
    # with the other ways a question may write them
    assert {c.code: c.synonyms for c in ex.vocabulary.channels} == {
        "C_LESS_THAN_1_YEAR": ("less than 1 year", "less than one year"),
        "C_1_3": ("1-3", "1-3 years", "1 to 3 years", "between 1 and 3 years"),
        "C_3_5": ("3-5", "3-5 years", "3 to 5 years", "between 3 and 5 years"),
        "C_OVER_5_YEARS": ("over 5 years", "over five years")}
    assert cells["cell=E3"] == [
        ("OPERATING_LEASE_OBLIGATIONS", "C_OVER_5_YEARS", "FY", "2019", 5883.0, "NUMBER")]


def test_a_split_column_header_is_no_caption_and_an_opening_balance_no_total(
        tmp_path: Path) -> None:
    # "Balance at Beginning of" / "Period (1/1/19)" is one column's header written on two
    # lines: it names that column, which is never the year's own figure
    ex = _csv(tmp_path, [["", "Balance at Beginning of", "", ""],
                         ["", "Period (1/1/19)", "Increase / (Decrease)",
                          "Balance at End of Period"],
                         ["Year Ended December 31, 2019", "", "", ""],
                         ["Accounts receivable", "$90,831", "$7,117", "$97,948"]])
    cells = _cells(ex)
    assert cells["cell=B4"] == [
        ("ACCOUNTS_RECEIVABLE", "C_BALANCE_BEGINNING", "FY", "2019", 90831.0, "NUMBER")]
    assert all(r[1] != "TOTAL" or r[4] != 90831.0 for rows in cells.values() for r in rows)


def test_per_share_lines_under_nested_headings_are_never_scaled(tmp_path: Path) -> None:
    # "Earnings per share:" is the outer heading of "Continuing operations:"; a later
    # "Discontinued operations:" heading loses it, but a line named only "Basic" or
    # "Diluted" is an earnings-per-share line unless its headings count shares
    ex = _csv(tmp_path, [["(in millions, except per share data)", "2019", "2018"],
                         ["Revenue", "100.5", "90.1"],
                         ["Earnings per share:", "", ""],
                         ["Continuing operations:", "", ""],
                         ["Basic", "1.23", "1.10"], ["Diluted", "1.20", "1.05"],
                         ["Discontinued operations:", "", ""],
                         ["Basic", "0.23", "0.10"],
                         ["Weighted average common shares:", "", ""],
                         ["Basic", "100.1", "99.1"]])
    units = {f.source_locator: (f.value, f.unit) for f in ex.facts}
    assert units["cell=B2"] == (100.5, "M")
    assert [units[f"cell=B{r}"] for r in (5, 6, 8)] == [(1.23, "NUMBER"), (1.2, "NUMBER"),
                                                         (0.23, "NUMBER")]
    assert units["cell=B10"] == (100.1, "shares_M")


def test_a_total_adding_up_rows_above_its_section_is_the_grand_total(tmp_path: Path) -> None:
    # the last "Total" adds up the lease row above "Other liabilities:" too: it is the
    # table's total ("Contractual Obligations", the label column's header), not the
    # section's
    ex = _csv(tmp_path, [["Contractual Obligations", "Less Than 1 Year", "2-5 Years", "Total"],
                         ["Operating lease obligations:", "$773", "$2,055", "$2,828"],
                         ["Other liabilities:", "", "", ""],
                         ["Mobile commitment", "650", "—", "650"],
                         ["Cloud commitment", "2,000", "2,000", "4,000"],
                         ["Total", "$3,423", "$4,055", "$7,478"]], period=("FY", "2019"))
    metrics = {m.code: m.synonyms for m in ex.vocabulary.metrics}
    assert _cells(ex)["cell=D6"][0][0] == "CONTRACTUAL_OBLIGATIONS_TOTAL"
    assert "total contractual obligations" in metrics["CONTRACTUAL_OBLIGATIONS_TOTAL"]
    # a total of its own section's rows keeps the section's name
    ex = _csv(tmp_path, [["", "2019", "2018"], ["Assets:", "", ""], ["Cash", "10", "8"],
                         ["Receivables", "5", "4"], ["Total", "15", "12"]], name="own.csv")
    assert _cells(ex)["cell=B5"][0][0] == "ASSETS_TOTAL"


def test_movements_between_two_dated_balance_columns_are_the_later_periods(
        tmp_path: Path) -> None:
    # a roll-forward across: the columns between the balances name no period, yet they
    # move the 2018 balance to the 2019 one; the closing balance stays 2019's figure
    ex = _csv(tmp_path, [["", "Balances, January 31, 2018", "Additions", "Payments",
                          "Balances, January 31, 2019"],
                         ["Fiscal 2018 Plan", "", "", "", ""],
                         ["Employee termination costs", "$53.0", "$39.2", "$(89.7)", "$2.5"],
                         ["Facility exit costs", "2.5", "3.2", "(5.7)", "0.0"],
                         ["Total", "$55.5", "$42.4", "$(95.4)", "$2.5"]])
    cells = _cells(ex)
    assert cells["cell=C3"] == [
        ("EMPLOYEE_TERMINATION_COSTS", "C_ADDITIONS", "FY", "2019", 39.2, "NUMBER")]
    assert cells["cell=D3"] == [
        ("EMPLOYEE_TERMINATION_COSTS", "C_PAYMENTS", "FY", "2019", -89.7, "NUMBER")]
    assert ("EMPLOYEE_TERMINATION_COSTS", "TOTAL", "FY", "2019", 2.5, "NUMBER") in \
        cells["cell=E3"]
    # a heading naming a year in a table whose columns name periods is a section
    assert cells["cell=E5"][0][0] == "FISCAL_2018_PLAN_TOTAL"
    assert ex.skipped == []


def test_two_dated_columns_of_one_year_are_named_by_their_dates(tmp_path: Path) -> None:
    # "As of August 1, 2019" and "As of December 31, 2019" share a year and a header
    # beside an undated "Adjustments": each is named by its date, none is the year's
    ex = _csv(tmp_path, [["", "Preliminary", "Measurement", "Preliminary"],
                         ["", "Allocation", "Period", "Allocation"],
                         ["(In millions)", "As of August 1, 2019", "Adjustments",
                          "As of December 31, 2019"],
                         ["Total liabilities", "$ 94.9", "$ 5.2", "$ 100.1"]])
    cells = _cells(ex)
    assert [cells[f"cell={c}4"][0][1] for c in "BCD"] == [
        "C_PRELIMINARY_ALLOCATION_AUG_1", "C_MEASUREMENT_ADJUSTMENTS",
        "C_PRELIMINARY_ALLOCATION_DEC_31"]
    assert cells["cell=D4"] == [
        ("TOTAL_LIABILITIES", "C_PRELIMINARY_ALLOCATION_DEC_31", "FY", "2019", 100.1, "M")]


def test_a_count_column_and_a_money_column_of_one_year(tmp_path: Path) -> None:
    # "2019 / NUMBER" spans "M | $M": the money column is the year's amount, the other
    # the number of shares in the scale its twin states; before, both were skipped
    ex = _csv(tmp_path, [["", "2019", "", "2018", ""],
                         ["", "NUMBER", "", "NUMBER", ""],
                         ["SHARE CAPITAL", "M", "$M", "M", "$M"],
                         ["Ordinary shares on issue", "", "", "", ""],
                         ["Balance at end of period", "1,258.7", "6,033", "1,313.3", "6,201"]])
    cells = _cells(ex)
    assert cells["cell=C5"] == [("BALANCE_AT_END_OF_PERIOD", "TOTAL", "FY", "2019", 6033.0, "M")]
    assert cells["cell=B5"] == [
        ("BALANCE_AT_END_OF_PERIOD", "C_NUMBER", "FY", "2019", 1258.7, "shares_M")]
    assert cells["cell=E5"][0][1:] == ("TOTAL", "FY", "2018", 6201.0, "M")
    assert ex.skipped == []


def test_the_nearest_heading_naming_shares_speaks_before_the_run_above_it(
        tmp_path: Path) -> None:
    # three headings in a row: the last one says the rows are shares, whatever the one
    # before it says about earnings per share
    ex = _csv(tmp_path, [["(in millions, except per share amounts)", "2019", "2018"],
                         ["Net income", "$(31.5)", "$155.6"],
                         ["Earnings allocable to common shares:", "", ""],
                         ["Numerator for basic and diluted earnings per share", "", ""],
                         ["Participating shares at end of period:", "", ""],
                         ["Weighted-average common stock outstanding", "44.8", "44.3"]])
    assert [(f.value, f.unit) for f in ex.facts if f.source_locator == "cell=B6"] == \
        [(44.8, "shares_M")]
