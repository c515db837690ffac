"""A table written as a CSV file and read back as a user's file is read; its facts by cell."""

from __future__ import annotations

import csv
from pathlib import Path

from ragspine_nb import DomainProfile
from ragspine_nb.extract.base import Extraction, ReadContext
from ragspine_nb.extract.plain import read_csv

Row = tuple[str, str, str, str, float, str]  # metric, channel, type, period, value, unit


def read_table(tmp_path: Path, rows: list[list[str]], name: str = "table.csv",
               profile: DomainProfile | None = None,
               period: tuple[str, str] | None = None) -> Extraction:
    """``rows`` written with Python's ``csv`` module and read (built-in profile by default)."""
    path = tmp_path / name
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return read_csv(path, profile or DomainProfile.builtin(), ReadContext(name, period=period))


def cells_of(ex: Extraction) -> dict[str, list[Row]]:
    """Locator → the facts stored from that cell (a cell may be named two ways)."""
    out: dict[str, list[Row]] = {}
    for f in ex.facts:
        out.setdefault(f.source_locator, []).append(
            (f.metric_code, f.channel, f.period_type, f.period, f.value, f.unit))
    return {k: sorted(v) for k, v in out.items()}
