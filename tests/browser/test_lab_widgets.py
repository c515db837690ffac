"""JupyterLab in a real browser: the inspector's layout, Enter to ask, chat follow-ups.

One generated notebook (under the git-ignored ``build/``) displays a RerankInspector with
a mixed Chinese/English query, an AskWidget, a ChatWidget that code then asks through
``chat.ask`` and a TuningPanel; the tests measure what the page shows.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, SHOTS, lab_server

pytestmark = pytest.mark.slow
TOKEN = "ragspine-ci-token"
WORK = ROOT / "build" / "browser_widgets"
INSPECT_QUERY = "银保渠道新单保费为什么下降？ Why did bancassurance commissions fall?"
CELLS = [
    """import os
from datetime import date
from pathlib import Path

root = Path.cwd()
while not (root / "pyproject.toml").exists() and root != root.parent:
    root = root.parent
os.chdir(root)
from ragspine_nb import Agent, NarrativeIndex
from ragspine_nb.cli.commands import build_demo
from ragspine_nb.ingestion.workspace import Workspace

ws = Path("build/browser_widgets/ws")
build_demo(ws)
REF = date(2026, 3, 31)
agent = Agent.from_workspace(ws)""",
    """class ReverseJudge:  # a stand-in judge (no model download): reverses the fused order
    name = "reverse"

    def judge(self, query, candidates):
        return list(reversed(range(len(candidates))))


wsp = Workspace(ws)
index = NarrativeIndex(wsp.chunks, profile=wsp.profile, judge=ReverseJudge())
index.inspect(INSPECT_QUERY, top_k=6)""".replace("INSPECT_QUERY", repr(INSPECT_QUERY)),
    """agent.widget(reference_date=REF)""",
    """chat = agent.chat(ws / "conversations.db", conversation_id="browser-widgets")
chat.widget(reference_date=REF)""",
    """r = chat.ask("What was ACME Hong Kong's revenue in FY2025?", REF)  # asked from code""",
    """queries = {"q1": "bancassurance commissions capped", "q2": "agency new sales Hong Kong",
           "q3": "solvency ratio capital regime"}
qrels = {q: {index.search(t, top_k=1)[0].chunk.chunk_id: 1} for q, t in queries.items()}
index.tune(queries, qrels)""",
    """import numpy as np  # a bigger query set with long queries, so that queries move
from ragspine_nb.retrieval import BM25Index
from ragspine_nb.retrieval.tuning import TuningEngine
from ragspine_nb.widgets import TuningPanel

rng = np.random.default_rng(0)
words = ("revenue agency bancassurance commission capital solvency margin reserve growth "
         "policy claims premium channel regulator profit value").split() * 4
words += [f"term{i}" for i in range(60)]
ids = [f"d{i}" for i in range(400)]
bm = BM25Index.build(ids, [" ".join(rng.choice(words, int(rng.integers(8, 80))))
                           for _ in ids])
long_q = {f"q{i}": " ".join(rng.choice(words, int(rng.integers(4, 40)))) for i in range(60)}
judged = {q: {hits[2][0]: 1} for q, hits in zip(long_q, bm.search_many(list(long_q.values()), 5))}
panel = TuningPanel(TuningEngine(bm, long_q, judged))
panel.k1.value = 0.3
panel""",
]


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
    _write_notebook(WORK / "widgets.ipynb")
    with lab_server(tmp_path_factory.mktemp("lab"), TOKEN) as port:
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"http://127.0.0.1:{port}/lab/tree/build/browser_widgets/widgets.ipynb"
                f"?token={TOKEN}&reset", timeout=90_000)
        pg.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        pg.wait_for_function(
            "() => window.jupyterapp && window.jupyterapp.shell.currentWidget && "
            "window.jupyterapp.shell.currentWidget.sessionContext.session && "
            "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status "
            "=== 'idle'", timeout=120_000)
        pg.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        pg.locator(".rs-card", has_text="Queries that moved most").nth(1).wait_for(
            timeout=180_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        yield pg
        assert errors == []
        pg.close()


_MEASURE = """() => [...document.querySelectorAll('.rs-card')]
  .filter(c => /RRF order|After rerank/.test(c.querySelector('.rs-title').textContent))
  .map(card => {
    const table = card.querySelector('table');
    const heads = [...table.querySelectorAll('th')];
    const text = heads.find(h => h.textContent === 'text');
    const out = card.closest('.jp-OutputArea-output').getBoundingClientRect();
    const t = table.getBoundingClientRect();
    return {title: card.querySelector('.rs-title').textContent, tableLeft: t.left,
            tableRight: t.right, tableWidth: t.width, outRight: out.right,
            viewport: window.innerWidth, scroll: card.scrollWidth, client: card.clientWidth,
            textWidth: text.getBoundingClientRect().width, rows: table.rows.length};
  })"""


@pytest.mark.parametrize(("width", "sidebar"), [(900, False), (1100, False), (1400, True),
                                               (1600, True)])
def test_inspector_tables_and_text_column_fit_the_notebook_width(page: Any, width: int,
                                                                 sidebar: bool) -> None:
    # notebook widths of about 870 to 1270 px: the file browser open only on wide screens
    page.set_viewport_size({"width": width, "height": 1000})
    page.evaluate(f"() => window.jupyterapp.shell.{'expandLeft' if sidebar else 'collapseLeft'}()")
    page.wait_for_timeout(700)  # let the notebook re-lay itself out
    first = page.locator(".rs-card", has_text="RRF order").first
    first.scroll_into_view_if_needed()
    tables = page.evaluate(_MEASURE)
    assert [t["title"] for t in tables] == ["RRF order (before rerank)", "After rerank"]
    for t in tables:
        assert t["rows"] > 2  # a header and the hits
        assert t["tableLeft"] >= 0 and t["tableRight"] <= t["outRight"] + 1, t
        assert t["tableRight"] <= t["viewport"], t
        assert t["scroll"] <= t["client"] + 1, t  # nothing hidden to the right
        # the text column takes most of the table, not one word per line
        assert t["textWidth"] >= 0.4 * t["tableWidth"] and t["textWidth"] >= 250, t
    page.screenshot(path=str(SHOTS / f"lab_inspector_{width}.png"))
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.evaluate("() => window.jupyterapp.shell.expandLeft()")


def test_enter_submits_in_the_ask_widget_and_the_trace_is_a_table(page: Any) -> None:
    box = page.get_by_placeholder("Ask about a figure or why it moved…").first
    box.scroll_into_view_if_needed()
    box.fill("What was ACME Hong Kong's revenue in FY2024?")
    box.press("Enter")  # no click
    cell = page.locator(".jp-Cell", has=box).first
    cell.get_by_text("1,320").first.wait_for(timeout=60_000)
    assert cell.get_by_role("button", name="Ask").is_enabled()
    cell.locator("summary", has_text="trace").first.click()
    trace = cell.locator("table", has=page.locator("th", has_text="field")).first
    trace.wait_for(timeout=10_000)
    assert trace.locator("td", has_text="request_id").count() == 1
    assert cell.locator("pre", has_text='"request_id"').count() == 0  # not a JSON dump
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "lab_ask_enter_trace.png"))


def _fits(locator: Any) -> bool:
    return bool(locator.evaluate("e => e.scrollWidth <= e.clientWidth + 1"))


def test_chat_widget_follows_code_and_carries_a_follow_up(page: Any) -> None:
    box = page.get_by_placeholder("Ask a question or a follow-up…").first
    cell = page.locator(".jp-Cell", has=box).first
    cell.scroll_into_view_if_needed()
    # ``chat.ask`` in a later cell updated the widget shown above it
    cell.get_by_text("2 messages").first.wait_for(timeout=30_000)
    assert cell.locator(".rs-transcript .rs-assistant", has_text="1,405").count() == 1
    new = cell.get_by_role("button", name="New conversation")
    assert _fits(new), "the New conversation label is cut off"
    new.click()
    cell.get_by_text("0 messages").first.wait_for(timeout=30_000)
    box.fill("What was Hong Kong revenue in FY2025?")
    box.press("Enter")
    cell.get_by_text("2 messages").first.wait_for(timeout=60_000)
    box.fill("And in FY2024?")
    box.press("Enter")
    cell.get_by_text("4 messages").first.wait_for(timeout=60_000)
    transcript = cell.locator(".rs-transcript", has=page.locator(".rs-user")).first
    users = [u.inner_text() for u in transcript.locator(".rs-user").all()]
    assert [u.splitlines()[-1] for u in users] == ["What was Hong Kong revenue in FY2025?",
                                                  "And in FY2024?"]
    answers = [a.inner_text() for a in transcript.locator(".rs-assistant").all()]
    assert len(answers) == 2 and "1,405" in answers[0]
    second = answers[1]
    assert "Hong Kong" in second and "FY2024" in second and "1,320" in second, second
    assert "revenue" in second.lower(), second
    # each answer shown once in the widget: in the transcript, not again below the box
    text = cell.inner_text()
    assert text.count("1,320") == 1 and text.count("1,405") == 1, text
    cell.screenshot(path=str(SHOTS / "lab_chat_follow_up.png"))


def test_tuning_panel_hides_rrf_k_and_labels_the_movers(page: Any) -> None:
    movers = page.locator(".rs-card", has_text="Queries that moved most")
    cell = page.locator(".jp-Cell", has=movers).nth(1)  # the panel with long queries
    card = cell.locator(".rs-card", has_text="Queries that moved most")
    cell.scroll_into_view_if_needed()
    rrf = cell.locator(".widget-slider", has_text="RRF k")
    assert rrf.count() == 0 or not rrf.first.is_visible()  # bm25 only: nothing to fuse
    k1 = cell.locator(".widget-slider", has_text="k1").first
    assert k1.bounding_box()["width"] >= 440
    assert card.locator("th", has_text="query id").count() == 2  # winners and losers
    rows = card.locator("tbody tr")
    assert rows.count() >= 4 and card.get_by_text("(empty)").count() == 0
    # long queries wrap inside the card, cut (if at all) at a word with an ellipsis
    assert _fits(card)
    for q in card.locator("tbody td:nth-child(3)").all_inner_texts():
        assert q.endswith("…") or len(q) < 120, q
        assert not q.endswith("…") or q[-2] == " ", q
    cell.locator(".widget-slider").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "lab_tuning_panel.png"))
