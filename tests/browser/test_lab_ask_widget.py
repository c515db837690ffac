"""JupyterLab in a real browser: run 03_agent.ipynb, ask in the AskWidget and the ChatWidget."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, SHOTS, lab_server

pytestmark = pytest.mark.slow
TOKEN = "ragspine-ci-token"


@pytest.fixture
def lab(tmp_path: Path):  # type: ignore[no-untyped-def]
    # the notebook copy lives inside the checkout (it finds the repo root by walking up)
    work = ROOT / "build" / "browser"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / "03_agent.ipynb", work / "03_agent.ipynb")
    with lab_server(tmp_path, TOKEN) as port:
        yield port


def test_ask_widget_answers_with_its_source_in_jupyterlab(lab: int, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"http://127.0.0.1:{lab}/lab/tree/build/browser/03_agent.ipynb"
              f"?token={TOKEN}&reset", timeout=90_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget && "
        "window.jupyterapp.shell.currentWidget.sessionContext.session && "
        "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'",
        timeout=120_000)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    box = page.get_by_placeholder("Ask about a figure or why it moved…").first
    box.wait_for(timeout=180_000)
    box.fill("集团2025年上半年营收多少？")
    page.get_by_role("button", name="Ask").first.click()
    page.get_by_text("2,290").first.wait_for(timeout=60_000)
    page.get_by_text("ACME_FY2025_Results.pptx · slide=6,table=1,row=REVENUE,col=2025H1").first \
        .wait_for(timeout=30_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lab_ask_widget.png"), full_page=False)
    # the chat widget of the same notebook: a question, a follow-up, the transcript grows
    chat_box = page.get_by_placeholder("Ask a question or a follow-up…").first
    chat_box.wait_for(timeout=60_000)
    row = page.locator(".widget-hbox", has=chat_box).first
    chat_box.fill("What was ACME Hong Kong's revenue in FY2025?")
    row.get_by_role("button", name="Ask").click()
    page.get_by_text("4 messages").first.wait_for(timeout=60_000)
    # the chat's transcript (the AskWidget's answer above is drawn by the same renderer)
    transcript = page.locator(".jp-Cell", has=chat_box).locator(
        ".rs-transcript", has=page.locator(".rs-user")).first
    transcript.get_by_text("slide=3,table=1,row=REVENUE,col=FY2025").first.wait_for(
        timeout=30_000)
    assert chat_box.input_value() == ""
    chat_box.fill("Why did Hong Kong agency sales change?")
    row.get_by_role("button", name="Ask").click()
    page.get_by_text("6 messages").first.wait_for(timeout=60_000)
    assert transcript.locator(".rs-user").count() == 3
    transcript.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "lab_chat_widget.png"), full_page=False)
    row.get_by_role("button", name="New conversation").click()
    page.get_by_text("0 messages").first.wait_for(timeout=30_000)
    assert errors == []
    page.close()
