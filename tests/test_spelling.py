"""A misspelt word of a question is read as the word it is one letter from, and said so.

On TAT-QA dev with the longest word of each question misspelt (`bench/rewrites.py --only
misspelt`), the previous release gave 76 wrong numbers on the held-out half where the
questions as written gave 11: "percentge change" answered the change in units,
"activites" the cash balance, "underlyng EBITDA" EBITDA. A table ingested as a user's
CSV, asked with those typos: the figure asked, the reading said, and no wrong number.
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.filings import tables_agent

TABLE = """,2019,2018,2017
Net cash provided by operating activities,"115,549","90,253","67,510"
Net cash used in investing activities,"(97,727)","(20,876)","(36,666)"
Net cash provided by (used in) financing activities,"14,775","(278,016)","276,852"
Cash and cash equivalents at end of year,"120,000","87,403","296,042"
EBITDA,"79,046","62,575","50,100"
Underlying EBITDA,"85,123","63,954","51,000"
"""
ON = date(2020, 3, 1)


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    a = tables_agent(tmp_path_factory.mktemp("spelling"), {"cash.csv": TABLE})
    yield a
    a.close()


def test_a_misspelt_operation_is_the_operation(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was the percentge change in net cash provided by operating "
                  "activities from 2018 to 2019?", ON)
    assert [round(f.value, 2) for f in r.figures] == [28.03], r.answer
    assert r.answer.startswith("(Read 'percentge' as 'percentage'.)")
    assert "(115,549 − 90,253) / 90,253 = 28.03%" in r.answer


def test_a_misspelt_row_word_is_no_other_row(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was the net cash provided by financing activites in 2019?", ON)
    assert [f.value for f in r.figures] == [14775.0], r.answer
    assert "(Read 'activites' as 'activities'.)" in r.answer and "cell=B4" in r.answer


def test_a_misspelt_qualifier_is_kept(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was the underlyng EBITDA in 2019?", ON)
    assert [f.value for f in r.figures] == [85123.0], r.answer
    assert "(Read 'underlyng' as 'underlying'.)" in r.answer


def test_the_note_speaks_chinese(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("2019年的underlyng EBITDA是多少？", ON)
    assert [f.value for f in r.figures] == [85123.0], r.answer
    assert r.answer.startswith("（将“underlyng”读作“underlying”）")


def test_words_as_written_are_not_respelt(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was the underlying EBITDA in 2019?", ON)
    assert [f.value for f in r.figures] == [85123.0]
    assert "Read" not in r.answer
    assert agent.parser.speller.respell("How many franchise restaurants were acquired "
                                        "in 2017?").fixed == ()


@pytest.mark.parametrize("question", [
    "What was the net cash provided by financing actvts in 2019?",  # too short to respell
    "What was net cash provided by financing in 2019?",  # the row's last word left out
])
def test_a_short_name_outnamed_asks_back(agent, question: str) -> None:  # type: ignore[no-untyped-def]
    """"cash" names "Cash and cash equivalents" while the question shares more words with
    the financing row: both are offered, the cash balance (120,000) is never answered."""
    r = agent.ask(question, ON)
    assert not r.figures and "120,000" not in r.answer
    assert r.answer.startswith("Which of these do you mean: Cash and cash equivalents (CASH); "
                               "Net cash from financing activities (FINANCING_CASH_FLOW)?")


RESTRUCTURING = """,2019,2018
Restructuring charges,120,95
Revenue,"1,000",900
"""


@pytest.fixture(scope="module")
def charges(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    a = tables_agent(tmp_path_factory.mktemp("charges"), {"t.csv": RESTRUCTURING})
    yield a
    a.close()


@pytest.mark.parametrize("question, ask", [
    ("What was the chage in revenue from 2018 to 2019?",
     "Which word do you mean by 'chage': 'change' or 'charge'? Please ask again with it."),
    ("What were the restructuring chages in 2019?",
     "Which metric do you mean? Closest: Restructuring charges (RESTRUCTURING_CHARGES)"),
    ("2019年restructuring chages是多少？",
     "请问您指的是哪个指标？最接近的：Restructuring charges (RESTRUCTURING_CHARGES)"),
])
def test_a_word_near_two_asks_which(charges, question: str, ask: str) -> None:  # type: ignore[no-untyped-def]
    """Before, "chage in revenue" answered revenue's level (1,000) for a change; a row
    named by no word but the misspelt one is offered as the closest (asked already)."""
    r = charges.ask(question, ON)
    assert not r.figures and r.answer == ask


def test_a_short_operation_word_is_read(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was the chage in EBITDA from 2018 to 2019?", ON)
    assert [f.value for f in r.figures] == [16471.0], r.answer
    assert r.answer.startswith("(Read 'chage' as 'change'.)")


def test_numbers_and_function_words_are_words(agent) -> None:  # type: ignore[no-untyped-def]
    """"three years ago" was read "there years ago" (one letter swapped): no year asked."""
    for q in ("What was EBITDA three years ago?", "What was EBITDA there in 2019?"):
        assert agent.parser.speller.respell(q).fixed == (), q


def test_a_word_the_reports_write_is_no_typo(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """"charge" is one letter from "change"; the notes write it, so it is read as written
    (it had been read "change" and asked for two periods)."""
    a = tables_agent(tmp_path, {"t.csv": ",2019,2018\nRevenue,\"1,000\",900\n",
                                "notes.md": "The goodwill impairment charge was recorded in "
                                            "the fourth quarter.\n"})
    assert a.parser.speller.respell("What was the impairment charge in 2019?").fixed == ()
    assert a.parser.speller.respell("What was the chnge in revenue?").fixed == (
        ("chnge", "change"),)
    a.close()


def test_a_short_name_word_misspelt_is_asked_about(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A name word of five or six letters misspelt is asked about, never read as it: "the
    other incme, net of expenses" had compared two rows it half named."""
    a = tables_agent(tmp_path, {"t.csv": ',2019,2018\n"Other, net",(1),3\n'
                                         '"Other income and expenses, net",55,40\n'})
    r = a.ask("What was the other incme, net of expenses in 2019?", ON)
    assert not r.figures
    assert r.answer == "Do you mean 'income' by 'incme'? Please ask again with it."
    a.close()


@pytest.mark.parametrize("question", [
    "What was Rivalis revenue in FY2025?",
    "What was the percentge change in Rivalis revenue from FY2024 to FY2025?",
    "RIVALIS 2025年营业收入的percentge change是多少？",
])
def test_a_question_naming_a_competitor_is_refused_as_written(demo_ws, question: str
                                                              ) -> None:  # type: ignore[no-untyped-def]
    """Respelling runs after the gate: a competitor named is refused, nothing respelt."""
    from ragspine_nb import Agent

    r = Agent.from_workspace(demo_ws).ask(question, date(2026, 3, 31))
    assert r.clarification.mode == "out_of_scope_entity" and not r.figures, r.answer
    assert "Read '" not in r.answer


OTHER = """,2019,2018,2017
Interest income,12,10,9
"Other, net",-3,2,-1
Net income,410,380,350
"Other income and expenses, net",61,58,55
"""
RATES = """,Domestic,,International,
,2019,2018,2019,2018
Discount rate,4.00%,3.75%,1.90%,2.80%
"""
PLANS = """# Pension plans

For domestic plans, the discount rate was determined by comparison against a pension
liability index for AA rated corporate instruments.
"""


def test_two_forms_of_one_word_are_that_word(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """"expenes" is one letter from "expense" and "expenses": one word, not two readings.

    The previous release read no word for it and answered a comparison of "Other, net"
    and "Net income" (found with ``bench/rewrites.py --only misspelt --list`` on tune).
    """
    a = tables_agent(tmp_path, {"other.csv": OTHER, "plans.md": PLANS,
                                "rates.csv": RATES})
    try:
        r = a.ask("What was the other income, net of expenes in 2017?", ON)
        t = a.ask("How is the discount rate for domestic plans determied?", ON)
    finally:
        a.close()
    assert [f.value for f in r.figures] == [55.0], r.answer
    assert r.answer.startswith("(Read 'expenes' as 'expenses'.)")
    # a word the reports write is a word a long misspelling may be read as
    assert not t.figures and "determined by comparison" in t.answer, t.answer
