"""Reading jobs that misbehave in the worker process (for tests/test_office_bounds.py).

They live apart from the tests: the worker unpickles them by importing this module, and
it imports only the readers, never the whole package.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.ingestion.worker import ReadJob


@dataclass(frozen=True)
class SlowJob(ReadJob):
    """A file whose reading never ends."""

    def run(self) -> DocumentResult:
        time.sleep(600)
        raise AssertionError("not stopped")


@dataclass(frozen=True)
class HungryJob(ReadJob):
    """A file whose reading takes all the memory it can."""

    def run(self) -> DocumentResult:
        hoard = [bytearray(2**20) for _ in range(100_000)]
        raise AssertionError(f"{len(hoard)} MiB allowed")


@dataclass(frozen=True)
class CrashingJob(ReadJob):
    """A file whose library ends the process."""

    def run(self) -> DocumentResult:
        os._exit(3)
