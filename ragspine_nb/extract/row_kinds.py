"""What a table row's figures are: amounts, per-share amounts, rates, ratios, counts, shares.

A report's scale ("in millions") applies to amounts only: a per-share amount, a rate, a
ratio or a count is never scaled by it, and a share count only by a scale that does not
belong to a currency. :func:`row_kind` reads the kind from the row label, its section
and column header, and checks it against the figures (a rate is no figure above 1,000;
money is never a rate or a count).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

__all__ = ["fold_quotes", "split_except", "RowKind", "row_kind", "without_named_terms"]

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'",
                         "\u00b4": "'", "`": "'", "\u201c": '"', "\u201d": '"',
                         "\u2013": "-", "\u2014": "-", "\u2212": "-"})


def fold_quotes(text: str) -> str:
    """NFKC, typographic quotes and dashes made plain, case folded (``$’000`` → ``$'000``)."""
    return unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()


_EXCEPT = re.compile(r"\bexcept\b|\bother than\b|\bunless\b|除")


def split_except(folded: str) -> tuple[str, str]:
    """``(what is stated, what is excepted)``: the text split at "except"."""
    parts = _EXCEPT.split(folded, maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


class RowKind:
    """What a row's figures are: the kinds :func:`row_kind` returns."""

    AMOUNT = "amount"
    PER_SHARE = "per_share"
    SHARES = "shares"
    RATE = "rate"
    RATIO = "ratio"
    COUNT = "count"


#: Dot leaders a PDF draws from a label to its figures ("Worldwide employees.........").
_LEADERS = re.compile(r"\.{2,}|…+")
_FOOTNOTE = re.compile(r"\(\s*(?:\d{1,2}|[a-z]|[ivx]{1,4})\s*\)|\*+|(?<=[a-z])\d$")
_PER_SHARE = re.compile(
    r"\bper[- ](?:\w+ )?(?:share|unit|ads|ton|tonne|barrel|ounce|employee|customer|"
    r"subscriber|user|square|hour|day|store|member|membership|subscription|account|"
    r"household|order|transaction|visit|guest|room|seat|passenger)\b|\beps\b"
    r"|\bearnings per\b|\bdividends? per\b"
    r"|\b(?:share|stock|exercise|strike|closing|offering|purchase|market|selling|sale|unit|"
    r"grant[- ]date|average)(?: \w+)? prices?\b|\bprices? (?:per|paid)\b|\bcents?\b"
    r"|\bfair value per\b|\(in dollars\)|\bweighted[- ]average (?:\w+[- ]){0,3}fair values?\b")
#: A rate names itself at the end ("Effective tax rate") or says percent; "Interest rate
#: swaps" and "exchange rate" effects are amounts.
_RATE = re.compile(r"%|\bpercent(?:age)?\b|\brates?$|\brate of\b|\byield$|\bmargin %")
#: An effect of a rate is an amount ("Change in statutory tax rate", "Impact of exchange rate").
_EFFECT = re.compile(r"^(?:change|changes|impact|effect|effects|benefit|cost) (?:in|of|from)\b")
_RATIO = re.compile(r"\bratios?$|\bratio of\b|\bmultiple$|\btimes$")
_COUNT = re.compile(
    r"\bnumber of (?!shares|options|units|warrants|rsus?)|\bemployees$|\bheadcount\b"
    r"|\bin years\b|\byears\)|\(years\b|\(days\)|\bin days\b|^days\b|\(months\)"
    r"|\bfiscal year of\b|\b(?:expected|remaining|contractual|weighted[- ]average) "
    r"(?:\w+ )?(?:term|life)\b")
#: A column head that counts ("Stores Opened", "Total Stores at End of Quarter"): its
#: figures are counts whatever the row ("Best Buy", "Total").
_COUNTED_HEAD = re.compile(r"\bstores? (?:opened|closed|converted|acquired|relocated|count)\b"
                           r"|\btotal stores\b|\bnumber of (?:stores|employees|locations)\b"
                           r"|\bheadcount\b")
_SHARES = re.compile(
    r"\bshares\b|\bnumber of (?:shares|options|units|warrants|rsus?)\b"
    r"|\boptions (?:outstanding|granted|exercised|forfeited|vested|exercisable|cancelled)\b"
    r"|\b(?:rsus?|psus?) (?:outstanding|granted|vested|forfeited)\b")
#: A row named only "Basic" / "Diluted" is an earnings-per-share line unless its headings
#: say it counts shares ("Weighted average shares:").
_BASIC_DILUTED = re.compile(r"(?:basic|diluted)(?:\s*(?:and|&|/|,)\s*(?:basic|diluted))?")
_COUNTED = re.compile(r"\bshares?\b|\bstock\b|\bweighted\b|\bnumber\b|\bunits?\b|\boutstanding\b")
_NOT_SHARES = re.compile(r"\bshare[- ]based\b|\bshareholders?\b|\bstockholders?\b"
                         r"|\b(?:value|amount|cost|proceeds|purchases?) of\b|\brepurchases? of\b"
                         r"|\bshare capital\b|\bshare premium\b|\bshare of\b")


#: what a row's name says of the instrument it is: a rate ("0.5% notes"), a face amount
#: ("(€500 million Euros)", "$325 million"), a denomination ("Euro-denominated") —
#: never the unit its figures are in (a debt table's carrying amounts in $ millions)
_NAMED_TERMS = re.compile(
    r"\d+(?:\.\d+)?\s?%(?=[\s,;]*[A-Za-z0-9])"
    r"|(?:[$€£¥]|\b(?:US|HK|A|C|S)\$)?\s?\d[\d,.]*\s?(?:million|billion|thousand|mn|bn|m)\b"
    r"(?:\s+(?:euros?|dollars?|yen|pounds?|francs?|(?-i:[A-Z]{3})\b))?"
    r"|\b[A-Za-z]+-denominated\b", re.IGNORECASE)


@lru_cache(maxsize=16384)
def without_named_terms(label: str) -> str:
    """A row label without what its name says of the instrument the row is.

    A rate, a face amount or a denomination in a name is part of the name; the unit of
    the row's figures is what the table, its column or a unit note says.

    >>> without_named_terms("Euro-denominated 0.5% notes due 2027")
    'notes due 2027'
    >>> without_named_terms("Medium-term note (€500 million Euros) floating")
    'Medium-term note ( ) floating'
    >>> [without_named_terms(x) for x in ("Margin %", "Growth (%)", "Revenue (in € millions)")]
    ['Margin %', 'Growth (%)', 'Revenue (in € millions)']
    """
    return " ".join(_NAMED_TERMS.sub(" ", label).split())


@lru_cache(maxsize=8192)
def _words(text: str) -> str:
    """Folded text: no footnote markers, dot leaders or "except ..."; notes kept.

    ("Worldwide employees......" is "worldwide employees".)
    """
    head, _ = split_except(fold_quotes(text))
    return " ".join(_FOOTNOTE.sub(" ", _LEADERS.sub(" ", head)).split()).rstrip(":").strip()


def row_kind(label: str, context: str = "", values: Sequence[float] = (),
             money: bool = False) -> str:
    """What a row's figures are (:class:`RowKind`), from its words and its figures.

    ``label`` is the row label, ``context`` its section and column header (their
    "except ..." clauses are not read as a kind); ``values`` are the figures and
    ``money`` whether the cells carry a currency symbol. Money is an amount or a
    per-share amount; a rate or ratio has no figure above 1,000; a footnote marker is
    not a word ("Net rate (1)").

    Examples
    --------
    >>> [row_kind(t) for t in ("Diluted earnings per share", "Effective tax rate",
    ...                        "Weighted average shares outstanding", "Number of employees",
    ...                        "Share-based compensation", "Interest rate swaps", "Revenue")]
    ['per_share', 'rate', 'shares', 'count', 'amount', 'amount', 'amount']
    >>> row_kind("Effective rate (1)", values=[12_500.0]), row_kind("Basic", "Earnings per share")
    ('amount', 'per_share')
    >>> row_kind("Basic", "Continuing operations:"), row_kind("Basic", "Weighted average shares")
    ('per_share', 'shares')
    >>> row_kind("Best Buy", " | fiscal 2024 stores opened"), row_kind("Total", " | total stores")
    ('count', 'count')

    An amount per member, order or room is an amount per unit, as one per share is:

    >>> row_kind("Average monthly revenue per paying membership"), row_kind("Revenue per room")
    ('per_share', 'per_share')
    >>> row_kind("Worldwide employees........................")  # dot leaders drawn
    'count'
    """
    return _kind(label, context, not money and not any(abs(v) > 1000 for v in values), money)


@lru_cache(maxsize=8192)
def _kind(label: str, context: str, small: bool, money: bool) -> str:
    """:func:`row_kind` with its figures read as ``small`` (none above 1,000, no money).

    Kept per row: every figure of a row asks it again.
    """
    own = _words(without_named_terms(label))
    bare = " ".join(re.sub(r"\([^)]*\)", " ", own).split())
    around = _words(context)
    words = f"{own} | {around}"
    if _PER_SHARE.search(words):
        return RowKind.PER_SHARE
    if small and _BASIC_DILUTED.fullmatch(bare) and not _COUNTED.search(words):
        return RowKind.PER_SHARE
    if small and (_RATE.search(bare) and not _EFFECT.search(bare) or "%" in own
                  or "percent" in own):
        return RowKind.RATE
    if small and _RATIO.search(bare):
        return RowKind.RATIO
    if not money and (_COUNT.search(own) or _COUNTED_HEAD.search(around)):
        return RowKind.COUNT
    if not money and _SHARES.search(words) and not _NOT_SHARES.search(own):
        return RowKind.SHARES
    return RowKind.AMOUNT
