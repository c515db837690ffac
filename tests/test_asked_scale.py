"""A figure restated in the scale the question asks ("in USD billions", "多少亿元").

An analyst asks "What was revenue in 2017 in USD billions?" of a table in thousands; the
code before answered 11,692,713 thousand and nothing else, leaving the conversion to the
reader. The answer now keeps the stored figure as its headline (what the report states)
and restates it in the scale asked with the conversion shown; a figure whose table states
no scale is said not to be restated, and another currency is named, never converted.
A currency asked alone ("What was revenue in 2017 in euros?") answered the US$ figure as
if it were in euros: the answer now says the currency its source states, never converted.
Through ingest and ask of CSV tables, as a user runs it.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from ragspine_nb.agent.reading.asked_scale import asked_scale
from tests.filings import tables_agent

REF = date(2018, 6, 1)
THOUSANDS = """(in thousands of US$),2016,2017
Revenue,"8,830,669","11,692,713"
Net income,"186,678","558,929"
Gross margin %,41.2,43.5
"""
NO_SCALE = """Segment,2016,2017
Orders,"8,830","9,120"
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("asked_scale"),
                        {"results.csv": THOUSANDS})


def test_a_level_is_restated_in_the_scale_asked(agent: Agent) -> None:
    result = agent.ask("What was revenue in 2017 in USD billions?", reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(11692713.0, "USD_K")]
    lines = result.answer.splitlines()
    assert "Revenue, FY2017: 11,692,713 US$ k" in lines[0]
    assert lines[1:] == ["Restated as asked (in USD billions):",
                         "- the company Revenue, FY2017: 11.692713 US$ bn "
                         "= 11,692,713 US$ k ÷ 1,000,000"], result.answer


def test_a_computed_change_is_restated_too(agent: Agent) -> None:
    result = agent.ask("What was the change in net income from 2016 to 2017, in millions?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [372251.0], result.answer
    assert "- the company Net income, change from FY2016 to FY2017: 372.251 US$ m = " \
           "372,251 US$ k ÷ 1,000" in result.answer


def test_chinese_asks_for_yi_and_no_exchange_rate_is_applied(agent: Agent) -> None:
    result = agent.ask("2017年营业收入是多少亿元？", reference_date=REF)
    assert [f.value for f in result.figures] == [11692713.0], result.answer
    assert "按所问单位（亿元）换算：" in result.answer
    assert "116.92713亿美元 = 11,692,713千美元 ÷ 100,000（以美元列示，未做汇率换算）" \
        in result.answer


def test_nothing_is_restated_when_asked_in_the_stated_scale_or_for_a_percent(
        agent: Agent) -> None:
    same = agent.ask("What was revenue in 2017 (in US$ thousands)?", reference_date=REF)
    percent = agent.ask("What was gross margin % in 2017 in millions?", reference_date=REF)
    assert "Restated" not in same.answer and same.figures
    assert "Restated" not in percent.answer and percent.figures


def test_a_figure_with_no_stated_scale_is_not_restated(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    plain = tables_agent(tmp_path_factory.mktemp("no_scale"), {"orders.csv": NO_SCALE})
    result = plain.ask("What were orders in 2017 in billions?", reference_date=REF)
    assert [f.value for f in result.figures] == [9120.0], result.answer
    assert "its source states no scale, so it is not restated" in result.answer
    assert "billion" not in result.answer.split("Restated", 1)[1].split(":", 1)[1]


def test_a_currency_asked_alone_is_named_never_converted(
        agent: Agent, tmp_path_factory: pytest.TempPathFactory) -> None:
    euros = agent.ask("What was revenue in 2017 in euros?", reference_date=REF)
    assert [(f.value, f.unit) for f in euros.figures] == [(11692713.0, "USD_K")]
    assert "Asked in euros:\n- " in euros.answer
    assert euros.answer.endswith("stated in US$ by its source; not converted to € (no "
                                 "exchange rate is applied)"), euros.answer
    yen = agent.ask("2017年营业收入是多少日元？", reference_date=REF)
    assert "所问币种（日元）：" in yen.answer and "来源以美元列示，未换算为日元" in yen.answer
    dollars = agent.ask("What was revenue in 2017 in US dollars?", reference_date=REF)
    assert "Asked" not in dollars.answer and dollars.figures
    plain = tables_agent(tmp_path_factory.mktemp("no_currency"), {"orders.csv": NO_SCALE})
    result = plain.ask("What were orders in 2017 in euros?", reference_date=REF)
    assert "its source states no currency; not converted to €" in result.answer


@pytest.mark.parametrize(("question", "unit"), [
    ("What was revenue in euros in fiscal 2023?", "EUR"),
    ("What was revenue (in EUR)?", "EUR"),
    ("以日元计，2017年收入是多少？", "JPY"),
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", "USD_M"),
    ("How much was revenue? Answer in USD thousands.", "USD_K"),
    ("What was revenue in $bn?", "BN"),
    ("以百万美元计，2017年收入是多少？", "USD_M"),
    ("单位：亿元，收入是多少？", "CNY_100M"),
])
def test_the_asked_scale_is_read(question: str, unit: str) -> None:
    found = asked_scale(question)
    assert found is not None and found.unit == unit


@pytest.mark.parametrize("question", [
    "Which segments had revenue above $5 billion?",
    "How many customers were in millions of households?",
    "收入为1.2亿元，比上年增长多少？",
    "What was the increase in revenue in 2017?",
    "What was revenue in Europe in 2017?",
    "What was revenue in dollars in 2017?",
    "Which segments had revenue above €5 billion?",
])
def test_an_amount_or_another_phrase_asks_no_scale(question: str) -> None:
    assert asked_scale(question) is None
