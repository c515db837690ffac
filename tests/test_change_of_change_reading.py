"""A change of a change is read from the question's words, never from a row's own name.

Found by asking the same change two ways on every `tune` table row (`What was the change
in X …` / `How much did X change …`): a row named "Increases for tax positions taken in
prior years" asked "the change in Increases …" computed the change of its change, and
"How much did the increase in revenue change …?" the plain change. A table ingested as a
user's CSV.
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.filings import tables_agent

TABLE = """,2019,2018,2017
Revenue,"1,000",900,700
Increases for tax positions taken in prior years,40,25,10
"""
ON = date(2020, 3, 1)


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    a = tables_agent(tmp_path_factory.mktemp("changes"), {"t.csv": TABLE})
    yield a
    a.close()


@pytest.mark.parametrize("question, value, said", [
    ("What was the change in Increases for tax positions taken in prior years from 2018 "
     "to 2019?", 15.0, "(40 − 25) = 15"),
    ("How much did the increase in revenue change between 2018 and 2019?", -100.0,
     "[(1,000 − 900) = 100] − [(900 − 700) = 200] = -100"),
    ("How much did the percentage change of revenue change from 2018 to 2019?", -17.46,
     "[(1,000 − 900) / 900 = 11.11%] − [(900 − 700) / 700 = 28.57%] = -17.46"),
    ("What was the change in the increase in revenue between 2018 and 2019?", -100.0,
     "[(1,000 − 900) = 100] − [(900 − 700) = 200] = -100"),
    ("How much did revenue change from 2018 to 2019?", 100.0, "(1,000 − 900) = 100"),
])
def test_the_change_asked(agent, question: str, value: float, said: str) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask(question, ON)
    assert [round(f.value, 2) for f in r.figures] == [value], r.answer
    assert said in r.answer
