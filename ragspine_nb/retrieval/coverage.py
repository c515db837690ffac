"""Term coverage: a question's key terms, a passage's token set, and the offline judge.

:class:`TermCoverageJudge` scores a passage by the share of the question's key terms
it contains. A passage's token set is computed once per text and kept
(:func:`passage_tokens`): the evidence loop judges the same chunks for every question,
and the key is the text itself, so a chunk whose text changed is tokenized afresh.
"""

from __future__ import annotations

from functools import lru_cache

from ragspine_nb.retrieval.planning import keyword_query
from ragspine_nb.retrieval.tokenize import tokenize

__all__ = ["TermCoverageJudge", "key_terms", "passage_tokens", "TOKEN_SET_CACHE_SIZE"]

#: Passages whose token sets are kept (least recently used dropped first).
TOKEN_SET_CACHE_SIZE = 4096


def key_terms(question: str) -> list[str]:
    """The question's key terms: the tokens of its keyword form.

    For Chinese the bigrams stand for their characters (a lone character stays).

    Examples
    --------
    >>> key_terms("Why did Hong Kong agency sales fall?")
    ['hong', 'kong', 'agency', 'sales', 'fall']
    >>> key_terms("为什么代理渠道下滑")
    ['代理', '理渠', '渠道', '道下', '下滑']
    """
    tokens = tokenize(keyword_query(question))
    bigrams = [t for t in tokens if not t.isascii() and len(t) == 2]
    singles = {t[0] for t in bigrams} | {t[1] for t in bigrams}
    out = [t for t in tokens if t.isascii() or len(t) == 2 or t not in singles]
    return list(dict.fromkeys(out))


@lru_cache(maxsize=TOKEN_SET_CACHE_SIZE)
def passage_tokens(text: str) -> frozenset[str]:
    """The set of :func:`~ragspine_nb.retrieval.tokenize.tokenize` tokens of ``text``.

    Cached by the text itself (thread-safe, at most :data:`TOKEN_SET_CACHE_SIZE`
    texts): the same text always gives the same set, and a changed text is a new key.

    Examples
    --------
    >>> sorted(passage_tokens("Agency sales grew; agency fees fell."))
    ['agency', 'fees', 'fell', 'grew', 'sales']
    """
    return frozenset(tokenize(text))


class TermCoverageJudge:
    """Offline relevance: the share of the question's key terms a passage contains (0–1)."""

    name = "term-coverage"

    def score(self, query: str, candidates: list[str]) -> list[float]:
        """One score per candidate, in [0, 1]."""
        terms = key_terms(query)
        if not terms:
            return [0.0 for _ in candidates]
        out = []
        for text in candidates:
            have = passage_tokens(text)
            out.append(sum(t in have for t in terms) / len(terms))
        return out

    def judge(self, query: str, candidates: list[str]) -> list[int]:
        """Indexes by score, best first (ties keep their order)."""
        scores = self.score(query, candidates)
        return sorted(range(len(candidates)), key=lambda i: -scores[i])
