"""The shipped notebooks as a newcomer first sees them: opened in JupyterLab, not run.

A freshly cloned notebook is untrusted, so JupyterLab strips every ``<style>`` from its
stored outputs; the cards must still lay out from their inline styles (the agent diagram
left to right, not a column of words; a title apart from its subtitle). Opening a notebook
must not mark it modified either (a kernelspec that differs from the kernel's own is
rewritten at once, and the tab shows ●).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import ROOT, SHOTS, lab_server

pytestmark = pytest.mark.slow
TOKEN = "ragspine-ci-token"
WORK = ROOT / "build" / "browser_stored"
NOTEBOOKS = ("01_ingestion.ipynb", "02_retrieval_tuning.ipynb", "03_agent.ipynb",
             "04_eval_dashboard.ipynb")
KERNEL_IDLE = ("() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
               " const s = w && w.sessionContext && w.sessionContext.session;"
               " return !!(s && s.kernel && s.kernel.status === 'idle'); }")


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    # copies inside the checkout (the notebooks find the repo root by walking up), never run
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "notebooks" / name, WORK / name)
    with lab_server(tmp_path_factory.mktemp("lab"), TOKEN) as port:
        yield port


def _open(browser: Any, port: int, name: str) -> Any:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"http://127.0.0.1:{port}/lab/tree/build/browser_stored/{name}?token={TOKEN}"
              "&reset", timeout=90_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    page.wait_for_function(KERNEL_IDLE, timeout=120_000)
    page.wait_for_timeout(1_500)  # the kernel's info has been written into the model
    return page


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_stored_notebook_opens_unmodified(lab: int, browser: Any, name: str) -> None:
    page = _open(browser, lab, name)
    model = "window.jupyterapp.shell.currentWidget.context.model"
    assert page.evaluate(f"() => {model}.dirty") is False, page.evaluate(
        f"() => JSON.stringify({model}.toJSON().metadata.kernelspec)")
    page.close()


def test_stored_cards_keep_their_layout_without_their_stylesheet(lab: int,
                                                                  browser: Any) -> None:
    page = _open(browser, lab, "03_agent.ipynb")
    cell = page.locator(".jp-OutputArea-output", has=page.locator(".rs-flow")).first
    cell.wait_for(timeout=30_000)
    assert cell.locator("style").count() == 0  # untrusted: the stylesheet is gone
    flow = cell.locator(".rs-flow").first
    assert flow.evaluate("e => getComputedStyle(e).display") == "flex"
    boxes = [b["y"] for b in (n.bounding_box() for n in cell.locator(".rs-node").all()) if b]
    first_row = [y for y in boxes if abs(y - boxes[0]) < 40]
    assert len(first_row) >= 3, boxes  # question → gate → intent side by side, not stacked
    SHOTS.mkdir(parents=True, exist_ok=True)
    cell.screenshot(path=str(SHOTS / "lab_stored_03_topology.png"))
    # a card's subtitle keeps its distance from the title ("AgentResult  What was …")
    card = page.locator(".rs-card", has=page.locator(".rs-sub")).first
    card.scroll_into_view_if_needed()
    assert card.locator(".rs-sub").first.evaluate("e => getComputedStyle(e).marginLeft") == "8px"
    card.screenshot(path=str(SHOTS / "lab_stored_03_card.png"))
    page.screenshot(path=str(SHOTS / "lab_stored_03.png"))
    page.close()


def test_the_stored_scorecard_shows_its_badges_untrusted(lab: int, browser: Any) -> None:
    page = _open(browser, lab, "04_eval_dashboard.ipynb")
    card = page.locator(".rs-scorecard").first
    card.scroll_into_view_if_needed(timeout=30_000)
    badge = card.locator(".rs-badge").first
    assert badge.evaluate("e => getComputedStyle(e).backgroundColor") in (
        "rgb(26, 127, 55)", "rgb(207, 34, 46)")  # inline colours survive the sanitizer
    card.screenshot(path=str(SHOTS / "lab_stored_04_scorecard.png"))
    page.close()
