"""The words of an operation are the operation, not a row or a column of some table.

A 10-K's segment tables hold rows "Percent change" and "Percent of sales", and a
valuation-assumptions table a column "Percent": with no profile, these become rows and a
column of the folder's vocabulary. "What was the percentage change in 3M net sales from
2021 to 2022?" then read the rows "Percent of sales" beside "net sales" (refused as an
operation not read) or the column "Percent" (refused as "Revenue (percent)" not stored),
while both years of net sales were in the store. The rule (from the question's
structure): words beyond those of the row the question names that only ask an operation
(percent, change, growth …) are the operation; a column named only "Percent" is the
percentage of a percentage change asked. Run through a real ingest and ``Agent.ask``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.reading.intent_columns import names_the_operation
from ragspine_nb.ingestion.workspace import ingest

RESULTS = """\
(Millions),2022,2021
Net sales,"34,229","35,355"
Operating income,"6,539","7,369"
Percent change,(11.3)%,2.9%
Percent of sales,19.1%,20.8%
"""
ASSUMPTIONS = """\
Assumptions,2022,2021
,Percent,Percent
Risk-free interest rate,0.9,1.2
Expected dividend yield,2.9,3.1
"""
QUESTION = "What was the percentage change in net sales from 2021 to 2022?"
ANSWER = "Revenue, percentage change from FY2021 to FY2022: -3.18%"


def _agent(tmp: Path, files: dict[str, str]) -> Agent:
    (tmp / "in").mkdir()
    for name, text in files.items():
        (tmp / "in" / name).write_text(text, encoding="utf-8")
    report = ingest(tmp / "in", workspace=tmp / "ws", profile=None, progress=False)
    assert report.count("failed") == 0, report.files
    return Agent.from_workspace(tmp / "ws")


def test_a_row_percent_change_is_not_read_beside_the_row_named(tmp_path: Path) -> None:
    agent = _agent(tmp_path, {"results.csv": RESULTS})
    res = agent.ask(QUESTION)
    assert ANSWER in res.answer, res.answer
    assert "(34,229 − 35,355) / 35,355" in res.answer
    # the row "Percent change" (under operating income) is named by operation words
    # only: beside the row the question names they ask that operation of it, computed
    # from the stated levels with its derivation (the table's own (11.3)% agrees); it
    # was asked back as two rows named
    both = agent.ask("What was the percent change of operating income from 2021 to 2022?")
    assert "Operating income, percentage change from FY2021 to FY2022: -11.26%" in both.answer
    assert "(6,539 − 7,369) / 7,369" in both.answer


def test_a_column_named_percent_is_not_the_percentage_of_a_change(tmp_path: Path) -> None:
    agent = _agent(tmp_path, {"results.csv": RESULTS, "assumptions.csv": ASSUMPTIONS})
    assert "C_PERCENT" in agent.profile.channels  # the folder's vocabulary has it
    assert agent.parser.parse(QUESTION).channels == ()
    assert ANSWER in agent.ask(QUESTION).answer
    # the column is still named where it is meant
    rate = agent.ask("What was the risk-free interest rate percent in 2022?")
    assert "0.9" in rate.answer, rate.answer


@pytest.mark.parametrize(("words", "rest", "named"), [
    (frozenset({"percent"}), "what was the percentage change in sales", True),
    (frozenset({"percent"}), "by what percent increase did sales grow", True),
    (frozenset({"percent"}), "what percent of sales was apac", False),
    (frozenset({"percent", "sale"}), "the percentage change in sales", False),
])
def test_names_the_operation(words: frozenset[str], rest: str, named: bool) -> None:
    assert names_the_operation(words, rest) is named
