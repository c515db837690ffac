"""Request and response models of the HTTP service (pydantic, in the OpenAPI schema)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ServiceLimits",
    "HistoryMessage",
    "AskRequest",
    "AskResponse",
    "ChatRequest",
    "ChatResponse",
    "Citation",
    "RetrievalMetadata",
    "ClarificationOut",
    "HistoryResponse",
    "HealthResponse",
]


@dataclass(frozen=True)
class ServiceLimits:
    """Input limits; a request over any of them gets a 422 naming the limit."""

    max_question_chars: int = 2000
    max_history_messages: int = 20
    max_history_chars: int = 8000
    max_message_chars: int = 4000


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HistoryMessage(_Model):
    """One earlier message (generation context only; never parsed or retrieved on)."""

    role: Literal["user", "assistant"]
    content: str


class AskRequest(_Model):
    """``POST /v1/ask``."""

    question: str = Field(description="The user's question (Chinese or English).")
    reference_date: date | None = Field(
        default=None, description="ISO date relative periods resolve against (default today).")
    history: list[HistoryMessage] = Field(
        default_factory=list, description="Earlier turns, used only as generation context.")


class Citation(_Model):
    """A cited source: document, locator and excerpt (a stored figure or passage text)."""

    index: int
    kind: Literal["fact", "passage", "faq", "source"]
    doc_id: str
    title: str = ""
    locator: str
    excerpt: str = ""


class ClarificationOut(_Model):
    """How the question was treated before answering."""

    mode: str
    question: str = ""
    options: list[str] = Field(default_factory=list)
    assumed: dict[str, str] = Field(default_factory=dict)


class RetrievalMetadata(_Model):
    """What answering took."""

    route: str
    queries_generated: int = 0
    candidates_found: int = 0
    evidence_used: int = 0
    retrieval_loops: int = 0
    latency_ms: float


class AskResponse(_Model):
    """``POST /v1/ask`` answer."""

    request_id: str
    answer: str
    route: str
    language: str
    clarification: ClarificationOut
    sources: list[dict[str, str]]
    citations: list[Citation]
    tool_status: dict[str, int]
    retrieval: RetrievalMetadata


class ChatRequest(_Model):
    """``POST /chat`` and ``POST /chat/stream``."""

    message: str = Field(description="The new user message.")
    conversation_id: str | None = Field(
        default=None, description="Continue this conversation; a new one when omitted.")
    reference_date: date | None = None


class ChatMessageOut(_Model):
    """The assistant message of a chat response."""

    role: Literal["assistant"] = "assistant"
    content: str
    citations: list[Citation]


class ChatResponse(_Model):
    """``POST /chat`` answer."""

    conversation_id: str
    request_id: str
    message: ChatMessageOut
    clarification: ClarificationOut
    retrieval_metadata: RetrievalMetadata


class HistoryResponse(_Model):
    """``GET /chat/history/{conversation_id}``."""

    conversation_id: str
    messages: list[dict[str, Any]]


class HealthResponse(_Model):
    """``GET /healthz``."""

    status: Literal["ok"]
    facts: int
    chunks: int
    conversations: int
    version: str
