"""A table of one part of the company, read from its titles: a segment's, a division's.

A 10-K states each business segment's sales, sales change and operating income in a
table of its own, titled by the segment: "Transportation and Electronics Business (26.0%
of consolidated sales):", "Selected financial data for the Domestic segment was as
follows ($ in millions):". Its rows read like the company's ("Total sales change",
"Operating income"); filed under the filer, the segment's −3.9% answers "how did 3M's net
sales change". :func:`company_part` reads the part a title names, from the title's shape
alone:

1. a share of the whole: "(26.0% of consolidated sales)", "(12% of total revenue)";
2. a title that is a name and the word segment, division or business: "Domestic
   Segment", "Consumer Business:", "Health Care Division";
3. a caption naming "the … segment" or "the … division": "Selected financial data for
   the Domestic segment".

A breakdown by parts ("Net sales by business segment", "Segment information",
"Operating segments") names no one part; nor does a row label, which is no title. The
table pipeline reads a part's table under that part when the profile knows it as an
entity, and otherwise files none of its figures under the company, said so with the
part's name (:func:`part_reason`).

A table of the figures of companies the filer holds a stake in is no table of the filer's
either: "Summary combined financial information for the joint ventures on a 100 percent
basis" (General Mills' note on its joint ventures) states "Gross margin 744.4", the joint
ventures' own; filed under the company it answered "General Mills' gross margin". The
titles saying so (:func:`investee_table`) file none of its figures (:func:`investee_reason`).
The filer's own amounts with them ("Joint venture earnings and cash flow activity",
"Dividends received") are kept: only financial information *of* the investees is theirs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["company_part", "part_reason", "investee_table", "investee_reason"]

_WORD = r"[A-Z][\w&'’.-]*"
#: A name in title case: "Transportation and Electronics", "Safety & Industrial".
_NAME = rf"{_WORD}(?:\s+(?:and|&|of|the|{_WORD}))*"
_SHARE = re.compile(
    r"^(?P<name>.+?)\s*[(（]\s*\d{1,2}(?:\.\d+)?\s*%\s+of\s+(?:the\s+)?(?:company'?s?\s+)?"
    r"(?:consolidated|total|group|net)\s+(?:net\s+)?(?:sales|revenues?|turnover)\s*[)）]",
    re.IGNORECASE)
_TITLED = re.compile(rf"^(?:[Tt]he\s+)?(?P<name>{_NAME}?)\s+(?i:business\s+)?"
                     r"(?i:segment|division|business)\s*:?$")
_CAPTION = re.compile(rf"\b(?i:for\s+(?:the|our|its))\s+(?P<name>{_NAME}?)\s+"
                      r"(?i:reportable\s+|business\s+|operating\s+)?(?i:segment|division)\b")
#: Words that name the whole, a kind of part or a measure, never one part.
_NOT_A_NAME = frozenset(
    "total all each every business operating reportable segment segments division "
    "divisions our the company consolidated results information data financial "
    "selected summary other core new".split())
_NAME_WORDS = re.compile(r"[\w&'’.-]+")


def _named(name: str) -> str:
    """The part's name, or ``""`` when its words name the whole or a kind of part."""
    words = _NAME_WORDS.findall(name)
    if not words or words[0][0].islower() or all(w.casefold() in _NOT_A_NAME for w in words):
        return ""
    if words[0].casefold() in _NOT_A_NAME - {"other"}:
        return ""
    return " ".join(words)


def company_part(titles: Sequence[str]) -> str:
    """The part of the company a table's titles name (segment, division), else ``""``.

    Examples
    --------
    >>> company_part(["Transportation and Electronics Business (26.0% of consolidated sales):"])
    'Transportation and Electronics'
    >>> company_part(["Domestic Segment"])
    'Domestic'
    >>> company_part(["Selected financial data for the Domestic segment was as follows "
    ...               "($ in millions):"])
    'Domestic'
    >>> company_part(["Sales and operating income by business segment"])
    ''
    >>> company_part(["Business Segment Information", "Total segment operating income"])
    ''
    """
    for title in titles:
        text = " ".join(title.split())
        found = _SHARE.match(text)
        if found is not None:
            name = _TITLED.match(found.group("name").strip(" :"))
            part = _named(name.group("name") if name else found.group("name"))
        else:
            found = _TITLED.match(text.rstrip(" ")) or _CAPTION.search(text)
            part = _named(found.group("name")) if found is not None else ""
        if part:
            return part
    return ""


def part_reason(part: str) -> str:
    """Why a part's table gave no fact of the company.

    >>> part_reason("Domestic").split(":")[0]
    "a table of one part of the company ('Domestic', named in its title)"
    """
    return (f"a table of one part of the company ({part!r}, named in its title): its figures "
            "are not the company's; name the part as an entity of the profile to read them")


#: Financial information of companies held, not controlled: joint ventures, equity-method
#: investees, unconsolidated affiliates, on their own ("on a 100 percent basis").
_INVESTEE = re.compile(
    r"(?i)\b(?:financial\s+(?:information|data|statements?|results|position)|balance\s+sheets?"
    r"|statements?\s+of\s+(?:operations|income))\s+(?:for|of)\s+(?:the\s+|our\s+|its\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?P<whose>joint\s+ventures?|equity[- ]method\s+investees?"
    r"|unconsolidated\s+(?:affiliates|subsidiaries|joint\s+ventures|entities|investees)"
    r"|investees)\b")


def investee_table(titles: Sequence[str]) -> str:
    """Whose figures a table states when its titles say they are investees', else ``""``.

    >>> investee_table(["Summary combined financial information for the joint ventures "
    ...                 "on a 100 percent basis is as follows:"])
    'joint ventures'
    >>> investee_table(["Joint venture earnings and cash flow activity is as follows:"])
    ''
    """
    for title in titles:
        found = _INVESTEE.search(" ".join(title.split()))
        if found is not None:
            return " ".join(found.group("whose").casefold().split())
    return ""


def investee_reason(whose: str) -> str:
    """Why an investees' table gave no fact of the company.

    >>> investee_reason("joint ventures").split(":")[0]
    'a table of the financial information of joint ventures (named in its title)'
    """
    return (f"a table of the financial information of {whose} (named in its title): its "
            "figures are theirs, not the company's")
