"""An amount per member is never scaled by its table's "in thousands".

Netflix's highlights table, "(in thousands, except revenue per membership and
percentages)", filed "Global streaming average monthly revenue per paying membership
$ 8.15" as 8.15 thousand: the "except" item holding "per" was dropped, and "per paying
membership" was no amount per unit. Either reading now keeps the figure unscaled (an
amount per unit, as per share), while the memberships and revenues stay in thousands.
Each test fails on the code before (a thousands scale asserted away).
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from ragspine_nb.extract.scale import read_stated
from tests.filings import tables_agent

REF = date(2023, 6, 1)
HIGHLIGHTS = """"(in thousands, except revenue per membership and percentages)",2021,2022
Streaming memberships,"74,762","93,800"
Global streaming average monthly revenue per paying membership,$ 8.15,$ 9.43
Revenues,"6,779,511","11,692,713"
"""
#: a caption with no "except": the row's own words say it is per member
HOTEL = """(in millions),2021,2022
Rooms sold,"1,200","1,500"
Revenue per available room,$ 98.10,$ 112.40
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("per_unit"),
                        {"highlights.csv": HIGHLIGHTS, "hotels.csv": HOTEL})


def test_an_amount_per_membership_is_not_in_thousands(agent: Agent) -> None:
    result = agent.ask("What was the global streaming average monthly revenue per paying "
                       "membership in 2022?", reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(9.43, "")], result.answer
    assert "thousand" not in result.answer.splitlines()[0]


def test_an_amount_per_room_is_not_in_millions(agent: Agent) -> None:
    result = agent.ask("What was revenue per available room in 2022?", reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(112.4, "")], result.answer


def test_the_table_s_other_rows_keep_its_scale(agent: Agent) -> None:
    result = agent.ask("What were revenues in 2022?", reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(11692713.0, "K")], result.answer


def test_an_except_item_naming_a_per_unit_row_is_kept() -> None:
    assert read_stated("(in thousands, except revenue per membership and percentages)"
                       ).except_items == (frozenset({"revenue", "membership"}),)
