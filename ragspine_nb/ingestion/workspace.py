"""Workspaces and batch ingestion: a folder of reports into a fact store and a chunk store.

A workspace is a folder holding ``facts.db`` (:class:`FactStore`, with the
``source_document`` ledger of what was ingested from which bytes and each document's
derived vocabulary), ``chunks.db`` (:class:`ChunkStore`) and the profile
(``profile.toml``/``.yaml``/``.json``; the built-in financial profile when none is given).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine_nb.core import FileReport, IngestReport, SkippedItem
from ragspine_nb.display import Card, CardReprMixin, Table
from ragspine_nb.errors import DatabaseNotFoundError, StoreError
from ragspine_nb.extract.chunking import DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS
from ragspine_nb.extract.collect import SourceFile, collect_files
from ragspine_nb.extract.limits import DEFAULT_LIMITS, IngestLimits
from ragspine_nb.extract.lineage import profile_fingerprint
from ragspine_nb.ingestion.batch import run_batch
from ragspine_nb.ingestion.metadata import load_metadata
from ragspine_nb.ingestion.steps import Settings
from ragspine_nb.profile import PROFILE_FORMATS, DomainProfile, find_profile
from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.stores.reconcile import Repair, reconcile, writer_lock
from ragspine_nb.vocabulary import effective_profile

__all__ = ["Workspace", "ingest", "load_metadata", "find_profile", "FACTS_DB", "CHUNKS_DB"]

FACTS_DB = "facts.db"
CHUNKS_DB = "chunks.db"


def _resolve_profile(profile: DomainProfile | str | Path | None, folder: Path) -> DomainProfile:
    if isinstance(profile, DomainProfile):
        return profile
    path = Path(profile) if profile is not None else find_profile(folder)
    if path is None:  # no handwritten profile needed
        return DomainProfile.builtin()
    return DomainProfile.from_file(path)


def _same_file(a: Path, b: Path | None) -> bool:
    return b is not None and a.exists() and a.resolve() == b.resolve()


class Workspace(CardReprMixin):
    """A folder with a profile, ``facts.db`` and ``chunks.db``.

    Parameters
    ----------
    path : str or Path
        The folder.
    profile : DomainProfile or str or Path, optional
        The profile or its file; defaults to the one stored in the folder, else the
        built-in financial profile (:meth:`DomainProfile.builtin`).
    create : bool, default False
        Create the folder, the stores and a copy of the profile when absent. When
        False a missing store raises :class:`~ragspine_nb.errors.DatabaseNotFoundError`
        and nothing is created.
    """

    def __init__(self, path: str | Path, profile: DomainProfile | str | Path | None = None,
                 *, create: bool = False) -> None:
        self.path = Path(path)
        if not create:
            for name in (FACTS_DB, CHUNKS_DB):
                if not (self.path / name).is_file():
                    raise DatabaseNotFoundError(
                        f"no store at {self.path / name}. Build it first with "
                        "`ragspine-nb ingest` or `ragspine-nb demo`; nothing was created.")
        self.profile = _resolve_profile(profile, self.path)
        if create:
            self.path.mkdir(parents=True, exist_ok=True)
            self._save_profile(profile)
        self.facts = FactStore(self.path / FACTS_DB, create=create)
        self.chunks = ChunkStore(self.path / CHUNKS_DB, create=create)
        if create:  # materialise both files and schemas now
            self.facts.count()
            self.chunks.count()

    def _save_profile(self, source: DomainProfile | str | Path | None) -> None:
        if source is None and find_profile(self.path) is not None:
            return
        if isinstance(source, str | Path) and _same_file(Path(source), find_profile(self.path)):
            return  # already this workspace's profile (deleting it first would lose it)
        for old in PROFILE_FORMATS:
            (self.path / f"profile{old}").unlink(missing_ok=True)
        if isinstance(source, str | Path):
            src = Path(source)
            shutil.copyfile(src, self.path / f"profile{src.suffix.lower()}")
        else:
            (self.path / "profile.json").write_text(
                json.dumps(self.profile.to_dict(), ensure_ascii=False, indent=1), "utf-8")

    def effective_profile(self) -> DomainProfile:
        """The profile the agent uses: :attr:`profile` with every document's derived vocabulary.

        The profile wins wherever it speaks (:func:`~ragspine_nb.vocabulary.merge_vocabulary`).
        On the built-in profile, when every document that states facts names one and the
        same company (metadata ``company``), that company is the home entity ("the company").
        """
        documents = [d["doc_id"] for d in self.facts.source_documents() if d["facts"]]
        return effective_profile(self.profile, self.facts.vocabularies(), documents)

    def ingest(self, paths: str | Path | Iterable[str | Path], **kwargs: Any) -> IngestReport:
        """Ingest files or folders into this workspace (see :func:`ingest`)."""
        return ingest(paths, workspace=self.path, profile=self.profile, **kwargs)

    def push(self, url: str) -> tuple[FactStore, ChunkStore]:
        """Copy this workspace into a shared database (e.g. ``postgresql://...``).

        Every document's statements go in with its ledger row and derived vocabulary
        (one transaction per document), so facts two documents state differently arrive
        as the same open conflict, and the choices users recorded here follow them (with
        who, when and the note). Each document's active chunks go in as a new version, so
        pushing again after re-ingesting a file replaces that file's facts and chunks
        atomically, as ingestion does. Returns the two stores on ``url``.
        """
        facts, chunks = FactStore(url), ChunkStore(url)
        ledger = {d["doc_id"]: d for d in self.facts.source_documents()}
        vocabularies = self.facts.vocabularies()
        by_doc: dict[str, list[Any]] = {}
        for f in self.facts.iter_statements():
            by_doc.setdefault(f.source_doc_id, []).append(f)
        for doc in sorted(set(by_doc) | set(ledger) | set(vocabularies)):
            facts.replace_source_doc(doc, by_doc.get(doc, []), document=ledger.get(doc),
                                     vocabulary=vocabularies.get(doc))
        for found in self.facts.resolved_conflicts():
            f, choice = found.fact, found.resolution
            if choice is not None:
                facts.resolve_conflict(f.metric_code, f.entity, f.period_type, f.period,
                                       f.channel, keep=choice.keep_doc_id, note=choice.note,
                                       by=choice.resolved_by, at=choice.resolved_at)
        for doc in self.chunks.doc_ids():
            chunks.replace_doc_chunks(doc, self.chunks.iter_chunks(doc_id=doc))
        return facts, chunks

    def reconcile(self) -> list[Repair]:
        """Settle chunk versions an interrupted ingestion left staged; return what was done.

        A version whose facts and ledger row were written is activated; any other is
        dropped, so each document is whole in its previous or its new version (see
        :mod:`ragspine_nb.stores.reconcile`). :func:`ingest` runs this first.
        """
        return reconcile(self.facts, self.chunks)

    def close(self) -> None:
        """Close both stores."""
        self.facts.close()
        self.chunks.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def companies(self) -> dict[str, list[str]]:
        """Each company its documents name themselves → the periods of its filings."""
        out: dict[str, list[str]] = {}
        for row in self.facts.document_identities().values():
            if row["company"]:
                periods = out.setdefault(row["company"], [])
                if row["period"] and row["period"] not in periods:
                    periods.append(row["period"])
        return {k: sorted(v) for k, v in sorted(out.items())}

    def __repr__(self) -> str:
        named = [f"{c} ({', '.join(p)})" if p else c for c, p in self.companies().items()]
        return (f"Workspace(path={str(self.path)!r}, facts={self.facts.count()}, "
                f"chunks={self.chunks.count()}" + (f", companies={named}" if named else "") + ")")

    def _display_card(self) -> Card:
        rows = tuple((doc, w["company"], w["period"], w["fiscal_year_end"], w["doc_type"],
                      w["sources"]) for doc, w in self.facts.document_identities().items())
        docs = Table("Documents: who filed them, for which period (read from each document)",
                     ("doc", "company", "period", "fiscal year end", "type", "read from"),
                     rows[:50], len(rows))
        return Card(title="Workspace", subtitle=str(self.path), tables=(docs,) if rows else (),
                    stats=(("facts", f"{self.facts.count():,}"), ("chunks",
                           f"{self.chunks.count():,}"), ("companies", str(len(self.companies())))))


def ingest(paths: str | Path | Iterable[str | Path], workspace: str | Path = "ws",
           profile: DomainProfile | str | Path | None = None, *, dry_run: bool = False,
           metadata: Mapping[str, Mapping[str, Any]] | str | Path | None = None,
           progress: bool = True, max_chars: int = DEFAULT_CHUNK_CHARS,
           overlap_chars: int = DEFAULT_OVERLAP_CHARS,
           limits: IngestLimits | None = None, worker: bool = True,
           workers: int | None = None) -> IngestReport:
    """Ingest report files and folders into a workspace.

    One bad file never aborts the batch: each file ends ``ingested``,
    ``skipped_unchanged`` (same bytes, profile, metadata and extractor as last time:
    nothing is written), ``failed`` (with the reason: unreadable, over a limit, out of
    memory, past its deadline, a symbolic link leaving the folder, control characters in
    its name, a store error) or ``no_text``. Files are read in a worker process that is
    stopped at ``limits.max_seconds_per_file`` and capped at ``limits.max_memory_bytes``.
    A changed file replaces its previous facts and chunks
    without ever being half-written: its chunks are staged, its facts and ledger row
    written in one transaction, then the chunks activated; an interrupted document is
    settled by :meth:`Workspace.reconcile` at the start of the next ingestion. A full
    disk or a read-only workspace stops the batch: that file and the later ones end
    ``failed`` and :attr:`IngestReport.error` says why; what was written before stays.
    ``dry_run=True`` writes nothing — no folder, no database — and returns the same
    report.

    Parameters
    ----------
    paths : path or list of paths
        Files and folders (folders are read recursively; hidden and ``~$`` files are
        ignored). A document's id is its path relative to the folder given, or its name.
    workspace : str or Path, default "ws"
        The workspace folder (created unless ``dry_run``).
    profile : DomainProfile or path, optional
        Defaults to the profile stored in the workspace; a workspace without one starts
        from the built-in financial profile (:meth:`DomainProfile.builtin`, saved there).
    dry_run : bool, default False
        Read and report only.
    metadata : mapping or path, optional
        ``{doc_id: {title, topic, entity, company, geography, period, language,
        sensitivity, valid_as_of}}``, or a TOML/JSON/YAML file of that shape. ``company``
        names the document's company (an entity of its own unless the profile knows it).
    progress : bool, default True
        Show a progress bar for folders.
    max_chars, overlap_chars : int
        Chunk size and overlap (see :func:`~ragspine_nb.extract.chunking.chunk_document`).
    limits : IngestLimits, optional
        Per-document bounds: file size, the uncompressed size of Office parts, shared
        strings, title length, chunks, table cells, facts, skipped cells listed, and the
        seconds and memory reading one file may take
        (:class:`~ragspine_nb.extract.limits.IngestLimits`; its defaults when omitted). A
        limit reached is named in the file's reason and the report's warnings, with its
        value and the locator where reading stopped.
    worker : bool, default True
        Read each file in a worker process (within the deadline and memory cap of
        ``limits``). ``False`` reads in this process with neither bound: for debugging
        a reader, never for files from elsewhere.
    workers : int, optional
        Worker processes reading files at once, ahead of the one being written (the
        report, facts and chunks are the same). Default: one per core, at most 4, when
        the files weigh 2 MB or more (a folder of filings), else one.

    Returns
    -------
    IngestReport
        One row per file plus every skipped cell, row and column.

    Examples
    --------
    >>> from ragspine_nb import ingest
    >>> report = ingest("ragspine_nb/demo/reports", workspace="ws",
    ...                 profile="ragspine_nb/demo/profile.toml")  # doctest: +SKIP
    """
    return _run_ingest(_IngestArgs(paths, workspace, profile, dry_run, metadata, progress,
                                   max_chars, overlap_chars, limits, worker, workers))


@dataclass(frozen=True)
class _IngestArgs:
    """The arguments of one :func:`ingest` call, as given."""

    paths: str | Path | Iterable[str | Path]
    workspace: str | Path
    profile: DomainProfile | str | Path | None
    dry_run: bool
    metadata: Mapping[str, Mapping[str, Any]] | str | Path | None
    progress: bool
    max_chars: int
    overlap_chars: int
    limits: IngestLimits | None
    worker: bool = True
    workers: int | None = None


@dataclass(frozen=True)
class _IngestPlan:
    """What one batch reads, with which settings, into which folder (nothing opened yet)."""

    items: list[Path]
    ws_path: Path
    profile: DomainProfile
    meta_by_doc: dict[str, dict[str, Any]]
    settings: Settings
    files: list[SourceFile]


@dataclass(frozen=True)
class _BatchOutcome:
    """What running the batch did: repairs made first, one report per file, why it stopped."""

    repairs: list[Repair]
    reports: list[FileReport]
    skipped: list[SkippedItem]
    error: str


def _run_ingest(args: _IngestArgs) -> IngestReport:
    """:func:`ingest`: plan the batch, run it on the workspace, report."""
    started = time.perf_counter()
    plan = _plan_ingest(args)
    ws, error = _open_for_ingest(plan.ws_path, args.profile, plan.profile, args.dry_run)
    show = args.progress and any(p.is_dir() for p in plan.items)
    try:
        outcome = _run_batch_in(ws, plan, args.dry_run, show, error)
    finally:
        if ws is not None:
            ws.close()
    return IngestReport(tuple(outcome.reports), tuple(outcome.skipped), str(plan.ws_path),
                        args.dry_run, tuple(_ingest_warnings(plan, outcome)),
                        seconds=time.perf_counter() - started, error=outcome.error)


def _plan_ingest(args: _IngestArgs) -> _IngestPlan:
    """Check the paths exist, resolve the profile and metadata, and list the files."""
    paths = args.paths
    items = [Path(paths)] if isinstance(paths, str | Path) else [Path(p) for p in paths]
    missing = [str(p) for p in items if not p.exists()]
    if missing:
        raise FileNotFoundError(f"no such file or folder: {missing}")
    ws_path = Path(args.workspace)
    prof = _resolve_profile(args.profile, ws_path)
    meta_by_doc = load_metadata(args.metadata)
    settings = Settings(prof, profile_fingerprint(prof), args.dry_run, args.max_chars,
                        args.overlap_chars, args.limits or DEFAULT_LIMITS, worker=args.worker,
                        workers=args.workers)
    return _IngestPlan(items, ws_path, prof, meta_by_doc, settings, collect_files(items))


def _run_batch_in(ws: Workspace | None, plan: _IngestPlan, dry_run: bool, show: bool,
                  error: str) -> _BatchOutcome:
    """Run the batch under the writer lock (after reconciling) when it writes."""
    writing = ws is not None and not dry_run
    with writer_lock(plan.ws_path) if writing else contextlib.nullcontext(False):
        repairs, error = _reconciled(ws) if writing and ws is not None else ([], error)
        reports, skipped, error = run_batch(plan.files, ws.facts if ws else None,
                                            ws.chunks if ws else None, plan.settings,
                                            plan.meta_by_doc, show, error)
    return _BatchOutcome(repairs, reports, skipped, error)


def _ingest_warnings(plan: _IngestPlan, outcome: _BatchOutcome) -> list[str]:
    """Repairs made, limits reached, and metadata given for documents not in the batch."""
    unused = sorted(set(plan.meta_by_doc) - {f.doc_id for f in plan.files})
    warnings = [r.describe() for r in outcome.repairs]
    warnings += [f"{r.doc_id}: {part}" for r in outcome.reports
                 for part in r.reason.split("; ") if part.startswith("limit ")]
    if unused:
        warnings.append(f"metadata given for documents not in this batch: {unused}")
    return warnings


def _open_for_ingest(ws_path: Path, profile: DomainProfile | str | Path | None,
                     prof: DomainProfile, dry_run: bool) -> tuple[Workspace | None, str]:
    """The workspace to write (or, for a dry run, to compare with), or why it cannot be."""
    if dry_run:
        if (ws_path / FACTS_DB).is_file() and (ws_path / CHUNKS_DB).is_file():
            return Workspace(ws_path, prof), ""
        return None, ""
    try:
        return Workspace(ws_path, profile, create=True), ""
    except (StoreError, OSError) as exc:
        return None, f"cannot write the workspace {ws_path}: {exc}"


def _reconciled(ws: Workspace) -> tuple[list[Repair], str]:
    """Reconcile before writing; if that fails nothing is written (the batch stops)."""
    try:
        return ws.reconcile(), ""
    except Exception as exc:  # a store that cannot be written, or cannot be read
        return [], f"cannot reconcile the workspace before writing: {exc}"
