"""Deterministic competitor screen on the raw question — runs before anything else.

Not pluggable and model-free: aliases come from the profile, matching happens on a
folded view (:mod:`ragspine_nb.agent.normalize`) that undoes escapes, invisible and
format characters, full-width forms, case, inserted separators, combining marks,
look-alike letters and traditional characters, and spells out characters separated
one by one (``竞，安``, ``R. i. v.``); a second, leet view reads digits as letters inside
mixed tokens (``R1v4l1s``). Display names and the aliases a profile declares (romanised
or English spellings) are matched the same way. The longest alias wins, and every hit
is masked in the text later stages parse, so no fragment of a competitor's name (e.g.
中国 inside a longer name) can be read as a home entity.

Two structural exceptions keep ordinary questions answerable: an alias whose last words
begin a longer metric name of the home company that follows it ("ACME Capital" in "ACME
capital expenditure") is not a hit, nor is a one-word alias split into a word and a short
English word by a space, dash, bracket or quote ("our rival—is it ..."). The conversation
history is screened too: :meth:`SecurityGate.screen_history` drops every turn that names
a competitor before anything uses the history.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.agent.normalize import BOUNDARY, decode_escapes, fold_for_gate, leet_overrides
from ragspine_nb.lang import detect_language
from ragspine_nb.profile import DomainProfile

__all__ = ["SecurityGate", "GateHit", "SecurityVerdict", "ALLOW", "OUT_OF_SCOPE_ENTITY"]

ALLOW = "allow"
OUT_OF_SCOPE_ENTITY = "out_of_scope_entity"
# "the rival is" is not "Rivalis": a split before one of these words reads as English.
_FUNCTION_WORDS = frozenset("is in on at as an or of it us so no to by be if".split())
# what may stand between two English words: spaces, dashes, brackets and quotes
_GAP = re.compile(r"[\s\-\u2012-\u2015\u2212()\[\]{}\"'\u2018\u2019\u201c\u201d\u00ab\u00bb]+")


def _english_gap(gap: str) -> bool:
    """A gap English puts between words: with a space or a dash, never a bare hyphen."""
    return "--" in gap or any(c.isspace() or "\u2012" <= c <= "\u2015" for c in gap)


def _ascii_letter(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


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


@dataclass(frozen=True)
class _Alias:
    """One alias as matched: its folded form and the metric names it may run into."""

    folded: str
    alias: str
    display_name: str
    one_ascii_word: bool
    # (folded trailing words of the alias, folded metric name that starts with them)
    runs_into: tuple[tuple[str, str], ...]


def _leetish(folded: str) -> str:
    """The leet view's spelling: ``l`` and ``i`` are one letter (``1`` stands for both)."""
    return folded.replace("l", "i")


def _runs_into(alias: str, metric_names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(trailing words, metric name) pairs: the alias's last words begin a longer metric name.

    "ACME Capital" and "capital expenditure": a question "ACME capital expenditure" names
    the home company's metric, not the competitor.
    """
    words = [fold_for_gate(w)[0] for w in alias.split()]
    out = []
    for name in metric_names:
        m_words = [fold_for_gate(w)[0] for w in name.split()]
        for k in range(1, min(len(words), len(m_words))):
            if words[-k:] == m_words[:k]:
                out.append(("".join(words[-k:]), "".join(m_words)))
    return tuple(dict.fromkeys(out))


def _inside_word(text: str, a: int, b: int, alias: _Alias, leet: frozenset[int]) -> bool:
    """An ASCII alias with a letter (or a digit read as one) beside it is part of a word."""
    def letter(i: int) -> bool:
        return 0 <= i < len(text) and (_ascii_letter(text[i]) or i in leet)

    return alias.folded.isascii() and (letter(a - 1) or letter(b))


def _runs_on(view: str, end: int, alias: _Alias) -> bool:
    """Whether the match ending at ``end`` continues into a metric name it begins."""
    return any(view.startswith(metric, end - len(words)) for words, metric in alias.runs_into)


class SecurityGate:
    """Refuse questions that name a competitor, whatever the spelling.

    Parameters
    ----------
    competitors : mapping
        Alias → display name. Display names are matched as aliases too (a refusal
        names them, and a refusal in the history must not bring the name back).
    home_company_name : str
        Offered as the narrowing option in refusals.
    metric_names : sequence of str, optional
        The home company's metric labels and synonyms: an alias whose last words run
        into one of them ("ACME Capital" + "expenditure") is not a hit.
    """

    def __init__(self, competitors: Mapping[str, str], home_company_name: str,
                 metric_names: Sequence[str] = ()) -> None:
        self.home_company_name = home_company_name
        names = {**{d: d for d in competitors.values()}, **competitors}
        self._aliases = self._build(names, metric_names, leet=False)
        self._leet_aliases = self._build(names, metric_names, leet=True)

    @staticmethod
    def _build(names: Mapping[str, str], metric_names: Sequence[str],
               leet: bool) -> tuple[_Alias, ...]:
        out = []
        for alias, name in names.items():
            folded = fold_for_gate(decode_escapes(alias))[0].replace(BOUNDARY, "")
            if not folded:
                continue
            runs = _runs_into(alias, metric_names)
            if leet:
                folded, runs = _leetish(folded), tuple((_leetish(a), _leetish(b))
                                                        for a, b in runs)
            out.append(_Alias(folded, alias, name, folded.isascii() and " " not in
                              alias.strip(), runs))
        return tuple(sorted(out, key=lambda t: (-len(t.folded), t.folded)))

    @classmethod
    def from_profile(cls, profile: DomainProfile) -> SecurityGate:
        """The gate for a profile's ``[competitors]`` (and its metric names)."""
        metrics = [t for m in profile.metrics.values() for t in (m.label, *m.synonyms) if t]
        return cls(profile.competitors, profile.company_name, metrics)

    @staticmethod
    def _benign_split(region: str) -> bool:
        """"rival is", "rival—is", "rival (is": a word and a short English word, not a name."""
        parts = _GAP.split(region)
        return (len(parts) == 2 and parts[1].casefold() in _FUNCTION_WORDS
                and len(parts[0]) >= 3 and parts[0].isalpha()
                and _english_gap(region[len(parts[0]):len(region) - len(parts[1])]))

    def detect(self, question: str) -> tuple[tuple[GateHit, ...], str]:
        """Hits (longest alias first, non-overlapping) and the decoded question, masked."""
        text = decode_escapes(question)
        taken = [False] * len(text)
        hits: list[GateHit] = []
        view, index = fold_for_gate(text)
        self._scan(text, view, index, self._aliases, taken, hits, frozenset())
        leet = leet_overrides(text)
        if leet:
            view, index = fold_for_gate(text, leet)
            self._scan(text, _leetish(view), index, self._leet_aliases, taken, hits,
                       frozenset(leet))
        masked = list(text)
        for h in hits:
            masked[h.start:h.end] = " " * (h.end - h.start)
        hits.sort(key=lambda h: h.start)
        return tuple(hits), "".join(masked)

    def _scan(self, text: str, view: str, index: list[int], aliases: Sequence[_Alias],
              taken: list[bool], hits: list[GateHit], leet: frozenset[int]) -> None:
        """Add the hits of ``aliases`` in one view (leet: a hit must use a mapped digit)."""
        for al in aliases:
            start = view.find(al.folded)
            while start != -1:
                end = start + len(al.folded)
                a, b = index[start], index[end - 1] + 1
                if not (any(taken[a:b]) or (leet and not any(i in leet for i in range(a, b)))
                        or _inside_word(text, a, b, al, leet) or _runs_on(view, end, al)
                        or (al.one_ascii_word and self._benign_split(text[a:b]))):
                    taken[a:b] = [True] * (b - a)
                    hits.append(GateHit(al.alias, al.display_name, a, b, text[a:b]))
                start = view.find(al.folded, start + 1)

    def screen_history(self, history: Sequence[tuple[str, str]] | None
                       ) -> tuple[list[tuple[str, str]], int]:
        """The history turns that name no competitor, and how many were dropped.

        A turn of either role that names a competitor in any spelling is dropped whole,
        never masked (its other words would still be about the competitor). A refusal
        names the competitor, so a refused exchange leaves the history entirely. The
        current question is judged on its own text by :meth:`screen`.
        """
        kept: list[tuple[str, str]] = []
        for turn in history or ():
            if not (isinstance(turn, tuple | list) and len(turn) == 2
                    and all(isinstance(x, str) for x in turn)):
                raise TypeError(f"history turns must be (role, text) pairs of strings, "
                                f"got {turn!r}")
            if not self.detect(turn[1])[0]:
                kept.append((turn[0], turn[1]))
        return kept, len(history or ()) - len(kept)

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
