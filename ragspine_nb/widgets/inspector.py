"""RerankInspector: fused (RRF) order beside the reranked order, RESTRICTED redacted."""

from __future__ import annotations

import html
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.retrieval.planning import QueryPlan, QueryPlanner, RuleQueryPlanner
from ragspine_nb.retrieval.results import SearchResults

__all__ = ["RerankInspector", "comparison_rows", "plan_html"]


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


def _fmt(v: Any) -> str:
    return "—" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))


def _row_html(r: dict[str, Any], order_key: str) -> str:
    moved = f"{r['moved']:+d}" if r["moved"] else ""
    cells = [str(r[order_key]), moved, f"{r['doc']} · {r['locator']}", _fmt(r["bm25"]),
             _fmt(r["vector"]), _fmt(r["fused"]), _fmt(r["judge"]), r["text"]]
    return "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>"


def _table(rows: list[dict[str, Any]], order_key: str, title: str) -> str:
    body = "".join(_row_html(r, order_key) for r in sorted(rows, key=lambda r: r[order_key]))
    head = "".join(f"<th>{h}</th>" for h in ("#", "moved", "source", "bm25", "vector", "fused",
                                              "judge", "text"))
    return (f"<table class='rs-cmp'><caption>{html.escape(title)}</caption><tr>{head}</tr>"
            f"{body}</table>")


def plan_html(plan: QueryPlan) -> str:
    """The query plan as an escaped table: one row per variant with its kind."""
    rows = "".join(f"<tr><td>{i}</td><td>{html.escape(v.kind)}</td>"
                   f"<td>{html.escape(v.text)}</td></tr>"
                   for i, v in enumerate(plan.variants, start=1))
    return (f"<table class='rs-plan'><caption>Query plan ({len(plan.variants)} variants, "
            f"fused with RRF, one row per chunk)</caption><tr><th>#</th><th>kind</th>"
            f"<th>query</th></tr>{rows}</table>")


class RerankInspector:
    """Run a query with rerank and show both orders side by side (``index.inspect(query)``).

    The query plan (the variants searched, each with its kind) is shown above the two
    orders; ``planner=False`` searches the query alone.
    """

    def __init__(self, index: Any, query: str = "", top_k: int = 10,
                 filters: dict[str, str] | None = None,
                 planner: QueryPlanner | bool | None = None) -> None:
        w = import_optional("ipywidgets", extra="notebook", feature="RerankInspector")
        self.index = index
        self.top_k = top_k
        self.filters = filters
        self.planner: QueryPlanner | None = (
            RuleQueryPlanner(getattr(index, "profile", None)) if planner in (None, True)
            else None if planner is False else planner)  # type: ignore[assignment]
        self.plan: QueryPlan | None = None
        self.plan_view = w.HTML()
        self.query = w.Text(value=query, description="Query", layout=w.Layout(width="70%"))
        self.button = w.Button(description="Inspect", icon="search")
        self.left = w.HTML()
        self.right = w.HTML()
        self.prompt = w.HTML()
        self.status = w.HTML()
        self.ui = w.VBox([w.HBox([self.query, self.button]), self.status, self.plan_view,
                          w.HBox([self.left, self.right]), self.prompt])
        self.results: SearchResults | None = None
        self.button.on_click(lambda _: self.run())
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
        self.left.value = _table(rows, "fused_rank", "RRF order")
        self.right.value = _table(rows, "rerank_rank", "after rerank" if rerank
                                  else "no judge configured: same order")
        info = self.results.rerank
        self.status.value = html.escape(info.get("reason", "rerank not requested"))
        preview = info.get("prompt_preview", "")
        self.prompt.value = ("<details><summary>judge prompt preview (RESTRICTED never "
                             f"included)</summary><pre>{html.escape(preview)}</pre></details>"
                             if preview else "")
        return self.results

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)  # type: ignore[no-untyped-call]
