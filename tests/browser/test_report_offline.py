"""The exported stakeholder report opens offline in chromium: summary first, widgets rendered,
no code, no request leaving the page, every page at most 2 MB."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, SHOTS

# the fixture executes all four notebooks with the public datasets (nb02 alone takes minutes)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]
MAX_PAGE_BYTES = 2 * 1024 * 1024
RAW_VALUES = ("([], [])", "('ask_first'", "[(1, 'passage'")  # what the report used to print


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """``make report``'s pages, built once: the summary page, then the four notebooks."""
    from ragspine_nb.errors import RagspineError
    from ragspine_nb.report.export import build_report, ensure_vendor

    vendor = ROOT / "build" / "vendor"
    try:  # the only thing that may legitimately be missing here: the vendored renderer
        ensure_vendor(vendor)
    except (RagspineError, subprocess.TimeoutExpired) as exc:  # no npm, or registry unreachable
        pytest.skip(f"the widget renderer could not be fetched from npm here: {exc}")
    # anything failing from here on (a notebook cell, the export) is a real failure
    return build_report(None, tmp_path_factory.mktemp("report"), vendor)


def _open_offline(browser: Any, path: Path) -> tuple[Any, Any, list[str]]:
    """The page opened with the network off; every URL it requested is recorded."""
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.goto(path.as_uri())
    return context, page, requests


def test_the_summary_page_comes_first_with_badges_and_links(browser: Any,
                                                             report: list[Path]) -> None:
    assert [p.name for p in report] == ["index.html", "01_ingestion.html",
                                        "02_retrieval_tuning.html", "03_agent.html",
                                        "04_eval_dashboard.html"]
    context, page, requests = _open_offline(browser, report[0])
    page.locator("#rs-summary .rs-scorecard").wait_for(timeout=30_000)
    text = page.locator("#rs-summary").inner_text()
    assert "Headline figures" in text and "targets met" in text
    for figure in ("numeric accuracy", "fabrication count", "wrong number", "correct",
                   "text-span recall@3", "nDCG@10"):
        assert figure in text, figure
    assert page.locator(".rs-badge", has_text="PASS").count() > 0
    assert page.locator("nav a").first.inner_text() == "Summary"
    links = [a.get_attribute("href") for a in page.locator("#rs-summary .rs-pages a").all()]
    assert links == [p.name for p in report[1:]]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "report_00_summary.png"), full_page=True)
    assert requests == [report[0].as_uri()]
    context.close()


def test_every_page_is_small_offline_and_shows_no_code(browser: Any, report: list[Path]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for path in report:
        html = path.read_text(encoding="utf-8")
        assert path.stat().st_size <= MAX_PAGE_BYTES, (path.name, path.stat().st_size)
        assert "mathjax" not in html.lower() and "cdnjs" not in html, path.name
        context, page, requests = _open_offline(browser, path)
        page.wait_for_load_state("load")
        if "application/vnd.jupyter.widget-state+json" in html:  # the renderer has run
            page.locator(".jupyter-widgets").first.wait_for(timeout=60_000)
        page.locator("nav a", has_text="Summary").first.wait_for(timeout=30_000)
        code = ".jp-CodeCell .jp-InputArea, .jp-InputPrompt, .jp-OutputPrompt, .jp-CodeMirrorEditor"
        assert page.locator(code).count() == 0, path.name
        body = page.locator("body").inner_text()
        assert "from ragspine_nb" not in body and "os.chdir" not in body, path.name
        assert not any(raw in body for raw in RAW_VALUES), path.name
        assert "Traceback" not in body, path.name
        shot = "00_summary" if path.name == "index.html" else path.stem
        page.screenshot(path=str(SHOTS / f"report_{shot}.png"), full_page=True)
        # nothing but the page itself (data: URLs never reach the network)
        assert [u for u in requests if not u.startswith("data:")] == [path.as_uri()], requests
        context.close()


def test_exported_report_renders_the_widget_offline(browser: Any, report: list[Path]) -> None:
    page_path = next(p for p in report if p.name == "03_agent.html")
    html = page_path.read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-state+json" in html
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html
    context, page, requests = _open_offline(browser, page_path)  # no network at all
    page.get_by_role("button", name="Ask").first.wait_for(timeout=60_000)
    page.get_by_text("1,405 US$ m").first.wait_for(timeout=30_000)
    # the ChatWidget's saved state holds the turn asked from code (chat.ask), not an empty chat
    page.get_by_text("notebook-03 · 2 messages").first.wait_for(timeout=30_000)
    # the icons come from the bundled font, the widgets' text is set in a sans-serif face
    page.wait_for_function("() => [...document.fonts].some(f => "
                           "f.family.includes('ragspine-fa-solid') && f.status === 'loaded')",
                           timeout=30_000)
    family = page.locator(".widget-html-content").first.evaluate(
        "e => getComputedStyle(e).fontFamily")
    assert "sans-serif" in family and not family.lower().startswith(("serif", "times"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "report_offline.png"))
    assert [u for u in requests if not u.startswith("data:")] == [page_path.as_uri()]
    context.close()
