"""Issue 15: a question's qualifier that the prose uses to introduce the table.

"The weighted-average exchange rates ... were as follows:" introduces a table of
currencies. "What is the weighted-average exchange rate for Taiwan Dollar for 2018 and
2019, respectively?" names a row of it and words no table uses; those words are the
introducing sentence's, so the question is the table's and the answer quotes the
sentence. The same words in a sentence that introduces nothing keep the question in
the narrative channel.
"""

from __future__ import annotations

from pathlib import Path

from tests.tablehelpers import TATQA_REFERENCE as REF
from tests.tablehelpers import tatqa_agent

RATES = [
    ["", "Years ended December 31,", ""],
    ["", "2019", "2018"],
    ["Swedish Krona", "9.46", "8.70"],
    ["Japanese Yen", "109.01", "110.43"],
    ["Taiwan Dollar", "30.90", "30.15"],
]
INTRO = ("Cash flows in foreign currencies have been converted to U.S. Dollars at an "
         "approximate weighted-average exchange rate for the respective reporting periods. "
         "The weighted-average exchange rates for the consolidated statements of operations "
         "were as follows:")
QUESTION = ("What is the weighted-average exchange rate for Taiwan Dollar for the years ended "
            "December 31, 2018, and 2019, respectively?")


def test_the_introducing_sentences_words_are_the_tables(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, RATES, INTRO)
    r = agent.ask(QUESTION, REF)
    assert [(f.value, f.sources[0].locator) for f in r.figures] == [
        (30.15, "cell=C5"), (30.9, "cell=B5")]
    assert r.answer.startswith("(Read as the table introduced by “The weighted-average "
                               "exchange rates for the consolidated statements of operations "
                               "were as follows:”)")


def test_the_same_words_in_a_sentence_introducing_nothing_stay_prose(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, RATES, "The following table shows currency rates:",
                        "Weighted-average exchange rates moved little in 2019.")
    r = agent.ask(QUESTION, REF)
    assert r.figures == () and r.route == "narrative"
