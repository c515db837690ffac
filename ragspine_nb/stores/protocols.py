"""What the rest of the package uses from a fact store and a chunk store, as Protocols.

:class:`~ragspine_nb.stores.facts.FactStore` and
:class:`~ragspine_nb.stores.chunks.ChunkStore` satisfy them; the contract mixins
``FactStoreContract`` and ``ChunkStoreContract`` (the ``testing`` subpackage, which needs
pytest) check the behaviour behind them. Each store has a reader (what answering a
question reads) and a writer (the reader plus what ingestion writes), both over a
:class:`StoreHandle` (path, guarded reads, lifecycle):

* :class:`FactReader` — the agent's reads: ``lookup`` (``query_metric``, grounding),
  ``iter_facts``, ``metric_codes``, ``source_documents``, ``vocabularies``, ``sql_for``
  (the SQL an answer shows), ``query`` and ``count``.
* :class:`FactWriter` — ingestion's writes: ``replace_source_doc`` with the ledger
  (``source_document``) and the other documents' ``statements`` it compares against;
  ``upsert`` (a direct correction) and ``delete_by_source_doc`` (withdraw a document).
* :class:`ChunkReader` — the narrative index's reads: ``iter_chunks``, ``doc_ids``,
  ``count`` and ``to_frame``.
* :class:`ChunkWriter` — ``replace_doc_chunks`` (the index, a workspace push) and the
  two-step write of ingestion: ``stage_doc_chunks``, ``activate_version``,
  ``drop_version``, ``staged_versions`` (reconciliation).

Notes
-----
Left out on purpose: the conflict workflow (``conflicts``, ``resolved_conflicts``,
``resolve_conflict``, ``iter_statements``), used only by
:class:`~ragspine_nb.ingestion.workspace.Workspace` and the ``conflicts`` command, which open a
concrete ``FactStore`` themselves; and the connection a SQL-engine narrative index
shares with its chunk store, which is no Protocol's business. ``read_only`` is left out
too: reading it opens the database, which ``isinstance`` against a runtime-checkable
Protocol would do on Python 3.11.

The Protocols are ``runtime_checkable``: ``isinstance(obj, FactReader)`` checks that the
members exist, never their signatures or behaviour (the contract mixins do that).

Examples
--------
>>> from ragspine_nb.stores import ChunkStore, FactReader, FactStore, FactWriter
>>> isinstance(FactStore(":memory:"), FactWriter)
True
>>> isinstance(ChunkStore(":memory:"), FactReader)
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from ragspine_nb.core import (
    Chunk,
    ConflictResult,
    Fact,
    FoundResult,
    NotFoundResult,
    StoredChunk,
)
from ragspine_nb.stores.limits import ReadLimits
from ragspine_nb.vocabulary import Vocabulary

if TYPE_CHECKING:
    import pandas as pd

    from ragspine_nb.stores.chunks import StagedVersion

__all__ = ["StoreHandle", "FactReader", "FactWriter", "ChunkReader", "ChunkWriter"]


@runtime_checkable
class StoreHandle(Protocol):
    """A store's location, its guarded read entry point and its lifecycle.

    Notes
    -----
    ``execute_read`` runs one read-only statement with bound parameters and raises
    :class:`~ragspine_nb.errors.ReadOnlyQueryError` (changing nothing) for anything that
    would write. ``close`` may be called any number of times; the next use reopens the
    store. ``with store as s`` gives the store itself and closes it on exit.
    """

    @property
    def path(self) -> str:
        """The database path, ``":memory:"`` or a PostgreSQL URL."""
        ...

    def execute_read(self, sql: str, params: Sequence[Any] = (), *,
                     limits: ReadLimits | None = None) -> list[dict[str, Any]]:
        """Run one read-only SQL statement; one dict per row."""
        ...

    def close(self) -> None:
        """Close the connection (idempotent; the next use reopens it)."""
        ...

    def __enter__(self) -> Self:
        """Return the store itself."""
        ...

    def __exit__(self, *exc: object) -> None:
        """Close the store."""
        ...


@runtime_checkable
class FactReader(StoreHandle, Protocol):
    """The fact reads that answering a question uses.

    Notes
    -----
    A fact's identity is metric + entity + channel + period_type + period, matched
    exactly: a lookup never infers, rounds or picks between disagreeing documents.
    """

    def query(self, metric: str, entity: str, period_type: str, period: str,
              channel: str = "TOTAL") -> Fact | None:
        """The settled fact with exactly this identity, or ``None``."""
        ...

    def lookup(self, metric: str, entity: str, period_type: str, period: str,
               channel: str = "TOTAL") -> FoundResult | NotFoundResult | ConflictResult:
        """The fact with its sources, the conflict between documents, or not found."""
        ...

    def sql_for(self, metric: str, entity: str, period_type: str, period: str,
                channel: str = "TOTAL") -> tuple[str, tuple[str, ...]]:
        """The SQL and bound parameters :meth:`query` runs."""
        ...

    def iter_facts(self, **filters: str) -> list[Fact]:
        """Settled facts matching every filter, ordered by identity."""
        ...

    def metric_codes(self) -> frozenset[str]:
        """The metric codes with at least one stored fact."""
        ...

    def metric_channels(self, entity: str) -> frozenset[tuple[str, str]]:
        """The ``(metric_code, channel)`` pairs with a stored fact of ``entity``."""
        ...

    def count(self) -> int:
        """Number of settled facts."""
        ...

    def source_documents(self) -> list[dict[str, Any]]:
        """The ingestion ledger, one row per document, ordered by doc_id."""
        ...

    def vocabularies(self) -> dict[str, Vocabulary]:
        """Each document's derived vocabulary, by doc_id."""
        ...


@runtime_checkable
class FactWriter(FactReader, Protocol):
    """A fact store that ingestion writes: the reads plus per-document replacement.

    Notes
    -----
    A write of a batch is one transaction: an invalid fact or one without lineage
    (``source_doc_id``, ``source_locator``) rejects the whole batch and changes nothing.
    """

    def statements(self, metric: str, entity: str, period_type: str, period: str,
                   channel: str = "TOTAL") -> list[Fact]:
        """Every document's statement of one identity, ordered by document id."""
        ...

    def source_document(self, doc_id: str) -> dict[str, Any] | None:
        """The ledger row of one document, or ``None``."""
        ...

    def upsert(self, facts: Iterable[Fact]) -> int:
        """Write facts as the only statement of their identity; the number written."""
        ...

    def replace_source_doc(self, source_doc_id: str, facts: Iterable[Fact], *,
                           document: Mapping[str, object] | None = None,
                           vocabulary: Vocabulary | None = None) -> int:
        """Atomically replace one document's statements (and ledger row, vocabulary)."""
        ...

    def delete_by_source_doc(self, source_doc_id: str) -> int:
        """Withdraw one document's statements; the number deleted."""
        ...


@runtime_checkable
class ChunkReader(StoreHandle, Protocol):
    """The chunk reads of the narrative index.

    Notes
    -----
    Chunks come back with their sensitivity label exactly as written: filtering
    RESTRICTED text out of prompts is the reader's job, and it relies on the label.
    """

    def iter_chunks(self, *, doc_id: str | None = None, topic: str | None = None,
                    entity: str | None = None, geography: str | None = None,
                    period: str | None = None, language: str | None = None,
                    sensitivity: str | None = None,
                    include_inactive: bool = False) -> list[StoredChunk]:
        """Chunks matching every filter; active versions only unless asked."""
        ...

    def doc_ids(self, include_inactive: bool = False) -> list[str]:
        """Documents with active chunks (or any chunks), sorted."""
        ...

    def count(self, include_inactive: bool = False) -> int:
        """Number of chunks (active only by default)."""
        ...

    def to_frame(self, include_inactive: bool = False) -> pd.DataFrame:
        """Chunks as a pandas DataFrame."""
        ...


@runtime_checkable
class ChunkWriter(ChunkReader, Protocol):
    """A chunk store that ingestion writes: versioned, atomic per document.

    Notes
    -----
    A document's new version replaces the old one in one transaction; an empty version
    withdraws the document. A staged version stays invisible to readers until activated.
    """

    def replace_doc_chunks(self, doc_id: str, chunks: Sequence[Chunk], valid_as_of: str = "",
                           fingerprint: str = "") -> int:
        """Replace a document's chunks with a new active version; rows written."""
        ...

    def stage_doc_chunks(self, doc_id: str, chunks: Sequence[Chunk], valid_as_of: str = "",
                         fingerprint: str = "") -> int:
        """Write a new version inactive; its version number."""
        ...

    def activate_version(self, doc_id: str, version: int) -> int:
        """Make a staged version the active one; its chunk count."""
        ...

    def drop_version(self, doc_id: str, version: int) -> int:
        """Delete a staged version; the chunks deleted."""
        ...

    def staged_versions(self, doc_id: str | None = None) -> list[StagedVersion]:
        """Versions staged and not activated, oldest first."""
        ...
