"""A count or an extreme "from 2019 to 2022" runs over every year of the range.

"How many years did revenue exceed 17,000 million from 2019 to 2022?" counted the two
years named (1), not the four in the range (3); "In which year from 2019 to 2022 was
revenue the highest?" compared the two ends only (FY2022, when FY2020 is the highest).
An average or a sum over a range already took every year. Each test fails on the code
before (the range's ends only).
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2023, 6, 1)
TABLE = """(in millions),2019,2020,2021,2022
Revenue,"16,865","17,627","18,127","18,993"
Operating income,100,300,200,150
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("range"), {"results.csv": TABLE})


def test_a_count_over_a_range_counts_every_year_of_it(agent: Agent) -> None:
    result = agent.ask("How many years did revenue exceed 17,000 million from 2019 to 2022?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [3.0], result.answer


def test_an_extreme_over_a_range_compares_every_year_of_it(agent: Agent) -> None:
    result = agent.ask("In which year from 2019 to 2022 was operating income the highest?",
                       reference_date=REF)
    assert result.answer.startswith("FY2020"), result.answer
