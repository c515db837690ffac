"""A word written right before the one row read, that the row's names do not hold.

General Mills' balance sheet line "Receivables" becomes a name of the built-in "Accounts
receivable" in a folder holding it, so "What is Nike's tax receivable in fiscal 2023?"
named that row in full by "receivable", and "tax" (a word of other rows' names, never
"unstated") was read by nothing: Nike's accounts receivable, 4,131 million, was answered
as its tax receivable — a wrong number. A line-item word before the row's name that the
row's names lack asks back with the row offered; "net", the company's name and the row's
own words do not, and a verb before it ("what drove operating margin") is no qualifier.
Through the real filings (two FinanceBench dev 10-Ks) → ingest → ask, as a user runs it;
the first test fails on the previous code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb.agent import Agent
from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.scope.row_qualifier import unread_adjustment, unread_qualifier
from ragspine_nb.profile import DomainProfile
from tests.filings import dev_filing_workspace


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    ws = dev_filing_workspace(tmp_path_factory.mktemp("qualifier"), "NIKE_2023_10K.pdf",
                              "GENERALMILLS_2022_10K.pdf")
    return Agent.from_workspace(Path(ws))


def test_a_qualifier_the_row_lacks_is_asked_back(agent: Agent) -> None:
    r = agent.ask("What is Nike's tax receivable in fiscal 2023?")
    assert r.figures == (), r.answer
    assert r.answer.startswith("Which metric do you mean? Closest: Accounts receivable"), \
        r.answer


def test_the_rows_own_words_are_answered(agent: Agent) -> None:
    r = agent.ask("What were Nike's accounts receivable in fiscal 2023?")
    assert [f.value for f in r.figures] == [4131.0], r.answer


def test_a_plain_modifier_is_answered(agent: Agent) -> None:
    r = agent.ask("What was Nike's net revenue in fiscal 2023?")
    assert [f.value for f in r.figures] == [51217.0], r.answer


@pytest.mark.parametrize("question", [
    "What was Nike's revenue in constant currency in fiscal 2023?",
    "What was Nike's currency-neutral revenue growth in fiscal 2023?",
])
def test_another_version_of_the_row_is_asked_back(agent: Agent, question: str) -> None:
    """"constant" is a row word of other filings, never unstated in a folder: it still asks
    a figure Nike's "Revenue" is not (it answered 51,217 million and a change of 4,507)."""
    r = agent.ask(question)
    assert r.figures == () and r.answer.startswith(
        "Which metric do you mean? Closest: Revenue"), r.answer


def test_a_version_the_row_names_is_answered(agent: Agent) -> None:
    r = agent.ask("What was General Mills' adjusted operating profit in fiscal 2022?")
    assert [f.value for f in r.figures] == [3213.3], r.answer


def _intent(question: str, said: str) -> ParsedIntent:
    return ParsedIntent(raw_question=question, route="structured", language="en",
                        metrics=("OPERATING_INCOME",), metric="OPERATING_INCOME",
                        entities=("ACME",), mentions={"metric": said})


@pytest.mark.parametrize(("question", "said", "word"), [
    ("What was ACME's tax operating income in 2024?", "operating income", "tax"),
    ("What drove ACME's operating income in 2024?", "operating income", None),
    ("What was ACME's operating income in 2024?", "operating income", None),
])
def test_unread_qualifier(question: str, said: str, word: str | None) -> None:
    assert unread_qualifier(_intent(question, said), DomainProfile.builtin()) == word


def test_a_row_asked_net_of_another_line_item_is_asked_back(agent: Agent) -> None:
    r = agent.ask("What was Nike's net income excluding restructuring in fiscal 2023?")
    assert r.figures == (), r.answer
    assert r.answer.startswith("Which metric do you mean? Closest: Net income"), r.answer


@pytest.mark.parametrize(("question", "word"), [
    ("What was ACME's operating income excluding depreciation in 2024?", "depreciation"),
    ("What was ACME's operating income before depreciation in 2024?", "depreciation"),
    ("What was ACME's operating income in the year before 2024?", None),
    ("What was ACME's operating income before 2024?", None),
    ("What was ACME's operating income excluding the company's share in 2024?", None),
])
def test_unread_adjustment(question: str, word: str | None) -> None:
    intent = _intent(question, "operating income")
    assert unread_adjustment(intent, DomainProfile.builtin()) == word
