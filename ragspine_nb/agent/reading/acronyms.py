"""A row named by the acronym its label defines: "Loan-to-value (LTV) ratio" is the "LTV ratio".

A label that writes words out and then their acronym in parentheses names the row both
ways; a question uses the short one ("In which year was the LTV ratio the largest?").
The acronym counts only when its letters are the initials of the words just before it
(a hyphenated word gives one initial per part; "and", "of", "the" … may be skipped), so a
parenthesised unit, currency or note ("Revenue (USD)", "(GAAP)", "(Scope 1)") names
nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["acronym_name"]

#: An acronym in parentheses: two to eight capitals ("&" between them), a plural "s".
_DEFINED = re.compile(r"\(\s*([A-Z](?:[A-Z]|&(?=[A-Z])){1,7}s?)\s*\)")
#: A word of a label, a hyphenated word in parts ("Loan-to-value": loan, to, value).
_WORD = re.compile(r"[A-Za-z0-9]+")
#: Small words an acronym may leave out ("Research and development (R&D)").
_SKIPPED = frozenset({"and", "of", "the", "for", "on", "in", "to", "at", "by", "a", "an"})


@lru_cache(maxsize=16384)
def acronym_name(label: str) -> str:
    """The label with its spelled-out words replaced by the acronym it defines, else ``""``.

    Examples
    --------
    >>> acronym_name("Loan-to-value (LTV) ratio")
    'LTV ratio'
    >>> acronym_name("Earnings before interest, taxes, depreciation and amortization (EBITDA)")
    'EBITDA'
    >>> acronym_name("Selling, general and administrative (SG&A) expenses")
    'SG&A expenses'
    >>> acronym_name("Return on equity (ROE)"), acronym_name("Property, plant and equipment (PP&E)")
    ('ROE', 'PP&E')
    >>> acronym_name("Mortgage-backed securities (MBSs) held")
    'MBSs held'

    A parenthesised unit, currency or note is no acronym of the words before it:

    >>> acronym_name("Revenue (USD)"), acronym_name("Net income (GAAP)")
    ('', '')
    >>> acronym_name("Combustion of fuel (Scope 1)"), acronym_name("Revenue")
    ('', '')
    """
    for m in _DEFINED.finditer(label):
        start = _spelled_out(label[:m.start()], m.group(1).rstrip("s").replace("&", ""))
        if start is not None:
            return " ".join(f"{label[:start]}{m.group(1)}{label[m.end():]}".split())
    return ""


def _spelled_out(before: str, letters: str) -> int | None:
    """Where the words whose initials are ``letters`` start, ending just before, else None.

    Read from the end: each letter is the initial of the next word back; a small word
    (:data:`_SKIPPED`) whose initial is not the letter is passed over.
    """
    words = list(_WORD.finditer(before))
    if not words or before[words[-1].end():].strip(" ,"):
        return None  # the acronym follows no word directly
    k = len(words) - 1
    for letter in reversed(letters.lower()):
        while k >= 0 and words[k].group().lower()[0] != letter \
                and words[k].group().lower() in _SKIPPED:
            k -= 1
        if k < 0 or words[k].group().lower()[0] != letter:
            return None
        k -= 1
    return words[k + 1].start()
