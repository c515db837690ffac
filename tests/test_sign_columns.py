"""Signs in columns of their own ("$ | 1,234", "12.5 | %"), as tables exported from PDFs have them.

Rewriting the TAT-QA tune tables that way (each "$1,234" cell split into "$" and "1,234")
turned 296 correct answers into abstentions: a column of "$" signs read as a column of
its own, the figures beside it under no period; split "12.5%" cells ("12.5" and "%") 60
abstentions and 2 wrong numbers (a row's "current" column lost). A currency sign now
joins the figure on its right, a percent sign the figure on its left; the figure's cell
keeps its place, so its locator is the cell the figure is in.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from tests.filings import tables_agent

# the year over the figures' column, or over the "$" column (a caption over both)
OVER_FIGURES = """,,2019,,2018
Revenue,$,"1,200",$,"1,000"
Cost of sales,,800,,700
Gross profit,$,400,$,300
"""
OVER_SYMBOLS = """,2019,,2018,
Revenue,$,"1,200",$,"1,000"
Cost of sales,,800,,700
Gross profit,$,400,$,300
"""
NOTES = "All amounts are in millions of US dollars.\n"
PERCENT = """,2019,,2018,
Gross margin,33.3,%,30.0,%
Operating margin,12.5,%,11.0,%
"""


@pytest.mark.parametrize("table", [OVER_FIGURES, OVER_SYMBOLS], ids=["over-figures",
                                                                     "over-symbols"])
def test_figures_beside_a_currency_column_are_read(tmp_path: Path, table: str) -> None:
    agent: Agent = tables_agent(tmp_path, {"income.csv": table, "notes.md": NOTES})
    r = agent.ask("What was gross profit in 2019?", date(2020, 3, 1))
    assert [f.value for f in r.figures] == [400.0], r.answer
    assert r.figures[0].operands[0].source_locator == "cell=C4"  # the figure's own cell
    r = agent.ask("What was the change in revenue from 2018 to 2019?", date(2020, 3, 1))
    assert [f.value for f in r.figures] == [200.0], r.answer


def test_percentages_beside_a_percent_column_are_read(tmp_path: Path) -> None:
    agent: Agent = tables_agent(tmp_path, {"margins.csv": PERCENT})
    r = agent.ask("What was the operating margin in 2019?", date(2020, 3, 1))
    assert [(f.value, f.unit) for f in r.figures] == [(12.5, "PCT")], r.answer
    assert r.figures[0].operands[0].source_locator == "cell=B3"
    r = agent.ask("What was the change in gross margin from 2018 to 2019?", date(2020, 3, 1))
    assert [round(f.value, 2) for f in r.figures] == [3.3], r.answer


def test_the_symbol_joins_only_a_figure_right_of_it() -> None:
    from ragspine_nb.extract.grid import symbols_joined

    assert symbols_joined([["Revenue", "$", "1,200", "€", "(5)"]]) == [
        ["Revenue", "", "$1,200", "", "€(5)"]]
    assert symbols_joined([["Cash", "$", "", "1,200"]]) == [["Cash", "$", "", "1,200"]]
    assert symbols_joined([["Note", "$", "see below"]]) == [["Note", "$", "see below"]]
    # a column that keeps figures keeps its header
    assert symbols_joined([["", "A", ""], ["x", "$", "5"], ["y", "7", ""]]) == [
        ["", "A", ""], ["x", "", "$5"], ["y", "7", ""]]
