"""A labelled query set from the user's own chunks, offline: the lab works on day one.

Each sampled chunk gives at most one query: its heading (``title``) when it has one
of at least two words, else one of its sentences (6–60 words) reduced to its content
words (function words, numbers and one-letter tokens dropped) and, when longer, to a
random sample of ``max_words`` of them in their order (a full sentence's words find
their chunk at rank 1 almost always: nDCG@10 0.9975 on 150 SciFact abstracts).
The source chunk is judged relevant (2), and so is every chunk with the same text
(a repeated passage). Queries are:

- **flagged synthetic** (ids ``syn-…``, source ``synthetic``), so mixing them with the
  user's own judgments is explicit (:meth:`Judgments.update`);
- **deduplicated** (the same set of words twice is one query);
- **filtered for leakage**: a query holding ``leak_ngram`` consecutive words exactly as
  the chunk has them is dropped (it would test string matching, not retrieval);
- never taken from a RESTRICTED chunk.

English word rules only (a CJK sentence has no spaces to reduce): chunks without
Latin words give no query.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ragspine_nb.core.records import is_restricted
from ragspine_nb.retrieval.judgments import Judgments
from ragspine_nb.retrieval.tokenize import ENGLISH_STOPWORDS

__all__ = ["synthetic_queries", "query_from_sentence", "leaks", "FUNCTION_WORDS"]

#: English function words (grammar, not content) dropped from a sentence-turned-query.
FUNCTION_WORDS: frozenset[str] = ENGLISH_STOPWORDS | frozenset(
    "about above after again against all also am any because been before being below between "
    "both can could did do does doing down during each few from further had has have having "
    "he her here hers him his how i its itself just may me might more most must my nor now "
    "only other our ours out over own same she should so some than those through too under "
    "until up upon us very we were what when where which while who whom why would you your "
    "within without per via whether yet".split())

_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]|[A-Za-z]")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def query_from_sentence(sentence: str, max_words: int = 8) -> str:
    """The sentence's content words, in order, without repeats (at most ``max_words``).

    >>> query_from_sentence("The decrease in revenue was primarily driven by lower sales.")
    'decrease revenue primarily driven lower sales'
    """
    seen: list[str] = []
    for w in _words(sentence):
        if len(w) > 1 and w not in FUNCTION_WORDS and w not in seen:
            seen.append(w)
    return " ".join(seen[:max_words])


def leaks(query: str, text: str, n: int = 4) -> bool:
    """Whether ``query`` holds ``n`` consecutive words exactly as ``text`` has them.

    >>> leaks("net sales grew strongly", "Net sales grew strongly in Asia")
    True
    >>> leaks("net sales asia", "Net sales grew strongly in Asia")
    False
    """
    q = _words(query)
    if len(q) < n:
        return " ".join(q) in " ".join(_words(text)) if len(q) == len(_words(text)) else False
    grams = {tuple(q[i:i + n]) for i in range(len(q) - n + 1)}
    t = _words(text)
    return any(tuple(t[i:i + n]) in grams for i in range(len(t) - n + 1))


def _unleaked(query: str, text_words: Sequence[str], n: int) -> str:
    """``query`` without each word that would complete ``n`` words in the text's order."""
    grams = {tuple(text_words[i:i + n]) for i in range(len(text_words) - n + 1)}
    kept: list[str] = []
    for w in query.split():
        if len(kept) >= n - 1 and tuple([*kept[-(n - 1):], w]) in grams:
            continue
        kept.append(w)
    return " ".join(kept)


def _candidates(chunk: Any, max_words: int, n: int, rng: np.random.Generator) -> list[str]:
    out = []
    text_words = _words(chunk.text)
    title = " ".join(getattr(chunk, "title", "").split())
    if len(_words(title)) >= 2:
        out.append(query_from_sentence(title, max_words) or title.lower())
    for s in _SENTENCE.split(chunk.text):
        if 6 <= len(s.split()) <= 60:
            words = _unleaked(query_from_sentence(s, 60), text_words, n).split()
            if len(words) > max_words:  # a sample of the sentence's words, in their order
                words = [words[i] for i in sorted(rng.choice(len(words), max_words,
                                                             replace=False).tolist())]
            q = " ".join(words)
            if len(q.split()) >= 3:
                out.append(q)
    return out


def synthetic_queries(chunks: Iterable[Any], n: int = 200, seed: int = 0, max_words: int = 5,
                      leak_ngram: int = 4) -> Judgments:
    """Up to ``n`` synthetic queries, each judging its source chunk relevant (offline).

    Parameters
    ----------
    chunks : iterable of chunks
        Objects with ``chunk_id``, ``text``, ``title`` and ``sensitivity`` (a
        ``StoredChunk``, e.g. ``index.store.iter_chunks()``).
    n : int
        Most queries returned.
    seed : int
        The chunk sample and each chunk's sentence choice (same seed, same set).
    max_words, leak_ngram : int
        Query length; the leakage filter's n-gram.

    Returns
    -------
    Judgments
        Queries flagged synthetic; ``Judgments.queries`` holds their text.
    """
    pool = [c for c in chunks if not is_restricted(getattr(c, "sensitivity", ""))]
    same_text: dict[str, list[str]] = {}
    for c in pool:
        same_text.setdefault(" ".join(_words(c.text)), []).append(c.chunk_id)
    rng = np.random.default_rng(seed)
    order: Sequence[int] = rng.permutation(len(pool)).tolist()
    out = Judgments()
    seen: set[frozenset[str]] = set()
    for i in order:
        if len(out) >= n:
            break
        chunk = pool[i]
        cands = [q for q in _candidates(chunk, max_words, leak_ngram, rng)
                 if not leaks(q, chunk.text, leak_ngram)]
        cands = [q for q in cands if frozenset(q.split()) not in seen]
        if not cands:
            continue
        query = cands[int(rng.integers(len(cands)))]
        seen.add(frozenset(query.split()))
        qid = "syn-" + hashlib.sha1(f"{chunk.chunk_id}\n{query}".encode()).hexdigest()[:10]
        for cid in same_text[" ".join(_words(chunk.text))]:
            out.mark(qid, cid, 2, query=query, source="synthetic")
    out.version = 1
    return out
