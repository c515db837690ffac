"""Long conversations and large bodies against a real ``ragspine-nb serve`` process.

    .venv/bin/python bench/service_history.py [--messages 200000] [--body-mb 300]

Builds the demo workspace in a temporary folder and writes one conversation of
``--messages`` messages (about 290 bytes each, as in the review) straight into its
``conversations.db``; then starts ``ragspine-nb serve`` on 127.0.0.1 in a separate
process and measures, with real HTTP clients in threads:

* ``/v1/ask`` alone, and the same ask sent 0.1 s after 3 concurrent
  ``GET /chat/history/<big>`` reads (the ask's latency, each read's latency and size),
  once with the default page and once with ``?limit=1000`` (the largest page);
* the whole conversation walked page by page (``?after=`` cursor, 1,000 a page) while
  ``/v1/ask`` is sent every 0.1 s: the walk's time and the slowest ask;
* a ``/chat`` turn in the big conversation and in a fresh one;
* the server's peak RSS (sampled from ``/proc``) while a ``--body-mb`` body is sent to
  ``/v1/ask`` with a ``Content-Length`` and again chunked (no length): status and time.

Prints a table (and the raw figures as JSON with ``--json PATH``). Every file it writes
lives under a temporary folder, removed at the end. To measure an older version, run
it from outside the checkout with ``PYTHONPATH`` pointing at that version's source,
e.g. ``git archive <commit> ragspine_nb data | tar -x -C /tmp/old`` then
``cd /tmp && PYTHONPATH=/tmp/old /path/to/.venv/bin/python /path/to/bench/service_history.py``
(the server process inherits it).
"""

from __future__ import annotations

import argparse
import json
import os
import select
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from ragspine_nb.cli.commands import build_demo
from ragspine_nb.stores.conversations import ConversationStore

BIG = "big-conversation"
ASK = {"question": "What was ACME Hong Kong's revenue in FY2025?"}
_TEXT = ("Hong Kong revenue rose on agency and bancassurance sales; the deck states "
         "1,405 USD_M for FY2025 against 1,310 USD_M a year earlier, with margins stable "
         "and new business value up on the year. ")
_SOURCES = json.dumps([{"doc": "ACME_FY2025_Results.pptx",
                        "locator": "slide=3,table=1,row=REVENUE,col=FY2025"}])


def fill_conversation(db: Path, cid: str, n: int) -> None:
    """Write ``n`` alternating user/assistant messages into one conversation."""
    ConversationStore(db).create(cid)
    conn = sqlite3.connect(db)
    rows = ((cid, seq, "user" if seq % 2 else "assistant", f"{seq}: {_TEXT}",
             "[]" if seq % 2 else _SOURCES, '{"route": "structured"}',
             "2026-01-01T00:00:00.000+00:00") for seq in range(1, n + 1))
    with conn:
        conn.executemany("INSERT INTO message VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    conn.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(ws: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``ragspine-nb serve`` on a free loopback port; returns the process and base URL."""
    port = _free_port()
    exe = Path(sys.executable).with_name("ragspine-nb")
    proc = subprocess.Popen([str(exe), "serve", "--workspace", str(ws), "--port", str(port),
                             "--log-level", "warning"], env=dict(os.environ))
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("the server did not start")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def timed(fn: Callable[[], httpx.Response]) -> tuple[float, httpx.Response]:
    """Seconds one request took, and its response."""
    t0 = time.perf_counter()
    r = fn()
    return time.perf_counter() - t0, r


def ask_behind_history_reads(base: str, query: str = "", readers: int = 3
                             ) -> dict[str, Any]:
    """``readers`` concurrent history reads, then one ask 0.1 s later: all latencies."""
    reads: list[tuple[float, int, int]] = []

    def read() -> None:
        with httpx.Client(base_url=base, timeout=600) as http:
            s, r = timed(lambda: http.get(f"/chat/history/{BIG}{query}"))
            reads.append((s, len(r.content), len(r.json().get("messages", []))))

    threads = [threading.Thread(target=read) for _ in range(readers)]
    for t in threads:
        t.start()
    time.sleep(0.1)
    with httpx.Client(base_url=base, timeout=600) as http:
        ask_s, r = timed(lambda: http.post("/v1/ask", json=ASK))
    for t in threads:
        t.join()
    return {"ask_s": ask_s, "ask_status": r.status_code,
            "read_s": [round(s, 3) for s, _, _ in reads],
            "read_mb": [round(b / 1e6, 2) for _, b, _ in reads],
            "read_messages": [m for _, _, m in reads]}


def walk_with_asks(base: str) -> dict[str, Any]:
    """Read every page of the big conversation while asks run every 0.1 s."""
    asks: list[float] = []
    walking = threading.Event()
    walking.set()

    def ask_loop() -> None:
        with httpx.Client(base_url=base, timeout=600) as http:
            while walking.is_set():
                asks.append(timed(lambda: http.post("/v1/ask", json=ASK))[0])
                time.sleep(0.1)

    asker = threading.Thread(target=ask_loop)
    asker.start()
    seen, pages, after = 0, 0, 0
    t0 = time.perf_counter()
    with httpx.Client(base_url=base, timeout=600) as http:
        while after is not None:
            body = http.get(f"/chat/history/{BIG}?limit=1000&after={after}").json()
            seen, pages = seen + len(body["messages"]), pages + 1
            after = body.get("next_after")  # absent before paging: one read of everything
    walk_s = time.perf_counter() - t0
    walking.clear()
    asker.join()
    return {"walk_s": walk_s, "messages": seen, "pages": pages, "asks": len(asks),
            "slowest_ask_s": max(asks)}


def chat_turns(base: str, turns: int = 3) -> dict[str, float]:
    """Median seconds of a ``/chat`` turn in the big conversation and in a fresh one."""
    out = {}
    with httpx.Client(base_url=base, timeout=600) as http:
        for name, cid in (("big", BIG), ("fresh", "fresh-conversation")):
            body = {"message": ASK["question"], "conversation_id": cid}
            times = []
            for _ in range(turns):
                t0 = time.perf_counter()
                http.post("/chat", json=body).raise_for_status()
                times.append(time.perf_counter() - t0)
            out[name] = statistics.median(times)
    return out


def _body(mb: int) -> Iterator[bytes]:
    yield b'{"question": "'
    chunk = b"x" * (1 << 20)
    for _ in range(mb):
        yield chunk
    yield b'"}'


def send_large_body(base: str, mb: int, chunked: bool) -> tuple[str, float]:
    """POST a ``mb`` MB JSON body over a raw socket; the status line (or how it ended)."""
    host, port = base.removeprefix("http://").split(":")
    size = mb * (1 << 20) + len(b'{"question": "') + len(b'"}')
    head = (f"POST /v1/ask HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            + ("Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {size}\r\n")
            + "Connection: close\r\n\r\n")
    t0 = time.perf_counter()
    with socket.create_connection((host, int(port)), timeout=600) as sock:
        try:
            sock.sendall(head.encode())
            for piece in _body(mb):
                sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
                             if chunked else piece)
                if select.select([sock], [], [], 0)[0]:
                    break  # the server answered before the body ended
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except OSError as exc:
            ended = type(exc).__name__
        else:
            ended = ""
        try:
            status = sock.recv(65536).split(b"\r\n", 1)[0].decode() or ended or "closed"
        except OSError as exc:
            status = ended or type(exc).__name__
    return status, time.perf_counter() - t0


def body_memory(pid: int, base: str, mb: int, chunked: bool) -> dict[str, Any]:
    """Server RSS before and at peak while one large body is sent."""
    before, peak, done = rss_mb(pid), [0.0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    status, secs = send_large_body(base, mb, chunked)
    time.sleep(0.3)
    done.set()
    sampler.join()
    return {"status": status, "s": secs, "rss_before_mb": before, "rss_peak_mb": peak[0]}


def run(messages: int, body_mb: int) -> dict[str, Any]:
    """Every measurement on one fresh workspace and server (removed afterwards)."""
    with tempfile.TemporaryDirectory(prefix="svc-history-") as tmp:
        return measure(Path(tmp) / "ws", messages, body_mb)


def measure(ws: Path, messages: int, body_mb: int) -> dict[str, Any]:
    """Build the workspace at ``ws``, start the server on it and take every figure."""
    build_demo(ws)
    t0 = time.perf_counter()
    fill_conversation(ws / "conversations.db", BIG, messages)
    build_s = time.perf_counter() - t0
    proc, base = start_server(ws)
    try:
        with httpx.Client(base_url=base, timeout=600) as http:
            http.post("/v1/ask", json=ASK)  # warm up
            alone = statistics.median(timed(lambda: http.post("/v1/ask", json=ASK))[0]
                                      for _ in range(5))
        blocked = ask_behind_history_reads(base)
        blocked_max = ask_behind_history_reads(base, "?limit=1000")
        walk = walk_with_asks(base)
        turns = chat_turns(base)
        sized = body_memory(proc.pid, base, body_mb, chunked=False)
        chunked = body_memory(proc.pid, base, body_mb, chunked=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return {"messages": messages, "build_s": build_s, "ask_alone_s": alone,
            "behind_history": blocked, "behind_history_max_page": blocked_max,
            "walk": walk, "turn_s": turns, "body_mb": body_mb,
            "body_content_length": sized, "body_chunked": chunked}


def table(r: dict[str, Any]) -> str:
    """The figures as a plain-text table."""
    t, w = r["turn_s"], r["walk"]
    rows = [
        ("conversation size", f"{r['messages']:,} messages (written in {r['build_s']:.1f} s)"),
        ("/v1/ask alone (median of 5)", f"{r['ask_alone_s'] * 1e3:.1f} ms"),
    ]
    for key, label in (("behind_history", "default page"),
                       ("behind_history_max_page", "?limit=1000")):
        b = r[key]
        rows += [
            (f"/v1/ask behind 3 history reads ({label})",
             f"{b['ask_s'] * 1e3:.1f} ms (HTTP {b['ask_status']})"),
            ("  each read: seconds", ", ".join(f"{s:.3f}" for s in b["read_s"])),
            ("  each read: MB / messages", ", ".join(
                f"{mb} MB / {n:,}" for mb, n in zip(b["read_mb"], b["read_messages"],
                                                    strict=True))),
        ]
    rows += [
        ("whole conversation, page by page", f"{w['messages']:,} messages in {w['pages']} "
         f"reads, {w['walk_s']:.2f} s; slowest of {w['asks']} asks meanwhile "
         f"{w['slowest_ask_s'] * 1e3:.1f} ms"),
        ("/chat turn in the big conversation", f"{t['big'] * 1e3:.1f} ms (median of 3)"),
        ("/chat turn in a fresh conversation", f"{t['fresh'] * 1e3:.1f} ms (median of 3)"),
    ]
    for key, label in (("body_content_length", "Content-Length"), ("body_chunked", "chunked")):
        m = r[key]
        rows.append((f"{r['body_mb']} MB body, {label}",
                     f"{m['status']!s} in {m['s']:.2f} s; RSS {m['rss_before_mb']:.0f} -> "
                     f"peak {m['rss_peak_mb']:.0f} MB"))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)} | {v}" for k, v in rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=200_000)
    ap.add_argument("--body-mb", type=int, default=300)
    ap.add_argument("--json", type=Path, default=None, help="also write the raw figures here")
    args = ap.parse_args()
    result = run(args.messages, args.body_mb)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
