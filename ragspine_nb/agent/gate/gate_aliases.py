"""The competitor aliases as the security gate matches them, compiled once per profile.

Each alias (and each display name) is kept in the forms the gate's views compare:

- ``folded``: the folded spelling (:func:`~ragspine_nb.agent.gate.normalize.fold_for_gate`);
- ``lookalike``: a pattern in which an ``i`` or ``l`` may also be a vertical stroke;
- ``han``: for a Chinese alias, a pattern in which each character may also be a rare
  character with its reading (see :func:`~ragspine_nb.agent.gate.normalize.han_overrides`);
- ``key`` and ``units``: a Latin alias's phonetic skeleton and its syllables, matched
  against words of other scripts and Chinese transcriptions;
- ``words``: a Latin alias's words, for a misspelt or abbreviated word.

A Chinese alias of three or more characters also gives two derived Latin aliases, its
pinyin (``jinganzhengquan``) and its initials (``JAZQ``), matched in Latin text only.
A two-character alias does not: its pinyin is too often another name (竞安 and the
place 静安 are both ``jing'an``); declare such spellings in the profile instead. Each
character takes its most common reading (``anyascii``), so a polyphonic one (行 of 银行)
may be read wrong: declare the pinyin of such a name as well.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.agent.gate.normalize import BOUNDARY, STROKE, decode_escapes, fold_for_gate
from ragspine_nb.agent.gate.transliterate import (
    HanUnit,
    han_pinyin,
    han_reading,
    han_units,
    is_han,
    phonetic_key,
)

__all__ = ["Alias", "compile_aliases", "class_pattern", "MIN_KEY", "MIN_DERIVED"]

#: The shortest phonetic skeleton matched in another script (shorter ones are too common).
MIN_KEY = 3
#: The fewest characters of a Chinese alias whose pinyin is derived.
MIN_DERIVED = 3
#: The fewest vowels a Latin alias needs to be matched in Chinese transcription
MIN_VOWELS = 2
_PUA = 0xE000  # private-use characters stand for a reading in the Chinese view


def _pronounceable(folded: str) -> bool:
    """A word, not an acronym: at least a third of its letters are vowels."""
    return 3 * sum(c in "aeiouy" for c in folded) >= len(folded)


@dataclass(frozen=True)
class Alias:
    """One alias as matched (see the module docstring for the forms)."""

    folded: str
    alias: str
    display_name: str
    one_ascii_word: bool
    #: (length of the alias's trailing words, pattern of a metric name they begin)
    runs_into: tuple[tuple[int, re.Pattern[str]], ...]
    lookalike: re.Pattern[str]
    han: re.Pattern[str] | None
    key: str
    units: tuple[HanUnit, ...]
    words: tuple[str, ...]


def _fold(text: str) -> str:
    return fold_for_gate(decode_escapes(text))[0].replace(BOUNDARY, "")


def class_pattern(folded: str) -> re.Pattern[str]:
    """``folded`` as a pattern in which an ``i`` or an ``l`` may be a :data:`STROKE`."""
    s = re.escape(STROKE)
    return re.compile("".join(f"[i{s}]" if c == "i" else f"[l{s}]" if c == "l"
                              else re.escape(c) for c in folded))


def _runs_into(alias: str, metric_names: Sequence[str]) -> tuple[tuple[int, re.Pattern[str]],
                                                                 ...]:
    """The alias's last words that begin a longer metric name.

    "ACME Capital" and "capital expenditure": "ACME capital expenditure" names the home
    company's metric.
    """
    words = [_fold(w) for w in alias.split()]
    out: dict[tuple[int, str], None] = {}
    for name in metric_names:
        m_words = [_fold(w) for w in name.split()]
        for k in range(1, min(len(words), len(m_words))):
            if words[-k:] == m_words[:k]:
                out[(len("".join(words[-k:])), "".join(m_words))] = None
    return tuple((n, class_pattern(metric)) for n, metric in out)


def _han_pattern(folded: str, marks: Mapping[str, str]) -> re.Pattern[str] | None:
    if not any(is_han(c) for c in folded):
        return None
    return re.compile("".join(f"[{c}{marks[han_reading(c)]}]" if han_reading(c) in marks
                              else re.escape(c) for c in folded))


def _derived(names: Mapping[str, str]) -> dict[str, str]:
    """Pinyin and initials of each Chinese alias of :data:`MIN_DERIVED`+ characters."""
    out: dict[str, str] = {}
    for alias, display in names.items():
        syllables = han_pinyin(_fold(alias))
        if syllables and len(syllables) >= MIN_DERIVED:
            out.setdefault("".join(syllables), display)
            out.setdefault("".join(s[0] for s in syllables).upper(), display)
    return out


def compile_aliases(names: Mapping[str, str], metric_names: Sequence[str]
                    ) -> tuple[tuple[Alias, ...], dict[str, str]]:
    """Every alias compiled, longest first, and the reading → stand-in map of the Chinese view.

    ``names``: alias → display name (display names included as aliases).
    """
    derived = {d: n for d, n in _derived(names).items() if d not in names}
    every = {**names, **derived}
    folded = {alias: _fold(alias) for alias in every}
    readings = sorted({han_reading(c) for f in folded.values() for c in f if is_han(c)} - {""})
    marks = {r: chr(_PUA + k) for k, r in enumerate(readings)}
    out: dict[str, Alias] = {}
    for alias, name in every.items():
        f = folded[alias]
        if not f or f in out:
            continue
        # a word one can say (not an acronym, nor initials derived from Chinese)
        spoken = f.isascii() and f.isalpha() and alias not in derived and _pronounceable(f)
        key = phonetic_key(alias) if spoken else ""
        words = tuple(_fold(w) for w in re.split(r"[\s\-]+", alias.strip()))
        units = han_units(alias) if spoken and len(words) == 1 else ()
        out[f] = Alias(f, alias, name, f.isascii() and " " not in alias.strip(),
                       _runs_into(alias, metric_names), class_pattern(f), _han_pattern(f, marks),
                       key if len(key) >= MIN_KEY else "",
                       units if sum(bool(u.vowel) for u in units) >= MIN_VOWELS else (),
                       words if spoken and len(words) >= 2 else ())
    return tuple(sorted(out.values(), key=lambda a: (-len(a.folded), a.folded))), marks
