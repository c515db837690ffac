"""Workspaces and batch ingestion: a folder of reports into a fact store and a chunk store.

A workspace is a folder holding ``facts.db`` (:class:`FactStore`, with the
``source_document`` ledger of what was ingested from which bytes), ``chunks.db``
(:class:`ChunkStore`) and the profile (``profile.toml``/``.yaml``/``.json``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ragspine_nb.errors import DatabaseNotFoundError, ProfileError, RagspineError
from ragspine_nb.extract.base import READER_VERSIONS, ExtractionError
from ragspine_nb.extract.chunking import DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS
from ragspine_nb.extract.document import read_document
from ragspine_nb.extract.lineage import file_sha256, profile_fingerprint
from ragspine_nb.profile import PROFILE_FORMATS, DomainProfile, find_profile
from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore, utc_now
from ragspine_nb.stores.statements import same_value
from ragspine_nb.types import Fact, FileReport, IngestReport, SkippedItem

__all__ = ["Workspace", "ingest", "load_metadata", "find_profile", "FACTS_DB", "CHUNKS_DB"]

FACTS_DB = "facts.db"
CHUNKS_DB = "chunks.db"
_IGNORED_PREFIXES = (".", "~$")


def _resolve_profile(profile: DomainProfile | str | Path | None, folder: Path) -> DomainProfile:
    if isinstance(profile, DomainProfile):
        return profile
    path = Path(profile) if profile is not None else find_profile(folder)
    if path is None:
        raise ProfileError(f"no profile in {folder}: expected one of "
                           f"{[f'profile{s}' for s in PROFILE_FORMATS]} or pass profile=")
    return DomainProfile.from_file(path)


class Workspace:
    """A folder with a profile, ``facts.db`` and ``chunks.db``.

    Parameters
    ----------
    path : str or Path
        The folder.
    profile : DomainProfile or str or Path, optional
        The profile or its file; defaults to the one stored in the folder.
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
        for old in PROFILE_FORMATS:
            (self.path / f"profile{old}").unlink(missing_ok=True)
        if isinstance(source, str | Path):
            src = Path(source)
            shutil.copyfile(src, self.path / f"profile{src.suffix.lower()}")
        else:
            (self.path / "profile.json").write_text(
                json.dumps(self.profile.to_dict(), ensure_ascii=False, indent=1), "utf-8")

    def ingest(self, paths: str | Path | Iterable[str | Path], **kwargs: Any) -> IngestReport:
        """Ingest files or folders into this workspace (see :func:`ingest`)."""
        return ingest(paths, workspace=self.path, profile=self.profile, **kwargs)

    def push(self, url: str) -> tuple[FactStore, ChunkStore]:
        """Copy this workspace into a shared database (e.g. ``postgresql://...``).

        Every document's facts go in with its ledger row (one transaction per document),
        and its active chunks as a new version, so pushing again after re-ingesting a
        file replaces that file's facts and chunks atomically, as ingestion does.
        Returns the two stores on ``url``.
        """
        facts, chunks = FactStore(url), ChunkStore(url)
        ledger = {d["doc_id"]: d for d in self.facts.source_documents()}
        by_doc: dict[str, list[Any]] = {}
        for f in self.facts.iter_facts():
            by_doc.setdefault(f.source_doc_id, []).append(f)
        for doc in sorted(set(by_doc) | set(ledger)):
            facts.replace_source_doc(doc, by_doc.get(doc, []), document=ledger.get(doc))
        for doc in self.chunks.doc_ids():
            chunks.replace_doc_chunks(doc, self.chunks.iter_chunks(doc_id=doc))
        return facts, chunks

    def close(self) -> None:
        """Close both stores."""
        self.facts.close()
        self.chunks.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"Workspace(path={str(self.path)!r}, facts={self.facts.count()}, "
                f"chunks={self.chunks.count()})")


def load_metadata(source: Mapping[str, Mapping[str, Any]] | str | Path | None
                  ) -> dict[str, dict[str, Any]]:
    """Per-document metadata from a mapping or a TOML/JSON/YAML file ``{doc_id: {...}}``."""
    if source is None:
        return {}
    if isinstance(source, Mapping):
        data: Any = source
    else:
        path = Path(source)
        text = path.read_text(encoding="utf-8")
        suffix = path.suffix.lower()
        if suffix == ".toml":
            data = tomllib.loads(text)
        elif suffix == ".json":
            data = json.loads(text)
        elif suffix in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text)
        else:
            raise RagspineError(f"metadata file {path.name!r}: use .toml, .json, .yaml or .yml")
    if not isinstance(data, Mapping) or not all(isinstance(v, Mapping) for v in data.values()):
        raise RagspineError("metadata must map each document id to a table of fields")
    return {str(k): dict(v) for k, v in data.items()}


def _collect(paths: Iterable[Path]) -> list[tuple[Path, str]]:
    """Files with their document ids (path relative to the folder given, or the name)."""
    out: list[tuple[Path, str]] = []
    for p in paths:
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p)
                if f.is_file() and not any(part.startswith(_IGNORED_PREFIXES)
                                           for part in rel.parts):
                    out.append((f, rel.as_posix()))
        else:
            out.append((p, p.name))
    return out


def _fingerprint(file_hash: str, suffix: str, mapping: str, meta: Mapping[str, Any],
                 max_chars: int, overlap_chars: int) -> str:
    blob = json.dumps([file_hash, READER_VERSIONS.get(suffix, ""), mapping, dict(meta),
                       max_chars, overlap_chars], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def ingest(
    paths: str | Path | Iterable[str | Path],
    workspace: str | Path = "ws",
    profile: DomainProfile | str | Path | None = None,
    *,
    dry_run: bool = False,
    metadata: Mapping[str, Mapping[str, Any]] | str | Path | None = None,
    progress: bool = True,
    max_chars: int = DEFAULT_CHUNK_CHARS,
    overlap_chars: int = DEFAULT_OVERLAP_CHARS,
) -> IngestReport:
    """Ingest report files and folders into a workspace.

    One bad file never aborts the batch: each file ends ``ingested``,
    ``skipped_unchanged`` (same bytes, profile, metadata and extractor as last time:
    nothing is written), ``failed`` (with the reason) or ``no_text``. A changed file
    replaces its previous facts and chunks atomically (new chunk version active, old
    inactive). ``dry_run=True`` writes nothing — no folder, no database — and returns
    the same report.

    Parameters
    ----------
    paths : path or list of paths
        Files and folders (folders are read recursively; hidden and ``~$`` files are
        ignored). A document's id is its path relative to the folder given, or its name.
    workspace : str or Path, default "ws"
        The workspace folder (created unless ``dry_run``).
    profile : DomainProfile or path, optional
        Defaults to the profile stored in the workspace.
    dry_run : bool, default False
        Read and report only.
    metadata : mapping or path, optional
        ``{doc_id: {title, topic, entity, geography, period, language, sensitivity,
        valid_as_of}}``, or a TOML/JSON/YAML file of that shape.
    progress : bool, default True
        Show a progress bar for folders.
    max_chars, overlap_chars : int
        Chunk size and overlap (see :func:`~ragspine_nb.extract.chunking.chunk_document`).

    Returns
    -------
    IngestReport
        One row per file plus every skipped cell, row and column.

    Examples
    --------
    >>> from ragspine_nb import ingest
    >>> report = ingest("data/demo/reports", workspace="ws",
    ...                 profile="data/demo/profile.toml")  # doctest: +SKIP
    """
    started = time.perf_counter()
    items = [Path(paths)] if isinstance(paths, str | Path) else [Path(p) for p in paths]
    missing = [str(p) for p in items if not p.exists()]
    if missing:
        raise FileNotFoundError(f"no such file or folder: {missing}")
    ws_path = Path(workspace)
    prof = _resolve_profile(profile, ws_path)
    meta_by_doc = load_metadata(metadata)
    mapping = profile_fingerprint(prof)
    ws: Workspace | None = None
    if not dry_run:
        ws = Workspace(ws_path, profile, create=True)
    elif (ws_path / FACTS_DB).is_file() and (ws_path / CHUNKS_DB).is_file():
        ws = Workspace(ws_path, prof)
    files = _collect(items)
    folder_given = any(p.is_dir() for p in items)
    iterator: Iterable[tuple[Path, str]] = files
    if progress and folder_given:
        from tqdm.auto import tqdm

        iterator = tqdm(files, desc="ingest", unit="file")
    reports: list[FileReport] = []
    skipped: list[SkippedItem] = []
    seen: set[str] = set()
    try:
        for path, doc_id in iterator:
            if doc_id in seen:
                reports.append(FileReport(str(path), doc_id, "failed",
                                          reason=f"duplicate document id {doc_id!r} in this batch"))
                continue
            seen.add(doc_id)
            report, cells = _ingest_one(path, doc_id, prof, ws, meta_by_doc.get(doc_id, {}),
                                        mapping, dry_run, max_chars, overlap_chars)
            reports.append(report)
            skipped += cells
    finally:
        if ws is not None:
            ws.close()
    unused = sorted(set(meta_by_doc) - seen)
    warnings = (f"metadata given for documents not in this batch: {unused}",) if unused else ()
    return IngestReport(tuple(reports), tuple(skipped), str(ws_path), dry_run, warnings,
                        seconds=time.perf_counter() - started)


def _one_statement_each(facts: Iterable[Fact], doc_id: str, store: FactStore | None
                        ) -> tuple[list[Fact], list[SkippedItem]]:
    """One statement per fact identity from this document; report disagreements.

    Inside the document a repeated identity keeps its first cell (a later one is
    reported, as a CONFLICT when the value or unit differs). Across documents every
    statement is kept and file order decides nothing: another document stating the
    identity with a different value makes a conflict, reported here and answered with
    both values and sources until a user resolves it (``ragspine-nb conflicts``).
    """
    kept: dict[tuple[str, ...], Fact] = {}
    notes: list[SkippedItem] = []
    for f in facts:
        key = (f.metric_code, f.entity, f.channel, f.period_type, f.period)
        first = kept.get(key)
        if first is not None:
            notes.append(SkippedItem(doc_id, f.source_locator, (
                f"same fact already stated in this document at {first.source_locator}; "
                "kept that cell") if same_value(first, f) else (
                f"CONFLICT inside this document: {first.source_locator} states "
                f"{first.value:g} {first.unit}, this cell {f.value:g} {f.unit}; kept the "
                "first, check the report")))
            continue
        kept[key] = f
        others = store.statements(f.metric_code, f.entity, f.period_type, f.period,
                                  f.channel) if store is not None else []
        notes += [SkippedItem(doc_id, f.source_locator, (
            f"CONFLICT (kept, not skipped): {o.source_doc_id} ({o.source_locator}) states "
            f"{o.value:g} {o.unit}, this cell {f.value:g} {f.unit}; answered as a conflict "
            "with both sources until resolved (ragspine-nb conflicts)"))
            for o in others if o.source_doc_id != doc_id and not same_value(o, f)]
    return list(kept.values()), notes


def _ingest_one(path: Path, doc_id: str, profile: DomainProfile, ws: Workspace | None,
                meta: Mapping[str, Any], mapping: str, dry_run: bool, max_chars: int,
                overlap_chars: int) -> tuple[FileReport, list[SkippedItem]]:
    try:
        file_hash = file_sha256(path)
        fingerprint = _fingerprint(file_hash, path.suffix.lower(), mapping, meta, max_chars,
                                   overlap_chars)
        previous = ws.facts.source_document(doc_id) if ws is not None else None
        if previous is not None and previous["fingerprint"] == fingerprint:
            return FileReport(str(path), doc_id, "skipped_unchanged",
                              reason="same bytes, profile and metadata as the last ingestion",
                              facts=previous["facts"], chunks=previous["chunks"],
                              extractor=previous["extractor_version"],
                              sensitivity=previous["sensitivity"], file_hash=file_hash), []
        result = read_document(path, doc_id, profile, metadata=meta, file_hash=file_hash,
                               mapping_version=mapping, max_chars=max_chars,
                               overlap_chars=overlap_chars)
    except (ExtractionError, OSError) as exc:
        return FileReport(str(path), doc_id, "failed", reason=str(exc)), []
    except Exception as exc:  # a reader bug must not abort the batch; report it
        return FileReport(str(path), doc_id, "failed",
                          reason=f"unexpected {type(exc).__name__}: {exc}"), []
    cells = [SkippedItem(doc_id, s.locator, s.reason) for s in result.skipped]
    facts, duplicates = _one_statement_each(result.facts, doc_id, ws.facts if ws else None)
    cells += duplicates
    result = replace(result, facts=tuple(facts))
    status = "ingested" if (result.facts or result.chunks) else "no_text"
    reason = "; ".join(result.warnings)
    if status == "no_text":
        reason = "; ".join(filter(None, ["no text and no table values found", reason]))
    if not dry_run and ws is not None:
        if result.chunks or ws.chunks.iter_chunks(doc_id=doc_id):
            ws.chunks.replace_doc_chunks(doc_id, list(result.chunks),
                                         valid_as_of=str(meta.get("valid_as_of", "")))
        ws.facts.replace_source_doc(doc_id, result.facts, document={
            "doc_id": doc_id, "path": str(path), "file_hash": file_hash,
            "fingerprint": fingerprint, "extractor_version": result.extractor_version,
            "title": result.title, "sensitivity": result.sensitivity,
            "facts": len(result.facts), "chunks": len(result.chunks), "ingested_at": utc_now(),
        })
    return FileReport(str(path), doc_id, status, reason=reason, facts=len(result.facts),
                      chunks=len(result.chunks), skipped=len(cells),
                      extractor=result.extractor_version, sensitivity=result.sensitivity,
                      file_hash=file_hash), cells

