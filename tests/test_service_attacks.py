"""Issue 14 item 12: the service under attack (body size, lone surrogates, ids, schema).

Real SQLite files, FastAPI's TestClient, the raw ASGI app and a real uvicorn server.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
import uvicorn  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ragspine_nb import Agent  # noqa: E402
from ragspine_nb.service import create_app  # noqa: E402
from ragspine_nb.service.models import ServiceLimits  # noqa: E402
from ragspine_nb.stores.conversations import (  # noqa: E402
    ConversationStore,
    check_conversation_id,
)

HK = "What was ACME Hong Kong's revenue in FY2025?"
MB = 1 << 20


@pytest.fixture()
def store(tmp_path: Path) -> ConversationStore:
    return ConversationStore(tmp_path / "conv.db")


@pytest.fixture()
def client(demo_ws: Path, store: ConversationStore) -> TestClient:
    return TestClient(create_app(Agent.from_workspace(demo_ws), store))


# ------------------------------------------------------------------------ body limit
def _drive(app: Any, headers: list[tuple[bytes, bytes]], chunks: list[bytes]
           ) -> tuple[int, dict[str, Any], int]:
    """Run one POST /v1/ask through the ASGI app: status, JSON body, chunks it pulled."""
    pulled = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        if pulled < len(chunks):
            pulled += 1
            return {"type": "http.request", "body": chunks[pulled - 1],
                    "more_body": pulled < len(chunks)}
        await asyncio.sleep(3600)  # a client that never finishes its body
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/v1/ask", "raw_path": b"/v1/ask",
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
             "server": ("127.0.0.1", 8000),
             "headers": [(b"content-type", b"application/json"), *headers]}
    # a loop of its own in a thread of its own: another test (Playwright's sync API) may
    # have left an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, asyncio.wait_for(app(scope, receive, send), 30)).result()
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), pulled


def test_declared_body_over_the_limit_is_413_before_any_of_it_is_read(demo_ws: Path) -> None:
    app = create_app(Agent.from_workspace(demo_ws))
    status, body, pulled = _drive(app, [(b"content-length", b"314572800")], [b"{}"] * 300)
    assert status == 413 and pulled == 0
    assert body == {"detail": "request body is too large: 314,572,800 bytes declared, the "
                              "limit is 1,048,576 bytes"}


def test_chunked_body_is_cut_off_at_the_limit_without_reading_the_rest(demo_ws: Path) -> None:
    app = create_app(Agent.from_workspace(demo_ws))
    piece = b"x" * (64 * 1024)  # 300 pieces = 19.7 MB, no Content-Length
    status, body, pulled = _drive(app, [(b"transfer-encoding", b"chunked")],
                                  [b'{"question": "'] + [piece] * 300)
    assert status == 413 and pulled == 1 + 16  # 14 bytes + 16 x 64 KiB is over 1 MiB
    assert body == {"detail": "request body is too large: more than 1,048,576 bytes"}


def test_body_limit_is_configurable_and_bodies_under_it_are_answered(demo_ws: Path) -> None:
    c = TestClient(create_app(Agent.from_workspace(demo_ws),
                              limits=ServiceLimits(max_body_bytes=200)))
    ok = c.post("/v1/ask", json={"question": HK})
    assert ok.status_code == 200 and "1,405 US$ m" in ok.json()["answer"]
    big = c.post("/v1/ask", json={"question": HK * 5})
    size = len(big.request.content)
    assert big.status_code == 413 and size > 200
    assert big.json()["detail"] == (f"request body is too large: {size} bytes declared, the "
                                    "limit is 200 bytes")
    chunked = c.post("/chat", content=iter([json.dumps({"message": HK * 5}).encode()]))
    assert chunked.status_code == 413
    assert chunked.json()["detail"] == "request body is too large: more than 200 bytes"
    assert c.get("/healthz").json()["conversations"] == 0


@pytest.fixture()
def server(demo_ws: Path, tmp_path: Path) -> Iterator[tuple[str, int]]:
    app = create_app(Agent.from_workspace(demo_ws), ConversationStore(tmp_path / "conv.db"))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.started, "uvicorn did not start"
    yield "127.0.0.1", srv.servers[0].sockets[0].getsockname()[1]
    srv.should_exit = True
    thread.join(timeout=10)


def _raw(addr: tuple[str, int], head: str, body: bytes = b"") -> bytes:
    """Send a request's head (and maybe part of its body); the reply up to the close.

    The server may answer and close before it has read what was sent (that is the
    point), so a reset while sending or after the reply is not a failure here.
    """
    reply = b""
    with socket.create_connection(addr, timeout=20) as sock:
        try:
            sock.sendall(head.encode() + body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            while piece := sock.recv(65536):
                reply += piece
        except ConnectionResetError:
            pass
    return reply


def test_real_server_answers_413_before_the_body_arrives(server: tuple[str, int]) -> None:
    head = ("POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 314572800\r\n\r\n")
    reply = _raw(server, head)  # not one byte of the 300 MB is sent
    assert reply.startswith(b"HTTP/1.1 413 ")
    assert b'{"detail":"request body is too large: 314,572,800 bytes declared' in reply
    chunk = b"x" * (2 * MB)
    head = ("POST /chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n")
    reply = _raw(server, head, f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
    assert reply.startswith(b"HTTP/1.1 413 ")


# ------------------------------------------------------------------------ lone surrogates
SURROGATE_BODIES = [
    ("/chat", '{"message": "revenue \\ud800 FY2025"}'),
    ("/chat/stream", '{"message": "revenue \\ud800 FY2025"}'),
    ("/v1/ask", '{"question": "revenue \\udfff FY2025"}'),
    ("/v1/ask", '{"question": "revenue", "history": [{"role": "user", '
                '"content": "x \\ud83d"}]}'),
]


@pytest.mark.parametrize("route, raw", SURROGATE_BODIES)
def test_lone_surrogate_is_422_and_nothing_is_written(client: TestClient,
                                                      store: ConversationStore,
                                                      route: str, raw: str) -> None:
    r = client.post(route, content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert "lone surrogate" in r.json()["detail"] and "Traceback" not in r.text
    assert store.ids() == []  # no orphan conversation


def test_lone_surrogate_in_an_existing_conversation_adds_no_message(
        client: TestClient, store: ConversationStore) -> None:
    cid = client.post("/chat", json={"message": HK}).json()["conversation_id"]
    r = client.post("/chat", content=json.dumps({"conversation_id": cid})[:-1]
                    + ', "message": "\\ud800"}', headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == (
        "message: Value error, message contains a lone surrogate at character 0 (U+D800); "
        "send valid UTF-8 text")
    assert [m.seq for m in store.messages(cid)] == [1, 2]


def test_store_refuses_unstorable_text_before_writing(store: ConversationStore) -> None:
    with pytest.raises(ValueError, match="lone surrogate at character 2"):
        store.append("c-1", "user", "ab\udc80")
    assert store.ids() == []


# ------------------------------------------------------------------------ ids
@pytest.mark.parametrize("bad", ["abc\n", "abc\r\n", "\nabc", "a" * 65, "ab c", "é"])
def test_conversation_ids_must_match_the_whole_string(client: TestClient,
                                                      store: ConversationStore,
                                                      bad: str) -> None:
    with pytest.raises(ValueError, match="conversation_id must be"):
        check_conversation_id(bad)
    with pytest.raises(ValueError, match="conversation_id must be"):
        store.create(bad)
    r = client.post("/chat", json={"message": HK, "conversation_id": bad})
    assert r.status_code == 422 and "conversation_id must be" in r.json()["detail"]
    assert store.ids() == []


def test_an_empty_conversation_id_starts_a_new_conversation(client: TestClient,
                                                             store: ConversationStore) -> None:
    cid = client.post("/chat", json={"message": HK, "conversation_id": ""}).json()[
        "conversation_id"]
    assert len(cid) == 32 and store.ids() == [cid]


def test_history_refuses_an_id_with_a_trailing_newline(client: TestClient,
                                                      store: ConversationStore) -> None:
    store.create("abc")
    r = client.get("/chat/history/abc%0A")
    assert r.status_code == 422 and "conversation_id must be" in r.json()["detail"]


def test_openapi_documents_the_error_bodies_the_service_sends(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    history = paths["/chat/history/{conversation_id}"]["get"]["responses"]
    assert {"200", "404", "422"} <= set(history)
    for route in ("/v1/ask", "/chat", "/chat/stream"):
        responses = paths[route]["post"]["responses"]
        assert {"200", "400", "413", "422", "500"} <= set(responses)
        assert responses["422"]["content"]["application/json"]["schema"] == \
            {"$ref": "#/components/schemas/ErrorResponse"}
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ErrorResponse"]
    assert schema["properties"]["detail"]["type"] == "string"
    bad = client.post("/v1/ask", json={})
    assert isinstance(bad.json()["detail"], str)
    not_utf8 = client.post("/v1/ask", content=b'{"question": "\xc3\x28"}', headers={
        "content-type": "application/json"})
    assert not_utf8.status_code == 400 and isinstance(not_utf8.json()["detail"], str)


def test_sqlite_file_is_sound_after_the_attacks(client: TestClient,
                                                store: ConversationStore) -> None:
    client.post("/chat", json={"message": HK, "conversation_id": "ok-1"})
    client.post("/chat", content='{"message": "\\ud800", "conversation_id": "ok-1"}',
                headers={"content-type": "application/json"})
    client.post("/chat", json={"message": HK, "conversation_id": "ok-1\n"})
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT conversation_id, COUNT(*) FROM message GROUP BY 1"
                        ).fetchall() == [("ok-1", 2)]
    conn.close()


@pytest.mark.parametrize("kwargs, message", [
    ({"max_body_bytes": 0}, "ServiceLimits.max_body_bytes must be a positive integer, got 0"),
    ({"history_page_size": 2000}, "history_page_size (2000) must not exceed "
                                  "max_history_page (1000)"),
])
def test_service_limits_refuse_nonsense(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ServiceLimits(**kwargs)


@pytest.mark.parametrize("route, field", [("/v1/ask", "question"), ("/chat", "message")])
@pytest.mark.parametrize("when", [0, 1.5, "2026-03-31T00:00:00", "31/03/2026"])
def test_reference_date_is_an_iso_date_only(client: TestClient, store: ConversationStore,
                                            route: str, field: str, when: Any) -> None:
    r = client.post(route, json={field: HK, "reference_date": when})
    assert r.status_code == 422, r.text  # 0 used to be read as 1970-01-01
    assert r.json()["detail"].startswith("reference_date: Input should be a valid date")
    assert store.ids() == []
    ok = client.post(route, json={field: HK, "reference_date": "2026-03-31"})
    assert ok.status_code == 200
