"""Tables written as a user's CSV files: read back, or ingested into a workspace and asked."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from ragspine_nb import Agent, DomainProfile
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


def csv_agent(root: Path, files: dict[str, str],
              metadata: dict[str, dict[str, Any]] | None = None) -> Agent:
    """``files`` (name → CSV text) ingested with no profile, as a user's folder; its Agent."""
    from ragspine_nb.workspace import ingest

    folder = root / "files"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    ingest(folder, workspace=root / "ws", profile=None, metadata=metadata, progress=False)
    return Agent.from_workspace(root / "ws")


def cells_of(ex: Extraction) -> dict[str, list[Row]]:
    """Locator → the facts stored from that cell (a cell may be named two ways)."""
    out: dict[str, list[Row]] = {}
    for f in ex.facts:
        out.setdefault(f.source_locator, []).append(
            (f.metric_code, f.channel, f.period_type, f.period, f.value, f.unit))
    return {k: sorted(v) for k, v in out.items()}
