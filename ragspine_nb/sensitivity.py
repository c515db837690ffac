"""Deterministic sensitivity classification of a document; it fails closed.

Every signal proposes a level and the most restrictive one wins, so nothing can lower
what another signal says:

1. the explicit label (metadata ``sensitivity``): a known level, else RESTRICTED
   (one that mentions restricted/confidential/board, or an unknown one: fail closed,
   with a warning);
2. markings stated in the document (:mod:`ragspine_nb.markings`): a keyed label
   (``Classification: ...``) or a line or field of its own made of marking words
   (``CONFIDENTIAL - DO NOT DISTRIBUTE``, ``Commercial in confidence``, ``機密``) in the
   body, a header, a footer, a print header, an annotation, a content control, a slide
   layout, the notes or the properties; a word of a sentence or of a table row is no
   marking (table cells are searched for keywords only). A marking that is a known level
   states that level (``Confidential``); any other marking is RESTRICTED;
3. a restricted filename pattern anywhere in the path (folded: case, spaces, ``_``,
   ``-``, dots, look-alike hyphens and full-width forms ignored);
4. board material: a title or a path component naming it (``BoD_minutes_2026-09.md``,
   ``Minutes of the Board of Directors``; the policy's ``board_material``);
5. a restricted keyword anywhere in the text: body, headers, footers, tables, text
   boxes, notes, cells and document properties (folded, whitespace and look-alike
   letters included).

With no signal at all the document gets the profile's default level.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine_nb.core import RESTRICTED, is_blank
from ragspine_nb.markings import Marking, board_material, marking_lines
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
    "board_signal",
    "marking_signal",
    "stated_label_signals",
    "most_restrictive",
    "decide_sensitivity",
    "classify_sensitivity",
    "CLASSIFIER_VERSION",
    "policy_fingerprint",
]

#: Version of the classification rules; part of :func:`policy_fingerprint`.
CLASSIFIER_VERSION = "sensitivity@3"

@dataclass(frozen=True)
class ScreenText:
    """Text a reader found beside the narrative: a header, footer, table, notes, cells.

    Each line of ``text`` stands on its own (a field, a paragraph, a header line).
    ``markings=False`` for table cells and text whose lines may be pieces of a sentence
    or a row: a short cell ("Restricted", a column of restricted cash) is searched for
    keywords only, never read as a label.
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


def marking_signal(policy: SensitivityPolicy, marking: Marking, where: str) -> Signal:
    """What a marking states.

    A keyed label as :func:`label_signal` reads it (an unknown one fails closed), a
    marking that is a known level that level, any other marking RESTRICTED.
    """
    source = f"label stated in the {where}"
    if marking.keyed:
        return label_signal(policy, marking.label, source) or Signal(RESTRICTED, source, "")
    known = policy.level_of(marking.label)
    level = RESTRICTED if known is None or known == policy.levels[-1] else known
    return Signal(level, source, f"{source} {marking.label!r}"
                  + ("" if known else " is a marking"))


def stated_label_signals(policy: SensitivityPolicy, texts: Iterable[ScreenText]
                         ) -> list[Signal]:
    """Markings the document states: keyed labels and marking lines of its own."""
    out: list[Signal] = []
    for piece in texts:
        if piece.markings:
            out += [marking_signal(policy, m, piece.where) for m in marking_lines(piece.text)]
    return out


def board_signal(policy: SensitivityPolicy, filename: str, title: str) -> Signal | None:
    """RESTRICTED when the title or a component of the path names board material."""
    phrases = policy.board_material
    if not phrases:
        return None
    found = board_material(title, phrases) if title else None
    if found:
        return Signal(RESTRICTED, "board material",
                      f"title {title.strip()!r} names board material ({found!r})")
    for part in filename.replace("\\", "/").split("/"):
        found = board_material(part, phrases)
        if found:
            return Signal(RESTRICTED, "board material",
                          f"file name {filename!r} names board material ({found!r})")
    return None


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
    title: str = "",
    body_markings: bool = True,
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
    title : str
        The document's title (board material is recognised by it).
    body_markings : bool
        Whether each line of ``text`` stands on its own. A PDF text layer may break a
        sentence or a table row into one word per line: its reader judges the lines by
        their layout and hands the markings over as screen text, and its body is
        searched for keywords only.

    Returns
    -------
    SensitivityDecision
        The level (a known level's canonical spelling or ``"RESTRICTED"``), the
        signals and the warnings (e.g. an unknown label).
    """
    policy = profile if isinstance(profile, SensitivityPolicy) else profile.sensitivity
    texts = (ScreenText("body", text, body_markings), *screen)
    signals = [s for s in (label_signal(policy, explicit), filename_signal(policy, filename),
                           board_signal(policy, filename, title),
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
    """``sensitivity@3:<12 hex>``: changes when the policy or the classifier rules change.

    An ingestion whose document fingerprint includes it re-reads (re-classifies) files
    whose bytes did not change when a pattern, keyword or level is added.
    """
    policy = profile if isinstance(profile, SensitivityPolicy) else profile.sensitivity
    blob = json.dumps(policy.to_dict(), sort_keys=True, ensure_ascii=False).encode("utf-8")
    return f"{CLASSIFIER_VERSION}:{hashlib.sha256(blob).hexdigest()[:12]}"
