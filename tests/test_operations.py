"""Issue 15 item 4: operations computed over cited cells, or refused with the inputs found.

A small CSV table ingested with no profile (as a user's file) and the demo workspace:
averages over listed periods and ranges, sums ("total … in 2018 and 2019", "across all 3
years"), ratios and shares, counts against a stated amount, which-year questions (named
as text, no figure), refusals that list the inputs found — never a level or one operand
as the answer to an operation, never a cross product of rows and periods.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.compute.operation_plan import PlanContext, plan_operation
from ragspine_nb.agent.compute.operations import (
    NotComputed,
    Operation,
    aggregate,
    ratio,
)
from ragspine_nb.agent.compute.operations_over import count_passing, pick_extreme
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.reading.cue_text import cue_text
from ragspine_nb.agent.reading.intent import RuleIntentParser
from ragspine_nb.agent.reading.operation_cues import (
    period_range,
    ratio_split,
    threshold,
    years_count,
)
from ragspine_nb.agent.reading.operation_detect import detect_operation
from ragspine_nb.agent.scope.clarify import ClarificationResult
from ragspine_nb.agent.write.answer import render_figures
from ragspine_nb.agent.write.answer_ops import cross_refusal
from ragspine_nb.core import Fact, Source
from ragspine_nb.errors import InvalidRecordError
from ragspine_nb.glossary import fold
from ragspine_nb.ingestion.workspace import ingest

REF = date(2020, 1, 1)
TABLE = """\
"(In thousands, except per share data)",,,
,2019,2018,2017
Revenue,"1,500","1,200","1,100"
Cost of sales,900,800,700
Gross profit,600,400,400
Prepaid expenses,"2,303","1,800","1,700"
Deposits,193,147,150
Total prepaid expenses and other,"2,496","1,947","1,850"
Dividend yield,1.7%,1.5%,1.5%
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    root = tmp_path_factory.mktemp("ops")
    files = root / "files"
    files.mkdir()
    (files / "table.csv").write_text(TABLE, encoding="utf-8")
    ingest(files, workspace=root / "ws", profile=None, metadata=None, progress=False)
    return Agent.from_workspace(Path(root / "ws"))


def _cells(figure_sources: tuple[Source, ...]) -> list[str]:
    return [s.locator for s in figure_sources]


# ---------------------------------------------------------------- averages, sums
def test_an_average_over_a_range_takes_every_year_in_it(agent: Agent) -> None:
    # before: the two named years' levels were the answer (operand)
    r = agent.ask("What is the average revenue from 2017 to 2019?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.unit) == ("average", "K")
    assert fig.value == pytest.approx(3800 / 3)
    assert fig.label == "the company Revenue, average of FY2019, FY2018 and FY2017"
    assert fig.derivation == "(1,500 + 1,200 + 1,100) / 3 = 1,266.67"
    assert _cells(fig.sources) == ["cell=B3", "cell=C3", "cell=D3"]
    assert r.answer == render_figures(r.figures, "en")
    assert "1,266.67 thousand (source: table.csv)" in r.answer


def test_an_average_of_two_listed_years_of_a_percentage(agent: Agent) -> None:
    r = agent.ask("What is the average dividend yield for 2018 and 2019?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit) == ("average", 1.6, "PCT")
    assert fig.derivation == "(1.5 + 1.7) / 2 = 1.6"


def test_a_total_over_two_years_is_their_sum(agent: Agent) -> None:
    r = agent.ask("What was the total gross profit in 2018 and 2019?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit, fig.derivation) == (
        "sum", 1000.0, "K", "400 + 600 = 1,000")


def test_a_sum_across_all_3_years_with_no_year_named(agent: Agent) -> None:
    r = agent.ask("What is the total cost of sales across all 3 years?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value) == ("sum", 2400.0)
    assert "(Assuming" not in r.answer  # the operation chose its years; none was assumed


def test_a_sum_of_listed_rows(agent: Agent) -> None:
    r = agent.ask("What is the sum of prepaid expenses and deposits in 2019?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.derivation) == ("sum", 2496.0, "2,303 + 193 = 2,496")


def test_a_total_naming_one_cell_is_its_level(agent: Agent) -> None:
    r = agent.ask("What was the total revenue in 2019?", REF)
    assert [(f.operation, f.value) for f in r.figures] == [("lookup", 1500.0)]


def test_an_average_naming_no_period_takes_every_period_reported(agent: Agent) -> None:
    # before: the assumed year's level was the answer to "the average"
    r = agent.ask("What is the average revenue?", REF)
    (fig,) = r.figures
    assert fig.label == "the company Revenue, average of FY2019, FY2018 and FY2017"
    assert "(Assuming" not in r.answer


def test_a_sum_naming_no_period_is_refused(agent: Agent) -> None:
    r = agent.ask("What is the sum of revenue?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Sum not computed: the question does not say which periods "
                               "to take the sum over")


def test_an_average_with_a_year_missing_lists_the_inputs_found(agent: Agent) -> None:
    r = agent.ask("What is the average revenue from 2016 to 2018?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Average not computed: the company Revenue, FY2016 is "
                               "not in the fact store; no estimate is given.")
    assert ("Input found: the company Revenue, FY2018: 1,200 thousand (source: table.csv · cell=C3)"
            in r.answer)


# ---------------------------------------------------------------- ratios, shares
def test_a_ratio_of_two_rows_is_a_plain_number(agent: Agent) -> None:
    r = agent.ask("What is the ratio of cost of sales to revenue in 2019?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit) == ("ratio", 0.6, "")
    assert fig.derivation == "900 / 1,500 = 0.6"
    assert [f.metric_code for f in fig.operands] == ["COST_OF_REVENUE", "REVENUE"]
    assert "(scale not stated)" not in r.answer


def test_a_small_ratio_keeps_two_significant_digits(agent: Agent) -> None:
    """193 / 2,496 is 0.077, never "0.08"; 193 / 1,500 as a percentage 12.87% as before."""
    r = agent.ask("What is the ratio of deposits to total prepaid expenses and other in "
                  "2019?", REF)
    (fig,) = r.figures
    assert fig.derivation == "193 / 2,496 = 0.077", r.answer
    assert ": 0.077 (source: table.csv)" in r.answer
    r = agent.ask("What was deposits as a percentage of revenue in 2019?", REF)
    assert r.figures[0].derivation == "193 / 1,500 × 100 = 12.87%", r.answer


@pytest.mark.parametrize("question", [
    "In 2019, what percentage of total prepaid expenses and other is made up of prepaid "
    "expenses?",
    "What was prepaid expenses as a percentage of total prepaid expenses and other in 2019?",
    "In 2019, what is the percentage constitution of prepaid expenses among the total "
    "prepaid expenses and other?",
])
def test_a_share_is_a_percentage_of_the_whole(agent: Agent, question: str) -> None:
    # before: both levels were asserted (operand)
    r = agent.ask(question, REF)
    (fig,) = r.figures
    assert (fig.operation, fig.unit) == ("share", "PCT")
    assert fig.value == pytest.approx(2303 / 2496 * 100)
    assert fig.derivation == "2,303 / 2,496 × 100 = 92.27%"
    assert fig.label == ("the company Prepaid expenses as a percentage of Total prepaid "
                         "expenses and other, FY2019")


def test_a_share_of_two_parts_over_the_whole_sums_the_parts(agent: Agent) -> None:
    r = agent.ask("What is the percentage of prepaid expenses and deposits over total "
                  "prepaid expenses and other in 2019?", REF)
    (fig,) = r.figures
    assert fig.derivation == "(2,303 + 193) / 2,496 × 100 = 100%"


def test_a_share_of_a_column_over_a_total_naming_no_column_is_refused(tmp_path: Path) -> None:
    # the total in the same column, or the whole total? Both readings are common: no pick
    files = tmp_path / "files"
    files.mkdir()
    (files / "table.csv").write_text(
        "(In thousands),,,\n,Payments due as of December 31 2019,,\n"
        ",Total,Less than 1 year,1-3 years\nOperating leases,900,300,600\n"
        "Purchase obligations,\"1,100\",700,400\nTotal contractual obligations,\"2,000\","
        "\"1,000\",\"1,000\"\n", encoding="utf-8")
    ingest(files, workspace=tmp_path / "ws", profile=None, metadata=None, progress=False)
    a = Agent.from_workspace(tmp_path / "ws")
    cell = a.ask("What were operating leases due in less than 1 year in 2019?", REF)
    assert [f.value for f in cell.figures] == [300.0]  # the cells are there
    r = a.ask("What is the value of operating leases due in less than 1 year as a percentage "
              "of the total contractual obligations in 2019?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Percentage not computed: what is divided by what could not "
                               "be identified")


def test_a_year_over_year_share_of_one_row(agent: Agent) -> None:
    r = agent.ask("What is the 2019 revenue expressed as a percentage of 2018 revenue?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.derivation) == ("share", "1,500 / 1,200 × 100 = 125%")


# ---------------------------------------------------------------- counts, which year
def test_a_count_of_years_above_a_stated_amount(agent: Agent) -> None:
    # before: one level was the answer to "how many years"
    r = agent.ask("How many years did revenue exceed $1,150 thousand?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit) == ("count", 2.0, "")
    assert fig.derivation == "FY2019 1,500 yes; FY2018 1,200 yes; FY2017 1,100 no → 2"
    assert len(fig.operands) == 3


def test_a_count_compares_in_base_units(agent: Agent) -> None:
    r = agent.ask("How many years did revenue exceed $1.15 million?", REF)
    assert [f.value for f in r.figures] == [2.0]


def test_a_count_against_an_amount_with_no_scale_is_refused(agent: Agent) -> None:
    r = agent.ask("How many years did revenue exceed 1,150?", REF)
    assert r.figures == ()
    assert "cannot be compared with figures stated in K" in r.answer


def test_which_year_passes_a_test_is_named_as_text(agent: Agent) -> None:
    r = agent.ask("In which year was revenue less than 1.2 million?", REF)
    assert r.figures == ()
    assert r.answer.startswith("FY2017: the company Revenue is less than 1.2 million there "
                               "(of FY2019, FY2018 and FY2017).")


def test_which_year_with_equal_values_is_a_tie_not_a_pick(agent: Agent) -> None:
    r = agent.ask("In which year was gross profit the lowest?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Comparison not computed: two or more values are equal (400).")


@pytest.mark.parametrize(("question", "head"), [
    ("Which was higher in 2019, revenue or cost of sales?",
     "Revenue: the highest of the 2 compared (the company, FY2019)."),
    ("2019年营业收入和营业成本哪个更高？", "Revenue：在所比较的2项中最高（the company, FY2019）。"),
])
def test_which_of_two_named_rows_is_higher(agent: Agent, question: str, head: str) -> None:
    # before: an ask-back (two rows named without a list) or both levels as figures
    r = agent.ask(question, REF)
    assert r.figures == ()
    assert head in r.answer.split("\n")[0]


def test_which_years_a_row_is_reported_for(agent: Agent) -> None:
    r = agent.ask("In which years was gross profit reported?", REF)
    assert r.figures == ()
    assert r.answer.startswith("the company Gross profit is reported for FY2019, FY2018 and "
                               "FY2017.")


def test_how_many_items_that_no_list_names_is_refused(agent: Agent) -> None:
    # before: the row's level answered "how many <items>"
    r = agent.ask("How many customers make up revenue in 2019?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Count not computed: the items to count are not identified")


@pytest.mark.parametrize(("question", "said"), [
    ("What is the change in the average revenue between 2017-2018 and 2018-2019?",
     "Average not computed: the average of changes or of other computed figures"),
    ("What was the sum of the differences between revenue and cost of sales for 2018 and "
     "2019?", "Sum not computed: the sum of changes or of other computed figures"),
])
def test_an_operation_of_operations_is_named_and_refused(agent: Agent, question: str,
                                                         said: str) -> None:
    r = agent.ask(question, REF)
    assert r.figures == ()
    assert said in r.answer


def test_the_average_difference_between_two_rows_is_computed(agent: Agent) -> None:
    # the mean of the yearly differences is the difference of the means: one number
    r = agent.ask("What was the average difference between revenue and cost of sales for "
                  "2018 and 2019?", REF)
    assert [(f.operation, f.value) for f in r.figures] == [("average", 500.0)]
    assert " = 500" in r.answer and len(r.figures[0].operands) == 4


# ---------------------------------------------------------------- change of a change
def test_a_change_in_the_percentage_change_over_two_consecutive_years(agent: Agent) -> None:
    r = agent.ask("What was the change in the percentage change of revenue between 2018 and "
                  "2019?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit) == ("change_of_change", 15.91, "PCT")
    assert fig.derivation == ("[(1,500 − 1,200) / 1,200 = 25%] − [(1,200 − 1,100) / 1,100 = "
                              "9.09%] = 15.91 percentage points")
    assert [f.period for f in fig.operands] == ["2019", "2018", "2017"]


def test_a_difference_between_the_changes(agent: Agent) -> None:
    r = agent.ask("What is the difference between the changes in revenue in 2018 and 2019?",
                  REF)
    assert [(f.operation, f.value, f.derivation) for f in r.figures] == [
        ("change_of_change", 200.0, "[(1,500 − 1,200) = 300] − [(1,200 − 1,100) = 100] = 200")]


def test_a_change_of_a_change_naming_no_two_years_is_refused(agent: Agent) -> None:
    r = agent.ask("What was the change in the percentage change of revenue?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Change of a change not computed: it needs the two "
                               "consecutive years")


# ---------------------------------------------------------------- demo
def test_demo_average_and_share(demo_ws: Path) -> None:
    a = Agent.from_workspace(demo_ws)
    ref = date(2026, 3, 31)
    avg = a.ask("What was the average revenue of ACME Hong Kong from FY2024 to FY2025?", ref)
    assert [(f.operation, f.value, f.unit) for f in avg.figures] == [
        ("average", 1362.5, "USD_M")]
    zh = a.ask("香港2024年和2025年营业收入的平均值是多少？", ref)
    assert [(f.operation, f.value) for f in zh.figures] == [("average", 1362.5)]
    assert zh.answer.startswith("ACME Hong Kong Revenue，FY2024、FY2025平均值：1,362.5百万美元")
    share = a.ask("2025年香港营业收入占集团营业收入的比例是多少？", ref)
    (fig,) = share.figures
    assert (fig.operation, fig.unit, fig.derivation) == (
        "share", "PCT", "1,405 / 4,760 × 100 = 29.52%")
    assert [f.entity for f in fig.operands] == ["ACME_HK", "ACME_GROUP"]
    which = a.ask("In which year was ACME Hong Kong revenue higher, FY2024 or FY2025?", ref)
    assert which.figures == ()
    assert which.answer.startswith("FY2025: ACME Hong Kong Revenue is the highest of the 2 "
                                   "compared.")


# ---------------------------------------------------------------- pure parts
def _f(period: str, value: float, unit: str = "USD_K", metric: str = "REV") -> Fact:
    return Fact(metric, "C", "NA", "TOTAL", "FY", period, value, unit, "t.csv", f"r{period}")


def test_the_arithmetic_is_pure_and_refuses_what_it_cannot_do() -> None:
    assert aggregate("average", [_f("2019", 1.0)]) == NotComputed("operands", ("1",))
    assert aggregate("sum", [_f("2019", 1.0), _f("2018", 2.0, "USD_M")]) == \
        NotComputed("units", ("USD_K", "USD_M"))
    assert ratio([_f("2019", 1.0)], _f("2018", 0.0), percent=True) == NotComputed("zero_base")
    assert pick_extreme("max", [_f("2019", 2.0), _f("2018", 2.0)]) == NotComputed("tie", ("2",))
    assert pick_extreme("max", [_f("2019", -4.2), _f("2018", -1.5)]) == NotComputed(
        "signs", ("-4.2, -1.5",))
    test = threshold("more than 20%")
    assert test is not None
    assert count_passing([_f("2019", 25.0)], test) == NotComputed(
        "threshold_units", ("more than 20%", "USD_K"))
    with pytest.raises(InvalidRecordError, match="Valid: \\['number', 'label'\\]"):
        Operation("count", answer="text")


def test_cue_readers() -> None:
    assert period_range("average from 2017 to 2019") and period_range("2017-2019")
    assert not period_range("in 2017 and 2019")
    assert years_count("over the three-year period") == 3
    assert threshold("due in less than one year") is None
    assert threshold("increased over 2018") is None
    split = ratio_split("what is the ratio of a to b in 2019?")
    assert split is not None and split.kind == "ratio"
    range_ = ratio_split("what is the share of receivables that are three to six months old "
                         "in total receivables?")
    assert range_ is not None  # "three to six" is a range, not the ratio's "to"
    text = "what is the share of receivables that are three to six months old in total " \
           "receivables?"
    assert text[slice(*range_.denominator)] == "total receivables"


def test_words_inside_a_named_row_are_no_cue(agent: Agent) -> None:
    parser = RuleIntentParser(agent.profile)
    intent = parser.parse("What was the total prepaid expenses and other in 2018 and 2019?", REF)
    assert "total" not in cue_text(intent, agent.profile)
    assert detect_operation(intent, agent.profile) is None


def test_several_rows_and_periods_with_nothing_combining_them_are_not_answered(
        agent: Agent) -> None:
    parser = RuleIntentParser(agent.profile)
    intent = parser.parse("What is the total of revenue and gross profit in 2018 and 2019?",
                          REF)
    op = detect_operation(intent, agent.profile)
    assert op is not None and op.kind == "sum"
    clar = ClarificationResult("none", {"entity": "COMPANY"})
    plan = plan_operation(op, PlanContext(intent, clar, agent.profile, agent.store,
                                          lambda t: parser.parse(t, REF)))
    assert isinstance(plan, NotComputed) and plan.reason == "cross"
    tasks = [Task(m, "COMPANY", p, "TOTAL")
             for m in ("REVENUE", "GROSS_PROFIT") for p in ("FY2018", "FY2019")]
    refused = cross_refusal(tasks, "en")
    assert refused.figures == ()
    assert refused.text.startswith("Not answered: the question names several figures "
                                   "(REVENUE and GROSS_PROFIT; FY2018 and FY2019)")
    named = cross_refusal(tasks, "en", agent.profile)  # in the profile's words
    assert named.text.startswith("Not answered: the question names several figures "
                                 "(Revenue and Gross profit; FY2018 and FY2019)")
    assert fold("X") == "x"


def test_a_ratio_whose_side_reads_as_a_total_or_its_part_is_refused(tmp_path: Path) -> None:
    # "prepaid expenses and other current assets" reads as the part of "Total prepaid
    # expenses and other" it overlaps: which cells are divided is unclear, so no figure
    # (before this check: 193 / 2,496 = 7.73%, a wrong number)
    files = tmp_path / "files"
    files.mkdir()
    (files / "table.csv").write_text(TABLE.replace("Deposits", "Other current assets"),
                                     encoding="utf-8")
    ingest(files, workspace=tmp_path / "ws", profile=None, metadata=None, progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask(
        "What is the percentage of prepaid expenses and other current assets over total "
        "prepaid expenses and other in 2019?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Percentage not computed: what is divided by what could not "
                               "be identified")


@pytest.mark.parametrize("question", [
    "What percentage did revenue increase by between 2018 and 2019?",
    "What is the change (%) for revenue between 2018 and 2019?",
])
def test_a_change_asked_as_a_percentage_in_other_words(agent: Agent, question: str) -> None:
    r = agent.ask(question, REF)
    assert [(f.value, f.unit, f.operation) for f in r.figures] == \
        [(25.0, "PCT", "percent_change")]


def test_an_operation_asked_in_words_not_read_lists_inputs_never_a_level(agent: Agent) -> None:
    r = agent.ask("What is the ratio of the gross profit in fiscal 2019 to fiscal 2018?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Ratio not computed: the question asks for it in words")
    assert "Input found: the company Gross profit, FY2019: 600 thousand" in r.answer
    assert r.trace["operation_not_read"] == "ratio"


def test_how_many_years_with_no_test_and_no_reporting_counts_nothing(agent: Agent) -> None:
    # a duration ("how many years is the lifespan") is no count of the periods reported
    r = agent.ask("How many years is the minimum lifespan of the deposits?", REF)
    assert r.figures == () and r.answer.startswith("Count not computed")
    reported = agent.ask("In how many years was revenue reported?", REF)
    assert [(f.value, f.operation) for f in reported.figures] == [(3.0, "count")]


# ---------------------------------------------------------------- percentage points
@pytest.mark.parametrize("question", [
    "What was the absolute percentage change in dividend yield between 2018 and 2019?",
    "What was the percentage point change in dividend yield from 2018 to 2019?",
])
def test_a_change_in_points_of_a_percentage_row_is_their_difference(agent: Agent,
                                                                    question: str) -> None:
    result = agent.ask(question, REF)
    [figure] = result.figures
    assert (figure.value, figure.unit) == (0.2, "PCT")
    assert "(1.7 − 1.5) = 0.2 percentage points" in result.answer
    assert "change in percentage points from FY2018 to FY2019" in result.answer


def test_a_percentage_change_of_a_percentage_row_stays_relative(agent: Agent) -> None:
    result = agent.ask("What was the percentage change in dividend yield from 2018 to 2019?",
                       REF)
    [figure] = result.figures
    assert (figure.value, figure.unit) == (13.33, "PCT")


def test_points_asked_of_amounts_stay_a_relative_change(agent: Agent) -> None:
    result = agent.ask("What was the absolute percentage change in revenue from 2018 to 2019?",
                       REF)
    [figure] = result.figures
    assert (figure.value, figure.unit) == (25.0, "PCT")


def test_a_year_end_named_in_the_period_is_no_closing_row(tmp_path: Path) -> None:
    # before: "2018 year end" also named the row "At end of the year": two figures
    files = tmp_path / "files"
    files.mkdir()
    (files / "table.csv").write_text(
        "(In millions),,\n,2019,2018\nAt beginning of the year,\"1,000\",900\n"
        "Additions,300,250\nDisposals,(100),(150)\nAt end of the year,\"1,200\",\"1,000\"\n",
        encoding="utf-8")
    ingest(files, workspace=tmp_path / "ws", profile=None, metadata=None, progress=False)
    a = Agent.from_workspace(tmp_path / "ws")
    r = a.ask("How much is the change in additions between 2018 year end and 2019 year end?",
              REF)
    assert [(f.value, f.unit) for f in r.figures] == [(50.0, "M")]
    assert "(300 − 250) = 50" in r.answer


def test_an_owners_share_of_a_whole_is_their_ratio(demo_ws: Path) -> None:
    """"What was Hong Kong's share of group operating profit in FY2025?" listed both levels
    (a comparison); "X's share of" names the part and the whole like "X as a share of"."""
    agent = Agent.from_workspace(demo_ws)
    r = agent.ask("What was Hong Kong's share of group operating profit in FY2025?",
                  date(2026, 3, 31))
    assert [(f.operation, f.derivation) for f in r.figures] == [
        ("ratio", "452 / 1,105 = 0.41")], r.answer
    r = agent.ask("What was Hong Kong's percentage of group revenue in FY2025?",
                  date(2026, 3, 31))
    assert [f.derivation for f in r.figures] == ["1,405 / 4,760 × 100 = 29.52%"], r.answer


@pytest.mark.parametrize("question, answer", [
    ("What was Mainland China's lowest quarterly revenue in FY2025?",
     "ACME Mainland China Revenue, lowest of 2025Q1, 2025Q2, 2025Q3 and 2025Q4: 26.4"),
    ("In which quarter of FY2025 was Mainland China revenue highest?",
     "2025Q2: ACME Mainland China Revenue is the highest of the 4 compared."),
])
def test_an_extreme_within_one_year_runs_over_its_quarters(demo_ws: Path, question: str,
                                                           answer: str) -> None:
    """One year named, the extreme ran over every year the row reports: "the lowest
    quarterly revenue in FY2025" answered FY2025's annual 1,530 (the lowest of five years),
    "in which quarter of FY2025 …" answered "FY2023"."""
    r = Agent.from_workspace(demo_ws).ask(question, date(2026, 3, 31))
    assert r.answer.startswith(answer), r.answer


def test_an_extreme_within_a_year_with_no_quarters_is_not_computed(demo_ws: Path) -> None:
    r = Agent.from_workspace(demo_ws).ask(
        "What was Mainland China's highest quarterly revenue in FY2024?", date(2026, 3, 31))
    assert r.figures == () and "not computed" in r.answer, r.answer
