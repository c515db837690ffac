"""Evidence validation with a gap loop: retrieve, judge, refine with what is missing, retry.

One round = plan the query (2–5 variants), search every variant, fuse with RRF
(deduplicated by chunk id), then score each candidate not yet kept on a 0–1 scale —
against the question in the first round, against the missing aspect in refinement
rounds — and keep those at or above the threshold (default 0.3). The evidence
suffices when something was kept and the kept passages cover at least ``min_coverage``
(default 0.75) of the question's key terms; the uncovered terms are the missing
aspect. Otherwise the query is refined with the missing terms and the next round runs —
at most ``max_loops`` extra rounds (default 2). It stops on sufficient evidence,
on a round that adds no new evidence, or at the limit; the report says which.

Judges: a :class:`~ragspine_nb.retrieval.rerank.ScoringJudge` (the offline
cross-encoder; raw logits are squashed with a sigmoid), a provider listwise judge
(relevance from its order), or — the offline default — :class:`TermCoverageJudge`,
the share of the question's key terms a passage contains. RESTRICTED chunks are never
judged or used as evidence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import Card, Table
from ragspine_nb.retrieval.coverage import TermCoverageJudge, key_terms, passage_tokens
from ragspine_nb.retrieval.planning import QueryPlan, QueryPlanner, QueryVariant, RuleQueryPlanner
from ragspine_nb.retrieval.rerank import judge_reads
from ragspine_nb.retrieval.results import Hit, SearchResults

__all__ = [
    "TermCoverageJudge",
    "EvidenceReport",
    "gather_evidence",
    "key_terms",
    "relevance_scores",
    "DEFAULT_THRESHOLD",
    "DEFAULT_MAX_LOOPS",
    "STOP_REASONS",
]

DEFAULT_THRESHOLD = 0.3
DEFAULT_MAX_LOOPS = 2
DEFAULT_MIN_COVERAGE = 0.75
STOP_REASONS = ("sufficient", "no_new_evidence", "loop_limit", "no_candidates")


def relevance_scores(judge: Any, question: str, texts: list[str]) -> list[float]:
    """Scores in [0, 1] from any judge.

    0–1 scores are kept as given, other scores go through a sigmoid (cross-encoder
    logits), and a listwise order becomes ``1 - position / n``.
    """
    if not texts:
        return []
    if hasattr(judge, "score"):
        raw = [float(x) for x in judge.score(question, texts)]
        if all(0.0 <= x <= 1.0 for x in raw):
            return raw
        return [1.0 / (1.0 + math.exp(-x)) for x in raw]
    order = list(judge.judge(question, texts))
    n = len(texts)
    scores = [0.0] * n
    for pos, i in enumerate(order):
        if 0 <= i < n:
            scores[i] = 1.0 - pos / n
    return scores


@dataclass(frozen=True)
class EvidenceReport(CardReprMixin):
    """What the gap loop did: plans per round, candidates, evidence kept, why it stopped."""

    question: str
    plans: tuple[QueryPlan, ...]
    evidence: tuple[Hit, ...]
    relevance: dict[str, float]
    candidates_found: int
    missing: tuple[str, ...]
    stop_reason: str
    threshold: float
    judge: str
    rounds: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    @property
    def retrieval_loops(self) -> int:
        """Rounds run (1 = no refinement was needed or possible)."""
        return len(self.plans)

    @property
    def queries_generated(self) -> int:
        """Distinct query strings searched over all rounds."""
        return len({t for p in self.plans for t in p.texts})

    @property
    def evidence_used(self) -> int:
        """Passages kept as evidence."""
        return len(self.evidence)

    @property
    def sufficient(self) -> bool:
        """Whether the loop stopped on sufficient evidence."""
        return self.stop_reason == "sufficient"

    def to_dict(self) -> dict[str, Any]:
        """The retrieval metadata of a trace or a service response."""
        return {"queries_generated": self.queries_generated,
                "candidates_found": self.candidates_found,
                "evidence_used": self.evidence_used,
                "retrieval_loops": self.retrieval_loops,
                "stop_reason": self.stop_reason, "missing": list(self.missing),
                "threshold": self.threshold, "judge": self.judge,
                "plans": [p.to_dict() for p in self.plans], "rounds": list(self.rounds)}

    def __repr__(self) -> str:
        return (f"EvidenceReport(loops={self.retrieval_loops}, queries={self.queries_generated},"
                f" candidates={self.candidates_found}, evidence={self.evidence_used}, "
                f"stop={self.stop_reason!r})")

    def _display_card(self) -> Card:
        plan_rows = tuple((str(i), v.kind, v.text) for i, p in enumerate(self.plans, start=1)
                          for v in p.variants)
        ev_rows = tuple((h.chunk.doc_id, h.chunk.source_locator,
                         f"{self.relevance.get(h.chunk.chunk_id, 0.0):.2f}",
                         h.display_text[:160]) for h in self.evidence)
        return Card(
            title="EvidenceReport", subtitle=self.question,
            stats=(("loops", str(self.retrieval_loops)),
                   ("queries", str(self.queries_generated)),
                   ("candidates", str(self.candidates_found)),
                   ("evidence", str(self.evidence_used)), ("stop", self.stop_reason),
                   ("judge", self.judge), ("threshold", f"{self.threshold:g}")),
            tables=(Table("Query plan per round", ("round", "kind", "query"), plan_rows),
                    Table("Evidence (RESTRICTED never used)",
                          ("doc", "locator", "relevance", "text"), ev_rows)),
            notes=(f"missing terms: {', '.join(self.missing)}",) if self.missing else ())


def _refined(plan: QueryPlan, missing: Sequence[str]) -> QueryPlan:
    """The next round's plan: the question with the missing aspect, plus the old variants."""
    refined = f"{plan.question} {' '.join(missing)}"
    variants = [plan.variants[0], QueryVariant(refined, "refined"),
                QueryVariant(" ".join(missing), "refined")]
    return QueryPlan(plan.question, tuple(variants))


def _check_loop_args(threshold: float, max_loops: int) -> None:
    """Reject a threshold outside [0, 1] or a negative loop limit."""
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be in [0, 1], got {threshold}")
    if max_loops < 0:
        raise ValueError(f"max_loops must be >= 0, got {max_loops}")


def _resolve_judge(index: Any, judge: Any, question: str) -> Any:
    """The judge given, else the index's scoring judge if it reads the question, else terms.

    The offline cross-encoder reads English questions only; term coverage reads any.
    """
    if judge is None:
        own = getattr(index, "judge", None)
        fits = hasattr(own, "score") and judge_reads(own, question)
        judge = own if fits else TermCoverageJudge()
    return judge


@dataclass(frozen=True)
class _LoopSettings:
    """The fixed inputs of every round of one gap loop."""

    question: str
    terms: tuple[str, ...]
    judge: Any
    judge_name: str
    threshold: float
    max_loops: int
    top_k: int
    candidate_k: int
    filters: Mapping[str, Any] | None
    rerank: bool
    min_coverage: float


@dataclass(frozen=True)
class _Kept:
    """One passage kept as evidence: its relevance, round and position among the new."""

    hit: Hit
    relevance: float
    round_no: int
    position: int


@dataclass(frozen=True)
class _LoopState:
    """What the loop knows after some rounds (never modified: each round makes a new one)."""

    kept: Mapping[str, _Kept]
    seen: frozenset[str]
    covered: frozenset[str]
    missing: tuple[str, ...]


@dataclass(frozen=True)
class _Round:
    """One judged round: its plan and results, what it added, and the state after it."""

    round_no: int
    plan: QueryPlan
    results: SearchResults
    new: int
    added: int
    coverage: float
    state: _LoopState

    def summary(self) -> dict[str, Any]:
        """The report's row for this round."""
        return {"round": self.round_no + 1, "hits": len(self.results.hits), "new": self.new,
                "kept": self.added, "coverage": round(self.coverage, 3),
                "missing": list(self.state.missing)}


def _judge_new(settings: _LoopSettings, results: SearchResults, state: _LoopState,
               round_no: int) -> tuple[list[Hit], list[_Kept]]:
    """The round's candidates not yet kept (never RESTRICTED) and those at the threshold."""
    new = [h for h in results.hits if h.chunk.chunk_id not in state.kept and not h.restricted]
    # round 1 is judged against the question, later rounds against the missing aspect
    aspect = settings.question if round_no == 0 else " ".join(state.missing)
    scores = relevance_scores(settings.judge, aspect, [h.read for h in new])
    added = [_Kept(h, s, round_no, pos)
             for pos, (h, s) in enumerate(zip(new, scores, strict=True))
             if s >= settings.threshold]
    return new, added


def _run_round(index: Any, settings: _LoopSettings, plan: QueryPlan, state: _LoopState,
               round_no: int) -> _Round:
    """Search every variant of ``plan``, judge the new candidates, and advance the state."""
    results = index.search(settings.question, top_k=settings.candidate_k,
                           filters=dict(settings.filters or {}), variants=plan.texts,
                           rerank=settings.rerank)
    new, added = _judge_new(settings, results, state, round_no)
    covered = state.covered.union(*(passage_tokens(k.hit.read) for k in added))
    missing = tuple(t for t in settings.terms if t not in covered)
    terms = settings.terms
    coverage = 1.0 - len(missing) / len(terms) if terms else 1.0
    after = _LoopState(kept={**state.kept, **{k.hit.chunk.chunk_id: k for k in added}},
                       seen=state.seen | {h.chunk.chunk_id for h in results.hits},
                       covered=covered, missing=missing)
    return _Round(round_no, plan, results, len(new), len(added), coverage, after)


def _stop_reason(settings: _LoopSettings, rnd: _Round) -> str | None:
    """Why the loop stops after this round (see :data:`STOP_REASONS`), or ``None`` to go on."""
    if not rnd.results.hits and rnd.round_no == 0:
        return "no_candidates"
    if rnd.state.kept and rnd.coverage >= settings.min_coverage:
        return "sufficient"
    if rnd.round_no > 0 and rnd.added == 0:
        return "no_new_evidence"
    if rnd.round_no == settings.max_loops:
        return "loop_limit"
    return None


def _gap_loop(index: Any, settings: _LoopSettings, plan: QueryPlan
              ) -> tuple[tuple[_Round, ...], str]:
    """Every round run, in order, and why the loop stopped."""
    first = plan
    state = _LoopState(kept={}, seen=frozenset(), covered=frozenset(), missing=settings.terms)
    rounds: list[_Round] = []
    for round_no in range(settings.max_loops + 1):
        rnd = _run_round(index, settings, plan, state, round_no)
        rounds.append(rnd)
        stop = _stop_reason(settings, rnd)
        if stop is not None:
            return tuple(rounds), stop
        state = rnd.state
        plan = _refined(first, state.missing or settings.terms)
    raise RuntimeError("no retrieval round ran")  # pragma: no cover - the last round stops


def _evidence_report(settings: _LoopSettings, rounds: Sequence[_Round],
                     stop: str) -> EvidenceReport:
    """The report of a finished loop; the evidence keeps retrieval order, cut to ``top_k``."""
    final = rounds[-1].state
    # retrieval order is kept (the judge filters, it does not re-sort): the first round's
    # passages in their fused (or reranked) order, then each refinement round's
    ranked = sorted(final.kept.values(), key=lambda k: (k.round_no, k.position))
    ranked = ranked[:settings.top_k]
    return EvidenceReport(
        question=settings.question, plans=tuple(r.plan for r in rounds),
        evidence=tuple(k.hit for k in ranked),
        relevance={k.hit.chunk.chunk_id: round(k.relevance, 4) for k in ranked},
        candidates_found=len(final.seen), missing=final.missing, stop_reason=stop,
        threshold=settings.threshold, judge=settings.judge_name,
        rounds=tuple(r.summary() for r in rounds))


def gather_evidence(
    index: Any, question: str, *, planner: QueryPlanner | None = None, judge: Any = None,
    threshold: float = DEFAULT_THRESHOLD, max_loops: int = DEFAULT_MAX_LOOPS, top_k: int = 10,
    candidate_k: int = 30, filters: Mapping[str, Any] | None = None, rerank: bool = False,
    min_coverage: float = DEFAULT_MIN_COVERAGE, plan: QueryPlan | None = None,
) -> tuple[SearchResults, EvidenceReport]:
    """Retrieve with query planning and the evidence gap loop (see the module docstring).

    Parameters
    ----------
    index : NarrativeIndex
        Anything with ``search(query, top_k=, filters=, variants=)``.
    question : str
        The user's question (what relevance is judged against).
    planner : QueryPlanner, optional
        Default :class:`RuleQueryPlanner` with the index's profile.
    judge : ScoringJudge or ListwiseJudge, optional
        Default :class:`TermCoverageJudge` (offline).
    threshold : float, default 0.3
        Minimum relevance (0–1) for a passage to count as evidence.
    max_loops : int, default 2
        Extra refinement rounds allowed after the first.
    top_k, candidate_k : int
        Evidence passages kept at most; candidates fetched per round.
    filters : mapping, optional
        Metadata pre-filter passed to every search.
    rerank : bool, default False
        Rerank each round's fused candidates with the index's judge before validation.
    min_coverage : float, default 0.75
        Share of the question's key terms the evidence must contain to suffice.
    plan : QueryPlan, optional
        The question's plan when the caller made it already (a retry without filters
        reuses it); ``planner`` is then not asked. Its question must be ``question``.

    Returns
    -------
    (SearchResults, EvidenceReport)
        The last round's search results and the report; ``report.evidence`` holds the
        passages to answer from (best first), never a RESTRICTED one.
    """
    _check_loop_args(threshold, max_loops)
    if plan is not None and plan.question != question:
        raise ValueError(f"plan is for {plan.question!r}, not for {question!r}")
    judge = _resolve_judge(index, judge, question)
    judge_name = str(getattr(judge, "name", type(judge).__name__))
    if plan is None:
        planner = planner or RuleQueryPlanner(getattr(index, "profile", None))
        plan = planner.plan(question)
    settings = _LoopSettings(
        question=question, terms=tuple(key_terms(question)), judge=judge,
        judge_name=judge_name, threshold=threshold, max_loops=max_loops, top_k=top_k,
        candidate_k=candidate_k, filters=filters, rerank=rerank, min_coverage=min_coverage)
    rounds, stop = _gap_loop(index, settings, plan)
    return rounds[-1].results, _evidence_report(settings, rounds, stop)
