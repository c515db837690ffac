"""Tables read from a stream of rows in bounded memory (CSV files, spreadsheet sheets).

:func:`~ragspine_nb.extract.grid.iter_table_batches` finds the tables (a run of rows
between blank rows: title, header block, then the body from its first figure) without
holding the grid: it keeps the current table's header block and at most ``batch_rows``
body rows. :class:`TableBudget` applies the per-document limits on cells read, facts and
skipped cells listed, records each limit reached, and gathers what the tables brought
(derived vocabulary, amounts whose scale is stated nowhere).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ragspine_nb.core import Fact
from ragspine_nb.extract.grid import BATCH_ROWS, TableBatch, iter_table_batches
from ragspine_nb.extract.limits import IngestLimits, LimitHit
from ragspine_nb.extract.tables import Skip, TableContext, TableResult, extract_table
from ragspine_nb.profile import DomainProfile
from ragspine_nb.vocabulary import Vocabulary, combine

__all__ = ["TableBatch", "TableBudget", "iter_table_batches", "read_tables", "BATCH_ROWS"]


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
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    unscaled: list[str] = field(default_factory=list)
    unscaled_figures: list[float] = field(default_factory=list)
    undated: list[str] = field(default_factory=list)

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
        kept = result.facts
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
        kept_at = {f.source_locator for f in kept}
        self.unscaled += [loc for loc in result.unscaled if loc in kept_at]
        if result.unscaled_figures and \
                len(self.unscaled_figures) < self.limits.max_facts_per_doc:
            self.unscaled_figures += result.unscaled_figures
        if result.vocabulary:
            self.vocabulary = combine(self.vocabulary, result.vocabulary)
        self.undated += [loc for loc in result.undated if loc not in self.undated]
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
                f"{self.unlisted:,} more skipped cells were counted but not listed",
                self.unlisted))
        return self.hits


Locate = Callable[[int, int, str, str], str]


def read_tables(profile: DomainProfile, batches: Iterable[TableBatch],
                cell: Callable[[int, int], str],
                context: Callable[[TableBatch, Locate], TableContext],
                budget: TableBudget) -> int:
    """Extract every batch into ``budget`` until a limit stops it; return the tables seen.

    ``cell(row, col)`` is the locator of a 0-based stream cell; ``context(batch,
    locate)`` builds the batch's :class:`TableContext`. Header skips (columns that are
    not periods, a table without one) are listed once per table, not per batch.
    """
    header: set[str] = set()  # header locators of the current table
    tables = 0
    for batch in batches:
        if batch.first:
            header.clear()
            tables += 1

        def locate(r: int, c: int, _rk: str, _cl: str, b: TableBatch = batch) -> str:
            loc = cell(b.row_number(r), b.label_col + c)
            if r < b.header_count:
                header.add(loc)
            return loc

        result = extract_table(profile, batch.rows, context(batch, locate))

        def repeated(skip: Skip, again: bool = not batch.first) -> bool:
            return again and skip.locator in header

        if not budget.add(result, repeated):
            break
    return tables
