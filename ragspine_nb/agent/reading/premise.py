"""A direction a question takes for granted, checked against the stored change.

"Why did Hong Kong revenue fall?" takes for granted that it fell. When the fact store
holds the asked period and the one before, the sign of the stored change says whether
that holds; the answer then says so ("it did not fall: it rose …"). Nothing is said
when either period is not stored, when the question names no direction or both, or
when a value is negative (a loss "falling" is not the sign of its change).

Pure: words of the question in, a typed verdict out; no profile, no store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.glossary import fold

__all__ = ["UP", "DOWN", "FLAT", "DIRECTION_WORDS", "Premise", "PremiseCheck", "premise_of",
           "prior_period", "check_premise"]

UP, DOWN, FLAT = "up", "down", "flat"

#: Words saying which way a figure moved, by direction (English as folded, and Chinese).
DIRECTION_WORDS: dict[str, tuple[str, ...]] = {
    UP: ("rise", "rises", "rose", "risen", "rising", "increase", "increased", "increases",
         "increasing", "grow", "grows", "grew", "grown", "growing", "climb", "climbed",
         "climbing", "jump", "jumped", "go up", "went up", "gone up", "higher",
         "上升", "增长", "增加", "上涨", "提高", "提升", "攀升", "升高", "走高"),
    DOWN: ("fall", "falls", "fell", "fallen", "falling", "decrease", "decreased", "decreases",
           "decreasing", "decline", "declined", "declines", "declining", "drop", "drops",
           "dropped", "dropping", "shrink", "shrinks", "shrank", "shrunk", "shrinking",
           "slump", "slumped", "plunge", "plunged", "go down", "went down", "gone down",
           "lower", "下降", "减少", "下滑", "下跌", "降低", "回落", "萎缩", "走低"),
}
#: A negated movement ("why did it not grow?") takes no direction for granted.
_NEGATION = re.compile(r"\b(?:not|never|no|n't)\b|n't\b|没有|没|未|并非|不是|不")


def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    ordered = sorted(words, key=len, reverse=True)  # longest first
    latin = "|".join(re.escape(w) for w in ordered if w.isascii())
    han = "|".join(re.escape(w) for w in ordered if not w.isascii())
    return re.compile(rf"\b(?:{latin})\b|{han}")


_PATTERNS = {d: _pattern(w) for d, w in DIRECTION_WORDS.items()}


@dataclass(frozen=True)
class Premise:
    """Which way the question says a figure moved, and the word that says it."""

    direction: str
    word: str

    def __post_init__(self) -> None:
        if self.direction not in (UP, DOWN):
            raise ValueError(f"Premise.direction {self.direction!r} is not valid. "
                             f"Valid: {[UP, DOWN]}")


@dataclass(frozen=True)
class PremiseCheck:
    """The premise against the stored change: which way the figure moved, and whether it holds."""

    premise: Premise
    moved: str

    @property
    def holds(self) -> bool:
        """Whether the figure moved the way the question says."""
        return self.moved == self.premise.direction


def premise_of(clause: str) -> Premise | None:
    """The direction ``clause`` takes for granted; ``None`` for none, both, or a negation.

    Examples
    --------
    >>> premise_of("why did it fall?")
    Premise(direction='down', word='fall')
    >>> premise_of("为什么下降了？")
    Premise(direction='down', word='下降')
    >>> premise_of("Why did it grow so fast?").direction
    'up'
    >>> premise_of("why did it change?") is None, premise_of("why did it not grow?") is None
    (True, True)
    >>> premise_of("why did sales rise while costs fell?") is None
    True
    """
    text = fold(clause)
    found = {d: p.search(text) for d, p in _PATTERNS.items()}
    hits = [(d, m) for d, m in found.items() if m is not None]
    if len(hits) != 1 or _NEGATION.search(text):
        return None
    direction, match = hits[0]
    return Premise(direction, match.group(0))


def prior_period(period_type: str, period: str) -> str | None:
    """The period before a fiscal year, as a label (``FY2024``); ``None`` for others.

    A half-year or a quarter is left alone: "the one before" may be the period just
    before or the same period a year before, and the question does not say which.

    Examples
    --------
    >>> prior_period("FY", "2025"), prior_period("QUARTER", "2025Q2")
    ('FY2024', None)
    """
    if period_type != "FY" or not period.isdigit():
        return None
    return f"FY{int(period) - 1}"


def check_premise(premise: Premise, current: float, prior: float) -> PremiseCheck | None:
    """The premise against a stored change from ``prior`` to ``current``.

    ``None`` when either value is negative (the sign of a loss's change is not its
    direction in words).

    Examples
    --------
    >>> check = check_premise(Premise(DOWN, "fall"), 1405.0, 1320.0)
    >>> check.moved, check.holds
    ('up', False)
    >>> check_premise(Premise(UP, "rise"), 1405.0, 1320.0).holds
    True
    >>> check_premise(Premise(DOWN, "fall"), 10.0, 10.0).moved
    'flat'
    >>> check_premise(Premise(DOWN, "fall"), -5.0, -3.0) is None
    True
    """
    if current < 0 or prior < 0:
        return None
    moved = UP if current > prior else DOWN if current < prior else FLAT
    return PremiseCheck(premise, moved)
