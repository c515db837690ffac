"""Answers name rows and columns in words, never by their codes.

A column is named in the question's language ("(银保渠道)" in a Chinese answer, "(agency
channel)" in an English one); the operand lines of a derivation name rows and columns
by the profile's labels; a stated change's column without a name of its own is "%
change as stated"; a row with names only (a section-qualified row) is named by its
first name. Codes stay where an ask-back writes "Label (CODE)" on purpose.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent, DomainProfile
from ragspine_nb.agent.reading.labels import column_label, metric_label

REF = date(2026, 3, 31)


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


def test_labels_and_operands_are_named_in_words_never_codes(agent: Agent) -> None:
    """A column is named in the question's language; operand lines name rows and columns."""
    zh = agent.ask("内地银保渠道2025年新单保费", REF)
    assert [f.label for f in zh.figures] == ["ACME Mainland China New sales (银保渠道)，FY2025"]
    r = agent.ask("Difference between agency and bancassurance new sales of ACME Mainland "
                  "China in FY2025", REF)
    assert [(f.label, f.value) for f in r.figures] == [
        ("ACME Mainland China New sales, agency channel − bancassurance, FY2025", 670.0)]
    assert "\n  - agency channel, FY2025: 1,690 US$ m" in r.answer
    assert "\n  - bancassurance, FY2025: 1,020 US$ m" in r.answer
    share = agent.ask("What was ACME Hong Kong's operating profit as a percentage of revenue "
                      "in FY2025?", REF)
    assert "\n  - Operating profit, FY2025: 452 US$ m" in share.answer
    assert "\n  - Revenue, FY2025: 1,405 US$ m" in share.answer
    assert not re.search(r"(?:^|[ (])(?:AGENCY|BANCASSURANCE|OPERATING_PROFIT)[),:]",
                         r.answer + zh.answer + share.answer)


def test_a_stated_change_column_without_a_name_is_named_as_one(profile: DomainProfile) -> None:
    assert column_label(profile, "CHANGE_PCT") == "% change as stated"
    assert column_label(profile, "CHANGE_PCT", "zh") == "列示变动率"
    assert column_label(profile, "CHANGE") == "change as stated"
    assert column_label(profile, "BANCASSURANCE", "zh") == "银保渠道"
    assert column_label(profile, "NO_SUCH_COLUMN") == "NO_SUCH_COLUMN"


def test_a_row_with_names_only_is_named_by_its_first_name(profile: DomainProfile) -> None:
    base = profile.to_dict()
    named = DomainProfile.from_dict({**base, "metrics": {
        **base["metrics"], "CONT_REVENUE": {"unit": "K", "synonyms": [
            "continuing operations operating revenue", "operating revenue continuing"]}}})
    assert metric_label(named, "CONT_REVENUE") == "Continuing operations operating revenue"
    assert metric_label(named, "REVENUE") == "Revenue"
    assert metric_label(named, "NO_SUCH_ROW") == "NO_SUCH_ROW"


def test_dated_balance_rows_are_named_without_the_first_rows_date(tmp_path: Path) -> None:
    """ "Balance payable as at June 30, 2017 … 2019" rows: the 2019 figure is no 2017 one."""
    from tests.tablehelpers import tatqa_agent

    table = [["Plan", "Workforce reduction", "Facility costs", "Total"],
             ["Balance payable as at June 30, 2017", "$10,045", "$1,369", "$11,414"],
             ["Cash payments", "(8,455)", "1,062", "(6,393)"],
             ["Balance payable as at June 30, 2018", "$1,590", "$3,431", "$5,021"]]
    agent = tatqa_agent(tmp_path, table, "Restructuring.")
    result = agent.ask("What was the balance payable for workforce reduction as at June 30, "
                       "2018?", reference_date=date(2019, 1, 1))
    assert [(f.value, f.label) for f in result.figures] == \
        [(1590.0, "the company Balance payable (workforce reduction), FY2018")]
    assert "2017" not in result.answer
    agent.close()
