"""Issue 15: fewer wrong numbers — each rule on a small table shaped as the scorer writes it.

Every table is a user's ``table.csv`` (rows written with Python's ``csv`` module) beside
a ``notes.md`` (paragraphs separated by blank lines), ingested with no profile, and
asked as a user would. Each test states the exact figures (or the honest refusal)
expected:

* a scale stated in prose as digits ("(in 000’s)", typographic apostrophe) scales the
  table's unscaled amounts;
* rows adding up to a total written in "%" (a tax-rate reconciliation) are percentages;
* a change asked of several rows and of their total ("the change in total net sales of
  A and B") is refused with the inputs listed; each row's change when "respectively" is
  asked or nothing asks to combine them;
* a change from one named column to another takes the first named as the base;
* "how much more … than / as compared to …" is the difference between the two figures;
* a question naming the heading over several rows, not the total row below them, asks
  back;
* "what are X composed of", "how are X stated", "what is the component that … the most"
  assert no figure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb.agent.reading.question_kind import (
    KIND_LABEL,
    KIND_TEXT,
    TARGET_ITEM,
    question_kind,
)
from ragspine_nb.extract.prose_scale import infer_scale
from ragspine_nb.extract.scale import read_stated
from tests.tablehelpers import TATQA_REFERENCE as REF
from tests.tablehelpers import figures_of, tatqa_agent

# ------------------------------------------------------------ scale stated as digits
SALES = [
    ["", "December 31,", "", "Change", ""],
    ["", "2019", "2018", "$", "%"],
    ["Net sales", "$ 93,662", "$ 103,350", "$ (9,688)", "(9.4%)"],
    ["Selling expenses", "$ 11,062", "$ 13,477", "$ 2,415", "17.9%"],
    ["Amortization expense", "$ 192", "$ 631", "$ 439", "69.6%"],
]


@pytest.mark.parametrize("text", ["(in 000’s)", "(000's)", "in $000s", "Amounts in 000’s"])
def test_thousands_written_as_digits_are_a_stated_scale(text: str) -> None:
    assert read_stated(text).scale == "K"


def test_prose_stating_the_scale_as_digits_is_read() -> None:
    found = infer_scale([93_662.0], ["Comparison of Year Ended December 31, 2019 to Year "
                                     "Ended December 31, 2018 (in 000’s)"])
    assert found is not None and found.scale == "K"
    assert infer_scale([93_662.0], ["We had 2,000 employees in 2000 (see note 12)."]) is None
    assert read_stated("1,000s of customers").scale == ""  # a count, not a scale


def test_amounts_take_the_scale_their_notes_state_as_digits(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, SALES, "Results of Operations",
                   "Comparison of Year Ended December 31, 2019 to Year Ended December 31, "
                   "2018 (in 000’s)")
    assert figures_of(agent, "What is the net sales for year ended December 31, 2019?") == \
        [(93662.0, "K", "lookup")]
    assert figures_of(agent, "What is the total selling expenses altogether for years ended "
                           "December 31, 2018 and 2019?") == [(24539.0, "K", "sum")]


def test_without_the_statement_the_scale_is_not_stated(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, SALES, "Results of Operations")
    result = agent.ask("What is the net sales for year ended December 31, 2019?",
                       reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(93662.0, "")]
    assert "scale not stated" in result.answer


# ------------------------------------------------------------ percent rows by their sum
RATES = [
    ["Years Ended December 31,", "2019", "2018", "2017"],
    ["Statutory federal income tax rate", "21.0%", "21.0%", "35.0%"],
    ["State and local income tax rate, net of federal tax benefits", "3.7", "3.7", "1.6"],
    ["Preferred stock disposition", "(9.9)", "—", "—"],
    ["Non-deductible goodwill", "0.1", "4.7", "1.0"],
    ["Other, net", "(0.7)", "(0.6)", "(2.0)"],
    ["Effective income tax rate", "14.2%", "28.8%", "35.6%"],
]


def test_rows_adding_up_to_a_percent_total_are_percentages(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, RATES)
    assert figures_of(agent, "What was the average State and local income tax rate, net of "
                           "federal tax benefits between 2017-2019?") == [(3.0, "PCT", "average")]
    assert figures_of(agent, "What was the Preferred stock disposition in 2019?") == \
        [(-9.9, "PCT", "lookup")]


def test_amount_rows_beside_a_percent_column_stay_amounts(tmp_path: Path) -> None:
    rows = [["(In millions)", "2019", "2018"], ["Product", "60", "50"],
            ["Services", "40", "30"], ["Total revenue", "100", "80"],
            ["Gross margin", "40.0%", "37.5%"]]
    agent = tatqa_agent(tmp_path, rows)
    assert figures_of(agent, "What was the Product revenue in 2019?") == [(60.0, "M", "lookup")]


# ------------------------------------------------------------ several rows, one change
SEGMENTS = [
    ["(In millions)", "Fiscal 2019", "Fiscal 2018"],
    ["International", "793.4", "843.5"],
    ["Foodservice", "934.2", "1,054.8"],
    ["Retail", "2,400.0", "2,300.0"],
]


def test_a_change_of_several_rows_is_refused_with_its_inputs(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, SEGMENTS)
    result = agent.ask("What is the percentage change in total net sales of International "
                       "and Foodservice from fiscal year 2018 to 2019?", reference_date=REF)
    assert result.figures == ()
    assert "no operation that combines them" in result.answer
    assert result.answer.count("Input found") == 4


def test_each_rows_change_when_asked_respectively(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, SEGMENTS)
    each = [(-5.94, "PCT", "percent_change"), (-11.43, "PCT", "percent_change")]
    assert figures_of(agent, "What is the percentage change in total net sales of International "
                           "and Foodservice from fiscal year 2018 to 2019 respectively?") == each
    # nothing asks to combine them: each row's change
    assert figures_of(agent, "What is the percentage change in International and Foodservice "
                           "from fiscal year 2018 to 2019?") == each


# ------------------------------------------------------------ a change between columns
QUARTERS = [
    ["", "First", "Second", "Third", "Fourth"],
    ["2019", "", "", "", ""],
    ["Net sales", "$117,625", "$120,684", "$115,651", "$115,040"],
    ["Operating earnings", "$14,218", "$17,083", "$10,124", "$12,391"],
]


def test_a_change_between_two_named_columns_is_from_the_first(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, QUARTERS, "(in thousands, except for share data)")
    assert figures_of(agent, "What was the percentage change in the operating earnings between "
                           "the first and second quarter?") == [(20.15, "PCT", "percent_change")]


def test_a_difference_between_two_named_columns_keeps_their_order(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, QUARTERS, "(in thousands, except for share data)")
    assert figures_of(agent, "What was the difference in operating earnings between the first "
                           "and second quarter?") == [(-2865.0, "K", "difference")]


# ------------------------------------------------------------ "how much more"
def test_how_much_more_is_a_difference_between_the_figures(tmp_path: Path) -> None:
    rows = [["(Dollars in millions)", "2019", "2018"], ["Americas", "$18,410", "$18,030"],
            ["EMEA", "9,168", "9,163"], ["Asia Pacific", "5,004", "4,848"]]
    agent = tatqa_agent(tmp_path, rows)
    assert figures_of(agent, "How much more came from the Americas as compared to Asia "
                           "Pacific in 2018?") == [(13182.0, "M", "difference")]
    # a third thing named ("revenue": no row of its own here) is no operand: refused
    result = agent.ask("How much more revenue came from the Americas as compared to Asia "
                       "Pacific in 2018?", reference_date=REF)
    assert result.figures == () and result.answer.count("Input found") == 2


# ------------------------------------------------------------ a heading over rows
TAXES = [
    ["", "Year Ended December 31,", ""],
    ["", "2019", "2018"],
    ["Current income tax expense (benefit):", "", ""],
    ["Federal", "$5", "$4"],
    ["State", "10", "5"],
    ["Deferred income tax expense (benefit):", "", ""],
    ["Federal", "4,206", "4,860"],
    ["State", "(11,346)", "665"],
    ["Income tax expense (benefit)", "$(7,125)", "$5,534"],
]


def test_a_heading_named_over_its_rows_asks_back(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, TAXES, "(United States Dollars in thousands, except per share "
                                     "data, unless otherwise stated)")
    result = agent.ask("How many years did the Current income tax expense exceed "
                       "$2 thousand?", reference_date=REF)
    assert result.figures == ()
    assert result.clarification.mode == "ask_first"
    assert figures_of(agent, "What was the income tax expense in 2018?") == \
        [(5534.0, "K", "lookup")]


# ------------------------------------------------------------ text and label questions
@pytest.mark.parametrize("question", [
    "What are Total segment assets composed of?",
    "What is revenue made up of?",
    "How are land, property, and equipment stated in the report?",
])
def test_components_and_manner_questions_ask_for_text(question: str) -> None:
    assert question_kind(question).kind == KIND_TEXT


def test_what_is_the_component_that_contributed_the_most_is_a_label() -> None:
    kind = question_kind("For 2019, what is the component that contributed the most to "
                         "total revenue?")
    assert (kind.kind, kind.target) == (KIND_LABEL, TARGET_ITEM)
    # an amount asked of the item with the most is still a number
    assert question_kind("What was the revenue of the segment with the highest margin?"
                         ).kind == "number"
    assert question_kind("What percentage of total cost is made up of wages?").kind == "number"
