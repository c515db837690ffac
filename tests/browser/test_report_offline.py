"""An exported stakeholder page opens offline in chromium with its widget rendered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, SHOTS

pytestmark = pytest.mark.slow


def test_exported_report_renders_the_widget_offline(browser: Any, tmp_path: Path) -> None:
    from ragspine_nb.report import build_report

    try:
        [page_path] = build_report([ROOT / "notebooks" / "03_agent.ipynb"], tmp_path / "report",
                                   ROOT / "build" / "vendor")
    except Exception as exc:  # npm unreachable → the report cannot vendor its renderer
        pytest.skip(f"report could not be built here: {exc}")
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
