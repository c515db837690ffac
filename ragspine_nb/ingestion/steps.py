"""The steps of ingesting one file: read it within limits, write it without half-writes.

:func:`read_step` checks the file against the limits, hashes it, skips it when the
ledger records the same ingestion (:func:`plan_read`), and reads it (with the batch's
reader: a worker process bounded in time and memory, :mod:`ragspine_nb.ingestion.worker`,
or several reading ahead, :mod:`ragspine_nb.ingestion.read_ahead`); every reading
problem becomes a ``failed`` :class:`~ragspine_nb.core.FileReport` with its reason
(memory and the per-file deadline included).
:func:`write_step` writes what was read in the order that keeps the two databases in
agreement (chunks staged, facts and ledger in one transaction, chunks activated; see
:mod:`ragspine_nb.stores.reconcile`). :func:`store_failure` turns a store error into a
file's reason and says whether the batch must stop (a full disk, a read-only store).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ragspine_nb.core import Fact, FileReport, SkippedItem, is_restricted
from ragspine_nb.errors import DiskFullError, ReadOnlyStoreError, StoreError
from ragspine_nb.extract.base import READER_VERSIONS, ExtractionError, exception_reason
from ragspine_nb.extract.chunking import CHUNKER_VERSION
from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.extract.identity import IDENTITY_VERSION
from ragspine_nb.extract.limits import (
    DEFAULT_LIMITS,
    GUARD_LIMITS,
    IngestLimits,
    LimitHit,
    file_size_hit,
)
from ragspine_nb.extract.lineage import file_sha256
from ragspine_nb.ingestion.context import BatchContext, with_siblings
from ragspine_nb.ingestion.registrant import file_under_filer, same_filer_entity
from ragspine_nb.ingestion.worker import Reader, ReadJob, read_in_process
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import policy_fingerprint
from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore, utc_now
from ragspine_nb.stores.statements import same_value

__all__ = ["Settings", "Read", "plan_read", "read_step", "write_step", "store_failure",
           "fingerprint", "statements_step", "finish_step", "ingest_file", "FATAL_ERRORS",
           "CONFLICT", "listed_cells"]

#: Store errors after which no later file of the batch can be written either.
FATAL_ERRORS: tuple[type[StoreError], ...] = (DiskFullError, ReadOnlyStoreError)
#: How the note of a conflict starts (never hidden behind ``max_skipped_per_doc``).
CONFLICT = "CONFLICT"


@dataclass(frozen=True)
class Settings:
    """What every file of one batch is read and written with."""

    profile: DomainProfile
    mapping: str
    dry_run: bool
    max_chars: int
    overlap_chars: int
    limits: IngestLimits = DEFAULT_LIMITS
    #: the batch's folders (a table's scale may come from the prose beside it)
    batch: BatchContext | None = None
    #: whether a batch reads its files in a worker process, within ``max_seconds_per_file``
    #: and ``max_memory_bytes`` (False: in this process with neither bound, for debugging
    #: and tests that patch a reader)
    worker: bool = True
    #: how many workers read a batch's files at once (``None``: chosen by the files' size,
    #: :func:`~ragspine_nb.ingestion.read_ahead.read_workers`)
    workers: int | None = None
    #: what reads one file (a batch sets its worker's; :func:`ingest_file` alone reads here)
    reader: Reader = read_in_process


@dataclass(frozen=True)
class Read:
    """A file read and ready to be written."""

    result: DocumentResult
    file_hash: str
    fingerprint: str


def fingerprint(file_hash: str, suffix: str, mapping: str, meta: Mapping[str, Any],
                max_chars: int, overlap_chars: int, limits: IngestLimits = DEFAULT_LIMITS,
                policy: str = "") -> str:
    """What an ingestion depends on; the same fingerprint means nothing to redo.

    Non-default limits are part of it (raising a limit re-reads a file that hit it);
    the default limits are not, so existing ledgers stay valid, nor are the limits that
    only fail a file (:data:`~ragspine_nb.extract.limits.GUARD_LIMITS`). ``policy`` (the
    sensitivity policy and classifier version, :func:`policy_fingerprint`) is part of
    it, so a new restricted pattern, keyword or level re-classifies unchanged files;
    so is the chunker's version (a file cut into other chunks is read again).
    """
    parts: list[Any] = [file_hash, READER_VERSIONS.get(suffix, ""), mapping, dict(meta),
                        max_chars, overlap_chars, policy, IDENTITY_VERSION, CHUNKER_VERSION]
    kept = {k: v for k, v in limits.as_dict().items() if k not in GUARD_LIMITS}
    if kept != {k: v for k, v in DEFAULT_LIMITS.as_dict().items() if k not in GUARD_LIMITS}:
        parts.append(kept)
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _failed(path: Path, doc_id: str, reason: str) -> FileReport:
    return FileReport(str(path), doc_id, "failed", reason=reason)


def _unchanged(path: Path, doc_id: str, previous: Mapping[str, Any], file_hash: str
               ) -> FileReport:
    return FileReport(str(path), doc_id, "skipped_unchanged",
                      reason="same bytes, profile and metadata as the last ingestion",
                      facts=previous["facts"], chunks=previous["chunks"],
                      extractor=previous["extractor_version"],
                      sensitivity=previous["sensitivity"], file_hash=file_hash)


def plan_read(path: Path, doc_id: str, facts: FactStore | None, meta: Mapping[str, Any],
              s: Settings) -> tuple[ReadJob, str] | FileReport:
    """What reading one file takes (its job and ledger fingerprint), or why it needs none.

    A file over a size limit fails; one the ledger records with the same fingerprint is
    ``skipped_unchanged``. Store and OS errors propagate (:func:`read_step` reports them).
    """
    hit = file_size_hit(path.stat().st_size, s.limits)
    if hit is not None:
        return _failed(path, doc_id, hit.describe())
    file_hash = file_sha256(path)
    key = fingerprint(file_hash, path.suffix.lower(), s.mapping, meta, s.max_chars,
                      s.overlap_chars, s.limits, policy_fingerprint(s.profile))
    previous = facts.source_document(doc_id) if facts is not None else None
    if previous is not None and _same_ingestion(previous["fingerprint"], key, path, s):
        return _unchanged(path, doc_id, previous, file_hash)
    return ReadJob(path, doc_id, s.profile, dict(meta), file_hash, s.mapping, s.max_chars,
                   s.overlap_chars, s.limits), key


def read_step(path: Path, doc_id: str, facts: FactStore | None, meta: Mapping[str, Any],
              s: Settings) -> Read | FileReport:
    """Read one file, or the report that says why it is not read (or needs no reading).

    Store errors (reading the ledger) propagate: the batch decides what they mean.
    """
    out_of_memory = False
    try:
        planned = plan_read(path, doc_id, facts, meta, s)
        if isinstance(planned, FileReport):
            return planned
        job, key = planned
        result = s.reader(job)
    except StoreError:
        raise
    except (ExtractionError, OSError) as exc:
        return _failed(path, doc_id, exception_reason(exc, "this file"))
    except MemoryError:  # what was allocated is freed when this block ends
        out_of_memory = True
    except Exception as exc:  # a reader bug must not abort the batch; report it
        return _failed(path, doc_id, f"unexpected {type(exc).__name__}: "
                                     f"{exception_reason(exc, 'this file')}")
    if out_of_memory:
        return _failed(path, doc_id, "out of memory while reading this file; nothing was "
                       "written (lower the limits or split the file)")
    return Read(result, job.file_hash, key)


def _same_ingestion(stored: str, key: str, path: Path, s: Settings) -> bool:
    """The ledger's fingerprint is this ingestion's (with the same folder, when it counted)."""
    if stored == key:
        return True
    return s.batch is not None and stored.startswith(f"{key}+") and \
        stored == with_siblings(key, s.batch.sibling_digest(path))


def _drop_quietly(chunks: ChunkStore, doc_id: str, version: int) -> None:
    try:
        chunks.drop_version(doc_id, version)
    except Exception:  # noqa: S110 - the next ingestion's reconcile drops it
        pass


def write_step(facts: FactStore, chunks: ChunkStore, path: Path, read: Read,
               valid_as_of: str) -> None:
    """Write one document: chunks staged, facts with the ledger row (last), chunks activated.

    The document's derived vocabulary is written with its facts, in their transaction.

    If the facts write fails the staged chunks are dropped (or left for the next
    reconcile) and the previous version of the document stays whole.
    """
    result, doc_id = read.result, read.result.doc_id
    version = None
    if result.chunks or chunks.iter_chunks(doc_id=doc_id):
        version = chunks.stage_doc_chunks(doc_id, list(result.chunks), valid_as_of=valid_as_of,
                                          fingerprint=read.fingerprint)
    try:
        facts.replace_source_doc(doc_id, result.facts, document={
            "doc_id": doc_id, "path": str(path), "file_hash": read.file_hash,
            "fingerprint": read.fingerprint, "extractor_version": result.extractor_version,
            "title": result.title, "sensitivity": result.sensitivity,
            "facts": len(result.facts), "chunks": len(result.chunks), "ingested_at": utc_now(),
        }, vocabulary=result.vocabulary, identity=_identity_row(result))
    except BaseException:
        if version is not None:
            _drop_quietly(chunks, doc_id, version)
        raise
    if version is not None:
        chunks.activate_version(doc_id, version)


def _filer_step(result: DocumentResult, facts: FactStore | None) -> DocumentResult:
    """A filer the workspace knows under another name: this document joins its entity."""
    if facts is None or not result.identity.registrant:
        return result
    own = _own_entity(result)
    entity, company = same_filer_entity(result.identity.registrant, own, result.doc_id,
                                        facts.document_identities())
    if not entity:
        return result
    moved = file_under_filer(result, own, entity)
    return replace(moved, warnings=(*moved.warnings, (
        f"registrant {result.identity.registrant} is {company or entity} of another "
        f"document: filed under {entity}")))


def _own_entity(result: DocumentResult) -> str:
    """The document's own entity, as its chunks carry it (else its first fact's)."""
    return next((c.entity for c in result.chunks if c.entity), "") or next(
        (f.entity for f in result.facts), "")


def _identity_row(result: DocumentResult) -> dict[str, str] | None:
    """The ledger's identity row of a document that names its company or period."""
    who = result.identity
    if is_restricted(result.sensitivity) or not (who.company or who.period or who.doc_type):
        return None  # a RESTRICTED document's names stay out of the workspace's lists
    return {**who.to_row(), "entity": _own_entity(result)}


def store_failure(exc: BaseException) -> tuple[str, bool]:
    """The reason a file failed on a store error or memory, and whether the batch must stop."""
    if isinstance(exc, MemoryError):
        return ("out of memory while writing this file; it was rolled back and the "
                "previous version is kept"), False
    fatal = isinstance(exc, FATAL_ERRORS)
    return f"not written: {exc}", fatal


def statements_step(facts: Iterable[Fact], doc_id: str, store: FactStore | None
                    ) -> tuple[list[Fact], list[SkippedItem]]:
    """One statement per fact identity from this document; report every disagreement.

    Inside the document a repeated identity stating the same amount keeps its first
    cell; one stating another amount is withheld altogether (both cells reported: the
    document gives no single number, so none is answered). Across documents every
    statement is kept and file order decides nothing: another document stating the
    identity differently makes a conflict, reported here and answered with both values
    and sources until a user resolves it (``ragspine-nb conflicts``).
    """
    first_of: dict[tuple[str, ...], Fact] = {}
    withheld: set[tuple[str, ...]] = set()
    notes: list[SkippedItem] = []
    for f in facts:
        key = f.identity
        first = first_of.setdefault(key, f)
        if first is f:
            continue
        if same_value(first, f):
            notes.append(SkippedItem(doc_id, f.source_locator, "same fact already stated in "
                                     f"this document at {first.source_locator}; kept that cell"))
            continue
        withheld.add(key)
        notes.append(SkippedItem(doc_id, f.source_locator, (
            f"{CONFLICT} inside this document: {first.source_locator} states {first.value:g} "
            f"{first.unit}, this cell {f.value:g} {f.unit}; neither is answered, check the "
            "document")))
    kept = [f for k, f in first_of.items() if k not in withheld]
    for f in kept:
        others = store.statements(f.metric_code, f.entity, f.period_type, f.period,
                                  f.channel) if store is not None else []
        notes += [SkippedItem(doc_id, f.source_locator, (
            f"{CONFLICT} (kept, not skipped): {o.source_doc_id} ({o.source_locator}) states "
            f"{o.value:g} {o.unit}, this cell {f.value:g} {f.unit}; answered as a conflict "
            "with both sources until resolved (ragspine-nb conflicts)"))
            for o in others if o.source_doc_id != doc_id and not same_value(o, f)]
    return kept, notes


_SKIPPED = "max_skipped_per_doc"


def listed_cells(cells: Sequence[SkippedItem], hits: Sequence[LimitHit], cap: int
                 ) -> tuple[list[SkippedItem], list[LimitHit]]:
    """The cells a report lists, and the limits reached with ``max_skipped_per_doc`` in one.

    Every conflict is listed (a disagreement between documents is never hidden behind
    the cap); other cells are listed up to ``cap``, in their order. The cells the reader
    already left unlisted (its ``max_skipped_per_doc`` hit) and the ones cut here are
    counted in one hit.
    """
    listed: list[SkippedItem] = []
    others = cut = 0
    for cell in cells:
        if cell.reason.startswith(CONFLICT) or others < cap:
            listed.append(cell)
            others += not cell.reason.startswith(CONFLICT)
        else:
            cut += 1
    earlier = next((h for h in hits if h.limit == _SKIPPED), None)
    if not cut:
        return listed, list(hits)
    total = cut + (earlier.count if earlier is not None else 0)
    merged = LimitHit(_SKIPPED, cap, earlier.locator if earlier is not None else "",
                      f"{total:,} more skipped cells were counted but not listed", total)
    if earlier is None:
        return listed, [*hits, merged]
    return listed, [merged if h is earlier else h for h in hits]


def _reason(result: DocumentResult, status: str, hits: list[str],
            cells: Sequence[SkippedItem] = ()) -> str:
    """Why a file gave what it gave; a file that gave nothing names what it could not read."""
    reason = "; ".join([*result.warnings, *hits])
    unread = list(dict.fromkeys(f"{c.locator}: {c.reason}" for c in cells))
    named = "; ".join(unread[:3]) + (f"; {len(unread) - 3} more" if len(unread) > 3 else "")
    if status != "no_text":  # text read, but tables found and none turned into facts
        lead = f"tables found but not turned into facts: {named}" \
            if unread and not result.facts and not is_restricted(result.sensitivity) else ""
    elif is_restricted(result.sensitivity):
        lead = "no text, and a RESTRICTED document's table values are not extracted"
    else:
        lead = f"no facts and no text: {named}" if unread else "no text and no table values found"
    return "; ".join(filter(None, [lead, reason]))


def ingest_file(path: Path, doc_id: str, facts: FactStore | None, chunks: ChunkStore | None,
                meta: Mapping[str, Any], s: Settings) -> tuple[FileReport, list[SkippedItem]]:
    """Read, check and (unless a dry run) write one file; its report and skipped cells.

    ``facts`` and ``chunks`` are the workspace's stores (``None`` in a dry run without
    a workspace). Store errors propagate: the batch decides what they mean.
    """
    read = read_step(path, doc_id, facts, meta, s)
    if not isinstance(read, Read):
        return read, []
    return finish_step(path, read, facts, chunks, meta, s)


def finish_step(path: Path, read: Read, facts: FactStore | None, chunks: ChunkStore | None,
                meta: Mapping[str, Any], s: Settings) -> tuple[FileReport, list[SkippedItem]]:
    """Check one read file's statements and limits, and (unless a dry run) write it.

    A document with amounts of no stated scale is recorded with its folder's digest
    (:func:`~ragspine_nb.ingestion.context.with_siblings`): the prose beside it decided them.
    """
    result, doc_id = read.result, read.result.doc_id
    if result.unscaled and s.batch is not None:
        read = replace(read, fingerprint=with_siblings(read.fingerprint,
                                                       s.batch.sibling_digest(path)))
    cells = [SkippedItem(doc_id, k.locator, k.reason) for k in result.skipped]
    result = _filer_step(result, facts)
    kept, notes = statements_step(result.facts, doc_id, facts)
    cells += notes
    result = replace(result, facts=tuple(kept))
    status = "ingested" if (result.facts or result.chunks) else "no_text"
    counted = len(cells) + sum(h.count for h in result.limit_hits if h.limit == _SKIPPED)
    cells, limit_hits = listed_cells(cells, result.limit_hits, s.limits.max_skipped_per_doc)
    hits = [h.describe() for h in limit_hits]
    if not s.dry_run and facts is not None and chunks is not None:
        write_step(facts, chunks, path, replace(read, result=result),
                   str(meta.get("valid_as_of", "")))
    return FileReport(str(path), doc_id, status, reason=_reason(result, status, hits, cells),
                      facts=len(result.facts), chunks=len(result.chunks), skipped=counted,
                      extractor=result.extractor_version, sensitivity=result.sensitivity,
                      file_hash=read.file_hash), cells
