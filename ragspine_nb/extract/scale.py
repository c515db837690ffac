"""Units as verified fields: what scale, currency and percent a table states, and for which rows.

A report states its scale once ("(in millions, except per share data)", "$'000", "US$m",
"人民币亿元") in a title, a caption row, a column header or a row label; every scale is
read with the one lexicon of :mod:`ragspine_nb.units` (longest spelling first). The scale applies
to amounts; per-share amounts, prices, rates, ratios and counts are never scaled by a
currency scale, and an "except" clause takes away only the rows it names. A table whose
scale is stated nowhere keeps no scale (a bare currency or ``""``): never a made-up one.
:func:`infer_scale` reads an unstated scale from prose that quotes the table's figures
("$757.3 million" beside a table cell 757,336: thousands).

Units follow the store's convention (:mod:`ragspine_nb.units`): ``USD_M``, ``M``, ``PCT``,
``shares``, ``shares_K``, a bare currency or ``""`` (a plain number, stored as
:data:`~ragspine_nb.units.PLAIN`). What a row's figures are is read by
:mod:`ragspine_nb.extract.row_kinds`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ragspine_nb.core import Fact
from ragspine_nb.extract.row_kinds import RowKind, fold_quotes, row_kind, split_except
from ragspine_nb.units import (
    PLAIN,
    SCALES,
    SHARES,
    join_unit,
    scale_code,
    scale_pattern,
    stated_scale,
)

__all__ = ["fold_quotes", "Stated", "read_stated", "merge_stated", "RowKind", "row_kind",
           "cell_unit", "kind_words", "ScaleInference", "infer_scale", "prose_amounts",
           "with_scale", "rescale_facts"]

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


@dataclass(frozen=True)
class Stated:
    """What one text (or several, merged) says about units.

    ``scale`` applies to amounts and ``shares_scale`` to share counts ("Shares (in
    thousands)"); ``money_scale`` is True when the scale is a currency's ("$ in millions",
    "US$m"): counts are never scaled by it. ``except_*`` say which rows an "except"
    clause takes away from the scale.
    """

    scale: str = ""
    currency: str = ""
    percent: bool = False
    shares_scale: str = ""
    money_scale: bool = False
    except_per_share: bool = False
    except_shares: bool = False
    except_percent: bool = False

    def __bool__(self) -> bool:
        return bool(self.scale or self.currency or self.percent or self.shares_scale)


def _scale_of(text: str) -> str:
    """The scale a text states (the one lexicon, :func:`ragspine_nb.units.stated_scale`)."""
    return stated_scale(text)


def read_stated(text: str) -> Stated:
    """The units a title, caption, header cell or row label states.

    Examples
    --------
    >>> read_stated("(In thousands, except per share data)")
    Stated(scale='K', currency='', percent=False, shares_scale='', money_scale=False, \
except_per_share=True, except_shares=False, except_percent=False)
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
                  except_percent=bool(rest and _PERCENT_EXCEPT.search(rest)))


#: A statement of scale naming what it scales ("$ and shares in millions", "dollars in
#: thousands", "in millions of dollars and shares", "shares in thousands").
_UNIT_NOUN = rf"(?:{_MONEY}|dollars?|amounts?|share amounts?|shares?|share data|units?)"
_UNIT_LIST = rf"{_UNIT_NOUN}(?:\s*(?:,|and|&)\s*{_UNIT_NOUN})*"
_SCALE_NAME = r"(?:thousands|millions|billions)\b"
_UNIT_STATEMENT = re.compile(rf"(?<![a-z]){_UNIT_LIST}\s*\(?\s*in\s+{_SCALE_NAME}"
                             rf"|\bin\s+{_SCALE_NAME}\s+of\s+{_UNIT_LIST}")
_MONEY_NOUN = re.compile(rf"{_MONEY}|\bdollars?\b|(?<!share )\bamounts?\b")


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
        except_percent=scaled.except_percent,
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


# ---------------------------------------------------------------- scale from prose
#: "$757.3 million", "1.9 billion", "€12.5m" in prose: an amount a table may state in a scale.
_PROSE_AMOUNT = re.compile(
    rf"(\d[\d,]*(?:\.\d+)?)\s*({scale_pattern(marks=False)}|m(?![a-z0-9]))", re.I)
#: Sentences that state the scale of the figures ("in thousands", "(millions)"), with
#: the words before ("shares in thousands", "dollars in millions") and the clause after
#: ("except share data", "unless otherwise disclosed").
#: A scale named in prose: the words, or thousands written as digits ("000's", "$'000").
_PROSE_SCALE = (r"(?:thousands|millions|billions)\b"
                r"|(?:[$€£]\s?)?['\u2019]?000(?:['\u2019]?s)?(?![\d,.]?\d)")
#: A currency named between "in" and the scale ("in US $000's", "in RMB thousands").
_PROSE_CURRENCY = r"(?:(?:us|u\.s\.|hk|nt|rmb|usd|eur|gbp|cny|hkd)(?![a-z])\s?[$¥]?\s?)?"
_STATED_IN_PROSE = re.compile(
    r"(?:(?!(?:thousands|millions|billions)\b)[^\s.;:]+\s+){0,4}"
    rf"(?:\(\s*(?:in\s+)?|\bin\s+){_PROSE_CURRENCY}(?:{_PROSE_SCALE})\)?"
    rf"(?:(?!\bin\s+(?:{_PROSE_SCALE}))[^.;:)]){{0,80}}", re.I)


@dataclass(frozen=True)
class ScaleInference:
    """An unstated table scale read from prose, with the amounts that showed it.

    ``scale`` is a scale code (``"K"``, ``"M"``, ``"BN"``) or ``""`` when the prose
    quotes the figures as written; ``evidence`` holds the prose amounts that matched a
    figure, or the sentences stating the scale. ``shares`` says the scale applies to
    share counts too: only a stated bare scale whose "except" clause spares them ("in
    millions, except per share amounts"), never one read from amounts of money;
    ``shares_scale`` is a scale stated for share counts alone ("shares in thousands").
    """

    scale: str
    votes: int
    evidence: tuple[str, ...]
    shares: bool = False
    shares_scale: str = ""


def prose_amounts(prose: str) -> list[tuple[str, float, float]]:
    """``(text, amount, slack)`` for each scaled amount in ``prose``.

    The slack is half a unit of the amount's last written digit in its own scale ("757.3
    million" is 757,250,000 to 757,350,000). Amounts with fewer than three significant
    digits ("1 million") are left out: too round to tell a scale.
    """
    out = []
    for m in _PROSE_AMOUNT.finditer(prose):
        number = m.group(1).replace(",", "").rstrip(".")
        if len(re.sub(r"\D", "", number).lstrip("0")) < 3:
            continue
        factor = SCALES[scale_code(m.group(2)) or "M"]  # a bare "m" is millions
        places = len(number.split(".")[1]) if "." in number else 0
        out.append((m.group(0), float(number) * factor, 0.5 * 10 ** -places * factor))
    return out


def infer_scale(figures: Iterable[float], prose: Sequence[str]) -> ScaleInference | None:
    """The scale of a table whose scale is stated nowhere, read from prose beside it.

    A prose amount ("$757.3 million") that equals a table figure (757,336) in exactly
    one scale votes for that scale; a figure equal to the amount as written votes for
    ``""`` (no scale). The scale with the most votes wins, a tie decides nothing. With no
    vote, one sentence stating a single scale ("amounts are in thousands") decides.
    ``None`` when nothing tells: no scale is better than a wrong one.

    Examples
    --------
    >>> infer_scale([757_336.0, 12.0], ["Net sales were $757.3 million in 2018."]).scale
    'K'
    >>> infer_scale([1_382.8], ["Sales of $1,382.8 million."]).scale
    'M'
    >>> infer_scale([1_000.0], ["about 1 million shares"]) is None
    True
    """
    cells = {abs(v) for v in figures if abs(v) >= 1}
    votes: dict[str, list[str]] = {}
    for text, amount, slack in prose_amounts(" ".join(prose)):
        for code, factor in (("", 1.0), *((c, SCALES[c]) for c in ("K", "M", "BN"))):
            if any(abs(v * factor - amount) <= slack for v in cells):
                votes.setdefault(code, []).append(text)
    if votes:
        best = max(len(v) for v in votes.values())
        winners = [code for code, v in votes.items() if len(v) == best]
        return ScaleInference(winners[0], best, tuple(votes[winners[0]])) \
            if len(winners) == 1 else None
    return _stated_in_prose(prose)


def _stated_in_prose(prose: Sequence[str]) -> ScaleInference | None:
    """The scale prose states in words ("(in thousands, except share data)").

    Amounts take the one scale stated for them; share counts the one stated for them
    ("shares in thousands"), else the amounts' when its clause spares them. Two
    different scales for amounts decide nothing for amounts.
    """
    said = [(" ".join(m.group(0).split()), read_stated(m.group(0)))
            for m in _STATED_IN_PROSE.finditer(" ".join(prose))]
    amounts = {s.scale for _, s in said if s.scale}
    own = {s.shares_scale for _, s in said if s.shares_scale}
    implied = {s.scale for _, s in said
               if s.scale and not (s.except_shares or s.money_scale)}
    scale = amounts.pop() if len(amounts) == 1 else ""
    shares = own.pop() if len(own) == 1 else (implied.pop() if len(implied) == 1 and not own
                                              else "")
    if not scale and not shares:
        return None
    evidence = tuple(text for text, s in said if s.scale == scale and scale
                     or s.shares_scale == shares and shares)
    return ScaleInference(scale, 0, evidence, shares=bool(scale) and shares == scale,
                          shares_scale=shares)


def rescale_facts(facts: Sequence[Fact], unscaled: Iterable[str],
                  inference: ScaleInference) -> list[Fact]:
    """The facts, those at ``unscaled`` locators in the scale ``inference`` found.

    Amounts take the scale (:func:`with_scale`); share counts take the scale stated for
    them (``inference.shares_scale``), else the amounts' only when ``inference.shares``
    says it spares them; nothing else changes.

    Examples
    --------
    >>> f = Fact("REVENUE", "C", "NA", "TOTAL", "FY", "2019", 757336.0, "NUMBER", "t.csv",
    ...          "cell=B2")
    >>> found = ScaleInference("K", 1, ("757.3 million",))
    >>> [g.unit for g in rescale_facts([f], ["cell=B2"], found)]
    ['K']
    """
    where = set(unscaled)
    out = []
    for fact in facts:
        if fact.source_locator in where:
            if fact.unit.startswith(SHARES):
                scale = inference.shares_scale or (inference.scale if inference.shares else "")
                unit = join_unit(SHARES, scale) if fact.unit == SHARES else fact.unit
            else:
                unit = with_scale(fact.unit, inference.scale)
            fact = replace(fact, unit=unit)
        out.append(fact)
    return out


def with_scale(unit: str, scale: str) -> str:
    """An unscaled amount's unit with an inferred scale (``""`` → ``K``, ``EUR`` → ``EUR_K``).

    Only a plain number (``""`` or the stored :data:`~ragspine_nb.units.PLAIN`) or a bare
    currency takes a scale; any other unit is returned as it is (a percentage, a count of
    shares, an amount already scaled).

    Examples
    --------
    >>> with_scale("NUMBER", "K"), with_scale("EUR", "M"), with_scale("USD_M", "K")
    ('K', 'EUR_M', 'USD_M')
    >>> with_scale("PCT", "K"), with_scale("NUMBER", "")
    ('PCT', 'NUMBER')
    """
    if unit == PLAIN:
        unit = ""
    if unit and (unit == "PCT" or "_" in unit or unit in SCALES or unit == "shares"):
        return unit
    return join_unit(unit, scale) or PLAIN
