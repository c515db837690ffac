"""Report tables to facts: the one table pipeline of every reader (pptx, xlsx, csv, docx).

A table is its header block (captions, periods, sub-columns) and its rows (labels in
column 0). The steps are pure modules: the layout of the header
(:mod:`~ragspine_nb.extract.layout`, :mod:`~ragspine_nb.extract.header_periods`), where
each column's figures go (:mod:`~ragspine_nb.extract.placement`), the rows with their
sections and totals (:mod:`~ragspine_nb.extract.table_walk`), the units stated for the
table, its columns and rows (:mod:`~ragspine_nb.extract.scale`,
:mod:`~ragspine_nb.extract.table_units`) and the facts (:mod:`~ragspine_nb.extract.table_facts`).
Row labels go through the glossary; with the built-in profile a label it does not know
becomes a metric of its own (the table's vocabulary), with a user's profile it is
skipped and reported with its locator — never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ragspine_nb.core import Fact
from ragspine_nb.extract.fiscal_calendar import FiscalCalendar
from ragspine_nb.extract.grid import cell_text, iter_table_batches, symbols_joined
from ragspine_nb.extract.header_periods import cell_period, unspaced_year
from ragspine_nb.extract.layout import column_label, header_rows, is_figure
from ragspine_nb.extract.placement import Block as LayoutBlock
from ragspine_nb.extract.placement import Channels, read_blocks
from ragspine_nb.extract.quarter_rows import quarter_rows
from ragspine_nb.extract.row_kinds import RowKind
from ragspine_nb.extract.rows import Namer
from ragspine_nb.extract.table_facts import DEFERRED_TAX, Emitter, known_rows
from ragspine_nb.extract.table_part import (
    company_part,
    investee_reason,
    investee_table,
    part_reason,
)
from ragspine_nb.extract.table_units import table_units
from ragspine_nb.extract.table_walk import row_parts, walk_rows
from ragspine_nb.extract.turned import PERIODS_DOWN, period_key, periods_down, turn
from ragspine_nb.glossary import normalize_channel, normalize_entity, normalize_metric
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import ChannelSpec, DomainProfile, parts_reach
from ragspine_nb.vocabulary import Vocabulary

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
    exact locator of that cell in the document. ``period`` is the document's own period:
    a table whose headers and titles name none is of that period.
    """

    doc_id: str
    titles: tuple[str, ...]
    locate: Locate
    entity: str | None = None
    source_file_hash: str = ""
    extractor_version: str = ""
    mapping_version: str = ""
    valid_as_of: str = ""
    period: tuple[str, str] | None = None
    period_source: str = ""
    #: a filing's table (set by the PDF reader): rows under a deferred tax section are tax
    #: effects, never the line items they are named after; a statement line's other names
    #: are read (:func:`~ragspine_nb.glossary.statement_names`); a total adding up the
    #: rows that claim its name keeps it
    filing: bool = False
    #: the table is read turned: its columns are the document's rows (skips say so)
    turned: bool = False
    #: the company's fiscal calendar, when its document states one (dates the columns)
    calendar: FiscalCalendar | None = None


@dataclass
class TableResult:
    """Facts from one table, everything skipped, and what the table brought.

    ``vocabulary`` holds the metrics and channels derived from the table's labels (only
    with the built-in profile); ``unscaled`` the locators of amounts whose scale the
    table states nowhere (amounts and share counts), and ``unscaled_figures`` every
    figure of such a table (a scale read from prose quoting them may apply:
    :func:`~ragspine_nb.extract.prose_scale.infer_scale`, then
    :func:`~ragspine_nb.extract.prose_scale.rescale_facts`, which scales share counts only
    when the prose says so). ``undated`` holds the table's locator when its figures
    gave no fact because neither the table, its titles nor the document name a period.
    """

    facts: list[Fact] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    unscaled: list[str] = field(default_factory=list)
    unscaled_figures: list[float] = field(default_factory=list)
    undated: list[str] = field(default_factory=list)


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
        metric = normalize_metric(profile, head, row=True)
        channel = normalize_channel(profile, tail) if tail.strip() else None
        if metric is not None and channel is not None:
            return metric, channel
    metric = normalize_metric(profile, label, row=True)
    return (metric, profile.default_channel) if metric is not None else None


def _grid(rows: Sequence[Sequence[object]]) -> list[list[str]]:
    """The cells as text, every row as wide as the widest, signs joined to figures."""
    text = [[unspaced_year(cell_text(c)) for c in row] for row in rows]
    width = max((len(r) for r in text), default=0)
    return symbols_joined([r + [""] * (width - len(r)) for r in text])


def _title_period(titles: Sequence[str]) -> tuple[str, str] | None:
    """The one period the titles name ("Balances as of December 31, 2019"), else None."""
    found = {p for t in titles if isinstance(p := cell_period(t), tuple)}
    return found.pop() if len(found) == 1 else None


def _caption_period(grid: Sequence[Sequence[str]]) -> tuple[str, str] | None:
    """The one period the header block's label cells name ("30 June 2019" over buckets).

    Only a caption that is a date or period and nothing else counts: "Fiscal 2017
    Restructuring Plan" names a plan, not the table's period.
    """
    dates = [row[0] for row in grid[:header_rows(grid)] if row[0].strip()
             and isinstance(cell_period(row[0]), tuple) and not column_label(row[0])]
    return _title_period(dates)


def _derives(profile: DomainProfile) -> bool:
    """Whether tables bring their own vocabulary: with the built-in profile, not a user's."""
    return bool(getattr(profile, "is_builtin", False))


def _why_unplaced(block: LayoutBlock, c: int, text: str, bad: dict[int, str],
                  turned: bool = False) -> str:
    """Why column ``c`` gave no facts (a turned table's columns are the document's rows)."""
    head, what = ("row label", "row") if turned else ("column header", "column")
    col = block.columns.get(c)
    if c in bad:
        return (f"{head} {text!r} names channel {bad[c]} that the profile does not "
                f"have; {what} skipped")
    if col is not None and col.kind == "level" and any(
            k != c and other.kind == "level" and other.period == col.period
            for k, other in block.columns.items()):
        return (f"{head} {text!r} repeats the period of another {what} and nothing "
                f"tells them apart; {what} skipped")
    return f"{head} {text!r} is not a period; {what} skipped"


def _unplaced(grid: list[list[str]], blocks: Sequence[LayoutBlock], bad: dict[int, str],
              good: set[int], turned: bool = False) -> list[tuple[int, int, str, str]]:
    """Header cells of columns whose figures went nowhere: ``(row, col, text, why)``."""
    placed = ({p.column for b in blocks for p in b.places} - set(bad)) | good
    first = blocks[0]
    out = []
    for c in range(1, len(grid[0])):
        if c in placed:
            continue
        rows = [r for r in range(first.header_start, first.data_start) if grid[r][c].strip()]
        if rows:
            text = grid[rows[-1]][c]
            out.append((rows[-1], c, text, _why_unplaced(first, c, text, bad, turned)))
    return out


def _whose(profile: DomainProfile, ctx: TableContext) -> str | Skip:
    """The entity a table's figures are filed under, else why none (a segment, investees)."""
    if ctx.filing and (whose := investee_table(ctx.titles[:2])):
        return Skip(ctx.locate(0, 0, "", ""), investee_reason(whose))
    entity = entity_from_titles(profile, ctx.titles)
    if entity is None and (part := company_part(ctx.titles)):
        entity = normalize_entity(profile, part)
        if entity is None:
            return Skip(ctx.locate(0, 0, "", ""), part_reason(part))
    return entity or ctx.entity or profile.home_entity_code


def extract_table(
    profile: DomainProfile, rows: Sequence[Sequence[object]], ctx: TableContext
) -> TableResult:
    """Turn one table (its header block first, row labels in column 0) into facts.

    Parameters
    ----------
    profile : DomainProfile
        Glossary for labels and default units; the built-in profile lets the table
        bring its own metrics and channels (returned as ``vocabulary``).
    rows : sequence of sequences
        The table's cells: header rows (captions, periods, sub-columns) then data rows.
    ctx : TableContext
        Titles, the document's entity, locator function and lineage.

    Returns
    -------
    TableResult
        Facts with exact locators, skips with their reasons, the derived vocabulary and
        the locators of amounts whose scale is stated nowhere.
    """
    out = TableResult()
    grid = _grid(rows)
    if not grid or len(grid[0]) < 2:
        return out
    if periods_down(profile, grid):  # a transposed table: read turned, cited as written
        return _turned_table(profile, grid, ctx)
    dated = quarter_rows(grid)
    if dated is not None and periods_down(profile, dated.grid):  # quarters under a year
        return _turned_table(profile, dated.grid, replace(
            ctx, titles=(*dated.titles, *ctx.titles), locate=dated.located(ctx.locate)))
    entity = _whose(profile, ctx)
    if isinstance(entity, Skip):  # a segment's or a joint venture's: not the company's
        return TableResult(skipped=[entity])
    channels: Channels = {}
    own = _caption_period(grid) or _title_period(ctx.titles)
    blocks = read_blocks(grid, own or ctx.period, channels, ctx.calendar)
    walk = walk_rows(grid, blocks, channels, lambda b: table_units(grid, b, ctx.titles),
                     ctx.calendar)
    emit = Emitter(profile, _derives(profile), entity, parse_row_label, ctx.locate,
                   {"source_file_hash": ctx.source_file_hash,
                    "extractor_version": ctx.extractor_version,
                    "mapping_version": ctx.mapping_version, "valid_as_of": ctx.valid_as_of},
                   ctx.doc_id, channels, Namer(frozenset(profile.metrics)),
                   filing=ctx.filing,
                   tax_titled=ctx.filing and any(map(DEFERRED_TAX.search, ctx.titles[:1])))
    known = known_rows(emit, walk.rows, walk.sums)
    for ref in walk.rows:
        metric = emit.metric(ref, known.get(ref.r))
        if metric is not None:
            emit.row(grid, ref, metric, walk.sections.get(ref.r, ""))
    parts = row_parts(grid, blocks, emit.figures)
    _add_parts(emit, parts)
    emit.align_share_counts(parts)
    if own is None and ctx.period is not None and ctx.period_source:
        _dated_from(emit, blocks, ctx.period, ctx.period_source)
    out.facts = emit.facts
    _report(out, grid, blocks, emit, ctx)
    if not out.facts and own is None and ctx.period is None and \
            any(is_figure(x) for row in grid for x in row[1:]):
        out.undated = [ctx.locate(0, 0, "", "")]
    _finish(out, emit, channels)
    return out


def _finish(out: TableResult, emit: Emitter, channels: Channels) -> None:
    """The amounts stated without a scale, and the vocabulary the table brought."""
    priced = set(emit.priced)
    out.unscaled = [at for at in emit.unscaled if at not in priced]
    if emit.unscaled:
        # only amounts stated without a scale vote for one: a share count that happens to
        # equal a prose amount in some scale ("12,632" shares, "$12.6 million") is none
        unscaled = set(emit.unscaled)
        out.unscaled_figures = [f.value for f, kind in zip(emit.facts, emit.kinds, strict=True)
                                if f.source_locator in unscaled and kind == RowKind.AMOUNT]
    if emit.derive:
        # a column that holds no stored figure names no channel a question could ask
        used = {f.channel for f in out.facts}
        out.vocabulary = Vocabulary(emit.namer.specs(), _channel_specs(
            {code: names for code, names in channels.items() if code in used}))


def _turned_table(profile: DomainProfile, grid: list[list[str]], ctx: TableContext
                  ) -> TableResult:
    """A table whose periods run down its first column, read turned (:func:`turn`)."""
    done = turn(grid, ctx.titles, ctx.locate)
    if done is None:
        return TableResult(skipped=[Skip(ctx.locate(0, 0, "", ""), PERIODS_DOWN)])
    return extract_table(profile, done.grid, replace(ctx, titles=done.titles,
                                                     locate=done.locate, turned=True))


def _report(out: TableResult, grid: list[list[str]], blocks: Sequence[LayoutBlock],
            emit: Emitter, ctx: TableContext) -> None:
    """What was not turned into facts: columns, a table naming no period, rows, cells."""
    bad = {c: code for c, code in emit.bad_columns.items() if c not in emit.good_columns}
    out.skipped = [Skip(ctx.locate(r, c, "", text), why)
                   for r, c, text, why in _unplaced(grid, blocks, bad, emit.good_columns,
                                                    ctx.turned)]
    if not out.facts and not out.skipped:
        out.skipped.append(Skip(ctx.locate(0, 0, "", ""),
                                "no column header names a period; table skipped"))
    out.skipped += [Skip(loc, why) for loc, why in emit.skipped]


def _dated_from(emit: Emitter, blocks: Sequence[LayoutBlock], period: tuple[str, str],
                source: str) -> None:
    """Facts of blocks dated by the document's period say where that period came from."""
    rows = {r for b in blocks if b.defaulted for r in range(b.data_start, b.end)}
    note = f"|period={period_label(*period)} from {source}"
    for (r, _), indices in emit.at.items():
        if r in rows:
            for i in indices:
                fact = emit.facts[i]
                emit.facts[i] = replace(fact, mapping_version=fact.mapping_version + note)


def _add_parts(emit: Emitter, parts: dict[int, tuple[int, ...]]) -> None:
    """Totals record their parts (rows of this table, never a metric itself).

    A total the profile names ("Total revenue" as the built-in revenue) records them
    too, for the vocabulary merge to add where the profile names no parts.
    """
    graph: dict[str, list[str]] = {}
    for total, run in parts.items():
        code = emit.codes.get(total)
        if code is None:
            continue
        for r in run:
            part = emit.codes.get(r)
            if part and part != code and not parts_reach(graph, part, code) and \
                    part not in graph.get(code, []):
                graph.setdefault(code, []).append(part)
    for code, found in graph.items():
        if code in emit.namer.rows:
            emit.namer.rows[code].parts = found
        else:
            emit.namer.known_parts[code] = found


def _channel_specs(channels: Channels) -> tuple[ChannelSpec, ...]:
    """The table's column channels with the header words naming them.

    Columns without a period hold no facts, but their names still become channels: a
    question naming one never falls back on another column.
    """
    return tuple(ChannelSpec(code, tuple(dict.fromkeys(n for n in names if n)))
                 for code, names in channels.items())


@dataclass(frozen=True)
class Block:
    """A table found in a grid: first header row, row span, label column and its title."""

    header_row: int
    end_row: int  # exclusive
    label_col: int
    title: str


def find_table_blocks(profile: DomainProfile, grid: Sequence[Sequence[object]]) -> list[Block]:
    """Find tables in a sheet-like grid (as :func:`~ragspine_nb.extract.grid.iter_table_batches`).

    A table's body starts at the first row of a run (rows between blank rows) holding a
    figure; the rows above it in the run are its title (one cell at or left of the
    label column) and header block; the body runs to the next blank row.
    """
    del profile  # the layout is read from the cells; the profile names rows later
    out: list[Block] = []
    for batch in iter_table_batches(grid, batch_rows=len(grid) + 1):
        end = batch.first_row + len(batch.rows) - batch.header_count
        out.append(Block(batch.header_row, end, batch.label_col, batch.title))
    return out
