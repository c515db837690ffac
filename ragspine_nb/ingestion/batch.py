"""One ingestion batch: every file read in order, each written without half-writes.

One bad file never stops the batch (its line says why); a full disk or a read-only
store does (the later files are not attempted). Files are read in one worker process
(:func:`~ragspine_nb.ingestion.worker.batch_reader`), or several reading ahead of the file
being written (:mod:`ragspine_nb.ingestion.read_ahead`), each within the per-file deadline
and memory cap; a worker stopped at a limit is replaced for the next file. A document whose
table amounts state no scale, whose tables name no period, or with a bare total row, is
written after the other files were read, with the period
(:mod:`ragspine_nb.ingestion.period`), the scale (:mod:`ragspine_nb.ingestion.scale`) and the
total's name (:mod:`ragspine_nb.ingestion.total`) the prose of its folder tells; its line
keeps its place in the report, and its ledger fingerprint covers the files of its folder.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from ragspine_nb.core import FileReport, SkippedItem
from ragspine_nb.errors import StoreError
from ragspine_nb.extract.collect import SourceFile
from ragspine_nb.ingestion.context import BatchContext, with_siblings
from ragspine_nb.ingestion.period import period_step
from ragspine_nb.ingestion.read_ahead import ReadAhead, read_workers
from ragspine_nb.ingestion.scale import scale_step
from ragspine_nb.ingestion.steps import (
    Read,
    Settings,
    finish_step,
    plan_read,
    read_step,
    store_failure,
)
from ragspine_nb.ingestion.total import bare_total, total_step
from ragspine_nb.ingestion.worker import Reader, ReadJob, batch_reader
from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore

__all__ = ["run_batch"]

Outcome = tuple[FileReport, list[SkippedItem]]
_T = TypeVar("_T")


def _progress(files: list[SourceFile], show: bool) -> Iterable[SourceFile]:
    if not show:
        return files
    from tqdm.auto import tqdm

    return tqdm(files, desc="ingest", unit="file")  # type: ignore[no-any-return]


def run_batch(files: list[SourceFile], facts: FactStore | None, chunks: ChunkStore | None,
              s: Settings, meta_by_doc: Mapping[str, Mapping[str, Any]], show: bool, error: str
              ) -> tuple[list[FileReport], list[SkippedItem], str]:
    """Every file in order: its report line, its skipped cells, and why the batch stopped.

    ``facts`` and ``chunks`` are the workspace's stores (``None``: a dry run without a
    workspace); ``error`` non-empty means nothing is attempted. Several workers read the
    files ahead when ``s.workers`` says so (:mod:`ragspine_nb.ingestion.read_ahead`).
    """
    s = replace(s, batch=BatchContext.of(files))
    n = read_workers(s.workers, _sizes(files)) if s.worker and not error else 1
    with _reader(n, s, error) as reader:
        if isinstance(reader, ReadAhead):
            reader.plan(_planned_jobs(files, facts, s, meta_by_doc))
        return _run(files, (facts, chunks), replace(s, reader=reader), meta_by_doc, show,
                    error)


def _sizes(files: list[SourceFile]) -> list[int]:
    """The sizes of the files a batch may read (refused ones left out)."""
    out = []
    for item in files:
        with contextlib.suppress(OSError):
            if not item.refused:
                out.append(item.path.stat().st_size)
    return out


@contextlib.contextmanager
def _reader(n: int, s: Settings, error: str) -> Iterator[Reader]:
    """The batch's reader: ``n`` workers reading ahead, one worker, or this process."""
    if n > 1:
        ahead = ReadAhead(n)
        try:
            yield ahead
        finally:
            ahead.close()
    elif s.worker and not error:
        with batch_reader() as one:
            yield one
    else:
        yield s.reader


def _planned_jobs(files: list[SourceFile], facts: FactStore | None, s: Settings,
                  meta_by_doc: Mapping[str, Mapping[str, Any]]) -> list[ReadJob]:
    """The reads the batch will ask for, in its order.

    What it skips or fails is left out; an error here is met again, and reported, when the
    batch reaches that file.
    """
    jobs, seen = [], set()
    for item in files:
        if item.refused or item.doc_id in seen:
            continue
        seen.add(item.doc_id)
        try:
            planned = plan_read(item.path, item.doc_id, facts, meta_by_doc.get(item.doc_id, {}),
                                s)
        except Exception:  # noqa: S112 - the batch reports it at this file's turn
            continue
        if not isinstance(planned, FileReport):
            jobs.append(planned[0])
    return jobs


def _run(files: list[SourceFile], stores: tuple[FactStore | None, ChunkStore | None],
         s: Settings, meta_by_doc: Mapping[str, Mapping[str, Any]], show: bool, error: str
         ) -> tuple[list[FileReport], list[SkippedItem], str]:
    done: list[tuple[FileReport, list[SkippedItem]] | None] = []
    later: list[tuple[int, SourceFile, Read]] = []
    seen: set[str] = set()
    for item in _progress(files, show):
        outcome, error = _batch_item(item, stores, s, meta_by_doc, seen, error)
        if isinstance(outcome, Read):
            later.append((len(done), item, outcome))
            done.append(None)
        else:
            done.append(outcome)
    for at, item, read in later:
        done[at], error = _finish_later(item, read, stores, s, meta_by_doc, error)
    reports = [d[0] for d in done if d is not None]
    return reports, [cell for d in done if d is not None for cell in d[1]], error


def _guarded(item: SourceFile, step: Callable[[], _T], error: str) -> tuple[_T | Outcome, str]:
    """Run one file's step; a failure becomes its ``failed`` line (a fatal one stops the batch)."""
    try:
        return step(), error
    except (StoreError, MemoryError) as exc:  # one file's write; the batch goes on
        reason, fatal = store_failure(exc)
        stop = str(exc) if fatal else ""
    except Exception as exc:  # a bug in one file's path must not abort the batch; report it
        reason, stop = f"unexpected {type(exc).__name__}: {exc}", ""
    return (FileReport(str(item.path), item.doc_id, "failed", reason=reason), []), stop


def _batch_item(item: SourceFile, stores: tuple[FactStore | None, ChunkStore | None],
                s: Settings,
                meta_by_doc: Mapping[str, Mapping[str, Any]], seen: set[str], error: str
                ) -> tuple[Outcome | Read, str]:
    """One file read, then written now or (amounts of no stated scale) after the batch."""
    path, doc_id = item.path, item.doc_id
    why = (f"not attempted: {error}" if error else item.refused
           or (f"duplicate document id {doc_id!r} in this batch" if doc_id in seen else ""))
    if why:
        return (FileReport(str(path), doc_id, "failed", reason=why), []), error
    seen.add(doc_id)
    meta = meta_by_doc.get(doc_id, {})
    facts, chunks = stores

    def step() -> Outcome | Read:
        read = read_step(path, doc_id, facts, meta, s)
        if not isinstance(read, Read):
            return read, []
        waits = bool(read.result.unscaled or read.result.undated)
        if s.batch is not None:
            s.batch.remember(path, read.result)
            if bare_total(read.result) is not None:
                s.batch.mark_total(path, doc_id)
                waits = True
        if waits:
            return read
        return finish_step(path, read, facts, chunks, meta, s)

    return _guarded(item, step, error)


def _finish_later(item: SourceFile, read: Read,
                  stores: tuple[FactStore | None, ChunkStore | None], s: Settings,
                  meta_by_doc: Mapping[str, Mapping[str, Any]], error: str
                  ) -> tuple[Outcome, str]:
    """Write a document whose amounts waited for the prose of its folder."""
    if error:
        return (FileReport(str(item.path), item.doc_id, "failed",
                           reason=f"not attempted: {error}"), []), error
    facts, chunks = stores
    meta = meta_by_doc.get(item.doc_id, {})

    def step() -> Outcome:
        if s.batch is None:
            return finish_step(item.path, read, facts, chunks, meta, s)
        dated = period_step(item.path, read, s.batch, meta, s)
        scaled = scale_step(dated.result, s.batch, item.path)
        done = replace(dated, result=total_step(scaled, s.batch, item.path, s.profile))
        if not scaled.unscaled:  # (finish_step covers unscaled ones)
            done = replace(done, fingerprint=with_siblings(
                done.fingerprint, s.batch.sibling_digest(item.path)))
        return finish_step(item.path, done, facts, chunks, meta, s)

    return _guarded(item, step, error)
