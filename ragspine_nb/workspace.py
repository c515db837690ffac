"""A workspace folder: a profile plus a fact store and a chunk store, and batch ingestion.

Layout: ``<workspace>/profile.toml`` (or ``.yaml``/``.json``), ``facts.sqlite`` and
``chunks.sqlite``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ragspine_nb.errors import DatabaseNotFoundError, ProfileError
from ragspine_nb.ingest.fact_table import read_fact_table
from ragspine_nb.ingest.text import TEXT_SUFFIXES, read_text_chunks
from ragspine_nb.profile import PROFILE_FORMATS, DomainProfile
from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore

__all__ = ["Workspace", "FileOutcome", "ingest_paths", "FACTS_DB", "CHUNKS_DB", "SUPPORTED"]

FACTS_DB = "facts.sqlite"
CHUNKS_DB = "chunks.sqlite"
#: File suffixes the batch ingester reads (more arrive with the ingest extra).
SUPPORTED: tuple[str, ...] = (".csv", *TEXT_SUFFIXES)


def find_profile(folder: Path) -> Path | None:
    """The first ``profile.<toml|yaml|yml|json>`` in ``folder``, if any."""
    for suffix in PROFILE_FORMATS:
        candidate = folder / f"profile{suffix}"
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class FileOutcome:
    """What happened to one input file."""

    path: str
    status: str  # ingested | failed | no_text
    facts: int = 0
    chunks: int = 0
    detail: str = ""


class Workspace:
    """A folder holding a profile, ``facts.sqlite`` and ``chunks.sqlite``.

    Parameters
    ----------
    path : str or Path
        The folder.
    profile : DomainProfile or str or Path, optional
        The profile, or its file; defaults to ``<path>/profile.*``.
    create : bool, default False
        Create the folder and empty stores when absent. When False a missing store
        raises :class:`~ragspine_nb.errors.DatabaseNotFoundError` and nothing is created.
    """

    def __init__(
        self,
        path: str | Path,
        profile: DomainProfile | str | Path | None = None,
        *,
        create: bool = False,
    ) -> None:
        self.path = Path(path)
        if isinstance(profile, DomainProfile):
            self.profile = profile
        else:
            profile_path = Path(profile) if profile is not None else find_profile(self.path)
            if profile_path is None:
                raise ProfileError(
                    f"no profile in {self.path}: expected one of "
                    f"{[f'profile{s}' for s in PROFILE_FORMATS]} or pass profile="
                )
            self.profile = DomainProfile.from_file(profile_path)
        if create:
            self.path.mkdir(parents=True, exist_ok=True)
        else:
            for name in (FACTS_DB, CHUNKS_DB):
                if not (self.path / name).is_file():
                    raise DatabaseNotFoundError(
                        f"no store at {self.path / name}. Build it first with "
                        "`ragspine-nb ingest` or `ragspine-nb demo`; nothing was created."
                    )
        self.facts = FactStore(self.path / FACTS_DB, create=create)
        self.chunks = ChunkStore(self.path / CHUNKS_DB, create=create)
        if create:  # materialise both files and schemas now
            self.facts.count()
            self.chunks.count()

    @classmethod
    def create(cls, path: str | Path, profile: str | Path) -> Workspace:
        """Create a workspace folder with a copy of the profile file and empty stores."""
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        src = Path(profile)
        DomainProfile.from_file(src)  # validate before copying
        target = folder / f"profile{src.suffix.lower()}"
        if src.resolve() != target.resolve():
            shutil.copyfile(src, target)
        return cls(folder, target, create=True)

    def ingest(self, paths: list[str | Path], *, dry_run: bool = False) -> list[FileOutcome]:
        """Ingest files and folders into this workspace (see :func:`ingest_paths`)."""
        return ingest_paths(paths, self.profile, self.facts, self.chunks, dry_run=dry_run)

    def close(self) -> None:
        """Close both stores."""
        self.facts.close()
        self.chunks.close()

    def __repr__(self) -> str:
        return (f"Workspace(path={str(self.path)!r}, facts={self.facts.count()}, "
                f"chunks={self.chunks.count()})")


def _collect(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(f for f in p.rglob("*") if f.is_file() and not f.name.startswith("."))
        else:
            files.append(p)
    return files


def ingest_paths(
    paths: list[str | Path],
    profile: DomainProfile,
    facts: FactStore | None = None,
    chunks: ChunkStore | None = None,
    *,
    dry_run: bool = False,
) -> list[FileOutcome]:
    """Ingest files and folders into the stores; one bad file never aborts the batch.

    ``.csv`` files are long-format fact tables; ``.md``/``.txt`` become paragraph
    chunks. Each document replaces its previous facts or chunks atomically.
    ``dry_run=True`` reads and reports but writes nothing (the stores may be None).
    """
    if not dry_run and (facts is None or chunks is None):
        raise ValueError("ingest_paths needs both stores unless dry_run=True")
    outcomes: list[FileOutcome] = []
    for f in _collect([Path(p) for p in paths]):
        suffix = f.suffix.lower()
        try:
            if not f.is_file():
                raise FileNotFoundError(f"no such file: {f}")
            if suffix == ".csv":
                table = read_fact_table(f, profile)
                written = len(table.facts)
                if facts is not None and not dry_run:
                    written = facts.replace_source_doc(f.name, table.facts)
                detail = "; ".join(f"{loc}: {why}" for loc, why in table.skipped)
                outcomes.append(FileOutcome(str(f), "ingested", facts=written,
                                            detail=f"skipped {detail}" if detail else ""))
            elif suffix in TEXT_SUFFIXES:
                doc_chunks = read_text_chunks(f, profile)
                if not doc_chunks:
                    outcomes.append(FileOutcome(str(f), "no_text", detail="no text found"))
                    continue
                written = len(doc_chunks)
                if chunks is not None and not dry_run:
                    written = chunks.replace_doc_chunks(f.name, doc_chunks)
                outcomes.append(FileOutcome(str(f), "ingested", chunks=written))
            else:
                raise ValueError(f"unsupported file type {suffix!r}; supported: {list(SUPPORTED)}")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            outcomes.append(FileOutcome(str(f), "failed", detail=str(exc)))
    return outcomes
