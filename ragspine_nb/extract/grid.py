"""Tables in a stream of rows (a CSV file, a spreadsheet sheet), found in bounded memory.

Blank rows split the stream into runs. In a run, the first row with a figure after its
first cell starts a table's body; the rows above it in the run are its header block
(captions spanning the columns, periods, sub-columns), except the leading rows holding
one cell at or left of the label column: those are the table's title ("ACME Group (US$m)",
"($ in millions)"). A run without figures is text: the title of the next table when
that one has none of its own. The label column is the leftmost column the header block
and the first body row use. The body runs to the next blank row that a header
follows (figures after a blank row, or after a section title below it, go on the same
table) and is handed out in batches of at most ``batch_rows`` rows, each with the
header block.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ragspine_nb.extract.layout import is_figure

__all__ = ["cell_text", "symbols_joined", "TableBatch", "iter_table_batches", "BATCH_ROWS",
           "MAX_HEAD_ROWS"]

#: Body rows handed to the table extractor at a time.
BATCH_ROWS = 2_000
#: Rows of a run kept while waiting for its first figure (older ones are text).
MAX_HEAD_ROWS = 50


def cell_text(value: object) -> str:
    """A cell as text (``None`` → ``""``; a float without float noise)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value).strip()


@dataclass
class TableBatch:
    """Some body rows of one table, with its header block.

    ``rows[:header_count]`` are the header rows (stream rows ``header_row`` onwards) and
    ``rows[header_count + k]`` is stream row ``first_row + k``. Cells are sliced from
    ``label_col``. ``first`` is True for the first batch of a table. ``title`` is the
    nearest title row, ``titles`` all of them, nearest first.
    """

    header_row: int
    label_col: int
    title: str
    first_row: int
    rows: list[Sequence[object]]
    first: bool
    header_count: int = 1
    titles: tuple[str, ...] = ()

    def row_number(self, r: int) -> int:
        """The 0-based stream row of table row ``r``."""
        if r < self.header_count:
            return self.header_row + r
        return self.first_row + r - self.header_count


#: A currency symbol standing in a cell of its own, left of its figure ("$ | 1,234").
_SYMBOL = re.compile(r"^\s*(?:US\$|HK\$|A\$|C\$|S\$|[$€£¥])\s*$")
#: A percent sign standing in a cell of its own, right of its figure ("12.5 | %").
_PERCENT = re.compile(r"^\s*%\s*$")


def symbols_joined(grid: Sequence[Sequence[str]]) -> list[list[str]]:
    """Currency and percent signs in cells of their own moved into their figures' cells.

    Tables exported from PDFs often put "$" in a column of its own before the figures,
    or "%" after them. The figure's cell keeps its place (its locator); the sign's cell
    is left empty. A column left with no figure hands its header cells (a year written
    over the "$") to the figures' column where that one has none.

    >>> symbols_joined([["", "2019", "", "2018", ""], ["Revenue", "$", "1,234", "$", "(56)"]])
    [['', '', '2019', '', '2018'], ['Revenue', '', '$1,234', '', '$(56)']]
    >>> symbols_joined([["", "2019", "", "2018", ""], ["Margin", "12.5", "%", "11", "%"]])
    [['', '2019', '', '2018', ''], ['Margin', '12.5%', '', '11%', '']]
    >>> symbols_joined([["Cash", "$", "", "1,234"], ["Debt", "$", "$5", "7", "%", "8%"]])
    [['Cash', '$', '', '1,234'], ['Debt', '$', '$5', '7%', '', '8%']]
    """
    out = [list(r) for r in grid]
    width = max((len(r) for r in out), default=0)
    for c in range(1, width - 1):
        _join(out, c, c + 1, _SYMBOL)
    for c in range(2, width):
        _join(out, c, c - 1, _PERCENT)
    return out


def _join(out: list[list[str]], c: int, into: int, sign: re.Pattern[str]) -> None:
    """Each ``sign`` alone in column ``c`` joined to its figure in column ``into``.

    A currency sign goes before the figure (never a second one), a percent sign after.
    """
    before = into > c
    rows = [r for r in out if max(c, into) < len(r) and sign.match(r[c])
            and is_figure(r[into]) and r[c].strip()[-1] not in r[into]]
    for r in rows:
        r[c], r[into] = "", (r[c].strip() + r[into].strip() if before
                             else r[into].strip() + r[c].strip())
    if rows and not any(is_figure(r[c]) for r in out if c < len(r)):
        for r in out:  # the sign's column, now without figures: its header to the figures
            if max(c, into) < len(r) and r[c].strip() and not r[into].strip():
                r[c], r[into] = "", r[c]


def _first(text: Sequence[str]) -> int | None:
    return next((c for c, v in enumerate(text) if v), None)


def _has_figure(text: Sequence[str]) -> bool:
    """A figure after the row's first non-empty cell."""
    first = _first(text)
    return first is not None and any(is_figure(v) for v in text[first + 1:] if v)


def _single(text: Sequence[str]) -> bool:
    return sum(bool(v) for v in text) == 1


@dataclass
class _Open:
    header_row: int
    label_col: int
    titles: tuple[str, ...]
    header: list[Sequence[object]]
    body_start: int
    body: list[Sequence[object]] = field(default_factory=list)
    emitted: bool = False

    def batch(self) -> TableBatch:
        col = self.label_col
        out = TableBatch(self.header_row, col, self.titles[0] if self.titles else "",
                         self.body_start,
                         [*(row[col:] for row in self.header), *(row[col:] for row in self.body)],
                         not self.emitted, len(self.header), self.titles)
        self.emitted = True
        self.body_start += len(self.body)
        self.body = []
        return out


_Head = list[tuple[int, Sequence[object], list[str]]]


def _start(head: _Head, r: int, row: Sequence[object], text: list[str], pending: str) -> _Open:
    """A table whose first body row is ``row``: its title rows, header block, label column."""
    lead = 0
    while lead < len(head) and _single(head[lead][2]):
        lead += 1
    rest = [t for _, _, t in head[lead:]] + [text]
    label = min(c for t in rest if (c := _first(t)) is not None)
    titles = 0
    while titles < lead and (_first(head[titles][2]) or 0) <= label:
        titles += 1
    found = tuple(" ".join(v for v in t if v) for _, _, t in reversed(head[:titles]))
    header = head[titles:]
    return _Open(header[0][0] if header else r, label, found or ((pending,) if pending else ()),
                 [h[1] for h in header], r)


@dataclass
class _Scanner:
    """The state of one pass over a stream of rows (see :func:`iter_table_batches`)."""

    batch_rows: int
    table: _Open | None = None
    head: _Head = field(default_factory=list)
    gap: _Head = field(default_factory=list)
    pending: str = ""

    def feed(self, r: int, row: Sequence[object]) -> Iterator[TableBatch]:
        text = [cell_text(c) for c in row]
        if self.table is None:
            self._outside(r, row, text)
            return
        if not any(text) or (self.gap and self._label_only(text)):
            self.gap = [*self.gap[-(MAX_HEAD_ROWS - 1):], (r, row, text)]
            return  # a blank row, or a section title after one: what follows decides
        if self.gap and not _has_figure(text):
            yield from self.close()  # a header: another table starts here
            runs = [k for k, (_, _, t) in enumerate(self.gap) if not any(t)]
            self.head = self.gap[runs[-1] + 1:] if runs else self.gap
            self.gap = []
            self._outside(r, row, text)
            return
        # the table goes on (after its blank rows, kept so rows keep their numbers)
        self.table.body += [g[1] for g in self.gap] + [row]
        self.gap = []
        if len(self.table.body) >= self.batch_rows:
            yield self.table.batch()

    def _label_only(self, text: Sequence[str]) -> bool:
        first = _first(text)
        return _single(text) and first is not None and self.table is not None \
            and first <= self.table.label_col

    def _outside(self, r: int, row: Sequence[object], text: list[str]) -> None:
        if not any(text):
            if self.head:
                self.pending = " ".join(v for _, _, t in self.head[-1:] for v in t if v)
            self.head = []
        elif _has_figure(text):
            self.table = _start(self.head, r, row, text, self.pending)
            self.table.body.append(row)
            self.head = []
        else:
            self.head = [*self.head[-(MAX_HEAD_ROWS - 1):], (r, row, text)]

    def close(self) -> Iterator[TableBatch]:
        if self.table is not None:
            yield self.table.batch()
        self.table, self.pending = None, ""


def iter_table_batches(rows: Iterable[Sequence[object]], batch_rows: int = BATCH_ROWS
                       ) -> Iterator[TableBatch]:
    """Tables in a stream of rows, in batches of at most ``batch_rows`` body rows.

    A blank row inside a table ends it only when a header follows: figures after it
    (perhaps under a section title: "Deferred tax liabilities:") go on the same table.
    """
    scan = _Scanner(batch_rows)
    for r, row in enumerate(rows):
        yield from scan.feed(r, row)
    yield from scan.close()
