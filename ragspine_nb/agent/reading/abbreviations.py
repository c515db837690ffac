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

__all__ = ["names_united_states"]

#: "U.S.", "U.S", "US" as a word in capitals; not "USA", nor the country's currency or
#: accounting standard ("US$", "US dollars", "U.S. GAAP"): those name no part of a company
_RAW = re.compile(r"(?<![\w.])(?:U\.S\.(?!A\b)|U\.S(?![.\w$])|US(?![\w$]))"
                  r"(?!\s*(?:\$|(?i:dollars?|cents?|gaap|currency)\b))")
#: The same in a folded text outside the names matched ("us" may be the pronoun: the raw
#: question decides that it is the country)
_FOLDED = re.compile(r"(?<![\w.])u\.?s\.?(?![\w$])")


def names_united_states(question: str, outside_names: str) -> bool:
    """Whether ``question`` names the United States outside the row and column names read.

    ``outside_names`` is the folded question with the matched names blanked out.

    Examples
    --------
    >>> q = "What was 3M's U.S. net sales in 2018?"
    >>> names_united_states(q, "what was 3m's u.s.           in 2018?")
    True
    >>> q = "What share of the gain is from U.S. government obligations?"
    >>> names_united_states(q, "what share of the gain is from                          ?")
    False
    >>> names_united_states("Tell us the revenue", "tell us the        ")
    False
    >>> names_united_states("Revenue in US$ in 2019?", "        in us$ in 2019?")
    False
    >>> names_united_states("Revenue in US dollars?", "        in us dollars?")
    False
    >>> names_united_states("The U.S. GAAP net income?", "the u.s. gaap           ?")
    False
    """
    return bool(_RAW.search(question)) and bool(_FOLDED.search(outside_names))
