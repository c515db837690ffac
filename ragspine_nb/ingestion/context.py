"""What one ingestion batch knows of its folders: which files lie together, their prose.

A table may need the prose beside it in its folder to be read whole: its scale
(:mod:`ragspine_nb.ingestion.scale`), its period (:mod:`ragspine_nb.ingestion.period`), the name
of its bare total row (:mod:`ragspine_nb.ingestion.total`). :class:`BatchContext` keeps, per
folder, the documents of the batch, the prose read so far (never RESTRICTED prose: its
words would reach the report) and which documents have a bare total row; a document
read with its folder's help is recorded under :func:`with_siblings`, so a changed note
re-reads it and an unchanged folder skips it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ragspine_nb.core import is_restricted
from ragspine_nb.extract.collect import SourceFile
from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.extract.lineage import file_sha256

__all__ = ["BatchContext", "MAX_PROSE_CHARS", "with_siblings", "owner", "same_owner"]

#: Prose kept per folder for the tables beside it (characters); later prose is not read.
MAX_PROSE_CHARS = 2_000_000


@dataclass
class BatchContext:
    """The folders of one batch: which files lie beside which, and the prose read so far."""

    siblings: dict[Path, tuple[SourceFile, ...]] = field(default_factory=dict)
    prose: dict[Path, list[tuple[str, str]]] = field(default_factory=dict)
    #: per document, the company and period it names itself (``("", "")``: none)
    owners: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: per folder, the documents with a bare total row (:mod:`ragspine_nb.ingestion.total`)
    totals: dict[Path, set[str]] = field(default_factory=dict)
    _hashes: dict[Path, str] = field(default_factory=dict)

    @classmethod
    def of(cls, files: Sequence[SourceFile]) -> BatchContext:
        """The context of a batch's files (refused files are nobody's siblings)."""
        by_folder: dict[Path, list[SourceFile]] = {}
        for f in files:
            if not f.refused:
                by_folder.setdefault(f.path.parent, []).append(f)
        return cls({k: tuple(v) for k, v in by_folder.items()})

    def sibling_digest(self, path: Path) -> str:
        """A digest of the other files of ``path``'s folder in this batch (ids and bytes)."""
        digest = hashlib.sha256()
        for f in self.siblings.get(path.parent, ()):
            if f.path != path:
                if f.path not in self._hashes:
                    try:
                        self._hashes[f.path] = file_sha256(f.path)
                    except OSError:
                        self._hashes[f.path] = "unreadable"
                digest.update(f"{f.doc_id}\0{self._hashes[f.path]}\0".encode())
        return digest.hexdigest()[:16]

    def remember(self, path: Path, result: DocumentResult) -> None:
        """Keep a document's prose for the tables of its folder (not RESTRICTED prose)."""
        self.owners[result.doc_id] = owner(result)
        if is_restricted(result.sensitivity) or not result.prose.strip():
            return
        kept = self.prose.setdefault(path.parent, [])
        room = MAX_PROSE_CHARS - sum(len(t) for _, t in kept)
        if room > 0:
            kept.append((result.doc_id, result.prose[:room]))

    def mark_total(self, path: Path, doc_id: str) -> None:
        """Note that a document of ``path``'s folder has a bare total row."""
        self.totals.setdefault(path.parent, set()).add(doc_id)

    def prose_beside(self, path: Path) -> list[tuple[str, str]]:
        """``(doc_id, text)`` of the prose read in ``path``'s folder."""
        return list(self.prose.get(path.parent, ()))

    def prose_for(self, result: DocumentResult, path: Path) -> list[tuple[str, str]]:
        """``(doc_id, text)`` of a document's own prose, then its folder's (never RESTRICTED).

        Only the prose of documents of the same company and period (:func:`same_owner`):
        a 10-K's scale is never read from another company's filing, nor from another
        year's. A document naming no company reads only unnamed prose when its folder's
        documents name several companies (it cannot be told whose it is).
        """
        own = [(result.doc_id, result.prose)] if result.prose.strip() and \
            not is_restricted(result.sensitivity) else []
        mine = owner(result)
        theirs = [(d, t, self.owners.get(d, ("", ""))) for d, t in self.prose_beside(path)
                  if d != result.doc_id]
        kept = [(d, t, o) for d, t, o in theirs if same_owner(o, mine)]
        if not mine[0] and len({o[0] for _, _, o in kept} - {""}) > 1:
            kept = [(d, t, o) for d, t, o in kept if not o[0]]
        return own + [(d, t) for d, t, _ in kept]


def same_owner(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Whether two documents' ``(company, period)`` may be the same.

    No field differs where both documents name it.

    >>> same_owner(("3m company", "FY2018"), ("3m company", "FY2018"))
    True
    >>> same_owner(("3m company", "FY2018"), ("best buy co., inc.", "FY2018"))
    False
    >>> same_owner(("3m company", "FY2018"), ("3m company", "FY2022"))
    False
    >>> same_owner(("", "FY2019"), ("", ""))
    True
    >>> same_owner(("3m company", ""), ("3m company", "FY2018"))
    True
    """
    return all(x == y or not x or not y for x, y in zip(a, b, strict=True))


def owner(result: DocumentResult) -> tuple[str, str]:
    """The company and period a document names itself (folded; ``""`` where it names none).

    >>> from ragspine_nb.extract.document import DocumentResult
    >>> from ragspine_nb.extract.identity import DocumentIdentity
    >>> r = DocumentResult("a.pdf", (), (), (), "", "INTERNAL", "pdf@1",
    ...                    identity=DocumentIdentity("3M Company", ("FY", "2018")))
    >>> owner(r)
    ('3m company', 'FY2018')
    """
    who = result.identity
    return (" ".join(who.company.casefold().split()),
            f"{who.period[0]}{who.period[1]}" if who.period else "")


def with_siblings(fingerprint: str, digest: str) -> str:
    """The ledger fingerprint of a document read with its folder's prose."""
    return f"{fingerprint}+{digest}"
