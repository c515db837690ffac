"""Units as verified fields: what scale, currency and percent a table states, and for which rows.

A report states its scale once ("(in millions, except per share data)", "$'000", "US$m",
"人民币亿元") in a title, a caption row, a column header or a row label; every scale is
read with the one lexicon of :mod:`ragspine_nb.units` (longest spelling first). The scale applies
to amounts; per-share amounts, prices, rates, ratios and counts are never scaled by a
currency scale, and an "except" clause takes away only the rows it names. A table whose
scale is stated nowhere keeps no scale (a bare currency or ``""``): never a made-up one.
:func:`~ragspine_nb.extract.prose_scale.infer_scale` reads an unstated scale from prose
that quotes the table's figures ("$757.3 million" beside a table cell 757,336: thousands).

Units follow the store's convention (:mod:`ragspine_nb.units`): ``USD_M``, ``M``, ``PCT``,
``shares``, ``shares_K``, a bare currency or ``""`` (a plain number, stored as
:data:`~ragspine_nb.units.PLAIN`). What a row's figures are is read by
:mod:`ragspine_nb.extract.row_kinds`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ragspine_nb.extract.row_kinds import RowKind, fold_quotes, row_kind, split_except
from ragspine_nb.units import (
    join_unit,
    stated_scale,
)
from ragspine_nb.wordset import content_words

__all__ = ["fold_quotes", "Stated", "read_stated", "merge_stated", "RowKind", "row_kind",
           "cell_unit", "kind_words", "SCALE_CAPTION"]

#: A line that is a table's scale caption alone: "(in thousands, except share data)",
#: "(Millions)", "Dollars in millions".
SCALE_CAPTION = re.compile(r"(?i)^\(?\s*(?:[a-z.$€£¥]+\s+){0,3}(?:in\s+)?"
                           r"(?:millions|thousands|billions)\b[^()]{0,80}\)?$")

_MONEY = r"(?:us\$|hk\$|a\$|c\$|s\$|nt\$|r\$|\$|€|£|¥|usd|eur|gbp|rmb|cny|hkd|jpy|chf)"
_CURRENCIES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"us\$|\busd\b|usd(?=m\b|k\b|\d)|美元|\bu\.s\. dollars?\b"), "USD"),
    (re.compile(r"hk\$|\bhkd|港元|港币"), "HKD"),
    (re.compile(r"\brmb|\bcny|人民币|(?<![美港日])元"), "CNY"),
    (re.compile(r"€|\beur\b|\beuros?\b"), "EUR"),
    (re.compile(r"£|\bgbp\b|\bpounds? sterling\b"), "GBP"),
)
_PERCENT = re.compile(r"%|\bpercent(?:age)?s?\b|百分比")
_PER_SHARE_WORDS = re.compile(r"per[- ](?:common |ordinary )?share|per[- ]unit|\beps\b")
_SHARE_WORDS = re.compile(r"\bshares?\b|\bunits\b|\boptions\b|\bwarrants\b|\brsus?\b")
_PERCENT_EXCEPT = re.compile(r"percent|%|ratio|margin")
_LIST_SEP = re.compile(r"[,;&]|\band\b")
#: Words of an "except" clause that name nothing a row or column is named by.
_EXCEPT_FILLER = frozenset({"data", "amount", "share", "unit", "noted", "otherwise", "where",
                            "percent", "ratio", "margin", "information", "indicated", "stated",
                            "specified", "number", "eps", "value", "figure", "rate",
                            "average", "price", "note", "footnote", "item"})


@dataclass(frozen=True)
class Stated:
    """What one text (or several, merged) says about units.

    ``scale`` applies to amounts and ``shares_scale`` to share counts ("Shares (in
    thousands)"); ``money_scale`` is True when the scale is a currency's ("$ in millions",
    "US$m"): counts are never scaled by it. ``except_*`` say which rows an "except"
    clause takes away from the scale; ``except_items`` are the other things it names,
    each as its words ("(Millions, except Employees)"): a row or column named by every
    word of one is not scaled.
    """

    scale: str = ""
    currency: str = ""
    percent: bool = False
    shares_scale: str = ""
    money_scale: bool = False
    except_per_share: bool = False
    except_shares: bool = False
    except_percent: bool = False
    except_items: tuple[frozenset[str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.scale or self.currency or self.percent or self.shares_scale)


def _except_items(rest: str) -> tuple[frozenset[str], ...]:
    """The things an "except" clause names, each as its words.

    >>> [sorted(item) for item in _except_items("revenue per membership and percentages")]
    [['membership', 'revenue']]
    >>> _except_items("financial ratios")
    ()
    >>> _except_items("per share data, employees and stores")
    (frozenset({'employee'}), frozenset({'store'}))
    """
    items = (content_words(part) for part in _LIST_SEP.split(rest)
             if not _PER_SHARE_WORDS.search(part))
    # an item with a kind word ("per share data", "financial ratios") is read by the flags
    return tuple(item for item in items if item and not item & _EXCEPT_FILLER)


def _scale_of(text: str) -> str:
    """The scale a text states (the one lexicon, :func:`ragspine_nb.units.stated_scale`)."""
    return stated_scale(text)


@lru_cache(maxsize=8192)
def read_stated(text: str) -> Stated:
    """The units a title, caption, header cell or row label states (kept per text).

    Examples
    --------
    >>> read_stated("(In thousands, except per share data)")
    Stated(scale='K', currency='', percent=False, shares_scale='', money_scale=False, \
except_per_share=True, except_shares=False, except_percent=False, except_items=())
    >>> read_stated("(Millions, except Employees)").except_items
    (frozenset({'employee'}),)
    >>> s = read_stated("$’000"); (s.scale, s.money_scale)
    ('K', True)
    >>> read_stated("Shares (in thousands)").shares_scale, read_stated("(%)").percent
    ('K', True)
    >>> s = read_stated("(dollars and share amounts in thousands)"); (s.scale, s.shares_scale)
    ('K', 'K')
    """
    head, rest = split_except(fold_quotes(text))
    scale = _scale_of(head)
    currency = next((code for pattern, code in _CURRENCIES if pattern.search(head)), "")
    money = bool(scale) and bool(re.search(_MONEY + r"|\bdollars?\b", head) or currency)
    shares_named = bool(_SHARE_WORDS.search(_PER_SHARE_WORDS.sub(" ", head)))
    percent = bool(_PERCENT.search(head)) and not scale
    if shares_named and scale and not money:
        return Stated(shares_scale=scale, currency=currency)
    # "dollars and share amounts in thousands": one scale for both
    return Stated(scale=scale, currency=currency, percent=percent, money_scale=money,
                  shares_scale=scale if shares_named else "",
                  except_per_share=bool(rest and _PER_SHARE_WORDS.search(rest)),
                  except_shares=bool(rest and _SHARE_WORDS.search(
                      _PER_SHARE_WORDS.sub(" ", rest))),
                  except_percent=bool(rest and _PERCENT_EXCEPT.search(rest)),
                  except_items=_except_items(rest))


#: A statement of scale naming what it scales ("$ and shares in millions", "dollars in
#: thousands", "in millions of dollars and shares", "shares in thousands").
_UNIT_NOUN = rf"(?:{_MONEY}|dollars?|amounts?|share amounts?|shares?|share data|units?)"
_UNIT_LIST = rf"{_UNIT_NOUN}(?:\s*(?:,|and|&)\s*{_UNIT_NOUN})*"
_SCALE_NAME = r"(?:thousands|millions|billions)\b"
_UNIT_STATEMENT = re.compile(rf"(?<![a-z]){_UNIT_LIST}\s*\(?\s*in\s+{_SCALE_NAME}"
                             rf"|\bin\s+{_SCALE_NAME}\s+of\s+{_UNIT_LIST}")
_MONEY_NOUN = re.compile(rf"{_MONEY}|\bdollars?\b|(?<!share )\bamounts?\b")


@lru_cache(maxsize=8192)
def kind_words(text: str) -> str:
    """A heading's words that say what its rows are (a scale naming money left out).

    "$ and shares in millions, except per share amounts" scales amounts of money and
    share counts alike: it names no row a share count (the rows are money unless their
    own words say otherwise), so :func:`row_kind` must not read "shares" in it. A
    heading that scales share counts alone ("Shares (in thousands)") keeps its words.

    Examples
    --------
    >>> kind_words("January 28, 2023 $ and shares in millions, except per share amounts")
    'january 28, 2023 , except per share amounts'
    >>> kind_words("(Dollars in millions, shares in thousands)")
    '( , )'
    >>> kind_words("Shares (in thousands)"), kind_words("share amounts in thousands")
    ('shares (in thousands)', 'share amounts in thousands')
    """
    folded = fold_quotes(text)
    if not any(_MONEY_NOUN.search(m.group(0)) for m in _UNIT_STATEMENT.finditer(folded)):
        return folded
    return " ".join(_UNIT_STATEMENT.sub(" ", folded).split())


def merge_stated(*layers: Stated) -> Stated:
    """The nearest statement first (cell header, row, then table): the first that says wins.

    A scale and its clauses come together from one layer; a currency or shares scale
    may come from another.
    """
    scaled = next((s for s in layers if s.scale), Stated())
    return Stated(
        scale=scaled.scale, money_scale=scaled.money_scale,
        except_per_share=scaled.except_per_share, except_shares=scaled.except_shares,
        except_percent=scaled.except_percent, except_items=scaled.except_items,
        currency=next((s.currency for s in layers if s.currency), ""),
        percent=any(s.percent for s in layers),
        shares_scale=next((s.shares_scale for s in layers if s.shares_scale), ""))


def cell_unit(kind: str, stated: Stated, *, percent: bool = False, currency: str = "") -> str:
    """The store unit of one figure.

    ``stated`` merges what the column header, the row and the table say (nearest
    first); ``percent`` is True when the cell, its column or its row is a percentage;
    ``currency`` is a currency code read from the cell itself.

    Examples
    --------
    >>> cell_unit("amount", read_stated("US$m"))
    'USD_M'
    >>> t = read_stated("(in thousands, except share data)")
    >>> cell_unit("per_share", t), cell_unit("shares", t), cell_unit("amount", t)
    ('', 'shares', 'K')
    >>> cell_unit("shares", read_stated("(in millions)")), cell_unit("count", read_stated("$m"))
    ('shares_M', '')
    """
    money = currency or stated.currency
    if percent or kind == RowKind.RATE:
        return "PCT"
    if kind == RowKind.PER_SHARE:
        return money
    if kind in (RowKind.RATIO, RowKind.COUNT):
        return ""
    if kind == RowKind.SHARES:
        scale = stated.shares_scale or ("" if stated.except_shares or stated.money_scale
                                        else stated.scale)
        return join_unit("shares", scale)
    if stated.percent and not stated.scale:
        return "PCT"
    return join_unit(money, stated.scale)
