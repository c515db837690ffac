"""Deterministic competitor screen on the raw question — runs before anything else.

Not pluggable and model-free: aliases come from the profile, matching happens on a
folded view (:mod:`ragspine_nb.agent.normalize`) that undoes escapes, invisible and
format characters, full-width forms, case, inserted separators, combining marks,
look-alike letters and traditional characters. The longest alias wins, and every hit
is masked in the text later stages parse, so no fragment of a competitor's name (e.g.
中国 inside a longer name) can be read as a home entity.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ragspine_nb.agent.normalize import BOUNDARY, decode_escapes, fold_for_gate
from ragspine_nb.lang import detect_language
from ragspine_nb.profile import DomainProfile

__all__ = ["SecurityGate", "GateHit", "SecurityVerdict", "ALLOW", "OUT_OF_SCOPE_ENTITY"]

ALLOW = "allow"
OUT_OF_SCOPE_ENTITY = "out_of_scope_entity"
# "the rival is" is not "Rivalis": a split before one of these words reads as English.
_FUNCTION_WORDS = frozenset("is in on at as an or of it us so no to by be if".split())


@dataclass(frozen=True)
class GateHit:
    """A competitor alias found in the (decoded) question, with its span there."""

    alias: str
    display_name: str
    start: int
    end: int
    matched_text: str


@dataclass(frozen=True)
class SecurityVerdict:
    """The gate's decision and the text the rest of the pipeline may parse."""

    verdict: str
    hits: tuple[GateHit, ...]
    masked_text: str
    message: str = ""
    narrowing_options: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        """Whether the question is refused."""
        return self.verdict == OUT_OF_SCOPE_ENTITY


class SecurityGate:
    """Refuse questions that name a competitor, whatever the spelling.

    Parameters
    ----------
    competitors : mapping
        Alias → display name.
    home_company_name : str
        Offered as the narrowing option in refusals.
    """

    def __init__(self, competitors: Mapping[str, str], home_company_name: str) -> None:
        self.home_company_name = home_company_name
        folded = [(fold_for_gate(decode_escapes(a))[0], a, name) for a, name in competitors.items()]
        self._aliases = sorted(((f, a, n) for f, a, n in folded if f and BOUNDARY not in f),
                               key=lambda t: (-len(t[0]), t[0]))

    @classmethod
    def from_profile(cls, profile: DomainProfile) -> SecurityGate:
        """The gate for a profile's ``[competitors]``."""
        return cls(profile.competitors, profile.company_name)

    @staticmethod
    def _benign_split(region: str) -> bool:
        parts = region.split()
        return (len(parts) == 2 and parts[1].casefold() in _FUNCTION_WORDS
                and len(parts[0]) >= 3 and parts[0].isalpha())

    def detect(self, question: str) -> tuple[tuple[GateHit, ...], str]:
        """Hits (longest alias first, non-overlapping) and the decoded question, masked."""
        text = decode_escapes(question)
        view, index = fold_for_gate(text)
        taken = [False] * len(view)
        hits: list[GateHit] = []
        for folded, alias, name in self._aliases:
            start = view.find(folded)
            while start != -1:
                end = start + len(folded)
                a, b = index[start], index[end - 1] + 1
                ascii_alias = folded.isascii()
                inside_word = ascii_alias and (
                    (a > 0 and text[a - 1].isascii() and text[a - 1].isalnum())
                    or (b < len(text) and text[b].isascii() and text[b].isalnum()))
                if (not any(taken[start:end]) and not inside_word
                        and not (ascii_alias and " " not in alias.strip()
                                 and self._benign_split(text[a:b]))):
                    taken[start:end] = [True] * (end - start)
                    hits.append(GateHit(alias, name, a, b, text[a:b]))
                start = view.find(folded, start + 1)
        masked = list(text)
        for h in hits:
            masked[h.start:h.end] = " " * (h.end - h.start)
        hits.sort(key=lambda h: h.start)
        return tuple(hits), "".join(masked)

    def refusal_message(self, hits: tuple[GateHit, ...], language: str) -> str:
        """The refusal shown to the user, in the question's language."""
        names = list(dict.fromkeys(h.display_name for h in hits))
        if language == "zh":
            return (f"抱歉，该问题涉及外部机构（{'、'.join(names)}），不在本系统的回答范围内。"
                    f"可以改问{self.home_company_name}的相关数据。")
        return (f"Sorry, this question is about an external organisation ({', '.join(names)}), "
                f"which is outside this system's scope. You can ask about "
                f"{self.home_company_name} instead.")

    def screen(self, *, raw_question: str, metric: str | None = None) -> SecurityVerdict:
        """Decide on the raw question only (``metric`` is accepted and ignored on purpose).

        Returns
        -------
        SecurityVerdict
            ``verdict`` is ``"allow"`` or ``"out_of_scope_entity"``.
        """
        del metric  # scope is re-derived from the raw text, never from parsed slots
        if not isinstance(raw_question, str):
            raise TypeError(f"raw_question must be a string, got {type(raw_question).__name__}")
        hits, masked = self.detect(raw_question)
        if not hits:
            return SecurityVerdict(ALLOW, (), masked)
        return SecurityVerdict(OUT_OF_SCOPE_ENTITY, hits, masked,
                               self.refusal_message(hits, detect_language(raw_question)),
                               (f"Ask about {self.home_company_name}",))
