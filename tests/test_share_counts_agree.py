"""A share count written in full and the same count in thousands are one figure.

3M's 2016 10-K writes its option counts in full ("38,552,445"), its 2018 10-K the same
counts in thousands ("38,552"): in one folder they were five open conflicts, and "How many
options were outstanding on January 1, 2016?" gave no figure. Two share counts agree when
they are the same count within the coarser one's rounding
(:func:`~ragspine_nb.units.same_amount`); counts that differ by their scale stay apart.
"""

from __future__ import annotations

from pathlib import Path

from tests.filings import tables_agent

_FULL = ",2016\nShares outstanding,\"38,552,445\"\n"
_THOUSANDS = "(shares in thousands),2016\nShares outstanding,\"38,552\"\n"


def test_a_count_in_full_and_in_thousands_agree(tmp_path: Path) -> None:
    agent = tables_agent(tmp_path, {"report_2016.csv": _FULL, "report_2018.csv": _THOUSANDS})
    result = agent.ask("How many shares were outstanding in 2016?")
    assert "onflict" not in result.answer
    assert len(result.figures) == 1


def test_counts_apart_by_their_scale_stay_a_conflict(tmp_path: Path) -> None:
    agent = tables_agent(tmp_path, {"report_2016.csv": ",2016\nShares outstanding,\"38,552\"\n",
                                    "report_2018.csv": _THOUSANDS})
    result = agent.ask("How many shares were outstanding in 2016?")
    assert "onflict" in result.answer and not result.figures
