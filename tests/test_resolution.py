"""Issue 15 item 6: which rows, columns and periods a question names, read conservatively.

Each rule runs on a small table written as a user's csv file (plus a Markdown note where
the text matters), ingested with no profile (the built-in financial profile and the
table's derived vocabulary), and asked through ``Agent.from_workspace``; the demo
workspace checks the rules leave a handwritten profile's answers alone. A row is
answered only when the question names it; a question that names it and also qualifies
it beyond what any row states is sent to the text; several rows named alike ask back;
several metrics × several periods are never answered as a grid of levels.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent, DomainProfile
from ragspine_nb.agent.reading.intent import ROUTE_NARRATIVE, RuleIntentParser
from ragspine_nb.agent.reading.intent_terms import (
    bare_label,
    part_of_year,
    unsigned_label,
    without_percent,
)
from ragspine_nb.agent.reading.unstated import unresolved_partner, unstated_words
from ragspine_nb.agent.scope.clarify import clarify_scope
from ragspine_nb.ingestion.workspace import ingest
from ragspine_nb.wordset import content_words

REF = date(2020, 1, 1)


def _agent(tmp_path: Path, table: str, notes: str = "", name: str = "table.csv") -> Agent:
    src = tmp_path / "in"
    src.mkdir(parents=True)
    (src / name).write_text(table, encoding="utf-8")
    if notes:
        (src / "notes.md").write_text(notes, encoding="utf-8")
    report = ingest(src, workspace=tmp_path / "ws", profile=None, metadata=None,
                    progress=False)
    assert report.count("failed") == 0, report.files
    return Agent.from_workspace(tmp_path / "ws")


def _figures(agent: Agent, question: str) -> list[tuple[float, str]]:
    return [(f.value, f.operation) for f in agent.ask(question, REF).figures]


def _mode(agent: Agent, question: str) -> str:
    return agent.ask(question, REF).clarification.mode


# ------------------------------------------------------------ whole names, lists
_EXPENSES = ("($ in thousands),2019,2018\n"
             "\"Selling, general and administrative expense\",\"24,371\",\"14,794\"\n"
             "\"Research, development and engineering expense\",\"7,496\",\"3,766\"\n"
             "Total operating expense,\"31,867\",\"18,560\"\n")


def test_a_label_with_commas_and_and_is_one_row_not_a_list(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _EXPENSES)
    intent = agent.parser.parse("What was the Selling, general and administrative expense "
                                "increase in 2019?", REF)
    assert not intent.list_cue
    assert _figures(agent, "What was the Selling, general and administrative expense "
                           "increase in 2019?") == [(9577.0, "difference")]
    # a real list of two whole names is still a list: one figure each
    assert _figures(agent, "What were the Selling, general and administrative expense and "
                           "the Research, development and engineering expense in 2019?") == [
        (24371.0, "lookup"), (7496.0, "lookup")]


def test_a_built_in_metric_with_no_figures_never_competes_with_a_named_row(
        tmp_path: Path) -> None:
    agent = _agent(tmp_path, _EXPENSES)
    # "operating expense" is also the built-in OPERATING_EXPENSES, which has no figure here
    assert _figures(agent, "What was the Total operating expense in 2019?") == [
        (31867.0, "lookup")]
    # one naming other words is another thing asked about: ask, never the nearest row
    agent2 = _agent(tmp_path / "b", "($ in thousands),2019,2018\nIncome tax expense,120,100\n")
    r = agent2.ask("What was the income before income tax expense in 2019?", REF)
    assert r.clarification.mode == "ask_first" and r.figures == ()
    assert set(r.clarification.narrowing_options) == {"INCOME_TAX", "PRETAX_INCOME"}


def test_what_the_rows_are_from_the_header_qualifies_them(tmp_path: Path) -> None:
    # "Operating revenues" in the header's label cell says what every row is
    agent = _agent(tmp_path, "OPERATING REVENUES,Q4 2019,Q4 2018\n"
                             "Bell Wireless,\"2,493\",\"2,407\"\nBell Media,879,850\n"
                             "Total operating revenues,\"3,372\",\"3,257\"\n")
    assert _figures(agent, "What were the operating revenues for Q4 2019 for Bell "
                           "Wireless?") == [(2493.0, "lookup")]
    assert _figures(agent, "What were the Bell Media operating revenues in Q4 2018?") == [
        (850.0, "lookup")]
    # the stub's head names the rows too: "revenue" of "Revenue from external customers"
    by_country = _agent(tmp_path / "c", ",2019,2018\n"
                                        "Revenue from external customers by country,$M,$M\n"
                                        "UK,83.2,73.5\nUSA,222.2,199.0\n")
    assert _figures(by_country, "What is the Revenue from UK in 2019?") == [(83.2, "lookup")]
    # without a stub the built-in metric and the row are two things named: ask
    plain = _agent(tmp_path / "b", "($ in millions),Q4 2019,Q4 2018\n"
                                   "Bell Wireless,\"2,493\",\"2,407\"\nBell Media,879,850\n")
    assert _mode(plain, "What were the operating revenues for Q4 2019 for Bell "
                        "Wireless?") == "ask_first"


# -------------------------------------------------------- shared words, partial totals
_DTA = ("($ in thousands),2019,2018\n"
        "Net operating losses,\"113,475\",\"61,494\"\n"
        "Other,\"151,396\",\"124,505\"\n"
        "Total deferred tax assets,\"264,871\",\"185,999\"\n"
        "Less: valuation allowance,\"(244,581)\",\"(181,122)\"\n"
        "\"Deferred tax assets, net of valuation allowance\",\"20,290\",\"4,877\"\n")


def test_a_total_named_only_in_part_is_no_reading_of_the_question(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _DTA)
    r = agent.ask("What is the valuation allowance against its deferred tax assets as of "
                  "December 31, 2019?", REF)
    assert r.figures == () and r.clarification.mode == "ask_first"
    assert r.clarification.narrowing_options == (
        "TOTAL_DEFERRED_TAX_ASSETS", "DEFERRED_TAX_ASSETS_NET_OF_VALUATION_ALLOWANCE")
    # the row's opening sign word is no part of its name
    assert _figures(agent, "What was the valuation allowance in 2019?") == [
        (-244581.0, "lookup")]
    # against the U.S. deferred tax assets: a part no row states (the text's figure)
    assert agent.ask("What is the valuation allowance against its U.S deferred tax assets "
                     "as of December 31, 2019?", REF).figures == ()


def test_a_roll_forward_is_not_read_as_total_and_part(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "(in thousands),2019,2018\nBalance at beginning of year,100,90\n"
                             "Additions,30,20\nReductions,(5),(10)\n"
                             "Balance at end of year,125,100\n")
    intent = agent.parser.parse("What were the additions to the balance in 2019?", REF)
    assert intent.read_as_part == ()
    assert agent.profile.metrics[intent.metrics[0]].parts == ()


def test_a_closing_row_is_the_level_it_closes_on(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "(in million),\"January 31, 2019\",\"January 31, 2018\"\n"
                             "\"Goodwill, beginning of the year\",\"1,769.4\",\"1,710.3\"\n"
                             "Additions arising from acquisitions,866.9,—\n"
                             "\"Goodwill, end of the year\",\"2,450.8\",\"1,620.2\"\n")
    assert _figures(agent, "What is the average ending goodwill for 2018 and 2019?") == [
        (2035.5, "average")]
    assert _figures(agent, "What was goodwill in 2019?") == [(2450.8, "lookup")]


# ------------------------------------------------------------ the text, not a row
_SOFTWARE = ("($ in thousands),2019,2018\nInternal use software,\"33,351\",\"31,565\"\n"
             "Computer equipment,\"14,689\",\"14,058\"\n")
_SOFTWARE_NOTES = ("Property and equipment\n\nThe Company capitalized $3.8 million and $6.7 "
                   "million to internal use software related to continuing operations during "
                   "2019 and 2018, respectively.\n")


def test_a_figure_qualified_beyond_any_row_goes_to_the_text(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _SOFTWARE, _SOFTWARE_NOTES)
    question = ("What was the amount capitalized to internal use software related to "
                "continuing operations in 2019?")
    intent = agent.parser.parse(question, REF)
    assert intent.metrics == ("INTERNAL_USE_SOFTWARE",)
    assert {"capitalized", "continuing", "related"} <= set(intent.unstated)
    assert intent.route == ROUTE_NARRATIVE
    r = agent.ask(question, REF)
    assert r.figures == () and "33,351" not in r.answer
    # the row named plainly is still the row
    assert _figures(agent, "What was the internal use software in 2019?") == [
        (33351.0, "lookup")]


def test_unstated_words_ignore_question_words_periods_and_known_names() -> None:
    known = content_words("Internal use software Net sales")
    assert unstated_words("what was the average change in net sales between", known) == ()
    assert unstated_words("what is the total value of year-end net sales", known) == ()
    assert unstated_words("how much did blizzard net sales increase", known) == ("blizzard",)


_FILMS = (",2019,2018,2017\nGlobal (India and International),,,\nHindi films,7,10,8\n"
          "Regional films (excluding Tamil films),49,3,12\nInternational Only,,,\n"
          "Hindi films,7,1,3\nRegional films (excluding Tamil films),1,2,4\nIndia Only,,,\n"
          "Hindi films,1,3,1\nRegional films (excluding Tamil films),5,6,5\n")


def test_rows_of_one_name_are_told_apart_by_the_section_named_best(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _FILMS)
    # only the first section's name has "global": that row is named
    assert _figures(agent, "What was the number of global regional films (excluding Tamil "
                           "films) in 2019?") == [(49.0, "lookup")]
    # no section named: the three rows are named alike, ask
    assert _mode(agent, "What was the number of regional films (excluding Tamil films) in "
                        "2019?") == "ask_first"


_INTANGIBLES = (",2019,2018\nFinite-Lived Intangible Assets,,\n"
                "Customer relationships,\"1,098.9\",\"1,191.4\"\n"
                "Underlying rights and other,1.9,2.1\nTotal,\"1,100.8\",\"1,193.5\"\n"
                "Indefinite-Lived Intangible Assets,,\nCertifications,3.5,3.5\n"
                "Underlying rights and other,14.5,15.1\nTotal,\"1,118.8\",\"1,212.1\"\n")


def test_a_word_shared_by_a_total_and_its_part_reads_neither(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "($ in millions)\n" + _INTANGIBLES)
    intent = agent.parser.parse("What was the total in 2019?", REF)
    assert intent.read_as_part == () and len(intent.metrics) == 2
    assert _mode(agent, "What was the total in 2019?") == "ask_first"
    # a section's name inside longer row names is those rows', not the section total's
    intent = agent.parser.parse("What is the net total underlying rights and other for both "
                                "finite-lived and indefinite-lived intangible assets in 2019?",
                                REF)
    assert sorted(intent.metrics) == [
        "FINITE_LIVED_INTANGIBLE_ASSETS_UNDERLYING_RIGHTS_AND_OTHER",
        "INDEFINITE_LIVED_INTANGIBLE_ASSETS_UNDERLYING_RIGHTS_AND_OTHER"]


# --------------------------------------------------------------------- columns
_RATES = ("Assumption,Domestic,International\nDiscount rate,4.0%,1.9%\n"
          "Expected return,6.5%,3.2%\n")


def test_one_of_two_named_columns_not_resolving_asks(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "Year ended December 31 2019\n" + _RATES, name="rates.csv")
    r = agent.ask("What were the domestic and European discount rates in 2019?", REF)
    assert r.figures == () and r.clarification.mode == "ask_first"
    assert [f.value for f in agent.ask("What were the domestic and international discount "
                                       "rates in 2019?", REF).figures] == [4.0, 1.9]
    assert unresolved_partner("the domestic and european rate", frozenset({"domestic"}),
                              frozenset({"domestic", "rate"})) == "european"


_VALUATION = (",External valuation %,Internal valuation %\nYear ended 30 June 2019,,\n"
              "Leasehold,23%,77%\nFreehold,38%,62%\nYear ended 30 June 2018,,\n"
              "Leasehold,60%,40%\nFreehold,27%,73%\n")


def test_a_percent_column_is_named_without_its_percent_sign(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _VALUATION)
    assert _figures(agent, "What was the leasehold external valuation in 2019?") == [
        (23.0, "lookup")]
    # the "%" belongs to the column's name: the change of a percentage is a difference
    assert _figures(agent, "What was the change in the leasehold external valuation % from "
                           "2018 to 2019?") == [(-37.0, "difference")]
    assert without_percent("external valuation percent") == "external valuation"
    assert without_percent("percentage total fees") == ""  # a share column keeps its name


_NET_SALES = (",Fiscal Year 2019,,Fiscal Year 2018,\n,Net Sales,% of Total,Net Sales,% of Total\n"
              "APAC,\"$533,340\",38.6%,\"$479,987\",40.0%\n"
              "EMEA,\"315,535\",22.8%,\"277,898\",23.1%\n"
              "Total,\"$848,875\",,\"$757,885\",\n")


def test_the_change_in_a_percentage_of_is_a_difference(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _NET_SALES)
    assert _figures(agent, "What was the change in the percentage of sales from APAC to total "
                           "net sales between 2018 and 2019?") == [(-1.4, "difference")]


_BOOKINGS = (",2019,2018,Increase (Decrease)\nNet bookings,\"$6,388\",\"$7,262\",$(874)\n"
             "In-game net bookings,\"$3,366\",\"$4,203\",$(837)\n")


def test_a_stated_change_of_the_other_kind_does_not_answer(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "(in millions)\n" + _BOOKINGS)
    # the amount column states the change in dollars; a percentage change is computed
    r = agent.ask("What was the percentage change in net bookings between 2018 and 2019?",
                  REF)
    assert [(f.value, f.operation) for f in r.figures] == [(-12.04, "percent_change")]
    # the change in dollars is the report's own
    assert _figures(agent, "What was the change in net bookings between 2018 and 2019?") == [
        (-874.0, "stated_change")]


def test_a_change_of_years_the_change_column_does_not_state_is_computed(
        tmp_path: Path) -> None:
    agent = _agent(tmp_path, "(in millions),2019,2018,2017,Variance in Dollars\n"
                             "Revenue:,,,,\nProduct,\"$39,005\",\"$36,709\",\"$35,705\",\"$2,296\"\n"
                             "Service,\"12,899\",\"12,621\",\"12,300\",278\n")
    # the column states 2019's change; 2017 to 2018 comes from the two levels
    assert _figures(agent, "What was the change in service revenue between 2017 and "
                           "2018?") == [(321.0, "difference")]
    assert _figures(agent, "What was the change in service between 2018 and 2019?") == [
        (278.0, "stated_change")]


_INTEREST = (",Year Ended May 31,,,\n,,Percent Change,,\n(Dollars in millions),2019,Actual,"
             "Constant,2018\nInterest expense,\"$2,082\",3%,3%,\"$2,025\"\n")


def test_two_stated_change_columns_named_are_read_not_compared(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _INTEREST)
    intent = agent.parser.parse("How much was the actual and constant percentage change in "
                                "interest expense?", REF)
    assert len(intent.channels) == 2 and not intent.change_cue
    assert _figures(agent, "How much was the actual and constant percentage change in "
                           "interest expense in 2019?") == [(3.0, "lookup"), (3.0, "lookup")]


def test_a_name_is_read_without_its_nested_notes_and_sign_word() -> None:
    assert bare_label("Carrying amount (non-current (liabilities)/assets)") == "Carrying amount"
    assert unsigned_label("Less: valuation allowance") == "valuation allowance"
    assert unsigned_label("Lessor income") == ""


_SWAPS = ("2019,2018\n,RMB'Million,RMB'Million\nInterest rate swaps,,\n"
          "Carrying amount (non-current (liabilities)/assets),(494),\"1,663\"\n"
          "Notional amount,\"29,423\",\"77,630\"\n")


def test_a_row_with_nested_notes_is_named_without_them(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "," + _SWAPS)
    assert _figures(agent, "What is the 2019 carrying amount of interest rate swaps?") == [
        (-494.0, "lookup")]


# ------------------------------------------------------------------ grids of levels
_EMISSIONS = (",2019,2018\nCombustion of fuel and operation of facilities (Scope 1),144.7,137.2\n"
              "\"Electricity, heat, steam and cooling purchased for own use (Scope 2)\","
              "\"4,641.0\",\"4,950.4\"\nTotal emissions,\"4,785.7\",\"5,087.6\"\n")


def test_a_change_of_several_rows_without_two_periods_asks(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _EMISSIONS)
    r = agent.ask("What is the percentage change in the total amount of emissions from "
                  "Combustion of fuel and operation of facilities and Electricity, heat, steam "
                  "and cooling purchased for own use?", REF)
    assert r.figures == () and r.clarification.mode == "ask_first"
    # with the two periods named, each row's change is answered
    assert len(agent.ask("What was the change in Combustion of fuel and operation of "
                         "facilities and Electricity, heat, steam and cooling purchased for own "
                         "use from 2018 to 2019?", REF).figures) == 2


def test_several_rows_over_several_periods_are_no_grid_of_levels(tmp_path: Path) -> None:
    agent = _agent(tmp_path, _EXPENSES)
    assert agent.ask("What were the Selling, general and administrative expense and the "
                     "Research, development and engineering expense in 2019 and 2018?",
                     REF).figures == ()


def test_an_operation_combining_the_rows_lets_a_change_of_several_through() -> None:
    profile = DomainProfile.builtin()
    intent = RuleIntentParser(profile).parse("What was the change in revenue and cost of "
                                             "sales in 2019?", REF)
    assert clarify_scope(intent, REF, profile=profile).mode == "ask_first"

    class Sum:
        kind = "sum"

    assert clarify_scope(intent, REF, profile=profile, operation=Sum()).mode != "ask_first"


def test_a_quarter_named_without_its_year_is_never_read_as_a_year(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "(in thousands),2019,2018\nRevenues,\"363,800\",\"365,912\"\n")
    r = agent.ask("What is the change in revenues between the second and first quarter in the "
                  "fiscal year 2019?", REF)
    # the quarters of the year named, which this table does not state: never its years
    assert r.figures == ()
    assert "Revenue, 2019Q2 and the company Revenue, 2019Q1 are not in the fact store" \
        in r.answer
    r = agent.ask("What is the change in revenues between the second and first quarter?", REF)
    assert r.figures == () and r.clarification.mode == "ask_first"
    assert "second and first quarter" in r.answer
    # quarters that name rows are rows ("In 2019, … between the third quarter and fourth")
    assert part_of_year("between the third quarter and fourth quarter",
                        frozenset({"third", "fourth", "quarter"})) == ""


# ------------------------------------------------------------------------ the demo
@pytest.fixture(scope="module")
def demo(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


def test_the_demo_answers_are_unchanged_by_the_rules(demo: Agent) -> None:
    r = demo.ask("What was ACME Hong Kong's revenue in FY2025?", date(2026, 3, 31))
    assert [(f.value, f.operation) for f in r.figures] == [(1405.0, "lookup")]
    r = demo.ask("What was the change in ACME Hong Kong's revenue from FY2024 to FY2025?",
                 date(2026, 3, 31))
    assert [(f.value, f.operation) for f in r.figures] == [(85.0, "difference")]


def test_a_misspelled_metric_word_is_no_unstated_qualifier(demo: Agent) -> None:
    r = demo.ask("What was the opertaing proft margin in FY2025?", date(2026, 3, 31))
    assert r.clarification.mode == "ask_first" and r.figures == ()
    assert r.clarification.narrowing_options == ("OPERATING_PROFIT",)
    assert "Closest: Operating profit" in r.answer


def test_a_part_the_prose_names_is_answered_from_the_prose_not_the_table_row(
        tmp_path: Path) -> None:
    table = ("(amounts in millions),2019,2018\nNet bookings,\"6,388\",\"7,262\"\n"
             "In-game net bookings,\"3,366\",\"4,203\"\n")
    notes = ("Net bookings\n\nThe decrease in net bookings for 2019 was primarily due to:\n\n"
             "a $572 million decrease in Blizzard net bookings driven by lower sales;\n\n"
             "a $239 million decrease in Activision net bookings.\n")
    agent = _agent(tmp_path, table, notes)
    r = agent.ask("What was the decrease in Blizzard net bookings for 2019, as compared to "
                  "2018?", REF)
    # the table's total change (-874) is not Blizzard's: no table figure, the prose quoted
    assert r.figures == () and "$572 million decrease in Blizzard" in r.answer
    assert r.trace["qualified_in_prose"] == "blizzard net bookings"
    # the whole company's change is still the table's
    whole = agent.ask("What was the change in net bookings from 2018 to 2019?", REF)
    assert [(f.value, f.unit) for f in whole.figures] == [(-874.0, "M")]


def test_a_span_named_by_its_number_asks_which_column_never_the_total(tmp_path: Path) -> None:
    table = ("(in thousands),Up to 1 year,1 to 3 years,3 to 5 years,More than 5 years,Total\n"
             "Purchase obligations,\"55,755\",\"16,220\",\"7,595\",\"17,649\",\"97,219\"\n")
    agent = _agent(tmp_path, table, "The following summarizes our contractual obligations as "
                   "of December 31, 2019:\n")
    # a span the buckets do not cover exactly (the buckets covering one are summed:
    # tests/test_bucket_window.py)
    r = agent.ask("What are the purchase obligations that are due within 4 years?", REF)
    assert r.figures == () and r.clarification.mode == "ask_first"
    assert "3 and 5 years (C_3_5)" in r.answer and "(C_MORE_THAN_5_YEARS)" in r.answer
    assert "97,219" not in r.answer
    named = agent.ask("What are the purchase obligations due in 3 to 5 years?", REF)
    assert [f.value for f in named.figures] == [7595.0]
