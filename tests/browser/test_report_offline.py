"""An exported stakeholder page opens offline in chromium with its widget rendered."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, SHOTS

pytestmark = pytest.mark.slow


def test_exported_report_renders_the_widget_offline(browser: Any, tmp_path: Path) -> None:
    from ragspine_nb.errors import RagspineError
    from ragspine_nb.notebook_export import build_report, ensure_vendor

    vendor = ROOT / "build" / "vendor"
    try:  # the only thing that may legitimately be missing here: the vendored renderer
        ensure_vendor(vendor)
    except (RagspineError, subprocess.TimeoutExpired) as exc:  # no npm, or registry unreachable
        pytest.skip(f"the widget renderer could not be fetched from npm here: {exc}")
    # anything failing from here on (a notebook cell, the export) is a real failure
    [page_path] = build_report([ROOT / "notebooks" / "03_agent.ipynb"], tmp_path / "report",
                               vendor)
    html = page_path.read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-state+json" in html
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html
    context = browser.new_context(offline=True)  # no network at all
    page = context.new_page()
    page.goto(page_path.as_uri())
    page.get_by_role("button", name="Ask").first.wait_for(timeout=60_000)
    page.get_by_text("1,405 USD_M").first.wait_for(timeout=30_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "report_offline.png"))
    context.close()
