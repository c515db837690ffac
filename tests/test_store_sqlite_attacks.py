"""Attacks on the SQLite stores (issue 14 item 2 and the store side of 6), each reproduced.

* ``execute_read``: a time limit that frees the store lock, result-size limits, an
  allowlist of SQL functions; all handlers restored afterwards.
* A read-only store is opened read-only (reads work, writes are a named error) and a full
  disk is a named error that changes nothing.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import FactStore
from ragspine_nb.errors import (
    DiskFullError,
    QueryLimitError,
    ReadOnlyQueryError,
    ReadOnlyStoreError,
)
from ragspine_nb.stores.limits import ReadLimits
from tests.conftest import INFINITE
from tests.conftest import STORE_FACTS as FACTS
from tests.conftest import store_fact as _fact


def _snapshot(store: FactStore) -> list[tuple[Any, ...]]:
    return [(f.metric_code, f.period, f.value, f.source_doc_id, f.source_locator)
            for f in store.iter_facts()]


# ====================================================== SQLite limits (item 2)
@pytest.fixture
def sqlite_store(tmp_path: Path) -> FactStore:
    store = FactStore(tmp_path / "facts.db")
    store.upsert(FACTS)
    return store


def test_sqlite_a_runaway_query_is_cut_and_frees_the_store(sqlite_store: FactStore) -> None:
    outcome: dict[str, Any] = {}

    def runaway() -> None:
        start = time.monotonic()
        try:
            sqlite_store.execute_read(INFINITE, limits=ReadLimits(timeout_s=1.0))
        except QueryLimitError as exc:
            outcome["error"] = exc
        outcome["seconds"] = time.monotonic() - start

    worker = threading.Thread(target=runaway)
    start = time.monotonic()
    worker.start()
    time.sleep(0.2)  # the runaway query holds the store lock now
    fact = sqlite_store.query("REVENUE", "ACME_HK", "FY", "2025")
    waited = time.monotonic() - start
    worker.join(10)
    assert fact is not None and fact.value == 1405.0
    assert "1 s" in str(outcome["error"]) and outcome["seconds"] < 3.0
    assert waited < 3.0  # the concurrent query finished right after the cut


@pytest.mark.parametrize("sql", [
    "SELECT zeroblob(900000000) AS b",
    "SELECT randomblob(900000000) AS b",
    "SELECT printf('%.*c', 900000000, 'x') AS s",  # 5 s inside one call, then NULL
    "SELECT format('%900000000d', 1) AS s",
])
def test_sqlite_huge_value_builders_are_refused(sqlite_store: FactStore, sql: str) -> None:
    start = time.monotonic()
    with pytest.raises(ReadOnlyQueryError, match="not allowed"):
        sqlite_store.execute_read(sql)
    assert time.monotonic() - start < 1.0


def test_sqlite_huge_values_and_results_are_refused(sqlite_store: FactStore) -> None:
    start = time.monotonic()
    with pytest.raises(QueryLimitError, match="too big"):  # doubling a string
        sqlite_store.execute_read("WITH RECURSIVE r(s, i) AS (SELECT 'x', 0 UNION ALL "
                                  "SELECT s || s, i + 1 FROM r WHERE i < 40) "
                                  "SELECT length(s) AS n FROM r")
    assert time.monotonic() - start < 3.0
    with pytest.raises(QueryLimitError, match="100 rows"):
        sqlite_store.execute_read("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 "
                                  "FROM r WHERE n < 1000) SELECT n FROM r",
                                  limits=ReadLimits(max_rows=100))
    with pytest.raises(QueryLimitError, match="bytes"):
        sqlite_store.execute_read("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 "
                                  "FROM r WHERE n < 100) SELECT ? AS s FROM r", ["x" * 500],
                                  limits=ReadLimits(max_bytes=10_000))


@pytest.mark.parametrize("sql", [
    "SELECT fts3_tokenizer('simple') AS p",
    "SELECT load_extension('/tmp/nothing') AS x",
    "SELECT sqlite_compileoption_get(0) AS x",
])
def test_sqlite_functions_outside_the_allowlist_are_refused(sqlite_store: FactStore,
                                                            sql: str) -> None:
    with pytest.raises(ReadOnlyQueryError, match="allowed functions: abs"):
        sqlite_store.execute_read(sql)
    assert sqlite_store.count() == 3


def test_sqlite_normal_reads_still_work(sqlite_store: FactStore) -> None:
    assert sqlite_store.execute_read(
        "SELECT count(*) AS n, sum(value) AS s, round(avg(value), 2) AS a, max(value) AS mx, "
        "group_concat(DISTINCT metric_code) AS g, upper(lower(entity)) AS e, "
        "substr(source_locator, 1, 7) AS loc, length(entity) AS l, "
        "replace(entity, '_', '-') AS r, CAST(round(min(value), 1) AS TEXT) AS p, "
        "coalesce(NULL, 'x') AS c, ifnull(NULL, 1) AS i, iif(1, 'y', 'n') AS yn, "
        "strftime('%Y', '2025-03-01') AS y, date('2025-03-01', '+1 day') AS d, "
        "sqrt(16) AS q, abs(-2) AS ab, typeof(value) AS t "
        "FROM fact_metric WHERE entity = ? AND metric_code LIKE 'RE%' GROUP BY entity",
        ["ACME_HK"]) == [
        {"n": 2, "s": 2725.0, "a": 1362.5, "mx": 1405.0, "g": "REVENUE", "e": "ACME_HK",
         "loc": "slide=4", "l": 7, "r": "ACME-HK", "p": "1320.0", "c": "x", "i": 1,
         "yn": "y", "y": "2025", "d": "2025-03-02", "q": 4.0, "ab": 2, "t": "real"}]
    assert [r["k"] for r in sqlite_store.execute_read(
        "SELECT row_number() OVER (ORDER BY value DESC) AS k FROM fact_metric")] == [1, 2, 3]
    assert sqlite_store.execute_read(
        "SELECT json_extract('{\"a\": 2}', '$.a') AS j, '{\"a\": 3}' ->> 'a' AS k, "
        "CAST('7' AS INTEGER) AS c, date('now') IS NOT NULL AS now_ok") == [
        {"j": 2, "k": 3, "c": 7, "now_ok": 1}]


@pytest.mark.parametrize("where", ["file", "memory"])
def test_sqlite_limits_and_handlers_are_restored_after_a_failed_read(tmp_path: Path,
                                                                     where: str) -> None:
    import sqlite3

    store = FactStore(tmp_path / "facts.db" if where == "file" else ":memory:")
    store.upsert(FACTS)
    reader = store._db._reader() if where == "file" else store._db.conn
    length = reader.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
    for sql, error in ((INFINITE, QueryLimitError), ("SELECT zeroblob(10) AS z",
                                                     ReadOnlyQueryError)):
        with pytest.raises(error):
            store.execute_read(sql, limits=ReadLimits(timeout_s=0.2))
    assert reader.getlimit(sqlite3.SQLITE_LIMIT_LENGTH) == length
    # no authorizer, deadline or length limit is left behind on the connection
    assert reader.execute("SELECT length(zeroblob(100000000)) AS n").fetchone()[0] == \
        100_000_000
    assert reader.execute(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 300000) "
        "SELECT count(*) FROM r").fetchone()[0] == 300_000
    store.upsert([_fact("NEW_SALES", 311.0)])
    assert store.count() == 3 and store.execute_read("SELECT 1 AS x") == [{"x": 1}]


def test_sqlite_a_cached_write_statement_is_still_refused(sqlite_store: FactStore) -> None:
    sql = "DELETE FROM fact_metric WHERE metric_code = ?"
    with sqlite_store._db.transaction() as tx:  # now in the connection's statement cache
        tx.execute(sql, ("NOTHING",))
    with pytest.raises(ReadOnlyQueryError):
        sqlite_store.execute_read(sql, ["REVENUE"])
    assert sqlite_store.count() == 3


def test_read_limits_are_checked() -> None:
    for bad in (dict(timeout_s=0), dict(max_rows=0), dict(max_bytes=-1),
                dict(timeout_s=float("nan"))):
        with pytest.raises(ValueError, match="must be"):
            ReadLimits(**bad)  # type: ignore[arg-type]


def test_store_read_limits_are_configurable(sqlite_store: FactStore) -> None:
    sqlite_store.read_limits = ReadLimits(max_rows=2)
    with pytest.raises(QueryLimitError, match="2 rows"):
        sqlite_store.execute_read("SELECT * FROM fact_metric")
    assert sqlite_store.read_limits.max_rows == 2


# ============================================= read-only and full disk (item 6)
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Make files and folders really read-only (chmod; as root, the immutable flag)."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in paths}
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    done: list[Path] = []
    try:
        for p in paths:
            run = subprocess.run(["chattr", "+i", str(p)], capture_output=True, text=True,
                                 check=False)
            if run.returncode != 0:
                pytest.skip("running as root, where chmod does not stop writes, and "
                            f"`chattr +i` is not available here: {run.stderr.strip()}")
            done.append(p)
        yield
    finally:
        for p in done:
            subprocess.run(["chattr", "-i", str(p)], check=True)


def _workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    store = FactStore(folder / "facts.db")
    store.upsert(FACTS)
    store.close()  # the last connection checkpoints the WAL away
    return folder / "facts.db"


@pytest.mark.parametrize("locked", ["file and folder", "folder only", "file only"])
def test_a_read_only_store_is_queried_read_only(tmp_path: Path, locked: str) -> None:
    path = _workspace(tmp_path)
    digest = _digest(path)
    targets = {"file and folder": (path, path.parent), "folder only": (path.parent,),
               "file only": (path,)}[locked]
    with read_only(*targets):
        store = FactStore(path, create=False)
        assert store.query("REVENUE", "ACME_HK", "FY", "2025").value == 1405.0
        assert store.execute_read("SELECT count(*) AS n FROM fact_metric") == [{"n": 3}]
        assert store.read_only is True
        with pytest.raises(ReadOnlyStoreError, match="is read-only"):
            store.upsert([_fact("NEW_SALES", 999.0)])
        with pytest.raises(ReadOnlyStoreError, match="nothing was changed"):
            store.delete_by_source_doc("ACME_FY2025_Results.pptx")
        assert store.count() == 3 and store.integrity_check() == "ok"
        store.close()
    assert _digest(path) == digest
    assert FactStore(path, create=False).query("NEW_SALES", "ACME_HK", "FY", "2025").value \
        == 310.5
    assert store.read_only is False  # writable again: chosen anew when it reopens
    store.upsert([_fact("NEW_SALES", 312.0)])
    assert store.query("NEW_SALES", "ACME_HK", "FY", "2025").value == 312.0


def test_a_store_opened_read_only_on_request(tmp_path: Path) -> None:
    from ragspine_nb.stores._sqlite import SQLiteDatabase

    path = _workspace(tmp_path)
    db = SQLiteDatabase(path, schema="", table="fact_metric", create=False, read_only=True)
    assert db.fetchall("SELECT count(*) FROM fact_metric")[0][0] == 3
    assert db.read_only is True
    with pytest.raises(ReadOnlyStoreError, match="read-only"), db.transaction() as tx:
        tx.execute("DELETE FROM fact_metric")
    assert db.fetchall("SELECT count(*) FROM fact_metric")[0][0] == 3
    db.close()


def test_a_new_store_in_a_read_only_folder_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    folder.mkdir()
    with read_only(folder):
        store = FactStore(folder / "facts.db")
        with pytest.raises(ReadOnlyStoreError, match="cannot create"):
            store.count()
    assert list(folder.iterdir()) == []


def test_a_full_disk_is_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    store = FactStore(tmp_path / "facts.db")
    store.upsert(FACTS)
    before = _snapshot(store)
    conn = store._db.conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL
    many = [_fact(f"M{i:05d}", float(i)) for i in range(5000)]
    with pytest.raises(DiskFullError, match="disk full while writing .*facts.db; nothing "
                                            "changed"):
        store.upsert(many)
    assert _snapshot(store) == before and store.integrity_check() == "ok"
    conn.execute("PRAGMA max_page_count = 1073741823")
    assert store.upsert(many[:10]) == 10  # usable again once there is room


def test_a_full_disk_at_open_is_a_clear_error(tmp_path: Path) -> None:
    script = (
        "import resource, signal, sys\n"
        "from ragspine_nb import FactStore\n"
        "from ragspine_nb.errors import StoreError\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))\n"
        "try:\n"
        f"    FactStore({str(tmp_path / 'facts.db')!r}).count()\n"
        "except StoreError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=False, timeout=120)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert run.stdout.startswith(("DiskFullError", "StoreError")), run.stdout
    assert "nothing changed" in run.stdout or "nothing was" in run.stdout
