"""RerankInspector: fused (RRF) order beside the reranked order, RESTRICTED redacted.

Each hit can be judged relevant / partly / not for the query (graded 2 / 1 / 0); the
judgments go to a :class:`~ragspine_nb.retrieval.judgments.Judgments`, by default the
workspace's ``judgments/qrels.trec`` beside a file chunk store (saved on every click).
"""

from __future__ import annotations

import hashlib
from html import escape
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.display.render import Card, Message, Table, render_html, render_transcript
from ragspine_nb.retrieval.judgments import GRADES, Judgments
from ragspine_nb.retrieval.planning import QueryPlan, QueryPlanner, RuleQueryPlanner
from ragspine_nb.retrieval.results import SearchResults
from ragspine_nb.widgets._html import compact

__all__ = ["RerankInspector", "comparison_rows", "comparison_html", "plan_html", "query_id_of",
           "judgments_for"]


def query_id_of(query: str) -> str:
    """A stable id for a typed query (the same words, the same id).

    >>> query_id_of("Why did revenue fall?") == query_id_of("  why did revenue  fall? ")
    True
    """
    return "q-" + hashlib.sha1(" ".join(query.lower().split()).encode()).hexdigest()[:10]


def judgments_for(index: Any) -> Judgments:
    """The workspace's judgments beside a file chunk store, else judgments in memory."""
    from pathlib import Path

    path = str(getattr(getattr(index, "store", None), "path", ":memory:"))
    if path == ":memory:" or "://" in path or not Path(path).parent.is_dir():
        return Judgments()
    return Judgments.for_workspace(Path(path).parent)


def comparison_rows(results: SearchResults) -> list[dict[str, Any]]:
    """Plain rows of the comparison: ranks, scores, movement, redacted text."""
    rows = []
    for h in sorted(results.hits, key=lambda x: x.fused_rank):
        rows.append({"fused_rank": h.fused_rank, "rerank_rank": h.rank, "moved": h.moved,
                     "doc": h.chunk.doc_id, "locator": h.chunk.source_locator,
                     "bm25": h.bm25_score, "vector": h.vector_score, "fused": h.fused_score,
                     "judge": h.judge_score, "restricted": h.restricted,
                     "text": h.display_text[:160]})
    return rows


#: Column widths of the comparison tables (``table-layout: fixed``); the text takes the rest.
_WIDTHS = {"#": "2.2em", "moved": "3.4em", "source": "22%", "bm25": "3.9em", "vector": "3.9em",
           "fused": "3.9em", "judge": "3.9em"}
_SCORES = ("bm25", "vector", "fused", "judge")


def _fmt(v: Any) -> str:
    return "—" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))


def _layout(html_block: str, columns: tuple[str, ...]) -> str:
    """Wrap a rendered card so its table spans the width, the text column getting the rest.

    The CSS is static (column names only) and scoped by a class derived from the columns,
    so two tables with different columns never restyle each other.
    """
    scope = "rs-ins-" + hashlib.sha1("|".join(columns).encode()).hexdigest()[:8]
    widths = "".join(f".{scope} th:nth-child({i}){{width:{_WIDTHS[c]}}}"
                     for i, c in enumerate(columns, start=1) if c in _WIDTHS)
    css = (f".{scope} .rs-card table{{table-layout:fixed;width:100%}}"
           f".{scope} .rs-card td{{overflow-wrap:anywhere;word-break:normal;line-height:1.35}}"
           f".{scope} .rs-card{{overflow-x:hidden}}{widths}")
    return compact(f"<div class='{scope}' style='width:100%'><style>{css}</style>{html_block}"
                   "</div>")


def comparison_html(rows: list[dict[str, Any]], order_key: str, title: str) -> str:
    """One order of the comparison as a full-width table, escaped by the renderer.

    Score columns that are empty for every row (no vectors, no judge) are left out.
    """
    scores = tuple(c for c in _SCORES if any(r[c] is not None for r in rows))
    columns = ("#", "moved", "source", *scores, "text")
    body = tuple((str(r[order_key]), f"{r['moved']:+d}" if r["moved"] else "",
                  f"{r['doc']} · {r['locator']}", *(_fmt(r[c]) for c in scores), r["text"])
                 for r in sorted(rows, key=lambda r: r[order_key]))
    card = Card(title=title, tables=(Table("", columns, body),))
    return _layout(render_html(card), columns)


def plan_html(plan: QueryPlan) -> str:
    """The query plan as an escaped table: one row per variant with its kind."""
    rows = tuple((str(i), v.kind, v.text) for i, v in enumerate(plan.variants, start=1))
    caption = (f"Query plan ({len(plan.variants)} variants, fused with RRF, one row per "
               "chunk)")
    return compact(render_html(Card(title="Query plan", tables=(
        Table(caption, ("#", "kind", "query"), rows),))))


class RerankInspector:
    """Run a query with rerank and show both orders (``index.inspect(query)``).

    The query plan (the variants searched, each with its kind) is shown above the two
    orders, which are stacked (fused RRF order, then the order after rerank) so each
    table spans the notebook's width and its text column wraps; ``planner=False``
    searches the query alone.
    """

    def __init__(self, index: Any, query: str = "", top_k: int = 10,
                 filters: dict[str, str] | None = None,
                 planner: QueryPlanner | bool | None = None,
                 judgments: Judgments | None = None) -> None:
        w = import_optional("ipywidgets", extra="notebook", feature="RerankInspector")
        self._w = w
        self.index = index
        #: where the hits' grades go (``index``'s workspace file by default)
        self.judgments = judgments if judgments is not None else judgments_for(index)
        #: called with ``(query id, chunk id, relevance)`` after each judgment
        self.on_judgment: list[Any] = []
        self.judge_box = w.VBox(layout=w.Layout(width="100%"))
        self.top_k = top_k
        self.filters = filters
        self.planner: QueryPlanner | None = (
            RuleQueryPlanner(getattr(index, "profile", None)) if planner in (None, True)
            else None if planner is False else planner)  # type: ignore[assignment]
        self.plan: QueryPlan | None = None
        def full() -> Any:
            return w.HTML(layout=w.Layout(width="100%"))

        self.plan_view = full()
        self.query = w.Text(value=query, description="Query",
                            layout=w.Layout(flex="1 1 320px", min_width="240px"))
        self.button = w.Button(description="Inspect", icon="search",
                               layout=w.Layout(width="auto", min_width="90px"))
        self.left = full()  # the fused (RRF) order
        self.right = full()  # the order after rerank, below it
        self.prompt = full()
        self.status = full()
        self.ui = w.VBox([w.HBox([self.query, self.button]), self.status, self.plan_view,
                          self.left, self.right, self.judge_box, self.prompt],
                         layout=w.Layout(width="100%"))
        self.results: SearchResults | None = None
        self.button.on_click(lambda _: self.run())
        self.query.on_msg(  # Enter in the box runs it too (the text box's "submit" event)
            lambda _w, content, _b: self.run() if content.get("event") == "submit" else None)
        if query:
            self.run()

    def run(self) -> SearchResults:
        """Search (reranking when the index has a judge) and refresh the view."""
        q = self.query.value.strip()
        rerank = self.index.judge is not None
        self.plan = self.planner.plan(q) if self.planner is not None and q else None
        extra = {"variants": self.plan.texts} if self.plan is not None else {}
        self.results = self.index.search(q, top_k=self.top_k, filters=self.filters,
                                         rerank=rerank, **extra)
        self.plan_view.value = plan_html(self.plan) if self.plan is not None else ""
        rows = comparison_rows(self.results)
        self.left.value = comparison_html(rows, "fused_rank", "RRF order (before rerank)")
        self.right.value = comparison_html(rows, "rerank_rank", "After rerank" if rerank
                                           else "After rerank: no judge configured, same order")
        info = self.results.rerank
        self.status.value = compact(render_transcript(
            [], empty=str(info.get("reason", "rerank not requested"))))
        preview = info.get("prompt_preview", "")
        self.prompt.value = compact("<details><summary>judge prompt preview (RESTRICTED never "
                                    "included)</summary>" + render_transcript(
                                        [Message("prompt", "prompt", preview)]) + "</details>"
                                    ) if preview else ""
        self._judge_rows(q)
        return self.results

    def _judge_rows(self, query: str) -> None:
        """One row of grade buttons per hit (final order), showing saved grades."""
        w = self._w
        qid = query_id_of(query)
        saved = self.judgments.get(qid, {})
        names = {v: k for k, v in GRADES.items()}
        rows = []
        self.grade_buttons: dict[str, Any] = {}
        for h in sorted(self.results.hits if self.results else [], key=lambda x: x.rank):
            cid = h.chunk.chunk_id
            toggle = w.ToggleButtons(options=list(GRADES), value=names.get(saved.get(cid, -1)),
                                     style={"button_width": "88px"},
                                     tooltips=["relevant (2)", "partly (1)", "not relevant (0)"])
            toggle.observe(lambda ch, cid=cid: self.mark(query, cid, ch["new"])
                           if ch["new"] is not None else None, names="value")
            self.grade_buttons[cid] = toggle
            label = w.HTML(f"<span>#{h.rank} {escape(h.chunk.doc_id)} · "
                           f"{escape(h.chunk.source_locator)}</span>")
            rows.append(w.HBox([toggle, label]))
        head = w.HTML(compact(render_html(Card(
            title="Judge the hits", subtitle=f"query id {qid}",
            notes=(f"saved to {self.judgments.path}" if self.judgments.path
                   else "kept in memory (inspector.judgments)",)))))
        self.judge_box.children = [head, *rows] if rows else []

    def mark(self, query: str, chunk_id: str, grade: int | str) -> str:
        """Judge ``chunk_id`` for ``query`` (a grade name or 0–3); returns the query id."""
        qid = query_id_of(query)
        self.judgments.mark(qid, chunk_id, grade, query=query)
        rel = self.judgments[qid][chunk_id]
        for callback in self.on_judgment:
            callback(qid, chunk_id, rel)
        return qid

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)  # type: ignore[no-untyped-call]
