"""Formulas a question defines inline, computed over stored facts with the formula shown.

"Define working capital ratio as total current assets divided by total current
liabilities." is read apart from the question and computed from the cited cells; an
operand that is missing or unclear gives no figure and says which; a formula that is
not one operation ("DIO + DSO - DPO") is left alone.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.compute.expression import Term, Value, evaluate, names_in, parse
from ragspine_nb.agent.compute.operations import NotComputed
from ragspine_nb.agent.reading.formulas import read_definition
from tests.tablehelpers import csv_agent

REF = date(2020, 3, 1)
TABLE = """\
"(In millions)",,
,2019,2018
Total current assets,"8,870","9,829"
Total current liabilities,"7,513","7,817"
Net cash provided by operating activities,"3,676.2","2,807.0"
"Purchases of property, plant and equipment",(460.8),(537.6)
Inventories,"1,400","1,300"
Cost of sales,"8,700","8,000"
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return csv_agent(tmp_path_factory.mktemp("formulas"), {"statements.csv": TABLE})


def test_a_ratio_the_question_defines_is_computed_with_the_formula_shown(agent: Agent) -> None:
    r = agent.ask("What is the FY2019 working capital ratio? Define working capital ratio as "
                  "total current assets divided by total current liabilities.", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.unit) == ("ratio", "")
    assert fig.value == pytest.approx(8870 / 7513)
    assert fig.derivation == ("working capital ratio = total current assets / total current "
                              "liabilities: 8,870 / 7,513 = 1.18")
    assert [f.source_locator for f in fig.operands] == ["cell=B3", "cell=B4"]


def test_subtracting_an_outflow_subtracts_its_size_and_says_so(agent: Agent) -> None:
    r = agent.ask("What is the FY2019 free cash flow? FCF here is defined as: (cash from "
                  "operations - capex). Answer in USD millions.", REF)
    (fig,) = r.figures
    assert (fig.value, fig.unit, fig.operation) == (3215.4, "M", "difference")
    assert fig.derivation.endswith(": 3,676.2 - 460.8 (the size of -460.8) = 3,215.4")


def test_an_average_operand_is_the_mean_of_the_two_years_it_names(agent: Agent) -> None:
    r = agent.ask("What is the FY2019 inventory turnover ratio? Inventory turnover ratio is "
                  "defined as: (FY2019 cost of sales) / (average inventories between FY2018 "
                  "and FY2019). Round your answer to two decimal places.", REF)
    (fig,) = r.figures
    assert fig.value == pytest.approx(8700 / 1350)
    assert fig.derivation.endswith(": 8,700 / [(1,300 + 1,400) / 2] = 6.44")
    assert len(fig.operands) == 3


def test_a_missing_operand_is_named_and_no_figure_given(agent: Agent) -> None:
    r = agent.ask("What is the FY2019 quick ratio? Quick ratio is defined as: (cash and "
                  "cash equivalents) / total current liabilities.", REF)
    assert r.figures == ()
    assert "quick ratio not computed: 'cash and cash equivalents'" in r.answer.lower()
    assert "no estimate is given" in r.answer


def test_a_formula_of_several_operations_is_read_into_one_tree() -> None:
    ccc = read_definition("CCC is defined as: DIO + DSO - DPO.")
    assert ccc is not None and names_in(ccc.tree) == ["DIO", "DSO", "DPO"]
    dio = read_definition("DIO is defined as: 365 * (average inventory) / (COGS).")
    assert dio is not None and dio.tree.op == "/"
    assert read_definition("DIO is defined as: 365 * (average inventory.") is None


def test_evaluate_refuses_a_zero_divisor_and_two_units() -> None:
    terms = {"a": Term(1.0, "USD_M", (), "a", "1"), "b": Term(0.0, "USD_M", (), "b", "0"),
             "k": Term(2.0, "USD_K", (), "k", "2"),
             "oi": Term(305.8, "USD_M", (), "Operating income", "305.8"),
             "da": Term(-43.2, "USD_M", (), "D&A", "-43.2")}
    assert evaluate(parse("a / b"), terms.__getitem__) == NotComputed("zero_base")
    # two scales of one currency are divided in one scale, the conversion shown
    scaled = evaluate(parse("a / k"), terms.__getitem__)
    assert isinstance(scaled, Value)
    assert (scaled.value, scaled.unit, scaled.numbers) == \
        (500.0, "", "1 / (2 USD_K = 0.002 USD_M)")
    terms["e"] = Term(2.0, "EUR_M", (), "e", "2")
    assert evaluate(parse("a / e"), terms.__getitem__) == NotComputed("units", ("USD_M", "EUR_M"))
    # EBITDA = operating income + D&A with D&A stated negative: which is meant is unclear
    mixed = evaluate(parse("oi + da"), terms.__getitem__)
    assert isinstance(mixed, NotComputed) and mixed.reason == "signs"


def test_a_builtin_margin_no_row_states_is_computed_from_its_operands(
        tmp_path: Path, agent: Agent) -> None:
    a = csv_agent(tmp_path, {"income.csv": "(In millions),,\n,2019,2018\nRevenue,\"1,500\","
                                           "\"1,200\"\nGross profit,600,420\nOperating income,"
                                           "300,240\nDepreciation and amortization,50,45\n"})
    (margin,) = a.ask("What was the gross margin in 2019?", REF).figures
    assert (margin.value, margin.unit, margin.operation) == (40.0, "PCT", "share")
    assert margin.derivation == ("Gross margin (%) = Gross profit / Revenue × 100: 600 / 1,500 "
                                 "× 100 = 40%")
    (ebitda,) = a.ask("What was EBITDA in 2018?", REF).figures
    assert (ebitda.value, ebitda.unit) == (285.0, "M")
    # the current ratio: current assets over current liabilities
    (ratio,) = agent.ask("What is the current ratio in 2019?", REF).figures
    assert ratio.derivation == ("Current ratio = Total current assets / Total current "
                                "liabilities: 8,870 / 7,513 = 1.18")
    # a margin of a row whose name has none is its margin, never that row's level
    (ebitda_margin,) = a.ask("What was the EBITDA % margin in 2018?", REF).figures
    assert (ebitda_margin.value, ebitda_margin.unit) == (23.75, "PCT")
    assert ebitda_margin.derivation == (
        "EBITDA margin (%) = (Operating income + Depreciation and amortization) / Revenue × "
        "100: (240 + 45) / 1,200 × 100 = 23.75%")
    assert [f.source_locator for f in ebitda_margin.operands] == ["cell=C5", "cell=C6",
                                                                  "cell=C3"]
    # an operand not stored: the miss stands, no figure
    r = a.ask("What was the net margin in 2019?", REF)
    assert r.figures == () and "not in the fact store" in r.answer


CCC_TABLE = """\
"(In millions)",,
,2019,2018
Revenue,"12,000","11,000"
Cost of sales,"8,700","8,000"
Inventories,"1,400","1,300"
Accounts receivable,"1,100",900
Accounts payable,"1,500","1,300"
Dividends paid,(460),(400)
Net income,"1,000",900
Total current assets,"4,000","3,600"
Total current liabilities,"2,500","2,400"
"""


@pytest.fixture(scope="module")
def ccc_agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return csv_agent(tmp_path_factory.mktemp("ccc"), {"working_capital.csv": CCC_TABLE})


def test_a_formula_of_formulas_the_question_defines_is_computed(ccc_agent: Agent) -> None:
    r = ccc_agent.ask(
        "What is the FY2019 cash conversion cycle (CCC)? CCC is defined as: DIO + DSO - DPO. "
        "DIO is defined as: 365 * (average inventory between FY2018 and FY2019) / (FY2019 "
        "COGS). DSO is defined as: 365 * (average accounts receivable between FY2018 and "
        "FY2019) / (FY2019 Revenue). DPO is defined as: 365 * (average accounts payable "
        "between FY2018 and FY2019) / (FY2019 COGS + change in inventory between FY2018 and "
        "FY2019). Round your answer to two decimal places.", REF)
    (fig,) = r.figures
    dio, dso, dpo = 365 * 1350 / 8700, 365 * 1000 / 12000, 365 * 1400 / (8700 + 100)
    assert fig.value == pytest.approx(dio + dso - dpo, abs=1e-4)
    assert (fig.unit, fig.operation) == ("", "difference")
    assert fig.derivation == (
        "CCC = DIO + DSO - DPO: (365 × [(1,300 + 1,400) / 2] / 8,700) + (365 × [(900 + 1,100) "
        "/ 2] / 12,000) - (365 × [(1,300 + 1,500) / 2] / (8,700 + (1,400 − 1,300))) = 28.99")
    # every cell cited once: inventories, cost of sales, receivables, revenue, payables
    assert len(fig.operands) == 8 and "scale not stated" not in r.answer


def test_a_missing_operand_inside_a_nested_definition_is_named(ccc_agent: Agent) -> None:
    r = ccc_agent.ask("What is the FY2019 CCC? CCC is defined as: DIO - DPO. DIO is defined "
                      "as: 365 * (FY2019 inventories) / (FY2019 COGS). DPO is defined as: "
                      "365 * (FY2019 accrued liabilities) / (FY2019 COGS).", REF)
    assert r.figures == ()
    assert "CCC not computed: 'FY2019 accrued liabilities' names no line item" in r.answer


def test_an_operation_over_a_ratio_no_row_states_computes_each_year(ccc_agent: Agent) -> None:
    r = ccc_agent.ask("What is the change in the current ratio from 2018 to 2019?", REF)
    (fig,) = r.figures
    assert (fig.value, fig.unit, fig.operation) == (0.1, "", "difference")
    assert fig.derivation == (
        "FY2019: Current ratio = Total current assets / Total current liabilities: 4,000 / "
        "2,500 = 1.6; FY2018: Current ratio = Total current assets / Total current "
        "liabilities: 3,600 / 2,400 = 1.5; (1.6 − 1.5) = 0.1")
    assert [f.source_locator for f in fig.operands] == ["cell=B10", "cell=B11", "cell=C10",
                                                        "cell=C11"]
    assert "scale not stated" not in r.answer
    # no gross profit row: each year's gross margin from revenue and cost of revenue (the
    # gross profit's operand formula), then their average
    (avg,) = ccc_agent.ask("What was the average gross margin in 2018 and 2019?", REF).figures
    assert (avg.value, avg.unit, avg.operation) == (pytest.approx(27.385), "PCT", "average")
    assert avg.derivation.endswith("(12,000 - 8,700) / 12,000 × 100 = 27.5%; "
                                   "(27.27 + 27.5) / 2 = 27.39")


def test_a_ratio_named_with_its_inputs_asks_for_the_ratio(ccc_agent: Agent) -> None:
    r = ccc_agent.ask("What is the FY2019 retention ratio (using total cash dividends paid "
                      "and net income)?", REF)
    (fig,) = r.figures
    assert fig.value == pytest.approx(0.54)
    assert fig.derivation.endswith("1 - Dividends paid / Net income: 1 - 0.46 (the size of "
                                   "-460 / 1,000) = 0.54")
