"""Golden QA sets: a strict JSONL loader (one bad line rejects the whole file)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb.errors import RagspineError

__all__ = ["GoldenCase", "GoldenSetError", "load_golden", "CASE_TYPES", "CLARIFICATION_MODES"]

CASE_TYPES: tuple[str, ...] = ("numeric", "clarification", "refusal", "narrative", "composite",
                               "out_of_scope")
CLARIFICATION_MODES: tuple[str, ...] = ("none", "ask_first", "answer_with_assumptions",
                                        "out_of_scope_entity")


class GoldenSetError(RagspineError, ValueError):
    """A golden file is malformed; the message names the line."""


@dataclass(frozen=True)
class GoldenCase:
    """One evaluation case."""

    id: str
    question: str
    case_type: str
    expected: dict[str, Any]
    reference_date: date
    tags: dict[str, str] = field(default_factory=dict)


def _check(row: Any, n: int) -> GoldenCase:
    if not isinstance(row, dict):
        raise GoldenSetError(f"line {n}: expected a JSON object")
    missing = [k for k in ("id", "question", "case_type", "expected", "reference_date")
               if k not in row]
    if missing:
        raise GoldenSetError(f"line {n}: missing field(s) {missing}")
    if row["case_type"] not in CASE_TYPES:
        raise GoldenSetError(f"line {n}: case_type {row['case_type']!r} not in {list(CASE_TYPES)}")
    exp = row["expected"]
    if not isinstance(exp, dict):
        raise GoldenSetError(f"line {n}: expected must be an object")
    for key in ("clarification", "refuse"):
        if key not in exp:
            raise GoldenSetError(f"line {n}: expected.{key} is required")
    if exp["clarification"] not in CLARIFICATION_MODES:
        raise GoldenSetError(f"line {n}: expected.clarification {exp['clarification']!r} not in "
                             f"{list(CLARIFICATION_MODES)}")
    if row["case_type"] in ("numeric", "composite"):
        for key in ("value", "unit", "source"):
            if key not in exp:
                raise GoldenSetError(f"line {n}: a {row['case_type']} case needs expected.{key}")
        if set(exp["source"]) != {"doc", "locator"}:
            raise GoldenSetError(f"line {n}: expected.source needs exactly doc and locator")
    if row["case_type"] in ("narrative", "composite") and "narrative_doc" not in exp:
        raise GoldenSetError(f"line {n}: a {row['case_type']} case needs expected.narrative_doc")
    try:
        ref = date.fromisoformat(row["reference_date"])
    except (TypeError, ValueError) as exc:
        raise GoldenSetError(f"line {n}: reference_date must be an ISO date") from exc
    tags = row.get("tags", {})
    if not isinstance(tags, dict):
        raise GoldenSetError(f"line {n}: tags must be an object")
    return GoldenCase(str(row["id"]), str(row["question"]), row["case_type"], dict(exp), ref,
                      {str(k): str(v) for k, v in tags.items()})


def load_golden(path: str | Path) -> list[GoldenCase]:
    """Load a golden JSONL file; any bad line or duplicate id rejects the whole file."""
    cases: list[GoldenCase] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GoldenSetError(f"line {n}: invalid JSON ({exc.msg})") from exc
        case = _check(row, n)
        if case.id in seen:
            raise GoldenSetError(f"line {n}: duplicate id {case.id!r} (first on line "
                                 f"{seen[case.id]})")
        seen[case.id] = n
        cases.append(case)
    if not cases:
        raise GoldenSetError(f"{path}: no cases")
    return cases
