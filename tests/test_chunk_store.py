from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ragspine_nb import ChunkStore, LineageError, ReadOnlyQueryError
from ragspine_nb.errors import InvalidRecordError
from ragspine_nb.stores.chunks import CHUNK_COLUMNS
from tests.conftest import ROOT, make_chunk

INJECTION = "x' OR '1'='1'; DROP TABLE narrative_chunk; --"


def _doc(doc: str, n: int, tag: str = "", **meta: str) -> list:  # type: ignore[type-arg]
    return [make_chunk(doc, i, text=f"{tag} paragraph {i} of {doc}", **meta) for i in range(n)]


def test_replace_creates_versions_and_keeps_history() -> None:
    store = ChunkStore()
    assert store.replace_doc_chunks("a.md", _doc("a.md", 3, "v1"), valid_as_of="2024-12-31") == 3
    assert store.replace_doc_chunks("a.md", _doc("a.md", 2, "v2")) == 2
    active = store.iter_chunks(doc_id="a.md")
    assert [(c.version, c.active, c.seq) for c in active] == [(2, True, 0), (2, True, 1)]
    assert all(c.text.startswith("v2") for c in active)
    history = store.iter_chunks(doc_id="a.md", include_inactive=True)
    assert [(c.version, c.active) for c in history] == [(1, False)] * 3 + [(2, True)] * 2
    assert history[0].valid_as_of == "2024-12-31" and history[0].ingested_at
    assert store.doc_versions("a.md") == [(1, 3, False), (2, 2, True)]
    assert store.count() == 2 and store.count(include_inactive=True) == 5


def test_has_chunks_asks_active_rows_only_and_names_bad_keys() -> None:
    store = ChunkStore()
    store.replace_doc_chunks("a.md", _doc("a.md", 2, entity="ACME_HK"))
    assert store.has_chunks(entity="ACME_HK") and store.has_chunks(doc_id="a.md")
    assert not store.has_chunks(entity="ACME_CN") and not store.has_chunks(entity=INJECTION)
    store.replace_doc_chunks("a.md", [])  # withdrawn: its old rows no longer count
    assert not store.has_chunks(entity="ACME_HK")
    with pytest.raises(ValueError, match="unknown chunk filter.*'colour'.*Valid"):
        store.has_chunks(colour="red")


def test_an_empty_list_withdraws_the_document() -> None:
    store = ChunkStore()
    store.replace_doc_chunks("a.md", _doc("a.md", 2))
    store.replace_doc_chunks("b.md", _doc("b.md", 1))
    assert store.replace_doc_chunks("a.md", []) == 0
    assert store.iter_chunks(doc_id="a.md") == []
    assert store.doc_ids() == ["b.md"]
    assert store.doc_ids(include_inactive=True) == ["a.md", "b.md"]
    assert store.replace_doc_chunks("a.md", _doc("a.md", 1)) == 1
    assert [c.version for c in store.iter_chunks(doc_id="a.md")] == [2]


def test_filters_are_and_combined() -> None:
    store = ChunkStore()
    store.replace_doc_chunks("hk.md", _doc("hk.md", 2, entity="ACME_HK", period="2024",
                                           language="en", topic="results"))
    store.replace_doc_chunks("cn.md", _doc("cn.md", 2, entity="ACME_CN", period="2024",
                                           language="zh", topic="results"))
    store.replace_doc_chunks("cn23.md", _doc("cn23.md", 1, entity="ACME_CN", period="2023",
                                             language="zh", geography="CN"))
    assert {c.doc_id for c in store.iter_chunks(period="2024")} == {"hk.md", "cn.md"}
    assert {c.doc_id for c in store.iter_chunks(entity="ACME_CN")} == {"cn.md", "cn23.md"}
    assert {c.doc_id for c in store.iter_chunks(entity="ACME_CN", period="2024")} == {"cn.md"}
    assert store.iter_chunks(entity="ACME_HK", language="zh") == []
    assert {c.doc_id for c in store.iter_chunks(geography="CN")} == {"cn23.md"}
    assert {c.doc_id for c in store.iter_chunks(topic="results", language="en")} == {"hk.md"}


@pytest.mark.parametrize("bad, error", [
    ({"source_locator": "x"}, None),  # valid control
    ("other_doc", InvalidRecordError),
    ("dup_id", InvalidRecordError),
    ("forged_locator", LineageError),
    ("forged_doc", LineageError),
])
def test_invalid_chunks_reject_the_call_and_write_nothing(bad: object, error: type | None) -> None:
    store = ChunkStore()
    store.replace_doc_chunks("a.md", _doc("a.md", 2, "v1"))
    chunks = _doc("a.md", 2, "v2")
    if bad == "other_doc":
        chunks.append(make_chunk("b.md", 5))
    elif bad == "dup_id":
        chunks.append(make_chunk("a.md", 9, chunk_id=chunks[0].chunk_id))
    elif bad in ("forged_locator", "forged_doc"):
        object.__setattr__(chunks[1], "source_locator" if bad == "forged_locator" else "doc_id", "")
    if error is None:
        assert store.replace_doc_chunks("a.md", chunks) == 2
        return
    with pytest.raises(error):
        store.replace_doc_chunks("a.md", chunks)
    assert [c.text[:2] for c in store.iter_chunks(doc_id="a.md")] == ["v1", "v1"]
    assert store.doc_versions("a.md") == [(1, 2, True)]


def test_sql_injection_through_every_string_parameter_changes_nothing() -> None:
    store = ChunkStore()
    store.replace_doc_chunks("a.md", _doc("a.md", 2))
    before = store.to_frame(include_inactive=True).to_dict()
    for key in ("doc_id", "topic", "entity", "geography", "period", "language", "sensitivity"):
        assert store.iter_chunks(**{key: INJECTION}) == []
    assert store.doc_versions(INJECTION) == []
    assert store.execute_read("SELECT COUNT(*) AS n FROM narrative_chunk WHERE doc_id = ?",
                              [INJECTION]) == [{"n": 0}]
    with pytest.raises(ReadOnlyQueryError):
        store.execute_read("DELETE FROM narrative_chunk")
    assert store.to_frame(include_inactive=True).to_dict() == before
    store.replace_doc_chunks(INJECTION, [make_chunk(INJECTION, 0, text=INJECTION,
                                                    source_locator=INJECTION)])
    assert store.iter_chunks(doc_id=INJECTION)[0].text == INJECTION
    assert store.count() == 3


def test_to_frame_columns_and_persistence(tmp_path: Path) -> None:
    path = tmp_path / "chunks.sqlite"
    with ChunkStore(path) as store:
        store.replace_doc_chunks("a.md", _doc("a.md", 2))
    with ChunkStore(path) as store:
        frame = store.to_frame()
        assert list(frame.columns) == list(CHUNK_COLUMNS)
        assert list(frame["source_locator"]) == ["para=1", "para=2"]
        assert store.integrity_check() == "ok"


# --------------------------------------------------------------------------- crash safety
CHILD = textwrap.dedent("""
    import os, sys, time
    from ragspine_nb import ChunkStore, Chunk

    path, mode, stop_after = sys.argv[1], sys.argv[2], int(sys.argv[3])

    def version_chunks(tag, n):
        return [Chunk(doc_id="doc", chunk_id=f"doc#{tag}-{i}", seq=i,
                      text=f"{tag} " + "x" * 400, source_locator=f"para={i + 1}")
                for i in range(n)]

    store = ChunkStore(path)
    if mode == "signal":
        seen = 0
        def trace(stmt):
            global seen
            if stmt.startswith("INSERT INTO narrative_chunk"):
                seen += 1
                if seen == stop_after:          # we are inside the transaction now
                    os.write(1, b"mid-write\\n")
                    time.sleep(60)
        store._db.conn.set_trace_callback(trace)
        store.replace_doc_chunks("doc", version_chunks("new", 500))
    else:                                       # keep replacing until killed
        k = 0
        os.write(1, b"started\\n")
        while True:
            k += 1
            store.replace_doc_chunks("doc", version_chunks(f"v{k}", 100 + k % 7))
""")


def _spawn(path: Path, mode: str, stop_after: int = 0) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", CHILD, str(path), mode, str(stop_after)],
                            stdout=subprocess.PIPE, env=env)


def _assert_one_complete_active_version(path: Path) -> tuple[int, str]:
    with ChunkStore(path) as store:
        assert store.integrity_check() == "ok"
        active = store.iter_chunks(doc_id="doc")
        versions = {c.version for c in active}
        assert len(versions) == 1, f"active versions: {versions}"
        tags = {c.text.split()[0] for c in active}
        assert len(tags) == 1
        tag = tags.pop()
        return len(active), tag


@pytest.mark.slow
def test_kill_inside_the_transaction_leaves_the_old_version_active(tmp_path: Path) -> None:
    path = tmp_path / "chunks.sqlite"
    with ChunkStore(path) as store:
        store.replace_doc_chunks("doc", [make_chunk("doc", i, text=f"old {i}") for i in range(50)])
    child = _spawn(path, "signal", stop_after=250)
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"mid-write\n"   # 249 of 500 rows inserted
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    count, tag = _assert_one_complete_active_version(path)
    assert (count, tag) == (50, "old")
    with ChunkStore(path) as store:
        assert store.doc_versions("doc") == [(1, 50, True)]   # no trace of the new rows


@pytest.mark.slow
def test_kills_at_random_moments_never_leave_a_partial_version(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    path = tmp_path / "chunks.sqlite"
    for _ in range(8):
        child = _spawn(path, "loop")
        assert child.stdout is not None and child.stdout.readline() == b"started\n"
        time.sleep(rng.uniform(0.05, 0.4))
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        with ChunkStore(path) as store:
            if store.count(include_inactive=True) == 0:
                continue  # killed before the first commit
        count, tag = _assert_one_complete_active_version(path)
        assert count == 100 + int(tag[1:]) % 7     # the full version, never a part of it


def test_a_database_error_mid_batch_rolls_back_to_the_previous_version() -> None:
    from ragspine_nb.errors import StoreError

    store = ChunkStore()
    store.replace_doc_chunks("a.md", _doc("a.md", 2, "v1"))
    chunks = _doc("a.md", 5, "v2")
    object.__setattr__(chunks[4], "text", "\x00")  # passes Python checks, fails SQLite's CHECK
    with pytest.raises(StoreError, match="rolled back"):
        store.replace_doc_chunks("a.md", chunks)
    assert store.doc_versions("a.md") == [(1, 2, True)]
    assert [c.text[:2] for c in store.iter_chunks(doc_id="a.md")] == ["v1", "v1"]
