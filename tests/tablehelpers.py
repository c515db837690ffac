"""Tables written as a user's CSV files: read back, or ingested into a workspace and asked."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb import Agent, DomainProfile
from ragspine_nb.extract.base import Extraction, ReadContext
from ragspine_nb.extract.plain import read_csv

Row = tuple[str, str, str, str, float, str]  # metric, channel, type, period, value, unit
#: The reference date of the tables these tests write (the scorer's rule: after 2019).
TATQA_REFERENCE = date(2020, 1, 1)
#: A roll-forward of share awards: dated balances, the movements between them.
AWARDS = [
    ["Non-vested awards", "Shares", "Weighted-Average Grant Date Fair Value"],
    ["Non-vested at December 31, 2018", "1,187,586", "$41.12"],
    ["Granted", "473,550", "$53.53"],
    ["Vested", "(365,223)", "$41.83"],
    ["Forfeited", "(12,632)", "$50.49"],
    ["Non-vested at December 31, 2019", "1,283,281", "$45.40"],
]


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
    folder = root / "files"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return _ingested(folder, root, metadata)


def _ingested(folder: Path, root: Path,
              metadata: dict[str, dict[str, Any]] | None = None) -> Agent:
    from ragspine_nb.ingestion.workspace import ingest

    ingest(folder, workspace=root / "ws", profile=None, metadata=metadata, progress=False)
    return Agent.from_workspace(root / "ws")


def tatqa_agent(root: Path, rows: list[list[str]], *paragraphs: str) -> Agent:
    """A TAT-QA-shaped context written by the scorer's own writer, ingested; its Agent."""
    from ragspine_nb.eval.tatqa.gold import TatqaContext, write_context

    ctx = TatqaContext("test", tuple(tuple(r) for r in rows), paragraphs, ())
    return _ingested(write_context(ctx, root / "files"), root)


def figures_of(agent: Agent, question: str,
               reference_date: date = TATQA_REFERENCE) -> list[tuple[float, str, str]]:
    """(value to 2 places, unit, operation) of each headline figure of the answer."""
    result = agent.ask(question, reference_date=reference_date)
    return [(round(f.value, 2), f.unit, f.operation) for f in result.figures]


def cells_of(ex: Extraction) -> dict[str, list[Row]]:
    """Locator → the facts stored from that cell (a cell may be named two ways)."""
    out: dict[str, list[Row]] = {}
    for f in ex.facts:
        out.setdefault(f.source_locator, []).append(
            (f.metric_code, f.channel, f.period_type, f.period, f.value, f.unit))
    return {k: sorted(v) for k, v in out.items()}
