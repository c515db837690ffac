"""A small synthetic corpus whose BM25 figures move with k1 and b (for the static-grid tests)."""

from __future__ import annotations

import random

WORDS = [f"w{i}" for i in range(40)]


def corpus(seed: int = 7) -> tuple[list[str], list[str], dict[str, str],
                                   dict[str, dict[str, int]]]:
    """``(doc ids, texts, queries, qrels)``: 80 documents of 5 to 300 words, 25 queries."""
    rng = random.Random(seed)
    ids = [f"d{i}" for i in range(80)]
    texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 300))) for _ in ids]
    queries, qrels = {}, {}
    for q in range(25):
        terms = rng.sample(WORDS, 2)
        queries[f"q{q}"] = " ".join(terms)
        holders = [d for d, t in zip(ids, texts, strict=True) if all(w in t.split() for w in terms)]
        qrels[f"q{q}"] = {d: 1 for d in rng.sample(holders, min(2, len(holders)))}
    return ids, texts, queries, qrels
