"""Small Office files bounded in time and memory, every limit named (issue 35, part 3).

The review's hostile files, made small: an Office part that expands far past its size in
the file, a shared-string table of millions of entries, a table merged down every row, a
file that reads for ever or takes all memory. Each fails (or stops) with the limit named
in its report line, the batch goes on with the next file, and what was stored before
stays whole.
"""

from __future__ import annotations

import io
import subprocess
import sys
import time
import zipfile
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import ChunkStore, FactStore, ingest
from ragspine_nb.extract.base import ExtractionError, ReadContext
from ragspine_nb.extract.document import DocumentResult, read_document
from ragspine_nb.extract.limits import IngestLimits
from ragspine_nb.extract.office import paragraph_styles, read_docx, table_rows
from ragspine_nb.extract.zipguard import count_shared_strings
from ragspine_nb.ingestion.worker import ReaderProcess, ReadJob, batch_reader
from tests.conftest import DEMO, ROOT
from tests.filemakers import make_docx
from tests.worker_jobs import CrashingJob, HungryJob, SlowJob

PROFILE = DEMO / "profile.toml"
W_NS = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
S_NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def _ingest(paths: Any, ws: Path, **kwargs: Any) -> Any:
    return ingest(paths, workspace=ws, profile=PROFILE, progress=False, **kwargs)


def _rows(report: Any) -> dict[str, tuple[str, str]]:
    return {f.doc_id: (f.status, f.reason) for f in report.files}


def _parts(buf: io.BytesIO) -> dict[str, bytes]:
    with zipfile.ZipFile(buf) as z:
        return {n: z.read(n) for n in z.namelist()}


def _docx_of(path: Path, body: bytes, times: int) -> Path:
    """A docx whose body is ``body`` repeated ``times`` times (it compresses to little)."""
    import docx

    buf = io.BytesIO()
    docx.Document().save(buf)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in _parts(buf).items():
            if name != "word/document.xml":
                z.writestr(name, data)
        with z.open("word/document.xml", "w") as fh:
            fh.write(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                     b"<w:document " + W_NS + b"><w:body>" + body * times
                     + b"<w:sectPr/></w:body></w:document>")
    return path


def _paragraphs(path: Path, n: int, text: bytes = b"Revenue grew.") -> Path:
    return _docx_of(path, b"<w:p><w:r><w:t>" + text + b"</w:t></w:r></w:p>", n)


def _xlsx_of(path: Path, sheet_rows: bytes, shared: int = 0) -> Path:
    """A one-sheet workbook with ``sheet_rows`` as its sheet data and ``shared`` strings."""
    import openpyxl

    buf = io.BytesIO()
    book = openpyxl.Workbook()
    book.active.title = "Summary"
    book.save(buf)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in _parts(buf).items():
            if name == "[Content_Types].xml" and shared:
                data = data.replace(b"</Types>", (
                    b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
                    b"</Types>"))
            if name == "xl/_rels/workbook.xml.rels" and shared:
                data = data.replace(b"</Relationships>", (
                    b'<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/'
                    b'officeDocument/2006/relationships/sharedStrings" '
                    b'Target="sharedStrings.xml"/></Relationships>'))
            if name == "xl/worksheets/sheet1.xml":
                data = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet '
                        + S_NS + b"><sheetData>" + sheet_rows + b"</sheetData></worksheet>")
            z.writestr(name, data)
        if shared:
            z.writestr("xl/sharedStrings.xml", b"<sst " + S_NS + b">"
                       + b"<si><t>x</t></si>" * shared + b"</sst>")
    return path


def _inline(text: str) -> bytes:
    return b'<c t="inlineStr"><is><t>' + text.encode() + b"</t></is></c>"


def _stored(ws: Path) -> tuple[list[tuple[str, float]], list[str]]:
    facts = FactStore(ws / "facts.db", create=False)
    chunks = ChunkStore(ws / "chunks.db", create=False)
    return (sorted((f"{f.source_doc_id}|{f.source_locator}", f.value) for f in facts.iter_facts()),
            sorted(c.chunk_id for c in chunks.iter_chunks()))


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.md").write_text("Bancassurance sales rose in Hong Kong.", encoding="utf-8")
    return folder


# ------------------------------------------------------------ the zip guard
def test_a_docx_part_past_max_part_bytes_fails_the_file_and_keeps_its_last_version(
        tmp_path: Path) -> None:
    # the review: an 829 KB docx of 300 MB document.xml grew past 4.7 GB; here 2.4 MB
    folder = _folder(tmp_path)
    bomb = folder / "bomb.docx"
    make_docx(bomb, ["Version one of the review."])
    ws = tmp_path / "ws"
    assert _ingest(folder, ws).count("ingested") == 2
    before = _stored(ws)
    _paragraphs(bomb, 60_000)
    (folder / "good.md").write_text("Bancassurance sales fell.", encoding="utf-8")
    size = zipfile.ZipFile(bomb).getinfo("word/document.xml")
    limits = IngestLimits(max_part_bytes=2**20)
    rows = _rows(_ingest(folder, ws, limits=limits))
    assert rows["bomb.docx"] == ("failed", (
        f"limit max_part_bytes=1048576 reached at part=word/document.xml: the part expands "
        f"to {size.file_size:,} bytes ({size.compress_size:,} in the file), so nothing was "
        "read"))
    assert rows["good.md"][0] == "ingested"
    chunks = ChunkStore(ws / "chunks.db", create=False)
    assert [c.text for c in chunks.iter_chunks(doc_id="bomb.docx")] == [
        "Version one of the review."]
    assert _stored(ws)[0] == before[0]


def test_a_shared_string_table_past_max_shared_strings_fails_before_it_is_built(
        tmp_path: Path) -> None:
    # the review: 20M shared strings took 674 s and 2 GB (under a cap: an empty reason)
    folder = _folder(tmp_path)
    _xlsx_of(folder / "strings.xlsx", b'<row><c t="s"><v>0</v></c></row>', shared=3000)
    rows = _rows(_ingest(folder, tmp_path / "ws",
                         limits=IngestLimits(max_shared_strings=1000)))
    assert rows["strings.xlsx"] == ("failed", (
        "limit max_shared_strings=1000 reached at part=xl/sharedStrings.xml: the "
        "shared-string table holds more than 1,000 strings, so nothing was read"))
    assert rows["good.md"][0] == "ingested"
    # the same workbook under the limit reads (the table is counted, not refused)
    again = _rows(_ingest(folder, tmp_path / "ws2", limits=IngestLimits(max_shared_strings=3000)))
    assert again["strings.xlsx"][0] == "no_text"


@pytest.mark.parametrize("cut", range(1, 30))
def test_shared_strings_are_counted_across_any_chunk_boundary(cut: int) -> None:
    blob = b'<sst><si><t>a</t></si><x:si><t>b</t></x:si><si/><sheet/><si\n></si></sst>'
    assert count_shared_strings(iter([blob[:cut], blob[cut:]]), 100) == 4


def test_a_worksheet_is_streamed_whatever_its_size(tmp_path: Path) -> None:
    rows = (b"<row>" + _inline("ACME Hong Kong (US$m)") + b"</row><row>" + _inline("Metric")
            + _inline("FY2024") + b"</row><row>" + _inline("Revenue") + b"<c><v>1234</v></c>"
            + b"</row>" + b"<row/>" * 20_000)
    book = _xlsx_of(tmp_path / "long.xlsx", rows)
    assert zipfile.ZipFile(book).getinfo("xl/worksheets/sheet1.xml").file_size > 100_000
    report = _ingest(book, tmp_path / "ws", limits=IngestLimits(max_part_bytes=65_536))
    assert (report.files[0].status, report.files[0].facts) == ("ingested", 1)


def _declare(path: Path, name: str, size: int) -> None:
    """Rewrite the uncompressed size ``name`` declares (local header and central directory)."""
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(name)
        central = z.start_dir  # type: ignore[attr-defined]
    data = bytearray(path.read_bytes())
    packed = size.to_bytes(4, "little")
    data[info.header_offset + 22:info.header_offset + 26] = packed
    at = central
    while data[at:at + 4] == b"PK\x01\x02":
        n, extra, comment = (int.from_bytes(data[at + k:at + k + 2], "little")
                             for k in (28, 30, 32))
        if data[at + 46:at + 46 + n] == name.encode():
            data[at + 24:at + 28] = packed
        at += 46 + n + extra + comment
    path.write_bytes(bytes(data))


def test_a_part_that_inflates_past_its_declared_size_is_cut_there(tmp_path: Path) -> None:
    # zipfile hands a library at most the declared size: the central directory is the bound
    doc = _paragraphs(tmp_path / "liar.docx", 50_000)
    _declare(doc, "word/document.xml", 1000)
    assert zipfile.ZipFile(doc).getinfo("word/document.xml").file_size == 1000
    with pytest.raises(ExtractionError, match=r"^cannot open the document: Bad CRC-32 for file "
                       r"'word/document.xml'$"):
        read_document(doc, "liar.docx", _profile())


def _profile() -> Any:
    from ragspine_nb.profile import DomainProfile

    return DomainProfile.from_file(PROFILE)


# ------------------------------------------------------------ docx in linear time
def test_docx_paragraph_styles_are_resolved_once_not_per_paragraph(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the review: Paragraph.style scans every style twice per paragraph (48.7 of 50.1 s)
    import docx
    from docx.text.paragraph import Paragraph

    d = docx.Document()
    d.add_paragraph("Introduction without a style.")
    d.add_paragraph("")
    d.add_heading("", 1)
    d.add_heading("Quarterly business review", 1)
    d.add_paragraph("Revenue grew.", style="List Bullet")
    d.save(str(tmp_path / "qbr.docx"))

    def no_style(self: Paragraph) -> None:
        raise AssertionError("Paragraph.style is a scan of every style")

    monkeypatch.setattr(Paragraph, "style", property(no_style))
    out = read_docx(tmp_path / "qbr.docx", _profile(), ReadContext("qbr.docx"))
    assert out.title == "Quarterly business review"
    assert out.segments[0].text == ("Introduction without a style.\nQuarterly business review\n"
                                    "Revenue grew.")


def test_paragraph_styles_name_what_python_docx_names(tmp_path: Path) -> None:
    import docx

    d = docx.Document()
    for style in ("Title", "Heading 2", "List Bullet", "Normal", "Quote"):
        d.add_paragraph(style, style=style)
    d.add_paragraph("no style")
    body = d.element.body
    body[-2].get_or_add_pPr().get_or_add_pStyle().val = "NoSuchStyle"  # falls back to Normal
    d.save(str(tmp_path / "styles.docx"))
    d = docx.Document(str(tmp_path / "styles.docx"))
    name = paragraph_styles(d.styles.element)
    assert [name(p._p.style) for p in d.paragraphs] == [p.style.name for p in d.paragraphs]
    assert [name(p._p.style) for p in d.paragraphs] == [
        "Title", "Heading 2", "List Bullet", "Normal", "Quote", "Normal"]


def _merged_table(path: Path, rows: int) -> Any:
    import docx

    d = docx.Document()
    t = d.add_table(rows=rows, cols=4)
    for r in range(rows):
        for c in range(1, 4):
            t.cell(r, c).text = f"{r}{c}"
    t.cell(0, 0).text = "Revenue"
    t.cell(0, 0).merge(t.cell(rows - 1, 0))  # merged down every row
    t.cell(1, 1).merge(t.cell(1, 3))  # across a row
    d.save(str(path))
    return docx.Document(str(path)).tables[0]


def test_docx_table_rows_are_python_docx_rows_merged_cells_included(tmp_path: Path) -> None:
    from ragspine_nb.extract.tables import cell_text

    table = _merged_table(tmp_path / "t.docx", 6)
    expected = [[cell_text(c.text) for c in row.cells] for row in table.rows]
    assert table_rows(table, 0, 10**6) == (expected, 24)
    assert expected[1] == ["Revenue", "11\n12\n13", "11\n12\n13", "11\n12\n13"]


def _tc(text: str, merge: bytes = b"") -> bytes:
    props = b"<w:tcPr>" + merge + b"</w:tcPr>" if merge else b""
    return b"<w:tc>" + props + b"<w:p><w:r><w:t>" + text.encode() + b"</w:t></w:r></w:p></w:tc>"


def test_a_table_merged_down_every_row_is_read_in_one_pass(tmp_path: Path) -> None:
    # python-docx finds a merged cell by walking up the rows: quadratic in the table
    import docx

    rows = [b"<w:tr>" + _tc("Revenue", b'<w:vMerge w:val="restart"/>')
            + b"".join(_tc(f"0{c}") for c in range(1, 4)) + b"</w:tr>"]
    rows += [b"<w:tr>" + _tc("", b"<w:vMerge/>") + b"".join(_tc(f"{r}{c}") for c in range(1, 4))
             + b"</w:tr>" for r in range(1, 3000)]
    grid = b"<w:tblGrid>" + b'<w:gridCol w:w="2000"/>' * 4 + b"</w:tblGrid>"
    _docx_of(tmp_path / "t.docx", b"<w:tbl>" + grid + b"".join(rows) + b"</w:tbl>", 1)
    table = docx.Document(str(tmp_path / "t.docx")).tables[0]
    started = time.perf_counter()
    found, cells = table_rows(table, 0, 10**6)
    assert time.perf_counter() - started < 5
    assert found is not None and cells == 12_000
    assert {r[0] for r in found} == {"Revenue"} and found[-1][1:] == ["29991", "29992", "29993"]


def test_docx_table_cells_count_against_max_cells_per_doc(tmp_path: Path) -> None:
    doc = make_docx(tmp_path / "t.docx", ["Results."],
                    [["Metric", "FY2024"], ["Revenue", "1,234"], ["Costs", "567"]])
    report = _ingest(doc, tmp_path / "ws", limits=IngestLimits(max_cells_per_doc=5))
    assert report.files[0].reason == ("limit max_cells_per_doc=5 reached at table=1: this "
                                      "table and the tables after it were not read")


def test_a_sheet_stops_at_max_cells_per_doc_and_says_so(tmp_path: Path) -> None:
    # the review: a 6M-cell sheet named no max_cells_per_doc (5M)
    rows = b"<row>" + _inline("note") + _inline("more") + _inline("words") + b"</row>"
    book = _xlsx_of(tmp_path / "cells.xlsx", rows * 500)
    report = _ingest(book, tmp_path / "ws", limits=IngestLimits(max_cells_per_doc=300))
    assert report.files[0].reason == (
        "no table with a header row of periods was found; "
        "limit max_cells_per_doc=300 reached at sheet=Summary!A101: this row and everything "
        "after it were not read") or report.files[0].reason.endswith(
        "limit max_cells_per_doc=300 reached at sheet=Summary!A101: this row and everything "
        "after it were not read")


def test_a_sheet_is_opened_without_a_scan_for_its_dimension(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # openpyxl parses a whole sheet that has no <dimension> when it opens it (the
    # review's 30M-row sheet: minutes and gigabytes before a cell was read)
    from openpyxl.worksheet._reader import WorkSheetParser

    def scan(self: WorkSheetParser) -> None:
        raise AssertionError("the whole sheet parsed to look for <dimension>")

    monkeypatch.setattr(WorkSheetParser, "parse_dimensions", scan)
    rows = (b"<row>" + _inline("ACME Hong Kong (US$m)") + b"</row><row>" + _inline("Metric")
            + _inline("FY2024") + b"</row><row>" + _inline("Revenue") + b"<c><v>1234</v></c>"
            + b"</row>")
    result = read_document(_xlsx_of(tmp_path / "nodim.xlsx", rows), "nodim.xlsx", _profile())
    assert [(f.metric_code, f.value, f.source_locator) for f in result.facts] == [
        ("REVENUE", 1234.0, "sheet=Summary!B3")]
    from openpyxl.reader import excel
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    assert excel.ReadOnlyWorksheet is ReadOnlyWorksheet  # openpyxl's own class again


# ------------------------------------------------------------ the worker
def _as(kind: type[ReadJob]) -> Any:
    """A batch reader that reads ``bad.*`` files as ``kind`` in its worker."""
    def reader(job: ReadJob) -> DocumentResult:
        if job.path.stem == "bad":
            job = kind(**{f.name: getattr(job, f.name) for f in fields(job)})
        return worker.read(job)

    worker = ReaderProcess()
    return reader, worker


def _batch(tmp_path: Path, kind: type[ReadJob], limits: IngestLimits) -> tuple[Any, Path]:
    from ragspine_nb.extract.collect import collect_files
    from ragspine_nb.extract.lineage import profile_fingerprint
    from ragspine_nb.ingestion.batch import run_batch
    from ragspine_nb.ingestion.steps import Settings
    from ragspine_nb.ingestion.workspace import Workspace

    folder = _folder(tmp_path)
    (folder / "bad.md").write_text("Version one.", encoding="utf-8")
    ws_path = tmp_path / "ws"
    assert _ingest(folder, ws_path).count("ingested") == 2
    before = _stored(ws_path)
    (folder / "bad.md").write_text("Version two.", encoding="utf-8")
    (folder / "later.md").write_text("Agency sales fell.", encoding="utf-8")
    reader, worker = _as(kind)
    prof = _profile()
    s = Settings(prof, profile_fingerprint(prof), False, 1000, 100, limits, worker=False,
                 reader=reader)
    try:
        with Workspace(ws_path, prof) as ws:
            reports, _, error = run_batch(collect_files([folder]), ws.facts, ws.chunks, s, {},
                                          False, "")
    finally:
        worker.close()
    assert error == ""
    after = _stored(ws_path)
    assert after[0] == before[0] and set(before[1]) - set(after[1]) == set()
    return {r.doc_id: (r.status, r.reason) for r in reports}, ws_path


def test_a_file_past_the_deadline_fails_naming_it_and_the_batch_goes_on(tmp_path: Path) -> None:
    started = time.perf_counter()
    rows, ws = _batch(tmp_path, SlowJob, IngestLimits(max_seconds_per_file=2))
    assert time.perf_counter() - started < 60
    assert rows["bad.md"] == ("failed", (
        "limit max_seconds_per_file=2 reached: reading stopped at the per-file deadline "
        "(2 s) and nothing was written for this file"))
    assert rows["later.md"][0] == rows["good.md"][0] == "ingested"
    assert [c.text for c in ChunkStore(ws / "chunks.db").iter_chunks(doc_id="bad.md")] == [
        "Version one."]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no RLIMIT_AS to measure")
def test_a_file_past_the_memory_cap_fails_naming_it_and_the_batch_goes_on(
        tmp_path: Path) -> None:
    rows, _ = _batch(tmp_path, HungryJob, IngestLimits(max_memory_bytes=64 * 2**20))
    assert rows["bad.md"] == ("failed", (
        "limit max_memory_bytes=67108864 reached: reading this file needed more memory and "
        "nothing was written for it"))
    assert rows["later.md"][0] == rows["good.md"][0] == "ingested"


def test_a_crashed_reader_fails_that_file_only(tmp_path: Path) -> None:
    rows, _ = _batch(tmp_path, CrashingJob, IngestLimits())
    assert rows["bad.md"] == ("failed", (
        "the reader process crashed (exit code 3) while reading this file; nothing was "
        "written for it"))
    assert rows["later.md"][0] == rows["good.md"][0] == "ingested"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no RLIMIT_AS to measure")
def test_a_real_parse_past_the_memory_cap_names_the_limit_not_unknown_error(
        tmp_path: Path) -> None:
    # the review: under a cap, lxml said "unknown error (<string>, line 0)"
    folder = _folder(tmp_path)
    _paragraphs(folder / "dense.docx", 300_000)
    rows = _rows(_ingest(folder, tmp_path / "ws",
                         limits=IngestLimits(max_memory_bytes=48 * 2**20)))
    status, reason = rows["dense.docx"]
    assert status == "failed"
    assert reason.startswith("limit max_memory_bytes=50331648 reached: reading this file "
                             "needed more memory"), reason
    assert rows["good.md"][0] == "ingested"


def test_one_worker_serves_the_batches_of_a_process(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text("Bancassurance sales rose.", encoding="utf-8")
    job = ReadJob(note, "note.md", _profile())
    with batch_reader() as first:
        first(job)
    with batch_reader() as second:
        assert second(job).chunks == first(job).chunks
    assert getattr(first, "__self__", None) is getattr(second, "__self__", None)


def test_files_read_in_the_worker_and_here_give_the_same_report(tmp_path: Path) -> None:
    here = _ingest(DEMO / "reports", tmp_path / "a", worker=False)
    there = _ingest(DEMO / "reports", tmp_path / "b")
    assert [(f.doc_id, f.status, f.facts, f.chunks, f.reason) for f in here.files] == [
        (f.doc_id, f.status, f.facts, f.chunks, f.reason) for f in there.files]
    assert here.skipped == there.skipped
    assert _stored(tmp_path / "a") == _stored(tmp_path / "b")


def test_a_script_without_a_main_guard_can_ingest(tmp_path: Path) -> None:
    # the worker is no multiprocessing child: it never imports the caller's __main__
    (tmp_path / "note.md").write_text("Bancassurance sales rose.", encoding="utf-8")
    script = tmp_path / "run.py"
    script.write_text(
        "from ragspine_nb import ingest\n"
        f"r = ingest({str(tmp_path / 'note.md')!r}, workspace={str(tmp_path / 'ws')!r}, "
        "progress=False)\n"
        "print(r.files[0].status)\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.stdout.strip() == "ingested", done.stderr


# ------------------------------------------------------------ conflicts are always listed
def test_a_conflict_is_listed_past_max_skipped_per_doc(tmp_path: Path) -> None:
    # the review: 1,100 junk rows before a conflicting Revenue row hid the CONFLICT note
    ws = tmp_path / "ws"
    first = tmp_path / "group.csv"
    first.write_text("ACME Group (US$ millions),,\nMetric,FY2024,FY2025\nRevenue,4500,4760\n",
                     encoding="utf-8")
    _ingest(first, ws)
    restated = tmp_path / "restated.csv"
    with restated.open("w", encoding="utf-8") as fh:
        fh.write("ACME Group restated (US$ millions),,\nMetric,FY2024,FY2025\n")
        fh.writelines(f"Adjustment line {i},1,2\n" for i in range(1100))
        fh.write("Revenue,999,999\n")
    report = _ingest(restated, ws)
    row = report.files[0]
    conflicts = [s for s in report.skipped if s.reason.startswith("CONFLICT")]
    assert len(conflicts) == 2 and len(report.skipped) == 1002
    assert row.skipped == 1102  # 1,100 rows named no metric, 2 conflicts: all counted
    assert row.reason == ("limit max_skipped_per_doc=1000 reached at cell=A1003: 100 more "
                          "skipped cells were counted but not listed")
    assert [c.reason.split(":")[0] for c in conflicts] == ["CONFLICT (kept, not skipped)"] * 2
