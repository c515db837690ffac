"""Retrieval evaluation on BEIR-format folders: BM25 vs vectors vs hybrid in one table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.extract.beir import load_beir
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.metrics import evaluate_run, mrr
from ragspine_nb.retrieval.vectors import CachedEmbedder, EmbeddingCache, make_embedding_backend

__all__ = ["evaluate_beir", "ARMS", "BeirReport"]

ARMS: tuple[str, ...] = ("bm25", "vector", "hybrid")


class BeirReport(CardReprMixin, dict[str, dict[str, Any]]):
    """``{arm: {"ndcg@10", "recall@100", "mrr@10", "queries"}}`` as one table, with a plot."""

    def __init__(self, *args: Any, name: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name = name

    def to_frame(self) -> Any:
        """One row per arm."""
        import pandas as pd

        return pd.DataFrame(self).T.rename_axis("arm")

    def plot(self, ax: Any = None) -> Any:
        """nDCG@10, Recall@100 and MRR@10 per arm (matplotlib)."""
        from ragspine_nb.display.plots import bar_chart
        from ragspine_nb.eval._axes import new_axes

        groups = {arm: {k: m[k] for k in ("ndcg@10", "recall@100", "mrr@10")}
                  for arm, m in self.items()}
        return bar_chart(new_axes(ax), groups, title=f"Retrieval: {self.name}")

    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        cols = ("arm", "ndcg@10", "recall@100", "mrr@10", "queries")
        rows = tuple((arm, *(f"{m[k]:.4f}" for k in cols[1:4]), str(m["queries"]))
                     for arm, m in self.items())
        return Card(title="BeirReport", subtitle=self.name, tables=(Table("Arms", cols, rows),))

    def __repr__(self) -> str:
        arms = ", ".join(f"{a}=nDCG@10 {m['ndcg@10']:.4f}" for a, m in self.items())
        return f"BeirReport({self.name!r}: {arms})"



def evaluate_beir(folder: str | Path, arms: list[str], *, embedding: str = "e5",
                  sample: int = 0, cache: str | Path | None = None,
                  max_chars: int = 512) -> BeirReport:
    """``{arm: {"ndcg@10", "recall@100", "mrr@10", "queries"}}`` for the chosen arms."""
    bad = sorted(set(arms) - set(ARMS))
    if bad or not arms:
        raise ValueError(f"unknown arm(s) {bad}. Valid arms: {list(ARMS)}")
    ds = load_beir(folder)
    qids = list(ds.queries)[:sample] if sample else list(ds.queries)
    qrels = {q: ds.qrels[q] for q in qids}
    ids, texts = ds.doc_texts()
    runs: dict[str, dict[str, list[str]]] = {}
    if {"bm25", "hybrid"} & set(arms):
        bm = BM25Index.build(ids, texts)
        runs["bm25"] = {q: [d for d, _ in r] for q, r in
                        zip(qids, bm.search_many([ds.queries[q] for q in qids], 100),
                            strict=True)}
    if {"vector", "hybrid"} & set(arms):
        backend = make_embedding_backend(embedding)
        if backend is None:
            raise ValueError("vector arms need an embedding backend (e.g. --embedding e5)")
        emb = CachedEmbedder(backend, EmbeddingCache(cache or Path("bench/.cache/e5.db")))
        sims = emb.queries([ds.queries[q] for q in qids]) @ emb.passages(
            [t[:max_chars] for t in texts], progress=True).T
        runs["vector"] = {q: [ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
                          for i, q in enumerate(qids)}
    if "hybrid" in arms:
        runs["hybrid"] = {q: [d for d, _ in rrf_fuse([runs["bm25"][q], runs["vector"][q]])][:100]
                          for q in qids}
    out = BeirReport(name=Path(folder).name)
    for arm in arms:
        s = evaluate_run(runs[arm], qrels)
        out[arm] = {"ndcg@10": s.ndcg, "recall@100": s.recall,
                    "mrr@10": sum(mrr(runs[arm].get(q, []), qrels[q], 10) for q in qids)
                    / max(len(qids), 1), "queries": len(qids)}
    return out
