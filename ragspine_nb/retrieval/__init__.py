"""The narrative channel: chunking, CJK BM25, vectors, RRF, rerank, and the agent seam."""

from ragspine_nb.extract.chunking import chunk_document
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.index import NarrativeIndex, build_narrative_retriever
from ragspine_nb.retrieval.judgments import Judgments, NoJudgmentsError
from ragspine_nb.retrieval.measures import score_run, write_trec_run
from ragspine_nb.retrieval.metrics import evaluate_run, mrr, ndcg_at_k, recall_at_k
from ragspine_nb.retrieval.rerank import (
    CrossEncoderJudge,
    ListwiseJudge,
    ProviderListwiseJudge,
    build_listwise_prompt,
    listwise_rerank,
    parse_listwise_response,
)
from ragspine_nb.retrieval.results import Hit, SearchResults
from ragspine_nb.retrieval.retriever import NarrativeIndexRetriever
from ragspine_nb.retrieval.rewrite import GlossaryQueryRewriter, QueryRewriter
from ragspine_nb.retrieval.synthetic_queries import synthetic_queries
from ragspine_nb.retrieval.tokenize import tokenize
from ragspine_nb.retrieval.tuning import QuerySetScorer
from ragspine_nb.retrieval.vectors import (
    EmbeddingBackend,
    InProcessVectorStore,
    VectorStore,
    make_embedding_backend,
)

__all__ = [
    "BM25Index", "tokenize", "rrf_fuse", "chunk_document", "NarrativeIndex",
    "NarrativeIndexRetriever", "build_narrative_retriever", "SearchResults", "Hit",
    "GlossaryQueryRewriter", "QueryRewriter", "EmbeddingBackend", "make_embedding_backend",
    "VectorStore", "InProcessVectorStore", "ListwiseJudge", "CrossEncoderJudge",
    "ProviderListwiseJudge", "listwise_rerank", "build_listwise_prompt",
    "parse_listwise_response", "QuerySetScorer", "evaluate_run", "ndcg_at_k", "recall_at_k",
    "mrr", "Judgments", "NoJudgmentsError", "synthetic_queries", "score_run", "write_trec_run",
]
