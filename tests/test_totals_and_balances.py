"""Totals and their parts, closing balances and share columns: how a question is read.

A row that adds up the rows above it is their total (checked on the figures); a question
naming a total and one of its parts asks for the part; a balance named without "beginning"
or "end" is the closing one; "percentage of" takes the share column. Each reading is
stated in the answer, and each has a control showing the ask-back without it.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from ragspine_nb import Agent, DomainProfile, FactStore
from ragspine_nb.core import Fact
from ragspine_nb.errors import ProfileError
from ragspine_nb.extract.sums import adds_up, decimals, sum_parts

REF = date(2020, 1, 1)


# ---------------------------------------------------------------- adding up, on figures
def test_decimals_are_read_from_the_stated_figure() -> None:
    assert [decimals(v) for v in (1769.4, 7155.0, -0.25, 3.0)] == [1, 0, 2, 0]


def test_adds_up_allows_rounding_and_needs_evidence() -> None:
    # 33.3 + 33.3 + 33.3 = 99.9, stated as 100.0: within half a unit per figure
    assert adds_up({"y": 100.0}, [{"y": 33.3}, {"y": 33.3}, {"y": 33.3}])
    assert not adds_up({"y": 100.5}, [{"y": 33.3}, {"y": 33.3}, {"y": 33.3}])
    # every shared column must add up, a column only the total states is not compared
    assert adds_up({"a": 15.0, "b": 7.0, "pct": 3.5}, [{"a": 10.0, "b": 3.0},
                                                       {"a": 5.0, "b": 4.0}])
    assert not adds_up({"a": 15.0, "b": 8.0}, [{"a": 10.0, "b": 3.0}, {"a": 5.0, "b": 4.0}])
    # zero rows, one part, or one non-zero part prove nothing
    assert not adds_up({"y": 0.0}, [{"y": 0.0}, {"y": 0.0}])
    assert not adds_up({"y": 5.0}, [{"y": 5.0}])
    assert not adds_up({"y": 5.0}, [{"y": 5.0}, {"y": 0.0}])


def test_sum_parts_finds_subtotals_and_the_grand_total_over_them() -> None:
    rows = [(1, {"y": 10.0, "z": 1.0}), (2, {"y": 5.0, "z": 2.0}),    # segment A rows
            (3, {"y": 15.0, "z": 3.0}),                                # subtotal A
            (4, {"y": 2.0, "z": 2.0}), (5, {"y": 4.0, "z": 1.0}),     # segment B rows
            (6, {"y": 6.0, "z": 3.0}),                                 # subtotal B
            (7, {"y": 21.0, "z": 6.0})]                                # grand total
    assert sum_parts(rows) == {3: (1, 2), 6: (4, 5), 7: (3, 6)}
    # a roll-forward is a sum too: opening + additions - disposals = closing
    assert sum_parts([(1, {"y": 100.0}), (2, {"y": 30.0}), (3, {"y": -20.0}),
                      (4, {"y": 110.0})]) == {4: (1, 2, 3)}
    assert sum_parts([(1, {"y": 10.0}), (2, {"y": 5.0}), (3, {"y": 16.0})]) == {}


# ---------------------------------------------------------------- the profile relation
def _profile(metrics: dict[str, Any], channels: dict[str, Any] | None = None
             ) -> DomainProfile:
    return DomainProfile.from_dict({"home": {"company_name": "T", "entity_code": "T"},
                                    "metrics": metrics, "channels": channels or {}})


def test_parts_are_validated_and_round_trip() -> None:
    p = _profile({"TOTAL_REV": {"unit": "USD_M", "parts": ["SOFTWARE", "SERVICES"]},
                  "SERVICES": {"unit": "USD_M", "parts": ["CONSULTING"]},
                  "SOFTWARE": {"unit": "USD_M"}, "CONSULTING": {"unit": "USD_M"}})
    assert p.contains("TOTAL_REV", "CONSULTING") and not p.contains("SOFTWARE", "TOTAL_REV")
    assert DomainProfile.from_dict(p.to_dict()).metrics["TOTAL_REV"].parts == \
        ("SOFTWARE", "SERVICES")
    assert "parts" not in p.to_dict()["metrics"]["SOFTWARE"]  # absent, not an empty list
    with pytest.raises(ProfileError, match=r"names 'NOPE'.*known metrics: \['A'\]"):
        _profile({"A": {"unit": "x"}, "B": {"unit": "x", "parts": ["NOPE"]}})
    with pytest.raises(ProfileError, match="not another metric"):
        _profile({"A": {"unit": "x", "parts": ["A"]}})
    with pytest.raises(ProfileError, match="contains itself through its parts"):
        _profile({"A": {"unit": "x", "parts": ["B"]}, "B": {"unit": "x", "parts": ["A"]}})


# ---------------------------------------------------------------- the agent on a table
def _agent(parts: bool = True) -> Agent:
    profile = _profile({
        "ROW1": {"unit": "USD_M", "label": "Software maintenance"},
        "ROW2": {"unit": "USD_M", "label": "Licences"},
        "ROW3": {"unit": "USD_M", "label": "Total revenue",
                 **({"parts": ["ROW1", "ROW2"]} if parts else {})},
        "ROW4": {"unit": "USD_M", "label": "Goodwill, beginning of the year"},
        "ROW5": {"unit": "USD_M", "label": "Goodwill, end of the year"},
        "ROW6": {"unit": "USD_M", "label": "APAC", "synonyms": ["apac", "亚太"]},
        "ROW7": {"unit": "USD_M", "label": "Cloud", "synonyms": ["cloud", "云业务"]},
        "ROW8": {"unit": "USD_M", "label": "Segment sales", "synonyms": ["营收"],
                 **({"parts": ["ROW7"]} if parts else {})},
    }, {"C_NET_SALES": {"synonyms": ["net sales"]},
        "C_PERCENT_TOTAL": {"synonyms": ["percent total", "% of total"]}})
    facts = [Fact(f"ROW{r}", "T", "NA", "TOTAL", "FY", y, v, "USD_M", "t.pdf", f"r{r}{y}")
             for r, y, v in [(1, "2019", 40.0), (1, "2018", 35.0), (2, "2019", 60.0),
                             (3, "2019", 100.0), (3, "2018", 90.0), (4, "2019", 500.0),
                             (5, "2019", 520.0), (5, "2018", 500.0), (7, "2019", 30.0),
                             (8, "2019", 80.0)]]
    facts += [Fact("ROW6", "T", "NA", "C_NET_SALES", "FY", "2019", 533.3, "USD_M", "t.pdf",
                   "r6sales"),
              Fact("ROW6", "T", "NA", "C_PERCENT_TOTAL", "FY", "2019", 38.6, "percent",
                   "t.pdf", "r6pct")]
    store = FactStore(":memory:")
    store.upsert(facts)
    return Agent(store, None, None, profile)


def _locators(result: Any) -> list[str]:
    return sorted(t["source"]["locator"] for t in result.tool_results)


def test_a_total_and_its_part_named_together_answer_the_part_and_say_so() -> None:
    agent = _agent()
    r = agent.ask("What was the total revenue from software maintenance in 2019?", REF)
    assert _locators(r) == ["r12019"] and "40" in r.answer
    assert r.clarification.mode == "answer_with_assumptions"
    assert "the question asks for Software maintenance (ROW1), part of Total revenue " \
           "(ROW3)" in r.answer
    r = agent.ask("What was the change in total revenue from software maintenance between 2018 "
                  "and 2019?", REF)
    assert _locators(r) == ["r12018", "r12019"]
    # named as a list, both are wanted; the total alone is the total
    r = agent.ask("What were total revenue and software maintenance in 2019?", REF)
    assert _locators(r) == ["r12019", "r32019"]
    assert _locators(agent.ask("What was total revenue in 2019?", REF)) == ["r32019"]
    # Chinese: the note speaks Chinese
    r = agent.ask("2019年营收中云业务是多少？", REF)
    assert _locators(r) == ["r72019"] and "问的是Cloud (ROW7)" in r.answer


def test_without_the_parts_relation_the_same_question_asks_back() -> None:
    r = _agent(parts=False).ask("What was the total revenue from software maintenance in 2019?",
                                REF)
    assert r.clarification.mode == "ask_first" and r.tool_results == []
    assert set(r.clarification.narrowing_options) == {"ROW1", "ROW3"}


def test_a_balance_named_bare_is_the_closing_one_and_says_so() -> None:
    agent = _agent()
    r = agent.ask("What was the change in goodwill from 2018 to 2019?", REF)
    assert _locators(r) == ["r52018", "r52019"]
    assert "the balance is the closing one, Goodwill, end of the year (ROW5)" in r.answer
    # a question that says where in the year is read as it says
    assert _locators(agent.ask("What was goodwill at the beginning of 2019?", REF)) == \
        ["r42019"]
    assert _locators(agent.ask("What was goodwill at the end of the year 2019?", REF)) == \
        ["r52019"]


def test_a_balance_without_a_closing_row_still_asks() -> None:
    agent = Agent(FactStore(":memory:"), None, None, _profile({
        "ROW4": {"unit": "USD_M", "label": "Goodwill, beginning of the year"},
        "ROW9": {"unit": "USD_M", "label": "Goodwill impairment"}}))
    r = agent.ask("What was goodwill in 2019?", REF)
    assert r.clarification.mode == "ask_first" and r.tool_results == []


def test_percentage_of_takes_the_share_column() -> None:
    agent = _agent()
    r = agent.ask("What was the percentage of sales from APAC to total net sales in 2019?",
                  REF)
    assert _locators(r) == ["r6pct"] and "38.6" in r.answer
    # both columns named without "percentage of": which one? ask
    r = agent.ask("What was the APAC net sales percent total in 2019?", REF)
    assert r.clarification.mode == "ask_first" and r.tool_results == []
