"""The names a row is read by, from its label and synonyms.

Each name as written, and as questions write it otherwise: without its opening sign word
("Less: valuation allowance"), with a hyphen as a space ("long-term": "long term", never
the other way round: "vested" is not in "non-vested"), by the acronym it defines
("Loan-to-value (LTV) ratio": "LTV ratio") and without its parenthesised notes, nested
ones too ("Carrying amount (non-current (liabilities)/assets)"). A name that is only a
year or a period names no row: it is the question's period.
"""

from __future__ import annotations

import re

from ragspine_nb.agent.reading.acronyms import acronym_name
from ragspine_nb.agent.reading.intent_terms import bare_label, unsigned_label
from ragspine_nb.extract.rows import norm_label
from ragspine_nb.period_phrases import names_only_a_period
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import content_words

__all__ = ["dated_only", "written_names", "noteless_names"]

_YEAR = re.compile(r"(?:19|20)\d\d")
_HYPHEN = re.compile(r"(?<=[A-Za-z])[-\u2010\u2011\u2013](?=[A-Za-z])")


def dated_only(term: str) -> bool:
    """A name that is only a year or a period: the question's period, never a row's name.

    "2019", "2023 (1)" (its footnote mark no word), "Fiscal Year", "First Quarter" (a
    table's quarters down a column).

    >>> dated_only("2023 (1)"), dated_only("Fiscal Year"), dated_only("Revenue 2023")
    (True, True, False)
    """
    if names_only_a_period(term):
        return True
    if term.isascii() and "19" not in term and "20" not in term:
        return False  # no year is written in it (an ASCII text folds to no new digit)
    words = content_words(norm_label(term))  # its footnote mark is no word
    return bool(words) and all(_YEAR.fullmatch(w) for w in words)


def written_names(profile: DomainProfile) -> list[tuple[str, str]]:
    """``(name, code)`` of every row's names as written and as questions write them.

    >>> from ragspine_nb.profile import DomainProfile
    >>> p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"},
    ...     "metrics": {"LTV": {"unit": "PCT", "label": "Loan-to-value (LTV) ratio"}}})
    >>> [n for n, _ in written_names(p)]
    ['Loan-to-value (LTV) ratio', 'Loan to value (LTV) ratio', 'LTV ratio', 'LTV ratio']
    """
    pairs = [(t, m.code) for m in profile.metrics.values() for t in (m.label, *m.synonyms)
             if not dated_only(t)]
    pairs += [(bare, code) for t, code in pairs if (bare := unsigned_label(t))]
    pairs += [(split, code) for t, code in pairs if (split := _HYPHEN.sub(" ", t)) != t]
    return pairs + [(short, code) for t, code in pairs if (short := acronym_name(t))]


def noteless_names(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The names without their parenthesised notes (two rows left alike ask back)."""
    return [(bare, code) for t, code in pairs if (bare := bare_label(t))]
