"""A question asking why something moved is searched and answered in the report's words.

"Why did operating income fall in 2022?" is answered in a 10-K by "Operating income
decreased … due to …"; searched with its own words it found the passages that mention
operating income and 2022 (a change of segment measure, operating *cash flow*) — the
review's three-filing folder answered it with a sentence about a reporting change. The
rules read the question's structure (a cause asked and one direction stated), never a
dataset's phrases; everything below runs through a real ingest and ``Agent.ask``.
"""

from __future__ import annotations

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.narrative.extractive import terms
from ragspine_nb.ingestion.workspace import ingest
from ragspine_nb.retrieval.movement import direction, movement_query, report_wording
from ragspine_nb.retrieval.planning import RuleQueryPlanner

# what a 10-K's MD&A says, and the passages that merely share the question's words
MDNA = """\
Effective in the first quarter of 2022, the measure of segment operating income used by \
the chief operating decision maker changed, and 2022 operating income was recast.

In 2022, cash flows provided by operating activities decreased $1,863 million, primarily \
due to lower net income.

The fall collection of consumer products was launched in 2022.

Operating income decreased $830 million in 2022, primarily due to special item costs for \
significant litigation and higher raw materials and logistics costs.

Interest expense decreased in 2022 driven by debt maturities.
"""


@pytest.mark.parametrize(("word", "moved"), [
    ("fell", "down"), ("Dropped", "down"), ("declining", "down"), ("rose", "up"),
    ("grew", "up"), ("improved", "up"), ("下滑", "down"), ("增长", "up"),
    ("lower", None), ("higher", None), ("change", None), ("revenue", None)])
def test_direction_reads_verbs_of_movement_only(word: str, moved: str | None) -> None:
    assert direction(word) == moved


@pytest.mark.parametrize(("question", "said"), [
    ("Why did operating income fall in 2022?", "Why did operating income decreased in 2022?"),
    ("What drove the drop in gross margin?", "What drove the decreased in gross margin?"),
    ("Why did revenue grow in FY2023?", "Why did revenue increased in FY2023?"),
    ("为什么银保渠道新单保费下滑？", "为什么银保渠道新单保费下降?"),
    # no cause asked, no direction, or two directions: left as it is
    ("What was operating income in 2022?", None),
    ("How much did revenue fall in 2022?", None),
    ("Why does the company hold treasury stock?", None),
    ("Why did sales rise while margins fell?", None),
])
def test_report_wording_needs_a_cause_and_one_direction(question: str,
                                                        said: str | None) -> None:
    assert report_wording(question) == said


def test_the_plan_says_the_movement_the_reports_way() -> None:
    plan = RuleQueryPlanner().plan("Why did operating income fall in 2022?")
    assert plan.kinds == ["original", "keyword", "movement"]
    assert plan.texts[1] == "operating income decreased 2022"
    assert plan.texts[2] == movement_query("Why did operating income fall in 2022?") == \
        "operating income decreased 2022 decrease declined decline primarily due driven result"
    # a question that asks no cause keeps its own words
    assert RuleQueryPlanner().plan("How much did revenue fall?").kinds == ["original", "keyword"]


def test_sentence_terms_meet_across_verbs_of_one_direction() -> None:
    assert terms("Why did sales fall?") == ["sal", "decreas"]
    assert terms("Sales decreased 3%.")[:2] == ["sal", "decreas"]
    assert terms("为什么保费下滑") == ["保费", "费下", "下降"]


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    src = tmp_path_factory.mktemp("in")
    (src / "mdna_2022.md").write_text(MDNA, encoding="utf-8")
    ws = tmp_path_factory.mktemp("ws")
    report = ingest(src, workspace=ws, profile=None, progress=False)
    assert report.count("failed") == 0, report.files
    return Agent.from_workspace(ws)


def test_why_did_it_fall_is_answered_by_the_sentence_that_says_why_it_decreased(
        agent: Agent) -> None:
    res = agent.ask("Why did operating income fall in 2022?")
    lines = res.answer.splitlines()
    first = lines[lines.index("Attribution:") + 1]  # after the level it did not find
    assert first.startswith("Operating income decreased $830 million in 2022, primarily due "
                            "to special item costs for significant litigation"), res.answer
    assert "mdna_2022.md" in res.answer
    assert "fall collection" not in res.answer

