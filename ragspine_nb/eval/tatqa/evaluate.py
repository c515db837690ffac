"""TAT-QA, every question, through the product's own path, scored from what answers assert.

Each context becomes a user's files (``table.csv`` + ``notes.md``), ingested into a fresh
workspace with no profile and no metadata; the Agent built from that workspace answers
every question (:mod:`ragspine_nb.eval.tatqa.run`), and each answer is scored from its
headline figures (:mod:`ragspine_nb.eval.tatqa.score`): correct, wrong number (scale,
operand, false figure), partial, abstained, figure on a text question, text found or
not. Rates are over **all** questions, with breakdowns by ``answer_type`` and
``answer_from``; the earlier single-cell and difference subsets are scored the same way
as secondary figures, and text-span questions also get paragraph recall (BM25 over all
the split's paragraphs; hybrid with an embedding backend).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ragspine_nb.eval.tatqa.gold import TatqaContext, load_split
from ragspine_nb.eval.tatqa.report import TARGETS, TatqaReport
from ragspine_nb.eval.tatqa.run import ContextRun, Outcome, run_contexts
from ragspine_nb.eval.tatqa.score import ABSTAIN_KINDS, CATEGORIES, WRONG_KINDS
from ragspine_nb.eval.tatqa.subsets import extraction_summary
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse

__all__ = ["evaluate_tatqa", "summarize", "split_half", "HALVES", "TatqaReport", "TARGETS"]

#: The categories an answer is "answered" in (it asserts a number) for the subsets.
_ANSWERED = ("correct", "wrong_number", "partial")


def _rate(n: int, total: int) -> float:
    return round(n / total, 6) if total else 0.0


def _counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    cats = [o.verdict.category for o in outcomes]
    return {"questions": len(outcomes), **{c: cats.count(c) for c in CATEGORIES}}


def _by(outcomes: Sequence[Outcome], field: str) -> dict[str, dict[str, int]]:
    keys = sorted({getattr(o, field) for o in outcomes})
    return {k: _counts([o for o in outcomes if getattr(o, field) == k]) for k in keys}


def _subset(outcomes: Sequence[Outcome], name: str) -> dict[str, Any]:
    """The earlier subset's precision (correct / answered) and coverage (answered / asked)."""
    mine = [o for o in outcomes if o.subset == name]
    answered = sum(o.verdict.category in _ANSWERED for o in mine)
    correct = sum(o.verdict.category == "correct" for o in mine)
    return {"asked": len(mine), "answered": answered, "correct": correct,
            "precision": _rate(correct, answered) if answered else 1.0,
            "coverage": _rate(answered, len(mine))}


def _wrong(o: Outcome) -> dict[str, Any]:
    return {"context": o.context, "uid": o.uid, "question": o.question, "gold": list(o.gold),
            "scale": o.scale, "derivation": o.derivation, "answer_type": o.answer_type,
            "answer_from": o.answer_from, "category": o.verdict.category,
            "kind": o.verdict.kind, "figures": list(o.figures)}


def summarize(runs: Iterable[ContextRun], split: str = "", workers: int = 1,
              wall_s: float = 0.0) -> TatqaReport:
    """The report of finished context runs (pure: no agent, no files)."""
    runs = list(runs)
    outcomes = [o for r in runs for o in r.outcomes]
    counts = _counts(outcomes)
    n = len(outcomes)
    numeric_abstained = [o.verdict.kind for o in outcomes if o.verdict.category == "abstained"]
    wrong_kinds = [o.verdict.kind for o in outcomes if o.verdict.category == "wrong_number"]
    stated_wrong = counts["wrong_number"] + counts["figure_on_text"]
    ingest_s = sum(r.ingest_seconds for r in runs)
    ask_s = sum(r.ask_seconds for r in runs)
    return TatqaReport({
        "split": split, "contexts": len(runs), "questions": n,
        "categories": {c: counts[c] for c in CATEGORIES},
        "rates": {c: _rate(counts[c], n) for c in CATEGORIES},
        "targets": {c: {"comparison": cmp, "rate": v} for c, (cmp, v) in TARGETS.items()},
        "wrong_kinds": {k: wrong_kinds.count(k) for k in WRONG_KINDS},
        "abstain_kinds": {k: numeric_abstained.count(k) for k in ABSTAIN_KINDS},
        "sign_flipped": sum(o.verdict.sign_flipped for o in outcomes),
        "stated_wrong": {"count": stated_wrong, "rate": _rate(stated_wrong, n)},
        "by_answer_type": _by(outcomes, "answer_type"),
        "by_answer_from": _by(outcomes, "answer_from"),
        "subsets": {s: _subset(outcomes, s) for s in ("single_cell", "difference")},
        "extraction": extraction_summary(c for r in runs for c in r.cells),
        "ingest_errors": {r.uid: r.error for r in runs if r.error},
        "timings": {"workers": workers, "wall_s": round(wall_s, 3),
                    "ingest_s": round(ingest_s, 3), "ask_s": round(ask_s, 3),
                    "ms_per_question": round(1e3 * ask_s / n, 3) if n else 0.0,
                    "ms_per_context_ingest": round(1e3 * ingest_s / len(runs), 3)
                    if runs else 0.0},
        "wrong": [_wrong(o) for o in outcomes
                  if o.verdict.category in ("wrong_number", "figure_on_text")],
    })


#: Halves of a split by context position: rules are developed looking at ``tune`` only and
#: checked on ``check`` (a rule that helps one half and not the other is tuned to the data).
HALVES: tuple[str, ...] = ("all", "tune", "check")


def split_half(contexts: Sequence[TatqaContext], half: str) -> list[TatqaContext]:
    """The contexts of one half: ``tune`` even positions, ``check`` odd, ``all`` every one."""
    if half not in HALVES:
        raise ValueError(f"unknown half {half!r}; valid: {list(HALVES)}")
    if half == "all":
        return list(contexts)
    return [c for i, c in enumerate(contexts) if i % 2 == (0 if half == "tune" else 1)]


def evaluate_tatqa(path: str | Path, *, limit: int = 0, workers: int = 1,
                   embedding_backend: Any = None, half: str = "all") -> TatqaReport:
    """Every question of a TAT-QA split through ingestion and the Agent, scored.

    Parameters
    ----------
    path : str or Path
        A TAT-QA split file (e.g. ``tatqa_dataset_dev.json``).
    limit : int, default 0
        Only the first ``limit`` contexts (0: all).
    workers : int, default 1
        Processes answering contexts at once; the figures do not depend on it (only
        the timings do).
    embedding_backend : EmbeddingBackend, optional
        Adds dense and hybrid arms to the text-span paragraph recall.
    half : {"all", "tune", "check"}, default "all"
        Score one half of the contexts (:func:`split_half`), after ``limit``.

    Returns
    -------
    TatqaReport
    """
    contexts = split_half(load_split(path)[: limit or None], half)
    started = time.perf_counter()
    runs = list(run_contexts(contexts, workers))
    report = summarize(runs, Path(path).name, workers, time.perf_counter() - started)
    report["text_span"] = text_span_recall(contexts, embedding_backend)
    return report


def text_span_recall(contexts: Sequence[TatqaContext], backend: Any = None) -> dict[str, Any]:
    """Recall@1/3/10 of the gold paragraph for text-span questions.

    Retrieval runs over every paragraph of the split (BM25; with ``backend`` also dense
    and hybrid arms, reported per arm).
    """
    ids = [f"{c.uid}#p{i}" for c in contexts for i in range(1, len(c.paragraphs) + 1)]
    texts = [p for c in contexts for p in c.paragraphs]
    asked = [(c.uid, q) for c in contexts for q in c.questions
             if q.answer_from == "text" and q.answer_type == "span" and q.rel_paragraphs]
    gold = [{f"{uid}#p{p}" for p in q.rel_paragraphs} for uid, q in asked]
    queries = [q.question for _, q in asked]
    runs = [[d for d, _ in r] for r in BM25Index.build(ids, texts).search_many(queries, 100)]
    out: dict[str, Any] = {"asked": len(asked)}
    if backend is not None:
        import numpy as np

        from ragspine_nb.retrieval.vectors import CachedEmbedder

        emb = backend if isinstance(backend, CachedEmbedder) else CachedEmbedder(backend)
        sims = emb.queries(queries) @ emb.passages(texts).T
        dense = [[ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
                 for i in range(len(queries))]
        out["bm25"], out["dense"] = _recall(runs, gold), _recall(dense, gold)
        runs = [[d for d, _ in rrf_fuse([b, v])] for b, v in zip(runs, dense, strict=True)]
        out["hybrid"] = _recall(runs, gold)
    out.update(_recall(runs, gold))
    return out


def _recall(runs: list[list[str]], gold: list[set[str]]) -> dict[str, float]:
    n = max(len(gold), 1)
    return {f"recall@{k}": round(sum(bool(set(r[:k]) & g)
                                     for r, g in zip(runs, gold, strict=True)) / n, 6)
            for k in (1, 3, 10)}
