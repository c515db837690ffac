"""JupyterLab in a real browser: three grades clicked in the inspector move the panel's metrics.

One generated notebook (under the git-ignored ``build/``) builds the demo workspace, a
TuningPanel over its synthetic queries and a RerankInspector the panel follows
(``panel.follow(inspector)``). The test clicks *relevant*, *partly* and *not* on the first
three hits and reads the panel's metrics card after each click.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, SHOTS, lab_server

pytestmark = pytest.mark.slow
TOKEN = "ragspine-ci-judging"
WORK = ROOT / "build" / "browser_judging"
CELLS = [
    """import os
from pathlib import Path

root = Path.cwd()
while not (root / "pyproject.toml").exists() and root != root.parent:
    root = root.parent
os.chdir(root)
from ragspine_nb import NarrativeIndex
from ragspine_nb.cli.commands import build_demo
from ragspine_nb.retrieval import synthetic_queries
from ragspine_nb.ingestion.workspace import Workspace

build_demo("build/browser_judging/ws")
ws = Workspace("build/browser_judging/ws")
index = NarrativeIndex(ws.chunks, profile=ws.profile)""",
    """panel = index.tune(synthetic_queries(ws.chunks.iter_chunks(), n=50))
panel""",
    """inspector = index.inspect("why did bancassurance new sales fall", top_k=6)
panel.follow(inspector)
inspector""",
]
GRADES = ("relevant", "partly", "not")


def _write_notebook(path: Path) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, str(path))


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    _write_notebook(WORK / "judging.ipynb")
    with lab_server(tmp_path_factory.mktemp("lab"), TOKEN) as port:
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"http://127.0.0.1:{port}/lab/tree/build/browser_judging/judging.ipynb"
                f"?token={TOKEN}&reset", timeout=90_000)
        pg.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        pg.wait_for_function(
            "() => window.jupyterapp && window.jupyterapp.shell.currentWidget && "
            "window.jupyterapp.shell.currentWidget.sessionContext.session && "
            "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status "
            "=== 'idle'", timeout=120_000)
        pg.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        pg.locator(".rs-card", has_text="Judge the hits").first.wait_for(timeout=180_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        yield pg
        assert errors == []
        pg.close()


def _metrics(page: Any) -> str:
    card = page.locator(".rs-card", has_text="Retrieval metrics").first
    return str(card.inner_text())


def _queries(text: str) -> int:
    m = re.search(r"(\d+) queries", text)
    assert m, text
    return int(m.group(1))


def _saved() -> list[str]:
    path = WORK / "ws" / "judgments" / "qrels.trec"
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line] \
        if path.exists() else []


def _wait_saved(page: Any, n: int) -> None:
    for _ in range(120):
        if len(_saved()) >= n:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"{n} judgments not saved: {_saved()}")


def test_three_grades_in_the_inspector_change_the_followed_panels_metrics(page: Any) -> None:
    before = _metrics(page)
    assert _queries(before) > 1  # the synthetic queries of the demo workspace
    judge = page.locator(".jp-Cell", has=page.locator(".rs-card", has_text="Judge the hits"))
    toggles = judge.first.locator(".widget-toggle-buttons")
    assert toggles.count() >= 3
    seen = [before]
    for i, grade in enumerate(GRADES):
        toggles.nth(i).scroll_into_view_if_needed()
        button = toggles.nth(i).get_by_role("button", name=grade, exact=True)
        assert button.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), f"{grade} is cut off"
        button.click()
        _wait_saved(page, i + 1)  # the grade is saved before the panel re-scores
        if i == 0:  # the first relevant grade: the panel scores the user's judgment alone
            page.wait_for_function(
                "() => [...document.querySelectorAll('.rs-card')].some(c => "
                "/Retrieval metrics/.test(c.textContent) && /\\b1 queries/.test(c.textContent))",
                timeout=30_000)
        page.wait_for_timeout(1000)  # the panel's new figures reach the page
        seen.append(_metrics(page))
        page.screenshot(path=str(SHOTS / f"lab_judging_click{i + 1}.png"))
    assert seen[1] != before and _queries(seen[1]) == 1, seen
    assert sorted(line.split()[-1] for line in _saved()) == ["0", "1", "2"]
    card = page.locator(".rs-card", has_text="Retrieval metrics").first
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "lab_judging_panel.png"))
