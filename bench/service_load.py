"""Bounded load check of the HTTP service: mixed requests from concurrent clients.

    .venv/bin/python bench/service_load.py [--requests 2000] [--clients 20]

Starts ``ragspine-nb serve`` on the demo workspace in a separate process (127.0.0.1, a
free port), then 20 asyncio clients (httpx) send 2,000 requests in a fixed mix:
structured / narrative / composite / refused ``/v1/ask``, ``/chat`` turns that continue
their conversation, ``/chat/stream`` read to the ``done`` event, and history reads.
An error is any non-2xx status, a transport error, a stream without ``done``, or an
answer without citations where one is due. The same clients then hit ``/healthz``
alone: the framework's own floor on this machine, printed beside our figures.
Writes ``bench/results/service_load.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from ragspine_nb.cli.commands import build_demo

MIX: list[tuple[str, dict[str, Any]]] = [
    ("ask_structured", {"question": "What was ACME Hong Kong's revenue in FY2025?"}),
    ("ask_structured_zh", {"question": "集团2025年上半年营收多少？"}),
    ("ask_narrative", {"question": "What happened to bancassurance sales in Mainland China?"}),
    ("ask_composite", {"question": "Why did Mainland China revenue fall in FY2025?"}),
    ("ask_refusal", {"question": "竞安2025年的营收是多少？"}),
    ("chat", {"message": "Mainland China operating profit FY2025"}),
    ("stream", {"message": "Why did Hong Kong agency sales change?"}),
    ("history", {}),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _one(http: httpx.AsyncClient, kind: str, body: dict[str, Any],
               conversations: list[str]) -> tuple[str, float, str | None]:
    t0 = time.perf_counter()
    try:
        if kind.startswith("ask"):
            r = await http.post("/v1/ask", json=body)
            data = r.json()
            if r.status_code != 200:
                return kind, 0.0, f"status {r.status_code}"
            if kind != "ask_refusal" and not data["citations"]:
                return kind, 0.0, "no citations"
        elif kind == "chat":
            payload = dict(body)
            if conversations:
                payload["conversation_id"] = conversations[-1]
            r = await http.post("/chat", json=payload)
            if r.status_code != 200:
                return kind, 0.0, f"status {r.status_code}"
            conversations.append(r.json()["conversation_id"])
        elif kind == "stream":
            done = False
            async with http.stream("POST", "/chat/stream", json=body) as r:
                if r.status_code != 200:
                    return kind, 0.0, f"status {r.status_code}"
                async for line in r.aiter_lines():
                    if line.startswith("data: ") and json.loads(line[6:])["type"] == "done":
                        done = True
            if not done:
                return kind, 0.0, "stream without done"
        elif kind == "history":
            if not conversations:
                r = await http.get("/healthz")
            else:
                r = await http.get(f"/chat/history/{conversations[-1]}")
            if r.status_code != 200:
                return kind, 0.0, f"status {r.status_code}"
        else:  # healthz
            r = await http.get("/healthz")
            if r.status_code != 200:
                return kind, 0.0, f"status {r.status_code}"
    except httpx.HTTPError as exc:
        return kind, 0.0, f"{type(exc).__name__}"
    return kind, (time.perf_counter() - t0) * 1e3, None


async def _run(base: str, n: int, clients: int, kinds: list[tuple[str, dict[str, Any]]]
               ) -> dict[str, Any]:
    queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
    for i in range(n):
        queue.put_nowait(kinds[i % len(kinds)])
    results: list[tuple[str, float, str | None]] = []

    async def worker() -> None:
        conversations: list[str] = []
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            while not queue.empty():
                kind, body = queue.get_nowait()
                results.append(await _one(http, kind, body, conversations))

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    wall = time.perf_counter() - t0
    ok = [ms for _, ms, err in results if err is None]
    errors = [f"{k}: {err}" for k, _, err in results if err is not None]
    per_kind = {}
    for kind in sorted({k for k, _, _ in results}):
        ms = sorted(m for k, m, e in results if k == kind and e is None)
        per_kind[kind] = {"n": len(ms), "p50_ms": round(statistics.median(ms), 2) if ms else None}
    ok.sort()
    return {"requests": len(results), "clients": clients, "wall_s": round(wall, 3),
            "throughput_rps": round(len(results) / wall, 1),
            "p50_ms": round(ok[len(ok) // 2], 2) if ok else None,
            "p99_ms": round(ok[min(len(ok) - 1, int(len(ok) * 0.99))], 2) if ok else None,
            "errors": len(errors), "error_samples": errors[:10], "per_kind": per_kind}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=20)
    args = ap.parse_args()
    ws = Path(tempfile.mkdtemp()) / "ws"
    build_demo(ws)
    port = _free_port()
    exe = Path(sys.executable).with_name("ragspine-nb")
    proc = subprocess.Popen([str(exe), "serve", "--workspace", str(ws), "--port", str(port),
                             "--log-level", "warning"], env=dict(os.environ))
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        mixed = asyncio.run(_run(base, args.requests, args.clients, MIX))
        floor = asyncio.run(_run(base, args.requests, args.clients, [("healthz", {})]))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    out = {"machine": f"{os.cpu_count()} cores", "mixed": mixed, "healthz_floor": floor,
           "p50_ratio_vs_healthz": round(mixed["p50_ms"] / floor["p50_ms"], 2)
           if mixed["p50_ms"] and floor["p50_ms"] else None}
    print(json.dumps(out, indent=1, ensure_ascii=False))
    Path(__file__).with_name("results").mkdir(exist_ok=True)
    Path(__file__).with_name("results").joinpath("service_load.json").write_text(
        json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
