"""The words every reader shares: month names, as data, and the patterns built from them.

Ingestion (table headers, cover pages, prose periods) and the question engine (periods,
dates in a question, dates that are no figures) read months from this one table; a
pattern here is built from it, never written out again. The scale and currency words live in
:mod:`ragspine_nb.units` (longest spelling first), number words in
:mod:`ragspine_nb.number_words`.

>>> MONTHS[6], MONTH_STEMS[8], month_number("Sept."), month_number("mayor")
('july', 'sep', 9, None)
>>> import re
>>> [m.group(0) for m in re.finditer(MONTH, "jul 4, sept. 30 and december")]
['jul', 'sept.', 'december']
"""

from __future__ import annotations

import re

__all__ = ["MONTHS", "MONTH_STEMS", "MONTH", "MONTH_CAPTURED", "MONTH_WORD", "MONTH_NAMES",
           "month_number", "UNITED_STATES"]

#: The twelve months, January first; a month's number is its position plus one.
MONTHS: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july",
                           "august", "september", "october", "november", "december")
#: Their first three letters, which name a month in a folded text ("jul", "sept.").
MONTH_STEMS: tuple[str, ...] = tuple(m[:3] for m in MONTHS)
_STEMS = "|".join(MONTH_STEMS)
#: A month in a folded text ("jul", "july", "sept."): its stem, any letters, a dot.
MONTH = rf"(?:{_STEMS})[a-z]*\.?"
#: :data:`MONTH` with the stem captured (group 1 of the pattern it starts).
MONTH_CAPTURED = rf"({_STEMS})[a-z]*\.?"
#: A month word with no trailing dot ("jul", "july").
MONTH_WORD = rf"(?:{_STEMS})[a-z]*"
#: The whole names only, as an alternation ("january|february|…").
MONTH_NAMES = "|".join(MONTHS)


def month_number(word: str) -> int | None:
    """The month a word names (1–12: "Jul", "sept.", "December"), else ``None``."""
    w = word.strip().lower().rstrip(".")
    return next((i for i, name in enumerate(MONTHS, 1) if len(w) >= 3 and name.startswith(w)),
                None)


#: "U.S.", "U.S", "US" as a word in capitals: the United States, as a question or a column
#: header abbreviates it; not "USA", nor the country's currency or accounting standard
#: ("US$", "US dollars", "U.S. GAAP"), which name no part of a company.
UNITED_STATES = re.compile(r"(?<![\w.])(?:U\.S\.(?!A\b)|U\.S(?![.\w$])|US(?![\w$]))"
                           r"(?!\s*(?:\$|(?i:dollars?|cents?|gaap|currency)\b))")
