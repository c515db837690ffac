"""A column headed by a function word ("and") names no column in a question.

A 10-K's header cut across lines left a column of one table headed "and"; in a folder
holding that filing, every question with "and" in it read that column: "What were
dividends paid in 2022 and 2021?" looked up "Dividends paid (and)" and found nothing,
and General Mills's retention ratio (dividends paid *and* net income) was refused with
both figures stored. The column stays its table's; a question's "and" is a conjunction.
"""

from __future__ import annotations

from pathlib import Path

from ragspine_nb.glossary import function_words_only
from tests.tablehelpers import csv_agent

FLOWS = ('(Millions),2022,2021\nDividends paid,"(1,244.5)","(1,246.4)"\n'
         'Net earnings attributable to shareholders,"2,707.3","2,339.8"\n')
OPTIONS = ",2022,2022\nStock options,Total,and\nGranted,12,3\n"


def test_a_column_headed_and_is_no_column_of_a_question(tmp_path: Path) -> None:
    agent = csv_agent(tmp_path, {"flows.csv": FLOWS, "options.csv": OPTIONS})
    assert "C_AND" in agent.profile.channels  # the table's column is kept
    listed = agent.ask("What were dividends paid in 2022 and 2021?")
    assert "Dividends paid, FY2022: -1,244.5 million" in listed.answer, listed.answer
    assert "Dividends paid, FY2021: -1,246.4 million" in listed.answer
    ratio = agent.ask("What is the retention ratio in 2022, using dividends paid and net income?")
    assert "Retention ratio (1 − dividends paid / net income), FY2022: 0.5403" in ratio.answer, \
        ratio.answer
    assert ratio.trace["channel"] is None


def test_function_words_only() -> None:
    assert [function_words_only(t) for t in ("and", "of the", "And", "Class C and", "%",
                                             "Total", "占比")] == [
        True, True, True, False, False, False, False]
