"""A table naming no period takes the document's, or the one the prose beside it states.

Real folders ingested into a real workspace: a table of buckets ("Less than 1 year |
1-3 years | Total") gives no fact on its own; metadata ``period``, a period in the file
name, or the sentence introducing the table in a note of the same folder ("... as of
December 31, 2019:") dates it, and the facts' lineage and the file's report line say
where the period came from. Prose naming two years, a quarter, or nothing keeps the
table skipped and says so.
"""

from __future__ import annotations

from pathlib import Path

from ragspine_nb import FactStore, ingest
from ragspine_nb.core import Fact
from tests.filemakers import make_docx

TABLE = ("Contractual Obligations,Total,Less than 1 Year,1-3 Years\n"
         "Long-term debt,\"$10,556.6\",$—,\"$2,747.6\"\n"
         "Operating lease obligations,312.6,52.1,86.4\n")
INTRO = ("# Obligations\n\nA summary of our contractual obligations as of May 26, 2019, "
         "was as follows:\n\nThe figures above are in millions of dollars.\n")


def _folder(root: Path, notes: str | None = INTRO, table: str = "table.csv") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / table).write_text(TABLE, "utf-8")
    if notes is not None:
        (root / "notes.md").write_text(notes, "utf-8")
    return root


def _facts(ws: Path) -> list[Fact]:
    return [f for f in FactStore(ws / "facts.db").iter_facts() if f.source_doc_id != "notes.md"]


def test_the_introducing_sentence_dates_a_table_of_buckets(tmp_path: Path) -> None:
    report = ingest(_folder(tmp_path / "docs"), workspace=tmp_path / "ws", progress=False)
    line = next(f for f in report.files if f.doc_id == "table.csv")
    assert line.status == "ingested" and line.facts > 0
    assert "1 table(s) dated FY2019 from the prose of notes.md" in line.reason
    assert "'A summary of our contractual obligations as of May 26, 2019, was as follows:'" \
        in line.reason
    facts = {(f.metric_code, f.channel): f for f in _facts(tmp_path / "ws")}
    debt = facts[("LONG_TERM_DEBT", "TOTAL")]
    assert (debt.period_type, debt.period, debt.value) == ("FY", "2019", 10556.6)
    assert facts[("LONG_TERM_DEBT", "C_1_3")].value == 2747.6
    # the prose also states the scale: both are recorded, in the order they were applied
    assert {f.mapping_version.split("|", 1)[1] for f in _facts(tmp_path / "ws")} == \
        {"period=FY2019 from notes.md|scale=M from notes.md"}


def test_prose_naming_two_years_or_a_quarter_or_nothing_keeps_it_skipped(tmp_path: Path
                                                                         ) -> None:
    for i, notes in enumerate([
            "The following table shows our obligations as of December 31, 2019 and 2018:\n",
            "The following table shows the three months ended June 30, 2019:\n",
            "Our obligations grew in 2019.\n", None]):
        report = ingest(_folder(tmp_path / f"docs{i}", notes), workspace=tmp_path / f"ws{i}",
                        progress=False)
        line = next(f for f in report.files if f.doc_id == "table.csv")
        assert line.facts == 0, notes
        assert "period not stated: 1 table(s) name no period and no prose in their folder " \
               "states exactly one; they are skipped" in line.reason
        assert any("not a period; column skipped" in s.reason for s in report.skipped)


def test_metadata_or_the_file_name_period_dates_the_table_and_its_lineage(tmp_path: Path
                                                                         ) -> None:
    docs = _folder(tmp_path / "docs", notes=None)
    ingest(docs, workspace=tmp_path / "ws", metadata={"table.csv": {"period": "FY2018"}},
           progress=False)
    found = _facts(tmp_path / "ws")
    assert {(f.period_type, f.period) for f in found} == {("FY", "2018")}
    assert {f.mapping_version.split("|", 1)[1] for f in found} == {"period=FY2018 from metadata"}
    named = tmp_path / "named"
    named.mkdir()
    rows = [r.split(",") for r in ("Obligations,Total,Less than 1 Year",
                                   "Long-term debt,10556.6,20.6")]
    make_docx(named / "obligations_FY2017.docx", ["Contractual obligations"], rows)
    (named / "notes.md").write_text(INTRO, "utf-8")
    ingest(named, workspace=tmp_path / "ws2", progress=False)
    found = _facts(tmp_path / "ws2")
    # the file name speaks before the prose does (the prose still tells the scale)
    assert {(f.period, f.value, f.mapping_version.split("|", 1)[1]) for f in found} == \
        {("2017", 10556.6, "period=FY2017 from file name|scale=M from notes.md"),
         ("2017", 20.6, "period=FY2017 from file name|scale=M from notes.md")}


def test_a_documents_own_introducing_paragraph_dates_its_table(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    rows = [r.split(",") for r in ("Obligations,Total,Less than 1 Year",
                                   "Long-term debt,10556.6,20.6")]
    make_docx(docs / "report.docx", ["Our contractual obligations as of June 30, 2019 (in "
                                     "millions) were as follows:"], rows)
    report = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert "dated FY2019 from the prose of report.docx" in report.files[0].reason
    assert {(f.period, f.unit) for f in _facts(tmp_path / "ws")} == {("2019", "M")}


def test_a_table_naming_its_own_periods_takes_no_period_from_prose(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "table.csv").write_text("Item,2019,2018\nRevenue,757.3,700.1\n", "utf-8")
    (docs / "notes.md").write_text(INTRO, "utf-8")
    report = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert "period" not in next(f for f in report.files if f.doc_id == "table.csv").reason
    assert {f.period for f in _facts(tmp_path / "ws")} == {"2019", "2018"}
    assert all("|period=" not in f.mapping_version for f in _facts(tmp_path / "ws"))


def test_a_changed_note_rereads_the_undated_table(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs", notes="Nothing about dates.\n")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert _facts(tmp_path / "ws") == []
    again = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert [f.status for f in again.files] == ["skipped_unchanged", "skipped_unchanged"]
    (docs / "notes.md").write_text(INTRO, "utf-8")
    third = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert [f.status for f in third.files] == ["ingested", "ingested"]
    assert {f.period for f in _facts(tmp_path / "ws")} == {"2019"}


def test_restricted_prose_never_dates_a_table(tmp_path: Path) -> None:
    report = ingest(_folder(tmp_path / "docs"), workspace=tmp_path / "ws",
                    metadata={"notes.md": {"sensitivity": "RESTRICTED"}}, progress=False)
    line = next(f for f in report.files if f.doc_id == "table.csv")
    assert line.facts == 0 and "May 26" not in line.reason


def test_a_column_that_gave_no_fact_still_votes_for_the_scale(tmp_path: Path) -> None:
    # the prose quotes the "Additions" column, which names no period and gives no fact;
    # every figure of the table votes, so the balances take the scale it shows
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "table.csv").write_text(
        ",\"Balance, January 31, 2018\",Additions,\"Balance, January 31, 2019\"\n"
        "Employee termination costs,$53.0,$39.2,$2.0\n"
        "Facility exit costs,2.5,3.2,0.1\n", "utf-8")
    (docs / "notes.md").write_text(
        "Charges included $39.2 million in employee termination benefits.\n", "utf-8")
    report = ingest(docs, workspace=tmp_path / "ws", progress=False)
    assert "read in millions from the prose of notes.md" in report.files[1].reason
    units = {(f.metric_code, f.period): f.unit for f in _facts(tmp_path / "ws")}
    assert units[("EMPLOYEE_TERMINATION_COSTS", "2019")] == "M"


def test_a_heading_or_an_as_of_date_dates_the_table(tmp_path: Path) -> None:
    # a heading line over the table; and an introducing sentence stating the date its
    # table is at, beside another year it mentions
    for i, notes in enumerate([
            "# Notes\n\nMaturity analysis of obligations at December 31, 2019\n\nMore text.\n",
            "The following table summarizes, as of December 31, 2019, our obligations for "
            "the lease entered into during 2018:\n"]):
        report = ingest(_folder(tmp_path / f"docs{i}", notes), workspace=tmp_path / f"ws{i}",
                        progress=False)
        line = next(f for f in report.files if f.doc_id == "table.csv")
        assert "1 table(s) dated FY2019 from the prose of notes.md" in line.reason, notes
        assert {f.period for f in _facts(tmp_path / f"ws{i}")} == {"2019"}
