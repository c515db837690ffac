"""Unit codes of the fact store: currency, scale and percent, and when two amounts agree.

``USD_M`` is US dollars in millions, ``CNY_100M`` yuan in 亿 (1e8), ``PCT`` a percentage,
a bare currency (``USD``) units of it, a bare scale (``M``) a plain number in millions and
``""`` a plain number. Two statements of one fact agree when they name the same thing
in the same currency and their amounts match to the precision of the coarser scale.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["SCALES", "SCALE_WORDS", "CURRENCY_WORDS", "SCALE_MARKS", "scale_pattern", "scale_code",
           "scale_codes", "stated_scale", "UnitParts", "unit_parts", "same_amount",
           "scale_ratio", "join_unit", "SHARES", "PLAIN", "store_unit", "unit_text",
           "unit_label", "with_unit"]

#: Scale factors of the unit codes :func:`detect_unit` and the fact store use.
SCALES: dict[str, float] = {"K": 1e3, "10K": 1e4, "100K": 1e5, "M": 1e6, "10M": 1e7,
                            "100M": 1e8, "BN": 1e9}
#: The unit of a count of shares (``shares_K``: thousands of shares); never a currency.
SHARES = "shares"
#: The stored unit of a plain number (no currency, no scale: a ratio, a count, an amount
#: whose source states neither). A stored unit is never empty; :func:`unit_text` shows it
#: as nothing.
PLAIN = "NUMBER"


def store_unit(code: str) -> str:
    """The unit a fact stores: ``""`` (a plain number) becomes :data:`PLAIN`."""
    return code or PLAIN


def unit_text(code: str) -> str:
    """A stored unit as an answer writes it: :data:`PLAIN` is written as nothing.

    Examples
    --------
    >>> unit_text("NUMBER"), unit_text("USD_M"), unit_text("")
    ('', 'USD_M', '')
    """
    return "" if code == PLAIN else code


#: Currency codes as readers write them (others are written as their code).
_CURRENCY: dict[str, dict[str, str]] = {
    "en": {"USD": "US$", "HKD": "HK$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "CNY",
           "RMB": "RMB", "SGD": "S$", "AUD": "A$", "CAD": "C$"},
    "zh": {"USD": "美元", "HKD": "港元", "EUR": "欧元", "GBP": "英镑", "JPY": "日元",
           "CNY": "元", "RMB": "元", "SGD": "新加坡元", "AUD": "澳元", "CAD": "加元"},
}
#: Scale codes as readers write them after an amount.
_SCALE: dict[str, dict[str, str]] = {
    "en": {"K": "k", "10K": "×10k", "100K": "×100k", "M": "m", "10M": "×10m",
           "100M": "×100m", "BN": "bn"},
    "zh": {"K": "千", "10K": "万", "100K": "十万", "M": "百万", "10M": "千万", "100M": "亿",
           "BN": "十亿"},
}
_PLAIN_SCALE = {"K": "thousand", "10K": "×10 thousand", "100K": "×100 thousand",
                "M": "million", "10M": "×10 million", "100M": "×100 million",
                "BN": "billion"}


def unit_label(code: str, lang: str = "en") -> str:
    """A stored unit as a reader writes it after a value (``USD_M`` → ``US$ m``).

    Examples
    --------
    >>> [unit_label(c) for c in ("USD_M", "PCT", "USD", "K", "shares_K", "NUMBER", "XYZ_M")]
    ['US$ m', '%', 'US$', 'thousand', 'thousand shares', '', 'XYZ m']
    >>> unit_label("CNY_100M", "zh"), unit_label("USD_M", "zh")
    ('亿元', '百万美元')
    """
    if code in ("", PLAIN):
        return ""
    if code == "PCT":
        return "%"
    lang = "zh" if lang == "zh" else "en"
    head, _, tail = code.partition("_")
    if head in SCALES and not tail:
        return _SCALE["zh"][head] if lang == "zh" else _PLAIN_SCALE[head]
    if head == SHARES:
        words = {"en": "shares", "zh": "股"}[lang]
        scale = (_SCALE["zh"].get(tail, tail) if lang == "zh" else _PLAIN_SCALE.get(tail, tail))
        return f"{scale}{words}" if lang == "zh" else f"{scale} {words}".strip()
    currency = _CURRENCY[lang].get(head, head)
    scale = _SCALE[lang].get(tail, tail)
    if lang == "zh":
        return f"{scale}{currency}"
    return f"{currency} {scale}".strip()


def with_unit(value_text: str, code: str, lang: str = "en") -> str:
    """A formatted value followed by its unit label (``"13.4%"``, ``"1,405 US$ m"``).

    >>> with_unit("13.4", "PCT"), with_unit("1,405", "USD_M"), with_unit("7", "NUMBER")
    ('13.4%', '1,405 US$ m', '7')
    """
    label = unit_label(code, lang)
    if not label:
        return value_text
    return f"{value_text}{label}" if label == "%" or lang == "zh" else f"{value_text} {label}"


def join_unit(head: str, scale: str) -> str:
    """A unit code from a currency (or ``shares``) and a scale code, either may be empty.

    Examples
    --------
    >>> join_unit("USD", "M"), join_unit("", "K"), join_unit("EUR", ""), join_unit("", "")
    ('USD_M', 'K', 'EUR', '')
    >>> join_unit("shares", "K")
    'shares_K'
    """
    return f"{head}_{scale}" if head and scale else head or scale


@dataclass(frozen=True)
class UnitParts:
    """A unit code split into what makes two figures comparable."""

    currency: str = ""
    factor: float | None = None
    percent: bool = False


def unit_parts(code: str | None) -> UnitParts:
    """``"USD_M"`` → USD, 1e6; ``"PCT"`` → percent; ``"100M"`` → scale only; None → nothing.

    Examples
    --------
    >>> unit_parts("CNY_100M")
    UnitParts(currency='CNY', factor=100000000.0, percent=False)
    >>> unit_parts("PCT").percent, unit_parts("100M").factor, unit_parts(None).factor
    (True, 100000000.0, None)
    >>> unit_parts("NUMBER").factor, unit_parts("shares_K")
    (None, UnitParts(currency='shares', factor=1000.0, percent=False))
    """
    if not code or code == PLAIN:
        return UnitParts()
    if code == "PCT":
        return UnitParts(percent=True)
    head, _, tail = code.partition("_")
    if tail:
        return UnitParts(head, SCALES.get(tail))
    return UnitParts(factor=SCALES[head]) if head in SCALES else UnitParts(currency=head)


def scale_ratio(unit_a: str, unit_b: str) -> float | None:
    """How many of ``unit_b`` one ``unit_a`` is, for two scales of one currency; else None.

    Examples
    --------
    >>> scale_ratio("USD_M", "USD_K"), scale_ratio("K", "M"), scale_ratio("USD_M", "CNY_M")
    (1000.0, 0.001, None)
    >>> scale_ratio("PCT", "PCT") is None, scale_ratio("USD", "USD_M") is None
    (True, True)
    """
    a, b = unit_parts(unit_a), unit_parts(unit_b)
    if a.percent or b.percent or a.currency != b.currency or not (a.factor and b.factor):
        return None
    return a.factor / b.factor


def same_amount(value_a: float, unit_a: str, value_b: float, unit_b: str) -> bool:
    """Whether two stated amounts are the same figure, written in the same or another scale.

    The same unit compares exactly (float noise aside). Scales of one currency (or two
    plain scaled numbers) compare in base units, within half a unit of the coarser
    figure's last written place: 1,405 ``USD_M`` is 1,405,123 ``USD_K`` (rounded), not
    1,450,000 ``USD_K``. Anything else (another currency, a percentage against an amount,
    an unscaled unit) differs.

    Examples
    --------
    >>> same_amount(1405, "USD_M", 1405123, "USD_K"), same_amount(1405, "USD_M", 1450000, "USD_K")
    (True, False)
    >>> same_amount(14.05, "CNY_100M", 1405, "CNY_M"), same_amount(14.05, "CNY_100M", 1420, "CNY_M")
    (True, False)
    >>> same_amount(1405, "USD_M", 1405, "CNY_M"), same_amount(5.2, "PCT", 5.2, "")
    (False, False)

    A share count written in full is a count of single shares: 5,591,727 ``shares`` is
    5,592 ``shares_K`` (an amount written with no scale stays apart from a scaled one):

    >>> same_amount(5591727, "shares", 5592, "shares_K"), same_amount(34.2, "shares", 34.2,
    ...                                                                "shares_M")
    (True, False)
    """
    if unit_a == unit_b:
        return math.isclose(value_a, value_b, rel_tol=1e-9, abs_tol=1e-12)
    ratio = scale_ratio(unit_a, unit_b) or _count_ratio(unit_a, unit_b)
    if ratio is None:
        return False
    # in ``unit_b``
    step = max(_step(value_a) * ratio, _step(value_b))
    return abs(value_a * ratio - value_b) <= 0.5 * step * (1 + 1e-9)


def _count_ratio(unit_a: str, unit_b: str) -> float | None:
    """How many of ``unit_b`` one ``unit_a`` is, for two share counts (one may be in full)."""
    a, b = unit_parts(unit_a), unit_parts(unit_b)
    if a.currency != SHARES or b.currency != SHARES:
        return None
    return (a.factor or 1.0) / (b.factor or 1.0)


def _step(value: float) -> float:
    """The last written decimal place of a value (1 for 1405.0, 0.01 for 14.05)."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return 1.0
    decimals = text.split(".")[1].rstrip("0")
    return 10.0 ** -len(decimals)


# ---------------------------------------------------------------- the scale lexicon
#: Every word a report, a table heading or a question writes for a scale, with its code
#: (:data:`SCALES` gives the factor). One lexicon for every reader, matched longest
#: first: 百万 before 万, 十亿 before 亿, 千万 before 千 and 万. An ASCII word matches only
#: where no letter or digit follows it ("multimillion" names none; "5bn" does).
SCALE_WORDS: dict[str, str] = {
    "十亿": "BN", "亿": "100M", "千万": "10M", "百万": "M", "十万": "100K", "万": "10K",
    "千": "K", "billions": "BN", "billion": "BN", "bn": "BN", "millions": "M", "million": "M",
    "mn": "M", "thousands": "K", "thousand": "K",
}
#: Every spelling a question writes for a currency it wants an answer in ("in euros",
#: "以日元计"), with its code; a bare "$" or "dollars" names none (whose dollars?).
CURRENCY_WORDS: dict[str, str] = {
    "us dollars": "USD", "u.s. dollars": "USD", "usd": "USD", "us$": "USD",
    "euros": "EUR", "euro": "EUR", "eur": "EUR", "€": "EUR", "pounds sterling": "GBP",
    "pounds": "GBP", "sterling": "GBP", "gbp": "GBP", "£": "GBP", "japanese yen": "JPY",
    "yen": "JPY", "jpy": "JPY", "renminbi": "CNY", "yuan": "CNY", "rmb": "CNY",
    "cny": "CNY", "hong kong dollars": "HKD", "hkd": "HKD", "hk$": "HKD",
    "swiss francs": "CHF", "chf": "CHF", "canadian dollars": "CAD", "cad": "CAD",
    "australian dollars": "AUD", "aud": "AUD", "singapore dollars": "SGD", "sgd": "SGD",
    "美元": "USD", "欧元": "EUR", "英镑": "GBP", "日元": "JPY", "人民币": "CNY", "港元": "HKD",
    "港币": "HKD", "瑞士法郎": "CHF", "加元": "CAD", "澳元": "AUD", "新加坡元": "SGD",
}
#: Money marks a scale letter or zeros may follow ("US$m", "RMB'000", "£000", "€bn").
_MONEY_MARK = r"(?:us\$|hk\$|a\$|c\$|s\$|nt\$|r\$|\$|€|£|¥|usd|eur|gbp|rmb|cny|hkd|jpy|chf)"
_EDGE = r"(?![a-z0-9])"
#: Scales written as marks, not words: a money mark and a letter ("US$m", "$k", "€bn"),
#: thousands as zeros ("'000", "US$000", "(000s)", "in 000s", "(1,000)"), "(in mm)".
SCALE_MARKS: tuple[tuple[str, str], ...] = (
    (rf"{_MONEY_MARK}\s?bn?{_EDGE}", "BN"),
    (rf"{_MONEY_MARK}\s?(?:mm|mn|m){_EDGE}|(?<![a-z0-9])mm{_EDGE}|\(1,000,000\)", "M"),
    (rf"{_MONEY_MARK}\s?k{_EDGE}|(?<![a-z0-9])k\$", "K"),
    (rf"['\u2019]000(?:['\u2019]?s)?(?![\d,.]?\d)|(?<![\d,.]){_MONEY_MARK}\s?000['\u2019]?s?"
     rf"(?![\w,.])|\(000['\u2019]?s?\)|(?<![\d,.])000['\u2019]?s{_EDGE}"
     rf"|(?<![a-z0-9])in (?:000|1,000)['\u2019]?s?(?![\w,.])|\(1,000\)", "K"),
)


def _word(word: str) -> str:
    """A word's pattern (no letter or digit after an ASCII word).

    Before it, an abbreviation touches no letter ("5bn", not "kbn"); a whole word may be
    glued to the word before as text layers write it ("(inthousands)"), never
    "multimillion".
    """
    body = re.escape(word)
    if not word.isascii():
        return body
    return rf"(?<![a-z]){body}{_EDGE}" if len(word) < 4 else rf"(?<!multi){body}{_EDGE}"


def scale_pattern(marks: bool = True) -> str:
    """The lexicon as one regular expression, longest word first (for folded text).

    ``marks=False`` leaves out :data:`SCALE_MARKS` (an amount in prose is followed by
    a word: "$757.3 million", "12.5亿").
    """
    words = [_word(w) for w in sorted(SCALE_WORDS, key=lambda w: (-len(w), w))]
    return "|".join([*(p for p, _ in SCALE_MARKS), *words] if marks else words)


_SCALE_RE = re.compile(scale_pattern())
_MARKS = tuple((re.compile(p), code) for p, code in SCALE_MARKS)


def scale_code(spelling: str) -> str:
    """The code of one spelling the lexicon matched (``""`` when it is none).

    >>> scale_code("百万"), scale_code("Millions"), scale_code("'000"), scale_code("fy")
    ('M', 'M', 'K', '')
    """
    folded = unicodedata.normalize("NFKC", spelling).casefold().strip()
    if folded in SCALE_WORDS:
        return SCALE_WORDS[folded]
    return next((code for p, code in _MARKS if p.fullmatch(folded)), "")


def scale_codes(text: str) -> tuple[str, ...]:
    """The scales a text writes, in order, each spelling matched longest first.

    >>> scale_codes("单位：人民币百万元"), scale_codes("(Dollars in millions, shares in thousands)")
    (('M',), ('M', 'K'))
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return tuple(scale_code(m.group(0)) for m in _SCALE_RE.finditer(folded))


def stated_scale(text: str) -> str:
    """The scale a heading, label or title states: of several, the largest ("" none).

    Examples
    --------
    >>> [stated_scale(t) for t in ("单位：人民币百万元", "千元", "万元", "亿元", "百万美元",
    ...                            "十亿元", "千万元", "In thousands", "(in millions)",
    ...                            "US$'000", "RMB'000", "¥ million", "US$m", "Revenue")]
    ['M', 'K', '10K', '100M', 'M', 'BN', '10M', 'K', 'M', 'K', 'K', 'M', 'M', '']
    """
    codes = scale_codes(text)
    return max(codes, key=lambda c: SCALES[c]) if codes else ""
