"""A count drawn with dot leaders is still a count: no currency scale applies to it.

Adobe's 2015 10-K prints its selected financial data with dot leaders ("Worldwide
employees......... 13,893") under a sentence "(presented in thousands, except per share
amounts and employee data)". The leaders hid the label's last word from the row-kind
rules, so the employees were an amount and took the thousands: 13,893 thousand employees.
"""

from __future__ import annotations

from pathlib import Path

from ragspine_nb import FactStore, ingest
from ragspine_nb.extract.row_kinds import row_kind
from tests.filings import dev_filing_workspace, page_facts


def test_a_label_with_dot_leaders_keeps_its_kind() -> None:
    assert row_kind("Worldwide employees.............................") == "count"
    assert row_kind("Number of stores …………") == "count"
    assert row_kind("Diluted earnings per share.......") == "per_share"
    assert row_kind("Total assets..........") == "amount"


def test_employees_in_a_table_in_thousands_are_not_scaled(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "selected.csv").write_text(
        "(in thousands),2015,2014\nRevenue......................,\"4,795,511\",\"4,147,065\"\n"
        "Worldwide employees..........,\"13,893\",\"12,499\"\n", encoding="utf-8")
    ingest(tmp_path / "reports", workspace=tmp_path / "ws", progress=False)
    units = {f.metric_code: f.unit for f in FactStore(tmp_path / "ws" / "facts.db").iter_facts()}
    assert units["WORLDWIDE_EMPLOYEES"] == "NUMBER"
    assert units["REVENUE"].endswith("K")


def test_adobes_employees_are_a_count(tmp_path: Path) -> None:
    ws = dev_filing_workspace(tmp_path, "ADOBE_2015_10K.pdf")
    facts = page_facts(ws, "page=34,table=2,")
    assert facts[("WORLDWIDE_EMPLOYEES", "TOTAL", "2015")] == (13893.0, "NUMBER")
