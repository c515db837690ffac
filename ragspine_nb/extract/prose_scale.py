"""A table's unstated scale read from the prose beside it, and put on its facts.

A table whose caption states no scale keeps none, unless prose of the same document
quotes its figures ("Net sales were $757.3 million" beside a cell 757,336: thousands) or
states the scale in words ("(in thousands, except share data)"). :func:`infer_scale`
reads it (no vote, or a tie, decides nothing: no scale is better than a wrong one);
:func:`rescale_facts` puts it on the facts that had none.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ragspine_nb.core import Fact
from ragspine_nb.extract.scale import read_stated
from ragspine_nb.units import PLAIN, SCALES, SHARES, join_unit, scale_code, scale_pattern

__all__ = ["ScaleInference", "infer_scale", "prose_amounts", "stated_scale_phrases",
           "with_scale", "rescale_facts"]

# ---------------------------------------------------------------- scale from prose
#: "$757.3 million", "1.9 billion", "€12.5m" in prose: an amount a table may state in a scale.
_PROSE_AMOUNT = re.compile(
    rf"(\d[\d,]*(?:\.\d+)?)\s*({scale_pattern(marks=False)}|m(?![a-z0-9]))", re.I)
#: A scale named in prose: the words, or thousands written as digits ("000's", "$'000").
_PROSE_SCALE = (r"(?:thousands|millions|billions)\b"
                r"|(?:[$€£]\s?)?['\u2019]?000(?:['\u2019]?s)?(?![\d,.]?\d)")
#: A currency named between "in" and the scale ("in US $000's", "in RMB thousands").
_PROSE_CURRENCY = r"(?:(?:us|u\.s\.|hk|nt|rmb|usd|eur|gbp|cny|hkd)(?![a-z])\s?[$¥]?\s?)?"
#: What every scale statement holds: "in [currency] <scale>", "(in millions)", "(000's)".
_CORE = rf"(?:\(\s*(?:in\s+)?|\bin\s+){_PROSE_CURRENCY}(?:{_PROSE_SCALE})"
_STATED_CORE = re.compile(_CORE, re.I)
#: Sentences that state the scale of the figures ("in thousands", "(millions)"), with
#: at most four words before ("shares in thousands", "dollars in millions") and the clause
#: after ("except share data", "unless otherwise disclosed").
_STATED_IN_PROSE = re.compile(
    r"(?:(?!(?:thousands|millions|billions)\b)[^\s.;:]+\s+){0,4}"
    rf"{_CORE}\)?(?:(?!\bin\s+(?:{_PROSE_SCALE}))[^.;:)]){{0,80}}", re.I)


def _words_back(text: str, at: int, runs: int = 5) -> int:
    """The lowest start a match of :data:`_STATED_IN_PROSE` with a core at ``at`` can have.

    Its words before the core are at most four, with no ``.;:`` in them: going back from
    ``at``, a fifth run of whitespace or one of those marks is past any start.
    """
    i, seen, in_space = at - 1, 0, False
    while i >= 0:
        ch = text[i]
        if ch in ".;:":
            return i + 1
        if ch.isspace():
            if not in_space:
                seen += 1
                if seen == runs:
                    return i + 1
            in_space = True
        else:
            in_space = False
        i -= 1
    return 0


def stated_scale_phrases(text: str) -> list[re.Match[str]]:
    """``_STATED_IN_PROSE.finditer(text)``, searched from near each core only.

    Every match holds a core ("in thousands", "(millions)") at most four words after its
    start, so the search for the next match starts a few words before the next core
    instead of being tried at every character of a 200-page filing.

    >>> [m.group(0) for m in stated_scale_phrases("Amounts. Dollars in thousands, except per "
    ...                                           "share data; sales (in millions) rose.")]
    ['Dollars in thousands, except per share data', 'sales (in millions) rose']
    """
    out: list[re.Match[str]] = []
    pos = 0
    while (core := _STATED_CORE.search(text, pos)) is not None:
        found = _STATED_IN_PROSE.search(text, max(pos, _words_back(text, core.start())))
        if found is None:  # never: the core itself starts a match
            break
        out.append(found)
        pos = found.end()
    return out


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


def _any_within(cells: Sequence[float], amount: float, slack: float, factor: float) -> bool:
    """Whether a cell ``v`` (``cells`` ascending) has ``abs(v * factor - amount) <= slack``.

    The candidates are found by bisection in a range widened by a relative 1e-9, then
    tested exactly as written (a long table against a long prose: no scan of every pair).

    >>> _any_within([1.0, 757336.0], 757_300_000.0, 50_000.0, 1_000.0)
    True
    >>> _any_within([1.0, 757336.0], 757_300_000.0, 50_000.0, 1_000_000.0)
    False
    """
    lo, hi = (amount - slack) / factor, (amount + slack) / factor
    pad = 1e-9 * max(abs(lo), abs(hi), 1.0)
    start, end = bisect_left(cells, lo - pad), bisect_right(cells, hi + pad)
    return any(abs(v * factor - amount) <= slack for v in cells[start:end])


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
    cells = sorted({abs(v) for v in figures if abs(v) >= 1})
    votes: dict[str, list[str]] = {}
    for text, amount, slack in prose_amounts(" ".join(prose)):
        for code, factor in (("", 1.0), *((c, SCALES[c]) for c in ("K", "M", "BN"))):
            if _any_within(cells, amount, slack, factor):
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
            for m in stated_scale_phrases(" ".join(prose))]
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
