"""A country a question names by its abbreviation: "U.S." (or "US", in capitals).

Read as the pronoun "us" or as two single letters, "3M's U.S. net sales" named no place at
all, and the company's total was answered as if it were the United States'. Where the
abbreviation is part of a row's or column's name the question matched ("U.S. government
obligations"), it names that row; written anywhere else, it asks for a part of the
company: the word ``"united"`` (:data:`~ragspine_nb.agent.reading.unstated.PLACE_WORDS`)
is then a word of the question no table states, unless one does. "US$" and "US dollars"
are a currency, "U.S. GAAP" a standard and "U.S.A." a name as written.
"""

from __future__ import annotations

import re

from ragspine_nb.lexicon import UNITED_STATES

__all__ = ["writes_united_states", "names_united_states"]

#: The same in a folded text outside the names read ("us" may be the pronoun there: the
#: raw question decides that it is the country)
_FOLDED = re.compile(r"(?<![\w.])u\.?s\.?(?![\w$])")


def writes_united_states(question: str) -> bool:
    """Whether the raw ``question`` writes the country's abbreviation (in capitals).

    >>> [writes_united_states(q) for q in ("3M's U.S. net sales", "US revenue", "tell us",
    ...                                    "in US$", "in US dollars", "U.S. GAAP income")]
    [True, True, False, False, False, False]
    """
    return bool(UNITED_STATES.search(question))


def names_united_states(outside_names: str) -> bool:
    """Whether the abbreviation is still written outside the row and column names read.

    ``outside_names`` is the folded question with the names it matched blanked out: an
    abbreviation inside a name ("U.S. government obligations", a column "U.S.") is that
    name's; one left outside asks for a part of the company.

    >>> names_united_states("what was 3m's u.s.           in 2018?")
    True
    >>> names_united_states("what share of the gain is from                          ?")
    False
    """
    return bool(_FOLDED.search(outside_names))
