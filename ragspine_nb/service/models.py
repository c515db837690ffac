"""Request and response models of the HTTP service (pydantic, in the OpenAPI schema)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError

from ragspine_nb.stores.conversations import check_conversation_id, check_storable_text

__all__ = [
    "ServiceLimits",
    "ErrorResponse",
    "Text",
    "IsoDate",
    "NON_BLANK",
    "ID_SCHEMA",
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
    """Input limits; a request over any of them gets a 422 (413 for the body) naming it.

    ``max_body_bytes`` caps a request body (checked against ``Content-Length`` before
    reading, and counted while a chunked body arrives); ``history_page_size`` and
    ``max_history_page`` are the default and largest page of ``/chat/history``.
    """

    max_question_chars: int = 2000
    max_history_messages: int = 20
    max_history_chars: int = 8000
    max_message_chars: int = 4000
    max_body_bytes: int = 1 << 20
    history_page_size: int = 100
    max_history_page: int = 1000

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"ServiceLimits.{name} must be a positive integer, got "
                                 f"{value!r}")
        if self.history_page_size > self.max_history_page:
            raise ValueError(f"ServiceLimits.history_page_size ({self.history_page_size}) "
                             f"must not exceed max_history_page ({self.max_history_page})")


def _storable(value: str, info: ValidationInfo) -> str:
    return check_storable_text(value, info.field_name or "text")


def _conversation_id(value: str | None) -> str | None:
    return check_conversation_id(value) if value else value


#: Text the service stores or answers: a lone surrogate is a 422, never a 500.
Text = Annotated[str, AfterValidator(_storable)]
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _date_text(value: Any) -> Any:
    """Only ``"YYYY-MM-DD"`` text (or a date) is a date: not ``0`` read as 1970-01-01."""
    if isinstance(value, date) or (isinstance(value, str) and _ISO_DATE.fullmatch(value)):
        return value
    raise PydanticCustomError("date_type", "Input should be a valid date (YYYY-MM-DD)")


#: A date sent as ISO text (the schema's ``format: date``); numbers and datetimes are 422.
IsoDate = Annotated[date, BeforeValidator(_date_text)]
#: What the schema promises about a question or message (the app checks it and its length).
NON_BLANK: dict[str, Any] = {"minLength": 1, "pattern": r"\S"}
#: The schema of a conversation id (``check_conversation_id`` enforces it).
ID_SCHEMA: dict[str, Any] = {"pattern": "^[A-Za-z0-9_-]{1,64}$"}
#: A chat request's id: an id, or empty for a new conversation (as when it is omitted).
_ID_OR_EMPTY: dict[str, Any] = {"pattern": "^[A-Za-z0-9_-]{0,64}$"}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorResponse(_Model):
    """Every 4xx / 5xx body: ``detail`` is one sentence naming the field or the limit."""

    detail: str = Field(description="What was wrong, e.g. 'question must not be empty'.")
    request_id: str | None = Field(
        default=None, description="On a 500: the id under which the server logged it.")


class HistoryMessage(_Model):
    """One earlier message (generation context only; never parsed or retrieved on)."""

    role: Literal["user", "assistant"]
    content: Text


class AskRequest(_Model):
    """``POST /v1/ask``."""

    question: Text = Field(description="The user's question (Chinese or English).",
                           json_schema_extra=NON_BLANK)
    reference_date: IsoDate | None = Field(
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

    message: Text = Field(description="The new user message.", json_schema_extra=NON_BLANK)
    conversation_id: Annotated[str | None, AfterValidator(_conversation_id)] = Field(
        default=None, description="Continue this conversation (1-64 letters, digits, '-' "
                                  "or '_'); a new one when omitted or empty.",
        json_schema_extra=_ID_OR_EMPTY)
    reference_date: IsoDate | None = Field(
        default=None, description="ISO date relative periods resolve against (default today).")


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
    """``GET /chat/history/{conversation_id}``: one page, oldest first."""

    conversation_id: str
    messages: list[dict[str, Any]] = Field(
        description="Messages with seq > after, oldest first, at most limit of them.")
    total: int = Field(description="How many messages the conversation holds.")
    limit: int = Field(description="The page size used.")
    next_after: int | None = Field(
        description="Pass as ?after= for the next page; null when this page is the last.")


class HealthResponse(_Model):
    """``GET /healthz``."""

    status: Literal["ok"]
    facts: int
    chunks: int
    conversations: int
    version: str
