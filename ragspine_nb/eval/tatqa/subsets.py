"""Secondary TAT-QA figures: the earlier scored subsets and the cells they are about.

The project used to score two subsets only: ``single_cell`` lookups (a span answer from
the table equal to exactly one data cell) and ``difference`` questions (a derivation
``a - b`` over two cells of one row). Both are chosen from the gold and the raw table
alone, never from what extraction found, and are now scored like every other question.
Their gold cells also give a cheap extraction check through the real path: is there a
fact at the cell's locator in ``table.csv`` (``cell=C4``, as the CSV reader writes it),
with the cell's value in the question's scale?
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ragspine_nb.core import Fact, Figure
from ragspine_nb.eval.tatqa.gold import (
    GoldNumber,
    TatqaContext,
    TatqaQuestion,
    gold_of,
    is_year,
    parse_amount,
)
from ragspine_nb.eval.tatqa.score import compare
from ragspine_nb.extract.plain import column_letter

__all__ = ["subset_of", "subset_cells", "cell_locator", "CellCheck", "check_cells",
           "extraction_summary"]

_DIFFERENCE = re.compile(r"^\s*\(?\s*([\d,.]+)\s*-\s*([\d,.]+)\s*\)?\s*$")


def _cells(ctx: TatqaContext) -> dict[tuple[int, int], float]:
    """Every amount in a data column of the raw table (years left out), by (row, col)."""
    out = {}
    for r, row in enumerate(ctx.table):
        for c, cell in enumerate(row[1:], start=1):
            amount = None if is_year(cell) else parse_amount(cell)
            if amount is not None:
                out[(r, c)] = amount.value
    return out


def subset_cells(ctx: TatqaContext, q: TatqaQuestion
                 ) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The question's subset (``single_cell``, ``difference`` or ``""``) and its gold cells."""
    cells = _cells(ctx)
    gold = gold_of(q)
    if q.answer_type == "span" and q.answer_from in ("table", "table-text") \
            and len(gold.numbers) == 1:
        target = abs(gold.numbers[0].value)
        hits = [k for k, v in cells.items() if abs(abs(v) - target) < 1e-9]
        if len(hits) == 1:
            return "single_cell", (hits[0],)
    m = _DIFFERENCE.match(q.derivation) if q.answer_type == "arithmetic" else None
    if m is not None:
        a, b = (float(x.replace(",", "")) for x in m.groups())
        at_a = [k for k, v in cells.items() if abs(abs(v) - a) < 1e-9]
        at_b = [k for k, v in cells.items() if abs(abs(v) - b) < 1e-9]
        pairs = [(x, y) for x in at_a for y in at_b if x[0] == y[0] and x[1] != y[1]]
        if len(pairs) == 1:
            return "difference", pairs[0]
    return "", ()


def subset_of(ctx: TatqaContext, q: TatqaQuestion) -> str:
    """``single_cell``, ``difference`` or ``""`` (see the module docstring)."""
    return subset_cells(ctx, q)[0]


def cell_locator(row: int, col: int) -> str:
    """The locator the CSV reader gives the table's cell (0-based ``row``, ``col``)."""
    return f"cell={column_letter(col)}{row + 1}"


@dataclass(frozen=True)
class CellCheck:
    """One gold cell of a subset question against the fact stored at its locator."""

    locator: str
    located: bool
    outcome: str  # compare()'s: "equal", "sign", "digits" (scale) or "" ; "" when not located


def check_cells(ctx: TatqaContext, questions: Iterable[TatqaQuestion],
                facts: Mapping[str, Fact]) -> tuple[CellCheck, ...]:
    """Each distinct gold cell of the subset questions against ``facts`` (by locator).

    The cell's value is read as the question's gold would be: its own scale word ("%")
    or else the question's ``scale``.
    """
    out: dict[str, CellCheck] = {}
    for q in questions:
        for r, c in subset_cells(ctx, q)[1]:
            loc = cell_locator(r, c)
            amount = parse_amount(ctx.table[r][c])
            if loc in out or amount is None:
                continue
            fact = facts.get(loc)
            if fact is None:
                out[loc] = CellCheck(loc, False, "")
                continue
            gold = GoldNumber(amount.value, amount.decimals, amount.scale or q.scale)
            out[loc] = CellCheck(loc, True, compare(gold, Figure.of_fact(fact, loc)))
    return tuple(out.values())


def extraction_summary(checks: Iterable[CellCheck]) -> dict[str, float | int]:
    """Cells located, with the value in the right scale, and scale disagreements."""
    checks = list(checks)
    n = len(checks)
    located = sum(c.located for c in checks)
    right = sum(c.outcome in ("equal", "sign") for c in checks)
    scale = sum(c.outcome == "digits" for c in checks)
    return {"cells": n, "located": located, "value_and_scale": right, "scale_differs": scale,
            "located_rate": round(located / n, 6) if n else 0.0,
            "value_and_scale_rate": round(right / n, 6) if n else 0.0}
