"""Answering TAT-QA through the product's own path: files, ingestion, the Agent.

Each context is written as a user's files (``table.csv`` + ``notes.md``,
:func:`~ragspine_nb.eval.tatqa.gold.write_context`) into a fresh temporary folder,
ingested into a fresh workspace with no profile and no metadata, and every question is
asked to :meth:`Agent.from_workspace` with the reference date January 1 after the
table's latest year. Contexts are independent, so a process pool may answer several at
once; results come back in the split's order whatever the number of workers.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine_nb.agent.agent import Agent, AgentResult
from ragspine_nb.errors import RagspineError
from ragspine_nb.eval.tatqa.gold import (
    TABLE_FILE,
    TatqaContext,
    TatqaQuestion,
    gold_of,
    reference_date,
    write_context,
)
from ragspine_nb.eval.tatqa.score import Verdict, classify
from ragspine_nb.eval.tatqa.subsets import CellCheck, check_cells, subset_of
from ragspine_nb.ingestion.workspace import ingest

__all__ = ["Outcome", "ContextRun", "answer_context", "run_contexts", "abstain_kind",
           "agent_for", "outcome_of"]


@dataclass(frozen=True)
class Outcome:
    """One question: what was asked, the gold, what the answer asserted, the verdict."""

    context: str
    uid: str
    question: str
    answer_type: str
    answer_from: str
    gold: tuple[str, ...]
    scale: str
    derivation: str
    subset: str
    verdict: Verdict
    figures: tuple[dict[str, Any], ...]
    answer: str
    seconds: float


@dataclass(frozen=True)
class ContextRun:
    """One context: its outcomes, how long ingestion and asking took, what went wrong."""

    uid: str
    outcomes: tuple[Outcome, ...]
    ingest_seconds: float
    ask_seconds: float
    facts: int
    error: str = ""
    #: the subset questions' gold cells against the facts stored at their locators
    cells: tuple[CellCheck, ...] = ()


def abstain_kind(result: AgentResult) -> str:
    """Why an answer asserts no figure: ask-back, refusal, a miss, narrative, or none."""
    mode = result.clarification.mode
    if mode == "ask_first":
        return "ask_back"
    if mode == "out_of_scope_entity":
        return "refusal"
    if result.route == "narrative":
        return "narrative"
    if result.tool_results and not any(t.get("status") == "found" for t in result.tool_results):
        return "not_found"
    return "no_figure"


def agent_for(workspace: Path) -> Agent:
    """The agent of a workspace, built as every user-facing entry point builds it."""
    return Agent.from_workspace(workspace)


def outcome_of(ctx: TatqaContext, q: TatqaQuestion, result: AgentResult | None,
               seconds: float) -> Outcome:
    """One question scored from an answer (``None``: nothing was answered)."""
    gold = gold_of(q)
    if result is None:  # the context could not be ingested: nothing was answered
        verdict = classify(gold, (), "", "no_figure")
        figures: tuple[dict[str, Any], ...] = ()
        answer = ""
    else:
        verdict = classify(gold, result.figures, result.answer, abstain_kind(result))
        figures = tuple(f.to_dict() for f in result.figures)
        answer = result.answer
    return Outcome(ctx.uid, q.uid, q.question, q.answer_type, q.answer_from, gold.spans,
                   q.scale, q.derivation, subset_of(ctx, q), verdict, figures, answer,
                   round(seconds, 6))


def answer_context(ctx: TatqaContext) -> ContextRun:
    """Ingest one context as files into a fresh workspace and score every question."""
    ref = reference_date(ctx)
    with tempfile.TemporaryDirectory(prefix="tatqa_") as tmp:
        folder = write_context(ctx, Path(tmp) / "files")
        started = time.perf_counter()
        try:
            report = ingest(folder, workspace=Path(tmp) / "ws", profile=None, metadata=None,
                            progress=False)
            agent = agent_for(Path(tmp) / "ws")
        except RagspineError as exc:  # named, listed in the report; the run goes on
            seconds = time.perf_counter() - started
            return ContextRun(ctx.uid, tuple(outcome_of(ctx, q, None, 0.0) for q in ctx.questions),
                              round(seconds, 6), 0.0, 0,
                              f"{type(exc).__name__}: {exc}".replace(tmp, "<tmp>"))
        ingested = time.perf_counter() - started
        outcomes = []
        try:
            stored = {f.source_locator: f for f in agent.store.iter_facts()
                      if f.source_doc_id == TABLE_FILE}
            cells = check_cells(ctx, ctx.questions, stored)
            for q in ctx.questions:
                t0 = time.perf_counter()
                result = agent.ask(q.question, reference_date=ref)
                outcomes.append(outcome_of(ctx, q, result, time.perf_counter() - t0))
        finally:
            agent.close()
    failed = [f"{f.doc_id}: {f.reason}" for f in report.files if f.status == "failed"]
    return ContextRun(ctx.uid, tuple(outcomes), round(ingested, 6),
                      round(sum(o.seconds for o in outcomes), 6), len(stored),
                      "; ".join(failed), cells)


def run_contexts(contexts: Sequence[TatqaContext], workers: int = 1,
                 answer: Callable[[TatqaContext], ContextRun] = answer_context
                 ) -> Iterator[ContextRun]:
    """Each context's run, in order; ``workers > 1`` answers them in a process pool.

    Raises
    ------
    ValueError
        When ``workers`` is below 1.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if workers == 1 or len(contexts) < 2:
        yield from map(answer, contexts)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        runs: Iterable[ContextRun] = pool.map(answer, contexts, chunksize=1)
        yield from runs
