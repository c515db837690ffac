"""A table's unstated scale, read from the prose beside it in the same batch folder.

A table whose amounts state no scale anywhere ("Revenue 757,336") often sits beside a
note that quotes them ("net sales were $757.3 million"). Within one ingestion batch,
the documents of a folder are read first; a document with such amounts is written last,
after :func:`~ragspine_nb.extract.scale.infer_scale` has compared its amounts with the
prose of its folder (its own included). A scale found this way is written into each
amount's unit and into its lineage (``mapping_version`` gains ``|scale=K from
notes.md``) and reported on the file's line; none found keeps the amounts as they are
("scale not stated"). Such a document's ledger fingerprint also covers the bytes of the
files beside it, so a changed note re-reads it and an unchanged folder skips it.
RESTRICTED prose is never read for this (its words would reach the report).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ragspine_nb.core import is_restricted
from ragspine_nb.extract.collect import SourceFile
from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.extract.lineage import file_sha256
from ragspine_nb.extract.scale import ScaleInference, infer_scale, rescale_facts

__all__ = ["BatchContext", "apply_scale", "scale_step", "MAX_PROSE_CHARS", "with_siblings"]

#: Prose kept per folder for scale inference (characters); later prose is not read.
MAX_PROSE_CHARS = 2_000_000
_SCALE_WORDS = {"K": "thousands", "M": "millions", "BN": "billions", "": "as written"}


@dataclass
class BatchContext:
    """The folders of one batch: which files lie beside which, and the prose read so far."""

    siblings: dict[Path, tuple[SourceFile, ...]] = field(default_factory=dict)
    prose: dict[Path, list[tuple[str, str]]] = field(default_factory=dict)
    #: per folder, the documents with a bare total row (:mod:`ragspine_nb.ingest_total`)
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
        if is_restricted(result.sensitivity) or not result.prose.strip():
            return
        kept = self.prose.setdefault(path.parent, [])
        room = MAX_PROSE_CHARS - sum(len(t) for _, t in kept)
        if room > 0:
            kept.append((result.doc_id, result.prose[:room]))

    def prose_beside(self, path: Path) -> list[tuple[str, str]]:
        """``(doc_id, text)`` of the prose read in ``path``'s folder."""
        return list(self.prose.get(path.parent, ()))

    def prose_for(self, result: DocumentResult, path: Path) -> list[tuple[str, str]]:
        """``(doc_id, text)`` of a document's own prose, then its folder's (never RESTRICTED)."""
        own = [(result.doc_id, result.prose)] if result.prose.strip() and \
            not is_restricted(result.sensitivity) else []
        return own + [(d, t) for d, t in self.prose_beside(path) if d != result.doc_id]


def with_siblings(fingerprint: str, digest: str) -> str:
    """The ledger fingerprint of a document whose scale may come from its folder."""
    return f"{fingerprint}+{digest}"


def apply_scale(result: DocumentResult, found: ScaleInference, sources: Sequence[str]
                ) -> DocumentResult:
    """``result`` with its unscaled amounts in the scale ``found`` read from ``sources``."""
    origin = ", ".join(sources)
    lineage = f"|scale={found.scale or 'none'} from {origin}"
    unscaled = set(result.unscaled)
    facts = tuple(replace(f, mapping_version=f.mapping_version + lineage)
                  if f.source_locator in unscaled else f
                  for f in rescale_facts(result.facts, unscaled, found))
    evidence = "; ".join(repr(e) for e in found.evidence[:3])
    note = (f"scale not stated in the table: {len(unscaled)} amount(s) read in "
            f"{_SCALE_WORDS.get(found.scale, found.scale)} from the prose of {origin} "
            f"({evidence})")
    return replace(result, facts=facts, warnings=(*result.warnings, note))


def scale_step(result: DocumentResult, context: BatchContext, path: Path) -> DocumentResult:
    """Read the scale of ``result``'s unscaled amounts from its folder's prose, if it tells.

    With no prose, or prose that does not tell (no amount matches, or two scales tie),
    the amounts keep their unit and the report says the scale is not stated.
    """
    unscaled = set(result.unscaled)
    if not unscaled:
        return result
    # every figure of the tables votes, not only the facts: a column that gave no fact
    # (no period) may be the one the prose quotes
    figures = list(result.unscaled_figures) or \
        [f.value for f in result.facts if f.source_locator in unscaled]
    texts = context.prose_for(result, path)
    found = infer_scale(figures, [t for _, t in texts]) if texts else None
    if found is None:
        note = (f"scale not stated: {len(unscaled)} table amount(s) state no scale and no "
                "prose in their folder tells it; they are kept as written")
        return replace(result, warnings=(*result.warnings, note))
    sources = [d for d, t in texts if any(e in t for e in found.evidence)] or \
        [d for d, _ in texts]
    return apply_scale(result, found, sources)
