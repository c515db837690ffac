"""Deterministic multi-query rewriting from the profile's glossary (zero LLM).

The original query always comes first. Recognised metric, entity and channel terms
(ASCII terms only on word boundaries, so ``cn`` never matches inside ``concern``)
produce a variant with their controlled codes, then variants with sibling synonyms
of the same code. Variants that differ only in case are dropped (the tokenizer
lower-cases). Competitor aliases are never part of the vocabulary.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile
from ragspine_nb.vocab_caseless import shared_caseless

__all__ = ["QueryRewriter", "GlossaryQueryRewriter", "shared_rewriter"]

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
        #: (term as written, code, its group's synonyms), longest term first
        self._terms = terms
        # one case-insensitive matcher per glossary, shared by every rewriter of it
        self._matcher = shared_caseless([(t, str(i)) for i, (t, _, _) in enumerate(terms)])

    def _matches(self, text: str) -> list[_Match]:
        """Longest non-overlapping terms in ``text`` (NFKC), case-insensitively.

        What one ``IGNORECASE`` pattern per term found, trying the longest term first:
        the NFKC term as a literal, an ASCII term between ``[A-Za-z0-9]`` edges.
        """
        found = []
        for start, end, rank, _ in self._matcher.find_all(text):
            _, code, synonyms = self._terms[int(rank)]
            found.append(_Match(start, end, code, synonyms))
        return found

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


@lru_cache(maxsize=8)
def shared_rewriter(profile: DomainProfile) -> GlossaryQueryRewriter:
    """The profile's glossary rewriter, built once and shared (it holds no state per query).

    The index and the query planner of an agent rewrite with the same glossary: on a
    folder of filings its terms number tens of thousands, sorted and indexed once here.

    Examples
    --------
    >>> from ragspine_nb import DomainProfile
    >>> p = DomainProfile.from_dict({"home": {"company_name": "ACME", "entity_code": "ACME"},
    ...     "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue"]}}})
    >>> shared_rewriter(p) is shared_rewriter(p)
    True
    """
    return GlossaryQueryRewriter(profile)
