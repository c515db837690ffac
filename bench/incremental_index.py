"""Incremental NarrativeIndex at 100k chunks, side by side with tantivy (on disk).

    .venv/bin/python bench/incremental_index.py [--chunks 100000]

Chunks are ~420-character pieces of SciFact and cmrc2018 passages ($RAGSPINE_DATA),
written to a SQLite chunk store in 5-chunk documents. Measured, for ours and tantivy:
the first search in a new process (ours: with the saved index, and with none), a
steady search (top-10, median of 200), adding one 5-chunk document then the next
search, withdrawing one then the next search. Each "new process" figure runs in a
fresh interpreter. Results go to bench/results/incremental_index.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
QUERIES = ["hong kong revenue fell", "gene expression in tumour cells", "香港 收入 下降",
           "protein binding site", "vaccine efficacy trial", "北京 大学 历史"]


def _pieces(n: int) -> list[str]:
    from ragspine_nb.extract.beir import data_root, load_beir

    out: list[str] = []
    for name in ("scifact", "cmrc2018-chunks"):
        _, texts = load_beir(data_root() / name).doc_texts()
        for t in texts:
            out.extend(t[i:i + 420] for i in range(0, len(t), 420) if t[i:i + 420].strip())
    while len(out) < n:  # cycle with a marker so every chunk is distinct
        out.extend(f"{t} r{len(out)}" for t in out[:n - len(out)])
    return out[:n]


def build_store(folder: Path, n: int) -> Path:
    from ragspine_nb.core import Chunk
    from ragspine_nb.stores.chunks import ChunkStore

    path = folder / "chunks.db"
    store = ChunkStore(path)
    pieces = _pieces(n)
    for d in range(0, n, 5):
        doc = f"doc{d // 5}.md"
        store.replace_doc_chunks(doc, [
            Chunk(doc_id=doc, chunk_id=f"{doc}#{i}", seq=i, text=t, source_locator=f"p={i}")
            for i, t in enumerate(pieces[d:d + 5])])
    store.close()
    return path


def _timed(fn: Any) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1e3


def ours(path: Path) -> dict[str, float]:
    """One fresh process: first search, steady search, add → next, withdraw → next."""
    from ragspine_nb.core import Chunk
    from ragspine_nb.retrieval import NarrativeIndex
    from ragspine_nb.stores.chunks import ChunkStore

    store = ChunkStore(path)
    index = NarrativeIndex(store, rewriter=False)
    res = {"first_search_ms": _timed(lambda: index.search(QUERIES[0], top_k=10))}
    lat = []
    for i in range(200):
        lat.append(_timed(lambda i=i: index.search(QUERIES[i % len(QUERIES)], top_k=10)))
    res["steady_search_p50_ms"] = statistics.median(lat)
    new = [Chunk(doc_id="new.md", chunk_id=f"new.md#{i}", seq=i, source_locator=f"p={i}",
                 text=f"hong kong revenue fell sharply in quarter {i}") for i in range(5)]
    res["add_doc_ms"] = _timed(lambda: store.replace_doc_chunks("new.md", new))
    res["next_search_after_add_ms"] = _timed(lambda: index.search(QUERIES[0], top_k=10))
    assert index.search(QUERIES[0], top_k=3).hits[0].chunk.doc_id == "new.md"
    res["withdraw_doc_ms"] = _timed(lambda: store.replace_doc_chunks("new.md", []))
    res["next_search_after_withdraw_ms"] = _timed(lambda: index.search(QUERIES[0], top_k=10))
    store.replace_doc_chunks("doc7.md", [])  # leave the store as it was apart from history
    return res


def tantivy_side(folder: Path, n: int) -> dict[str, float]:
    import tantivy

    sb = tantivy.SchemaBuilder()
    sb.add_text_field("id", stored=True, tokenizer_name="raw")
    sb.add_text_field("text", stored=False)
    schema = sb.build()
    where = folder / "tantivy"
    where.mkdir()
    index = tantivy.Index(schema, path=str(where))
    writer = index.writer(heap_size=200_000_000, num_threads=1)
    t = time.perf_counter()
    for i, text in enumerate(_pieces(n)):
        writer.add_document(tantivy.Document(id=f"c{i}", text=text))
    writer.commit()
    writer.wait_merging_threads()
    res = {"index_s": time.perf_counter() - t}

    def search() -> None:
        index.reload()
        s = index.searcher()
        s.search(index.parse_query(QUERIES[0], ["text"]), 10)

    reopened = tantivy.Index.open(str(where))
    t = time.perf_counter()
    reopened.searcher().search(reopened.parse_query(QUERIES[0], ["text"]), 10)
    res["first_search_ms"] = (time.perf_counter() - t) * 1e3
    lat = [_timed(lambda: index.searcher().search(index.parse_query(QUERIES[1], ["text"]), 10))
           for _ in range(200)]
    res["steady_search_p50_ms"] = statistics.median(lat)
    writer = index.writer(heap_size=50_000_000, num_threads=1)

    def add() -> None:
        for i in range(5):
            writer.add_document(tantivy.Document(id=f"new{i}", text="hong kong revenue fell"))
        writer.commit()

    res["add_doc_ms"] = _timed(add)
    res["next_search_after_add_ms"] = _timed(search)

    def withdraw() -> None:
        for i in range(5):
            writer.delete_documents("id", f"new{i}")
        writer.commit()

    res["withdraw_doc_ms"] = _timed(withdraw)
    res["next_search_after_withdraw_ms"] = _timed(search)
    return res


def _in_new_process(*args: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                          check=True)
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--ours", help=argparse.SUPPRESS)
    ap.add_argument("--tantivy", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.ours:
        print(json.dumps(ours(Path(args.ours))))
        return
    if args.tantivy:
        print(json.dumps(tantivy_side(Path(args.tantivy), args.chunks)))
        return
    folder = Path(tempfile.mkdtemp())
    try:
        t = time.perf_counter()
        path = build_store(folder, args.chunks)
        print(f"store: {args.chunks:,} chunks written in {time.perf_counter() - t:.0f} s")
        cold = _in_new_process("--ours", str(path))  # no saved index yet: full build
        warm = _in_new_process("--ours", str(path))  # reads the saved index
        peer = _in_new_process("--tantivy", str(folder), "--chunks", str(args.chunks))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out = {"chunks": args.chunks, "ours_no_saved_index": cold, "ours": warm, "tantivy": peer}
    print(f"{'':32} {'ours':>10} {'tantivy':>10} {'ours/tantivy':>13}")
    for key in warm:
        print(f"{key:32} {warm[key]:>10.2f} {peer[key]:>10.2f} {warm[key] / peer[key]:>12.1f}x")
    print(f"ours, first search with no saved index (full build): "
          f"{cold['first_search_ms']:.0f} ms")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "incremental_index.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
