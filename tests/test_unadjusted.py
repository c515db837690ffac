""""Unadjusted" is the figure as reported: the plain row, not a version the tables lack.

"What was the unadjusted operating income in 2022?" asks for the operating income as
reported — no adjustment made — which is the income statement's row. Read as a version
word (like "adjusted" or "restated"), it sent such questions to the narrative channel,
which answered with any sentence about margins. "Adjusted" still names another version
of the figure: a workspace without an adjusted row never answers it with the plain one.
"""

from __future__ import annotations

from pathlib import Path

from tests.tablehelpers import csv_agent

INCOME = ('(Millions),2022,2021\nRevenue,"6,780","5,505"\n'
          'Operating income,"306","403"\nNet income,"123","267"\n')


def test_unadjusted_reads_the_reported_row(tmp_path: Path) -> None:
    agent = csv_agent(tmp_path, {"income.csv": INCOME})
    plain = agent.ask("What was the unadjusted operating income in 2022?")
    assert "Operating income, FY2022: 306 million" in plain.answer, plain.answer
    change = agent.ask("What is the year-over-year change in unadjusted operating income "
                       "from 2021 to 2022 in percent?")
    assert "-24.07%" in change.answer, change.answer
    adjusted = agent.ask("What was the adjusted operating income in 2022?")
    assert "306" not in adjusted.answer, adjusted.answer
