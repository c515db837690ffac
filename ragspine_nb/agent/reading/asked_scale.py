"""The scale a question asks its answer in: "in USD billions", "(in $ millions)", "多少亿元".

A currency asked alone ("in euros", "多少日元") is read too, with no scale: the answer
says which currency its source states the figure in, never converting it.

An analyst writes the unit they want the figure in — "What was 3M's revenue in FY2022 in
USD billions?", "Answer in USD thousands.", "营业收入是多少亿元？", "以百万美元计". The
store states each figure in its report's scale; the answer then restates it in the scale
asked (:mod:`ragspine_nb.agent.write.restate`), the conversion shown. Only a phrase
*about the answer's unit* is read — "in" (or an opening parenthesis, "以", "单位", "多少")
before a scale word — never an amount of the question's own ("above $5 billion", "1.2
亿元"): a scale after a digit is a figure, not a request.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ragspine_nb.extract.values import detect_unit
from ragspine_nb.units import CURRENCY_WORDS, unit_parts

__all__ = ["AskedScale", "asked_scale"]

_MARK = r"(?:us\$|usd|hk\$|hkd|rmb|cny|eur|€|gbp|£|\$)"
_WORD = r"(?:thousands|millions|billions|thousand|million|billion|mn|bn|mm)"
_LETTER = r"(?:k|m|b|bn|mm|mn)"
#: "in USD billions", "in $m", "(in millions of US dollars)", "(USD millions)",
#: "in units of millions", "expressed in thousands".
_EN = re.compile(
    rf"(?:\bin\s+(?:units\s+of\s+)?|\(\s*(?:in\s+)?)"
    rf"(?:{_MARK}\s?{_LETTER}|(?:{_MARK}\s?)?{_WORD})(?![a-z0-9])"
    r"(?:\s+of\s+(?:us\s+|u\.s\.\s+)?(?:dollars|usd|euros|yuan|rmb|shares))?"
    r"(?!\s+of\s)")
_ZH_SCALE = r"(?:十亿|亿|千万|百万|十万|万|千)"
_ZH_MONEY = r"(?:人民币|美元|港元|港币|元)"
#: "以亿元计", "以百万美元为单位", "单位：亿元", "多少亿元", "多少百万美元".
_ZH = re.compile(
    rf"以\s*(?:人民币|美元|港元)?{_ZH_SCALE}{_ZH_MONEY}?(?:计|为单位|列示|表示)"
    rf"|单位\s*[:：为是]?\s*(?:人民币|美元|港元)?{_ZH_SCALE}{_ZH_MONEY}"
    rf"|多少{_ZH_SCALE}{_ZH_MONEY}")

_MONEY = "|".join(re.escape(w) for w in sorted(CURRENCY_WORDS, key=lambda w: (-len(w), w)))
#: A currency alone: "in euros", "(in EUR)", "expressed in yen", "以日元计", "多少欧元".
_CURRENCY = re.compile(
    rf"(?:\bin\s+|\(\s*in\s+|\bexpressed\s+in\s+|\bconverted\s+(?:in)?to\s+)"
    rf"({_MONEY})(?![a-z0-9$])(?!\s*\d)|以\s*({_MONEY})\s*(?:计|为单位|列示|表示)|多少({_MONEY})")


@dataclass(frozen=True)
class AskedScale:
    """The unit a question asks its answer in.

    Attributes
    ----------
    unit : str
        A unit code as the store writes it (``USD_BN``, ``M``, ``CNY_100M``): its scale is
        what the answer is restated in; its currency, when written, what was asked.
    span : str
        The question's words that asked it, as written.
    """

    unit: str
    span: str

    @property
    def factor(self) -> float:
        """The asked scale's factor (``1e9`` for billions)."""
        return unit_parts(self.unit).factor or 1.0

    @property
    def scale(self) -> str:
        """The asked scale's code (``BN`` for billions)."""
        return self.unit.rpartition("_")[2]

    @property
    def has_scale(self) -> bool:
        """Whether a scale is asked ("in euros" asks a currency alone)."""
        return unit_parts(self.unit).factor is not None

    @property
    def currency(self) -> str:
        """The currency asked (``""``: none written, or a bare ``$``)."""
        return unit_parts(self.unit).currency


def asked_scale(question: str) -> AskedScale | None:
    """The scale ``question`` asks its answer in, or ``None`` when it asks none.

    Examples
    --------
    >>> asked_scale("What was 3M's revenue in FY2022 in USD billions?")
    AskedScale(unit='USD_BN', span='in USD billions')
    >>> asked_scale("What is capex (in USD millions) for 3M?").unit
    'USD_M'
    >>> asked_scale("Answer in $ thousands.").unit, asked_scale("营业收入是多少亿元？").unit
    ('K', 'CNY_100M')
    >>> asked_scale("以百万美元计，收入是多少？").unit
    'USD_M'
    >>> asked_scale("Revenue (in millions of US dollars)?").unit
    'USD_M'
    >>> asked_scale("What was Nike's revenue in euros in fiscal 2023?")
    AskedScale(unit='EUR', span='in euros')
    >>> asked_scale("营业收入是多少日元？").unit, asked_scale("Revenue in dollars?")
    ('JPY', None)
    >>> [asked_scale(q) for q in ("Which segments had revenue above $5 billion?",
    ...     "Sales grew in millions of units", "收入为1.2亿元，增长多少？", "What was revenue?")]
    [None, None, None, None]
    """
    text = unicodedata.normalize("NFKC", question)
    folded = text.casefold()
    found = _EN.search(folded) or _ZH.search(folded)
    if found is None:
        money = _CURRENCY.search(folded)  # a currency alone: named, never converted
        return None if money is None else AskedScale(
            CURRENCY_WORDS[next(g for g in money.groups() if g)],
            text[money.start():money.end()].strip(" ("))
    span = text[found.start():found.end()].strip(" (")
    # a bare "$" or "dollars" names no currency of its own; "US dollars" does
    unit = detect_unit(re.sub(r"\bu\.?s\.?\s+dollars?\b", "usd", span, flags=re.I))
    if not unit or unit_parts(unit).factor is None:
        return None
    return AskedScale(unit, span)
