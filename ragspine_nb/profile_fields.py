"""The metric fields of a profile: their shape, how they are read, and their checks.

Each ``[metrics.CODE]`` table has a ``unit``, a ``label``, ``synonyms``, optionally
``row_labels`` (names a table row may carry that are too broad to read in a question:
"Receivables" on a balance sheet is accounts receivable; "current receivables" in a
question is no line item), the ``parts`` it is the sum of and a ``formula`` over other
metrics' codes (``+ - * /``, numbers and parentheses), and ``balance = true`` for a
balance at a date (a balance sheet's line: its average over a year is the mean of the
year-end balances before and after). Parts must form a tree; a formula may only name
other metrics, and no metric may be computed from itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ragspine_nb.arithmetic import FormulaSyntaxError, names_in, parse
from ragspine_nb.errors import ProfileError

__all__ = ["MetricSpec", "parts_reach", "read_metrics", "formula_codes", "formula_named",
           "str_list", "table_of", "text_of"]

@dataclass(frozen=True)
class MetricSpec:
    """One metric with its default unit (``""``: none, the table states it).

    ``parts`` names the metrics this one is the sum of ("Total revenue" of its segment
    rows): a question naming both an aggregate and one of its parts asks for the part.
    ``formula`` computes it from other metrics (by their codes) when no figure states it.
    ``operand_formula`` computes it only as an operand of another metric's formula
    (gross profit as revenue less cost of sales, for a gross margin): asked for itself,
    a metric no figure states is not computed by it. ``row_labels`` name it as a table
    row only, never in a question. ``balance``: a
    balance at a date (a balance sheet's line), so its "average" over a year is the mean
    of the year-end balances before and after it.
    """

    code: str
    unit: str
    label: str = ""
    synonyms: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    #: how the metric is computed from others when no figure states it, e.g.
    #: ``"(OPERATING_INCOME + DEPRECIATION_AMORTIZATION) / REVENUE"`` (a ``PCT`` metric's
    #: ratio is shown × 100)
    formula: str = ""
    row_labels: tuple[str, ...] = ()
    balance: bool = False
    #: how the metric is computed when another's formula needs it and no figure states it
    operand_formula: str = ""


def str_list(where: str, value: object) -> tuple[str, ...]:
    """A list of non-empty strings at ``where`` (``()`` when absent), stripped."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise ProfileError(f"{where} must be a list of strings, got {value!r}")
    out = []
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise ProfileError(f"{where} must hold non-empty strings, got {item!r}")
        out.append(item.strip())
    return tuple(out)


def table_of(where: str, value: object) -> Mapping[str, Any]:
    """The table (mapping) at ``where`` (``{}`` when absent)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ProfileError(f"[{where}] must be a table/mapping, got {type(value).__name__}")
    return value


def text_of(where: str, value: object) -> str:
    """The non-empty string at ``where``, stripped."""
    if not isinstance(value, str) or not value.strip():
        raise ProfileError(f"{where} must be a non-empty string, got {value!r}")
    return value.strip()


def parts_reach(parts: Mapping[str, Sequence[str]], start: str, target: str) -> bool:
    """Whether ``target`` is among ``start``'s parts, directly or through theirs.

    ``parts`` maps a metric code to the codes it is the sum of (missing = none).
    """
    todo, seen = list(parts.get(start, ())), set()
    while todo:
        code = todo.pop()
        if code == target:
            return True
        if code not in seen:
            seen.add(code)
            todo.extend(parts.get(code, ()))
    return False


def _check_parts(metrics: Mapping[str, MetricSpec]) -> None:
    """Parts must be other known metrics, and no metric may contain itself."""
    for code, spec in metrics.items():
        for part in spec.parts:
            if part not in metrics or part == code:
                raise ProfileError(
                    f"metrics.{code}.parts names {part!r}, which is not another metric; "
                    f"known metrics: {sorted(c for c in metrics if c != code)}")
    graph = {code: spec.parts for code, spec in metrics.items()}
    for code in metrics:
        if parts_reach(graph, code, code):
            raise ProfileError(f"metrics.{code}.parts: {code!r} contains itself "
                               "through its parts; parts must form a tree")


def formula_codes(formula: str) -> list[str]:
    """The metric codes a formula names, in order, each once.

    Raises :class:`~ragspine_nb.arithmetic.FormulaSyntaxError` when it does not parse.

    >>> formula_codes("(OPERATING_INCOME + DEPRECIATION_AMORTIZATION) / REVENUE")
    ['OPERATING_INCOME', 'DEPRECIATION_AMORTIZATION', 'REVENUE']
    """
    return names_in(parse(formula))


def formula_named(metrics: Mapping[str, MetricSpec], codes: Sequence[str]) -> tuple[str, ...]:
    """The one metric with a formula when every other code named is one of its inputs.

    "The retention ratio (using total cash dividends paid and net income)" names the
    ratio and the items it is computed from: the ratio is asked for. Otherwise the codes
    are returned as they are.

    >>> m = {"R": MetricSpec("R", "", formula="1 - D / N"), "D": MetricSpec("D", ""),
    ...      "N": MetricSpec("N", "")}
    >>> formula_named(m, ("R", "D", "N")), formula_named(m, ("D", "N"))
    (('R',), ('D', 'N'))
    """
    derived = [c for c in codes if c in metrics and metrics[c].formula]
    if len(codes) < 2 or not derived:
        return tuple(codes)
    # checked when the profile was read: every formula parses
    graph = {c: formula_codes(s.formula) for c, s in metrics.items() if s.formula}
    # an input may have a formula of its own (net income from the owners' line)
    tops = [top for top in derived
            if all(c == top or parts_reach(graph, top, c) for c in codes)]
    return (tops[0],) if len(tops) == 1 else tuple(codes)


def _check_formulas(metrics: Mapping[str, MetricSpec]) -> None:
    """Formulas name other known metrics only, and never lead back to their own metric."""
    graph: dict[str, list[str]] = {}
    for code, spec in metrics.items():
        for field, text in (("formula", spec.formula), ("operand_formula", spec.operand_formula)):
            if not text:
                continue
            try:
                named = formula_codes(text)
            except FormulaSyntaxError:
                named = []
            unknown = [c for c in named if c not in metrics or c == code]
            if unknown or not named:
                raise ProfileError(
                    f"metrics.{code}.{field} {text!r} must be arithmetic (+ - * /, "
                    f"numbers, parentheses) over other metrics' codes"
                    + (f"; not metrics: {unknown}" if unknown else "")
                    + f"; known metrics: {sorted(c for c in metrics if c != code)}")
            graph.setdefault(code, []).extend(named)
    for code in graph:
        if parts_reach(graph, code, code):
            raise ProfileError(f"metrics.{code}.formula: {code!r} is computed from itself "
                               "through other formulas")


def _flag(where: str, value: object) -> bool:
    """A true/false field (``False`` when absent)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ProfileError(f"{where} must be true or false, got {value!r}")
    return value


def read_metrics(table: Mapping[str, Any]) -> dict[str, MetricSpec]:
    """The ``[metrics]`` table read and checked (see the module docstring)."""
    metrics: dict[str, MetricSpec] = {}
    for code, spec in table.items():
        spec = table_of(f"metrics.{code}", spec)
        unit = spec.get("unit")
        formula = spec.get("formula")
        operand = spec.get("operand_formula")
        metrics[code] = MetricSpec(
            code=text_of("metric code", code),
            unit="" if unit == "" else text_of(f"metrics.{code}.unit", unit),
            label=str(spec.get("label") or ""),
            synonyms=str_list(f"metrics.{code}.synonyms", spec.get("synonyms")),
            parts=str_list(f"metrics.{code}.parts", spec.get("parts")),
            formula="" if formula is None else text_of(f"metrics.{code}.formula", formula),
            row_labels=str_list(f"metrics.{code}.row_labels", spec.get("row_labels")),
            balance=_flag(f"metrics.{code}.balance", spec.get("balance")),
            operand_formula="" if operand is None else text_of(
                f"metrics.{code}.operand_formula", operand),
        )
    if not metrics:
        raise ProfileError("the profile defines no [metrics]; at least one metric is needed")
    _check_parts(metrics)
    _check_formulas(metrics)
    return metrics
