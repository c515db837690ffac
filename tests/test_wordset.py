"""Word-order-insensitive term matching, and how the agent uses it on table rows."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent, DomainProfile, FactStore
from ragspine_nb.agent import RuleIntentParser
from ragspine_nb.core import CHANGE_PCT_CHANNEL, Fact
from ragspine_nb.glossary import metric_vocabulary
from ragspine_nb.wordset import WordSetIndex, content_words
from tests.tablehelpers import csv_agent

REF = date(2020, 1, 1)


def test_content_words_fold_singularise_and_keep_hyphenated_words() -> None:
    assert content_words("What were the Non-current Assets (in $) of 2019?") == \
        {"noncurrent", "asset", "2019"}
    assert content_words("percentage") == content_words("Percent") == {"percent"}


@pytest.mark.parametrize("question, expected", [
    ("net interest expense", ("R1",)),                      # another word order
    ("federal deferred income tax expense", ("R3",)),        # the longer name settles it
    ("current federal tax", ("R2",)),
    ("total revenues", ("R5", "R6")),                        # a tie: ask back
    ("interest income expense net", ("R1", "R4")),           # both fully named: ask back
])
def test_contained(question: str, expected: tuple[str, ...]) -> None:
    idx = WordSetIndex([("Interest expense, net", "R1"), ("Current: Federal tax", "R2"),
                        ("Deferred income tax expense: Federal", "R3"),
                        ("Interest income", "R4"), ("Revenue", "R5"), ("Revenues", "R6")])
    assert idx.contained(content_words(question)) == expected


def test_a_partial_match_sharing_more_words_than_the_full_one_is_ambiguous() -> None:
    idx = WordSetIndex([("Net sales", "SALES"), ("Other income (expense), net", "OTHER")])
    words = content_words("percentage of sales represented by net other income")
    assert idx.contained(words) == ("SALES", "OTHER")


def test_a_full_match_counts_the_words_its_longer_names_share() -> None:
    # "Diluted" under its section title "Weighted-average common shares outstanding"
    idx = WordSetIndex([("Diluted", "R9"),
                        ("Weighted-average common shares outstanding diluted", "R9"),
                        ("Net income per diluted share", "R11")],
                       rival_pairs=[("Diluted", "R9"), ("Net income per diluted share", "R11")])
    words = content_words("the diluted weighted-average number of shares")
    assert idx.contained(words) == ("R9",)
    # the rival shares more words than the row or its section title: ask
    assert idx.contained(content_words("What was net income, diluted?")) == ("R9", "R11")


def test_closest_offers_fuzzy_options_only() -> None:
    idx = WordSetIndex([("Effective income tax rate", "R11"), ("Income taxes paid", "R2")])
    words = content_words("What was the effective tax rate?")
    assert idx.contained(words) == ()
    assert idx.closest(words) == ("R11",)


def test_a_term_claimed_by_two_codes_leaves_the_vocabulary() -> None:
    p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"}, "metrics": {
        "R3": {"unit": "USD", "synonyms": ["client services"]},
        "R8": {"unit": "USD", "synonyms": ["client services", "cost of revenue client services"]},
    }})
    vocab = metric_vocabulary(p)
    assert "client services" not in vocab
    assert vocab["cost of revenue client services"] == "R8"


# ---------------------------------------------------------------- the agent on a table
@pytest.fixture()
def table_agent() -> Agent:
    profile = DomainProfile.from_dict({
        "home": {"company_name": "T", "entity_code": "T"},
        "metrics": {
            "ROW1": {"unit": "USD_M", "label": "Interest expense, net"},
            "ROW2": {"unit": "USD_M", "label": "Net increase in cash"},
            "ROW3": {"unit": "USD_M", "label": "Modules"},
            "ROW4": {"unit": "USD_M", "label": "Effective income tax rate"},
        },
        "channels": {CHANGE_PCT_CHANNEL: {"synonyms": []},
                     "C_AS_REPORTED": {"synonyms": ["as reported"]},
                     "C_WITHOUT_ASC_606": {"synonyms": ["without asc 606 adoption"]}},
    })
    store = FactStore(":memory:")
    facts = [Fact("ROW1", "T", "NA", "TOTAL", "FY", "2019", 12.0, "USD_M", "t.pdf", "r1c1"),
             Fact("ROW1", "T", "NA", "TOTAL", "FY", "2018", 10.0, "USD_M", "t.pdf", "r1c2"),
             Fact("ROW2", "T", "NA", "TOTAL", "FY", "2019", 7.0, "USD_M", "t.pdf", "r2c1"),
             Fact("ROW3", "T", "NA", "TOTAL", "FY", "2019", 1460.0, "USD_M", "t.pdf", "r3c1"),
             Fact("ROW3", "T", "NA", "TOTAL", "FY", "2018", 502.0, "USD_M", "t.pdf", "r3c2"),
             Fact("ROW3", "T", "NA", CHANGE_PCT_CHANNEL, "FY", "2019", 191.0, "percent",
                  "t.pdf", "r3c5"),
             Fact("ROW1", "T", "NA", "C_AS_REPORTED", "FY", "2019", 11.0, "USD_M", "t.pdf",
                  "r1c3"),
             Fact("ROW1", "T", "NA", "C_WITHOUT_ASC_606", "FY", "2018", 9.5, "USD_M", "t.pdf",
                  "r1c4")]
    store.upsert(facts)
    return Agent(store, None, None, profile)


def test_a_row_named_in_another_word_order_is_answered(table_agent: Agent) -> None:
    r = table_agent.ask("What was net interest expense in 2019?", REF)
    assert [t["source"]["locator"] for t in r.tool_results] == ["r1c1"]


def test_a_stated_percentage_change_wins_over_a_computed_one(table_agent: Agent) -> None:
    r = table_agent.ask("What was the percentage increase in modules from 2018 to 2019?", REF)
    assert [t["source"]["locator"] for t in r.tool_results] == ["r3c5"]
    assert "191 percent" in r.answer and "not computed" in r.answer
    one_period = table_agent.ask("What is the percentage change in modules in 2019?", REF)
    assert [t["source"]["locator"] for t in one_period.tool_results] == ["r3c5"]
    # an absolute change is computed from the two stated levels, citing both
    r = table_agent.ask("What was the change in modules between 2018 and 2019?", REF)
    assert sorted(t["source"]["locator"] for t in r.tool_results) == ["r3c1", "r3c2"]
    assert "change from FY2018 to FY2019: 958 US$ m" in r.answer
    # no stated figure: the percentage is computed from the levels as before
    r = table_agent.ask("What was the percentage change in net interest expense between 2018 "
                        "and 2019?", REF)
    assert sorted(t["source"]["locator"] for t in r.tool_results) == ["r1c1", "r1c2"]


def test_change_words_inside_a_row_name_do_not_make_a_change_question(
        table_agent: Agent) -> None:
    r = table_agent.ask("What was the net increase in cash in 2019?", REF)
    assert [t["source"]["locator"] for t in r.tool_results] == ["r2c1"]


def test_periods_joined_by_and_are_not_a_list_of_metrics(table_agent: Agent) -> None:
    intent = RuleIntentParser(table_agent.profile).parse(
        "What was the change in modules between 2018 and 2019?", REF)
    assert intent.list_cue is False and intent.change_cue is True


def test_a_comma_before_how_a_figure_is_measured_is_not_a_list(table_agent: Agent) -> None:
    parse = RuleIntentParser(table_agent.profile).parse
    assert parse("What was the change in modules from 2018 to 2019, based on the location "
                 "of the customer?", REF).list_cue is False
    assert parse("What were modules, services and total in 2019?", REF).list_cue is True


def test_columns_are_channels_named_by_their_words(table_agent: Agent) -> None:
    r = table_agent.ask("What was the interest expense, net as reported in 2019?", REF)
    assert [t["source"]["locator"] for t in r.tool_results] == ["r1c3"]
    r = table_agent.ask("What was the interest expense, net without the adoption of ASC 606 "
                        "in 2019?", REF)
    assert [t["status"] for t in r.tool_results] == ["not_found"]  # never another column


def test_fuzzy_row_matches_ask_back_with_labels(table_agent: Agent) -> None:
    r = table_agent.ask("What was the effective tax rate in 2019?", REF)
    assert r.clarification.mode == "ask_first" and r.tool_results == []
    assert "Effective income tax rate (ROW4)" in r.answer
    assert r.clarification.narrowing_options == ("ROW4",)


def test_a_difference_between_two_named_columns_cites_both(table_agent: Agent) -> None:
    store = table_agent.store
    store.upsert([Fact("ROW1", "T", "NA", "C_WITHOUT_ASC_606", "FY", "2019", 10.5, "USD_M",
                       "t.pdf", "r1c5")])
    r = table_agent.ask("What is the difference between interest expense, net as reported and "
                        "without the adoption of ASC 606 in 2019?", REF)
    assert [t["source"]["locator"] for t in r.tool_results] == ["r1c3", "r1c5"]
    assert "as reported − without asc 606 adoption, FY2019: 0.5 US$ m" in r.answer
    # the same two columns without a list: which one? ask
    r = table_agent.ask("What was the interest expense, net as reported without ASC 606 "
                        "adoption in 2019?", REF)
    assert r.clarification.mode == "ask_first" and r.tool_results == []


def test_a_row_named_as_a_percentage_of_revenues_is_no_revenue(tmp_path: Path) -> None:
    # Nike's 10-K: a row "% of revenues" under "Total selling and administrative expense";
    # "What was Nike's revenue in FY2018?" was asked back between it and Revenue
    agent = csv_agent(tmp_path, {"acme_fy2018_results.csv":
                                 "(Dollars in millions),FY2018,FY2017\n"
                                 'Revenues,"36,397","34,350"\n'
                                 'Cost of sales,"20,441","19,038"\n'
                                 'Total selling and administrative expense,"11,511","10,563"\n'
                                 "% of revenues,31.6%,30.8%\n"})
    revenue = agent.ask("What was revenue in FY2018?", REF).answer
    agent.close()
    assert "Revenue, FY2018: 36,397 million" in revenue, revenue
    assert content_words("% of revenues") == {"percent", "revenue"}
    assert content_words("Gross margin %") == {"gross", "margin"}  # a trailing % is a unit
