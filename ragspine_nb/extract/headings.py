"""Headings of a report's text, read from the shape of its lines, and the section path.

A long filing is a tree of sections: "PART II" › "Item 7. Management's Discussion and
Analysis …" › "Results of Operations" › "Cost of Sales:". A passage cut from it says
little about where it sits ("The decrease was primarily driven by comparable sales
declines …"); its section path says much. :func:`heading_level` reads one line (with
the line after it) as a heading of level 1–3 or none, from its shape alone:

0. a Markdown heading (``#``, ``##``, ``###`` and deeper: levels 1, 2 and 3);
1. a part or item of a filing: ``PART II``, ``Item 7.``, ``ITEM 1A.`` (not a table of
   contents' entry, which ends with its page number);
2. a titled block: a primary statement's title ("Consolidated Statements of Cash
   Flows"), a note ("Note 5. Goodwill", "5. Goodwill"), a line in capitals of two words or
   more ("RESULTS OF OPERATIONS");
3. a sub-heading: a short line in title case, with no figures, that ends with a colon or
   comes right before a sentence of prose ("Liquidity and Capital Resources" before
   "Cash and cash equivalents were as follows:"). A table's column headers and row labels
   come before figures, not prose, so they are no headings;
4. a table's caption: a line ending with a colon right before a row that ends in a
   figure ("Selected financial data for the Domestic segment was as follows ($ in
   millions):"), so the rows after it are read under it.

Page furniture ("Table of Contents", a page number) is never a heading. A glyph run that
a text layer split ("Statement of Incom e") is joined back in the heading's text.
:func:`section_paths` walks a document's passages in order and gives the path of
headings in force where each passage starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragspine_nb.extract.pdf_statements import statement_kind

__all__ = ["heading_level", "heading_text", "section_paths", "SECTION_SEPARATOR",
           "MAX_HEADING_CHARS"]

#: Between the headings of a section path.
SECTION_SEPARATOR = " › "
#: Longest line read as a heading of level 2 or 3 (an item's title may be longer).
MAX_HEADING_CHARS = 90
_MAX_ITEM_CHARS = 160
_MARKDOWN = re.compile(r"^(#{1,6})\s+\S")
_ITEM = re.compile(r"^(?:PART\s+[IVX]{1,4}\b|ITEM\s+\d{1,2}[A-C]?\b)", re.IGNORECASE)
_NOTE = re.compile(r"^(?:NOTE\s+\d{1,2}\b|\d{1,2}\.\s+(?=[A-Z]))", re.IGNORECASE)
_STATEMENT_START = re.compile(r"^(?:consolidated|combined|condensed|statements?|balance"
                              r"|income)\b", re.IGNORECASE)
#: A table of contents' entry: the line ends with its page number.
_PAGE_TAIL = re.compile(r"(?:\s|\.)\d{1,3}$")
_FURNITURE = re.compile(r"^(?:table of contents|contents|index|page\s+\d+|[-–\s\d]+)$",
                        re.IGNORECASE)
#: A table's row: it ends in a figure ("$ 46,298", "(10.6)%", "—" is no figure).
_FIGURE_END = re.compile(r"\d[\d,.]*\)?\s*%?$")
_MAX_CAPTION_CHARS = 240
_WORD = re.compile(r"[^\W\d_][\w'’&-]*")
_SPLIT_GLYPH = re.compile(r"(?<=[a-z]) (?=[a-z]\b)")
_MINOR = frozenset("a an and as at by for from in into of on or per the to vs with".split())


def _words(line: str) -> list[str]:
    return _WORD.findall(line)


def _title_case(line: str) -> bool:
    """First word capitalised and at least 3 in 4 of the other major words too."""
    words = _words(line)
    if not words or not words[0][0].isupper():
        return False
    major = [w for w in words if w.lower() not in _MINOR]
    return sum(w[0].isupper() for w in major) >= 0.75 * len(major)


def _prose(line: str) -> bool:
    """A sentence of running text: long, several words, mostly lower-case."""
    words = _words(line)
    return len(line) >= 50 and len(words) >= 8 and sum(w[0].islower() for w in words) >= 4


def _capitals(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return len(_words(line)) >= 2 and bool(letters) and all(c.isupper() for c in letters)


def heading_level(line: str, next_line: str = "") -> int:
    """1 (part, item), 2 (statement, note, capitals), 3 (sub-heading), 4 (caption) or 0.

    Examples
    --------
    >>> heading_level("Item 7. Management's Discussion and Analysis")
    1
    >>> heading_level("Item 7. Management's Discussion and Analysis 23")  # contents entry
    0
    >>> heading_level("Consolidated Statements of Cash Flows")
    2
    >>> heading_level("RESULTS OF OPERATIONS")
    2
    >>> heading_level("Liquidity and Capital Resources", "Cash and cash equivalents were "
    ...               "as follows at the end of the fiscal years presented below:")
    3
    >>> heading_level("## Hong Kong"), heading_level("Total Stores", "Fiscal Year")
    (2, 0)
    >>> heading_level("Table of Contents")
    0
    >>> heading_level("Revenue $ 46,298 $ 51,761"), heading_level("The decrease was driven.")
    (0, 0)
    >>> heading_level("Cash flows were as follows ($ in millions):", "Operating $ 1,824 $ 3,252")
    4
    """
    s = " ".join(line.split())
    if s.endswith(":") and len(s) <= _MAX_CAPTION_CHARS and _FIGURE_END.search(next_line.strip()):
        return 4 if _words(s) else 0
    if not 3 <= len(s) <= _MAX_ITEM_CHARS or _FURNITURE.match(s):
        return 0
    marked = _MARKDOWN.match(s)
    if marked:  # a Markdown heading says its own level
        return min(3, len(marked.group(1)))
    if _ITEM.match(s):
        return 0 if _PAGE_TAIL.search(s) else 1
    if len(s) > MAX_HEADING_CHARS or s.endswith((".", ",", ";")) or _PAGE_TAIL.search(s):
        return 0
    body = _NOTE.sub("", s, count=1)
    if body != s and _title_case(body) and not re.search(r"\d", body):
        return 2
    if re.search(r"\d", s):
        return 0
    if _STATEMENT_START.match(s) and _title_case(s) and statement_kind([s]):
        return 2
    if _capitals(s):
        return 2
    if _title_case(s) and len(_words(s)) <= 10 and (
            s.endswith(":") or _prose(next_line) or next_line.rstrip().endswith(":")):
        return 3
    return 0


def heading_text(line: str) -> str:
    """A heading as shown in a path: one line, split glyph runs joined, no end colon.

    >>> heading_text("Consolidated Statement of Incom e")
    'Consolidated Statement of Income'
    """
    text = _SPLIT_GLYPH.sub("", " ".join(line.split()))
    return text.lstrip("#").strip().rstrip(":").strip()


def section_paths(texts: Iterable[str]) -> list[str]:
    r"""The section path in force where each passage starts (passages in document order).

    A heading of level *n* replaces the heading of level *n* and those below it. Passages
    may overlap (a heading they repeat is read again, to the same effect).

    Examples
    --------
    >>> section_paths(["Item 7. MD&A\nRESULTS OF OPERATIONS\nSales fell.",
    ...                "Net sales were lower in every region of the world this year.",
    ...                "Item 8. Financial Statements"])
    ['', 'Item 7. MD&A › RESULTS OF OPERATIONS', 'Item 7. MD&A › RESULTS OF OPERATIONS']
    """
    path: dict[int, str] = {}
    out: list[str] = []
    for text in texts:
        out.append(SECTION_SEPARATOR.join(path[k] for k in sorted(path)))
        lines = [line for line in text.splitlines() if line.strip()]
        for i, line in enumerate(lines):
            level = heading_level(line, lines[i + 1] if i + 1 < len(lines) else "")
            if level:
                path = {k: v for k, v in path.items() if k < level}
                path[level] = heading_text(line)
    return out
