"""The real wiring of a retrieval pipeline, exported as Mermaid, DOT, JSON or inline HTML."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import render_flow

__all__ = ["PipelineGraph", "Node", "index_graph"]


@dataclass(frozen=True)
class Node:
    """One stage: an id, a label and its configuration."""

    id: str
    label: str
    details: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PipelineGraph(CardReprMixin):
    """Nodes and directed edges of a configured pipeline (only wired components appear)."""

    nodes: tuple[Node, ...]
    edges: tuple[tuple[str, str], ...]
    title: str = "pipeline"
    meta: dict[str, Any] = field(default_factory=dict)

    def _label(self, n: Node) -> str:
        extra = ", ".join(f"{k}={v}" for k, v in n.details)
        return f"{n.label} ({extra})" if extra else n.label

    def to_mermaid(self) -> str:
        """Mermaid ``flowchart LR`` source."""
        lines = ["flowchart LR"]
        lines += [f'    {n.id}["{self._label(n)}"]' for n in self.nodes]
        lines += [f"    {a} --> {b}" for a, b in self.edges]
        return "\n".join(lines)

    def to_dot(self) -> str:
        """Graphviz DOT source."""
        lines = [f'digraph "{self.title}" {{', "    rankdir=LR;", "    node [shape=box];"]
        lines += [f'    {n.id} [label="{self._label(n)}"];' for n in self.nodes]
        lines += [f"    {a} -> {b};" for a, b in self.edges]
        return "\n".join(lines + ["}"])

    def to_json(self) -> str:
        """Nodes and edges as JSON."""
        return json.dumps({"title": self.title,
                           "nodes": [{"id": n.id, "label": n.label, "details": dict(n.details)}
                                     for n in self.nodes],
                           "edges": [list(e) for e in self.edges]}, ensure_ascii=False)

    def _stages(self) -> list[list[Node]]:
        """Nodes grouped by distance from the sources (parallel stages share a column)."""
        depth = {n.id: 0 for n in self.nodes}
        for _ in self.nodes:
            for a, b in self.edges:
                depth[b] = max(depth[b], depth[a] + 1)
        columns: dict[int, list[Node]] = {}
        for n in self.nodes:
            columns.setdefault(depth[n.id], []).append(n)
        return [columns[k] for k in sorted(columns)]

    def _display_html(self) -> str:
        return render_flow(self.title, [[(n.label, ", ".join(f"{k}={v}" for k, v in n.details))
                                         for n in col] for col in self._stages()])

    def __repr__(self) -> str:
        return " → ".join(" ∥ ".join(n.label for n in col) for col in self._stages())


def index_graph(*, rewriter: str | None, k1: float, b: float, rrf_k: float,
                embedding: str | None, judge: str | None, rerank_top_n: int) -> PipelineGraph:
    """The wiring of a :class:`~ragspine_nb.retrieval.NarrativeIndex` (wired stages only).

    Examples
    --------
    >>> g = index_graph(rewriter=None, k1=1.2, b=0.75, rrf_k=60, embedding=None, judge=None,
    ...                 rerank_top_n=20)
    >>> [n.id for n in g.nodes]
    ['query', 'filter', 'bm25', 'rrf', 'hits']
    """
    nodes = [Node("query", "query"),
             Node("filter", "metadata pre-filter", (("pushed down to", "ChunkStore"),))]
    edges: list[tuple[str, str]] = [("query", "filter")]
    last = "filter"
    if rewriter is not None:
        nodes.append(Node("rewrite", "query variants", (("rewriter", rewriter),)))
        edges.append((last, "rewrite"))
        last = "rewrite"
    nodes.append(Node("bm25", "BM25", (("k1", f"{k1:g}"), ("b", f"{b:g}"))))
    edges.append((last, "bm25"))
    branches = ["bm25"]
    if embedding is not None:
        nodes.append(Node("vector", "vectors", (("model", embedding),)))
        edges.append((last, "vector"))
        branches.append("vector")
    nodes.append(Node("rrf", "RRF", (("k", f"{rrf_k:g}"),)))
    edges += [(br, "rrf") for br in branches]
    last = "rrf"
    if judge is not None:
        nodes.append(Node("rerank", "rerank", (("judge", judge), ("top_n", str(rerank_top_n)),
                                               ("RESTRICTED", "never shown to the judge"))))
        edges.append((last, "rerank"))
        last = "rerank"
    nodes.append(Node("hits", "cited hits"))
    edges.append((last, "hits"))
    return PipelineGraph(tuple(nodes), tuple(edges), title="NarrativeIndex")
