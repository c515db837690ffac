"""Row labels: their normal forms, sections, and metrics derived from labels no profile knows.

A row label the profile does not know becomes a metric of its own: its code comes from
the label (qualified by its section when the label repeats inside one table: "Other"
under "Revenue:" and under "Expenses:"), its synonyms are the whole label (an "and"
inside it stays: "Research and development" is one metric), the section-qualified form
and, where only one row of the table has them, plain variants (no parenthesised note,
singular words, "Total X" as "X").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ragspine_nb.extract.header_periods import Period
from ragspine_nb.lexicon import MONTH
from ragspine_nb.profile import MetricSpec
from ragspine_nb.vocabulary import code_from_label
from ragspine_nb.wordset import singular

__all__ = ["norm_label", "label_variants", "closing_subject", "DerivedRow", "Namer",
           "repeated_labels", "undated_label", "balance_subject", "shown_label"]

_FOOTNOTE = re.compile(r"\(\s*(?:\d{1,2}|[a-z])\s*\)|\*+")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
#: dot leaders run from a printed label to its figures ("Fiscal Year ..........")
_LEADER = re.compile(r"\s*(?:[.·…]\s*){3,}$")


def norm_label(label: str) -> str:
    """Lower case, plain quotes, no footnote markers or trailing colon, spaces collapsed.

    Examples
    --------
    >>> norm_label("Customers’ deposits (1):"), norm_label("Current year1"), norm_label("Revenue .")
    ("customers' deposits", 'current year', 'revenue')
    >>> norm_label("- Hereof debt"), norm_label("CURRENT YEAR1"), norm_label("Q4")
    ('hereof debt', 'current year', 'q4')
    """
    text = _FOOTNOTE.sub("", label.translate(_QUOTES)).strip().rstrip(":;,. ").strip()
    text = re.sub(r"^[-–—•·]+\s*", "", text)  # a leading bullet
    # a footnote digit glued on: "Current year1", "CURRENT YEAR1" (never "Q4")
    text = re.sub(r"(?<=[a-z])\d$|(?<=[A-Z]{3})\d$", "", text)
    return " ".join(text.lower().split())


_MONTH = MONTH
_DATE_WORDS = re.compile(
    rf"(?:\b(?:at|as of|as at|on|ended|ending|for|of|in)\s+)?(?:the\s+)?"
    rf"(?:{_MONTH}\s+\d{{1,2}},?\s+|\d{{1,2}}\s+{_MONTH},?\s+|{_MONTH},?\s+)?"
    rf"(?:fiscal\s+|fy\s?)?(?:19|20)\d\d\b")


def undated_label(label: str) -> str:
    """A row label without the date it carries ("Balance at December 31, 2018" → "balance").

    Examples
    --------
    >>> undated_label("Balances at December 31, 2018"), undated_label("Outstanding, 30 June 2019")
    ('balances', 'outstanding')
    """
    text = _DATE_WORDS.sub(" ", norm_label(label))
    return " ".join(text.split()).strip(" ,;:-") or norm_label(label)


_CLOSING = re.compile(r"^(?P<what>.+?),?\s+(?:at\s+|as\s+of\s+)?(?:the\s+)?end\s+of\s+"
                      r"(?:the\s+)?(?:fiscal\s+)?(?:year|period)$")


def closing_subject(label: str) -> str:
    """What a closing row closes on ("goodwill, end of the year" → "goodwill"), else "".

    Examples
    --------
    >>> closing_subject("goodwill, end of the year"), closing_subject("goodwill")
    ('goodwill', '')
    """
    closing = _CLOSING.match(label)
    return closing["what"] if closing else ""


#: A balance stated at a point: "... at December 31, 2018", "as of", "as at".
_AT_DATE = re.compile(r"\b(?:at|as of|as at)\s")
#: A balance named by its place in a period: "beginning of year", "opening balance".
_PERIOD_POINT = re.compile(r"\b(?:beginning|end|start) of (?:the )?(?:fiscal )?(?:year|period)"
                           r"\b|\b(?:opening|closing|ending|beginning) balance\b")


def balance_subject(label: str) -> str:
    """What a balance row is the balance of, else "" (a row of a period's flow).

    A balance is dated at a point ("Non-vested at December 31, 2018"), closes a period
    ("Goodwill, end of the year") or opens one ("Balance at beginning of year").

    Examples
    --------
    >>> balance_subject("Non-vested at December 31, 2018"), balance_subject("Granted")
    ('non-vested', '')
    >>> balance_subject("goodwill, end of the year"), balance_subject("Revenue for 2019")
    ('goodwill', '')
    """
    norm = norm_label(label)
    undated = undated_label(label)
    if undated != norm and _AT_DATE.search(norm):
        return undated
    if what := closing_subject(norm):
        return what
    return " ".join(_PERIOD_POINT.sub(" ", norm).split()).strip(" ,") \
        if _PERIOD_POINT.search(norm) else ""


#: A defined term: '("Apple")', "(the “Company”)".
_DEFINED = re.compile(r"\(\s*(?:the\s+)?[\"\u201c]([^\"\u201d()]{2,40})[\"\u201d]\s*\)", re.I)


def label_variants(label: str) -> set[str]:
    """The label without parenthesised notes, with singular words, "Total X" as "X".

    A closing row ("Goodwill, end of the year") is also the level it closes on:
    "goodwill", "ending goodwill".

    Examples
    --------
    >>> sorted(label_variants("goodwill, end of the year"))
    ['ending goodwill', 'goodwill', 'goodwill, end of the year']
    >>> sorted(label_variants('apple inc. ("apple")'))
    ['apple', 'apple inc.', 'apple inc. ("apple")']
    """
    bare = " ".join(re.sub(r"\([^)]*\)", " ", label).split())
    out = {bare} if bare else set()
    # a defined term in quotes ('Apple Inc. ("Apple")') is the row's short name
    out |= {" ".join(m.group(1).split()) for m in _DEFINED.finditer(label)}
    if bare.startswith("total ") and len(bare) > 6:
        out.add(bare[6:])
    if what := closing_subject(bare):
        out |= {what, f"ending {what}"}
    for text in (label, bare):
        out.add(" ".join(singular(w) for w in text.split()))
    return {v for v in out if v}


@lru_cache(maxsize=16384)
def shown_label(raw: str) -> str:
    """A row label as a reader sees it: without the dot leaders to its figures.

    >>> shown_label("Fiscal Year ..........."), shown_label("Net sales"), shown_label("......")
    ('Fiscal Year', 'Net sales', '')
    """
    return _LEADER.sub("", raw).strip()


@dataclass
class DerivedRow:
    """A metric derived from one row label (and the rows sharing it in later blocks)."""

    code: str
    label: str
    synonyms: list[str]
    variants: set[str]
    unit: str = ""
    parts: list[str] = field(default_factory=list)


def _stub_names(stub: str) -> list[str]:
    """The stub and its head ("revenue from external customers by country": "revenue")."""
    head = re.split(r"\s+(?:from|by|of|for|in|to)\s+", stub, maxsplit=1)[0]
    return [stub, head] if head != stub else [stub]


def _synonyms(label: str, section: str, repeated: bool, stub: str = ""
              ) -> tuple[list[str], set[str]]:
    synonyms = [label] + ([f"{section} {label}"] if section else [])
    if (repeated or label == "total") and section:
        synonyms = [f"{section} {label}", f"{label} {section}"]
    named = [*synonyms, *(f"{s} {label}" for s in _stub_names(stub))] \
        if stub and not section else synonyms
    variants = {v for syn in named for v in label_variants(syn)} - set(synonyms)
    if label == "total" and section:
        variants.add(section)  # the section's own name, if no row is named so
    return synonyms, variants


@dataclass
class Namer:
    """Derived metric codes of one table, kept apart from the profile's codes.

    The same label (and section) in a later block with other periods is the same
    metric; with the same periods it is another row (``_2``).
    """

    taken: Collection[str]
    rows: dict[str, DerivedRow] = field(default_factory=dict)
    seen: dict[tuple[str, str], tuple[str, frozenset[Period]]] = field(default_factory=dict)
    #: the profile's metrics read as totals of this table's rows: their parts
    known_parts: dict[str, list[str]] = field(default_factory=dict)
    #: the profile's metrics read from a row through a statement's wording: the row names
    known_names: dict[str, list[str]] = field(default_factory=dict)

    def code_for(self, raw: str, label: str, section: str, repeated: bool,
                 periods: frozenset[Period], stub: str = "") -> str | None:
        """The derived metric code of a row; None when its label has no word ("$ 2").

        ``stub`` (what the table's rows are, from its header) qualifies a row with no
        section as a variant: "Bell Wireless" under "Operating revenues" is also
        "operating revenues bell wireless".
        """
        earlier = self.seen.get((section, label))
        if earlier and not earlier[1] & periods:
            self.seen[(section, label)] = (earlier[0], earlier[1] | periods)
            return earlier[0]
        qualified = (repeated or label == "total") and section
        base = code_from_label(f"{section} {label}" if qualified else label)
        if not base or not re.search(r"[^\W\d_]", label):
            return None
        code = base
        while code in self.taken or code in self.rows:
            code = f"{base}_{2 if code == base else int(code.rsplit('_', 1)[1]) + 1}"
        synonyms, variants = _synonyms(label, section, repeated, stub)
        self.rows[code] = DerivedRow(code, shown_label(raw) or label, synonyms, variants)
        self.seen[(section, label)] = (code, periods)
        return code

    def specs(self) -> tuple[MetricSpec, ...]:
        """The derived metrics; a variant is kept only where one row of the table has it."""
        owners: dict[str, set[str]] = {}
        for row in self.rows.values():
            for v in (*row.synonyms, *row.variants):
                owners.setdefault(v, set()).add(row.code)
        out = []
        for row in self.rows.values():
            extra = [v for v in sorted(row.variants)
                     if owners[v] == {row.code} and v not in row.synonyms]
            out.append(MetricSpec(row.code, row.unit, row.label,
                                  tuple(dict.fromkeys([*row.synonyms, *extra])),
                                  tuple(row.parts)))
        out += [MetricSpec(code, "", "", tuple(dict.fromkeys(self.known_names.get(code, ()))),
                           tuple(self.known_parts.get(code, ())))
                for code in dict.fromkeys([*self.known_parts, *self.known_names])]
        return tuple(out)


def repeated_labels(labels: Iterable[str]) -> set[str]:
    """Labels that occur more than once."""
    seen: set[str] = set()
    out = set()
    for label in labels:
        if label and label in seen:
            out.add(label)
        seen.add(label)
    return out
