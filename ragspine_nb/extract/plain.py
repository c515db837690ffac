"""Plain files: ``.csv`` tables and ``.md``/``.txt`` narrative."""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Iterator
from pathlib import Path

from ragspine_nb.extract.base import (
    READER_VERSIONS,
    Extraction,
    ExtractionError,
    ReadContext,
    Segment,
)
from ragspine_nb.extract.limits import cap_title
from ragspine_nb.extract.screen import RowScreen
from ragspine_nb.extract.streaming import (
    Locate,
    TableBatch,
    TableBudget,
    iter_table_batches,
    read_tables,
)
from ragspine_nb.extract.tables import TableContext
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import ScreenText

__all__ = ["read_csv", "read_text", "column_letter", "html_comments"]

#: Characters of HTML comments kept for the classifier (a comment may be any size).
MAX_COMMENT_CHARS = 1 << 20


def column_letter(index: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA``."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


_FIRST_LINE = re.compile(r"[^\n]*\S[^\n]*")


def _bad_utf8(path: Path, exc: UnicodeDecodeError) -> ExtractionError:
    """The error for a file that is not UTF-8, naming the first bad byte's offset."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            try:
                decoder.decode(block)
            except UnicodeDecodeError as bad:
                offset += bad.start
                break
            offset += len(block)
    return ExtractionError(f"not UTF-8 text ({exc.reason} at byte {offset}); "
                           "save the file as UTF-8")


def _decode(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _bad_utf8(path, exc) from exc


def _csv_rows(path: Path) -> Iterator[list[str]]:
    """The rows of a CSV file, read one at a time (never the whole file)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            yield from csv.reader(fh)
    except UnicodeDecodeError as exc:
        raise _bad_utf8(path, exc) from exc
    except csv.Error as exc:
        raise ExtractionError(f"malformed CSV: {exc}") from exc


def read_csv(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """Tables in a CSV: an optional title line, a header block of periods, metric rows.

    Rows are streamed (memory stays bounded whatever the file's size) and the
    per-document limits of ``ctx.limits`` apply. Locators are A1 cell references,
    e.g. ``cell=C4``.
    """
    out = Extraction(READER_VERSIONS[".csv"], title=path.stem)
    budget = TableBudget(ctx.limits)

    def cell(r: int, c: int) -> str:
        return f"cell={column_letter(c)}{r + 1}"

    def context(batch: TableBatch, locate: Locate) -> TableContext:
        return TableContext(
            doc_id=ctx.doc_id, titles=tuple(t for t in (*batch.titles, path.stem) if t),
            locate=locate, entity=ctx.entity, source_file_hash=ctx.source_file_hash,
            extractor_version=out.extractor_version, mapping_version=ctx.mapping_version,
            valid_as_of=ctx.valid_as_of, period=ctx.period, period_source=ctx.period_source)

    cells = RowScreen(profile, "cells")
    rows = budget.counted(cells.tap(_csv_rows(path)), lambda r: f"row={r + 1}")
    if not read_tables(profile, iter_table_batches(rows), cell, context, budget):
        out.warnings.append("no table with a header row of periods was found")
    out.facts, out.skipped, out.limit_hits = budget.facts, budget.skipped, budget.finish()
    out.vocabulary, out.unscaled = budget.vocabulary, budget.unscaled
    out.unscaled_figures, out.undated = budget.unscaled_figures, budget.undated
    out.screen += cells.found
    return out


def html_comments(text: str) -> list[str]:
    r"""The inside of every ``<!-- … -->`` comment (an unclosed one runs to the end).

    At most :data:`MAX_COMMENT_CHARS` characters in all; one pass over ``text``.

    >>> html_comments("a <!-- Classification: RESTRICTED --> b <!--\nBoard only")
    [' Classification: RESTRICTED ', '\nBoard only']
    """
    out: list[str] = []
    at, room = text.find("<!--"), MAX_COMMENT_CHARS
    while at >= 0 and room > 0:
        end = text.find("-->", at + 4)
        inside = text[at + 4:end if end >= 0 else len(text)][:room]
        out.append(inside)
        room -= len(inside)
        at = text.find("<!--", end + 3) if end >= 0 else -1
    return out


def read_text(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """A ``.md`` or ``.txt`` document as one narrative segment (locators ``para=a-b``).

    The title is the first non-blank line without its ``#`` marks, cut to
    ``ctx.limits.max_title_chars``. HTML comments go to the classifier as screen text
    too (a marking may hide in one, whatever the chunks keep of it).
    """
    del profile
    text = _decode(path)
    first = _FIRST_LINE.search(text)
    title = first.group(0).lstrip("# ").strip() if first else ""
    segments = [Segment(text)] if text.strip() else []
    comments = html_comments(text)
    return Extraction(READER_VERSIONS[".md"], segments=segments,
                      title=cap_title(title or path.stem, ctx.limits),
                      screen=[ScreenText("HTML comments", "\n".join(comments))]
                      if comments else [])
