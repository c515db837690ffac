"""A folder read by several workers at once: the same report, facts and chunks as one worker."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ragspine_nb import ingest
from ragspine_nb.core import IngestReport
from ragspine_nb.ingestion.read_ahead import ReadAhead, read_workers
from ragspine_nb.ingestion.worker import ReadJob
from ragspine_nb.ingestion.workspace import Workspace
from ragspine_nb.profile import DomainProfile
from tests.conftest import DEMO


def _folder(tmp_path: Path) -> Path:
    """The demo's reports, a corrupt PDF between them, and a CSV after."""
    docs = tmp_path / "docs"
    shutil.copytree(DEMO / "reports", docs)
    (docs / "M_broken.pdf").write_bytes(b"%PDF-1.7\nnot a pdf at all\n")
    (docs / "z_extra.csv").write_text("Metric,FY2024,FY2025\nRevenue,10,12\n", "utf-8")
    return docs


def _state(report: IngestReport, ws: Path) -> tuple[object, ...]:
    lines = tuple((r.doc_id, r.status, r.reason, r.facts, r.chunks) for r in report.files)
    with Workspace(ws) as w:
        facts = sorted((f.source_doc_id, f.source_locator, f.metric_code, f.period, f.value)
                       for f in w.facts.iter_facts())
        chunks = sorted((c.doc_id, c.source_locator, c.text) for c in w.chunks.iter_chunks())
    return lines, tuple(facts), tuple(chunks)


def test_two_workers_write_what_one_writes_in_the_same_order(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    kw = {"profile": DEMO / "profile.toml", "metadata": DEMO / "metadata.toml",
          "progress": False}
    one = ingest(docs, workspace=tmp_path / "one", workers=1, **kw)
    two = ingest(docs, workspace=tmp_path / "two", workers=2, **kw)
    assert _state(one, tmp_path / "one") == _state(two, tmp_path / "two")
    statuses = {r.doc_id: r.status for r in two.files}
    assert statuses["M_broken.pdf"] == "failed" and statuses["z_extra.csv"] == "ingested"
    assert [r.doc_id for r in two.files] == sorted(r.doc_id for r in two.files)  # in order
    assert sum(r.facts for r in two.files) > 50
    # again: nothing changed, nothing read
    again = ingest(docs, workspace=tmp_path / "two", workers=2, **kw)
    assert {r.status for r in again.files} == {"skipped_unchanged", "failed"}


def test_how_many_workers_read_a_batch() -> None:
    assert read_workers(None, [100_000] * 10) == 1  # a folder of small files: one
    assert read_workers(None, [3_000_000, 3_000_000]) >= 1
    assert read_workers(8, [1, 2, 3]) == 3  # never more than the files
    with pytest.raises(ValueError, match="at least 1"):
        read_workers(0, [1])


def test_a_read_that_was_not_planned_is_read_at_once(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("Metric,FY2025\nRevenue,12\n", "utf-8")
    ahead = ReadAhead(2)
    try:
        ahead.plan([])
        result = ahead(ReadJob(path, "a.csv", DomainProfile.builtin(), file_hash="h"))
    finally:
        ahead.close()
    assert [f.value for f in result.facts] == [12.0]
    assert "ReadAhead(workers=2" in repr(ahead)
