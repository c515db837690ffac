"""A request body cap for the service: 413 with a JSON error, before the body is read.

A body that declares a ``Content-Length`` over the limit is refused without reading a
byte of it; a chunked body (no length) is counted as it arrives and refused at the
first piece that goes over, so the server never holds more than the limit plus one
piece. Pure ASGI (no ``BaseHTTPMiddleware``), so streaming responses are untouched.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodyLimit", "BodyTooLargeError", "declared_length"]


class BodyTooLargeError(HTTPException):
    """The request body is over the limit (HTTP 413).

    An :class:`HTTPException`, so the framework answers it as it reads the body
    (FastAPI turns any other error raised while reading into a 400).
    """

    def __init__(self, detail: str) -> None:
        super().__init__(413, detail, headers={"Connection": "close"})


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The ``Content-Length`` a request declares, or ``None`` (absent or not a number).

    Examples
    --------
    >>> declared_length([(b"content-length", b"314572800")])
    314572800
    >>> declared_length([(b"transfer-encoding", b"chunked")]) is None
    True
    """
    for name, value in headers:
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None


async def _send_413(send: Send, detail: str) -> None:
    body = json.dumps({"detail": detail}, separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with a 413.

    Parameters
    ----------
    app : ASGI application
        The application it wraps.
    max_bytes : int
        The largest body accepted, in bytes.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request, refusing its body once it is over the limit."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope.get("headers", []))
        if declared is not None and declared > self.max_bytes:
            await _send_413(send, f"request body is too large: {declared:,} bytes declared, "
                                  f"the limit is {self.max_bytes:,} bytes")
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLargeError(f"request body is too large: more than "
                                            f"{self.max_bytes:,} bytes")
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except BodyTooLargeError as exc:  # raised where the framework did not answer it
            if started:
                raise
            await _send_413(send, str(exc.detail))
