"""Files read in a worker process, each within a deadline and a memory cap.

A file's library can run for hours or take gigabytes (a table that merges every row
into the one above, a part that parses into a tree ten times its size) long before any
limit of the reader is checked. So every file of a batch is read
(:func:`~ragspine_nb.extract.document.read_document`) in a worker process: the batch
waits at most ``max_seconds_per_file`` for it, then stops the worker and reports the
file failed; the worker caps its own address space at its size plus
``max_memory_bytes`` while it reads (where the system supports it), and an allocation
past it fails that file. Either way the reason names the limit, nothing is written for
the file and the batch goes on with a new worker.

One worker serves a whole batch (and the next batches of this process: starting one
costs about a second, its imports). :class:`ReaderProcess` is one worker and
:func:`batch_reader` lends one for a batch, so several could read side by side. The
worker is a plain ``python -c`` process (not :mod:`multiprocessing`): it never imports
the caller's ``__main__``, so a script without an ``if __name__ == "__main__"`` guard
can ingest.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ragspine_nb.extract.base import ExtractionError, IngestLimitError, exception_reason
from ragspine_nb.extract.chunking import DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS
from ragspine_nb.extract.document import DocumentResult, read_document
from ragspine_nb.extract.limits import DEFAULT_LIMITS, IngestLimits, LimitHit
from ragspine_nb.ingestion.memory import MemoryCap
from ragspine_nb.profile import DomainProfile

__all__ = ["ReadJob", "Reader", "read_in_process", "ReaderProcess", "batch_reader",
           "borrow_workers", "give_back", "START_SECONDS"]

#: Seconds a new worker may take to start (its imports), not counted in any file's deadline.
START_SECONDS = 120.0
#: Seconds an idle worker is kept for the next batch of this process.
IDLE_SECONDS = 60.0
_HEADER = struct.Struct(">Q")
_PACKAGE = __name__.partition(".")[0]
#: The worker's first lines: the parent's import path, then the package as a bare
#: namespace (its ``__init__`` imports the widgets and the agent, seconds the worker does
#: not need), then the readers.
_BOOT = ("import importlib.util, pickle, struct, sys\n"
         "n, = struct.unpack('>Q', sys.stdin.buffer.read(8))\n"
         "sys.path[:] = pickle.loads(sys.stdin.buffer.read(n))\n"
         f"spec = importlib.util.find_spec({_PACKAGE!r})\n"
         f"sys.modules[{_PACKAGE!r}] = importlib.util.module_from_spec(spec)\n"
         f"from {__name__} import serve\n"
         "serve()\n")


@dataclass(frozen=True)
class ReadJob:
    """One file to read and everything its reading depends on (it crosses processes)."""

    path: Path
    doc_id: str
    profile: DomainProfile
    metadata: Mapping[str, Any] = field(default_factory=dict)
    file_hash: str = ""
    mapping_version: str = ""
    max_chars: int = DEFAULT_CHUNK_CHARS
    overlap_chars: int = DEFAULT_OVERLAP_CHARS
    limits: IngestLimits = DEFAULT_LIMITS
    table_period: tuple[tuple[str, str], str] | None = None

    def run(self) -> DocumentResult:
        """Read the file in this process."""
        return read_document(self.path, self.doc_id, self.profile, metadata=self.metadata,
                             file_hash=self.file_hash, mapping_version=self.mapping_version,
                             max_chars=self.max_chars, overlap_chars=self.overlap_chars,
                             limits=self.limits, table_period=self.table_period)


#: Reads one job; raises :class:`~ragspine_nb.extract.base.ExtractionError` with the reason.
Reader = Callable[[ReadJob], DocumentResult]


def read_in_process(job: ReadJob) -> DocumentResult:
    """Read ``job`` here, with no deadline and no memory cap (tests, debugging)."""
    return job.run()


# ---------------------------------------------------------------------------- framing
def _send(stream: IO[bytes], message: object) -> None:
    blob = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(blob)) + blob)
    stream.flush()


def _receive(stream: IO[bytes]) -> object:
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError("the other process closed the pipe")
    (size,) = _HEADER.unpack(head)
    blob = stream.read(size)
    if len(blob) < size:
        raise EOFError("the other process closed the pipe")
    return pickle.loads(blob)  # noqa: S301 - our own worker's messages, on our own pipe


# ---------------------------------------------------------------------------- the worker
def serve() -> None:
    """The worker's loop: read jobs from stdin, answer on the original stdout, until EOF.

    Anything a library prints goes to stderr (stdout carries the answers only). After
    a file that ran out of memory, or grew the worker past half its cap, the worker
    exits (the parent starts a fresh one for the next file).
    """
    inp = sys.stdin.buffer
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    _send(out, ("ready", os.getpid()))
    while True:
        try:
            job = _receive(inp)
        except EOFError:
            return
        if not isinstance(job, ReadJob):
            return
        answer, again = _answer(job)
        _send(out, (*answer, again))
        if not again:
            return


def _answer(job: ReadJob) -> tuple[tuple[Any, ...], bool]:
    """The message for one job, and whether this worker may read another file."""
    cap = MemoryCap(job.limits.max_memory_bytes)
    failure: tuple[Any, ...] | None = None
    with cap:
        try:
            result: DocumentResult | None = job.run()
        except IngestLimitError as exc:
            result, failure = None, ("limit", exc.hit)
        except ExtractionError as exc:
            result, failure = None, ("error", str(exc))
        except MemoryError:
            result, failure = None, ("memory", "")
        except Exception as exc:  # a reader bug must not end the batch; report it
            result, failure = None, ("error", f"unexpected {type(exc).__name__}: "
                                              f"{exception_reason(exc, 'this file')}")
    if failure is not None and (failure[0] == "memory" or cap.exhausted()):
        hit = LimitHit("max_memory_bytes", job.limits.max_memory_bytes, "",
                       f"reading this file needed more memory{_said(failure)} and "
                       "nothing was written for it")
        return ("limit", hit), False
    if failure is not None:
        return failure, not cap.grown()
    return ("ok", result), not cap.grown()


def _said(failure: tuple[Any, ...]) -> str:
    """What a failure said, for the memory hit's words (no ``"; "`` in them)."""
    kind, value = failure
    said = value.describe() if kind == "limit" else str(value) if kind == "error" else ""
    return f" (it stopped with: {said.replace('; ', ', ')})" if said else ""


# ---------------------------------------------------------------------------- the parent
class ReaderProcess:
    """One worker process: started on first use, replaced after a deadline or a crash."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self.last_used = time.monotonic()

    @property
    def alive(self) -> bool:
        """Whether the worker process is running."""
        return self._proc is not None and self._proc.poll() is None

    def read(self, job: ReadJob) -> DocumentResult:
        """Read ``job`` in the worker within ``job.limits.max_seconds_per_file``.

        Raises
        ------
        IngestLimitError
            ``max_seconds_per_file`` (the worker was stopped) or ``max_memory_bytes``.
        ExtractionError
            The file cannot be read (the reader's reason), or the worker ended.
        """
        seconds = job.limits.max_seconds_per_file
        try:
            answer = _within(self._sent(job), seconds)
        except TimeoutError:
            self.close()
            raise IngestLimitError(LimitHit(
                "max_seconds_per_file", seconds, "",
                f"reading stopped at the per-file deadline ({seconds} s) and nothing "
                "was written for this file")) from None
        except EOFError:
            raise ExtractionError(self._ended(job)) from None
        except BaseException:  # interrupted: the worker's answer would come to the next file
            self.close()
            raise
        finally:
            self.last_used = time.monotonic()
        if not (isinstance(answer, tuple) and answer[-1:] == (True,)):
            self._reap()  # the worker ends after this file: a fresh one reads the next
        return _result_of(answer[:2] if isinstance(answer, tuple) else answer)

    def _sent(self, job: ReadJob) -> IO[bytes]:
        """Send ``job`` to the worker (started, or restarted once if it ended while idle)."""
        for attempt in (1, 2):
            proc = self._started()
            if proc.stdin is None or proc.stdout is None:
                raise ExtractionError("the reader process has no pipes; no file was read")
            try:
                _send(proc.stdin, job)
                return proc.stdout
            except OSError as exc:
                self.close()
                if attempt == 2:
                    raise ExtractionError(
                        "the reader process ended before it could read this file "
                        f"({exception_reason(exc, 'its pipe')}); nothing was written") from exc
        raise AssertionError("unreachable")

    def _ended(self, job: ReadJob) -> str:
        """Why the worker ended while it read ``job``, in words."""
        code = self._reap()
        if code is not None and code < 0 and -code == getattr(signal, "SIGKILL", None):
            return ("the reader process was killed (SIGKILL) while reading this file, most "
                    "likely because the system ran out of memory (max_memory_bytes="
                    f"{job.limits.max_memory_bytes}); nothing was written for it")
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return (f"the reader process crashed ({how}) while reading this file; nothing was "
                "written for it")

    def _started(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self._proc = None
        proc = subprocess.Popen([sys.executable, "-c", _BOOT], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, close_fds=True)
        try:
            if proc.stdin is None or proc.stdout is None:
                raise OSError("no pipes to the reader process")
            blob = pickle.dumps(list(sys.path))
            proc.stdin.write(_HEADER.pack(len(blob)) + blob)
            proc.stdin.flush()
            ready = _within(proc.stdout, START_SECONDS)
        except (OSError, EOFError, TimeoutError) as exc:
            _stop(proc)
            raise ExtractionError(
                "the reader process could not start "
                f"({exception_reason(exc, 'its start')}); no file was read") from exc
        except BaseException:
            _stop(proc)
            raise
        if not (isinstance(ready, tuple) and ready[:1] == ("ready",)):
            _stop(proc)
            raise ExtractionError("the reader process did not start properly; no file was read")
        self._proc = proc
        return proc

    def _reap(self) -> int | None:
        """Wait for the worker to end (5 s, then stop it), close its pipes: its exit code."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        _stop(proc)
        return proc.returncode

    def close(self) -> None:
        """Stop the worker (a new one starts on the next read)."""
        if self._proc is not None:
            _stop(self._proc)
        self._proc = None


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """End a worker now and reap it (its pipes closed)."""
    if proc.poll() is None:
        proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=10)
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def _within(stream: IO[bytes], seconds: float) -> object:
    """The next message on ``stream``, or :class:`TimeoutError` after ``seconds``."""
    box: list[object] = []
    failed: list[BaseException] = []

    def receive() -> None:
        try:
            box.append(_receive(stream))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            failed.append(exc)

    thread = threading.Thread(target=receive, name="ragspine-reader-wait", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {seconds} s")
    if failed:
        if isinstance(failed[0], EOFError | OSError | pickle.UnpicklingError):
            raise EOFError(str(failed[0]))
        raise failed[0]
    return box[0]


def _result_of(answer: object) -> DocumentResult:
    """The worker's answer as a result, or the exception it stands for."""
    kind, value = answer if isinstance(answer, tuple) and len(answer) == 2 else ("?", None)
    if kind == "ok" and isinstance(value, DocumentResult):
        return value
    if kind == "limit" and isinstance(value, LimitHit):
        raise IngestLimitError(value)
    if kind == "error" and isinstance(value, str) and value:
        raise ExtractionError(value)
    raise ExtractionError("the reader process gave an answer of an unknown kind; "
                          "nothing was written for this file")


# ---------------------------------------------------------------------------- the pool
_LOCK = threading.Lock()
_IDLE: list[ReaderProcess] = []
_TIMER: list[threading.Timer] = []


def borrow_workers(n: int) -> list[ReaderProcess]:
    """``n`` workers: this process's idle ones first, then new ones (started on first read)."""
    with _LOCK:
        taken = [_IDLE.pop() for _ in range(min(n, len(_IDLE)))]
    return taken + [ReaderProcess() for _ in range(n - len(taken))]


def give_back(workers: Iterable[ReaderProcess]) -> None:
    """Keep the running ones idle for the next batch (closed after :data:`IDLE_SECONDS`)."""
    with _LOCK:
        alive = [w for w in workers if w.alive]
        if alive:
            _IDLE.extend(alive)
            _close_later()


@contextlib.contextmanager
def batch_reader() -> Iterator[Reader]:
    """A worker for one batch (an idle one of this process, else a new one on first read)."""
    worker, = borrow_workers(1)
    try:
        yield worker.read
    finally:
        give_back([worker])


def _close_later() -> None:
    """Close the idle workers once none was used for :data:`IDLE_SECONDS`."""
    for timer in _TIMER:
        timer.cancel()
    _TIMER.clear()
    timer = threading.Timer(IDLE_SECONDS, _close_idle)
    timer.daemon = True
    timer.start()
    _TIMER.append(timer)


@atexit.register
def _close_idle() -> None:
    with _LOCK:
        idle = list(_IDLE)
        _IDLE.clear()
    for worker in idle:
        worker.close()
