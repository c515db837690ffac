"""What a table adds up to, read from the sentence that introduces it.

A table's last row is often a bare "Total" (or has no label at all): "Vacation 1,659 /
Payroll taxes 155 / … / 3,571". What it is the total of, the report says in the
sentence before the table: "Accrued liabilities at April 30, 2019 consisted of the
following (in thousands):". Only sentences that say the table's rows *make up* the
subject are read: "X consisted of / comprised the following", "X were as follows", "the
components of X"; never "X included the following" (the items included in operating
income do not add up to operating income). The subject is cut before its qualifiers of
date, period and breakdown ("at April 30, 2019", "during the year", "by segment") and
loses its brackets ("income (loss)" is "income"); a subject that is long, holds a figure
is only a pronoun or names a roll-forward's movements ("changes in the allowance",
"goodwill activity") tells nothing.
"""

from __future__ import annotations

import re

from ragspine_nb.extract.prose_period import introducing_sentences

__all__ = ["table_subject", "introduced_subjects", "MAX_SUBJECT_WORDS"]

#: A longer subject is a clause, not the name of a figure.
MAX_SUBJECT_WORDS = 8

_MAKE_UP = re.compile(
    r"^(?P<s>.+?)\s+(?:consist(?:s|ed)?\s+of|(?:is|are|was|were)\s+comprised\s+of|"
    r"comprise[sd]?|(?:is|are|was|were)(?:\s+\w+ly)?\s+as\s+follows|"
    r"(?:is|are|was|were)\s+summari[sz]ed\s+(?:as\s+follows|below))\b", re.I)
_COMPONENTS = re.compile(
    r"^(?:the\s+)?following\s+table\s+(?:summari[sz]es|presents|shows|sets\s+forth|"
    r"provides|details)\s+(?P<s>.*\bcomponents\s+of\s+.+?)\s*(?:\([^)]*\))?\s*:?\s*$", re.I)
_LEAD = re.compile(r"^(?:(?:the|our|a|an)\s+)?(?:(?:summary|detail|details|breakdown)\s+of\s+)?"
                   r"(?:(?:the|our)\s+)?(?:[\w.&\s]*?\bcomponents\s+of\s+)?(?:(?:the|our)\s+)?",
                   re.I)
#: Where the subject's qualifiers begin: a date, a period, a breakdown, a clause.
_QUALIFIER = re.compile(
    r"\s(?:at|as\s+of|as\s+at|for|during|in|on|by|based\s+on|from|through|"
    r"which|that|under|per|over)\s", re.I)
#: Where the subject of "the components of X" ends: a date, a period or a breakdown only.
_COMPONENTS_CUT = re.compile(r"\s(?:at|as\s+of|as\s+at|for|during|by|based\s+on)\s", re.I)
_BRACKETS = re.compile(r"\s*\([^)]*\)")
_PRONOUN = re.compile(r"^(?:it|they|these|those|this|that|such|amounts?|balances?|"
                      r"the\s+following)$", re.I)
#: A name going on after a participle ("net cash provided by operating activities",
#: "cash used in investing"); a date or period still cuts ("dividends paid during …").
_LINKING = re.compile(r"\s(?:in|by|from|under|based\s+on|over)\s", re.I)
_PARTICIPLE = re.compile(r"\w(?:ed|en|id)$", re.I)
#: A roll-forward's subject: its movements do not add up to a total of the subject.
_MOVEMENT = re.compile(r"\b(?:changes?|activity|movements?|roll-?forward|"
                       r"reconciliation)\b", re.I)


def table_subject(sentence: str) -> str:
    """The figure a table's rows make up, from the sentence introducing it, else ``""``.

    Examples
    --------
    >>> table_subject("Accrued liabilities at April 30, 2019 and 2018, respectively, "
    ...               "consisted of the following (in thousands):")
    'Accrued liabilities'
    >>> table_subject("Dividends paid during the financial year were as follows:")
    'Dividends paid'
    >>> table_subject("The following table summarizes our U.S. and foreign components of "
    ...               "income (loss) from continuing operations before income taxes (in millions):")
    'income from continuing operations before income taxes'
    >>> table_subject("Operating income included the following:")
    ''
    """
    text = " ".join(sentence.split()).rstrip(":： ")
    found = _COMPONENTS.match(text) or _MAKE_UP.match(text)
    if found is None:
        return ""
    subject = _BRACKETS.sub("", _LEAD.sub("", found.group("s").strip(), count=1))
    if found.re is _COMPONENTS:  # "… components of X before income taxes": X keeps its words
        cut = _COMPONENTS_CUT.search(subject)
    else:
        cut = next((m for m in _QUALIFIER.finditer(subject) if not (
            _LINKING.match(m.group(0)) and _PARTICIPLE.search(subject[:m.start()]))), None)
    subject = (subject[:cut.start()] if cut else subject).strip(" ,;")
    subject = re.sub(r",\s*(?:respectively|in\s+\w+)$", "", subject).strip(" ,;")
    words = subject.split()
    if not words or len(words) > MAX_SUBJECT_WORDS or re.search(r"[\d:]", subject) or \
            words[-1].casefold().endswith("ed") or \
            _PRONOUN.match(subject) or _MOVEMENT.search(subject):
        return ""
    return subject


def introduced_subjects(prose: str) -> tuple[str, ...]:
    r"""The distinct subjects (:func:`table_subject`) of the sentences introducing tables.

    Examples
    --------
    >>> introduced_subjects("Note 9.\n\nAccrued liabilities consisted of the following:")
    ('Accrued liabilities',)
    """
    seen: dict[str, str] = {}
    for sentence in introducing_sentences(prose):
        subject = table_subject(sentence)
        if subject:
            seen.setdefault(subject.casefold(), subject)
    return tuple(seen.values())
