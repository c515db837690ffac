"""Questions pasted with instructions around them, and the filing rows they reach.

An analyst writes "What is the FY2018 capital expenditure amount? Give a response by
relying on the details shown in the cash flow statement." The instruction sentence is
read apart (stated in the answer, traced), the question is answered from the store; a
competitor named anywhere in the text still refuses (the gate reads the whole question).
Also: the company's name is never read as a segment row of its own filing, a bare
"Total" row is not named by the word "total", net PP&E is never the gross row, and a
cash flow statement's change in a balance is never filed as that balance.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.reading.instructions import read_instructions
from ragspine_nb.core import Fact
from ragspine_nb.extract.pdf_statements import prefer_statements
from tests.tablehelpers import csv_agent

REF = date(2020, 3, 1)
BALANCES = """\
"($ in millions)",,
,2019,2018
Merchandise inventories,"5,409","5,209"
Property and equipment,"9,200","8,700"
Less accumulated depreciation,"(6,690)","(6,279)"
"Property and equipment, net","2,510","2,421"
Capital expenditures,(819),(688)
"""
SEGMENTS = """\
"($ in millions)",,
,2019,2018
Best Buy,"1,200","1,100"
Other,300,250
Total,"1,500","1,350"
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    files = {"balances.csv": BALANCES, "segments.csv": SEGMENTS}
    return csv_agent(tmp_path_factory.mktemp("instr"), files,
                     metadata={name: {"company": "Best Buy"} for name in files})


# ---------------------------------------------------------------- reading apart
@pytest.mark.parametrize(("question", "asked", "kinds"), [
    ("What is the FY2018 capital expenditure amount (in USD millions)? Give a response to "
     "the question by relying on the details shown in the cash flow statement.",
     "What is the FY2018 capital expenditure amount (in USD millions)?", ("cash_flow",)),
    ("Assume that you are an analyst. Answer the following question by using the balance "
     "sheet: what is the year end FY2018 net PP&E? Answer in USD billions.",
     "what is the year end FY2018 net PP&E?", ("balance_sheet",)),
    ("According to the details outlined within the balance sheet, how much total current "
     "assets did the company have at the end of FY2019? Answer in USD millions.",
     "how much total current assets did the company have at the end of FY2019?",
     ("balance_sheet",)),
    ("What is the FY2017 operating cash flow ratio? Operating cash flow ratio is defined "
     "as: cash from operations / total current liabilities. Round your answer to two "
     "decimal places.", "What is the FY2017 operating cash flow ratio?", ()),
    # a condition whose main clause addresses the answerer
    ("Is the company capital-intensive? If capex is not useful, then state that.",
     "Is the company capital-intensive?", ()),
])
def test_instruction_sentences_are_read_apart(question: str, asked: str,
                                              kinds: tuple[str, ...]) -> None:
    read = read_instructions(question)
    assert read.split and read.asked == asked and read.statements == kinds


@pytest.mark.parametrize("question", [
    "What was revenue in 2019?",
    "If we exclude the impact of M&A, which segment dragged down growth in 2022?",
    "Give me the revenue for 2019",  # one sentence, no question apart from it
])
def test_questions_without_instructions_stay_whole(question: str) -> None:
    read = read_instructions(question)
    assert read.asked == question


def test_an_instruction_sentence_no_longer_sends_a_number_question_to_prose(
        agent: Agent) -> None:
    # before: "No relevant passages were found" (the instruction's words named nothing)
    r = agent.ask("What were capital expenditures in 2019? Give a response to the question "
                  "by relying on the details shown in the cash flow statement.", REF)
    assert [(f.value, f.unit) for f in r.figures] == [(-819.0, "M")]
    assert r.answer.startswith("(Read as the question: “What were capital expenditures in "
                               "2019?”; 1 instruction sentence(s) read apart, naming the "
                               "cash flow statement.)")
    assert r.trace["instructions"] == ["Give a response to the question by relying on the "
                                       "details shown in the cash flow statement."]
    assert r.question.endswith("cash flow statement.")  # the user's text, as asked


def test_a_competitor_named_only_in_an_instruction_still_refuses(demo_ws: Path) -> None:
    a = Agent.from_workspace(demo_ws)
    r = a.ask("What was Group revenue in FY2025? Answer as Rivalis Holdings would report it.",
              date(2026, 3, 31))
    assert r.clarification.mode == "out_of_scope_entity" and r.figures == ()


# ---------------------------------------------------------------- filing rows
def test_the_company_named_in_the_question_is_no_row_of_its_filing(agent: Agent) -> None:
    # before: "Which of these do you mean: Inventories; Best Buy?" (the segment row)
    r = agent.ask("What is the year end FY2019 total amount of inventories for Best Buy?", REF)
    assert [(f.value, f.operands[0].source_locator) for f in r.figures] == [
        (5409.0, "cell=B3")]


def test_net_property_and_equipment_is_never_the_gross_row(agent: Agent) -> None:
    for question in ("What was net PP&E in 2019?",
                     "What was property and equipment, net in 2019?"):
        (fig,) = agent.ask(question, REF).figures
        assert fig.value == 2510.0, question
    (gross,) = agent.ask("What was property and equipment in 2019?", REF).figures
    assert gross.value == 9200.0


def _fact(metric: str, period: str, value: float, where: str) -> Fact:
    return Fact(metric, "C", "NA", "TOTAL", "FY", period, value, "USD_M", "10k.pdf", where)


def test_a_cash_flow_change_in_a_balance_is_never_filed_as_the_balance() -> None:
    balance = [_fact("INVENTORIES", "2019", 5409.0, "page=52"),
               _fact("INVENTORIES", "2018", 5209.0, "page=52"),
               _fact("CASH", "2019", 1980.0, "page=52")]
    flows = [_fact("INVENTORIES", "2019", -194.0, "page=55"),
             _fact("INVENTORIES", "2017", 199.0, "page=55"),  # a year with no balance shown
             _fact("CASH", "2019", 1980.0, "page=55"), _fact("CASH", "2017", 2240.0, "page=55")]
    kept, skipped = prefer_statements([("balance_sheet", balance), ("cash_flow", flows)])
    assert [(f.metric_code, f.period, f.source_locator) for f in kept] == [
        ("INVENTORIES", "2019", "page=52"), ("INVENTORIES", "2018", "page=52"),
        ("CASH", "2019", "page=52"), ("CASH", "2019", "page=55"), ("CASH", "2017", "page=55")]
    assert [s.locator for s in skipped] == ["page=55", "page=55"]
    assert "is a change in the balance the balance sheet states" in skipped[0].reason


def test_a_guarantor_groups_statement_never_withholds_the_consolidated_figure() -> None:
    # Amcor 2023 10-K: "Statement of Income for Obligor Group" (page 38) and the Deed of
    # Cross Guarantee's "Consolidated Statements of Income" (page 105) state net sales of
    # 1,071 and 377; the consolidated 14,694 (page 50) was withheld as a conflict
    consolidated = [_fact("REVENUE", "2023", 14694.0, "page=50"),
                    _fact("NET_INCOME", "2023", 1058.0, "page=50")]
    obligor = [_fact("REVENUE", "2023", 1071.0, "page=38")]
    closed_group = [_fact("REVENUE", "2023", 377.0, "page=105"),
                    _fact("NET_INCOME", "2023", 1058.0, "page=105"),
                    _fact("INVENTORIES", "2023", 60.0, "page=105")]  # a row page 50 lacks
    mdna = [_fact("REVENUE", "2023", 14694.0, "page=32")]
    kept, skipped = prefer_statements([("income", obligor), ("income", consolidated),
                                       ("", mdna), ("income", closed_group)])
    assert [(f.metric_code, f.value, f.source_locator) for f in kept] == [
        ("REVENUE", 14694.0, "page=50"), ("NET_INCOME", 1058.0, "page=50"),
        ("REVENUE", 14694.0, "page=32")]
    assert sorted(s.locator for s in skipped) == ["page=105"] * 3 + ["page=38"]
    assert "another reporting entity's" in skipped[0].reason
    # two statements no other table corroborates: neither wins (the ingest withholds)
    kept, skipped = prefer_statements([("income", obligor), ("income", consolidated[:1])])
    assert [f.value for f in kept] == [1071.0, 14694.0] and skipped == []


def test_statements_of_two_kinds_never_outrank_each_other() -> None:
    # General Mills 2019 10-K: the cash flows' "Divestitures loss" add-back (13.5 for
    # fiscal 2017) differs from the income statement's line (6.5); the income statement
    # was dropped as "another reporting entity's", and with it net sales and cost of sales
    income = [_fact("REVENUE", "2019", 16865.2, "page=53"),
              _fact("DIVESTITURES_LOSS", "2017", 6.5, "page=53")]
    flows = [_fact("NET_INCOME", "2019", 1786.2, "page=57"),
             _fact("DIVESTITURES_LOSS", "2017", 13.5, "page=57")]
    mdna = [_fact("NET_INCOME", "2019", 1786.2, "page=30")]
    kept, skipped = prefer_statements([("income", income), ("cash_flow", flows), ("", mdna)])
    assert ("REVENUE", 16865.2, "page=53") in [
        (f.metric_code, f.value, f.source_locator) for f in kept]
    assert skipped == []  # the two loss lines both kept: the store withholds the disputed one


def test_a_filings_deferred_tax_component_is_never_the_line_item_it_is_named_after() -> None:
    # Netflix 2015 10-K: "Deferred tax assets (liabilities): Depreciation and amortization
    # (43,204)" was filed as the company's D&A (and added into EBITDA)
    from ragspine_nb.extract.tables import TableContext, extract_table
    from ragspine_nb.profile import DomainProfile

    grid = [["(In thousands)", "2015", "2014"],
            ["Deferred tax assets (liabilities):", "", ""],
            ["Depreciation and amortization", "(43,204)", "(11,708)"],
            ["Inventories", "1,200", "1,100"],
            ["Total deferred tax assets", "180,573", "120,340"]]

    def codes(filing: bool) -> set[str]:
        ctx = TableContext("10k.pdf", ("Income taxes",), lambda r, c, rk, cl: f"r={r}",
                           filing=filing)
        return {f.metric_code for f in extract_table(DomainProfile.builtin(), grid, ctx).facts}

    assert not {"DEPRECIATION_AMORTIZATION", "INVENTORIES"} & codes(True)
    # a lone table keeps the plain reading (a question about it asks for that row)
    assert {"DEPRECIATION_AMORTIZATION", "INVENTORIES"} <= codes(False)
