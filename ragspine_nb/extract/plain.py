"""Plain files: ``.csv`` tables and ``.md``/``.txt`` narrative."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ragspine_nb.extract.base import (
    READER_VERSIONS,
    Extraction,
    ExtractionError,
    ReadContext,
    Segment,
)
from ragspine_nb.extract.screen import RowScreen
from ragspine_nb.extract.tables import TableContext, extract_table, find_table_blocks
from ragspine_nb.profile import DomainProfile

__all__ = ["read_csv", "read_text", "column_letter"]


def column_letter(index: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA``."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _decode(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExtractionError(f"not UTF-8 text ({exc.reason} at byte {exc.start}); "
                              "save the file as UTF-8") from exc


def read_csv(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """Tables in a CSV: an optional title line, a header of periods, metric rows.

    Locators are A1 cell references, e.g. ``cell=C4``.
    """
    out = Extraction(READER_VERSIONS[".csv"], title=path.stem)
    try:
        cells = RowScreen(profile, "cells")
        grid = list(cells.tap(csv.reader(io.StringIO(_decode(path)))))
    except csv.Error as exc:
        raise ExtractionError(f"malformed CSV: {exc}") from exc
    blocks = find_table_blocks(profile, grid)
    if not blocks:
        out.warnings.append("no table with a header row of periods was found")
    for block in blocks:
        base_r, base_c = block.header_row, block.label_col

        def locate(r: int, c: int, _rk: str, _cl: str, br: int = base_r, bc: int = base_c) -> str:
            return f"cell={column_letter(bc + c)}{br + r + 1}"

        rows = [row[base_c:] for row in grid[block.header_row:block.end_row]]
        result = extract_table(profile, rows, TableContext(
            doc_id=ctx.doc_id, titles=tuple(t for t in (block.title, path.stem) if t),
            locate=locate, entity=ctx.entity, source_file_hash=ctx.source_file_hash,
            extractor_version=out.extractor_version, mapping_version=ctx.mapping_version,
            valid_as_of=ctx.valid_as_of))
        out.facts += result.facts
        out.skipped += result.skipped
    out.screen += cells.found
    return out


def read_text(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """A ``.md`` or ``.txt`` document as one narrative segment (locators ``para=a-b``)."""
    del profile, ctx
    text = _decode(path)
    title = next((ln.lstrip("# ").strip() for ln in text.splitlines() if ln.strip()), path.stem)
    segments = [Segment(text)] if text.strip() else []
    return Extraction(READER_VERSIONS[".md"], segments=segments, title=title)
