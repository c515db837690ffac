"""Read a long-format fact table (one fact per CSV row) into :class:`Fact` records.

Columns: ``metric, entity, period, value, unit`` plus optional ``channel`` and
``valid_as_of``. Labels go through the glossary; a row whose label does not
normalize, or whose value is not a number, is skipped and reported — never guessed.
The locator is the CSV line, e.g. ``row=7``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from ragspine_nb.glossary import (
    normalize_channel,
    normalize_entity,
    normalize_metric,
    normalize_period,
)
from ragspine_nb.ingest.lineage import file_sha256, profile_fingerprint
from ragspine_nb.profile import DomainProfile
from ragspine_nb.types import Fact

__all__ = ["read_fact_table", "FactTable", "EXTRACTOR_VERSION", "REQUIRED_COLUMNS"]

EXTRACTOR_VERSION = "fact_csv@1"
REQUIRED_COLUMNS: tuple[str, ...] = ("metric", "entity", "period", "value", "unit")


@dataclass(frozen=True)
class FactTable:
    """Facts read from one file plus the rows skipped, each with the reason."""

    facts: tuple[Fact, ...]
    skipped: tuple[tuple[str, str], ...]


def _number(text: str) -> float | None:
    raw = text.strip().replace(",", "")
    negative = raw.startswith("(") and raw.endswith(")")
    raw = raw.strip("()")
    try:
        value = float(raw)
    except ValueError:
        return None
    return -value if negative else value


def read_fact_table(path: str | Path, profile: DomainProfile) -> FactTable:
    """Read one long-format CSV into facts with full lineage.

    Parameters
    ----------
    path : str or Path
        The CSV file; its name is the ``source_doc_id``.
    profile : DomainProfile
        Glossary for labels; geography comes from the entity.

    Returns
    -------
    FactTable
        Facts and skipped rows (``(locator, reason)``).
    """
    p = Path(path)
    with p.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        header = [h.strip().lower() for h in reader.fieldnames or []]
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        if missing:
            raise ValueError(
                f"{p.name}: missing column(s) {missing}; a fact table needs "
                f"{list(REQUIRED_COLUMNS)} and may have 'channel' and 'valid_as_of'"
            )
        rows = [{(k or "").strip().lower(): (v or "").strip() for k, v in r.items()}
                for r in reader]
    file_hash = file_sha256(p)
    mapping = profile_fingerprint(profile)
    facts: list[Fact] = []
    skipped: list[tuple[str, str]] = []
    for line, row in enumerate(rows, start=2):
        locator = f"row={line}"
        metric = normalize_metric(profile, row["metric"])
        entity = normalize_entity(profile, row["entity"])
        period = normalize_period(profile, row["period"])
        channel = normalize_channel(profile, row.get("channel", ""))
        value = _number(row["value"])
        problems = [
            f"{name} {row.get(col, '')!r} not in the glossary"
            for name, col, code in (("metric", "metric", metric), ("entity", "entity", entity),
                                    ("channel", "channel", channel))
            if code is None
        ]
        if period is None:
            problems.append(f"period {row['period']!r} not recognized")
        if value is None:
            problems.append(f"value {row['value']!r} is not a number")
        if not row["unit"]:
            problems.append("unit is blank")
        if problems or metric is None or entity is None or period is None or value is None \
                or channel is None:
            skipped.append((locator, "; ".join(problems)))
            continue
        facts.append(Fact(
            metric, entity, profile.geography_of(entity), channel, period[0], period[1], value,
            row["unit"], p.name, locator, source_file_hash=file_hash,
            extractor_version=EXTRACTOR_VERSION, mapping_version=mapping,
            valid_as_of=row.get("valid_as_of", ""),
        ))
    return FactTable(tuple(facts), tuple(skipped))
