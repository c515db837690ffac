"""A question naming no period, over reports of years past; columns of years; date questions.

Every table is a user's ``table.csv`` beside a ``notes.md``, ingested with no profile:

* a question naming no period is about the latest complete fiscal year; when the rows it
  names have no figure in that year (the user asks in 2026 about a 2019 report), it is
  about the latest fiscal year in which every such row has one, and the answer says
  "latest fiscal year reported". Never from a schedule of payments due ("Total | 2020 |
  2021-2022 | Thereafter"): its year columns are no reporting period;
* a column whose header names a year or date and whose cells are years ("Last Fiscal
  Year of Expiration": "2039", "2027 or indefinite") holds dates, never amounts;
* "What was the last fiscal year of expiration for …" asks for a date, never a figure.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine_nb.agent.reading.question_kind import KIND_TEXT, question_kind
from tests.tablehelpers import read_table, tatqa_agent

LATER = date(2026, 3, 31)

CHARGES = [
    ["", "Total Expected Charges", "Cumulative Charges Incurred", "Remaining Expected Charges"],
    ["", "", "(in millions)", ""],
    ["Transportation Solutions", "$  160", "$  144", "$  16"],
    ["Industrial Solutions", "80", "66", "14"],
    ["Total", "$  289", "$  254", "$  35"],
]
CHARGES_INTRO = ("The following table summarizes expected, incurred, and remaining charges "
                 "for the fiscal 2019 program by segment:")


def test_no_period_named_is_the_latest_fiscal_year_the_rows_are_reported_for(
        tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, CHARGES, "Fiscal 2019 Actions", CHARGES_INTRO)
    r = agent.ask("What was the difference in total expected charges between Transportation "
                  "Solutions and Industrial Solutions?", reference_date=LATER)
    assert [(f.value, f.unit, f.operation) for f in r.figures] == [(80.0, "M", "difference")]
    assert "the period is FY2019 (latest fiscal year reported)" in r.answer
    assert [s["locator"] for s in r.sources] == ["cell=B3", "cell=B4"]
    # the year asked about is not reported: not found, never another year's figure
    named = agent.ask("What were the total expected charges of Industrial Solutions in 2025?",
                      reference_date=LATER)
    assert named.figures == () and "not in the fact store" in named.answer


def test_a_reported_latest_complete_year_is_assumed_as_before(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, CHARGES, "Fiscal 2019 Actions", CHARGES_INTRO)
    r = agent.ask("What were the total expected charges of Industrial Solutions?",
                  reference_date=date(2020, 1, 1))
    assert [(f.value, f.period) for f in r.figures[0].operands] == [(80.0, "2019")]
    assert "(latest complete fiscal year)" in r.answer


SCHEDULE = [
    ["(In thousands)", "Total", "2020", "2021-2022", "2023-2024", "Thereafter"],
    ["Operating leases", "$19,437", "$4,143", "$7,111", "$3,686", "$4,497"],
    ["Capital leases", "65", "27", "38", "—", "—"],
]


def test_a_schedule_of_payments_due_is_no_period_to_fall_back_on(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, SCHEDULE, "Contractual obligations")
    r = agent.ask("What is the total capital leases?", reference_date=LATER)
    assert r.figures == ()
    assert "latest fiscal year reported" not in r.answer


EXPIRY = [
    ["(dollars in thousands)", "Last Fiscal Year of Expiration", "Amount"],
    ["Tax credit carryforwards:", "", ""],
    ["Domestic–federal", "2029", "$39,784"],
    ["Domestic–state", "2027", "$3,313"],
    ["Foreign", "2027 or indefinite", "$15,345"],
]


def test_a_column_of_years_holds_dates_never_amounts(tmp_path: Path) -> None:
    ex = read_table(tmp_path, EXPIRY, period=("FY", "2019"))
    assert sorted((f.source_locator, f.value) for f in ex.facts) == [
        ("cell=C3", 39784.0), ("cell=C4", 3313.0), ("cell=C5", 15345.0)]


def test_a_question_for_a_year_or_date_asks_for_text() -> None:
    asked = "What was the last fiscal year of expiration for domestic-state tax credits?"
    assert question_kind(asked).kind == KIND_TEXT
    assert question_kind("What is the expiration date of the notes?").kind == KIND_TEXT
    assert question_kind("What was the fiscal year 2019 revenue?").kind == "number"
