"""The peer BM25 engines of bench/bm25_vs_peers.py, fed the same tokens as ours.

bm25s (method "lucene", backend "numba" or "numpy") maps the query token strings to its
ids inside the timed call, as ours does; tantivy gets the
tokens joined by spaces into a whitespace-tokenized field and a boolean OR of term
queries (tantivy fixes k1 = 1.2, b = 0.75 and stores lengths in one byte). Every
engine returns rankings as lists of (doc id, score), converted in the timed call.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

Ranking = list[tuple[str, float]]


def bm25s_engine(ids: Sequence[str], tokens: Sequence[Sequence[str]],
                 qtoks: Sequence[Sequence[str]], backend: str,
                 k1: float = 1.5, b: float = 0.75) -> tuple[Callable[[], list[Ranking]], float]:
    """A search-all-queries callable over a bm25s index, and the index time (s)."""
    import bm25s

    vocab: dict[str, int] = {}
    token_ids = [[vocab.setdefault(tk, len(vocab)) for tk in d] for d in tokens]
    t = time.perf_counter()
    peer = bm25s.BM25(method="lucene", k1=k1, b=b, backend=backend)
    peer.index((token_ids, vocab), show_progress=False)
    index_s = time.perf_counter() - t

    def run() -> list[Ranking]:
        # from the same token strings ours gets: the vocabulary lookup is timed for both
        qq = [[vocab[tk] for tk in q if tk in vocab] or [0] for q in qtoks]
        tq = bm25s.tokenization.Tokenized(ids=qq, vocab=vocab)
        docs, scores = peer.retrieve(tq, k=100, show_progress=False, n_threads=1)
        return [[(ids[d], s) for d, s in zip(dd.tolist(), ss.tolist(), strict=True) if s > 0]
                for dd, ss in zip(docs, scores, strict=True)]

    run()  # numba's first call compiles (seconds): not part of the timing
    return run, index_s


def tantivy_engine(ids: Sequence[str], tokens: Sequence[Sequence[str]],
                   qtoks: Sequence[Sequence[str]]) -> tuple[Callable[[], list[Ranking]], float]:
    """A search-all-queries callable over an in-memory tantivy index, and the index time."""
    import tantivy

    sb = tantivy.SchemaBuilder()
    sb.add_text_field("t", stored=False, tokenizer_name="whitespace")
    schema = sb.build()
    index = tantivy.Index(schema)
    t = time.perf_counter()
    writer = index.writer(heap_size=500_000_000, num_threads=1)
    for toks in tokens:
        writer.add_document(tantivy.Document(t=" ".join(toks)))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    index_s = time.perf_counter() - t
    searcher = index.searcher()
    if searcher.num_segments != 1:
        raise RuntimeError("expected one segment: doc ids would not be positions")
    def query(q: Sequence[str]) -> Any:
        return tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, tantivy.Query.term_query(schema, "t", tk)) for tk in q])

    queries = [query(q) for q in qtoks]

    def run() -> list[Ranking]:
        out = []
        for q in queries:
            hits = searcher.search(q, 100).hits
            out.append([(ids[a.doc], s) for s, a in hits])
        return out

    def one(q: Sequence[str], k: int = 10) -> Ranking:
        """One query, built and searched (for single-query latency)."""
        return [(ids[a.doc], s) for s, a in searcher.search(query(q), k).hits]

    run.one = one  # type: ignore[attr-defined]
    return run, index_s


def same_up_to_ties(ours: Ranking, theirs: Ranking) -> bool:
    """Equal rankings where documents with equal scores may come in any order.

    Scores are compared within each list only (engines scale them differently); the
    last tie group may be cut at the depth differently, so it is compared as far as
    both lists go.
    """
    def groups(r: Ranking) -> list[set[str]]:
        out: list[set[str]] = []
        last: Any = None
        for d, s in r:
            if s != last:
                out.append(set())
                last = s
            out[-1].add(d)
        return out

    a, b = groups(ours), groups(theirs)
    if len(ours) != len(theirs) or len(a) != len(b):
        return False
    return a[:-1] == b[:-1] and (not a or len(a[-1]) == len(b[-1]))
