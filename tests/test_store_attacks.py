"""Attacks on the PostgreSQL stores (issue 14 items 1 and 3), each reproduced.

* ``execute_read`` as a superuser and as a normal role that owns the tables: several
  statements, writes, server files and programs, nested SQL text, settings and a long
  query — all refused with a named error, the facts afterwards unchanged.
* The embedding cache of a PostgreSQL-backed index lives in the database, never in the
  current directory.

The SQLite side (limits, read-only files, a full disk) is in test_store_sqlite_attacks.py.
"""

from __future__ import annotations

import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_store_contract import fresh_database, pg_server  # noqa: F401 - the server fixture

from ragspine_nb import FactStore, NarrativeIndex
from ragspine_nb.errors import (
    QueryLimitError,
    ReadOnlyQueryError,
    StoreError,
)
from ragspine_nb.stores import ChunkStore
from ragspine_nb.stores.limits import ReadLimits
from tests.conftest import INFINITE
from tests.conftest import STORE_FACTS as FACTS
from tests.conftest import store_fact as _fact


# =============================================================== PostgreSQL (item 1)
def _role_database(server: Any) -> str:
    """A database owned by a fresh non-superuser role; the URL connects as that role."""
    import psycopg

    role, name = f"r_{uuid.uuid4().hex[:10]}", f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server.get_uri(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
        admin.execute(f"CREATE DATABASE {name} OWNER {role} TEMPLATE template0 LOCALE 'C' "
                      "ENCODING 'UTF8'")
    uri = str(server.get_uri(name))
    assert uri.startswith("postgresql://postgres:@"), uri
    return uri.replace("postgresql://postgres:@", f"postgresql://{role}@", 1)


@pytest.fixture(params=["superuser", "owner"])
def pg_url(request: pytest.FixtureRequest, pg_server: Any) -> str:  # noqa: F811
    if request.param == "superuser":
        return fresh_database(pg_server)
    return _role_database(pg_server)


@pytest.fixture
def marker() -> Iterator[Path]:
    """Where a shell command run by the server (as its own user) would leave a file."""
    path = Path(tempfile.gettempdir()) / f"ragspine-pwned-{uuid.uuid4().hex}"
    yield path
    path.unlink(missing_ok=True)


def _snapshot(store: FactStore) -> list[tuple[Any, ...]]:
    return [(f.metric_code, f.period, f.value, f.source_doc_id, f.source_locator)
            for f in store.iter_facts()]


PG_ATTACKS: dict[str, str] = {
    "several statements: COMMIT; DELETE": "SELECT 1; COMMIT; DELETE FROM fact_metric",
    "several statements: COMMIT; UPDATE":
        "SELECT 1; COMMIT; UPDATE fact_metric SET value = 999 WHERE period = '2025'",
    "several statements: CREATE TABLE": "SELECT 1; COMMIT; CREATE TABLE pwned (x int)",
    "several statements: DROP TABLE": "SELECT 1; COMMIT; DROP TABLE fact_metric",
    "several statements after a comment": "SELECT 1 -- x\n; DELETE FROM fact_metric",
    "several statements: COPY TO PROGRAM":
        "SELECT 1; COMMIT; COPY (SELECT 1) TO PROGRAM 'touch {marker}'",
    "UPDATE inside a CTE":
        "WITH d AS (UPDATE fact_metric SET value = 999 RETURNING 1) SELECT * FROM d",
    "DELETE inside a CTE": "WITH d AS (DELETE FROM fact_metric RETURNING 1) SELECT * FROM d",
    "SELECT INTO a new table": "SELECT * INTO pwned FROM fact_metric",
    "EXPLAIN ANALYZE DELETE": "EXPLAIN ANALYZE DELETE FROM fact_metric",
    "SELECT FOR UPDATE": "SELECT * FROM fact_metric FOR UPDATE",
    "pg_read_file": "SELECT pg_read_file('/etc/hostname') AS x",
    "pg_read_file quoted": "SELECT \"pg_read_file\"('/etc/hostname') AS x",
    "pg_read_file qualified": "SELECT pg_catalog . \"pg_read_file\" ('/etc/hostname') AS x",
    "pg_read_file upper case": "SELECT PG_CATALOG.PG_READ_FILE('/etc/hostname') AS x",
    "pg_read_file split by comments": "SELECT pg_read_file/* c */--c\n('/etc/hostname') AS x",
    "pg_read_file after a dollar-quoted quote":
        "SELECT $q$ ' $q$ AS a, pg_read_file('/etc/hostname') AS b",
    "pg_read_file after a backslash string":
        "SELECT '\\', pg_read_file('/etc/hostname') AS b --'",
    "pg_read_file after $$ inside a name": "SELECT 1 AS x$$, pg_read_file('/etc/hostname') AS y$$",
    "pg_read_file after a CR-ended comment":
        "SELECT 1 AS a -- c\r, pg_read_file('/etc/hostname') AS b",
    "pg_read_file by attribute notation":
        "SELECT t.pg_read_file FROM (SELECT '/etc/hostname'::text) AS t",
    "pg_read_binary_file": "SELECT pg_read_binary_file('/etc/hostname') AS x",
    "pg_ls_dir": "SELECT * FROM pg_ls_dir('.') AS f",
    "pg_stat_file": "SELECT pg_stat_file('/etc/hostname') AS x",
    "lo_import": "SELECT lo_import('/etc/hostname') AS x",
    "lo_export": "SELECT lo_export(1, '/tmp/x') AS x",
    "query_to_xml nesting a DELETE":
        "SELECT query_to_xml('DELETE FROM fact_metric RETURNING 1', true, true, '') AS x",
    "query_to_xml nesting pg_read_file":
        "SELECT query_to_xml('SELECT pg_read_file(''/etc/hostname'')', true, true, '') AS x",
    "set_config read-only off":
        "SELECT set_config('default_transaction_read_only', 'off', false) AS x",
    "set_config role": "SELECT set_config('role', 'postgres', false) AS x",
    "pg_sleep": "SELECT pg_sleep(30) AS x",
    "pg_terminate_backend": "SELECT pg_terminate_backend(pg_backend_pid()) AS x",
    "dblink": "SELECT * FROM dblink('dbname=postgres', 'DELETE FROM fact_metric') AS t(a int)",
    "password hashes": "SELECT rolname, rolpassword FROM pg_authid",
    "unicode-escaped name": "SELECT U&\"pg_read_fil\\0065\"('/etc/hostname') AS x",
}


@pytest.mark.parametrize("attack", list(PG_ATTACKS))
def test_pg_execute_read_refuses_every_attack(pg_url: str, marker: Path, attack: str) -> None:
    store = FactStore(pg_url)
    store.upsert(FACTS)
    before = _snapshot(store)
    with pytest.raises(ReadOnlyQueryError):
        store.execute_read(PG_ATTACKS[attack].format(marker=marker))
    assert _snapshot(store) == before  # values and citations unchanged
    assert store._db.fetchall("SELECT to_regclass(?)", ("pwned",))[0][0] is None
    assert not marker.exists()  # no shell command ran
    store.upsert([_fact("NEW_SALES", 311.0)])  # the store's own writes still work
    assert store.query("NEW_SALES", "ACME_HK", "FY", "2025").value == 311.0


def test_pg_several_statements_with_params_are_refused(pg_url: str) -> None:
    store = FactStore(pg_url)
    store.upsert(FACTS)
    with pytest.raises(ReadOnlyQueryError, match="exactly one statement"):
        store.execute_read("SELECT ?; DELETE FROM fact_metric", ["x"])
    assert store.count() == 3


def test_pg_a_long_query_is_cut_by_the_time_limit(pg_url: str) -> None:
    store = FactStore(pg_url)
    store.upsert(FACTS)
    start = time.monotonic()
    with pytest.raises(QueryLimitError, match="1 s"):
        store.execute_read(INFINITE, limits=ReadLimits(timeout_s=1.0))
    assert time.monotonic() - start < 4.0
    assert store.count() == 3 and store.execute_read("SELECT 1 AS x") == [{"x": 1}]


def test_pg_reads_run_on_a_read_only_session_with_a_timeout(pg_url: str) -> None:
    store = FactStore(pg_url)
    store.upsert(FACTS)
    store.execute_read("SELECT 1 AS x")
    reader = store._db._reader.conn
    assert reader is not store._db.conn
    assert reader.execute("SHOW default_transaction_read_only").fetchone()[0] == "on"
    assert reader.execute("SHOW statement_timeout").fetchone()[0] == "5s"


def test_pg_result_size_is_limited(pg_url: str) -> None:
    store = FactStore(pg_url)
    with pytest.raises(QueryLimitError, match="100 rows"):
        store.execute_read("SELECT g FROM generate_series(1, 1000) AS g",
                           limits=ReadLimits(max_rows=100))
    with pytest.raises(QueryLimitError, match="bytes"):  # 2.2 MB in one value
        store.execute_read("SELECT string_agg(md5(g::text), '') AS s "
                           "FROM generate_series(1, 70000) AS g",
                           limits=ReadLimits(max_bytes=1_000_000))
    for sql in ("SELECT repeat('x', 500000000) AS s", "SELECT lpad('x', 500000000) AS s",
                "SELECT format('%500000000s', 'x') AS s"):
        with pytest.raises(ReadOnlyQueryError, match="not allowed"):
            store.execute_read(sql)


def test_pg_normal_reads_still_work(pg_url: str) -> None:
    store = FactStore(pg_url)
    store.upsert(FACTS)
    rows = store.execute_read(
        "SELECT metric_code, value FROM fact_metric WHERE entity = ? AND metric_code "
        "LIKE 'REV%' ORDER BY value", ["ACME_HK"])
    assert rows == [{"metric_code": "REVENUE", "value": 1320.0},
                    {"metric_code": "REVENUE", "value": 1405.0}]
    assert store.execute_read(
        "SELECT count(*) AS n, round(sum(value)::numeric, 1)::text AS s, max(value) AS mx, "
        "upper(lower(entity)) AS e, coalesce(NULL, 'x') AS c, length('abc') AS l, "
        "extract(year FROM date '2025-03-01')::int AS y, "
        "CAST(min(value) AS numeric(10, 2))::text AS lo "
        "FROM fact_metric GROUP BY entity") == [
        {"n": 3, "s": "3035.5", "mx": 1405.0, "e": "ACME_HK", "c": "x", "l": 3, "y": 2025,
         "lo": "310.50"}]
    assert store.execute_read(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 4), "
        "s(m) AS MATERIALIZED (SELECT 10) SELECT sum(n) + max(m) AS total FROM r, s"
    ) == [{"total": 20}]
    assert store.execute_read("SELECT g.n FROM generate_series(1, 3) AS g(n);") == \
        [{"n": 1}, {"n": 2}, {"n": 3}]
    assert store.execute_read(
        "SELECT 'pg_read_file(''/etc/hostname'')' AS s, $$ set_config( $$ AS d /* lo_import( */"
    ) == [{"s": "pg_read_file('/etc/hostname')", "d": " set_config( "}]
    assert [r["r"] for r in store.execute_read(
        "SELECT row_number() OVER (PARTITION BY entity ORDER BY value DESC) AS r "
        "FROM fact_metric ORDER BY r")] == [1, 2, 3]
    assert store.execute_read("EXPLAIN SELECT * FROM fact_metric")


def test_pg_a_role_that_may_not_create_pgvector_gets_a_clear_error(pg_server: Any) -> None:  # noqa: F811
    from ragspine_nb.retrieval.vectors import DeterministicEmbeddingBackend

    index = NarrativeIndex(ChunkStore(_role_database(pg_server)),
                           embedding_backend=DeterministicEmbeddingBackend(16))
    index.add_document("a.md", "bancassurance commissions were capped in 2025")
    with pytest.raises(StoreError, match="CREATE EXTENSION vector") as info:
        index.search("bancassurance", channels=["vector"])
    assert "psycopg" not in type(info.value).__module__
    assert "superuser" in str(info.value)


# ====================================================== embedding cache (item 3)
class CountingBackend:
    """The deterministic embedder, counting every text it is asked to embed."""

    def __init__(self) -> None:
        from ragspine_nb.retrieval.vectors import DeterministicEmbeddingBackend

        self._inner = DeterministicEmbeddingBackend(64)
        self.name = self._inner.name
        self.texts = 0

    def embed_texts(self, texts: list[str]) -> Any:
        self.texts += len(texts)
        return self._inner.embed_texts(texts)


def test_pg_embedding_cache_is_in_the_database_not_the_current_folder(
        pg_server: Any, demo_ws: Path, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    url = fresh_database(pg_server)
    local = ChunkStore(demo_ws / "chunks.db", create=False)
    team = ChunkStore(url)
    for doc in local.doc_ids():
        team.replace_doc_chunks(doc, local.iter_chunks(doc_id=doc))
    backend = CountingBackend()
    first = NarrativeIndex(team, embedding_backend=backend)
    hits = first.search("bancassurance commissions", top_k=5, channels=["vector"]).chunk_ids
    assert backend.texts == team.count() + 1  # every passage and the query, once
    assert list(cwd.iterdir()) == []  # no `postgresql:` folder here
    second = NarrativeIndex(ChunkStore(url), embedding_backend=backend)
    assert second.search("bancassurance commissions", top_k=5,
                         channels=["vector"]).chunk_ids == hits
    assert backend.texts == team.count() + 1  # nothing embedded again
    cached = team.execute_read("SELECT count(*) AS n FROM embedding_cache")[0]["n"]
    assert cached == len({c.text for c in team.iter_chunks()}) + 1
    assert list(cwd.iterdir()) == []
