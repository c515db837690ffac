"""Deterministic sensitivity classification of a document; it fails closed.

Every signal proposes a level and the most restrictive one wins, so nothing can lower
what another signal says:

1. the explicit label (metadata ``sensitivity``): a known level, else RESTRICTED
   (one that mentions restricted/confidential/board, or an unknown one: fail closed,
   with a warning);
2. labels stated in the document: a ``Classification: ...`` line, or a marking line
   such as ``RESTRICTED — Board only`` in the body, a header, a footer or the notes;
3. a restricted filename pattern anywhere in the path (folded: case, spaces, ``_``,
   ``-``, dots, look-alike hyphens and full-width forms ignored);
4. a restricted keyword anywhere in the text: body, headers, footers, tables, text
   boxes, notes, cells and document properties (folded, whitespace included).

With no signal at all the document gets the profile's default level.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine_nb.core import RESTRICTED, is_blank
from ragspine_nb.sensitivity_policy import (
    RESTRICTED_LABEL_WORDS,
    SensitivityPolicy,
    fold_label,
    fold_path,
    fold_text,
)

if TYPE_CHECKING:
    from ragspine_nb.profile import DomainProfile

__all__ = [
    "ScreenText",
    "Signal",
    "SensitivityDecision",
    "label_signal",
    "filename_signal",
    "keyword_signal",
    "stated_label_signals",
    "most_restrictive",
    "decide_sensitivity",
    "classify_sensitivity",
    "CLASSIFIER_VERSION",
    "policy_fingerprint",
]

#: Version of the classification rules; part of :func:`policy_fingerprint`.
CLASSIFIER_VERSION = "sensitivity@2"

#: Words a marking line may consist of ("Strictly confidential — for board use only").
_MARKING_WORDS = frozenset({
    "restricted", "confidential", "strictly", "highly", "secret", "top", "board", "only",
    "use", "eyes", "for", "internal", "public", "not", "distribution", "circulation",
    "limited", "members", "do", "copy", "forward", "external", "sensitive", "private",
    "and", "of", "the",
})
#: A marking line needs one of these, or "board" with a qualifier ("Board only").
_STRONG_WORDS = frozenset({"restricted", "confidential", "secret"})
_BOARD_QUALIFIERS = frozenset({"only", "use", "eyes", "distribution", "circulation"})
#: Whole-line markings in Chinese (folded), e.g. 机密 (confidential), 董事会专用 (board use).
_CJK_MARKINGS = frozenset({"机密", "绝密", "秘密", "严格保密", "受限", "董事会专用", "仅限董事会",
                           "仅供董事会", "董事会机密", "限董事会"})
_KEYED_LABEL = re.compile(
    r"^\s*(?:(?:security|data|document|information)\s+)?"
    r"(?:classification|sensitivity(?:\s+label)?|protective\s+marking|文件密级|密级)"
    r"\s*[:：]\s*(?P<label>\S.{0,58}?)\s*$", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
_MAX_MARKING_CHARS = 80


@dataclass(frozen=True)
class ScreenText:
    """Text a reader found beside the narrative: a header, footer, table, notes, cells.

    ``markings=False`` for table cells: a short cell ("Restricted", a column of
    restricted cash) is searched for keywords only, never read as a label.
    """

    where: str
    text: str
    markings: bool = True


@dataclass(frozen=True)
class Signal:
    """One piece of evidence for a level: where it came from and what it said."""

    level: str
    source: str
    detail: str
    warning: str = ""


@dataclass(frozen=True)
class SensitivityDecision:
    """The level of a document with every signal that spoke and the warnings."""

    label: str
    signals: tuple[Signal, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def restricted(self) -> bool:
        """Whether the document is RESTRICTED."""
        return self.label == RESTRICTED

    def notes(self) -> tuple[str, ...]:
        """Lines for the ingest report: warnings, then why the level is what it is."""
        deciding = [s.detail for s in self.signals if s.level == self.label]
        lowered = [s for s in self.signals if s.source == "label" and s.level != self.label]
        why = (f"sensitivity {self.label}: " + "; ".join(dict.fromkeys(deciding))
               if deciding and (self.restricted or lowered) else "")
        return tuple(filter(None, (*self.warnings, why)))


def _mentions(folded: str) -> str:
    return next((w for w in RESTRICTED_LABEL_WORDS if w in folded), "")


def label_signal(policy: SensitivityPolicy, label: str | None, source: str = "label"
                 ) -> Signal | None:
    """What a label says: a known level, else RESTRICTED (fail closed); blank → None."""
    if not isinstance(label, str) or is_blank(label) or not fold_label(label):
        return None
    known = policy.level_of(label)
    if known is not None:
        return Signal(RESTRICTED if known == policy.levels[-1] else known, source,
                      f"{source} {label.strip()!r}")
    word = _mentions(fold_label(label))
    if word:
        return Signal(RESTRICTED, source, f"{source} {label.strip()!r} mentions {word!r}")
    return Signal(RESTRICTED, source, f"{source} {label.strip()!r} is not a known level",
                  warning=f"unknown sensitivity label {label.strip()!r} treated as RESTRICTED "
                          f"(fail closed); valid levels: {list(policy.levels)}")


def filename_signal(policy: SensitivityPolicy, filename: str) -> Signal | None:
    """RESTRICTED when a restricted pattern occurs in the folded path, else None."""
    if not filename:
        return None
    path = fold_path(filename)
    for pattern in policy.restricted_filename_patterns:
        if fold_path(pattern) and fold_path(pattern) in path:
            return Signal(RESTRICTED, "filename",
                          f"file name {filename!r} matches the restricted pattern {pattern!r}")
    return None


def keyword_signal(policy: SensitivityPolicy, texts: Iterable[ScreenText]) -> Signal | None:
    """RESTRICTED when a restricted keyword occurs in one of the texts (folded), else None."""
    keywords = [(k, fold_text(k)) for k in policy.restricted_keywords]
    if not keywords:
        return None
    for piece in texts:
        folded = fold_text(piece.text)
        for keyword, fk in keywords:
            if fk and fk in folded:
                return Signal(RESTRICTED, "keyword",
                              f"restricted keyword {keyword!r} in the {piece.where}")
    return None


def _marking(line: str) -> bool:
    """Whether a short line is a sensitivity marking ("RESTRICTED – Board only")."""
    norm = unicodedata.normalize("NFKC", line).casefold()
    if fold_label(norm) in _CJK_MARKINGS:
        return True
    words = _WORD.findall(norm)
    if not words or len(words) > 10 or not set(words) <= _MARKING_WORDS:
        return False
    return bool(_STRONG_WORDS & set(words)) or (
        "board" in words and bool(_BOARD_QUALIFIERS & set(words)))


def stated_label_signals(policy: SensitivityPolicy, texts: Iterable[ScreenText]
                         ) -> list[Signal]:
    """Labels the document states: ``Classification: X`` lines and marking lines."""
    out: list[Signal] = []
    for piece in texts:
        if not piece.markings:
            continue
        for line in piece.text.splitlines():
            if len(line) > _MAX_MARKING_CHARS or not line.strip():
                continue
            keyed = _KEYED_LABEL.match(unicodedata.normalize("NFKC", line))
            stated = keyed.group("label") if keyed else (line if _marking(line) else "")
            signal = label_signal(policy, stated, f"label stated in the {piece.where}")
            if signal is not None:
                out.append(signal)
    return out


def most_restrictive(policy: SensitivityPolicy, signals: Sequence[Signal]) -> str:
    """The highest level any signal proposes; the profile's default when none spoke."""
    if not signals:
        return policy.level_of(policy.default) or policy.default
    top = max(signals, key=lambda s: policy.rank(s.level))
    return RESTRICTED if policy.rank(top.level) == len(policy.levels) - 1 else top.level


def decide_sensitivity(
    profile: DomainProfile | SensitivityPolicy,
    filename: str = "",
    text: str = "",
    explicit: str | None = None,
    screen: Sequence[ScreenText] = (),
) -> SensitivityDecision:
    """Classify a document from every signal (see the module docstring).

    Parameters
    ----------
    profile : DomainProfile or SensitivityPolicy
        Supplies the levels, patterns, keywords and default.
    filename : str
        File name or path (document id) of the document.
    text : str
        Its narrative text.
    explicit : str, optional
        The label given by the user or the document's metadata.
    screen : sequence of ScreenText
        Text outside the narrative (headers, footers, tables, notes, cells, properties).

    Returns
    -------
    SensitivityDecision
        The level (a known level's canonical spelling or ``"RESTRICTED"``), the
        signals and the warnings (e.g. an unknown label).
    """
    policy = profile if isinstance(profile, SensitivityPolicy) else profile.sensitivity
    texts = (ScreenText("body", text), *screen)
    signals = [s for s in (label_signal(policy, explicit), filename_signal(policy, filename),
                           keyword_signal(policy, texts)) if s is not None]
    signals += stated_label_signals(policy, texts)
    warnings = tuple(dict.fromkeys(s.warning for s in signals if s.warning))
    return SensitivityDecision(most_restrictive(policy, signals), tuple(signals), warnings)


def classify_sensitivity(
    profile: DomainProfile | SensitivityPolicy,
    filename: str = "",
    text: str = "",
    explicit: str | None = None,
    screen: Sequence[ScreenText] = (),
) -> str:
    """Return the sensitivity label of a document (:func:`decide_sensitivity`'s level).

    >>> from ragspine_nb.sensitivity_policy import SensitivityPolicy
    >>> policy = SensitivityPolicy(restricted_filename_patterns=("board_minutes",))
    >>> classify_sensitivity(policy, "Board Minutes Jan 2026.md", explicit="public")
    'RESTRICTED'
    >>> classify_sensitivity(policy, "results.md", "The board approved the dividend.")
    'INTERNAL'
    """
    return decide_sensitivity(profile, filename, text, explicit, screen).label


def policy_fingerprint(profile: DomainProfile | SensitivityPolicy) -> str:
    """``sensitivity@2:<12 hex>``: changes when the policy or the classifier rules change.

    An ingestion whose document fingerprint includes it re-reads (re-classifies) files
    whose bytes did not change when a pattern, keyword or level is added.
    """
    policy = profile if isinstance(profile, SensitivityPolicy) else profile.sensitivity
    blob = json.dumps(policy.to_dict(), sort_keys=True, ensure_ascii=False).encode("utf-8")
    return f"{CLASSIFIER_VERSION}:{hashlib.sha256(blob).hexdigest()[:12]}"
