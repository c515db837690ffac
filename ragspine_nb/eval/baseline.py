"""The baseline ratchet: gates may not drop and fabrication may not rise.

An improvement is reported, but the committed baseline changes only through an
explicit ``update_baseline`` (``ragspine-nb eval qa ... --update-baseline``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragspine_nb.eval.qa import GATES, QAReport

__all__ = ["compare_to_baseline", "update_baseline", "load_baseline"]


def load_baseline(path: str | Path) -> dict[str, Any]:
    """The baseline file (``{mode: {gate: rate, "fabrication_count": n}}``), or ``{}``."""
    p = Path(path)
    return json.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}


def compare_to_baseline(report: QAReport, baseline: dict[str, Any]
                        ) -> tuple[list[str], list[str]]:
    """``(regressions, improvements)`` of a report against its mode's baseline."""
    base = baseline.get(report.mode)
    if base is None:
        return [], [f"no baseline for mode {report.mode!r} yet"]
    regressions, improvements = [], []
    for gate in GATES:
        now, before = report.gate(gate)["rate"], base.get(gate)
        if before is None:
            continue
        if now < before - 1e-12:
            regressions.append(f"{gate}: {before:.3f} → {now:.3f}")
        elif now > before + 1e-12:
            improvements.append(f"{gate}: {before:.3f} → {now:.3f}")
    fab, fab_before = report.fabrication_count, base.get("fabrication_count", 0)
    if fab > fab_before:
        regressions.append(f"fabrication_count: {fab_before} → {fab}")
    elif fab < fab_before:
        improvements.append(f"fabrication_count: {fab_before} → {fab}")
    return regressions, improvements


def update_baseline(report: QAReport, path: str | Path) -> dict[str, Any]:
    """Record the report's figures as its mode's baseline (explicit action only)."""
    data = load_baseline(path)
    data[report.mode] = {**{g: report.gate(g)["rate"] for g in GATES},
                         "fabrication_count": report.fabrication_count,
                         "cases": len(report.cases)}
    Path(path).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return data
