"""A change the question starts from one named period ("from FY2024", "since FY2024",
"自2024财年以来", "较2024年") is that period against a later one, never the year before it.

Issue 36, defect M7: "How did ACME Hong Kong revenue change from FY2024?" answered the
change from FY2023 to FY2024 (110); the question starts from FY2024, so FY2024 → FY2025 (85).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

import ragspine_nb
from ragspine_nb import Agent

REF = date(2026, 3, 31)


@pytest.fixture
def agent(demo_ws: Path) -> Iterator[Agent]:
    a = Agent.from_workspace(demo_ws)
    yield a
    a.close()


def _change(agent: Agent, question: str) -> tuple[float, str, str]:
    r = agent.ask(question, REF)
    assert len(r.figures) == 1, r.answer
    return r.figures[0].value, r.figures[0].label, r.answer


@pytest.mark.parametrize("question", [
    "How did ACME Hong Kong revenue change from FY2024?",
    "How did ACME Hong Kong revenue change since FY2024?",
    "How has ACME Hong Kong revenue changed since fiscal 2024?",
    "What was the change in ACME Hong Kong revenue compared with FY2024?",
])
def test_a_change_from_a_named_year_runs_to_the_latest(agent: Agent, question: str) -> None:
    value, label, answer = _change(agent, question)
    assert value == 85.0  # 1,405 - 1,320
    assert label.endswith("change from FY2024 to FY2025")
    assert answer.startswith("(Assuming the comparison is FY2025 against FY2024.)")


@pytest.mark.parametrize("question", ["ACME香港收入自2024财年以来有何变化？",
                                      "ACME香港收入较2024年变化多少？"])
def test_chinese_from_and_since(agent: Agent, question: str) -> None:
    value, _, answer = _change(agent, question)
    assert value == 85.0 and answer.startswith("（假设：比较FY2025与FY2024）")


def test_a_change_in_a_named_year_is_still_against_the_year_before(agent: Agent) -> None:
    value, label, _ = _change(agent, "How did ACME Hong Kong revenue change in FY2024?")
    assert value == 110.0 and label.endswith("change from FY2023 to FY2024")


def test_a_percentage_since_an_earlier_year(agent: Agent) -> None:
    value, label, _ = _change(agent, "What was the percentage change in ACME Hong Kong "
                                     "revenue since FY2023?")
    assert round(value, 2) == 16.12  # (1,405 - 1,210) / 1,210
    assert label.endswith("from FY2023 to FY2025")


def test_since_the_latest_year_asks_which_periods(agent: Agent) -> None:
    r = agent.ask("How did ACME Hong Kong revenue change from FY2025?", REF)
    assert r.figures == () and r.answer.startswith("Which two periods should I compare")


def test_a_follow_up_from_an_earlier_year_ends_at_the_year_just_given(agent: Agent) -> None:
    chat = agent.chat()
    chat.ask("What was ACME Hong Kong revenue in FY2025?", REF)
    r = chat.ask("How did it change from FY2024?", REF)
    assert [(f.value, f.label) for f in r.figures] == [
        (85.0, "ACME Hong Kong Revenue, change from FY2024 to FY2025")]
    chat.ask("What was ACME Hong Kong revenue in FY2024?", REF)
    r = chat.ask("How did it change from FY2022?", REF)
    assert r.figures[0].value == 170.0  # 1,320 - 1,150: FY2022 to the FY2024 just given
    assert r.answer.startswith("(Following on from the previous question: Revenue, ACME "
                               "Hong Kong, FY2024.)")


def test_a_stated_change_is_read_in_the_later_year(tmp_path: Path) -> None:
    """A table's own "% change" column is filed under the later year: "since 2018" reads
    the 2019 column, not a change filed under 2018."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "sales.csv").write_text(
        "In millions,2019,2018,% Change\nNet sales,1200,1000,20%\nCost of sales,700,600,17%\n",
        encoding="utf-8")
    ws = tmp_path / "ws"
    ragspine_nb.ingest(folder, workspace=ws)
    agent = Agent.from_workspace(ws)
    try:
        r = agent.ask("What was the percentage change in net sales since 2018?",
                      date(2020, 6, 30))
    finally:
        agent.close()
    assert [round(f.value, 2) for f in r.figures] == [20.0], r.answer
    assert r.answer.startswith("(The change as the report states it, not computed.)")
    assert "FY2019: 20% (source: sales.csv · cell=D2)" in r.answer


def test_a_row_of_stated_changes_is_not_read_in_the_starting_year(tmp_path: Path) -> None:
    """"How did net sales change from 2021?" once read the row "Total sales change" in
    2021 (the change *into* 2021, 9.9%): a wrong number. Never that figure."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "sales.csv").write_text(
        "In millions,2022,2021,2020\nNet sales,34229,35355,32184\n"
        "Total sales change,-3.2%,9.9%,0.1%\n", encoding="utf-8")
    ws = tmp_path / "ws"
    ragspine_nb.ingest(folder, workspace=ws)
    agent = Agent.from_workspace(ws)
    try:
        answers = [agent.ask(q, date(2023, 6, 30)) for q in (
            "How did net sales change from 2021?", "How did total sales change since 2021?")]
    finally:
        agent.close()
    for r in answers:
        assert 9.9 not in [f.value for f in r.figures] and "9.9" not in r.answer, r.answer
        assert [round(f.value, 1) for f in r.figures] in ([], [-1126.0], [-3.2]), r.answer
