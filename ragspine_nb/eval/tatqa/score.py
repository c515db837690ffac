"""Scoring one TAT-QA answer from the numbers it asserts (its headline figures).

Categories (exactly one per question):

* ``correct`` — a numeric gold, and every gold number is matched by a headline figure
  and every headline figure matches a gold number;
* ``wrong_number`` — some headline figure matches no gold number. Its kind:
  ``scale_missing`` (the right digits with no stated scale, or no "%", where the gold
  has one), ``scale_wrong`` (the right digits in another scale), ``operand`` (one of the
  gold derivation's numbers — a level or an operand where an operation was asked) or
  ``false_figure`` (anything else); with several, the worst in that order from the end;
* ``partial`` — every figure matches a gold number but some gold number is not stated
  (a multi-span gold answered in part);
* ``abstained`` — a numeric gold and no figure: an ask-back, a refusal, a miss or a
  narrative answer (the kind says which);
* ``figure_on_text`` — a text gold (words, a year, a date) and a headline figure;
* ``text_correct`` / ``text_missed`` — a text gold, no figure, and every gold span
  appears in the answer (case-, whitespace- and quote-insensitive) or not.

A figure matches a gold number when, compared in base units (a gold's scale from
TAT-QA's ``scale`` field or its own words; a figure's from its unit code), the values
differ by at most half a unit of the gold's last written digit or 0.5% of the gold —
so an equal amount in another scale is equal. A percentage matches only a percentage.
The right magnitude with the opposite sign matches too, and is tallied
(``sign_flipped``): tables print costs in parentheses and questions imply directions.
A count gold must be equalled exactly. Multi-span numeric golds: each span is one gold
number; order does not matter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.core import Figure
from ragspine_nb.eval.tatqa.gold import SCALE_FACTORS, Gold, GoldNumber
from ragspine_nb.units import unit_parts

__all__ = ["Verdict", "classify", "compare", "text_found", "CATEGORIES", "WRONG_KINDS",
           "ABSTAIN_KINDS"]

CATEGORIES: tuple[str, ...] = ("correct", "wrong_number", "partial", "abstained",
                               "figure_on_text", "text_correct", "text_missed")
#: Kinds of wrong numbers, the worst first.
WRONG_KINDS: tuple[str, ...] = ("false_figure", "scale_wrong", "scale_missing", "operand")
#: Why an answer asserted no figure.
ABSTAIN_KINDS: tuple[str, ...] = ("ask_back", "refusal", "not_found", "narrative", "no_figure")


@dataclass(frozen=True)
class Verdict:
    """How one answer scored: category, its kind, sign flips, whether the text has the gold."""

    category: str
    kind: str = ""
    sign_flipped: bool = False
    text_correct: bool = False


@dataclass(frozen=True)
class _Stated:
    value: float
    factor: float | None  # None: no scale stated (a plain number or a bare currency)
    percent: bool


def _stated(figure: Figure) -> _Stated:
    parts = unit_parts(figure.unit)
    return _Stated(float(figure.value), parts.factor, parts.percent)


def _tolerance(gold: GoldNumber) -> float:
    """Half a unit of the gold's last written digit, or 0.5% of it (in its own scale)."""
    if gold.exact:
        return 1e-9
    return max(0.5 * 10.0 ** -gold.decimals, 0.005 * abs(gold.value)) * (1 + 1e-9)


def compare(gold: GoldNumber, figure: Figure) -> str:
    """How a figure compares with one gold number.

    ``equal``, ``sign`` (the magnitude with the opposite sign), ``digits`` (the right
    digits in the wrong or no scale) or ``""`` (another number).

    Examples
    --------
    >>> from ragspine_nb.core import Fact
    >>> f = Fact("REV", "CO", "ALL", "TOTAL", "FY", "2019", 1496500.0, "USD_K", "t.csv", "r=1")
    >>> compare(GoldNumber(1496.5, 1, "million"), Figure.of_fact(f, "revenue"))
    'equal'
    """
    s = _stated(figure)
    percent = gold.scale == "percent"
    tol = _tolerance(gold)
    if percent == s.percent:
        g_factor = 1.0 if percent else SCALE_FACTORS.get(gold.scale, 1.0)
        f_factor = 1.0 if s.percent else (s.factor or 1.0)
        mine, theirs = s.value * f_factor / g_factor, gold.value
        if abs(mine - theirs) <= tol:
            return "equal"
        if abs(abs(mine) - abs(theirs)) <= tol:
            return "sign"
    if abs(abs(s.value) - abs(gold.value)) <= tol:
        return "digits"
    return ""


def _wrong_kind(gold: Gold, figure: Figure) -> str:
    s = _stated(figure)
    if any(compare(g, figure) == "digits" for g in gold.numbers):
        return "scale_missing" if s.factor is None and not s.percent else "scale_wrong"
    if any(abs(abs(s.value) - o) <= max(0.005 * o, 1e-9) for o in gold.operands):
        return "operand"
    return "false_figure"


_FOLD = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                       "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " "})


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_FOLD).casefold()).strip()


def text_found(spans: Sequence[str], answer: str) -> bool:
    """Every span appears in the answer (case-, whitespace- and quote-insensitive).

    Examples
    --------
    >>> text_found(["Fixed  Price", "Other’s"], "fixed price and other's sales")
    True
    """
    have = _norm(answer)
    return bool(spans) and all(_norm(s) in have for s in spans)


def _numeric(gold: Gold, figures: Sequence[Figure]) -> Verdict:
    """A numeric gold against the headline figures (see the module docstring)."""
    outcomes = [[compare(g, f) for g in gold.numbers] for f in figures]
    unmatched = [f for f, row in zip(figures, outcomes, strict=True)
                 if not {"equal", "sign"} & set(row)]
    if unmatched:
        kinds = {_wrong_kind(gold, f) for f in unmatched}
        return Verdict("wrong_number", next(k for k in WRONG_KINDS if k in kinds))
    covered = all(any(row[i] in ("equal", "sign") for row in outcomes)
                  for i in range(len(gold.numbers)))
    flipped = any(row[i] == "sign" and "equal" not in row
                  for row in outcomes for i in range(len(row)))
    return Verdict("correct" if covered else "partial", sign_flipped=flipped)


def classify(gold: Gold, figures: Sequence[Figure], answer: str,
             abstain: str = "no_figure") -> Verdict:
    """The category of one answer (see the module docstring).

    Parameters
    ----------
    gold : Gold
        The question's gold (:func:`~ragspine_nb.eval.tatqa.gold.gold_of`).
    figures : sequence of Figure
        The answer's headline figures (``AgentResult.figures``).
    answer : str
        The answer text (for text golds).
    abstain : str
        Why no figure was asserted, one of :data:`ABSTAIN_KINDS` (used when none was).

    Raises
    ------
    ValueError
        When ``gold.kind`` or ``abstain`` is not a valid value.
    """
    if gold.kind not in ("number", "text"):
        raise ValueError(f"gold kind {gold.kind!r} is not valid. Valid: ['number', 'text']")
    if abstain not in ABSTAIN_KINDS:
        raise ValueError(f"abstain kind {abstain!r} is not valid. Valid: {list(ABSTAIN_KINDS)}")
    found = text_found(gold.spans, answer)
    if gold.kind == "text":
        if figures:
            return Verdict("figure_on_text", text_correct=found)
        return Verdict("text_correct" if found else "text_missed", abstain, text_correct=found)
    if not figures:
        return Verdict("abstained", abstain, text_correct=found)
    verdict = _numeric(gold, figures)
    return Verdict(verdict.category, verdict.kind, verdict.sign_flipped, found)
