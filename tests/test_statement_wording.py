"""How statements word their line items, read as the built-in metrics they are.

"Total cash provided by operating activities", "Cash provided (used) by operations",
"Net earnings attributable to General Mills": a filing's wording of a standard line item
is that line item (with the row's own words kept as a name of it), a net income stated
only as the owners' line still gives margins, amounts in two scales of one currency are
divided in one scale, and a span of years ("3 year average") is no maturity column.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb import Agent, DomainProfile
from ragspine_nb.agent.compute.expression import Term, Value, evaluate, parse
from ragspine_nb.extract.pdf_layout import page_lines
from ragspine_nb.glossary import normalize_metric
from tests.tablehelpers import csv_agent

REF = date(2020, 3, 1)


@pytest.mark.parametrize(("label", "code"), [
    ("Total cash provided by operating activities", "OPERATING_CASH_FLOW"),
    ("Cash provided (used) by operations", "OPERATING_CASH_FLOW"),
    ("Cash provided (used) by investing activities", "INVESTING_CASH_FLOW"),
    ("Total cash used in financing activities", "FINANCING_CASH_FLOW"),
    ("Income (loss) before income taxes", "PRETAX_INCOME"),
    ("Net income (loss)", "NET_INCOME"),
    ("Net earnings attributable to Best Buy Co., Inc. shareholders", "NET_INCOME_PARENT"),
    ("Net earnings attributable to General Mills", "NET_INCOME_PARENT"),
    ("Net income attributable to 3M", "NET_INCOME_PARENT"),
])
def test_a_statements_wording_is_the_line_item(label: str, code: str) -> None:
    assert normalize_metric(DomainProfile.builtin(), label) == code


@pytest.mark.parametrize("label", [
    "Net earnings attributable to redeemable and noncontrolling interests",
    "Net income attributable to noncontrolling interest",
    "Net income attributable to preferred stock",
    "(Increase) decrease in accounts receivable",
])
def test_a_minority_line_or_a_movement_is_never_read_as_the_line_item(label: str) -> None:
    assert normalize_metric(DomainProfile.builtin(), label) is None


STATEMENTS = """\
"(In millions)",,,
,2019,2018,2017
Revenue,"1,000","900","800"
Cost of revenue:,,,
Products,300,280,260
Services,200,190,170
Total cost of revenue,500,470,430
Net earnings attributable to Acme shareholders,100,72,80
Cash provided (used) by investing activities:,,,
Purchases of equipment,(40),(30),(20)
Other investing activities,5,3,1
Cash provided (used) by investing activities,(35),(27),(19)
Average,10,9,8
"""
MATURITIES = """\
"(In millions)",Total,Less than 1 year,1-3 years,3-5 years
Long-term debt,900,100,300,500
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return csv_agent(tmp_path_factory.mktemp("wording"),
                     {"statements.csv": STATEMENTS, "debt.csv": MATURITIES},
                     metadata={"statements.csv": {"company": "Acme"},
                               "debt.csv": {"company": "Acme"}})


def test_a_total_row_is_the_line_item_and_keeps_its_own_name(agent: Agent) -> None:
    for question in ("What was Acme's cost of revenue in 2019?",
                     "What was Acme's total cost of revenue in 2019?"):
        result = agent.ask(question, REF)
        assert [(f.value, f.label) for f in result.figures] == \
            [(500.0, "Acme Cost of revenue, FY2019")], question


def test_a_section_heading_named_as_its_total_is_no_second_row(agent: Agent) -> None:
    result = agent.ask("What was Acme's net cash from investing activities in 2019?", REF)
    assert [f.value for f in result.figures] == [-35.0]
    assert [o.metric_code for o in result.figures[0].operands] == ["INVESTING_CASH_FLOW"]
    assert result.sources[0]["locator"] == "cell=B12"


def test_net_income_stated_only_as_the_owners_line_gives_the_margin(agent: Agent) -> None:
    result = agent.ask("What was Acme's net income in 2019?", REF)
    assert [f.value for f in result.figures] == [100.0]
    assert "Net income = Net income attributable to shareholders of the parent" in result.answer
    margin = agent.ask("What is the 2017 - 2019 3 year average net profit margin for Acme?", REF)
    assert [(round(f.value, 2), f.unit, f.operation) for f in margin.figures] == \
        [(round((10 + 8 + 10) / 3, 2), "PCT", "average")]


def test_an_average_row_is_not_named_by_an_average_asked(agent: Agent) -> None:
    result = agent.ask("What is the average revenue for Acme from 2017 to 2019?", REF)
    assert [(f.value, f.operation) for f in result.figures] == [(900.0, "average")]


def test_amounts_in_two_scales_of_one_currency_are_divided_in_one() -> None:
    terms = {"A": Term(1469.5, "USD_M", (), "A", "1,469.5"),
             "B": Term(2213556.0, "USD_K", (), "B", "2,213,556")}
    value = evaluate(parse("A / B"), lambda name: terms[name])
    assert isinstance(value, Value)
    assert round(value.value, 4) == round(1469.5 / 2213.556, 4)
    assert value.unit == ""
    assert "2,213,556 USD_K = 2,213.556 USD_M" in value.numbers
    other = {"A": Term(10.0, "USD_M", (), "A", "10"), "B": Term(5.0, "EUR_K", (), "B", "5")}
    assert not isinstance(evaluate(parse("A / B"), lambda name: other[name]), Value)


def _chars(x: float, y: float, text: str) -> list[tuple[float, float, float, float]]:
    return [(x + 5 * i, y, x + 5 * i + 4.5, y + 10) for i in range(len(text))]


def test_rows_run_together_without_line_breaks_are_split_by_their_baselines() -> None:
    # the text layer writes two rows as one line; the boxes stand on two baselines
    text = "Net sales 1,000 Cost 600"
    boxes = (_chars(10, 100, "Net sales ") + _chars(200, 100, "1,000 ")
             + _chars(10, 86, "Cost ") + _chars(200, 86, "600"))
    assert [[c.text for c in line.cells] for line in page_lines(text, boxes)] == \
        [["Net sales", "1,000"], ["Cost", "600"]]


def test_a_dash_drawn_mid_height_stays_on_its_line() -> None:
    text = "Write down 12 —"
    boxes = _chars(10, 100, "Write down ") + _chars(200, 100, "12 ") + [(300, 104, 306, 105)]
    assert [[c.text for c in line.cells] for line in page_lines(text, boxes)] == \
        [["Write down", "12", "—"]]


def test_a_cell_whose_characters_the_text_layer_orders_otherwise_reads_left_to_right() -> None:
    text = "sales Net"
    boxes = _chars(30, 100, "sales ") + _chars(10, 100, "Net")
    assert [[c.text for c in line.cells] for line in page_lines(text, boxes)] == \
        [["Net sales"]]


def test_a_balance_sheets_receivables_row_is_accounts_receivable_a_question_word_is_not(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    # General Mills' balance sheet says "Receivables"; as a question word it is too broad
    # ("the gross carrying amount for current receivables" asks about another row)
    profile = DomainProfile.builtin()
    assert normalize_metric(profile, "Receivables", row=True) == "ACCOUNTS_RECEIVABLE"
    assert normalize_metric(profile, "Receivables, net", row=True) == "ACCOUNTS_RECEIVABLE"
    assert normalize_metric(profile, "Receivables") is None
    agent = csv_agent(tmp_path, {"balance_sheet.csv": (
        "In millions,2019,2018\nCash,450.0,399.0\nReceivables,\"1,679.7\",\"1,684.2\"\n"
        "Inventories,\"1,559.3\",\"1,642.2\"\n")})
    (fig,) = agent.ask("What were accounts receivable in 2019?", REF).figures
    assert (fig.value, fig.unit) == (1679.7, "M")
    assert (fig.sources[0].doc, fig.sources[0].locator) == ("balance_sheet.csv", "cell=B3")


def test_row_labels_are_checked_and_round_trip() -> None:
    from ragspine_nb.errors import ProfileError

    spec = {"home": {"company_name": "A", "entity_code": "A"},
            "metrics": {"AR": {"unit": "", "row_labels": ["receivables"]}}}
    profile = DomainProfile.from_dict(spec)
    assert profile.metrics["AR"].row_labels == ("receivables",)
    assert DomainProfile.from_dict(profile.to_dict()).metrics["AR"].row_labels == ("receivables",)
    with pytest.raises(ProfileError, match=r"metrics\.AR\.row_labels must be a list"):
        DomainProfile.from_dict({**spec, "metrics": {"AR": {"unit": "", "row_labels": "x"}}})
