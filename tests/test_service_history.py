"""Issue 14 item 12: long conversations (history pages in SQL, outside the agent lock).

Real SQLite files and FastAPI's TestClient; the figures are in bench/service_history.py.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from ragspine_nb import Agent  # noqa: E402
from ragspine_nb.agent.conversation import Conversation  # noqa: E402
from ragspine_nb.service import create_app  # noqa: E402
from ragspine_nb.service.models import ServiceLimits  # noqa: E402
from ragspine_nb.stores.conversations import ConversationStore  # noqa: E402

HK = "What was ACME Hong Kong's revenue in FY2025?"


@pytest.fixture()
def store(tmp_path: Path) -> ConversationStore:
    return ConversationStore(tmp_path / "conv.db")


@pytest.fixture()
def client(demo_ws: Path, store: ConversationStore) -> TestClient:
    return TestClient(create_app(Agent.from_workspace(demo_ws), store))


def _fill(store: ConversationStore, cid: str, n: int) -> None:
    """``n`` alternating messages written in one transaction (fast, like a long chat)."""
    store.create(cid)
    with store.db.transaction() as conn:
        conn.executemany("INSERT INTO message VALUES (?, ?, ?, ?, '[]', '{}', ?)",
                         [(cid, s, "user" if s % 2 else "assistant", f"m{s}", "2026")
                          for s in range(1, n + 1)])


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
    huge = client.get("/chat/history/long?after=11990726788481533607936")  # was a 500
    assert huge.status_code == 422 and huge.json()["detail"] == \
        "after: Input should be less than or equal to 9223372036854775807"
    assert client.get(f"/chat/history/long?after={2**63 - 1}").json()["messages"] == []
    assert client.get("/chat/history/nope").status_code == 404


def test_history_page_size_is_configurable(demo_ws: Path, store: ConversationStore) -> None:
    _fill(store, "long", 30)
    c = TestClient(create_app(Agent.from_workspace(demo_ws), store, limits=ServiceLimits(
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

    base = Agent.from_workspace(demo_ws)
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

    base = Agent.from_workspace(demo_ws)
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
