"""Deterministic multi-query rewriting from the profile's glossary (zero LLM).

The original query always comes first. Recognised metric, entity and channel terms
(ASCII terms only on word boundaries, so ``cn`` never matches inside ``concern``)
produce a variant with their controlled codes, then variants with sibling synonyms
of the same code. Variants that differ only in case are dropped (the tokenizer
lower-cases). Competitor aliases are never part of the vocabulary.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Protocol

from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile

__all__ = ["QueryRewriter", "GlossaryQueryRewriter"]

#: The characters other than ASCII letters that a case-insensitive pattern matches with
#: an ASCII letter (``İ ı ſ K``; found by trying every code point): without them in a
#: text, an ASCII term matches only where its lower case is in the text's lower case.
_ASCII_TWINS = frozenset("\u0130\u0131\u017f\u212a")


def _probe_key(term: str) -> tuple[str, bool] | None:
    """What must be in a text for ``term`` (NFKC) to match it, case-insensitively.

    ``(lower-case term, True)``: in the text's lower case (an ASCII term; see
    :data:`_ASCII_TWINS`); ``(term, False)``: in the text itself (every character
    caseless: CJK and other letters without case, digits, spaces, punctuation);
    ``None``: no such shortcut (the pattern is always tried).
    """
    if term.isascii():
        return term.lower(), True
    if all((c.isascii() and not c.isalpha()) or (unicodedata.category(c) == "Lo"
                                                   and c.lower() == c.upper() == c)
           for c in term):
        return term, False
    return None


def _absent(probe: tuple[str, bool] | None, text: str, lower: str | None) -> bool:
    """Whether a term with this :func:`_probe_key` surely does not occur in ``text``.

    ``lower`` is the text's lower case, ``None`` when it holds one of :data:`_ASCII_TWINS`.
    """
    if probe is None:
        return False
    key, folded = probe
    if folded:
        return lower is not None and key not in lower
    return key not in text


class QueryRewriter(Protocol):
    """Expands one query into variants, the original first."""

    def rewrite(self, query: str) -> list[str]:
        """Return the variants (at least the original query)."""
        ...


@dataclass(frozen=True)
class _Match:
    start: int
    end: int
    code: str
    synonyms: tuple[str, ...]


class GlossaryQueryRewriter:
    """Rule-based query variants from metric / entity / channel synonyms.

    Parameters
    ----------
    profile : DomainProfile
        The glossary.
    max_queries : int, default 5
        Cap on the number of variants, original included (>= 1).

    Examples
    --------
    >>> from ragspine_nb import DomainProfile
    >>> p = DomainProfile.from_dict({"home": {"company_name": "ACME", "entity_code": "ACME"},
    ...     "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue", "营收"]}}})
    >>> GlossaryQueryRewriter(p).rewrite("why did revenue fall")
    ['why did revenue fall', 'why did 营收 fall']
    """

    def __init__(self, profile: DomainProfile, max_queries: int = 5) -> None:
        if isinstance(max_queries, bool) or not isinstance(max_queries, int) or max_queries < 1:
            raise ValueError(f"max_queries must be an int >= 1, got {max_queries!r}")
        self.profile = profile
        self.max_queries = max_queries
        competitors = {fold(a) for a in profile.competitors}
        groups: list[tuple[str, tuple[str, ...]]] = []
        for m in profile.metrics.values():
            groups.append((m.code, (m.label, *m.synonyms)))
        for e in profile.entities.values():
            groups.append((e.code, (e.label, *e.synonyms)))
        for c in profile.channels.values():
            groups.append((c.code, c.synonyms))
        terms: list[tuple[str, str, tuple[str, ...]]] = []
        for code, synonyms in groups:
            clean = tuple(dict.fromkeys(s for s in synonyms if s and fold(s) not in competitors))
            terms += [(s, code, clean) for s in clean]
        terms.sort(key=lambda t: (-len(t[0]), t[0]))
        self._terms = [(self._pattern(t), code, syn) for t, code, syn in terms]
        self._probes = [_probe_key(unicodedata.normalize("NFKC", t)) for t, _, _ in terms]

    @staticmethod
    def _pattern(term: str) -> re.Pattern[str]:
        escaped = re.escape(unicodedata.normalize("NFKC", term))
        if term.isascii():
            return re.compile(rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])", re.IGNORECASE)
        return re.compile(escaped, re.IGNORECASE)

    def _matches(self, text: str) -> list[_Match]:
        taken = [False] * len(text)
        found: list[_Match] = []
        lower = text.lower() if _ASCII_TWINS.isdisjoint(text) else None
        for (pattern, code, synonyms), probe in zip(self._terms, self._probes, strict=True):
            if _absent(probe, text, lower):
                continue  # its pattern cannot match: not tried
            for m in pattern.finditer(text):
                if not any(taken[m.start():m.end()]):
                    taken[m.start():m.end()] = [True] * (m.end() - m.start())
                    found.append(_Match(m.start(), m.end(), code, synonyms))
        return sorted(found, key=lambda m: m.start)

    @staticmethod
    def _replace(text: str, replacements: list[tuple[_Match, str]]) -> str:
        for match, new in sorted(replacements, key=lambda r: -r[0].start):
            before, after = text[:match.start], text[match.end:]
            if new.isascii():  # keep an ASCII word from gluing to its neighbours
                if before and before[-1].isalnum():
                    new = " " + new
                if after and after[0].isalnum():
                    new = new + " "
            text = before + new + after
        return text

    def rewrite(self, query: str) -> list[str]:
        """The original query, a controlled-code variant, then sibling-synonym variants."""
        text = unicodedata.normalize("NFKC", query)
        matches = self._matches(text)
        variants = [query]
        if matches:
            variants.append(self._replace(text, [(m, m.code) for m in matches]))
            depth = max(len(m.synonyms) for m in matches)
            for k in range(depth):  # round-robin over the matched terms
                for m in matches:
                    if k < len(m.synonyms):
                        variants.append(self._replace(text, [(m, m.synonyms[k])]))
        seen: set[str] = set()
        out: list[str] = []
        for v in variants:
            key = " ".join(v.casefold().split())  # what BM25 sees: case never matters
            if key not in seen:
                seen.add(key)
                out.append(v)
            if len(out) == self.max_queries:
                break
        return out
