"""The contract of :class:`~ragspine_nb.stores.protocols.ChunkWriter` (and its reader).

A document's chunks are versioned: a new version replaces the old one in one
transaction (the old rows stay as inactive history), an empty version withdraws the
document, a staged version is invisible until activated, invalid chunks reject the call
and change nothing. Every chunk reads back exactly, with its source locator and its
sensitivity label as written: the store never filters RESTRICTED text itself, the
readers that build prompts do, so a store that dropped or rewrote a label would leak.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

import pytest

from ragspine_nb.core import Chunk, Source, StoredChunk, is_restricted
from ragspine_nb.errors import (
    InvalidRecordError,
    LineageError,
    ReadOnlyQueryError,
    ReadOnlyStoreError,
    StoreError,
)
from ragspine_nb.stores.protocols import ChunkReader, ChunkWriter
from ragspine_nb.testing._store_checks import (
    HOSTILE_VALUES,
    REFUSED_READS,
    check_handle_lifecycle,
)

__all__ = ["ChunkStoreContract", "SENSITIVITY_LABELS"]

#: Labels the contract writes: three spellings of RESTRICTED, a board label, an open one.
SENSITIVITY_LABELS: tuple[str, ...] = ("RESTRICTED", " restricted ", "Restricted\u200b",
                                       "Board only", "INTERNAL")
_CANARY = "CANARY-7Q board acquisition plan"
_CHUNK_FIELDS = tuple(f.name for f in fields(Chunk))


def _chunk(doc: str, seq: int, text: str = "", **kw: Any) -> Chunk:
    """Paragraph ``seq`` of ``doc`` (locator ``para=seq+1``)."""
    return Chunk(doc_id=doc, chunk_id=f"{doc}#{seq}", seq=seq,
                 text=text or f"paragraph {seq} of {doc}", source_locator=f"para={seq + 1}",
                 **kw)


def _doc(doc: str, n: int, tag: str = "v1", **kw: Any) -> list[Chunk]:
    return [_chunk(doc, i, f"{tag} paragraph {i} of {doc}", **kw) for i in range(n)]


def _as_written(stored: StoredChunk) -> Chunk:
    """The :class:`Chunk` part of a stored chunk."""
    return Chunk(**{name: getattr(stored, name) for name in _CHUNK_FIELDS})


def _rows(store: ChunkReader) -> list[tuple[Any, ...]]:
    return [(c.doc_id, c.version, c.active, c.seq, c.text, c.sensitivity)
            for c in store.iter_chunks(include_inactive=True)]


def _bad_batch(case: str) -> tuple[str, list[Any], type[Exception]]:
    """A call to ``replace_doc_chunks("a.md", ...)`` that must be refused, and its error."""
    good = _doc("a.md", 2, "v2")
    if case == "blank doc_id":
        return " ", good, LineageError
    if case == "forged locator" or case == "forged doc_id":
        object.__setattr__(good[1], "source_locator" if case == "forged locator" else "doc_id",
                           "  ")
        return "a.md", good, LineageError
    extra: dict[str, Any] = {
        "another document's chunk": _chunk("b.md", 5),
        "duplicate chunk_id": replace(_chunk("a.md", 9), chunk_id=good[0].chunk_id),
        "duplicate seq": replace(_chunk("a.md", 0), chunk_id="a.md#other"),
        "not a chunk": "v2 paragraph 2 of a.md",
    }
    return "a.md", [*good, extra[case]], InvalidRecordError


class ChunkStoreContract:
    """The behavioural contract of :class:`~ragspine_nb.stores.protocols.ChunkWriter`.

    Notes
    -----
    The inheriting class defines the fixture ``chunk_store``: a fresh, **empty**, writable
    store for every test. It may define ``read_only_chunk_store``: a callable that takes
    the written ``chunk_store`` and returns a store reading the same data that cannot be
    written (the mixin's default skips the read-only test).
    """

    @pytest.fixture
    def read_only_chunk_store(self) -> Callable[[ChunkWriter], ChunkReader]:
        """Override to open the written store read-only; skipped by default."""
        pytest.skip("this chunk store has no read-only mode")

    def test_chunk_store_has_the_protocol_members(self, chunk_store: ChunkWriter) -> None:
        """Every member of the reader and writer Protocols is there."""
        assert isinstance(chunk_store, ChunkWriter) and isinstance(chunk_store, ChunkReader)

    def test_chunk_store_starts_empty(self, chunk_store: ChunkWriter) -> None:
        """No chunks, documents or staged versions."""
        assert (chunk_store.count(), chunk_store.count(include_inactive=True)) == (0, 0)
        assert (chunk_store.iter_chunks(), chunk_store.doc_ids()) == ([], [])
        assert chunk_store.staged_versions() == []

    def test_written_chunk_reads_back_exactly_with_its_source(
            self, chunk_store: ChunkWriter) -> None:
        """Text, metadata and locator as written, in ``seq`` order, version 1, active."""
        meta = {"title": "FY2025 review", "topic": "results", "entity": "ACME_HK",
                "geography": "HK", "period": "2025", "language": "en",
                "sensitivity": "INTERNAL"}
        written = [_chunk("hk.md", 2, "Agency new sales grew 12%.", **meta),
                   _chunk("hk.md", 0, "Revenue rose to 1,405.", **meta),
                   _chunk("hk.md", 1, "银保渠道新单保费下降。", **meta)]
        assert chunk_store.replace_doc_chunks("hk.md", written, valid_as_of="2025-12-31") == 3
        got = chunk_store.iter_chunks(doc_id="hk.md")
        assert [_as_written(c) for c in got] == sorted(written, key=lambda c: c.seq)
        assert [c.source for c in got] == [Source("hk.md", f"para={i + 1}") for i in range(3)]
        assert {(c.valid_as_of, c.version, c.active) for c in got} == {("2025-12-31", 1, True)}
        assert all(c.ingested_at.strip() for c in got)
        assert (chunk_store.doc_ids(), chunk_store.count()) == (["hk.md"], 3)

    @pytest.mark.parametrize("label", SENSITIVITY_LABELS)
    def test_sensitivity_label_comes_back_exactly_on_every_read_path(
            self, chunk_store: ChunkWriter, label: str) -> None:
        """No read path drops or rewrites a label: RESTRICTED chunks stay recognisable."""
        chunk_store.replace_doc_chunks("open.md", [_chunk("open.md", 0, entity="ACME_CN",
                                                         sensitivity="PUBLIC")])
        chunk_store.replace_doc_chunks("board.md", [_chunk("board.md", 0, _CANARY,
                                                           entity="ACME_CN",
                                                           sensitivity=label)])
        paths = {"all": chunk_store.iter_chunks(), "doc": chunk_store.iter_chunks(
            doc_id="board.md"), "entity": chunk_store.iter_chunks(entity="ACME_CN"),
            "history": chunk_store.iter_chunks(include_inactive=True),
            "label": chunk_store.iter_chunks(sensitivity=label)}
        for name, chunks in paths.items():
            canary = [c for c in chunks if _CANARY in c.text]
            assert [(c.sensitivity, c.restricted) for c in canary] == [
                (label, is_restricted(label))], name
        assert [c.doc_id for c in paths["label"]] == ["board.md"]
        assert chunk_store.count() == 2

    def test_display_never_shows_restricted_text(self, chunk_store: ChunkWriter) -> None:
        """The store's own notebook display hides RESTRICTED text (when it has one)."""
        display = getattr(chunk_store, "_repr_html_", None)
        if not callable(display):
            pytest.skip("this chunk store has no notebook display")
        chunk_store.replace_doc_chunks("open.md", [_chunk("open.md", 0, "public growth story")])
        chunk_store.replace_doc_chunks("board.md", [_chunk("board.md", 0, _CANARY,
                                                           sensitivity="restricted\u200b")])
        html = display()
        assert "public growth story" in html and "CANARY" not in html

    def test_a_new_version_replaces_the_old_one(self, chunk_store: ChunkWriter) -> None:
        """Only the newest version is active; the old rows stay as inactive history."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 3, "v1"))
        assert chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2, "v2")) == 2
        assert [c.text[:2] for c in chunk_store.iter_chunks(doc_id="a.md")] == ["v2", "v2"]
        history = chunk_store.iter_chunks(doc_id="a.md", include_inactive=True)
        assert [(c.version, c.active) for c in history] == [(1, False)] * 3 + [(2, True)] * 2
        assert (chunk_store.count(), chunk_store.count(include_inactive=True)) == (2, 5)

    def test_the_same_chunks_twice_leave_the_same_active_chunks(
            self, chunk_store: ChunkWriter) -> None:
        """Re-ingesting an unchanged document changes nothing a reader sees."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        first = [_as_written(c) for c in chunk_store.iter_chunks()]
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        assert [_as_written(c) for c in chunk_store.iter_chunks()] == first
        assert chunk_store.count() == 2 and chunk_store.doc_ids() == ["a.md"]

    def test_an_empty_version_withdraws_only_that_document(
            self, chunk_store: ChunkWriter) -> None:
        """No active chunk of the withdrawn document remains; the other document stays."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        chunk_store.replace_doc_chunks("b.md", _doc("b.md", 1))
        assert chunk_store.replace_doc_chunks("a.md", []) == 0
        assert chunk_store.iter_chunks(doc_id="a.md") == []
        assert chunk_store.doc_ids() == ["b.md"]
        assert chunk_store.doc_ids(include_inactive=True) == ["a.md", "b.md"]
        assert [c.doc_id for c in chunk_store.iter_chunks()] == ["b.md"]

    @pytest.mark.parametrize("case", [
        "blank doc_id", "forged locator", "forged doc_id", "another document's chunk",
        "duplicate chunk_id", "duplicate seq", "not a chunk"])
    def test_invalid_chunks_reject_the_call_and_change_nothing(
            self, chunk_store: ChunkWriter, case: str) -> None:
        """Blank lineage is a ``LineageError``, a bad record ``InvalidRecordError``."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        before = _rows(chunk_store)
        doc, chunks, error = _bad_batch(case)
        with pytest.raises(error):
            chunk_store.replace_doc_chunks(doc, chunks)
        with pytest.raises(error):
            chunk_store.stage_doc_chunks(doc, chunks)
        assert _rows(chunk_store) == before and chunk_store.staged_versions() == []

    def test_a_staged_version_is_invisible_until_activated(
            self, chunk_store: ChunkWriter) -> None:
        """Readers see the old version until ``activate_version``; then only the new one."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2, "v1"))
        version = chunk_store.stage_doc_chunks("a.md", _doc("a.md", 3, "v2"),
                                               fingerprint="fp-2")
        assert version == 2
        assert [c.text[:2] for c in chunk_store.iter_chunks()] == ["v1", "v1"]
        assert [(s.doc_id, s.version, s.fingerprint)
                for s in chunk_store.staged_versions()] == [("a.md", 2, "fp-2")]
        assert chunk_store.activate_version("a.md", 2) == 3
        assert [(c.version, c.text[:2]) for c in chunk_store.iter_chunks()] == [(2, "v2")] * 3
        assert chunk_store.staged_versions() == []
        with pytest.raises(StoreError):
            chunk_store.activate_version("a.md", 2)  # no longer staged
        assert chunk_store.count() == 3

    def test_dropping_a_staged_version_keeps_the_active_one(
            self, chunk_store: ChunkWriter) -> None:
        """``drop_version`` deletes a staged version only; active history is never dropped."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2, "v1"))
        version = chunk_store.stage_doc_chunks("a.md", _doc("a.md", 3, "v2"))
        assert chunk_store.drop_version("a.md", version) == 3
        assert chunk_store.drop_version("a.md", 1) == 0  # the active version: kept
        assert chunk_store.staged_versions() == []
        assert [(c.version, c.active) for c in chunk_store.iter_chunks(
            include_inactive=True)] == [(1, True)] * 2

    def test_filters_are_and_combined(self, chunk_store: ChunkWriter) -> None:
        """Each metadata filter is exact; several must all hold."""
        chunk_store.replace_doc_chunks("hk.md", _doc("hk.md", 2, entity="ACME_HK",
                                                     period="2025", language="en"))
        chunk_store.replace_doc_chunks("cn.md", _doc("cn.md", 1, entity="ACME_CN",
                                                     period="2025", language="zh"))
        chunk_store.replace_doc_chunks("cn24.md", _doc("cn24.md", 1, entity="ACME_CN",
                                                       period="2024", language="zh"))

        def docs(**kw: Any) -> list[str]:
            return sorted({c.doc_id for c in chunk_store.iter_chunks(**kw)})

        assert docs(period="2025") == ["cn.md", "hk.md"]
        assert docs(entity="ACME_CN", period="2025") == ["cn.md"]
        assert docs(entity="ACME_HK", language="zh") == []

    @pytest.mark.parametrize("value", HOSTILE_VALUES)
    def test_values_are_bound_never_spliced(self, chunk_store: ChunkWriter, value: str) -> None:
        """A hostile value finds nothing and is stored as plain data."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        before = _rows(chunk_store)
        for key in ("doc_id", "topic", "entity", "geography", "period", "language",
                    "sensitivity"):
            flt: dict[str, Any] = {key: value}
            assert chunk_store.iter_chunks(**flt) == [], key
        assert _rows(chunk_store) == before
        chunk_store.replace_doc_chunks(value, [_chunk(value, 0, value)])
        [stored] = chunk_store.iter_chunks(doc_id=value)
        assert (stored.text, stored.source) == (value, Source(value, "para=1"))
        assert chunk_store.count() == 3

    def test_execute_read_reads_with_bound_parameters(self, chunk_store: ChunkWriter) -> None:
        """One dict per row, keyed by column, values bound."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        assert chunk_store.execute_read(
            "SELECT seq, source_locator FROM narrative_chunk WHERE doc_id = ? ORDER BY seq",
            ["a.md"]) == [{"seq": 0, "source_locator": "para=1"},
                          {"seq": 1, "source_locator": "para=2"}]

    @pytest.mark.parametrize("sql", REFUSED_READS)
    def test_execute_read_refuses_writes(self, chunk_store: ChunkWriter, sql: str) -> None:
        """Anything that would write is a ``ReadOnlyQueryError`` and changes nothing."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        before = _rows(chunk_store)
        with pytest.raises(ReadOnlyQueryError):
            chunk_store.execute_read(sql.format(table="narrative_chunk"))
        assert _rows(chunk_store) == before

    def test_close_is_idempotent_and_with_gives_the_store(
            self, chunk_store: ChunkWriter) -> None:
        """``close`` twice is fine, the next use reopens; ``with`` yields the store."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        check_handle_lifecycle(chunk_store, lambda: _rows(chunk_store))

    @pytest.mark.parametrize("write", ["replace_doc_chunks", "stage_doc_chunks", "withdraw"])
    def test_read_only_store_refuses_writes(
            self, chunk_store: ChunkWriter, write: str,
            read_only_chunk_store: Callable[[ChunkWriter], ChunkReader]) -> None:
        """Reads work; every write is a ``ReadOnlyStoreError`` and changes nothing."""
        chunk_store.replace_doc_chunks("a.md", _doc("a.md", 2))
        before = _rows(chunk_store)
        store = read_only_chunk_store(chunk_store)
        assert _rows(store) == before and store.doc_ids() == ["a.md"]
        assert isinstance(store, ChunkWriter), "a read-only store without writes: nothing to do"
        with pytest.raises(ReadOnlyStoreError):
            if write == "stage_doc_chunks":
                store.stage_doc_chunks("a.md", _doc("a.md", 1, "v2"))
            else:
                store.replace_doc_chunks("a.md", [] if write == "withdraw" else
                                         _doc("a.md", 1, "v2"))
        assert _rows(store) == before and store.staged_versions() == []
