"""TAT-QA tables drawn as PDF pages instead of CSV: do the same questions get the same figures?

Users mostly have PDFs; the dev split's tables come as grids. Each context's table is
drawn on a page as a filing prints one (reportlab, Helvetica 8 pt): labels left, figures
right-aligned in their columns, header cells centred over the figures they span; the paragraphs stay
in ``notes.md`` beside it, as in the CSV run. Both folders go through ``ingest`` and
``Agent.ask``; the answers' figures are compared per question. ``tune`` lists the
questions whose figures differ; ``check`` prints the counts only (it is held out).

    .venv/bin/python bench/pdf_tables_probe.py $RAGSPINE_DATA/tatqa/tatqa_dataset_dev.json \\
        --half tune [--list]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragspine_nb import Agent, ingest
from ragspine_nb.eval.tatqa.evaluate import split_half
from ragspine_nb.eval.tatqa.gold import TatqaContext, load_split, reference_date, write_context

_FONT, _SIZE = "Helvetica", 8


def _header_end(rows: list[list[str]]) -> int:
    """The first body row: the first row after the first whose label is written."""
    return next((i for i, r in enumerate(rows) if i > 0 and r[0].strip()), 1)


def _widths(rows: list[list[str]], width: Callable[[str], float]) -> list[float]:
    """Each figure column's width: its widest body cell, or header cell standing alone."""
    head = _header_end(rows)
    out = []
    for c in range(1, len(rows[0])):
        alone = [width(r[c]) for r in rows[:head] if c + 1 >= len(r) or r[c + 1]
                 or not any(r[c + 1:])]
        body = [width(r[c]) for r in rows[head:] or rows]
        out.append(max(55.0, max(body) + 14, max(alone or [0.0]) + 16))
    return out


def draw_pdf(ctx: TatqaContext, folder: Path) -> Path:
    """Write ``table.pdf`` (the table on a page) and ``notes.md``; returns the folder."""
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    folder.mkdir(parents=True, exist_ok=True)
    ncol = max(len(r) for r in ctx.table)
    rows = [[str(c) for c in r] + [""] * (ncol - len(r)) for r in ctx.table]

    def width(s: str) -> float:
        return float(stringWidth(s, _FONT, _SIZE))

    label = max(width(r[0]) for r in rows) + 20
    widths = _widths(rows, width)
    total = 70 + label + sum(widths)
    size = letter if total <= letter[0] else landscape(letter)
    size = size if total <= size[0] else (total, 792.0)
    pdf = canvas.Canvas(str(folder / "table.pdf"), pagesize=size, invariant=1)
    pdf.setFont(_FONT, _SIZE)
    rights = [40 + label + sum(widths[:k + 1]) for k in range(len(widths))]
    head, y = _header_end(rows), size[1] - 60
    # a column's figures span from its widest one's left edge to its right edge
    lefts = [rights[k] - max([width(r[k + 1]) for r in rows[head:]] or [0.0])
             for k in range(len(widths))]
    for i, row in enumerate(rows):
        pdf.drawString(40, y, row[0])
        for k, cell in enumerate(row[1:]):
            if cell and i < head:  # centred over its span (up to the next cell)
                end = k
                while end + 2 < len(row) and not row[end + 2]:
                    end += 1
                pdf.drawCentredString((min(lefts[k], rights[k] - width(cell))
                                       + rights[end]) / 2, y, cell)
            elif cell:
                pdf.drawRightString(rights[k], y, cell)
        y -= 12
        if y < 40:
            pdf.showPage()
            pdf.setFont(_FONT, _SIZE)
            y = size[1] - 60
    pdf.showPage()
    pdf.save()
    (folder / "notes.md").write_text("\n\n".join(ctx.paragraphs) + "\n", encoding="utf-8")
    return folder


def _answers(ctx: TatqaContext, folder: Path, root: Path) -> list[tuple[float, ...]]:
    ingest(folder, workspace=root / "ws", progress=False)
    agent = Agent.from_workspace(root / "ws")
    try:
        return [tuple(round(f.value, 4) for f in agent.ask(
            q.question, reference_date=reference_date(ctx)).figures) for q in ctx.questions]
    finally:
        agent.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--half", choices=("tune", "check"), default="tune")
    ap.add_argument("--list", action="store_true", help="list the differing tune questions")
    args = ap.parse_args()
    asked = lost = other = 0
    listed: list[dict[str, Any]] = []
    for ctx in split_half(load_split(args.path), args.half):
        with tempfile.TemporaryDirectory() as tmp:
            csv = _answers(ctx, write_context(ctx, Path(tmp) / "csv" / "files"), Path(tmp) / "csv")
            pdf = _answers(ctx, draw_pdf(ctx, Path(tmp) / "pdf" / "files"), Path(tmp) / "pdf")
        for q, a, b in zip(ctx.questions, csv, pdf, strict=True):
            asked += 1
            if a != b:
                lost += not b
                other += bool(b)
                listed.append({"context": ctx.uid, "question": q.question, "csv": a, "pdf": b})
    print(json.dumps({"half": args.half, "questions": asked, "differ": lost + other,
                      "pdf_no_figure": lost, "pdf_other_figures": other}))
    if args.list and args.half == "tune":
        for row in listed:
            print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
