"""Period codes: a period written as a label or a relative word, as ``(type, period)``.

``FY2024``, ``2024``, ``2024年`` → ``("FY", "2024")``; ``2024H1``, ``2024年上半年`` →
``("HY", "2024H1")``; ``2025Q1``, ``4Q25`` → ``("QUARTER", "2025Q1")``; relative words
(this year, 去年, last quarter, 上半年) against a reference date; a phrase ("the year ended
December 31, 2019 and 2018") through :func:`~ragspine_nb.period_phrases.phrase_periods`.
Anything else is ``None`` — never a guess. :func:`period_label` writes a code back
(``FY2024``).
"""

from __future__ import annotations

import re
from datetime import date

from ragspine_nb.glossary import fold
from ragspine_nb.period_phrases import phrase_periods
from ragspine_nb.profile import DomainProfile

__all__ = ["normalize_period", "normalize_periods", "period_label"]

_CN_DIGIT = {"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_ABS_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:fy)?(\d{4})(?:年度?|财年|財年)?$"), "FY"),
    (re.compile(r"^fy?(\d{2})$"), "FY2"),  # FY19, F19 (fiscal labels of annual reports)
    (re.compile(r"^(?:fy)?(\d{4})(?:年)?h([12])$"), "HY"),
    (re.compile(r"^h([12])(?:fy)?(\d{4})$"), "HY_REV"),
    (re.compile(r"^([12])h(?:fy)?(\d{4})$"), "HY_REV"),
    (re.compile(r"^(\d{4})年?(上|下)半年度?$"), "HY_CN"),
    (re.compile(r"^(?:fy)?(\d{4})(?:年)?q([1-4])$"), "QUARTER"),
    (re.compile(r"^q([1-4])(?:fy)?(\d{4})$"), "QUARTER_REV"),
    (re.compile(r"^([1-4])q(?:fy)?(\d{4})$"), "QUARTER_REV"),  # 4Q 2025 (analysts' order)
    (re.compile(r"^([1-4])q(?:fy)?(\d{2})$"), "QUARTER_REV2"),  # 4Q25
    (re.compile(r"^([12])h(?:fy)?(\d{2})$"), "HY_REV2"),  # 1H25
    (re.compile(r"^(\d{4})年?第?([一二三四1-4])季度?$"), "QUARTER_CN"),
)
_REL_YEAR = {
    "今年": 0, "本年": 0, "本年度": 0, "thisyear": 0, "thisfiscalyear": 0, "currentyear": 0,
    "去年": -1, "上年": -1, "上年度": -1, "lastyear": -1, "lastfiscalyear": -1,
    "previousyear": -1, "前年": -2, "theyearbeforelast": -2,
}
_REL_HALF = {
    "上半年": 1, "firsthalf": 1, "thefirsthalf": 1, "h1": 1,
    "下半年": 2, "secondhalf": 2, "thesecondhalf": 2, "h2": 2,
}
_REL_QUARTER = {
    "本季度": 0, "本季": 0, "这个季度": 0, "thisquarter": 0, "currentquarter": 0,
    "上季度": -1, "上个季度": -1, "上一季度": -1, "上季": -1, "lastquarter": -1,
    "previousquarter": -1,
}
_MIN_YEAR, _MAX_YEAR = 1900, 2100


def period_label(period_type: str, period: str) -> str:
    """``("FY", "2024")`` → ``"FY2024"``; HY and QUARTER periods carry their suffix already."""
    return f"FY{period}" if period_type == "FY" else period


def _period(ptype: str, year: int, suffix: str = "") -> tuple[str, str] | None:
    if not _MIN_YEAR <= year <= _MAX_YEAR:
        return None
    return ptype, f"{year}{suffix}"


def _absolute(key: str) -> tuple[str, str] | None:
    for pattern, kind in _ABS_PATTERNS:
        m = pattern.match(key)
        if not m:
            continue
        a, b = m.group(1), m.group(2) if pattern.groups > 1 else ""
        if kind == "FY":
            return _period("FY", int(a))
        if kind == "FY2":
            return _period("FY", 2000 + int(a))
        if kind == "HY":
            return _period("HY", int(a), f"H{b}")
        if kind == "HY_REV":
            return _period("HY", int(b), f"H{a}")
        if kind == "HY_CN":
            return _period("HY", int(a), "H1" if b == "上" else "H2")
        if kind == "QUARTER":
            return _period("QUARTER", int(a), f"Q{b}")
        if kind == "QUARTER_REV":
            return _period("QUARTER", int(b), f"Q{a}")
        if kind in ("QUARTER_REV2", "HY_REV2"):
            return _period("QUARTER" if kind == "QUARTER_REV2" else "HY", 2000 + int(b),
                           f"{'Q' if kind == 'QUARTER_REV2' else 'H'}{a}")
        return _period("QUARTER", int(a), f"Q{_CN_DIGIT[b]}")
    return None


def _relative(key: str, ref: date) -> tuple[str, str] | None:
    if key in _REL_YEAR:
        return _period("FY", ref.year + _REL_YEAR[key])
    if key in _REL_QUARTER:
        index = ref.year * 4 + (ref.month - 1) // 3 + _REL_QUARTER[key]
        return _period("QUARTER", index // 4, f"Q{index % 4 + 1}")
    for year_word, offset in _REL_YEAR.items():
        for half_word, half in _REL_HALF.items():
            # 今年上半年 / 去年下半年 / "first half of last year" / "last year h1"
            if key in (year_word + half_word, half_word + "of" + year_word,
                       half_word + year_word):
                return _period("HY", ref.year + offset, f"H{half}")
    if key in _REL_HALF:  # a bare half means the reference year's half
        return _period("HY", ref.year, f"H{_REL_HALF[key]}")
    return None


def normalize_period(
    profile: DomainProfile,
    text: object,
    reference_date: date | None = None,
    *,
    relative: bool = True,
) -> tuple[str, str] | None:
    """Return ``(period_type, period)`` for ``text`` or ``None``.

    Parameters
    ----------
    profile : DomainProfile
        The active profile (kept in the signature so fiscal conventions can grow).
    text : str
        ``FY2024``, ``2024``, ``FY 2024``, ``2024年`` → ``("FY", "2024")``;
        ``2024H1``, ``2024年上半年`` → ``("HY", "2024H1")``; ``2025Q1`` →
        ``("QUARTER", "2025Q1")``; relative words (今年/this year, 去年/last year,
        前年, 上半年/下半年, 本季度, 上季度) against ``reference_date``.
    reference_date : datetime.date, optional
        Anchor for relative words; today when omitted.
    relative : bool, default True
        Accept relative words; table headers pass False (only explicit periods).

    Returns
    -------
    tuple of str or None
        ``None`` for anything not recognized, e.g. ``"24"`` or ``"2024Q5"``.

    Examples
    --------
    >>> from datetime import date
    >>> from ragspine_nb.profile import DomainProfile
    >>> p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"},
    ...     "metrics": {"REVENUE": {"unit": "USD_M"}}})
    >>> normalize_period(p, "FY 2024"), normalize_period(p, "2024年上半年")
    (('FY', '2024'), ('HY', '2024H1'))
    >>> normalize_period(p, "上季度", date(2025, 2, 10)), normalize_period(p, "2024Q5")
    (('QUARTER', '2024Q4'), None)
    """
    del profile  # calendar fiscal years for now; see the docstring
    if not isinstance(text, str):
        return None
    phrased = phrase_periods(fold(text).rstrip(" ?？.。"))
    if phrased is not None:
        return phrased[0]
    key = re.sub(r"[\s'’.,，。?？]", "", fold(text))
    if not key:
        return None
    found = _absolute(key)
    if found is not None or not relative:
        return found
    return _relative(key, reference_date or date.today())


def normalize_periods(
    profile: DomainProfile, text: object, reference_date: date | None = None,
) -> list[tuple[str, str]]:
    """Every period ``text`` names, in order (:func:`normalize_period` names one).

    A phrase may name several: "the three months ended March 31, 2019 and 2018" is
    2019Q1 and 2018Q1.

    >>> from ragspine_nb.profile import DomainProfile
    >>> normalize_periods(DomainProfile.builtin(), "years ended December 31, 2019 and 2018")
    [('FY', '2019'), ('FY', '2018')]
    """
    phrased = phrase_periods(fold(text).rstrip(" ?？.。")) if isinstance(text, str) else None
    if phrased is not None:
        return [p for p in phrased if p is not None]
    found = normalize_period(profile, text, reference_date)
    return [found] if found is not None else []
