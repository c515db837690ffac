"""Report tables to facts: first column = metric labels, header row = periods.

Pure functions shared by the pptx, xlsx and csv readers. Every label goes through
the glossary; a row, column or cell that does not normalize is skipped and reported
with its locator — never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ragspine_nb.extract.values import detect_unit, parse_number
from ragspine_nb.glossary import (
    normalize_channel,
    normalize_entity,
    normalize_metric,
    normalize_period,
)
from ragspine_nb.profile import DomainProfile
from ragspine_nb.types import Fact

__all__ = [
    "TableContext",
    "TableResult",
    "Skip",
    "extract_table",
    "find_table_blocks",
    "entity_from_titles",
    "parse_row_label",
    "period_key",
    "cell_text",
    "resolve_unit",
]

_SPLIT = re.compile(r"\s+[-–—]\s+|\s*[|｜:：]\s*|\s*[—–]\s*")
_PAREN = re.compile(r"^(.*?)\s*[(（]([^()（）]*)[)）]\s*$")

Locate = Callable[[int, int, str, str], str]


@dataclass(frozen=True)
class Skip:
    """Something that was not turned into a fact, and why."""

    locator: str
    reason: str


@dataclass(frozen=True)
class TableContext:
    """What a reader knows about one table besides its cells.

    ``titles`` are nearest first (table title, then slide or sheet title); ``locate``
    turns (row index, column index, row key, column label) of the table into the
    exact locator of that cell in the document.
    """

    doc_id: str
    titles: tuple[str, ...]
    locate: Locate
    entity: str | None = None
    source_file_hash: str = ""
    extractor_version: str = ""
    mapping_version: str = ""
    valid_as_of: str = ""


@dataclass
class TableResult:
    """Facts from one table plus everything skipped."""

    facts: list[Fact] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)


def cell_text(value: object) -> str:
    """A cell as text (``None`` → ``""``)."""
    return "" if value is None else str(value).strip()


def period_key(profile: DomainProfile, text: str) -> tuple[str, str] | None:
    """An explicit period in a header cell (relative words are not accepted)."""
    return normalize_period(profile, text, relative=False) if text else None


def _pieces(text: str) -> list[str]:
    return [p for p in _SPLIT.split(text) if p.strip()]


def entity_from_titles(profile: DomainProfile, titles: Sequence[str]) -> str | None:
    """The first entity named by a title or by one of its dash/colon-separated parts."""
    for title in titles:
        for candidate in (title, *_pieces(title)):
            code = normalize_entity(profile, candidate)
            if code is not None:
                return code
    return None


def parse_row_label(profile: DomainProfile, label: str) -> tuple[str, str] | None:
    """``(metric, channel)`` of a row label such as ``"New sales - Agency"``, else ``None``."""
    m = _PAREN.match(label)
    splits = [(m.group(1), m.group(2))] if m else []
    parts = _pieces(label)
    if len(parts) == 2:
        splits.append((parts[0], parts[1]))
    for head, tail in splits:  # "New sales (Agency)": a channel in brackets is not a note
        metric = normalize_metric(profile, head)
        channel = normalize_channel(profile, tail) if tail.strip() else None
        if metric is not None and channel is not None:
            return metric, channel
    metric = normalize_metric(profile, label)
    return (metric, profile.default_channel) if metric is not None else None


def _currency(unit: str) -> str:
    return unit.split("_", 1)[0] if "_" in unit else ""


_BARE_SCALES = frozenset({"K", "10K", "M", "100M", "BN"})


def resolve_unit(percent: bool, row_unit: str | None, table_unit: str | None,
                 default_unit: str) -> str:
    """Pick a cell's unit: a ``%`` cell, then the row's label, then the table's title.

    A ratio metric (default unit ``PCT``) never takes a currency scale from a title,
    and a bare scale ("in millions") borrows the metric's default currency.
    """
    if percent:
        return "PCT"
    if row_unit:
        return row_unit
    if default_unit == "PCT" or not table_unit:
        return default_unit
    if table_unit in _BARE_SCALES and _currency(default_unit):
        return f"{_currency(default_unit)}_{table_unit}"
    return table_unit


def extract_table(
    profile: DomainProfile, rows: Sequence[Sequence[object]], ctx: TableContext
) -> TableResult:
    """Turn one table (header row first) into facts.

    Parameters
    ----------
    profile : DomainProfile
        Glossary for labels and default units.
    rows : sequence of sequences
        The table's cells; ``rows[0]`` is the header, ``rows[r][0]`` the row labels.
    ctx : TableContext
        Titles, entity mapping, locator function and lineage.

    Returns
    -------
    TableResult
        Facts with exact locators, and skips with their reasons.
    """
    out = TableResult()
    if not rows or len(rows[0]) < 2:
        return out
    header = [cell_text(c) for c in rows[0]]
    entity = entity_from_titles(profile, ctx.titles) or ctx.entity
    if entity is None:
        out.skipped.append(Skip(ctx.locate(0, 0, "", ""),
                                f"no entity: titles {list(ctx.titles)} name none and no entity "
                                "mapping was given; table skipped"))
        return out
    columns: dict[int, tuple[str, str]] = {}
    seen: set[tuple[str, str]] = set()
    for c, text in enumerate(header[1:], start=1):
        if not text:
            continue
        key = period_key(profile, text)
        if key is None or key in seen:
            why = "is not a period" if key is None else "repeats an earlier column"
            out.skipped.append(Skip(ctx.locate(0, c, "", text),
                                    f"column header {text!r} {why}; column skipped"))
            continue
        seen.add(key)
        columns[c] = key
    table_unit = next((u for u in (detect_unit(t) for t in (header[0], *ctx.titles)) if u), None)
    for r, row in enumerate(rows[1:], start=1):
        label = cell_text(row[0]) if row else ""
        if not label or not any(cell_text(v) for v in row[1:]):
            continue
        parsed = parse_row_label(profile, label)
        if parsed is None:
            out.skipped.append(Skip(ctx.locate(r, 0, label, ""),
                                    f"row label {label!r} not in the glossary; row skipped"))
            continue
        metric, channel = parsed
        row_key = metric if channel == profile.default_channel else f"{metric}.{channel}"
        default_unit = profile.unit_of(metric)
        row_unit = detect_unit(label, _currency(default_unit))
        for c, (ptype, period) in columns.items():
            col_label = f"FY{period}" if ptype == "FY" else period
            locator = ctx.locate(r, c, row_key, col_label)
            number = parse_number(row[c] if c < len(row) else None)
            if number.value is None:
                out.skipped.append(Skip(locator, number.reason))
                continue
            unit = resolve_unit(number.percent, row_unit, table_unit, default_unit)
            out.facts.append(Fact(
                metric, entity, profile.geography_of(entity), channel, ptype, period,
                number.value, unit, ctx.doc_id, locator,
                source_file_hash=ctx.source_file_hash, extractor_version=ctx.extractor_version,
                mapping_version=ctx.mapping_version, valid_as_of=ctx.valid_as_of,
            ))
    return out


@dataclass(frozen=True)
class Block:
    """A table found in a grid: header row, row span, label column and its title."""

    header_row: int
    end_row: int  # exclusive
    label_col: int
    title: str


def find_table_blocks(profile: DomainProfile, grid: Sequence[Sequence[object]]) -> list[Block]:
    """Find tables in a sheet-like grid.

    A header row has a label cell followed by at least one explicit period; the body
    runs until a blank row or the next header; the title is the nearest non-empty
    row above the header (after the previous table).
    """
    text = [[cell_text(c) for c in row] for row in grid]

    def header_at(r: int) -> int | None:
        cells = text[r]
        first = next((c for c, v in enumerate(cells) if v), None)
        if first is None:
            return None
        if any(period_key(profile, v) for v in cells[first + 1:] if v):
            return first
        return None

    blocks: list[Block] = []
    r, floor = 0, 0
    while r < len(text):
        label_col = header_at(r)
        if label_col is None:
            r += 1
            continue
        title = ""
        for above in range(r - 1, floor - 1, -1):
            joined = " ".join(v for v in text[above] if v)
            if joined:
                title = joined
                break
        end = r + 1
        while end < len(text) and any(text[end]) and header_at(end) is None:
            end += 1
        blocks.append(Block(r, end, label_col, title))
        r = floor = end
    return blocks
