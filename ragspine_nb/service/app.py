"""The FastAPI application: ``/healthz``, ``/v1/ask``, ``/chat``, ``/chat/stream``, history.

Every answer goes through the same :class:`~ragspine_nb.agent.Agent` as the notebook and
the CLI, so the invariants hold at this edge too: the security gate runs on the raw
question first, numbers come from the fact store, every answer carries its sources and
citations, RESTRICTED text never reaches a prompt, and chat history is generation
context only. Errors are JSON (4xx with a message naming the limit or field; 500 with a
request id, never a traceback); the stream reports failures as an ``error`` event.

The agent and its SQLite stores are used under one lock: the service is a single
process serving one workspace (loopback by default), and answers take milliseconds.
History reads take no lock: they page in SQL on a read connection of their own.
Request bodies are capped (413 before a body over the limit is read), and text that
cannot be stored (a lone surrogate) is a 422 before anything is written. ``/docs`` is
Swagger UI served from the package (:mod:`ragspine_nb.service.docs`), so it works
offline; there is no ``/redoc``.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb._optional import import_optional

import_optional("fastapi", extra="service", feature="the HTTP service")

from fastapi import FastAPI, HTTPException, Query, Request  # noqa: E402
from fastapi import Path as PathParam  # noqa: E402
from fastapi.exceptions import RequestValidationError  # noqa: E402
from fastapi.responses import JSONResponse, StreamingResponse  # noqa: E402

from ragspine_nb.agent.agent import Agent, AgentResult  # noqa: E402
from ragspine_nb.agent.conversation import HISTORY_TURNS, Conversation  # noqa: E402
from ragspine_nb.service.body_limit import BodyLimit  # noqa: E402
from ragspine_nb.service.docs import add_docs_routes  # noqa: E402
from ragspine_nb.service.models import (  # noqa: E402
    ID_SCHEMA,
    AskRequest,
    AskResponse,
    ChatRequest,
    ChatResponse,
    ErrorResponse,
    HealthResponse,
    HistoryResponse,
    ServiceLimits,
)
from ragspine_nb.stores.conversations import (  # noqa: E402
    ConversationNotFoundError,
    ConversationStore,
    check_conversation_id,
)

__all__ = ["create_app", "create_app_for_workspace", "sse_event", "token_chunks"]

log = logging.getLogger("ragspine_nb.service")

_ERROR_MEANING = {400: "The body is not JSON text (e.g. not UTF-8).",
                  404: "No such conversation.", 413: "The request body is over the limit.",
                  422: "A field is invalid or over its limit (detail names it).",
                  500: "Internal error (detail and request_id; never a traceback)."}


#: The largest seq SQLite can hold (a larger ``after`` is a 422, not an overflow).
_MAX_SEQ = 2**63 - 1

#: Where a request field came from; the 422 detail names the field without it.
_WHERE = ("body", "query", "path", "header", "cookie")


def _field_error(error: Any) -> str:
    """One validation error as ``field.path: message`` (``question: Field required``)."""
    loc = [str(x) for x in error.get("loc", ())]
    if len(loc) > 1 and loc[0] in _WHERE:
        loc = loc[1:]
    return f"{'.'.join(loc)}: {error['msg']}" if loc else str(error["msg"])


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of the errors a route sends (all :class:`ErrorResponse`)."""
    return {code: {"model": ErrorResponse, "description": _ERROR_MEANING[code]}
            for code in codes}


def sse_event(payload: dict[str, Any]) -> str:
    """One Server-Sent Event: ``data: <json>`` and a blank line."""
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"


def token_chunks(text: str, size: int = 3) -> list[str]:
    r"""The answer in small pieces that join back to exactly ``text`` (words and spaces).

    Examples
    --------
    >>> "".join(token_chunks("Revenue was 1,405 USD_M.\\n来源：deck"))
    'Revenue was 1,405 USD_M.\\n来源：deck'
    """
    parts = re.findall(r"\s+|[^\s]+", text)
    return ["".join(parts[i:i + size]) for i in range(0, len(parts), size)] or [""]


def _clarification(result: AgentResult) -> dict[str, Any]:
    c = result.clarification
    return {"mode": c.mode, "question": c.question, "options": list(c.narrowing_options),
            "assumed": dict(c.assumed_slots)}


def _retrieval(result: AgentResult) -> dict[str, Any]:
    meta = result.retrieval or {}
    return {"route": result.route, "queries_generated": meta.get("queries_generated", 0),
            "candidates_found": meta.get("candidates_found", 0),
            "evidence_used": meta.get("evidence_used", 0),
            "retrieval_loops": meta.get("retrieval_loops", 0),
            "latency_ms": float(result.trace.get("latency_ms", 0.0))}


def create_app(agent: Agent, conversations: ConversationStore | None = None, *,
               limits: ServiceLimits | None = None,
               history_turns: int = HISTORY_TURNS) -> FastAPI:
    """The service over one agent.

    Parameters
    ----------
    agent : Agent
        Answers every request.
    conversations : ConversationStore, optional
        Where chats persist (in memory by default; a file keeps them across restarts).
    limits : ServiceLimits, optional
        Question / history / message size limits (422 beyond them), the request body
        limit (413) and the history page sizes.
    history_turns : int, default 5
        Earlier messages a chat answer may use as generation context.
    """
    from ragspine_nb import __version__

    limits = limits or ServiceLimits()
    store = conversations or ConversationStore()
    service = _Service(agent, store, limits, history_turns, __version__)
    app = FastAPI(
        title="ragspine_nb", version=__version__, docs_url=None, redoc_url=None,
        description="Cited answers over financial and operational reports: numbers from "
                    "the fact store, narrative from retrieved passages.")
    add_docs_routes(app)  # Swagger UI from the package: no CDN
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    _add_error_handlers(app)
    _add_health_route(app, service)
    _add_ask_route(app, service)
    _add_chat_routes(app, service)
    _add_history_route(app, store, limits)
    app.state.agent = agent
    app.state.conversations = store
    app.state.limits = limits
    return app


class _Service:
    """What the routes share: the agent under its lock, the conversations, the limits."""

    def __init__(self, agent: Agent, store: ConversationStore, limits: ServiceLimits,
                 history_turns: int, version: str) -> None:
        self.agent, self.store, self.limits = agent, store, limits
        self.history_turns, self.version = history_turns, version
        self.lock = threading.RLock()

    @staticmethod
    def check_text(field: str, text: str, limit: int) -> str:
        """``text``, or a 422 when it is blank or over ``limit`` characters."""
        if not text.strip():
            raise HTTPException(422, f"{field} must not be empty")
        if len(text) > limit:
            raise HTTPException(422, f"{field} is too long: {len(text)} characters, the limit "
                                     f"is {limit}")
        return text

    def ask(self, question: str, ref: date | None,
            history: list[tuple[str, str]]) -> AgentResult:
        """One answer from the agent, under the lock."""
        with self.lock:
            return self.agent.ask(question, reference_date=ref, history=history)

    def chat(self, body: ChatRequest) -> tuple[str, AgentResult]:
        """Answer a chat message in its conversation; the conversation's id and the answer."""
        self.check_text("message", body.message, self.limits.max_message_chars)
        with self.lock:  # the request model has already checked the id and the text
            conv = Conversation(self.agent, self.store, body.conversation_id or None,
                                history_turns=self.history_turns)
            return conv.conversation_id, conv.ask(body.message, reference_date=body.reference_date)


def _add_error_handlers(app: FastAPI) -> None:
    """Validation errors as one 422 detail; anything else a 500 with a request id."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [_field_error(e) for e in exc.errors()]
        return JSONResponse({"detail": "; ".join(parts) or "invalid request"}, status_code=422)

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        request_id = uuid.uuid4().hex[:16]
        log.exception("request %s failed", request_id)
        return JSONResponse({"detail": "internal error; the server log has the details",
                             "request_id": request_id}, status_code=500)


def _add_health_route(app: FastAPI, service: _Service) -> None:
    """``GET /healthz``."""
    agent, store = service.agent, service.store

    @app.get("/healthz", response_model=HealthResponse)
    def healthz() -> dict[str, Any]:
        """Liveness plus what is being served."""
        with service.lock:
            chunks = agent.index.store.count() if agent.index is not None else 0
            return {"status": "ok", "facts": agent.store.count(), "chunks": chunks,
                    "conversations": store.count(), "version": service.version}


def _add_ask_route(app: FastAPI, service: _Service) -> None:
    """``POST /v1/ask``."""
    limits = service.limits

    @app.post("/v1/ask", response_model=AskResponse, responses=_errors(400, 413, 422, 500))
    def v1_ask(body: AskRequest) -> dict[str, Any]:
        """Answer one question (history, if any, is generation context only)."""
        service.check_text("question", body.question, limits.max_question_chars)
        if len(body.history) > limits.max_history_messages:
            raise HTTPException(422, f"history has {len(body.history)} messages, the limit is "
                                     f"{limits.max_history_messages}")
        if sum(len(m.content) for m in body.history) > limits.max_history_chars:
            raise HTTPException(422, f"history is too long: the limit is "
                                     f"{limits.max_history_chars} characters in all")
        result = service.ask(body.question, body.reference_date,
                             [(m.role, m.content) for m in body.history])
        return {"request_id": result.trace.get("request_id", ""), "answer": result.answer,
                "route": result.route, "language": result.language,
                "clarification": _clarification(result), "sources": result.sources,
                "citations": result.citations, "tool_status": result.tool_status,
                "retrieval": _retrieval(result)}


def _add_chat_routes(app: FastAPI, service: _Service) -> None:
    """``POST /chat`` and ``POST /chat/stream``."""

    @app.post("/chat", response_model=ChatResponse, responses=_errors(400, 413, 422, 500))
    def chat_once(body: ChatRequest) -> dict[str, Any]:
        """Send a message in a conversation (created when no id is given)."""
        cid, result = service.chat(body)
        return {"conversation_id": cid, "request_id": result.trace.get("request_id", ""),
                "message": {"role": "assistant", "content": result.answer,
                            "citations": result.citations},
                "clarification": _clarification(result),
                "retrieval_metadata": _retrieval(result)}

    @app.post("/chat/stream", responses={200: {"content": {"text/event-stream": {}}},
                                         **_errors(400, 413, 422, 500)})
    def chat_stream(body: ChatRequest) -> StreamingResponse:
        """The chat answer as Server-Sent Events: metadata → citations → tokens → done.

        A failure while answering is an ``error`` event (never a traceback).
        """
        service.check_text("message", body.message, service.limits.max_message_chars)
        return StreamingResponse(_chat_events(service, body), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})


def _chat_events(service: _Service, body: ChatRequest) -> Iterator[str]:
    """The events of ``POST /chat/stream`` (the answer is made when the stream starts)."""
    started = time.perf_counter()
    try:
        cid, result = service.chat(body)
    except HTTPException as exc:
        yield sse_event({"type": "error", "detail": str(exc.detail)})
        return
    except Exception:  # noqa: BLE001 - reported as an event, logged with the trace
        request_id = uuid.uuid4().hex[:16]
        log.exception("stream %s failed", request_id)
        yield sse_event({"type": "error", "detail": "internal error; the server log "
                         "has the details", "request_id": request_id})
        return
    meta = _retrieval(result)
    meta["latency_ms"] = round((time.perf_counter() - started) * 1e3, 3)
    yield sse_event({"type": "metadata", "conversation_id": cid,
                     "request_id": result.trace.get("request_id", ""),
                     "clarification": _clarification(result), "retrieval": meta})
    yield sse_event({"type": "citations", "citations": result.citations})
    for piece in token_chunks(result.answer):
        yield sse_event({"type": "token", "content": piece})
    yield sse_event({"type": "done"})


def _add_history_route(app: FastAPI, store: ConversationStore, limits: ServiceLimits) -> None:
    """``GET /chat/history/{id}``: pages in SQL and takes no lock (see ``store.page``)."""

    @app.get("/chat/history/{conversation_id}", response_model=HistoryResponse,
             responses=_errors(404, 422, 500))
    def history(conversation_id: str = PathParam(json_schema_extra=ID_SCHEMA),
                after: int = Query(0, ge=0, le=_MAX_SEQ, description="Messages after this "
                                   "seq (the previous page's next_after)."),
                limit: int = Query(limits.history_page_size, ge=1,
                                   le=limits.max_history_page, description="Page size.")
                ) -> dict[str, Any]:
        """A page of a conversation's messages, oldest first, with their sources.

        Read in SQL outside the agent's lock: a long conversation never delays answers.
        """
        try:
            check_conversation_id(conversation_id)
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from exc
        try:
            page = store.page(conversation_id, after=after, limit=limit)
        except ConversationNotFoundError as exc:
            raise HTTPException(404, f"no conversation {conversation_id!r}") from exc
        return {"conversation_id": conversation_id, "total": page.total, "limit": limit,
                "next_after": page.next_after,
                "messages": [m.to_dict() for m in page.messages]}


def create_app_for_workspace(workspace: str | Path, **kwargs: Any) -> FastAPI:
    """The service over a workspace folder (facts, chunks, profile, ``conversations.db``)."""
    agent = Agent.from_workspace(workspace)
    return create_app(agent, ConversationStore(Path(workspace) / "conversations.db"), **kwargs)
