from __future__ import annotations

import math
import random

import bm25s
import numpy as np
import pytest

from ragspine_nb.retrieval import BM25Index, tokenize
from ragspine_nb.retrieval.bm25 import select_top_k
from ragspine_nb.retrieval.tokenize import ENGLISH_STOPWORDS


@pytest.mark.parametrize("text, tokens", [
    ("MPFA新规", ["mpfa", "新", "规", "新规"]),
    ("Revenue FY2024 营业收入", ["revenue", "fy2024", "营", "业", "收", "入", "营业", "业收",
                                "收入"]),
    ("ＭＰＦＡ，２０２４年", ["mpfa", "2024", "年"]),
    ("e-mail: A.B", ["e", "mail", "a", "b"]),
    ("", []), ("。，！", []),
])
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_tokenize_optional_stopwords_and_stemming() -> None:
    assert tokenize("The revenues of the group") == ["the", "revenues", "of", "the", "group"]
    assert tokenize("The revenues of the group", stopwords=ENGLISH_STOPWORDS) == [
        "revenues", "group"]
    assert tokenize("revenues grew", stemmer=lambda w: w.rstrip("s")) == ["revenue", "grew"]


def test_hand_computed_okapi_scores() -> None:
    idx = BM25Index.build(["d1", "d2"], ["x x y", "y z"])
    # idf(x) = ln(1 + (2-1+0.5)/(1+0.5)) = ln 2; avgdl = 2.5; |d1| = 3; tf = 2
    expected = math.log(2) * 2 * 2.5 / (2 + 1.5 * (0.25 + 0.75 * 3 / 2.5))
    [(doc, score)] = idx.search("x", top_k=5)
    assert doc == "d1" and score == pytest.approx(expected, rel=1e-6)
    assert score == pytest.approx(0.930399, abs=1e-6)
    # a repeated query token counts twice; unknown tokens are ignored
    assert idx.search("x x unknown", top_k=1)[0][1] == pytest.approx(2 * expected, rel=1e-6)
    # k1 = 0 makes tf irrelevant: score = idf
    assert idx.search("x", k1=0.0)[0][1] == pytest.approx(math.log(2), rel=1e-6)


def _corpus(n: int = 300, seed: int = 7) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(400)] + list("营业收入增长下降银保代理香港内地")
    docs = [" ".join(rng.choice(words) for _ in range(rng.randint(3, 60))) for _ in range(n)]
    return [f"doc{i:04d}" for i in range(n)], docs


@pytest.mark.parametrize("k1, b", [(1.5, 0.75), (1.2, 0.3), (0.9, 1.0), (2.0, 0.0)])
def test_scores_and_rankings_match_bm25s_lucene(k1: float, b: float) -> None:
    ids, texts = _corpus()
    ours = BM25Index.build(ids, texts)
    tokens = [tokenize(t) for t in texts]
    vocab: dict[str, int] = {}
    token_ids = [[vocab.setdefault(t, len(vocab)) for t in doc] for doc in tokens]
    peer = bm25s.BM25(method="lucene", k1=k1, b=b)
    peer.index((token_ids, vocab), show_progress=False)
    rng = random.Random(1)
    for _ in range(25):
        q = " ".join(rng.choice(texts).split()[:4])
        qids = [vocab[t] for t in tokenize(q) if t in vocab]
        theirs = np.asarray(peer.get_scores(qids))
        mine = ours.get_scores(q, k1=k1, b=b)
        # bm25s' lucene variant drops the constant factor (k1 + 1)
        np.testing.assert_allclose(mine, theirs * (k1 + 1), rtol=1e-5, atol=1e-6)
        top_mine = [d for d, _ in ours.search(q, top_k=10, k1=k1, b=b)]
        order = sorted(range(len(ids)), key=lambda i: (-theirs[i], i))
        top_theirs = [ids[i] for i in order[:10] if theirs[i] > 0]
        assert top_mine == top_theirs


def test_k1_b_change_needs_no_reindex_and_is_cached() -> None:
    ids, texts = _corpus(50)
    idx = BM25Index.build(ids, texts)
    tf_before = idx.term_matrix.copy()
    a = idx.search("w1 w2 w3", top_k=5, k1=1.5, b=0.75)
    c = idx.search("w1 w2 w3", top_k=5, k1=0.5, b=0.2)
    assert a != c
    assert (idx.term_matrix != tf_before).nnz == 0  # raw term frequencies untouched
    assert idx.weights(1.5, 0.75) is idx.weights(1.5, 0.75)
    assert idx.search("w1 w2 w3", top_k=5) == a


@pytest.mark.parametrize("k1, b", [(-0.1, 0.5), (1.0, 1.5), (1.0, -0.2), ("1", 0.5)])
def test_invalid_parameters(k1: object, b: object) -> None:
    idx = BM25Index.build(["a"], ["x"])
    with pytest.raises(ValueError):
        idx.search("x", k1=k1, b=b)  # type: ignore[arg-type]


def test_search_many_equals_search_and_mask_restricts() -> None:
    ids, texts = _corpus(120)
    idx = BM25Index.build(ids, texts)
    queries = [" ".join(t.split()[:3]) for t in texts[:30]]
    many = idx.search_many(queries, top_k=7)
    assert many == [idx.search(q, top_k=7) for q in queries]
    mask = idx.mask_for(ids[:40])
    masked = idx.search_many(queries, top_k=7, mask=mask)
    assert all(d in set(ids[:40]) for res in masked for d, _ in res)


def test_ties_break_by_index_position() -> None:
    idx = BM25Index.build(["c", "a", "b"], ["same words", "same words", "same words"])
    assert [d for d, _ in idx.search("same", top_k=2)] == ["c", "a"]
    docs, scores = select_top_k(np.array([5, 2, 9, 1]), np.array([1.0, 2.0, 2.0, 2.0]), 2)
    assert docs.tolist() == [1, 2] and scores.tolist() == [2.0, 2.0]


def test_build_validates_inputs() -> None:
    with pytest.raises(ValueError, match="2 doc_ids but 1 texts"):
        BM25Index.build(["a", "b"], ["x"])
    with pytest.raises(ValueError, match="unique"):
        BM25Index.build(["a", "a"], ["x", "y"])
    empty = BM25Index.build([], [])
    assert empty.search("x") == [] and len(empty) == 0
