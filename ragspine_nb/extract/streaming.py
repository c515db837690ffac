"""Tables read from a stream of rows in bounded memory (CSV files, spreadsheet sheets).

:func:`iter_table_batches` finds the same tables as
:func:`~ragspine_nb.extract.tables.find_table_blocks` (a header row is a label cell
followed by at least one explicit period; the body runs until a blank row or the next
header; the title is the nearest non-empty row above the header, after the previous
table) without holding the grid: it keeps the current table's header and at most
``batch_rows`` body rows. :class:`TableBudget` applies the per-document limits on cells
read, facts and skipped cells listed, and records each limit reached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ragspine_nb.extract.limits import IngestLimits, LimitHit
from ragspine_nb.extract.tables import (
    Skip,
    TableContext,
    TableResult,
    cell_text,
    extract_table,
    period_key,
)
from ragspine_nb.profile import DomainProfile
from ragspine_nb.types import Fact

__all__ = ["TableBatch", "TableBudget", "header_col", "iter_table_batches", "read_tables"]

#: Body rows handed to the table extractor at a time.
BATCH_ROWS = 2_000


@dataclass
class TableBatch:
    """Some body rows of one table, with its header.

    ``header_row`` and ``first_row`` are 0-based row numbers in the stream;
    ``rows[0]`` is the header and ``rows[k]`` (k >= 1) is stream row
    ``first_row + k - 1``. Cells are sliced from ``label_col``. ``first`` is True for
    the first batch of a table.
    """

    header_row: int
    label_col: int
    title: str
    first_row: int
    rows: list[Sequence[object]]
    first: bool

    def row_number(self, r: int) -> int:
        """The 0-based stream row of table row ``r`` (0 = the header)."""
        return self.header_row if r == 0 else self.first_row + r - 1


def header_col(profile: DomainProfile, text: Sequence[str]) -> int | None:
    """The label column of a header row (cells as text), or ``None`` if it is not one."""
    first = next((c for c, v in enumerate(text) if v), None)
    if first is None:
        return None
    if any(period_key(profile, v) for v in text[first + 1:] if v):
        return first
    return None


@dataclass
class _Open:
    header_row: int
    label_col: int
    title: str
    header: Sequence[object]
    body: list[Sequence[object]] = field(default_factory=list)
    body_start: int = 0
    emitted: bool = False

    def batch(self) -> TableBatch:
        col = self.label_col
        out = TableBatch(self.header_row, col, self.title, self.body_start,
                         [self.header[col:], *(row[col:] for row in self.body)], not self.emitted)
        self.emitted = True
        self.body_start += len(self.body)
        self.body = []
        return out


def iter_table_batches(profile: DomainProfile, rows: Iterable[Sequence[object]],
                       batch_rows: int = BATCH_ROWS) -> Iterator[TableBatch]:
    """Tables in a stream of rows, in batches of at most ``batch_rows`` body rows."""
    table: _Open | None = None
    title = ""
    for r, row in enumerate(rows):
        text = [cell_text(c) for c in row]
        nonblank = any(text)
        if table is not None:
            if nonblank and header_col(profile, text) is None:
                table.body.append(row)
                if len(table.body) >= batch_rows:
                    yield table.batch()
                continue
            yield table.batch()
            table, title = None, ""
        col = header_col(profile, text) if nonblank else None
        if col is not None:
            table = _Open(r, col, title, row, body_start=r + 1)
        elif nonblank:
            title = " ".join(v for v in text if v)
    if table is not None:
        yield table.batch()


@dataclass
class TableBudget:
    """Per-document limits on table cells read, facts kept and skipped cells listed."""

    limits: IngestLimits
    facts: list[Fact] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    hits: list[LimitHit] = field(default_factory=list)
    cells: int = 0
    unlisted: int = 0
    first_unlisted: str = ""
    stopped: bool = False

    def counted(self, rows: Iterable[Sequence[object]], where: Callable[[int], str]
                ) -> Iterator[Sequence[object]]:
        """``rows`` until the cell limit is reached (each row counts its width, at least 1).

        ``where(r)`` is the locator of 0-based row ``r``, reported when the limit is hit.
        """
        for r, row in enumerate(rows):
            self.cells += max(len(row), 1)
            if self.cells > self.limits.max_cells_per_doc:
                self.stopped = True
                self.hits.append(LimitHit(
                    "max_cells_per_doc", self.limits.max_cells_per_doc, where(r),
                    "this row and everything after it were not read"))
                return
            yield row

    def add(self, result: TableResult, repeated: Callable[[Skip], bool] = lambda s: False
            ) -> bool:
        """Keep a table's facts and skips within the limits; False once facts are full."""
        room = self.limits.max_facts_per_doc - len(self.facts)
        if len(result.facts) > room:
            self.stopped = True
            kept = result.facts[:room]
            last = kept[-1].source_locator if kept else (
                self.facts[-1].source_locator if self.facts else "")
            self.hits.append(LimitHit(
                "max_facts_per_doc", self.limits.max_facts_per_doc, last,
                f"the first {self.limits.max_facts_per_doc:,} table values were kept, "
                "tables after this cell were not read"))
            self.facts += kept
        else:
            self.facts += result.facts
        for skip in result.skipped:
            if repeated(skip):
                continue
            if len(self.skipped) < self.limits.max_skipped_per_doc:
                self.skipped.append(skip)
            else:
                self.first_unlisted = self.first_unlisted or skip.locator
                self.unlisted += 1
        return not self.stopped

    def finish(self) -> list[LimitHit]:
        """The limits reached, with the count of skipped cells not listed."""
        if self.unlisted:
            self.hits.append(LimitHit(
                "max_skipped_per_doc", self.limits.max_skipped_per_doc, self.first_unlisted,
                f"{self.unlisted:,} more skipped cells were counted but not listed"))
        return self.hits


Locate = Callable[[int, int, str, str], str]


def read_tables(profile: DomainProfile, batches: Iterable[TableBatch],
                cell: Callable[[int, int], str],
                context: Callable[[TableBatch, Locate], TableContext],
                budget: TableBudget) -> int:
    """Extract every batch into ``budget`` until a limit stops it; return the tables seen.

    ``cell(row, col)`` is the locator of a 0-based stream cell; ``context(batch,
    locate)`` builds the batch's :class:`TableContext`. Header skips (columns that are
    not periods, a table without an entity) are listed once per table, not per batch.
    """
    header: set[str] = set()  # header locators of the current table
    tables = 0
    for batch in batches:
        if batch.first:
            header.clear()
            tables += 1

        def locate(r: int, c: int, _rk: str, _cl: str, b: TableBatch = batch) -> str:
            loc = cell(b.row_number(r), b.label_col + c)
            if r == 0:
                header.add(loc)
            return loc

        result = extract_table(profile, batch.rows, context(batch, locate))

        def repeated(skip: Skip, again: bool = not batch.first) -> bool:
            return again and skip.locator in header

        if not budget.add(result, repeated):
            break
    return tables
