"""Ingestion under hostile files (issue 14, items 4-7): every attack of the outside review.

One bad file never stops the batch, the report is always written, resources are
bounded, and a failure leaves the previous state of every document whole.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import sqlite3
import subprocess
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import ChunkStore, FactStore, ingest
from ragspine_nb.cli.commands import main
from ragspine_nb.errors import StoreError
from ragspine_nb.extract import document
from ragspine_nb.extract.limits import IngestLimits, doc_id_problem
from ragspine_nb.ingestion.workspace import Workspace
from ragspine_nb.stores.chunks import StagedVersion
from ragspine_nb.stores.reconcile import reconcile
from tests import test_store_contract
from tests.conftest import DEMO, make_chunk

pg_server = test_store_contract.pg_server  # the contract tests' fixtures: SQLite and PostgreSQL
url = test_store_contract.url

PROFILE = DEMO / "profile.toml"


def _ingest(paths: Any, ws: Path, **kwargs: Any) -> Any:
    return ingest(paths, workspace=ws, profile=PROFILE, progress=False, **kwargs)


def _by_doc(report: Any) -> dict[str, Any]:
    return {f.doc_id: f for f in report.files}


def _db_bytes(ws: Path) -> int:
    return sum(p.stat().st_size for p in ws.iterdir() if ".db" in p.name)


@contextlib.contextmanager
def _memory_cap(extra_bytes: int) -> Iterator[None]:
    """Cap this process's address space at its current size + ``extra_bytes``."""
    with open("/proc/self/status", encoding="ascii") as fh:
        vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (vm + extra_bytes, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# ------------------------------------------------------------ 4. disk and time bombs
def test_a_single_line_markdown_keeps_the_database_proportional(tmp_path: Path) -> None:
    # the review: a 1 MB one-line .md made a 2.19 GB chunks.db (the line was every title)
    md = tmp_path / "a.md"
    md.write_text("bancassurance " * 15_000, encoding="utf-8")
    ws = tmp_path / "ws"
    report = _ingest(md, ws)
    assert report.files[0].status == "ingested" and report.files[0].chunks == 438
    assert _db_bytes(ws) < 5 * md.stat().st_size
    titles = {c.title for c in ChunkStore(ws / "chunks.db", create=False).iter_chunks()}
    assert titles == {("bancassurance " * 15)[:199] + "…"}


def test_the_title_limit_is_configurable(tmp_path: Path) -> None:
    md = tmp_path / "t.md"
    md.write_text("# Quarterly business review of the Hong Kong bancassurance channel\n\nx.\n",
                  encoding="utf-8")
    _ingest(md, tmp_path / "ws", limits=IngestLimits(max_title_chars=20))
    [chunk] = ChunkStore(tmp_path / "ws" / "chunks.db", create=False).iter_chunks()
    assert chunk.title == "Quarterly business…"


def _paragraphs(n: int) -> str:
    return "\n\n".join(f"Paragraph {k}: " + "growth " * 55 for k in range(1, n + 1))


def test_a_document_over_the_chunk_limit_keeps_the_first_chunks_and_says_where(
        tmp_path: Path) -> None:
    md = tmp_path / "long.md"
    md.write_text(_paragraphs(30), encoding="utf-8")
    ws = tmp_path / "ws"
    report = _ingest(md, ws, limits=IngestLimits(max_chunks_per_doc=10))
    hit = ("limit max_chunks_per_doc=10 reached at para=10: the first 10 chunks were kept, "
           "the text after them is not searchable")
    row = report.files[0]
    assert (row.status, row.chunks, row.reason) == ("ingested", 10, hit)
    assert report.warnings == (f"long.md: {hit}",)
    stored = ChunkStore(ws / "chunks.db", create=False).iter_chunks()
    assert [c.source_locator for c in stored] == [f"para={k}" for k in range(1, 11)]
    # raising the limit re-reads the file (limits are part of its fingerprint)
    again = _ingest(md, ws)
    assert (again.files[0].status, again.files[0].chunks, again.warnings) == ("ingested", 30, ())


def test_a_file_over_the_size_limit_fails_and_the_batch_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "big.md").write_text("x" * 5000, encoding="utf-8")
    (folder / "small.md").write_text("Small note.", encoding="utf-8")
    report = _ingest(folder, tmp_path / "ws", limits=IngestLimits(max_file_bytes=1000))
    rows = _by_doc(report)
    assert rows["big.md"].status == "failed"
    assert rows["big.md"].reason == ("limit max_file_bytes=1000 reached: the file is 5,000 "
                                     "bytes; nothing was read")
    assert rows["small.md"].status == "ingested"


def test_bad_limits_name_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="max_chunks_per_doc must be an int >= 1, got 0"):
        IngestLimits(max_chunks_per_doc=0)


# ------------------------------------------------------------ 5. memory bombs
def _corner_workbook(path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Summary"
    for row in (["ACME Hong Kong (US$m)"], ["Metric", "FY2024"], ["Revenue", 1234]):
        sheet.append(row)
    sheet["XFD1048576"] = "x"  # the <dimension> becomes A1:XFD1048576 (17 billion cells)
    wb.save(path)
    return path


def test_a_workbook_with_a_corner_cell_reads_only_the_cells_that_exist(tmp_path: Path) -> None:
    # the review: a 6.6 KB xlsx with one cell at XFD1048576 ran out of memory (5.5 GB)
    folder = tmp_path / "in"
    folder.mkdir()
    _corner_workbook(folder / "corner.xlsx")
    (folder / "good.md").write_text("Bancassurance sales rose.", encoding="utf-8")
    with _memory_cap(1 << 30):
        report = _ingest(folder, tmp_path / "ws")
    assert {d: f.status for d, f in _by_doc(report).items()} == {
        "corner.xlsx": "ingested", "good.md": "ingested"}
    [fact] = FactStore(tmp_path / "ws" / "facts.db", create=False).iter_facts()
    assert (fact.metric_code, fact.entity, fact.period, fact.value, fact.source_locator) == (
        "REVENUE", "ACME_HK", "2024", 1234.0, "sheet=Summary!B3")


def test_running_out_of_memory_fails_that_file_and_the_batch_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # read here (worker=False) so the patched reader applies; in the worker process a
    # file past max_memory_bytes fails naming it (tests/test_office_bounds.py)
    def exhausted(*_: object) -> None:
        raise MemoryError

    monkeypatch.setitem(document.READERS, ".xlsx", exhausted)
    folder = tmp_path / "in"
    folder.mkdir()
    _corner_workbook(folder / "a.xlsx")
    (folder / "b.md").write_text("Bancassurance sales rose.", encoding="utf-8")
    files = _by_doc(_ingest(folder, tmp_path / "ws", worker=False))
    assert files["a.xlsx"].status == "failed"
    assert files["a.xlsx"].reason.startswith("out of memory while reading this file")
    assert files["b.md"].status == "ingested"


def _repeated_csv(path: Path, rows: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        fh.write("ACME Hong Kong (US$m),,,\nMetric,FY2023,FY2024,FY2025\n")
        fh.write("Revenue,1,2,3\n" * rows)
    return path


def test_a_large_csv_is_streamed_within_the_limits(tmp_path: Path) -> None:
    # the review: a 50 MB CSV ran out of memory; here 30k rows (90k values) with low limits
    csv = _repeated_csv(tmp_path / "big.csv", 30_000)
    tracemalloc.start()
    try:
        report = _ingest(csv, tmp_path / "ws", worker=False,  # measured in this process
                         limits=IngestLimits(max_facts_per_doc=300, max_skipped_per_doc=50))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    row = report.files[0]
    assert (row.status, row.facts, row.skipped) == ("ingested", 3, 297)
    assert row.reason == (
        "limit max_facts_per_doc=300 reached at cell=D102: the first 300 table values were "
        "kept, tables after this cell were not read; limit max_skipped_per_doc=50 reached: "
        "247 more skipped cells were counted but not listed")
    assert len(report.skipped) == 50
    assert peak < 20 * 2**20, f"peak {peak / 2**20:.1f} MiB"


def test_the_cell_limit_stops_reading_a_csv_and_says_at_which_row(tmp_path: Path) -> None:
    csv = _repeated_csv(tmp_path / "big.csv", 100)
    report = _ingest(csv, tmp_path / "ws", limits=IngestLimits(max_cells_per_doc=40))
    assert report.files[0].reason == ("limit max_cells_per_doc=40 reached at row=11: this "
                                      "row and everything after it were not read")


# ------------------------------------------------------------ 6. half-writes, full disk
def _two_docs(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.md").write_text("Version one of a.", encoding="utf-8")
    (folder / "b.md").write_text("Document b.", encoding="utf-8")
    ws = tmp_path / "ws"
    assert _ingest(folder, ws).count("ingested") == 2
    (folder / "a.md").write_text("Version two of a.", encoding="utf-8")
    return folder, ws


def _state(ws: Path) -> tuple[list[str], list[Any], str]:
    chunks = ChunkStore(ws / "chunks.db", create=False)
    ledger = FactStore(ws / "facts.db", create=False).source_document("a.md")
    assert ledger is not None
    return ([c.text for c in chunks.iter_chunks(doc_id="a.md")],
            chunks.staged_versions(), ledger["fingerprint"])


def _fail_facts_of(monkeypatch: pytest.MonkeyPatch, doc: str) -> None:
    original = FactStore.replace_source_doc

    def failing(self: FactStore, doc_id: str, *args: Any, **kwargs: Any) -> int:
        if doc_id == doc:
            raise StoreError("write failed and was rolled back, nothing changed: simulated")
        return original(self, doc_id, *args, **kwargs)

    monkeypatch.setattr(FactStore, "replace_source_doc", failing)


def test_a_failed_fact_write_leaves_the_previous_version_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, ws = _two_docs(tmp_path)
    before = _state(ws)
    _fail_facts_of(monkeypatch, "a.md")
    (folder / "c.md").write_text("Document c.", encoding="utf-8")
    report = _ingest(folder, ws)
    rows = _by_doc(report)
    assert rows["a.md"].status == "failed"
    assert rows["a.md"].reason == ("not written: write failed and was rolled back, nothing "
                                   "changed: simulated")
    assert rows["c.md"].status == "ingested"  # the batch went on
    assert _state(ws) == before == (["Version one of a."], [], before[2])


def test_chunks_left_staged_by_a_crash_are_dropped_by_the_next_ingestion(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, ws = _two_docs(tmp_path)
    _fail_facts_of(monkeypatch, "a.md")
    monkeypatch.setattr(ChunkStore, "drop_version", lambda *a: (_ for _ in ()).throw(
        StoreError("the process died here")))
    _ingest(folder, ws)
    text, staged, _ = _state(ws)
    assert text == ["Version one of a."]  # readers never see the staged version
    assert [(s.doc_id, s.version) for s in staged] == [("a.md", 2)]
    monkeypatch.undo()
    report = _ingest(folder, ws)
    assert report.warnings == ("a.md: unfinished chunk version 2 dropped (its facts and ledger "
                               "were never written); the previous version stays active",)
    assert _by_doc(report)["a.md"].status == "ingested"
    text, staged, _ = _state(ws)
    assert (text, staged) == (["Version two of a."], [])
    assert ChunkStore(ws / "chunks.db", create=False).doc_versions("a.md") == [
        (1, 1, False), (2, 1, True)]


def test_an_activation_lost_after_the_ledger_was_written_is_completed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, ws = _two_docs(tmp_path)

    def crash(*_: object) -> int:
        raise StoreError("the process died here")

    monkeypatch.setattr(ChunkStore, "activate_version", crash)
    _ingest(folder / "a.md", ws)
    monkeypatch.undo()
    text, staged, fingerprint = _state(ws)
    assert text == ["Version one of a."] and [s.fingerprint for s in staged] == [fingerprint]
    with Workspace(ws) as w:
        assert [r.describe() for r in w.reconcile()] == [
            "a.md: chunk version 2 activated (its facts and ledger had been written before "
            "the previous ingestion stopped)"]
    assert _state(ws)[:2] == (["Version two of a."], [])


def test_a_bug_while_writing_one_file_fails_that_file_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine_nb.ingestion import steps as ingest_steps

    write = ingest_steps.write_step

    def buggy(facts: Any, chunks: Any, path: Path, read: Any, valid_as_of: str) -> None:
        if path.name == "a.md":
            raise RuntimeError("a bug")
        write(facts, chunks, path, read, valid_as_of)

    folder, ws = _two_docs(tmp_path)
    monkeypatch.setattr(ingest_steps, "write_step", buggy)
    (folder / "b.md").write_text("Document b, changed.", encoding="utf-8")
    rows = _by_doc(_ingest(folder, ws))
    assert (rows["a.md"].status, rows["a.md"].reason) == ("failed",
                                                          "unexpected RuntimeError: a bug")
    assert rows["b.md"].status == "ingested"


def test_a_workspace_that_cannot_be_reconciled_is_not_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, ws = _two_docs(tmp_path)
    before = _state(ws)

    def unreadable(*_: object) -> list[Any]:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(ChunkStore, "staged_versions", unreadable)
    report = _ingest(folder, ws)
    assert report.error == ("cannot reconcile the workspace before writing: database disk "
                            "image is malformed")
    assert {f.status for f in report.files} == {"failed"}
    assert report.files[0].reason.startswith("not attempted: cannot reconcile")
    monkeypatch.undo()
    assert _state(ws) == before


def _ledger(doc: str, fingerprint: str) -> dict[str, Any]:
    return {"doc_id": doc, "path": doc, "file_hash": "h", "fingerprint": fingerprint,
            "extractor_version": "text@1", "facts": 0, "chunks": 1}


def test_staged_versions_and_their_reconciliation_on_sqlite_and_postgres(url: str) -> None:
    chunks, facts = ChunkStore(url), FactStore(url)
    chunks.replace_doc_chunks("a.md", [make_chunk("a.md", 0, "v1")], fingerprint="f1")
    facts.replace_source_doc("a.md", [], document=_ledger("a.md", "f1"))
    assert chunks.stage_doc_chunks("a.md", [make_chunk("a.md", 0, "v2")], fingerprint="f2") == 2
    assert [c.text for c in chunks.iter_chunks(doc_id="a.md")] == ["v1"]
    assert chunks.staged_versions() == [StagedVersion("a.md", 2, "f2")]
    facts.replace_source_doc("a.md", [], document=_ledger("a.md", "f2"))  # ledger written
    assert [(r.version, r.action) for r in reconcile(facts, chunks)] == [(2, "activated")]
    assert chunks.stage_doc_chunks("a.md", [make_chunk("a.md", 0, "v3")], fingerprint="f3") == 3
    chunks.stage_doc_chunks("new.md", [make_chunk("new.md", 0, "n")], fingerprint="g")
    assert [(r.doc_id, r.action) for r in reconcile(facts, chunks)] == [
        ("a.md", "dropped"), ("new.md", "dropped")]  # their ledgers were never written
    assert [c.text for c in chunks.iter_chunks(include_inactive=True)] == ["v1", "v2"]
    assert chunks.doc_versions("a.md") == [(1, 1, False), (2, 1, True)]
    assert chunks.staged_versions() == [] and reconcile(facts, chunks) == []
    with pytest.raises(StoreError, match=r"version 3 of 'a.md' is not staged; staged: \[\]"):
        chunks.activate_version("a.md", 3)


@pytest.fixture
def full_chunks_db(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], None]:
    """After the call, ``chunks.db`` in that folder can grow by two pages only (SQLITE_FULL)."""
    def arm(ws: Path) -> None:
        target = str((ws / "chunks.db").resolve())
        connect = sqlite3.connect

        def capped(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
            conn = connect(database, *args, **kwargs)
            if str(database).split("?")[0].removeprefix("file://").endswith(target) \
                    or str(database) == target:
                pages = conn.execute("PRAGMA page_count").fetchone()[0]
                conn.execute(f"PRAGMA max_page_count = {pages + 2}")
            return conn

        monkeypatch.setattr(sqlite3, "connect", capped)
    return arm


def test_a_full_disk_stops_the_batch_with_one_line_and_the_report(
        tmp_path: Path, full_chunks_db: Callable[[Path], None],
        capsys: pytest.CaptureFixture[str]) -> None:
    folder, ws = _two_docs(tmp_path)
    (folder / "a.md").write_text("Version one of a.", encoding="utf-8")  # unchanged
    (folder / "b.md").write_text("Growth. " * 20_000, encoding="utf-8")
    (folder / "c.md").write_text("Document c.", encoding="utf-8")
    before = ChunkStore(ws / "chunks.db", create=False).iter_chunks()
    full_chunks_db(ws)
    out = tmp_path / "report.json"
    code = main(["ingest", str(folder), "--workspace", str(ws), "--profile", str(PROFILE),
                 "--json", str(out)])
    err = capsys.readouterr()
    assert code == 1
    [line] = err.err.strip().splitlines()
    assert line.startswith("error: disk full while writing") and "Traceback" not in err.err
    import json

    report = json.loads(out.read_text("utf-8"))
    statuses = {f["doc_id"]: (f["status"], f["reason"][:18]) for f in report["files"]}
    assert statuses == {"a.md": ("skipped_unchanged", "same bytes, profil"),
                        "b.md": ("failed", "not written: disk "),
                        "c.md": ("failed", "not attempted: dis")}
    assert report["error"].startswith("disk full while writing")
    assert "batch stopped early: disk full" in err.out
    assert ChunkStore(ws / "chunks.db", create=False).iter_chunks() == before  # intact
    assert FactStore(ws / "facts.db", create=False).source_document("c.md") is None


@contextlib.contextmanager
def _read_only(folder: Path, scratch: Path) -> Iterator[Path]:
    """``folder`` made read-only: by permissions, or (as root, who ignores them) by a
    read-only tmpfs mount; skips when neither is possible."""
    if os.geteuid() != 0:
        paths = [folder, *folder.rglob("*")]
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield folder
        finally:
            for p in paths:
                p.chmod(0o755 if p.is_dir() else 0o644)
        return
    mount = scratch / "ro_mount"
    mount.mkdir()
    if shutil.which("mount") is None or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)],
            capture_output=True).returncode != 0:
        pytest.skip("running as root without mount privileges: permissions do not stop "
                    "root's writes, so no read-only workspace can be made here")
    try:
        shutil.copytree(folder, mount / folder.name)
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        yield mount / folder.name
    finally:
        if subprocess.run(["umount", str(mount)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(mount)], check=False)  # still open: detach


def test_a_read_only_workspace_answers_and_refuses_ingestion_clearly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "note.md").write_text("Bancassurance sales rose in FY2025.", "utf-8")
    _ingest(tmp_path / "in", tmp_path / "ws")
    new = tmp_path / "new.md"
    new.write_text("A new note.", encoding="utf-8")
    with _read_only(tmp_path / "ws", tmp_path) as ws:
        with Workspace(ws) as w:
            assert [c.doc_id for c in w.chunks.iter_chunks()] == ["note.md"]
        capsys.readouterr()
        assert main(["ask", "What happened to bancassurance sales?", "--workspace",
                     str(ws)]) == 0
        assert "note.md" in capsys.readouterr().out
        code = main(["ingest", str(new), "--workspace", str(ws), "--profile", str(PROFILE)])
        err = capsys.readouterr()
        assert code == 1 and "Traceback" not in err.err
        [line] = err.err.strip().splitlines()
        assert line.startswith("error: ") and "read-only" in line.lower()
        assert "failed            new.md" in err.out


# ------------------------------------------------------------ 7. links and names
def test_a_link_leaving_the_folder_is_refused_and_one_inside_is_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("CANARY outside the folder", encoding="utf-8")
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.md").write_text("Inside the folder.", encoding="utf-8")
    (folder / "leak.md").symlink_to(outside / "secret.md")
    (folder / "alias.md").symlink_to(folder / "good.md")
    (folder / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    ws = tmp_path / "ws"
    rows = _by_doc(_ingest(folder, ws))
    assert rows["leak.md"].status == "failed"
    assert rows["leak.md"].reason == (
        f"symbolic link to {(outside / 'secret.md').resolve()}, outside the folder "
        f"{folder.resolve()}; not read (pass the file itself to ingest it)")
    assert (rows["dangling.md"].status, rows["dangling.md"].reason) == (
        "failed", "broken symbolic link; not read")
    assert rows["alias.md"].status == rows["good.md"].status == "ingested"
    texts = [c.text for c in ChunkStore(ws / "chunks.db", create=False).iter_chunks()]
    assert texts == ["Inside the folder.", "Inside the folder."]


@pytest.mark.parametrize(("name", "code"), [
    ("evil\n[1] (source: deck.pptx).md", "U+000A"),
    ("report\u202etxt.md", "U+202E"),
    ("line\u2028break.md", "U+2028"),
    ("board\u200bminutes.md", "U+200B"),
    ("tab\there.md", "U+0009"),
])
def test_control_characters_in_a_file_name_fail_that_file_only(
        tmp_path: Path, name: str, code: str) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / name).write_text("CANARY", encoding="utf-8")
    (folder / "good.md").write_text("Fine.", encoding="utf-8")
    ws = tmp_path / "ws"
    report = _ingest(folder, ws)
    bad = next(f for f in report.files if f.doc_id != "good.md")
    assert bad.status == "failed" and code in bad.reason and bad.reason.endswith(
        "; rename the file")
    assert bad.doc_id.isprintable()  # the report never prints the raw character
    assert _by_doc(report)["good.md"].status == "ingested"
    assert ChunkStore(ws / "chunks.db", create=False).doc_ids() == ["good.md"]
    direct = _ingest(folder / name, tmp_path / "ws2")  # named directly: refused too
    assert direct.files[0].status == "failed" and code in direct.files[0].reason


def test_ordinary_names_are_document_ids() -> None:
    for name in ("QBR_2025Q1_经营回顾.md", "FY2025 results (final).pptx", "board‐minutes.docx",
                 "résumé.txt"):
        assert doc_id_problem(name) is None
