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
from ragspine_nb.agent.formulas import Formula, Operand, evaluate, read_formula
from ragspine_nb.agent.operations import NotComputed
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


def test_a_formula_of_several_operations_is_not_read() -> None:
    assert read_formula("CCC is defined as: DIO + DSO - DPO.") is None
    assert read_formula("DIO is defined as: 365 * (average inventory) / (COGS).") is not None


def test_evaluate_refuses_a_zero_divisor_and_two_units() -> None:
    f = Formula("r", "/", "a", "b")
    one = Operand("a", 1.0, "USD_M", ())
    assert evaluate(f, one, Operand("b", 0.0, "USD_M", ())) == NotComputed("zero_base")
    assert isinstance(evaluate(f, one, Operand("b", 2.0, "USD_K", ())), NotComputed)
    # EBITDA = operating income + D&A with D&A stated negative: which is meant is unclear
    plus = Formula("EBITDA", "+", "Operating income", "D&A")
    mixed = evaluate(plus, Operand("oi", 305.8, "USD_M", ()), Operand("da", -43.2, "USD_M", ()))
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
    # a margin of a row whose name has none is not read as that row's level
    r = a.ask("What was the EBITDA % margin in 2018?", REF)
    assert r.figures == () and "not computed" in r.answer
    # an operand not stored: the miss stands, no figure
    r = a.ask("What was the net margin in 2019?", REF)
    assert r.figures == () and "not in the fact store" in r.answer
