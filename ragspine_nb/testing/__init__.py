"""Contract test mixins for every extension point: run them against your own backend.

Each mixin is a plain class whose ``test_*`` methods check the behavioural contract
of one Protocol. Inherit it in a pytest test class and define the fixture the mixin
names; pytest then runs the whole contract against your implementation::

    import pytest

    from ragspine_nb.testing import VectorStoreContract


    class TestMyStore(VectorStoreContract):
        @pytest.fixture
        def vector_store(self):
            return MyStore()  # a fresh, empty store per test

Mixins, the Protocol each checks, and the fixture the inheriting class defines:

* :class:`VectorStoreContract` — ``VectorStore``; ``vector_store`` (a fresh, empty store).
* :class:`EmbeddingBackendContract` — ``EmbeddingBackend``; ``embedding_backend``.
* :class:`ListwiseJudgeContract` — ``ListwiseJudge``; ``listwise_judge``.
* :class:`ScoringJudgeContract` — ``ScoringJudge``; ``scoring_judge``.
* :class:`QueryRewriterContract` — ``QueryRewriter``; ``query_rewriter``.
* :class:`QueryPlannerContract` — ``QueryPlanner``; ``query_planner``.
* :class:`LLMProviderContract` — ``LLMProvider``; ``llm_provider``.
* :class:`NarrativeRetrieverContract` — ``NarrativeRetriever``; ``narrative_retriever``,
  built over the passages of the mixin's ``narrative_corpus`` fixture
  (:data:`NARRATIVE_CORPUS`).
* :class:`IntentParserContract` — ``IntentParser``; ``intent_parser``.
* :class:`FactStoreContract` — ``FactWriter`` / ``FactReader``; ``fact_store`` (a fresh,
  empty, writable store; ``read_only_fact_store`` optionally).
* :class:`ChunkStoreContract` — ``ChunkWriter`` / ``ChunkReader``; ``chunk_store``
  (``read_only_chunk_store`` optionally).

The fixture names differ, so one class may inherit several mixins (a judge that both
orders and scores inherits :class:`ListwiseJudgeContract` and
:class:`ScoringJudgeContract`).

Notes
-----
This subpackage needs ``pytest`` (a development dependency, ``pip install
'ragspine_nb[dev]'``); it imports it at module level. Nothing else in ``ragspine_nb``
imports ``ragspine_nb.testing``, so the runtime never needs pytest.
"""

from __future__ import annotations

from ragspine_nb.testing.agent import (
    IntentParserContract,
    LLMProviderContract,
    NarrativeRetrieverContract,
)
from ragspine_nb.testing.corpus import (
    CANARY,
    NARRATIVE_CORPUS,
    ContractPassage,
)
from ragspine_nb.testing.planning import QueryPlannerContract, QueryRewriterContract
from ragspine_nb.testing.rerank import ListwiseJudgeContract, ScoringJudgeContract
from ragspine_nb.testing.retrieval import EmbeddingBackendContract, VectorStoreContract
from ragspine_nb.testing.stores import ChunkStoreContract, FactStoreContract

__all__ = [
    "FactStoreContract",
    "ChunkStoreContract",
    "VectorStoreContract",
    "EmbeddingBackendContract",
    "ListwiseJudgeContract",
    "ScoringJudgeContract",
    "QueryRewriterContract",
    "QueryPlannerContract",
    "LLMProviderContract",
    "NarrativeRetrieverContract",
    "IntentParserContract",
    "ContractPassage",
    "NARRATIVE_CORPUS",
    "CANARY",
]
