"""The answer loop's steps as data: the README lists them, the trace names the one that decided."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.pipeline import DECISIONS, STEPS, catalogue
from ragspine_nb.agent.rules import PACKAGES, rule_catalogue, rules

ROOT = Path(__file__).resolve().parents[1]
REF = date(2026, 3, 31)


def test_the_readme_lists_the_steps_as_the_code_runs_them() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"<!-- steps:begin -->\n(.*?)\n<!-- steps:end -->", readme, re.S)
    assert listed is not None, "README.md lacks the generated steps table"
    assert listed.group(1) == catalogue()


def test_the_readme_lists_the_rule_files_as_they_are() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"<!-- rules:begin -->\n(.*?)\n<!-- rules:end -->", readme, re.S)
    assert listed is not None, "README.md lacks the generated rules table"
    assert listed.group(1) == rule_catalogue()
    # every module of the engine's rule packages is listed, each saying what it is
    files = {f"{p}/{f.stem}" for p in PACKAGES
             for f in (ROOT / "ragspine_nb" / "agent" / p).glob("*.py") if f.stem != "__init__"}
    assert {f"{r.package}/{r.module}" for r in rules()} == files
    assert all(r.says for r in rules())


def test_every_step_is_named_once_and_decides_a_known_verdict() -> None:
    names = [s.name for s in STEPS]
    assert len(names) == len(set(names))
    assert {s.decides for s in STEPS} <= set(DECISIONS)
    assert STEPS[0].name == "out_of_scope_entity"  # the gate's verdict before anything else
    assert STEPS[-1].decides == "answer"  # the fact channel always answers (or refuses)


@pytest.mark.parametrize(("question", "step", "route"), [
    ("竞安2025年的营收是多少？", "out_of_scope_entity", "structured"),
    ("What was ACME Hong Kong's revenue in FY2025?", "fact_channel", "structured"),
    ("香港2025年营业收入是多少，为什么下降了？", "fact_channel", "composite"),
    ("Why did Mainland China revenue fall in FY2025?", "text_question", "composite"),
    ("What was Hong Kong's number in FY2025?", "ask_first", "structured"),
    ("How did it change?", "narrative_route", "narrative"),
])
def test_the_trace_names_the_step_that_decided(demo_ws: Path, question: str, step: str,
                                               route: str) -> None:
    agent = Agent.from_workspace(demo_ws)
    try:
        r = agent.ask(question, reference_date=REF)
    finally:
        agent.close()
    assert (r.trace["step"], r.route) == (step, route)
