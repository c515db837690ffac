"""A table's unstated period, read from the prose beside it in the same batch folder.

A table of buckets or names ("Less than 1 year | 1-3 years | Total") whose header, titles
and document state no period gives no fact: its figures would have no period to be
asked by. The report usually says it in the sentence introducing the table ("The
following table summarizes our contractual obligations as of December 31, 2019:").
Within one ingestion batch such a document is written after the other files of its
folder were read; when the table-introducing sentences of the folder's prose (its own
included) state exactly one period (:func:`~ragspine_nb.extract.prose_period.infer_period`),
the document is read again with that period for its undated tables. The facts it dates
say so in their lineage (``mapping_version`` gains ``|period=FY2019 from notes.md``) and
the file's report line quotes the sentence; otherwise the tables stay skipped and the
line says why. RESTRICTED prose is never read for this (its words would reach the
report), and a RESTRICTED document's tables give no facts anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.extract.prose_period import PeriodInference, infer_period
from ragspine_nb.ingestion.context import BatchContext
from ragspine_nb.ingestion.steps import Read, Settings
from ragspine_nb.ingestion.worker import ReadJob
from ragspine_nb.period_codes import period_label

__all__ = ["period_step", "prose_sources"]


def prose_sources(texts: list[tuple[str, str]], found: PeriodInference) -> list[str]:
    """The documents whose prose holds the sentences that stated the period."""
    flat = [(d, " ".join(t.split())) for d, t in texts]
    return [d for d, t in flat if any(e in t for e in found.evidence)] or [d for d, _ in texts]


def _note(result: DocumentResult, text: str) -> DocumentResult:
    return replace(result, warnings=(*result.warnings, text))


def period_step(path: Path, read: Read, context: BatchContext, meta: Mapping[str, Any],
                s: Settings) -> Read:
    """Read ``read``'s undated tables again with the period its folder's prose states.

    With no such period (no introducing sentence, or sentences naming two years or a
    part of a year) the document is kept as read and its line says the tables stay
    skipped.
    """
    result = read.result
    if not result.undated:
        return read
    texts = context.prose_for(result, path)
    found = infer_period([t for _, t in texts]) if texts else None
    n = len(result.undated)
    if found is None:
        return replace(read, result=_note(result, (
            f"period not stated: {n} table(s) name no period and no prose in their folder "
            "states exactly one; they are skipped")))
    origin = ", ".join(prose_sources(texts, found))
    # read again through the batch's reader (a worker: the same deadline and memory cap)
    again = s.reader(ReadJob(path, result.doc_id, s.profile, dict(meta), read.file_hash,
                             s.mapping, s.max_chars, s.overlap_chars, s.limits,
                             (found.period, origin)))
    evidence = "; ".join(repr(e[:160]) for e in found.evidence[:2])
    return replace(read, result=_note(again, (
        f"period not stated in the table: {n} table(s) dated {period_label(*found.period)} "
        f"from the prose of {origin} ({evidence})")))
