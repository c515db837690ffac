"""A batch's next files read in several workers while the batch writes the current one.

Reading a filing (PDF layout, tables, chunks) is most of ingesting it and runs in a worker
process (:mod:`ragspine_nb.ingestion.worker`); writing it (SQLite, in this process) is
the rest. :class:`ReadAhead` is a :data:`~ragspine_nb.ingestion.worker.Reader` that reads
the batch's planned jobs in ``workers`` processes at once, at most ``workers + 1`` ahead of
the file being written, and hands each result over in the batch's order: the report, the
facts and the chunks are the same as one worker's, file for file; each read keeps its own
deadline and memory cap, and a failure is that file's (raised when its turn comes).

:func:`read_workers` says how many: ``workers`` when given, else one per core (at most
:data:`MAX_AUTO_WORKERS`) when the files to read weigh :data:`AUTO_MIN_BYTES` or more — a
worker's start (its imports, about a second) is not worth it for a few small files.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.ingestion.worker import ReaderProcess, ReadJob, borrow_workers, give_back

__all__ = ["ReadAhead", "read_workers", "MAX_AUTO_WORKERS", "AUTO_MIN_BYTES"]

#: The most workers chosen when the caller names none.
MAX_AUTO_WORKERS = 4
#: The size of the files to read from which more than one worker is chosen by default.
AUTO_MIN_BYTES = 2 * 2**20

_Key = tuple[str, str, str]


def _key(job: ReadJob) -> _Key | None:
    """What identifies a planned read (a re-read with the folder's period is never planned)."""
    return None if job.table_period is not None else (str(job.path), job.doc_id, job.file_hash)


def read_workers(workers: int | None, sizes: Sequence[int]) -> int:
    """How many workers read a batch whose files to read have these sizes (bytes).

    Examples
    --------
    >>> read_workers(None, [40_000] * 3), read_workers(3, [40_000] * 2), read_workers(2, [])
    (1, 2, 1)
    """
    if workers is not None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        return max(1, min(workers, len(sizes)))
    if sum(sizes) < AUTO_MIN_BYTES:
        return 1
    return max(1, min(os.cpu_count() or 1, MAX_AUTO_WORKERS, len(sizes)))


class ReadAhead:
    """Reads planned jobs in ``workers`` processes, handing results over in order."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.workers = workers
        self._procs: list[ReaderProcess] = []
        self._free: queue.SimpleQueue[ReaderProcess] = queue.SimpleQueue()
        self._pool: ThreadPoolExecutor | None = None
        self._planned: list[ReadJob] = []
        self._submitted = 0
        #: a planned read's position in the plan, and its result to come
        self._futures: dict[_Key, tuple[int, Future[DocumentResult]]] = {}

    def __repr__(self) -> str:
        return (f"ReadAhead(workers={self.workers}, planned={len(self._planned)}, "
                f"in_flight={len(self._futures)})")

    def plan(self, jobs: Sequence[ReadJob]) -> None:
        """The batch's reads, in the order it will ask for them; the first ones start now."""
        self._planned = [j for j in jobs if _key(j) is not None]
        self._submitted = 0
        self._fill(0)

    def __call__(self, job: ReadJob) -> DocumentResult:
        """``job``'s result: read ahead when it was planned, else read now."""
        key = _key(job)
        planned = self._futures.pop(key, None) if key is not None else None
        if planned is None:
            return self._read(job)
        at, future = planned
        self._fill(at + 1)
        return future.result()

    def _fill(self, consumed: int) -> None:
        """Submit planned jobs until ``workers + 1`` are ahead of the ``consumed`` ones."""
        while self._submitted < min(len(self._planned), consumed + self.workers + 1):
            at, job = self._submitted, self._planned[self._submitted]
            self._submitted += 1
            key = _key(job)
            if key is not None and key not in self._futures:
                self._futures[key] = (at, self._executor().submit(self._read, job))

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._procs = borrow_workers(self.workers)
            for proc in self._procs:
                self._free.put(proc)
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="ragspine-read")
        return self._pool

    def _read(self, job: ReadJob) -> DocumentResult:
        """Read ``job`` in the next free worker (each worker reads one file at a time)."""
        self._executor()
        proc = self._free.get()
        try:
            return proc.read(job)
        finally:
            self._free.put(proc)

    def close(self) -> None:
        """Stop reading ahead: reads not started are dropped, running ones are stopped."""
        futures = [f for _, f in self._futures.values()]
        for future in futures:
            future.cancel()
        running = [f for f in futures if not f.done()]
        self._futures.clear()
        if running:  # a batch stopped early: its workers' current reads are not wanted
            for proc in self._procs:
                proc.close()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        give_back(self._procs)
        self._procs, self._pool = [], None
