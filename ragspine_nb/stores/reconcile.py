"""Keep a workspace's two databases in agreement: one writer at a time, repair after a crash.

A document is ingested in three writes: its chunks are staged (a new, inactive
version in ``chunks.db``), then its facts and its ledger row are written in one
transaction of ``facts.db`` (the ledger last), then the staged chunks are activated.
A crash or a full disk between two writes leaves a staged version behind;
:func:`reconcile` settles it: activated when the ledger records the same ingestion
(its fingerprint), dropped otherwise, so the previous version stays the active one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore

__all__ = ["Repair", "reconcile", "writer_lock", "LOCK_FILE"]

#: The lock file a writer holds in the workspace folder.
LOCK_FILE = ".ingest.lock"


@dataclass(frozen=True)
class Repair:
    """What :func:`reconcile` did to one staged version."""

    doc_id: str
    version: int
    action: str  # "activated" or "dropped"

    def describe(self) -> str:
        """One line for a report."""
        if self.action == "activated":
            return (f"{self.doc_id}: chunk version {self.version} activated (its facts and "
                    "ledger had been written before the previous ingestion stopped)")
        return (f"{self.doc_id}: unfinished chunk version {self.version} dropped (its facts "
                "and ledger were never written); the previous version stays active")


def reconcile(facts: FactStore, chunks: ChunkStore) -> list[Repair]:
    """Activate or drop every staged chunk version; return what was done.

    A staged version whose fingerprint is the one in the document's ledger row was
    fully ingested except for its activation: it is activated. Any other staged
    version (no ledger row, or the ledger still describes the previous ingestion) is
    dropped. Run it only while holding :func:`writer_lock`.
    """
    repairs: list[Repair] = []
    for staged in chunks.staged_versions():
        ledger = facts.source_document(staged.doc_id)
        if ledger is not None and staged.fingerprint \
                and ledger["fingerprint"] == staged.fingerprint:
            chunks.activate_version(staged.doc_id, staged.version)
            repairs.append(Repair(staged.doc_id, staged.version, "activated"))
        else:
            chunks.drop_version(staged.doc_id, staged.version)
            repairs.append(Repair(staged.doc_id, staged.version, "dropped"))
    return repairs


@contextlib.contextmanager
def writer_lock(folder: str | Path) -> Iterator[bool]:
    """Hold the workspace's writer lock (an advisory ``flock``) for the ``with`` block.

    A second ingestion into the same workspace waits for the first, so it never
    reconciles a version the first is still writing. Yields False (and locks
    nothing) where the lock file cannot be created (a read-only folder: any write
    fails there anyway, with a clear error) or ``fcntl`` does not exist.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield False
        return
    try:
        handle = open(Path(folder) / LOCK_FILE, "a+b")  # noqa: SIM115 - held for the block
    except OSError:
        yield False
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
