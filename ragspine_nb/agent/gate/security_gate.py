"""Deterministic competitor screen on the raw question — runs before anything else.

Not pluggable and model-free: aliases come from the profile and are compared on folded
views of the decoded question (:mod:`ragspine_nb.agent.gate.normalize`):

1. the plain view undoes escapes, invisible and format characters, full-width forms,
   case, inserted separators, combining marks, look-alike letters and traditional
   characters, and spells out characters separated one by one (``竞，安``, ``R. i. v.``);
2. the look-alike view reads digits as letters inside mixed tokens (``R1v4l1s``) and
   every vertical stroke (``I``, ``l``, ``|``, ``1``, ``Ⅰ``) as an ``i`` or an ``l``
   (``RivaIis``, ``Riva|is``);
3. the tone view drops pinyin tone digits (``jing4an1 zheng4quan4``);
4. the Chinese view drops Latin letters and punctuation between two Chinese characters
   and reads a rare variant as the alias character with its reading (``竞x安``,
   ``竞；安``, ``竸安``) — such a name must end where the text cannot go on with a word;
5. transcriptions (:mod:`ragspine_nb.agent.gate.transliterate`): words of other scripts with
   a Latin alias's phonetic skeleton (``Ривалис``, ``リヴァリス``) and Chinese characters
   that transcribe it syllable by syllable (``瑞瓦利斯``);
6. a multi-word alias with one word misspelt or abbreviated (``Jingan Sec.``), and the
   pinyin and initials derived from a long Chinese alias (:mod:`.gate_aliases`).

Display names and declared aliases are matched the same way. The longest alias wins,
and every hit is masked in the text later stages parse, so no fragment of a competitor's
name (e.g. 中国 inside a longer name) can be read as a home entity.

Structural exceptions keep ordinary questions answerable (:mod:`.gate_rules`): an
alias inside a longer word (``arrival``; but glued at a case change or to a designator,
``RivalisHK``, it is a name); an alias whose last words begin a longer metric name of
the home company that follows it ("ACME Capital" in "ACME capital expenditure"); a
one-word alias split into a word and a short English word that a sentence goes on after
("our rival—is it ...", but not "Rival Is revenue"); a short Chinese alias that is a
titled person's given name (副总裁王竞安). The conversation history is screened too:
:meth:`SecurityGate.screen_history` drops every turn that names a competitor before
anything uses the history.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ragspine_nb.agent.gate.gate_aliases import Alias, compile_aliases
from ragspine_nb.agent.gate.gate_rules import (
    benign_split,
    closed_after,
    glued,
    near_alias,
    person_name,
)
from ragspine_nb.agent.gate.normalize import (
    BOUNDARY,
    decode_escapes,
    fold_for_gate,
    han_overrides,
    lookalike_overrides,
)
from ragspine_nb.agent.gate.transliterate import (
    han_transcriptions,
    is_han,
    rare_han_reading,
    script_words,
    tone_overrides,
)
from ragspine_nb.lang import detect_language
from ragspine_nb.profile import DomainProfile

__all__ = ["SecurityGate", "GateHit", "SecurityVerdict", "ALLOW", "OUT_OF_SCOPE_ENTITY"]

ALLOW = "allow"
OUT_OF_SCOPE_ENTITY = "out_of_scope_entity"


#: How many questions' readings a gate keeps.
_READ_KEPT = 256


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


@dataclass
class _Scan:
    """One question being screened: its decoded text, what is taken, the hits so far."""

    text: str
    taken: list[bool] = field(default_factory=list)
    hits: list[GateHit] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.taken = [False] * len(self.text)

    def free(self, a: int, b: int) -> bool:
        return not any(self.taken[a:b])

    def take(self, a: int, b: int, al: Alias) -> None:
        self.taken[a:b] = [True] * (b - a)
        self.hits.append(GateHit(al.alias, al.display_name, a, b, self.text[a:b]))


@dataclass(frozen=True)
class _View:
    """A folded view of the question and what a hit in it must satisfy."""

    view: str
    index: list[int]
    pattern: Callable[[Alias], re.Pattern[str] | None]
    marked: frozenset[int] = frozenset()  # a hit must use one (empty: no condition)
    gaps: frozenset[int] = frozenset()  # a hit over one must end where a word cannot go on
    letters: frozenset[int] = frozenset()  # read as letters beside a match (leet digits)


def _found(view: str, al: Alias, pattern: re.Pattern[str] | None) -> Iterator[tuple[int, int]]:
    """(start, end) of every match of the alias in the view, overlapping ones included."""
    if pattern is None:
        start = view.find(al.folded)
        while start != -1:
            yield start, start + len(al.folded)
            start = view.find(al.folded, start + 1)
        return
    m = pattern.search(view)
    while m is not None:
        yield m.start(), m.end()
        m = pattern.search(view, m.start() + 1)


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
        into one of them ("ACME Capital" + "expenditure") is not a hit, and a name may
        end right before one ("竞x安营收", "Rival Is revenue").
    entity_names : sequence of str, optional
        The home company's entity names: a name may end right before one too.
    """

    def __init__(self, competitors: Mapping[str, str], home_company_name: str,
                 metric_names: Sequence[str] = (), entity_names: Sequence[str] = ()) -> None:
        self.home_company_name = home_company_name
        names = {**{d: d for d in competitors.values()}, **competitors}
        self._aliases, self._marks = compile_aliases(names, metric_names)
        self._metric_names = tuple(metric_names)
        self._names = tuple(sorted({n for n in (*metric_names, *entity_names)
                                    if n and is_han(n[0])}, key=len, reverse=True))
        #: the last questions' readings (a question is screened several times per answer:
        #: whole, then as the parser reads it); the gate never changes once built
        self._read: dict[str, tuple[tuple[GateHit, ...], str]] = {}

    @classmethod
    def from_profile(cls, profile: DomainProfile) -> SecurityGate:
        """The gate for a profile's ``[competitors]`` (and its metric and entity names)."""
        metrics = [t for m in profile.metrics.values() for t in (m.label, *m.synonyms) if t]
        entities = [t for e in profile.entities.values() for t in (e.label, *e.synonyms) if t]
        return cls(profile.competitors, profile.company_name, metrics, entities)

    @cached_property
    def _metrics(self) -> tuple[str, ...]:
        """The metric names folded, longest first (folded on the first alias hit that asks).

        Tens of thousands of names on a folder of filings: a gate with no competitor hit
        never needs them.
        """
        return tuple(sorted({fold_for_gate(m)[0] for m in self._metric_names} - {""},
                            key=len, reverse=True))

    @cached_property
    def _heads(self) -> frozenset[str]:
        """A metric name's head noun ("profit" of "operating profit") names a metric too."""
        return frozenset(w for m in self._metric_names if m.split()
                         for w in [fold_for_gate(m.split()[-1])[0]] if len(w) >= 4)

    def _starts_metric(self, text: str, i: int) -> bool:
        """Whether a metric name of the profile, or its head noun, starts at ``text[i]``."""
        word = re.match(r"[^\W\d_]*", text[i:])
        if word and fold_for_gate(word.group(0))[0] in self._heads:
            return True
        return bool(self._metrics) and fold_for_gate(text[i:i + 60])[0].startswith(self._metrics)

    def detect(self, question: str) -> tuple[tuple[GateHit, ...], str]:
        """Hits (longest alias first, non-overlapping) and the decoded question, masked."""
        found = self._read.get(question)
        if found is None:
            if len(self._read) >= _READ_KEPT:
                self._read.clear()
            found = self._read[question] = self._detect(question)
        return found

    def _detect(self, question: str) -> tuple[tuple[GateHit, ...], str]:
        scan = _Scan(decode_escapes(question))
        for view in self._views(scan.text):
            self._scan(scan, view)
        self._transcriptions(scan)
        masked = list(scan.text)
        for h in scan.hits:
            masked[h.start:h.end] = " " * (h.end - h.start)
        scan.hits.sort(key=lambda h: h.start)
        return tuple(scan.hits), "".join(masked)

    def _views(self, text: str) -> Iterator[_View]:
        """The plain view, then the look-alike, tone and Chinese views where they differ."""
        view, index = fold_for_gate(text)
        yield _View(view, index, lambda al: None)
        look = lookalike_overrides(text)
        if look:
            view, index = fold_for_gate(text, look)
            yield _View(view, index, lambda al: al.lookalike, frozenset(look),
                        letters=frozenset(look))
        tones = tone_overrides(text)
        if tones:
            view, index = fold_for_gate(text, tones)
            yield _View(view, index, lambda al: None, frozenset(tones))
        if any(is_han(c) for c in text):
            rare = {c: self._marks[r] for c in set(text)
                    if (r := rare_han_reading(c)) in self._marks}
            over, gaps = han_overrides(text, rare)
            if over:
                view, index = fold_for_gate(text, over)
                yield _View(view, index, lambda al: al.han, frozenset(over), gaps)

    def _scan(self, scan: _Scan, v: _View) -> None:
        """Add the hits of every alias in one view."""
        text = scan.text
        for al in self._aliases:
            pattern = v.pattern(al)
            if v.marked and pattern is None and v.gaps:
                continue  # the Chinese view: only Chinese aliases
            for start, end in _found(v.view, al, pattern):
                if BOUNDARY in v.view[start:end]:
                    continue
                a, b = v.index[start], v.index[end - 1] + 1
                if not scan.free(a, b) or (v.marked and not any(i in v.marked
                                                                 for i in range(a, b))):
                    continue
                if any(i in v.gaps for i in range(a, b)) and not closed_after(text, b,
                                                                              self._names):
                    continue
                if self._is_name(text, v, end, a, b, al):
                    scan.take(a, b, al)

    def _is_name(self, text: str, v: _View, end: int, a: int, b: int, al: Alias) -> bool:
        """Whether a match is the competitor's name (see :mod:`.gate_rules`)."""
        if al.folded.isascii() and not glued(text, a, b, v.letters):
            return False
        if any(p.match(v.view, end - n) for n, p in al.runs_into):
            return False
        if al.one_ascii_word and benign_split(text, a, b,
                                              lambda i: self._starts_metric(text, i)):
            return False
        return not person_name(text, a, b)

    def _transcriptions(self, scan: _Scan) -> None:
        """Hits spelt by sound in another script, and misspelt multi-word aliases."""
        text = scan.text
        plain = fold_for_gate(text)[0]
        words = script_words(text) if not text.isascii() else []
        han = any(is_han(c) for c in text)
        for al in self._aliases:
            spans: list[tuple[int, int]] = []
            if al.key:
                spans += [(s, e) for s, e, key in words if key.startswith(al.key)
                          and (len(key) - len(al.key) <= 1 or len(al.key) >= 4)]
            if al.units and han:
                spans += han_transcriptions(text, al.units)
            if al.words and any(w in plain for w in al.words):
                spans += near_alias(text, al.words, lambda w: fold_for_gate(w)[0])
            for a, b in spans:
                if scan.free(a, b):
                    scan.take(a, b, al)

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
