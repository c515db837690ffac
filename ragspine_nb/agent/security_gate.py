"""Deterministic competitor-alias screen on the raw question.

The gate runs before any tool, retrieval or model call. It matches the profile's
competitor aliases on a *folded view* of the text (NFKC, casefold, with format
characters, combining marks and whitespace removed) that keeps a map back to the
original positions, so a hit can be masked in the original text and no fragment of
a competitor's name is later parsed as a home entity.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ragspine_nb.profile import DomainProfile

__all__ = ["SecurityGate", "GateHit", "GateVerdict", "fold_with_map"]

_DROP_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zs", "Zl", "Zp")
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def fold_with_map(text: str) -> tuple[str, list[int]]:
    """Fold ``text`` for matching and return, per folded character, its source index."""
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        for piece in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", ch)):
            if piece in _BLANK_LETTERS or unicodedata.category(piece) in _DROP_CATEGORIES:
                continue
            for folded in unicodedata.normalize("NFKC", piece).casefold():
                out.append(folded)
                index.append(i)
    return "".join(out), index


@dataclass(frozen=True)
class GateHit:
    """One competitor alias found in the question."""

    alias: str
    display_name: str
    start: int
    end: int


@dataclass(frozen=True)
class GateVerdict:
    """The gate's decision: ``refused`` and the hits, plus the question with hits masked."""

    refused: bool
    hits: tuple[GateHit, ...]
    masked_text: str

    @property
    def code(self) -> str:
        """``"out_of_scope_entity"`` when refused, else ``"allow"``."""
        return "out_of_scope_entity" if self.refused else "allow"


class SecurityGate:
    """Refuse questions that name a competitor, before anything else runs.

    Parameters
    ----------
    profile : DomainProfile
        Supplies the competitor aliases (``[competitors]``) and the home name.
    """

    def __init__(self, profile: DomainProfile) -> None:
        self.profile = profile
        folded = [(fold_with_map(alias)[0], alias, name)
                  for alias, name in profile.competitors.items()]
        # Longest alias first, so a full name wins over a short alias inside it.
        self._aliases = sorted((f for f in folded if f[0]), key=lambda t: (-len(t[0]), t[0]))

    def screen(self, question: str) -> GateVerdict:
        """Screen the raw question; every hit is masked with spaces of equal length."""
        if not isinstance(question, str):
            raise TypeError(f"question must be a string, got {type(question).__name__}")
        view, index = fold_with_map(question)
        taken = [False] * len(view)
        hits: list[GateHit] = []
        for folded, alias, name in self._aliases:
            start = view.find(folded)
            while start != -1:
                end = start + len(folded)
                if not any(taken[start:end]):
                    for k in range(start, end):
                        taken[k] = True
                    hits.append(GateHit(alias, name, index[start], index[end - 1] + 1))
                start = view.find(folded, start + 1)
        masked = list(question)
        for hit in hits:
            masked[hit.start:hit.end] = " " * (hit.end - hit.start)
        hits.sort(key=lambda h: h.start)
        return GateVerdict(bool(hits), tuple(hits), "".join(masked))

    def refusal_text(self, verdict: GateVerdict, language: str) -> str:
        """The refusal shown to the user, in the question's language."""
        names = "、".join(dict.fromkeys(h.display_name for h in verdict.hits))
        home = self.profile.company_name
        if language == "zh":
            return (f"抱歉，该问题涉及外部机构（{names}），不在本系统的回答范围内。"
                    f"可以改问{home}的相关数据。")
        names = ", ".join(dict.fromkeys(h.display_name for h in verdict.hits))
        return (f"Sorry, this question is about an external organisation ({names}), which is "
                f"outside this system's scope. You can ask about {home} instead.")
