"""Issue 15: "due within 5 years" over a maturity table's buckets, from a real CSV table.

The table is a user's ``table.csv`` beside a ``notes.md`` dating it, ingested with no
profile. A window of time asked ("within 5 years", "in the next 3 years") sums the
bucket columns that tile it exactly, each cell cited; a window the buckets do not tile
("within 4 years" over "3 to 5 years") asks which column — never the Total column.
"""

from __future__ import annotations

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.reading.bucket_window import read_window
from ragspine_nb.extract.buckets import Bucket, bucket_span
from tests.tablehelpers import TATQA_REFERENCE as REF
from tests.tablehelpers import tatqa_agent

OBLIGATIONS = [
    ["", "", "Payments due by period", "", "", ""],
    ["", "Up to 1 year", "1 to 3 years", "3 to 5 years", "More than 5 years", "Total"],
    ["Operating lease obligations", "16,164", "19,812", "6,551", "5,883", "48,410"],
    ["Purchase obligations", "55,755", "16,220", "7,595", "17,649", "97,219"],
]
INTRO = "The following summarizes our contractual obligations as of December 31, 2019 " \
        "(in thousands):"


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tatqa_agent(tmp_path_factory.mktemp("window"), OBLIGATIONS, INTRO)


def test_a_window_sums_the_buckets_that_cover_it(agent: Agent) -> None:
    r = agent.ask("What is the company's total purchase obligations that are due within "
                  "5 years?", REF)
    assert [(f.value, f.unit, f.operation) for f in r.figures] == [(79570.0, "K", "sum")]
    assert [(f.value, f.source_locator) for f in r.figures[0].operands] == [
        (55755.0, "cell=B4"), (16220.0, "cell=C4"), (7595.0, "cell=D4")]
    assert "Derivation: 55,755 + 16,220 + 7,595 = 79,570" in r.answer
    nxt = agent.ask("What are the operating lease obligations due in the next 3 years?", REF)
    assert [f.value for f in nxt.figures] == [35976.0]


def test_a_window_of_one_bucket_is_that_column(agent: Agent) -> None:
    r = agent.ask("What are the purchase obligations due within one year?", REF)
    assert [(f.value, f.operation) for f in r.figures] == [(55755.0, "lookup")]


def test_a_window_the_buckets_do_not_tile_asks_never_the_total(agent: Agent) -> None:
    for q in ("What are the purchase obligations due within 4 years?",
              "What are the purchase obligations due within 10 years?"):
        r = agent.ask(q, REF)
        assert r.figures == () and r.clarification.mode == "ask_first"
        assert "between 3 and 5 years (C_3_5)" in r.answer and "97,219" not in r.answer


def test_buckets_are_read_from_column_names() -> None:
    assert bucket_span("less than one year") == Bucket(0, 1, "year")
    assert bucket_span("between 1 and 3 years") == Bucket(1, 3, "year")
    assert bucket_span("91-180 days") == Bucket(91, 180, "day")
    assert bucket_span("more than 5 years").end == float("inf")
    # written inclusively ("less than 1 year", "2-5 years") they still follow on
    cols = {"A": ("less than 1 year",), "B": ("2-5 years",), "T": ("total",)}
    assert read_window("due within 5 years", cols).codes == ("A", "B")
    # a gap is no tiling
    assert read_window("due within 5 years", {"A": ("less than 1 year",),
                                              "B": ("3-5 years",)}).codes == ()
