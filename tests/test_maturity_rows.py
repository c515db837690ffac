"""A note named by its maturity date is not dated by it: the date is the note's.

General Mills' 10-Ks list the hedge gain or loss left in AOCI per note ("1.0% notes due
April 27, 2023 | 0.2"); each row was read as dated by its label, so the 2022 10-K's
balances were stored as figures of fiscal 2023, 2024, ... 2048 (and contradicted the 2020
10-K's "2023" in a folder). A label naming what falls due on a date
(:func:`~ragspine_nb.extract.fiscal_calendar.due_on`) gives its row no period; a
balance dated by its label ("Balance at December 31, 2018") still has one.
"""

from __future__ import annotations

from pathlib import Path

from ragspine_nb import FactStore, ingest
from ragspine_nb.extract.fiscal_calendar import due_on


def _periods(tmp_path: Path, name: str, text: str) -> set[str]:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / name).write_text(text, encoding="utf-8")
    ingest(tmp_path / "reports", workspace=tmp_path / "ws", progress=False)
    return {f.period for f in FactStore(tmp_path / "ws" / "facts.db").iter_facts()}


def test_a_notes_maturity_is_no_period_of_its_figures(tmp_path: Path) -> None:
    periods = _periods(tmp_path, "ACME_FY2022_hedges.csv", (
        'In Millions,Gain/(Loss)\n"2.25% notes due October 14, 2031",$ (18.4)\n'
        '"1.0% notes due April 27, 2023",0.2\n"4.0% notes due April 17, 2025",1.7\n'))
    assert not periods & {"2023", "2025", "2031"}


def test_a_balance_dated_by_its_label_keeps_its_period(tmp_path: Path) -> None:
    periods = _periods(tmp_path, "rollforward.csv", (
        ',Software,Total\n"Balances at December 31, 2017",$4565.4,$8820.3\n'
        'Goodwill acquired,684.4,717.5\n"Balances at December 31, 2018",$5236.1,$9346.8\n'
        'Goodwill acquired,143.4,1447.0\n"Balances at December 31, 2019",$5389.4,$10815.4\n'))
    assert periods == {"2017", "2018", "2019"}


def test_which_labels_name_a_maturity() -> None:
    assert due_on("1.0% notes due April 27, 2023")
    assert due_on("Senior notes maturing in 2026")
    assert not due_on("Balance at December 31, 2018")
