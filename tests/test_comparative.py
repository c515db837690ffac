""""How much larger was A than B": the figure compared less the other, in the question's order.

"How much larger was Nike's revenue in FY2022 than in FY2023?" answered "change from FY2022
to FY2023: 4,507" — FY2023 less FY2022, the other sign (FY2022's revenue was 4,507 million
*smaller*): a wrong number. "How much lower was 3M's cost of sales than its net sales?"
answered cost of sales less net sales, -14,997, where the question asks 14,997;
"香港2025年营业收入比2024年低多少？" answered +85 (2025 less 2024). The difference is now
taken as the question writes it (:mod:`ragspine_nb.agent.reading.comparative`): A less B
for "more / higher / larger / greater / bigger", B less A for "less / lower / smaller",
over two years as over two rows, with a label that says which from which.
Through the demo workspace and a real 10-K, as a user asks; the tests fail on the code
before.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from tests.filings import dev_filing_workspace

REF = date(2026, 3, 31)


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


@pytest.mark.parametrize("question, value, label", [
    ("How much larger was ACME Hong Kong revenue in FY2024 than in FY2025?", -85.0,
     "ACME Hong Kong Revenue, FY2024 less FY2025"),
    ("How much lower was ACME Hong Kong revenue in FY2025 than in FY2024?", -85.0,
     "ACME Hong Kong Revenue, FY2024 less FY2025"),
    ("香港2025年营业收入比2024年低多少？", -85.0, "ACME Hong Kong Revenue，FY2024较FY2025差额"),
    # the order written is the change's: read as before
    ("How much larger was ACME Hong Kong revenue in FY2025 than in FY2024?", 85.0,
     "ACME Hong Kong Revenue, change from FY2024 to FY2025"),
    ("How much lower was ACME Hong Kong revenue in FY2024 than in FY2025?", 85.0,
     "ACME Hong Kong Revenue, change from FY2024 to FY2025"),
    ("香港2025年营业收入比2024年高多少？", 85.0, "ACME Hong Kong Revenue，FY2025较FY2024变动"),
    # two companies: the second less the first for "lower"
    ("How much lower was ACME Hong Kong revenue than ACME Mainland China revenue in "
     "FY2025?", 125.0, "Revenue, ACME Mainland China − ACME Hong Kong, FY2025"),
    ("How much higher was ACME Hong Kong revenue than ACME Mainland China revenue in "
     "FY2025?", -125.0, "Revenue, ACME Hong Kong − ACME Mainland China, FY2025"),
])
def test_the_difference_is_taken_as_the_question_compares(agent: Agent, question: str,
                                                         value: float, label: str) -> None:
    r = agent.ask(question, REF)
    assert [(f.value, f.label) for f in r.figures] == [(value, label)], r.answer


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    ws = dev_filing_workspace(tmp_path_factory.mktemp("compared"), "NIKE_2023_10K.pdf",
                              "3M_2022_10K.pdf")
    return Agent.from_workspace(Path(ws))


@pytest.mark.parametrize("question, value", [
    ("How much larger was Nike's revenue in FY2022 than in FY2023?", -4507.0),
    ("How much larger was Nike's revenue in FY2023 than in FY2022?", 4507.0),
    ("How much lower was 3M's cost of sales than its net sales in 2022?", 14997.0),
    ("How much higher was 3M's net sales than its cost of sales in 2022?", 14997.0),
])
def test_real_filings_compared_as_asked(filings: Agent, question: str, value: float) -> None:
    r = filings.ask(question)
    assert [f.value for f in r.figures] == [value], r.answer


# --- asked yes or no: "Was revenue higher in FY2025 than in FY2024?" -----------------
# It quoted passages about other figures ("Group new sales were US$8,180m in FY2024 …"),
# and "香港2025年营业收入是否高于2024年？" listed both levels: now which way the row moved.
@pytest.mark.parametrize("question, answer", [
    ("Was ACME Hong Kong revenue higher in FY2025 than in FY2024?",
     "Yes: ACME Hong Kong Revenue rose from 1,320 US$ m in FY2024 to 1,405 US$ m in FY2025"),
    ("Was ACME Hong Kong revenue higher in FY2024 than in FY2025?",
     "No: ACME Hong Kong Revenue rose from 1,320 US$ m in FY2024 to 1,405 US$ m in FY2025"),
    ("Was ACME Mainland China revenue lower in FY2025 than in FY2024?",
     "Yes: ACME Mainland China Revenue fell from 1,580 US$ m in FY2024 to 1,530 US$ m"),
    ("香港2024年营业收入是否高于2025年？",
     "否：ACME Hong Kong Revenue从FY2024的1,320百万美元上升至FY2025的1,405百万美元"),
])
def test_a_yes_no_comparison_of_two_years_says_which_way(agent: Agent, question: str,
                                                         answer: str) -> None:
    r = agent.ask(question, REF)
    assert r.answer.startswith(answer), r.answer


def test_a_real_filers_years_compared_yes_or_no(filings: Agent) -> None:
    r = filings.ask("Was 3M's 2022 revenue higher than 2021 revenue?")
    assert r.answer.startswith("No: 3M Company Revenue fell from 35,355 million in FY2021 "
                               "to 34,229 million in FY2022"), r.answer


def test_versus_is_the_comparison_never_a_column(tmp_path_factory: pytest.TempPathFactory
                                                 ) -> None:
    """3M's 2018 10-K heads a column "2018 versus 2017", read as a column "versus": in the
    same folder "Nike's revenue in fiscal 2023 versus fiscal 2022" asked Nike's "Revenue
    (versus)" and found none of it, listing no figure."""
    ws = dev_filing_workspace(tmp_path_factory.mktemp("versus"), "NIKE_2023_10K.pdf",
                              "3M_2018_10K.pdf")
    r = Agent.from_workspace(Path(ws)).ask(
        "What was Nike's revenue in fiscal 2023 versus fiscal 2022?")
    assert "Not found" not in r.answer and "51,217" in r.answer and "46,710" in r.answer, \
        r.answer


def test_percentage_points_name_the_change_never_a_percent_column(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Adobe's 10-K heads columns "Percent"; in the same folder "How many percentage points
    did Nike's gross margin change in fiscal 2023?" asked Nike's "Gross margin (percent)"
    and found none ("Change not computed: … not in the fact store")."""
    ws = dev_filing_workspace(tmp_path_factory.mktemp("points"), "NIKE_2023_10K.pdf",
                              "ADOBE_2022_10K.pdf")
    r = Agent.from_workspace(Path(ws)).ask(
        "How many percentage points did Nike's gross margin change in fiscal 2023?")
    assert [f.value for f in r.figures] == [-2.5], r.answer
    assert "(43.5 − 46) = -2.5 percentage points" in r.answer


# --- against the year before: "than in the prior year", "比上年", "同比" ---------------
# "How much lower was Mainland China revenue in FY2025 than in the prior year?" was not
# computed (one year named); "内地2025年营业收入比上年减少了多少？" and "…同比减少了多少？" read
# "比…少了多少" as a comparison of two figures named and found one ("需要两个输入，现有 1 个").
@pytest.mark.parametrize("question, value", [
    ("How much lower was Mainland China revenue in FY2025 than in the prior year?", 50.0),
    ("How much higher was Hong Kong revenue in FY2025 than the previous year?", 85.0),
    ("内地2025年营业收入比上年减少了多少？", -50.0),
    ("内地2025年营业收入同比减少了多少？", -50.0),
])
def test_a_comparison_with_the_year_before(agent: Agent, question: str, value: float) -> None:
    r = agent.ask(question, REF)
    assert [f.value for f in r.figures] == [value], r.answer
