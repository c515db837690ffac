from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from ragspine_nb import ChunkStore, DomainProfile, FactStore, ingest
from ragspine_nb.extract.document import read_document
from tests.conftest import DEMO
from tests.filemakers import make_docx, make_pdf, make_pptx, make_xlsx

GROUND_TRUTH = json.loads((DEMO / "ground_truth.json").read_text(encoding="utf-8"))["facts"]


def _as_truth(store: FactStore) -> list[dict[str, object]]:
    rows = [{"metric_code": f.metric_code, "entity": f.entity, "channel": f.channel,
             "period_type": f.period_type, "period": f.period, "value": f.value, "unit": f.unit,
             "source": {"doc": f.source_doc_id, "locator": f.source_locator}}
            for f in store.iter_facts()]
    return sorted(rows, key=lambda r: (r["source"]["doc"], r["source"]["locator"]))  # type: ignore[index]


# ------------------------------------------------------------------------ demo corpus
def test_demo_fact_store_equals_ground_truth_exactly(demo_ws: Path) -> None:
    store = FactStore(demo_ws / "facts.db", create=False)
    assert _as_truth(store) == GROUND_TRUTH
    assert len(GROUND_TRUTH) == 83


def test_demo_facts_carry_full_version_lineage(demo_ws: Path) -> None:
    store = FactStore(demo_ws / "facts.db", create=False)
    ledger = {d["doc_id"]: d for d in store.source_documents()}
    for f in store.iter_facts():
        assert f.source_file_hash == ledger[f.source_doc_id]["file_hash"]
        assert len(f.source_file_hash) == 64
        assert f.extractor_version in ("pptx@3", "xlsx@3", "csv@3")
        assert f.mapping_version.startswith("glossary@") and f.ingested_at
    pptx = [f for f in store.iter_facts() if f.source_doc_id == "ACME_FY2025_Results.pptx"]
    assert {f.valid_as_of for f in pptx} == {"2026-03-20"}


def test_demo_chunks_keep_slide_page_and_paragraph_locators(demo_ws: Path) -> None:
    chunks = ChunkStore(demo_ws / "chunks.db", create=False).iter_chunks()
    by_doc: dict[str, list[str]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c.source_locator)
    assert by_doc["ACME_FY2025_Results.pptx"] == [
        "slide=1,para=1-2", "slide=2,notes,para=1", "slide=9,para=1-4", "slide=9,para=5",
        "slide=9,notes,para=1"]
    # wrapped lines are reflowed into paragraphs (a chunk quotes whole sentences)
    assert by_doc["Regulatory_Watch_2025H1.pdf"] == ["page=1,para=1-3", "page=2,para=1-3"]
    # a heading starts a chunk: the review's three sections are three chunks
    assert by_doc["QBR_2025Q1_经营回顾.md"] == ["para=1-4", "para=5-6", "para=7-8"]
    source = (DEMO / "reports" / "QBR_2025Q1_经营回顾.md").read_text(encoding="utf-8")
    md = [c for c in chunks if c.doc_id == "QBR_2025Q1_经营回顾.md"]
    assert md[0].text in source and "\n\n" in md[0].text   # exact slice, blank lines kept
    assert (md[0].language, md[0].period, md[0].topic) == ("zh", "2025Q1", "business_review")
    reg = [c for c in chunks if c.doc_id == "Regulatory_Watch_2025H1.pdf"]
    assert {(c.language, c.period, c.topic) for c in reg} == {("en", "2025H1", "regulation")}


def test_demo_board_paper_is_restricted_and_gives_no_facts(demo_ws: Path) -> None:
    chunks = ChunkStore(demo_ws / "chunks.db", create=False)
    board = chunks.iter_chunks(doc_id="board_minutes_2025-11.docx")
    assert board and all(c.sensitivity == "RESTRICTED" for c in board)
    others = [c for c in chunks.iter_chunks() if c.doc_id != "board_minutes_2025-11.docx"]
    assert all(c.sensitivity == "INTERNAL" for c in others)
    assert "CANARY" not in chunks._repr_html_()


def test_restricted_document_tables_are_not_extracted(profile: DomainProfile,
                                                      tmp_path: Path) -> None:
    path = make_docx(tmp_path / "board_paper_fy.docx", ["Board pack"],
                     table=[["US$m", "FY2025"], ["Revenue", "9,999"]])
    result = read_document(path, path.name, profile, metadata={"entity": "ACME_GROUP"})
    assert result.sensitivity == "RESTRICTED" and result.facts == ()
    assert "RESTRICTED document: 1 table value(s) not extracted" in result.warnings


# ------------------------------------------------------------------- every format
def test_every_format_gives_exact_locators(profile: DomainProfile, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    make_pptx(folder / "deck.pptx", [
        {"title": "ACME Hong Kong — Results (US$m)",
         "table": [["US$m", "FY2024", "FY2025"], ["Revenue", "1,320", "1,405"]]},
        {"title": "ACME Group — Profit (US$m)",
         "chart": (["FY2024", "FY2025"], [("Operating profit", (1020.0, 1105.0))])},
        {"title": "Outlook", "text": "Hong Kong agency grew.", "notes": "Say it slowly."},
    ])
    make_xlsx(folder / "book.xlsx", {"Summary": [
        ["ACME Mainland China — summary (RMB m)"], [], ["Metric", "FY2023", "FY2024"],
        ["Revenue", 11000, 11500], ["ROE", 0.093, 0.101]]},
        percent_cells=("Summary!B5", "Summary!C5"))
    (folder / "table.csv").write_text("ACME Group (US$m),,\nMetric,FY2022,FY2023\n"
                                      'Revenue,"4,020","4,180"\n', encoding="utf-8")
    make_docx(folder / "memo.docx", ["Title line", "Second paragraph about Hong Kong."],
              table=[["US$m", "FY2025"], ["New sales - Agency", "835"]])
    make_pdf(folder / "report.pdf", [["Page one text."], [], ["Page three text."]])
    (folder / "notes.md").write_text("# Notes\n\nLine two.\n", encoding="utf-8")
    (folder / "plain.txt").write_text("只有一行中文。\n", encoding="utf-8")
    report = ingest(folder, workspace=tmp_path / "ws", profile=profile, progress=False,
                    metadata={"memo.docx": {"entity": "hong kong"}})
    assert [f.status for f in report.files] == ["ingested"] * 7, report.to_frame()
    facts = {(f.source_doc_id, f.source_locator): (f.entity, f.value, f.unit)
             for f in FactStore(tmp_path / "ws" / "facts.db", create=False).iter_facts()}
    assert facts == {
        ("deck.pptx", "slide=1,table=1,row=REVENUE,col=FY2024"): ("ACME_HK", 1320.0, "USD_M"),
        ("deck.pptx", "slide=1,table=1,row=REVENUE,col=FY2025"): ("ACME_HK", 1405.0, "USD_M"),
        ("deck.pptx", "slide=2,chart=1,series=OPERATING_PROFIT,cat=FY2024"):
            ("ACME_GROUP", 1020.0, "USD_M"),
        ("deck.pptx", "slide=2,chart=1,series=OPERATING_PROFIT,cat=FY2025"):
            ("ACME_GROUP", 1105.0, "USD_M"),
        ("book.xlsx", "sheet=Summary!B4"): ("ACME_CN", 11000.0, "CNY_M"),
        ("book.xlsx", "sheet=Summary!C4"): ("ACME_CN", 11500.0, "CNY_M"),
        ("book.xlsx", "sheet=Summary!B5"): ("ACME_CN", 9.3, "PCT"),
        ("book.xlsx", "sheet=Summary!C5"): ("ACME_CN", 10.1, "PCT"),
        ("table.csv", "cell=B3"): ("ACME_GROUP", 4020.0, "USD_M"),
        ("table.csv", "cell=C3"): ("ACME_GROUP", 4180.0, "USD_M"),
        ("memo.docx", "table=1,row=NEW_SALES.AGENCY,col=FY2025"): ("ACME_HK", 835.0, "USD_M"),
    }
    chunks = {(c.doc_id, c.source_locator): c for c in
              ChunkStore(tmp_path / "ws" / "chunks.db", create=False).iter_chunks()}
    assert set(chunks) == {
        ("deck.pptx", "slide=3,para=1-2"), ("deck.pptx", "slide=3,notes,para=1"),
        ("memo.docx", "para=1-2"), ("report.pdf", "page=1,para=1"),
        ("report.pdf", "page=3,para=1"), ("notes.md", "para=1-2"), ("plain.txt", "para=1"),
    }
    assert chunks[("memo.docx", "para=1-2")].entity == "ACME_HK"
    assert chunks[("plain.txt", "para=1")].language == "zh"
    pdf = next(f for f in report.files if f.doc_id == "report.pdf")
    assert pdf.reason == ("1 of 3 pages have no text layer (scanned?): page(s) 2; they were "
                          "not read (no OCR is installed)")


# --------------------------------------------------------- every failure reason
def _bad_files(folder: Path) -> dict[str, str]:
    """File name → the reason ingestion must give."""
    (folder / "empty.pptx").write_bytes(b"")
    (folder / "encrypted.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)
    (folder / "truncated.pptx").write_bytes(b"PK\x03\x04 this is not a complete zip")
    make_docx(folder / "renamed.pptx", ["a Word document under a .pptx name"])
    (folder / "fake.pdf").write_text("just text", encoding="utf-8")
    make_pdf(folder / "locked.pdf", [["secret"]], password="pw")
    (folder / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    (folder / "binary.txt").write_bytes(b"abc\x00\x01\x02")
    (folder / "slides.key").write_bytes(b"keynote")
    make_pdf(folder / "scanned.pdf", [[], []])
    (folder / "blank.md").write_text("\n  \n\t\n", encoding="utf-8")
    return {
        "empty.pptx": "empty file (0 bytes)",
        "encrypted.xlsx": "password-protected (encrypted) or legacy binary Office file",
        "truncated.pptx": "not a .pptx file",
        "renamed.pptx": "wrong extension: a .pptx name but the content is a Word document",
        "fake.pdf": "not a PDF",
        "locked.pdf": "password-protected PDF",
        "latin1.md": "not UTF-8 text",
        "binary.txt": "binary content in a .txt file",
        "slides.key": "unsupported file type '.key'",
        "scanned.pdf": "no text and no table values found; 2 of 2 pages have no text layer",
        "blank.md": "no text and no table values found",
    }


def test_every_bad_file_gets_a_clear_reason_and_the_batch_goes_on(
        profile: DomainProfile, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    expected = _bad_files(folder)
    shutil.copy(DEMO / "reports" / "ACME_Group_channel_history.csv", folder / "a_good.csv")
    shutil.copy(DEMO / "reports" / "QBR_2025Q1_经营回顾.md", folder / "z_good.md")
    report = ingest(folder, workspace=tmp_path / "ws", profile=profile, progress=False)
    by_doc = {f.doc_id: f for f in report.files}
    for name, reason in expected.items():
        status = "no_text" if name in ("scanned.pdf", "blank.md") else "failed"
        assert by_doc[name].status == status, (name, by_doc[name])
        assert reason in by_doc[name].reason, (name, by_doc[name].reason)
    assert by_doc["a_good.csv"].status == "ingested" and by_doc["a_good.csv"].facts == 6
    assert by_doc["z_good.md"].status == "ingested" and by_doc["z_good.md"].chunks == 3
    assert FactStore(tmp_path / "ws" / "facts.db").count() == 6


def test_a_corrupted_file_in_the_middle_of_a_batch_loses_nothing(
        profile: DomainProfile, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    shutil.copytree(DEMO / "reports", folder)
    ws = tmp_path / "ws"
    ingest(folder, workspace=ws, profile=profile, metadata=DEMO / "metadata.toml",
           progress=False)
    before = _as_truth(FactStore(ws / "facts.db"))
    # corrupt the workbook (in the middle of the sorted batch) and change the csv after it
    (folder / "ACME_5yr_Summary.xlsx").write_bytes(b"PK\x03\x04garbage")
    csv_path = folder / "ACME_Group_channel_history.csv"
    csv_path.write_text(csv_path.read_text(encoding="utf-8").replace("4,310,500", "4,310,600"),
                        encoding="utf-8")
    report = ingest(folder, workspace=ws, profile=profile, metadata=DEMO / "metadata.toml",
                    progress=False)
    statuses = {f.doc_id: f.status for f in report.files}
    assert statuses["ACME_5yr_Summary.xlsx"] == "failed"
    assert statuses["ACME_Group_channel_history.csv"] == "ingested"
    after = _as_truth(FactStore(ws / "facts.db"))
    old_xlsx = [r for r in before if r["source"]["doc"] == "ACME_5yr_Summary.xlsx"]  # type: ignore[index]
    assert [r for r in after if r["source"]["doc"] == "ACME_5yr_Summary.xlsx"] == old_xlsx  # type: ignore[index]
    assert 4310600.0 in [r["value"] for r in after]


# ------------------------------------------------------- re-ingest and dry run
def _db_state(ws: Path) -> tuple[object, ...]:
    out = []
    for name in ("facts.db", "chunks.db"):
        conn = sqlite3.connect(ws / name)
        out.append(conn.execute("SELECT * FROM sqlite_master").fetchall())
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            width = min(3, len(conn.execute(f"PRAGMA table_info({table})").fetchall()))
            order = ", ".join(str(i) for i in range(1, width + 1))
            out.append(conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall())
        conn.close()
    return tuple(out)


def test_unchanged_reingest_writes_nothing(profile: DomainProfile, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    kwargs = dict(workspace=ws, profile=profile, metadata=DEMO / "metadata.toml", progress=False)
    ingest(DEMO / "reports", **kwargs)  # type: ignore[arg-type]
    before = _db_state(ws)
    report = ingest(DEMO / "reports", **kwargs)  # type: ignore[arg-type]
    assert report.count("skipped_unchanged") == 7 and report.count("ingested") == 0
    assert _db_state(ws) == before
    assert report.facts == 0 and {f.facts for f in report.files} >= {36}


def test_changed_metadata_or_profile_reingests(profile: DomainProfile, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ingest(DEMO / "reports" / "QBR_2025Q1_经营回顾.md", workspace=ws, profile=profile,
           progress=False)
    again = ingest(DEMO / "reports" / "QBR_2025Q1_经营回顾.md", workspace=ws, profile=profile,
                   progress=False, metadata={"QBR_2025Q1_经营回顾.md": {"topic": "qbr"}})
    assert again.files[0].status == "ingested"
    assert {c.topic for c in ChunkStore(ws / "chunks.db").iter_chunks()} == {"qbr"}


def test_changed_file_replaces_its_previous_version(profile: DomainProfile,
                                                    tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    doc = tmp_path / "review.md"
    doc.write_text("Hong Kong grew.\n\nChina fell.\n", encoding="utf-8")
    ingest(doc, workspace=ws, profile=profile, progress=False)
    doc.write_text("Hong Kong grew strongly.\n", encoding="utf-8")
    report = ingest(doc, workspace=ws, profile=profile, progress=False)
    assert report.files[0].status == "ingested"
    store = ChunkStore(ws / "chunks.db")
    assert store.doc_versions("review.md") == [(1, 1, False), (2, 1, True)]
    assert [c.text for c in store.iter_chunks(doc_id="review.md")] == ["Hong Kong grew strongly."]
    ledger = FactStore(ws / "facts.db").source_document("review.md")
    assert ledger is not None and ledger["chunks"] == 1


def test_a_file_that_loses_its_text_withdraws_its_chunks(profile: DomainProfile,
                                                         tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    doc = tmp_path / "note.md"
    doc.write_text("Something.\n", encoding="utf-8")
    ingest(doc, workspace=ws, profile=profile, progress=False)
    doc.write_text("\n\n", encoding="utf-8")
    assert ingest(doc, workspace=ws, profile=profile, progress=False).files[0].status == "no_text"
    assert ChunkStore(ws / "chunks.db").iter_chunks(doc_id="note.md") == []


def test_dry_run_writes_nothing_and_reports_the_same(profile: DomainProfile,
                                                     tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    dry = ingest(DEMO / "reports", workspace=ws, profile=profile,
                 metadata=DEMO / "metadata.toml", dry_run=True, progress=False)
    assert not ws.exists()
    real = ingest(DEMO / "reports", workspace=ws, profile=profile,
                  metadata=DEMO / "metadata.toml", progress=False)
    assert dry.dry_run and not real.dry_run
    assert dry.files == real.files and dry.skipped == real.skipped
    before = _db_state(ws)
    dry_again = ingest(DEMO / "reports", workspace=ws, profile=profile,
                       metadata=DEMO / "metadata.toml", dry_run=True, progress=False)
    assert dry_again.count("skipped_unchanged") == 7
    assert _db_state(ws) == before


# ------------------------------------------------------------ report and inputs
def test_report_value_frame_and_html(profile: DomainProfile, tmp_path: Path) -> None:
    report = ingest(DEMO / "reports", workspace=tmp_path / "ws", profile=profile,
                    metadata=DEMO / "metadata.toml", progress=False)
    frame = report.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 7
    assert list(frame.columns[:4]) == ["path", "doc_id", "status", "reason"]
    assert frame["facts"].sum() == 83
    html = report._repr_html_()
    assert "ingested: <b>7</b>" in html and "sheet=Segments!B10" in html
    assert "not a number: &#x27;n/a&#x27;" in html
    assert repr(report) == ("IngestReport(ingested=7, skipped_unchanged=0, failed=0, "
                            "no_text=0, facts=83, chunks=14)")
    assert json.loads(json.dumps(report.to_dict()))["counts"]["ingested"] == 7


def test_bad_metadata_and_duplicate_ids(profile: DomainProfile, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "x.md").write_text("one\n", encoding="utf-8")
    (b / "x.md").write_text("two\n", encoding="utf-8")
    report = ingest([a, b], workspace=tmp_path / "ws", profile=profile, progress=False,
                    metadata={"x.md": {"colour": "red"}, "ghost.md": {"topic": "t"}})
    assert report.files[0].status == "failed" and "unknown key(s) ['colour']" in \
        report.files[0].reason and "valid keys" in report.files[0].reason
    assert report.files[1].reason == "duplicate document id 'x.md' in this batch"
    assert report.warnings == ("metadata given for documents not in this batch: ['ghost.md']",)
    bad_entity = ingest(a, workspace=tmp_path / "ws2", profile=profile, progress=False,
                        metadata={"x.md": {"entity": "Atlantis"}})
    assert "metadata entity 'Atlantis' is not in the profile" in bad_entity.files[0].reason


def test_missing_inputs_raise_before_anything_is_written(profile: DomainProfile,
                                                         tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        ingest([DEMO / "reports", tmp_path / "nope"], workspace=tmp_path / "ws", profile=profile)
    assert not (tmp_path / "ws").exists()


def test_hidden_and_lock_files_are_ignored(profile: DomainProfile, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "config.txt").write_text("x\n", encoding="utf-8")
    (folder / "~$deck.pptx").write_bytes(b"lock")
    (folder / "ok.md").write_text("fine\n", encoding="utf-8")
    report = ingest(folder, workspace=tmp_path / "ws", profile=profile, progress=False)
    assert [f.doc_id for f in report.files] == ["ok.md"]


def test_a_fact_stated_by_two_documents_keeps_both_statements_and_reports_conflicts(
        profile: DomainProfile, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.csv").write_text("ACME Group (US$m),\nMetric,FY2024\nRevenue,\"4,500\"\n"
                                  "New sales,\"8,180\"\n", encoding="utf-8")
    (folder / "b.csv").write_text("ACME Group (US$m),\nMetric,FY2024\nRevenue,\"4,500\"\n"
                                  "New sales,818\n", encoding="utf-8")
    report = ingest(folder, workspace=tmp_path / "ws", profile=profile, progress=False)
    reasons = {s.locator: s.reason for s in report.skipped if s.doc_id == "b.csv"}
    assert reasons == {
        "cell=B4": "CONFLICT (kept, not skipped): a.csv (cell=B4) states 8180 USD_M, this cell "
                   "818 USD_M; answered as a conflict with both sources until resolved "
                   "(ragspine-nb conflicts)",
    }
    store = FactStore(tmp_path / "ws" / "facts.db")
    assert store.query("NEW_SALES", "ACME_GROUP", "FY", "2024") is None  # no single number
    assert [(f.value, f.source_doc_id) for f in store.statements(
        "NEW_SALES", "ACME_GROUP", "FY", "2024")] == [(8180.0, "a.csv"), (818.0, "b.csv")]
    revenue = store.query("REVENUE", "ACME_GROUP", "FY", "2024")
    assert revenue is not None and (revenue.value, revenue.source_doc_id) == (4500.0, "a.csv")
    # a new version of a.csv replaces a.csv's statements only
    (folder / "a.csv").write_text("ACME Group (US$m),\nMetric,FY2024\nRevenue,\"4,501\"\n",
                                  encoding="utf-8")
    ingest(folder / "a.csv", workspace=tmp_path / "ws", profile=profile, progress=False)
    assert store.query("REVENUE", "ACME_GROUP", "FY", "2024") is None  # 4,501 vs b's 4,500
    assert store.lookup("REVENUE", "ACME_GROUP", "FY", "2024").status == "conflict"
    assert store.query("NEW_SALES", "ACME_GROUP", "FY", "2024").value == 818.0  # type: ignore[union-attr]


def test_xlsm_is_read_like_xlsx(profile: DomainProfile, tmp_path: Path) -> None:
    path = make_xlsx(tmp_path / "macro.xlsm", {"Data": [["ACME Group (US$m)"],
                                                        ["Metric", "FY2024"], ["Revenue", 4500]]})
    result = read_document(path, path.name, profile)
    assert [(f.source_locator, f.value) for f in result.facts] == [("sheet=Data!B3", 4500.0)]
