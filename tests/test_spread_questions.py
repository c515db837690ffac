"""How steady a figure is, asked in words: the largest yearly move, through ingest and ask.

"Are the gross margins consistent (not fluctuating more than 2% each year)?" is answered
over every fiscal year reported: the largest move from one year to the next (in
percentage points between percentages), the lowest and highest year, and whether every
move is within a bound the question states. Each test fails on the code before the
operation: the question went to the narrative channel (a workspace of one table: no
figure, no passage).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine_nb import ingest
from ragspine_nb.agent import Agent

REF = date(2023, 1, 1)
TABLE = """(in millions),2019,2020,2021,2022
Revenue,"1,000","1,100","1,200","1,250"
Cost of sales,600,650,730,730
Gross profit,400,450,470,520
"""


def _agent(tmp_path: Path) -> Agent:
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "zentra_results.csv").write_text(TABLE, encoding="utf-8")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    return Agent.from_workspace(tmp_path / "ws")


def test_a_bound_the_question_states_is_checked_on_every_yearly_move(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    result = agent.ask("Are the gross margins consistent (not fluctuating more than 3% each "
                       "year)?", reference_date=REF)
    assert result.figures == ()
    assert result.answer.splitlines()[0] == (
        "Within 3 percentage points every year: the company Gross margin (%), FY2019–FY2022: "
        "the largest move from one reported year to the next was +2.43 percentage points "
        "(FY2021 to FY2022); lowest 39.17% in FY2021, highest 41.6% in FY2022.")
    tight = agent.ask("Are the gross margins consistent, not fluctuating more than 2% a year?",
                      reference_date=REF)
    assert tight.answer.startswith("Not within 2 percentage points every year: ")
    assert "zentra_results.csv · cell=E4" in tight.answer  # each year's cells are cited


def test_no_bound_leaves_the_judgement_to_the_reader(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    result = agent.ask("Is revenue volatile?", reference_date=REF)
    assert result.answer.splitlines()[0] == (
        "the company Revenue, FY2019–FY2022: the largest move from one reported year to the "
        "next was +10.00% (FY2019 to FY2020); lowest 1,000 million in FY2019, highest 1,250 "
        "million in FY2022. Whether that is consistent is left to the reader.")


def test_the_question_in_chinese_gets_the_moves_in_chinese(tmp_path: Path) -> None:
    result = _agent(tmp_path).ask("毛利率是否稳定？", reference_date=REF)
    assert result.answer.splitlines()[0] == (
        "the company Gross margin (%)，FY2019至FY2022逐年波动最大为+2.43个百分点"
        "（FY2021至FY2022）；最低39.17%（FY2021），最高41.6%（FY2022）。")


OBLIGATIONS = """(in millions),Total,Less than 1 year,1-3 years,3-5 years,5 years
More than,,,,,
Notes,"2,401.1",75.3,150.5,"1,029.1","1,146.2"
Purchase obligations,419.8,341.3,74.6,3.9,0
Total,"2,820.9",416.6,225.1,"1,033.0","1,146.2"
$ 2,5,1,1,1,2
"""


def test_figures_and_a_heads_first_words_name_no_row(tmp_path: Path) -> None:
    """A head's first words drawn under the header ("More than" of "More than 5 years")
    and a label of figures alone ("$ 2") named rows of the folder: the bound question's
    "more than … 2%" read them instead of the gross margins and went to the narrative."""
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "zentra_results.csv").write_text(TABLE, encoding="utf-8")
    (folder / "zentra_obligations_FY2022.csv").write_text(OBLIGATIONS, encoding="utf-8")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    codes = {f.metric_code for f in agent.store.iter_facts()}
    assert "TOTAL" in codes and not {"MORE_THAN_TOTAL", "2"} & codes
    result = agent.ask("Are the gross margins historically consistent (not fluctuating more "
                       "than roughly 3% each year)?", reference_date=REF)
    assert result.answer.startswith("Within 3 percentage points every year: ")
