"""Numbers and units as reports write them.

``parse_number`` reads thousands separators, parentheses as negatives, a trailing
``%``, full-width digits and the Unicode minus; anything else is *not a number* and
is reported by the caller, never coerced. ``detect_unit`` reads a stated scale
("US$m", "in thousands", "亿元", "%") from a label or title and returns a unit code
such as ``USD_M``, ``CNY_100M`` or ``PCT``; values are stored as written and the
scale is recorded in the unit. Scales are read with the one lexicon of
:mod:`ragspine_nb.units` (longest spelling first: 百万 before 万).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ragspine_nb.units import stated_scale

__all__ = ["ParsedNumber", "parse_number", "cell_currency", "detect_unit", "states_figure",
           "without_share_counts"]

_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")
#: A number of shares a text states ("1.0 billion shares", "265,703,000 shares").
_SHARES = r"\d[\d.,]*\s*(?:thousand|million|billion)?\s+shares\b"
_SHARE_COUNT = re.compile(_SHARES, re.I)
#: A count or an amount written in a text: thousands separators, five digits or more, a
#: number and its scale word, a number of shares ("549,245,105", "400 million", "900
#: shares authorized").
_STATED_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+(?![\d,])|\d{5,}"
                            rf"|\d(?:[\d.]*)\s*(?:thousand|million|billion)s?\b|{_SHARES}", re.I)
#: What a currency mark followed by zeros writes in a header: thousands of it ("US$000").
_SCALE_MARKS = frozenset({"000", "000s"})
_DASHES = {"\u2212": "-", "\u2013": "-", "\u2014": "-", "\ufe63": "-", "\uff0d": "-"}


@dataclass(frozen=True)
class ParsedNumber:
    """A cell's number, or the reason it is not one.

    ``currency`` is the currency the cell writes before its number: a code (``USD`` for
    ``US$``, ``EUR`` for ``€``) or the bare symbol when it names no one currency (``$``).
    """

    value: float | None
    percent: bool = False
    reason: str = ""
    currency: str = ""


#: Currency marks a cell may write before its number, longest first.
_CELL_CURRENCIES = (("us$", "USD"), ("hk$", "HKD"), ("a$", "AUD"), ("c$", "CAD"),
                    ("s$", "SGD"), ("nt$", "TWD"), ("r$", "BRL"), ("usd", "USD"),
                    ("eur", "EUR"), ("gbp", "GBP"), ("hkd", "HKD"), ("rmb", "CNY"),
                    ("cny", "CNY"), ("$", "$"), ("€", "EUR"), ("£", "GBP"), ("¥", "¥"))


def _strip_currency(text: str) -> tuple[str, str]:
    """``(rest, currency)`` with a leading currency mark removed (the sign kept in front)."""
    sign = text[0] if text[:1] in "+-" else ""
    body = text[len(sign):]
    folded = body.casefold()
    for mark, code in _CELL_CURRENCIES:
        if folded.startswith(mark):
            return sign + body[len(mark):], code
    return text, ""


def cell_currency(cell: str) -> str:
    """The currency mark a cell writes first, whatever follows ("$ —" → ``$``).

    >>> cell_currency("$ —"), cell_currency("(US$ 2.50)"), cell_currency("1,320"), cell_currency("")
    ('$', 'USD', '', '')
    """
    text = unicodedata.normalize("NFKC", cell).strip().lstrip("(").replace(" ", "")
    return _strip_currency(text)[1] if text else ""


def parse_number(cell: object) -> ParsedNumber:
    """Parse a table cell.

    Thousands separators, a leading currency mark (``$``, ``US$``, ``€``, ``RMB``),
    parentheses or a minus as a negative, a trailing ``%``, full-width digits and the
    Unicode minus are read; anything else is not a number.

    Examples
    --------
    >>> parse_number("1,320").value, parse_number("(42.3)").value, parse_number("12.8%")
    (1320.0, -42.3, ParsedNumber(value=12.8, percent=True, reason='', currency=''))
    >>> parse_number("$ (1,234)"), parse_number("n/a").reason
    (ParsedNumber(value=-1234.0, percent=False, reason='', currency='$'), "not a number: 'n/a'")
    >>> parse_number("US$000").value is None  # a header's scale (thousands of US$)
    True
    """
    if isinstance(cell, bool):
        return ParsedNumber(None, reason=f"not a number: {cell!r}")
    if isinstance(cell, int | float):
        if cell != cell or cell in (float("inf"), float("-inf")):
            return ParsedNumber(None, reason=f"not a finite number: {cell!r}")
        return ParsedNumber(float(cell))
    if cell is None or (isinstance(cell, str) and not cell.strip()):
        return ParsedNumber(None, reason="empty cell")
    if not isinstance(cell, str):
        return ParsedNumber(None, reason=f"not a number: {cell!r}")
    return _parse_text(cell)


@lru_cache(maxsize=16384)
def _parse_text(cell: str) -> ParsedNumber:
    """:func:`parse_number` of a non-blank string (kept: a filing repeats its cells)."""
    text = unicodedata.normalize("NFKC", cell).strip()
    for dash, ascii_dash in _DASHES.items():
        text = text.replace(dash, ascii_dash)
    text = text.replace(" ", "").replace("\u00a0", "")
    text, currency = _strip_currency(text)
    negative = False
    percent = text.endswith("%") and text.startswith("(")  # "(3.2)%"
    text = text[:-1] if percent else text
    if text.startswith("(") and text.endswith(")"):
        negative, text = True, text[1:-1]
        if not currency:
            text, currency = _strip_currency(text)
    if text.endswith("%"):
        percent, text = True, text[:-1]
    if currency and text.casefold() in _SCALE_MARKS:  # "US$000", "£000": a header's scale
        return ParsedNumber(None, reason=f"a scale, not a number: {cell!r}")
    if not _NUMBER.match(text):
        return ParsedNumber(None, reason=f"not a number: {cell!r}")
    value = float(text.replace(",", ""))
    return ParsedNumber(-value if negative else value, percent=percent, currency=currency)


_CURRENCIES = (
    (re.compile(r"us\$|usd|美元"), "USD"),
    (re.compile(r"hk\$|hkd|港元|港币"), "HKD"),
    (re.compile(r"rmb|cny|人民币|元"), "CNY"),
)
_PERCENT = re.compile(r"[(（]\s*%\s*[)）]|%|percent|百分比")


def detect_unit(text: str, default_currency: str = "") -> str | None:
    """Return the unit a label or title states, or ``None`` when it states none.

    Parameters
    ----------
    text : str
        A row label, header cell or title, e.g. ``"Revenue (US$m)"``.
    default_currency : str
        Currency to combine with a bare scale ("in thousands"), e.g. ``"USD"``.

    Examples
    --------
    >>> [detect_unit(t) for t in ("Key figures (US$m)", "营业收入（人民币亿元）", "ROE (%)")]
    ['USD_M', 'CNY_100M', 'PCT']
    >>> detect_unit("in thousands", "USD"), detect_unit("Revenue")
    ('USD_K', None)
    >>> detect_unit("单位：人民币百万元"), detect_unit("RMB'000"), detect_unit("百万美元")
    ('CNY_M', 'CNY_K', 'USD_M')
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    if _PERCENT.search(folded):
        return "PCT"
    scale = stated_scale(folded)
    currency = next((code for pattern, code in _CURRENCIES if pattern.search(folded)), "")
    if not scale and not currency:
        return None
    currency = currency or default_currency
    if not scale:
        return currency or None
    return f"{currency}_{scale}" if currency else scale


def states_figure(text: str) -> bool:
    """Whether a text writes a count or an amount of its own (not a year, not a scale).

    Such a label is a statement ("Shares outstanding - December 31, 2022: 549,245,105";
    "Common stock: Authorized — 1.0 billion shares"), never a column header, a section
    heading or a table's unit caption.

    Examples
    --------
    >>> [states_figure(t) for t in ("Authorized — 1.0 billion shares", "549,245,105",
    ...                             "900 shares authorized; 601 shares issued",
    ...                             "$ in millions, except per share amounts",
    ...                             "December 31, 2022", "Fiscal 2023")]
    [True, True, True, False, False, False]
    """
    return bool(_STATED_FIGURE.search(text))


def without_share_counts(text: str) -> str:
    """``text`` with the numbers of shares it states taken out (what is left may caption).

    Examples
    --------
    >>> without_share_counts("Common stock: Authorized — 1.0 billion shares; 400,000 shares")
    'Common stock: Authorized — ;'
    >>> without_share_counts("(In thousands, except share and per share data)")
    '(In thousands, except share and per share data)'
    """
    return " ".join(_SHARE_COUNT.sub(" ", text).split())
