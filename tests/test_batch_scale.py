"""A table that states no scale takes the one the prose beside it in the batch folder tells."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import FactStore, Workspace, ingest
from ragspine_nb.errors import StoreError
from ragspine_nb.ingestion.context import BatchContext
from ragspine_nb.units import PLAIN

TABLE = "Item,2019,2018\nRevenue,757336,700123\nOther income,1234,999\n"
NOTES = "# Results\n\nNet sales were $757.3 million in 2019, up from $700.1 million.\n"


def _folder(root: Path, table: str = "table.csv", notes: str | None = "notes.md") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / table).write_text(TABLE, "utf-8")
    if notes:
        (root / notes).write_text(NOTES, "utf-8")
    return root


def _units(ws: Path) -> dict[tuple[str, str], str]:
    return {(f.metric_code, f.period): f.unit for f in FactStore(ws / "facts.db").iter_facts()}


@pytest.mark.parametrize("table, notes", [("table.csv", "notes.md"),  # the prose read first
                                          ("a_table.csv", "z_notes.md")])  # the table first
def test_prose_beside_the_table_gives_it_its_scale(tmp_path: Path, table: str, notes: str
                                                   ) -> None:
    report = ingest(_folder(tmp_path / "docs", table, notes), workspace=tmp_path / "ws",
                    progress=False)
    assert [f.doc_id for f in report.files] == sorted([table, notes])  # lines keep their place
    line = next(f for f in report.files if f.doc_id == table)
    assert line.status == "ingested" and line.facts == 4
    assert f"read in thousands from the prose of {notes}" in line.reason
    assert "'757.3 million'" in line.reason
    assert set(_units(tmp_path / "ws").values()) == {"K"}
    lineage = {f.mapping_version.split("|", 1)[1]
               for f in FactStore(tmp_path / "ws" / "facts.db").iter_facts()}
    assert lineage == {f"scale=K from {notes}"}


def test_no_prose_keeps_the_amounts_unscaled_and_says_so(tmp_path: Path) -> None:
    report = ingest(_folder(tmp_path / "docs", notes=None), workspace=tmp_path / "ws",
                    progress=False)
    assert "scale not stated: 4 table amount(s)" in report.files[0].reason
    assert set(_units(tmp_path / "ws").values()) == {PLAIN}


def test_prose_of_another_folder_does_not_apply(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _folder(docs / "a", notes=None)
    (docs / "b").mkdir()
    (docs / "b" / "notes.md").write_text(NOTES, "utf-8")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert set(_units(tmp_path / "ws").values()) == {PLAIN}


def test_a_changed_note_rereads_the_table_and_an_unchanged_folder_skips_it(tmp_path: Path
                                                                          ) -> None:
    docs = _folder(tmp_path / "docs")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    again = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert [f.status for f in again.files] == ["skipped_unchanged", "skipped_unchanged"]
    (docs / "notes.md").write_text("# Results\n\nSales were $757,336 thousand.\n", "utf-8")
    third = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert [f.status for f in third.files] == ["ingested", "ingested"]
    (docs / "notes.md").write_text("# Results\n\nA quiet year.\n", "utf-8")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert set(_units(tmp_path / "ws").values()) == {PLAIN}  # nothing tells the scale now


def test_restricted_prose_is_never_read_for_a_scale(tmp_path: Path) -> None:
    meta = {"notes.md": {"sensitivity": "RESTRICTED"}}
    report = ingest(_folder(tmp_path / "docs"), workspace=tmp_path / "ws", metadata=meta,
                    progress=False)
    assert set(_units(tmp_path / "ws").values()) == {PLAIN}
    assert "757.3" not in " ".join(f.reason for f in report.files)


def test_one_bad_file_does_not_stop_the_batch(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs")
    (docs / "broken.docx").write_bytes(b"not a zip")
    report = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert [(f.doc_id, f.status) for f in report.files] == \
        [("broken.docx", "failed"), ("notes.md", "ingested"), ("table.csv", "ingested")]
    assert set(_units(tmp_path / "ws").values()) == {"K"}


def test_a_failed_write_of_a_waiting_table_keeps_its_previous_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _folder(tmp_path / "docs", notes=None)
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    before = FactStore(tmp_path / "ws" / "facts.db").iter_facts()
    (docs / "notes.md").write_text(NOTES, "utf-8")
    original = FactStore.replace_source_doc

    def failing(self: FactStore, doc: str, *args: object, **kw: object) -> int:
        if doc == "table.csv":
            raise StoreError("simulated write failure")
        return original(self, doc, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(FactStore, "replace_source_doc", failing)
    report = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert [(f.doc_id, f.status) for f in report.files] == \
        [("notes.md", "ingested"), ("table.csv", "failed")]
    assert "simulated write failure" in report.files[1].reason
    monkeypatch.undo()
    ws = Workspace(tmp_path / "ws")
    assert ws.facts.iter_facts() == before and ws.reconcile() == []


def test_a_dry_run_reports_the_scale_and_writes_nothing(tmp_path: Path) -> None:
    report = ingest(_folder(tmp_path / "docs"), workspace=tmp_path / "ws", dry_run=True,
                    progress=False)
    assert "read in thousands" in report.files[1].reason
    assert not (tmp_path / "ws").exists()


def test_sibling_digest() -> None:
    assert BatchContext().sibling_digest(Path("x/a.csv")) == BatchContext().sibling_digest(
        Path("y/b.csv"))  # no siblings: one digest


def test_a_note_stating_the_unit_with_its_currency_scales_the_table(tmp_path: Path) -> None:
    """"Expressed in US $000's except share and per share amounts", a note of its own."""
    docs = _folder(tmp_path / "docs", notes=None)
    (docs / "notes.md").write_text(
        "# Segment information\n\nThe following table presents revenues:\n\n"
        "Expressed in US $000's except share and per share amounts\n", "utf-8")
    report = ingest(docs, workspace=tmp_path / "ws", progress=False)
    line = next(f for f in report.files if f.doc_id == "table.csv")
    assert "read in thousands from the prose of notes.md" in line.reason
    assert set(_units(tmp_path / "ws").values()) == {"K"}
