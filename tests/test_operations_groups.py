"""Operations over a table's groups: shares asked for several years, parts of a built-in
total ("revenue from software maintenance"), the whole named beside its part, and
percentage changes of two negative amounts.

Each table is a CSV ingested with no profile, as a user's file; every expectation is the
figure an analyst would compute by hand from the cells, with its derivation.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from tests.tablehelpers import csv_agent

REF = date(2020, 1, 1)
SEGMENTS = """\
(In millions),,,
,2019,2018,2017
Revenue:,,,
License,"3,181","3,042","2,628"
Subscription,"1,877","1,303",927
Total license and subscription,"5,058","4,345","3,555"
Services:,,,
Software maintenance,"4,754","4,351","3,919"
Professional services,999,917,862
Total services,"5,753","5,268","4,781"
Total revenue,"10,811","9,613","8,336"
Cost of revenue,"2,162","2,115","1,834"
Valuation allowance,"(19,911)","(15,916)","(14,002)"
Net income (loss),542,(762),120
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return csv_agent(tmp_path_factory.mktemp("groups"), {"table.csv": SEGMENTS})


def test_a_row_named_with_the_builtin_total_it_sums_into_is_that_row(agent: Agent) -> None:
    # before: "Which of these do you mean: Revenue; Software maintenance?" — the table's
    # "Total revenue" (the built-in revenue) is checked to sum its sections on the figures
    r = agent.ask("What was the change in revenue from software maintenance between 2018 "
                  "and 2019?", REF)
    (fig,) = r.figures
    assert (fig.value, fig.unit, fig.derivation) == (403.0, "M", "(4,754 − 4,351) = 403")
    assert r.answer.startswith("(Assuming the question asks for Software maintenance")
    assert "part of Revenue" in r.answer


def test_a_row_beside_a_builtin_metric_it_is_no_part_of_is_asked_back(agent: Agent) -> None:
    r = agent.ask("What was the change in cost of revenue from software maintenance between "
                  "2018 and 2019?", REF)
    assert r.figures == ()


def test_the_whole_named_beside_the_part_on_the_numerator_side(agent: Agent) -> None:
    r = agent.ask("How much is the 2019 revenue from total services as a percentage of the "
                  "2019 total revenue?", REF)
    (fig,) = r.figures
    assert fig.derivation == "5,753 / 10,811 × 100 = 53.21%"


def test_a_share_asked_for_two_years_is_one_figure_per_year(agent: Agent) -> None:
    r = agent.ask("What are the respective proportions of cost of revenue as a percentage of "
                  "total revenue in 2018 and 2019?", REF)
    assert [(f.operation, f.derivation) for f in r.figures] == [
        ("share", "2,115 / 9,613 × 100 = 22%"), ("share", "2,162 / 10,811 × 100 = 20%")]
    assert [f.label.rsplit(", ", 1)[1] for f in r.figures] == ["FY2018", "FY2019"]
    assert [f.operands[0].source_locator for f in r.figures] == ["cell=C12", "cell=B12"]


def test_the_average_proportion_over_two_years_is_the_mean_of_the_yearly_shares(
        agent: Agent) -> None:
    r = agent.ask("What is the average proportion of cost of revenue as a percentage of total "
                  "revenue in 2018 and 2019?", REF)
    (fig,) = r.figures
    yearly = [2115 / 9613 * 100, 2162 / 10811 * 100]
    assert fig.operation == "average" and fig.unit == "PCT"
    assert fig.value == pytest.approx(sum(yearly) / 2)
    assert fig.derivation == "(22 + 20) / 2 = 21%"
    assert fig.label.endswith("average of FY2018 and FY2019")
    assert len(fig.operands) == 4


def test_a_sum_of_shares_is_not_computed(agent: Agent) -> None:
    r = agent.ask("What is the total proportion of cost of revenue as a percentage of total "
                  "revenue in 2018 and 2019?", REF)
    assert r.figures == ()


def test_an_average_proportion_of_one_year_is_refused(agent: Agent) -> None:
    r = agent.ask("What is the average proportion of cost of revenue as a percentage of total "
                  "revenue in 2019?", REF)
    assert r.figures == ()


def test_a_percentage_change_of_two_negative_amounts_is_the_change_in_size(
        agent: Agent) -> None:
    r = agent.ask("What is the percentage change in the valuation allowance from 2018 to "
                  "2019?", REF)
    (fig,) = r.figures
    assert fig.value == 25.1  # as a percentage change is kept: to 2 places
    assert fig.derivation == "both negative, in size: (19,911 − 15,916) / 15,916 = 25.1%"


def test_a_percentage_change_from_a_negative_to_a_positive_is_refused(agent: Agent) -> None:
    r = agent.ask("What was the percentage change in net income (loss) between 2018 and "
                  "2019?", REF)
    assert r.figures == ()
    assert "the base value is negative (-762)" in r.answer


def test_a_lookup_over_a_written_range_lists_every_year_in_it(agent: Agent) -> None:
    # before: "for fiscal years 2019 to 2017 respectively" gave 2019 and 2017 only
    r = agent.ask("What is the total revenue for fiscal years 2019 to 2017 respectively?", REF)
    assert [(f.value, f.operands[0].period) for f in r.figures] == [
        (10811.0, "2019"), (9613.0, "2018"), (8336.0, "2017")]


def test_a_change_over_a_written_range_stays_between_its_ends(agent: Agent) -> None:
    r = agent.ask("What was the change in total revenue from 2017 to 2019?", REF)
    (fig,) = r.figures
    assert fig.derivation == "(10,811 − 8,336) = 2,475"


def test_a_change_asked_in_units_of_percents_is_a_percentage_change(agent: Agent) -> None:
    r = agent.ask("What is the year-over-year change in total revenue from FY2018 to FY2019 "
                  "(in units of percents and round to one decimal place)?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.derivation) == (
        "percent_change", "(10,811 − 9,613) / 9,613 = 12.46%")


def test_a_row_named_only_total_change_is_not_named_by_the_word_change(
        tmp_path: Path) -> None:
    # before: "change in operating income" also named the row "Total change" (ask-back)
    a = csv_agent(tmp_path, {"table.csv": "(In millions),,\n,2019,2018\nOperating income,"
                                          "\"1,494\",903\nForeign currency,12,(3)\nOther,(4),5\n"
                                          "Total change,8,2\n"})
    r = a.ask("What was the change in operating income from 2018 to 2019?", REF)
    assert [f.derivation for f in r.figures] == ["(1,494 − 903) = 591"]
    (total,) = a.ask("What was the total change in 2019?", REF).figures
    assert total.value == 8.0


def test_a_share_over_a_written_range_of_years_takes_every_year_in_it(agent: Agent) -> None:
    # "from FY2017 to FY2019" is three years, never its two ends
    r = agent.ask("What is the three year average of cost of revenue as a % of total revenue "
                  "from FY2017 to FY2019?", REF)
    (fig,) = r.figures
    yearly = [1834 / 8336 * 100, 2115 / 9613 * 100, 2162 / 10811 * 100]
    assert fig.value == pytest.approx(sum(yearly) / 3)
    assert fig.label.endswith("average of FY2017, FY2018 and FY2019")
    each = agent.ask("What is cost of revenue as a percentage of total revenue from 2017 to "
                     "2019?", REF)
    assert [f.operands[0].period for f in each.figures] == ["2017", "2018", "2019"]


# ------------------------------------------------- a year's average, a name with a note
_FCF = """\
,2019,2018,2017
,€m,€m,€m
Operating free cash flow,"7,071","7,001","5,627"
Free cash flow (pre-spectrum),"5,443","5,417","4,056"
Licence and spectrum payments,(837),"(1,123)",(474)
Free cash flow,"4,411","4,044","3,316"
"""


@pytest.fixture(scope="module")
def fcf(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return csv_agent(tmp_path_factory.mktemp("fcf"), {"table.csv": _FCF})


def test_the_row_named_without_a_note_keeps_the_built_in_name(fcf: Agent) -> None:
    r = fcf.ask("How much is the 2019 free cash flow?", REF)
    assert [(f.value, f.operation) for f in r.figures] == [(4411.0, "lookup")]
    assert r.figures[0].sources[0].locator == "cell=B6"
    assert [f.value for f in fcf.ask("What was the free cash flow (pre-spectrum) in 2018?",
                                     REF).figures] == [5417.0]


def test_a_years_average_is_that_of_its_opening_and_closing_balances(fcf: Agent) -> None:
    r = fcf.ask("What is the 2019 average free cash flow?", REF)
    assert [(f.value, f.operation) for f in r.figures] == [(4227.5, "average")]
    assert "average of FY2019 and FY2018" in r.answer
    assert "(4,411 + 4,044) / 2" in r.answer
    # an average over years named is over those years only
    assert [f.value for f in fcf.ask("What is the average free cash flow in 2019 and 2017?",
                                     REF).figures] == [3863.5]
    # one year's average with no year before it in the table: no figure
    assert fcf.ask("What is the 2017 average free cash flow?", REF).figures == ()
