"""Issue 15: a roll-forward's balance named with one of its movements asks for the movement.

"What is the number of non-vested shares granted in 2019?" over a roll-forward whose
rows are "Non-vested at December 31, 2018", "Granted", "Vested", "Forfeited" and
"Non-vested at December 31, 2019" names the balance's subject and the movement: it is
the movement, answered with the reading stated. Two rows of which neither is a dated
balance, or a list of both, are asked back or answered as before.
"""

from __future__ import annotations

import pytest

from ragspine_nb import Agent
from tests.tablehelpers import AWARDS, tatqa_agent
from tests.tablehelpers import TATQA_REFERENCE as REF


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tatqa_agent(tmp_path_factory.mktemp("awards"), AWARDS,
                       "A summary of non-vested share awards for 2019 is as follows:")


def test_the_movement_of_a_named_balance_is_answered(agent: Agent) -> None:
    r = agent.ask("What is the number of non-vested shares granted in 2019?", REF)
    assert [(f.value, f.unit, f.sources[0].locator) for f in r.figures] == [
        (473550.0, "shares", "cell=B3")]
    assert "the question asks for Granted (GRANTED), a movement of Non-vested (NON_VESTED)" \
        in r.answer  # the balance of every dated row, named without the first row's date
    vested = agent.ask("What is the number of non-vested shares vested in 2019?", REF)
    assert [f.value for f in vested.figures] == [-365223.0]


def test_a_list_of_the_balance_and_a_movement_is_not_read_so(agent: Agent) -> None:
    r = agent.ask("What were the non-vested shares at December 31, 2018 and the shares "
                  "granted in 2019, respectively?", REF)
    assert "a movement of" not in r.answer
