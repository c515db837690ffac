"""Issue 14 item 12: the service under attack (body size, lone surrogates, ids, long chats).

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
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
import uvicorn  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ragspine_nb import Agent, DomainProfile, FactStore, NarrativeIndex  # noqa: E402
from ragspine_nb.agent.conversation import Conversation  # noqa: E402
from ragspine_nb.service import create_app  # noqa: E402
from ragspine_nb.service.models import ServiceLimits  # noqa: E402
from ragspine_nb.stores.conversations import (  # noqa: E402
    ConversationStore,
    check_conversation_id,
)

HK = "What was ACME Hong Kong's revenue in FY2025?"
MB = 1 << 20


def _agent(ws: Path) -> Agent:
    profile = DomainProfile.from_file(ws / "profile.toml")
    return Agent(FactStore(ws / "facts.db", create=False),
                 NarrativeIndex(ws / "chunks.db", profile=profile))


@pytest.fixture()
def store(tmp_path: Path) -> ConversationStore:
    return ConversationStore(tmp_path / "conv.db")


@pytest.fixture()
def client(demo_ws: Path, store: ConversationStore) -> TestClient:
    return TestClient(create_app(_agent(demo_ws), store))


def _fill(store: ConversationStore, cid: str, n: int) -> None:
    """``n`` alternating messages written in one transaction (fast, like a long chat)."""
    store.create(cid)
    with store.db.transaction() as conn:
        conn.executemany("INSERT INTO message VALUES (?, ?, ?, ?, '[]', '{}', ?)",
                         [(cid, s, "user" if s % 2 else "assistant", f"m{s}", "2026")
                          for s in range(1, n + 1)])


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
    asyncio.run(asyncio.wait_for(app(scope, receive, send), timeout=30))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), pulled


def test_declared_body_over_the_limit_is_413_before_any_of_it_is_read(demo_ws: Path) -> None:
    app = create_app(_agent(demo_ws))
    status, body, pulled = _drive(app, [(b"content-length", b"314572800")], [b"{}"] * 300)
    assert status == 413 and pulled == 0
    assert body == {"detail": "request body is too large: 314,572,800 bytes declared, the "
                              "limit is 1,048,576 bytes"}


def test_chunked_body_is_cut_off_at_the_limit_without_reading_the_rest(demo_ws: Path) -> None:
    app = create_app(_agent(demo_ws))
    piece = b"x" * (64 * 1024)  # 300 pieces = 19.7 MB, no Content-Length
    status, body, pulled = _drive(app, [(b"transfer-encoding", b"chunked")],
                                  [b'{"question": "'] + [piece] * 300)
    assert status == 413 and pulled == 1 + 16  # 14 bytes + 16 x 64 KiB is over 1 MiB
    assert body == {"detail": "request body is too large: more than 1,048,576 bytes"}


def test_body_limit_is_configurable_and_bodies_under_it_are_answered(demo_ws: Path) -> None:
    c = TestClient(create_app(_agent(demo_ws), limits=ServiceLimits(max_body_bytes=200)))
    ok = c.post("/v1/ask", json={"question": HK})
    assert ok.status_code == 200 and "1,405 USD_M" in ok.json()["answer"]
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
    app = create_app(_agent(demo_ws), ConversationStore(tmp_path / "conv.db"))
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


def test_history_refuses_an_id_with_a_trailing_newline(client: TestClient,
                                                      store: ConversationStore) -> None:
    store.create("abc")
    r = client.get("/chat/history/abc%0A")
    assert r.status_code == 422 and "conversation_id must be" in r.json()["detail"]


# ------------------------------------------------------------------------ history paging
def test_history_pages_in_sql_with_a_cursor_and_a_total(client: TestClient,
                                                       store: ConversationStore) -> None:
    _fill(store, "long", 250)
    first = client.get("/chat/history/long").json()
    assert (len(first["messages"]), first["total"], first["next_after"], first["limit"]) == \
        (100, 250, 100, 100)
    seqs = [m["seq"] for m in first["messages"]]
    after = first["next_after"]
    while after is not None:
        page = client.get(f"/chat/history/long?after={after}&limit=80").json()
        seqs += [m["seq"] for m in page["messages"]]
        after = page["next_after"]
    assert seqs == list(range(1, 251))
    last = client.get("/chat/history/long?after=200&limit=50").json()
    assert [m["seq"] for m in last["messages"]][-1] == 250 and last["next_after"] is None
    assert client.get("/chat/history/long?after=250").json()["messages"] == []
    too_big = client.get("/chat/history/long?limit=1001")
    assert too_big.status_code == 422
    assert too_big.json()["detail"] == "limit: Input should be less than or equal to 1000"
    assert client.get("/chat/history/long?limit=0").status_code == 422
    assert client.get("/chat/history/long?after=-1").status_code == 422
    assert client.get("/chat/history/nope").status_code == 404


def test_history_page_size_is_configurable(demo_ws: Path, store: ConversationStore) -> None:
    _fill(store, "long", 30)
    c = TestClient(create_app(_agent(demo_ws), store, limits=ServiceLimits(
        history_page_size=10, max_history_page=20)))
    page = c.get("/chat/history/long").json()
    assert (len(page["messages"]), page["next_after"], page["total"]) == (10, 10, 30)
    assert c.get("/chat/history/long?limit=21").status_code == 422


def test_history_reads_do_not_wait_for_an_answer_in_progress(demo_ws: Path,
                                                            store: ConversationStore) -> None:
    entered, release = threading.Event(), threading.Event()

    class Slow(Agent):
        def ask(self, *args: Any, **kwargs: Any) -> Any:
            entered.set()
            release.wait(30)
            return super().ask(*args, **kwargs)

    base = _agent(demo_ws)
    c = TestClient(create_app(Slow(base.store, base.index, profile=base.profile), store))
    _fill(store, "long", 10)
    asking = threading.Thread(target=lambda: c.post("/v1/ask", json={"question": HK}))
    asking.start()
    try:
        assert entered.wait(10)
        got: list[int] = []
        reader = threading.Thread(target=lambda: got.append(
            len(c.get("/chat/history/long").json()["messages"])))
        reader.start()
        reader.join(timeout=10)
        assert got == [10], "the history read waited for the agent"
    finally:
        release.set()
        asking.join(timeout=30)


def test_store_pages_while_a_writer_holds_its_transaction(store: ConversationStore) -> None:
    _fill(store, "long", 5)
    holding, done = threading.Event(), threading.Event()

    def writer() -> None:
        with store.db.transaction() as conn:
            conn.execute("INSERT INTO message VALUES ('long', 6, 'user', 'm6', '[]', '{}', '')")
            holding.set()
            done.wait(10)

    t = threading.Thread(target=writer)
    t.start()
    assert holding.wait(10)
    got: list[Any] = []
    reader = threading.Thread(target=lambda: got.append(store.page("long")))
    reader.start()
    reader.join(timeout=5)
    done.set()
    t.join()
    assert got and [m.seq for m in got[0].messages] == [1, 2, 3, 4, 5]  # a WAL snapshot
    assert [m.seq for m in store.page("long", after=4).messages] == [5, 6]


# ------------------------------------------------------------------------ last-5 context
def test_last_messages_are_read_in_sql_not_by_loading_the_conversation(
        store: ConversationStore) -> None:
    _fill(store, "long", 20_000)
    ticks = [0]

    def tick() -> int:
        ticks[0] += 1
        return 0

    store.db.conn.set_progress_handler(tick, 1000)  # one tick per 1,000 VM steps
    try:
        last = store.messages("long", last=5)
    finally:
        store.db.conn.set_progress_handler(None, 0)
    assert [m.seq for m in last] == [19996, 19997, 19998, 19999, 20000]
    assert ticks[0] < 5, f"{ticks[0]} thousand steps: the whole conversation was read"


def test_a_turn_in_a_long_conversation_sees_its_last_five(demo_ws: Path,
                                                         store: ConversationStore) -> None:
    seen: list[list[tuple[str, str]]] = []

    class Spy(Agent):
        def ask(self, question: str, reference_date: Any = None, history: Any = None) -> Any:
            seen.append(list(history or []))
            return super().ask(question, reference_date, history)

    base = _agent(demo_ws)
    _fill(store, "long", 1000)
    Conversation(Spy(base.store, base.index, profile=base.profile), store, "long").ask(HK)
    assert seen == [[("assistant", "m996"), ("user", "m997"), ("assistant", "m998"),
                     ("user", "m999"), ("assistant", "m1000")]]


# ------------------------------------------------------------------------ what held
def test_concurrent_turns_on_one_id_lose_nothing(client: TestClient,
                                                 store: ConversationStore) -> None:
    store.create("busy")
    statuses: list[int] = []

    def turn(i: int) -> None:
        statuses.append(client.post("/chat", json={"message": f"{HK} #{i}",
                                                   "conversation_id": "busy"}).status_code)

    threads = [threading.Thread(target=turn, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * 40
    msgs = store.messages("busy")
    assert [m.seq for m in msgs] == list(range(1, 81))
    assert [m.role for m in msgs] == ["user", "assistant"] * 40
    assert sorted(int(m.content.rsplit("#", 1)[1]) for m in msgs if m.role == "user") == \
        list(range(40))


def test_openapi_documents_the_error_bodies_the_service_sends(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    history = paths["/chat/history/{conversation_id}"]["get"]["responses"]
    assert {"200", "404", "422"} <= set(history)
    for route in ("/v1/ask", "/chat", "/chat/stream"):
        responses = paths[route]["post"]["responses"]
        assert {"200", "413", "422", "500"} <= set(responses)
        assert responses["422"]["content"]["application/json"]["schema"] == \
            {"$ref": "#/components/schemas/ErrorResponse"}
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ErrorResponse"]
    assert schema["properties"]["detail"]["type"] == "string"
    bad = client.post("/v1/ask", json={})
    assert isinstance(bad.json()["detail"], str)


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
