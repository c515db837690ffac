"""BM25 changes in place: every ranking equals a fresh build's, compiled or not.

Issue 19: an index that updates incrementally. Random add / remove / replace /
re-activate sequences are checked against a full rebuild, on the BM25 index alone and
on a NarrativeIndex over a SQLite file (including a change made by another
connection), with the saved index read back by a new NarrativeIndex.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from ragspine_nb.core import Chunk
from ragspine_nb.retrieval import BM25Index, NarrativeIndex, bm25_postings, bm25_weights, compiled
from ragspine_nb.retrieval.array_file import load_arrays, save_arrays
from ragspine_nb.retrieval.live_bm25 import index_file_for
from ragspine_nb.stores.chunks import ChunkStore

WORDS = [f"w{i}" for i in range(40)] + ["收入", "香港", "下降"]


@pytest.fixture(params=["compiled", "numpy"])
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test on the numba loop and on the numpy loop."""
    if request.param == "compiled" and not compiled.HAVE_NUMBA:
        pytest.skip("numba is not installed")
    monkeypatch.setenv("RAGSPINE_NO_NUMBA", "1" if request.param == "numpy" else "0")
    return str(request.param)


def _doc(rng: random.Random) -> list[str]:
    return [rng.choice(WORDS[:rng.randint(3, len(WORDS))]) for _ in range(rng.randint(1, 12))]


def _queries(rng: random.Random) -> list[list[str]]:
    return [_doc(rng) for _ in range(6)] + [[w] for w in WORDS[:4]] + [["nope"]]


@pytest.mark.parametrize("merge_at", [10**9, 5])  # never compact / compact on most adds
@pytest.mark.parametrize("weights_after", [10**9, 0])  # weights computed per query / cached
def test_random_changes_rank_exactly_as_a_fresh_build(
        kernel: str, merge_at: int, weights_after: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bm25_postings, "MERGE_MIN_POSTINGS", merge_at)
    monkeypatch.setattr(bm25_weights, "WEIGHTS_AFTER_QUERIES", weights_after)
    rng = random.Random(7)
    for _ in range(6):
        idx = BM25Index.from_tokens([], [])
        docs: dict[str, list[str]] = {}
        keys: dict[str, int] = {}
        serial = 0
        for _step in range(40):
            if docs and rng.random() < 0.35:
                gone = rng.sample(sorted(docs), rng.randint(1, min(3, len(docs))))
                assert idx.remove(gone + ["never-added"]) == len(gone)
                for d in gone:
                    del docs[d], keys[d]
            else:
                new = [f"d{serial + i}" for i in range(rng.randint(1, 4))]
                toks = [_doc(rng) for _ in new]
                # most keys come after every other; some land before (a re-activated version)
                sign = 1 if rng.random() < 0.8 else -1
                order = [sign * (serial + i + 1) for i in range(len(new))]
                serial += len(new)
                idx.add(new, toks, order)
                docs.update(zip(new, toks, strict=True))
                keys.update(zip(new, order, strict=True))
            if rng.random() < 0.1:
                assert idx.doc_ids == sorted(docs, key=keys.__getitem__)  # compacts
            ids = sorted(docs, key=keys.__getitem__)
            fresh = BM25Index.from_tokens(ids, [docs[d] for d in ids],
                                          order_keys=[keys[d] for d in ids])
            qs = _queries(rng)
            for k1, b in [(1.5, 0.75), (0.9, 0.4), (1.2, 1.0), (0.0, 0.0)]:
                assert idx.search_many(qs, 7, k1, b) == fresh.search_many(qs, 7, k1, b)
            assert idx.n_docs == fresh.n_docs and idx.avgdl == fresh.avgdl


def test_compiled_and_numpy_loops_give_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    if not compiled.HAVE_NUMBA:
        pytest.skip("numba is not installed")
    rng = random.Random(3)
    ids = [f"d{i}" for i in range(400)]
    idx = BM25Index.from_tokens(ids, [_doc(rng) for _ in ids])
    qs = [_doc(rng) for _ in range(50)]
    mask = idx.mask_for(ids[::3])
    runs = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("RAGSPINE_NO_NUMBA", flag)
        runs[flag] = (idx.search_many(qs, 25), idx.search_many(qs, 25, 0.8, 0.3, mask=mask),
                      idx.search_many(qs, 1000))
    assert runs["0"] == runs["1"]
    assert all(len(r) <= 25 for r in runs["0"][0]) and any(len(r) == 25 for r in runs["0"][0])


def test_a_query_reading_every_document_ranks_ties_and_masks_as_the_numpy_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # every document holds the query's words (the compiled loop scans all slots: no list
    # of touched ones), six score levels with 100 identical documents each: the cut at k
    # falls inside a tie, broken by the order key (the position); a mask keeps every third
    if not compiled.HAVE_NUMBA:
        pytest.skip("numba is not installed")
    ids = [f"d{i}" for i in range(600)]
    docs = [["common", "rare"] + ["pad"] * (i % 6) for i in range(600)]
    idx = BM25Index.from_tokens(ids, docs)
    qs = [["common"], ["rare", "common"], ["pad", "common", "nope"]]
    mask = idx.mask_for(ids[::3])
    runs = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("RAGSPINE_NO_NUMBA", flag)
        runs[flag] = [idx.search_many(qs, k) for k in (1, 150, 600)] + \
            [idx.search_many(qs, 150, mask=mask), idx.search_arrays(qs, 150)[0].tolist()]
    assert runs["0"] == runs["1"]
    best = runs["0"][1][0]  # the shortest documents first; among equals the lower key
    assert [d for d, _ in best[:3]] == ["d0", "d6", "d12"] and len(best) == 150


def test_add_rejects_an_id_already_indexed_and_keeps_the_index() -> None:
    idx = BM25Index.build(["a", "b"], ["x y", "y z"])
    before = idx.search_many(["x", "y"])
    with pytest.raises(ValueError, match="already indexed or repeated: \\['a'\\]"):
        idx.add(["a"], [["x"]])
    with pytest.raises(ValueError, match="repeated: \\['c'\\]"):
        idx.add(["c", "c"], [["x"], ["y"]])
    assert idx.search_many(["x", "y"]) == before and len(idx) == 2


def _chunks(doc: str, texts: list[str]) -> list[Chunk]:
    return [Chunk(doc_id=doc, chunk_id=f"{doc}#{i}", seq=i, text=t, source_locator=f"p={i}")
            for i, t in enumerate(texts)]


def _text(rng: random.Random) -> str:
    return " ".join(_doc(rng))


def _hits(index: NarrativeIndex, queries: list[str]) -> list[list[tuple[str, float]]]:
    return [[(h.chunk.chunk_id, h.bm25_score or 0.0) for h in r.hits]
            for r in index.search_many(queries, top_k=20, k1=1.2, b=0.6)]


def _fresh(path: Path) -> NarrativeIndex:
    index_file_for(ChunkStore(path)).unlink(missing_ok=True)  # type: ignore[union-attr]
    return NarrativeIndex(ChunkStore(path), rewriter=False)


def test_a_narrative_index_follows_random_changes_exactly(tmp_path: Path,
                                                          kernel: str) -> None:
    rng = random.Random(11)
    path = tmp_path / "chunks.db"
    store = ChunkStore(path)
    live = NarrativeIndex(store, rewriter=False)
    other = ChunkStore(path)  # another connection, as another process would write
    staged: list[tuple[str, int]] = []
    for step in range(45):
        doc = f"doc{rng.randint(0, 9)}.md"
        roll = rng.random()
        writer = other if step % 4 == 0 else store
        if roll < 0.55:
            writer.replace_doc_chunks(doc, _chunks(doc, [_text(rng) for _ in range(3)]))
        elif roll < 0.7:
            writer.replace_doc_chunks(doc, [])  # withdrawn
        elif roll < 0.85:
            staged.append((doc, writer.stage_doc_chunks(doc, _chunks(doc, [_text(rng)]))))
        elif staged:
            d, v = staged.pop(rng.randrange(len(staged)))
            if any(s.version == v for s in store.staged_versions(d)):
                writer.activate_version(d, v)
        queries = [_text(rng) for _ in range(4)]
        assert _hits(live, queries) == _hits(_fresh(path), queries), step
    assert live.refresh().n_docs == store.count()


def test_a_new_process_reads_the_saved_index_then_applies_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "chunks.db"
    store = ChunkStore(path)
    for i in range(30):
        store.replace_doc_chunks(f"d{i}.md", _chunks(f"d{i}.md", [f"revenue w{i} w{i % 7}"]))
    first = NarrativeIndex(store, rewriter=False)
    expected = _hits(first, ["revenue w3", "w5"])
    saved = index_file_for(store)
    assert saved is not None and saved.exists()
    store.replace_doc_chunks("d3.md", [])  # a change after the save
    store.replace_doc_chunks("new.md", _chunks("new.md", ["w5 w5 revenue"]))

    def no_full_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("the saved index should have been read")

    monkeypatch.setattr(BM25Index, "build", no_full_build)
    second = NarrativeIndex(ChunkStore(path), rewriter=False)
    got = _hits(second, ["revenue w3", "w5"])
    monkeypatch.undo()
    assert got == _hits(_fresh(path), ["revenue w3", "w5"])
    assert "d3.md#0" in {c for c, _ in expected[0]} - {c for c, _ in got[0]}
    assert "new.md#0" in {c for c, _ in got[1]} - {c for c, _ in expected[1]}


def test_a_damaged_saved_index_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "chunks.db"
    store = ChunkStore(path)
    store.replace_doc_chunks("a.md", _chunks("a.md", ["hong kong revenue"]))
    NarrativeIndex(store).search("revenue")
    saved = index_file_for(store)
    assert saved is not None
    saved.write_bytes(b"not an index")
    hits = NarrativeIndex(ChunkStore(path)).search("revenue").hits
    assert [h.chunk.chunk_id for h in hits] == ["a.md#0"]
    assert load_arrays(saved)[1]["keys"].size == 1  # saved again, whole


def test_a_truncated_saved_index_is_rebuilt_and_an_old_format_file_removed(
        tmp_path: Path) -> None:
    path = tmp_path / "chunks.db"
    store = ChunkStore(path)
    store.replace_doc_chunks("a.md", _chunks("a.md", ["hong kong revenue", "mainland"]))
    NarrativeIndex(store).search("revenue")
    saved = index_file_for(store)
    assert saved is not None
    whole = saved.read_bytes()
    saved.write_bytes(whole[:len(whole) - 70])  # the last array cut short
    legacy = saved.with_name(saved.name + ".npz")
    legacy.write_bytes(b"format 2")
    hits = NarrativeIndex(ChunkStore(path)).search("mainland").hits
    assert [h.chunk.chunk_id for h in hits] == ["a.md#1"]
    assert saved.read_bytes() == whole and not legacy.exists()


def test_a_saved_index_whose_rows_name_no_document_is_rebuilt_not_a_crash(
        tmp_path: Path) -> None:
    path = tmp_path / "chunks.db"
    store = ChunkStore(path)
    store.replace_doc_chunks("a.md", _chunks("a.md", ["hong kong revenue", "mainland"]))
    NarrativeIndex(store).search("revenue")
    saved = index_file_for(store)
    assert saved is not None
    meta, mapped = load_arrays(saved)
    arrays = {k: v.copy() for k, v in mapped.items()}  # off the mapped file before rewriting
    del mapped
    save_arrays(saved, meta, {**arrays, "doc_codes": arrays["doc_codes"] + 7})
    hits = NarrativeIndex(ChunkStore(path)).search("mainland").hits
    assert [h.chunk.chunk_id for h in hits] == ["a.md#1"]
    assert load_arrays(saved)[1]["doc_codes"].tolist() == [0, 0]  # saved again, whole


def test_a_new_process_shows_hits_with_their_saved_headers_without_reading_documents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "chunks.db"
    index = NarrativeIndex(path)
    for i in range(3):
        lines = ["Liquidity and Capital Resources",
                 f"Cash and cash equivalents were lower at the end of year {i} than at its start.",
                 f"Dividends paid rose in year {i} because the board raised the payout again."]
        index.add_document(f"d{i}.md", "\n".join(lines), entity="ACME_HK",
                           period=f"FY202{i}", max_chars=120, overlap_chars=0)
    built = {h.chunk.chunk_id: index.headers.get(h.chunk)
             for h in index.search("dividends paid", top_k=3).hits}
    assert sorted(built.values()) == [f"ACME HK · FY202{i} 202{i} · Liquidity and Capital "
                                      f"Resources" for i in range(3)]
    store = ChunkStore(path)

    def no_document_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("a saved header was read from the documents again")

    monkeypatch.setattr(store, "iter_chunks", no_document_read)
    again = NarrativeIndex(store, rewriter=False)
    hits = again.search("dividends paid", top_k=3).hits
    assert {h.chunk.chunk_id: again.headers.get(h.chunk) for h in hits} == built


def test_a_steady_search_does_not_read_the_chunk_table(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store = ChunkStore(tmp_path / "chunks.db")
    store.replace_doc_chunks("a.md", _chunks("a.md", ["hong kong revenue", "mainland"]))
    index = NarrativeIndex(store)
    index.search("revenue")
    reads: list[str] = []
    real = store.database.fetchall

    def spy(sql: str, params: object = ()) -> list[sqlite3.Row]:
        reads.append(sql)
        return real(sql, params)  # type: ignore[arg-type]

    monkeypatch.setattr(store.database, "fetchall", spy)
    index.search("revenue")
    index.search("mainland")
    assert reads == []
    store.replace_doc_chunks("b.md", _chunks("b.md", ["revenue revenue"]))
    assert index.search("revenue").hits[0].chunk.doc_id == "b.md"
    assert any("active = 1" in sql for sql in reads)


def test_a_new_process_reads_the_saved_headers_not_each_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a header's section path needs the document's chunks before it; made once at the
    # build, saved with the index, a new process reads them instead of every document
    path = tmp_path / "chunks.db"
    store = ChunkStore(path)
    store.replace_doc_chunks("10k.md", _chunks("10k.md", [
        "RESULTS OF OPERATIONS\nRevenue rose on demand.", "Margins fell on costs."]))
    first = NarrativeIndex(store, rewriter=False)
    made = [first.passage_text(h.chunk) for h in first.search("margins costs").hits]
    assert made == ["RESULTS OF OPERATIONS\nMargins fell on costs."]

    def no_document_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the saved headers should have been read")

    second = NarrativeIndex(ChunkStore(path), rewriter=False)
    monkeypatch.setattr(second.store, "iter_chunks", no_document_read)
    assert [second.passage_text(h.chunk) for h in second.search("margins costs").hits] == made


def test_a_store_unchanged_since_the_save_is_not_scanned(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # the saved index carries the store's change-log position and a digest of its active
    # rows: a new process that finds both equal searches without reading every row id
    path = tmp_path / "chunks.db"
    store = ChunkStore(path)
    for i in range(12):
        store.replace_doc_chunks(f"d{i}.md", _chunks(f"d{i}.md", [f"revenue w{i}"]))
    expected = _hits(NarrativeIndex(store, rewriter=False), ["revenue w3"])

    scanned: list[object] = []
    rowids = ChunkStore.active_rowids

    def no_full_scan(self: ChunkStore, doc_ids: object = None) -> list[int]:
        scanned.append(doc_ids)
        if doc_ids is None:
            raise AssertionError("every row id of the store was read")
        return rowids(self, doc_ids)  # type: ignore[arg-type]

    monkeypatch.setattr(ChunkStore, "active_rowids", no_full_scan)
    assert _hits(NarrativeIndex(ChunkStore(path), rewriter=False), ["revenue w3"]) == expected
    assert scanned == []
    # changes since the save: only the documents the change log names are compared
    store.replace_doc_chunks("d3.md", [])
    store.replace_doc_chunks("new.md", _chunks("new.md", ["revenue w3 w3"]))
    got = _hits(NarrativeIndex(ChunkStore(path), rewriter=False), ["revenue w3"])
    assert scanned == [["d3.md", "new.md"]]
    monkeypatch.undo()
    assert "d3.md#0" not in {c for c, _ in got[0]} and got[0][0][0] == "new.md#0"
    assert got == _hits(_fresh(path), ["revenue w3"])
