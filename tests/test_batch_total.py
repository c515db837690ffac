"""A bare "Total" row takes the name the sentence introducing its table gives it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import FactStore, ingest
from ragspine_nb.extract.table_subject import table_subject
from tests.tablehelpers import csv_agent, figures_of

ACCRUED = ("Item,2019,2018\nVacation and other compensation,1659,1433\nPayroll taxes,155,113\n"
           "Warranty reserve,529,520\n,2343,2066\n")
INTRO = "# Note 7\n\nAccrued liabilities at April 30, 2019 and 2018, respectively, " \
        "consisted of the following (in thousands):\n"


@pytest.mark.parametrize("sentence, subject", [
    ("Accrued liabilities at April 30, 2019 and 2018, respectively, consisted of the "
     "following (in thousands):", "Accrued liabilities"),
    ("Dividends paid during the financial year were as follows:", "Dividends paid"),
    ("The fair value of the derivative liabilities is as follows:",
     "fair value of the derivative liabilities"),
    ("Revenue by geographic area was as follows:", "Revenue"),
    ("Net cash provided by operating activities was as follows:",
     "Net cash provided by operating activities"),
    ("Property, plant and equipment consisted of the following:",
     "Property, plant and equipment"),
    ("The following table summarizes our U.S. and foreign components of income (loss) from "
     "continuing operations before income taxes (in millions):",
     "income from continuing operations before income taxes"),
    # the items included in a figure do not add up to it
    ("Operating income included the following:", ""),
    # a roll-forward's movements, a pronoun, a clause: no name
    ("The changes in the allowance for doubtful accounts were as follows:", ""),
    ("Goodwill activity for each period was as follows:", ""),
    ("They were as follows:", ""),
    ("The weighted average assumptions used were as follows:", ""),
])
def test_table_subject(sentence: str, subject: str) -> None:
    assert table_subject(sentence) == subject


def _facts(root: Path) -> dict[tuple[str, str], tuple[float, str]]:
    return {(f.metric_code, f.period): (f.value, f.mapping_version.rsplit("|", 1)[-1])
            for f in FactStore(root / "ws" / "facts.db").iter_facts()}


def test_the_introduced_total_is_answered_by_its_name(tmp_path: Path) -> None:
    agent = csv_agent(tmp_path, {"table.csv": ACCRUED, "notes.md": INTRO})
    facts = _facts(tmp_path)
    assert facts[("ACCRUED_LIABILITIES", "2019")] == \
        (2343.0, "total=Accrued liabilities from notes.md")
    assert ("TOTAL", "2019") not in facts
    result = agent.ask("What were total accrued liabilities in 2019?",
                       reference_date=None)
    assert [(f.value, f.label) for f in result.figures] == \
        [(2343.0, "the company Total accrued liabilities, FY2019")]
    assert "cell=B5" in result.answer
    # its rows are its parts: a share of it is computed
    assert figures_of(agent, "What percentage of total accrued liabilities was warranty "
                             "reserve in 2019?") == [(22.58, "PCT", "share")]
    agent.close()


def _folder(tmp_path: Path) -> Path:
    """The accrued liabilities table and its introducing note, in a folder of their own."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "table.csv").write_text(ACCRUED, "utf-8")
    (folder / "notes.md").write_text(INTRO, "utf-8")
    return folder


def test_the_report_line_says_where_the_name_came_from(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    report = ingest(folder, workspace=tmp_path / "ws", progress=False)
    line = next(f for f in report.files if f.doc_id == "table.csv")
    assert "bare total row read as 'Accrued liabilities' from the prose of notes.md" \
        in line.reason


def test_a_subject_the_profile_names_is_that_metric(tmp_path: Path) -> None:
    table = "Region,2019,2018\nUnited States,700,650\nEurope,300,250\nTotal,1000,900\n"
    agent = csv_agent(tmp_path, {"table.csv": table,
                                 "notes.md": "Revenue by geographic area was as follows:\n"})
    assert _facts(tmp_path)[("REVENUE", "2019")][0] == 1000.0
    assert figures_of(agent, "What was revenue in 2019?") == [(1000.0, "", "lookup")]
    agent.close()


@pytest.mark.parametrize("table, notes", [
    # "included": the items in operating income, not operating income
    (ACCRUED, "Operating income included the following:\n"),
    # two tables introduced: which one this is, the folder does not say
    (ACCRUED, INTRO + "\nInventories consisted of the following:\n"),
    # a gross total with rows below it
    (ACCRUED + "Less amounts paid,(100),(90)\nNet,2243,1976\n", INTRO),
    # a total its rows do not add up to
    (ACCRUED.replace("2343", "9999"), INTRO),
])
def test_an_unnamed_total_stays_as_it_is(tmp_path: Path, table: str, notes: str) -> None:
    csv_agent(tmp_path, {"table.csv": table, "notes.md": notes}).close()
    assert not any(code == "ACCRUED_LIABILITIES" for code, _ in _facts(tmp_path))


def test_two_tables_with_bare_totals_in_one_folder_are_left_alone(tmp_path: Path) -> None:
    csv_agent(tmp_path, {"a.csv": ACCRUED, "b.csv": ACCRUED.replace("Item", "Other"),
                         "notes.md": INTRO}).close()
    assert not any(code == "ACCRUED_LIABILITIES" for code, _ in _facts(tmp_path))


def test_restricted_prose_never_names_a_total(tmp_path: Path) -> None:
    csv_agent(tmp_path, {"table.csv": ACCRUED, "notes.md": INTRO},
              metadata={"notes.md": {"sensitivity": "RESTRICTED"}}).close()
    assert not any(code == "ACCRUED_LIABILITIES" for code, _ in _facts(tmp_path))


def test_a_part_of_an_introduced_total_asked_with_the_introducing_words(tmp_path: Path
                                                                        ) -> None:
    table = ("For the year ended,2019,2018,2017\nUnited States,700,650,600\n"
             "Hong Kong,300,250,200\n,1000,900,800\n")
    notes = "Revenue based on the geographic location of our customer's headquarters " \
            "was as follows:\n"
    agent = csv_agent(tmp_path, {"table.csv": table, "notes.md": notes})
    assert figures_of(agent, "What is the percentage change of revenue from Hong Kong from "
                             "2017 to 2018, based on the geographic location of the "
                             "customer's headquarters?") == [(25.0, "PCT", "percent_change")]
    assert figures_of(agent, "What was total revenue in 2019?") == [(1000.0, "", "lookup")]
    agent.close()


def test_a_changed_note_renames_the_total_again(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    again = ingest(folder, workspace=tmp_path / "ws", progress=False)
    assert [f.status for f in again.files] == ["skipped_unchanged", "skipped_unchanged"]
    (folder / "notes.md").write_text("Other current liabilities consisted of the following:",
                                     "utf-8")
    third = ingest(folder, workspace=tmp_path / "ws", progress=False)
    assert [f.status for f in third.files] == ["ingested", "ingested"]
    codes = {code for code, _ in _facts(tmp_path)}
    assert "OTHER_CURRENT_LIABILITIES" in codes and "ACCRUED_LIABILITIES" not in codes
