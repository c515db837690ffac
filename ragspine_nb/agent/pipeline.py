"""The answer loop as data: :data:`STEPS`, in order; the first step that answers decides.

Each :class:`Step` has a name, what it decides when it fires (a refusal, an ask-back, an
answer, the narrative, or a reading of the question for the steps after it), one line
saying when, and a small function; the README's table is :func:`catalogue` and the trace's
``step`` names the step that decided. The answers themselves are built in
:mod:`ragspine_nb.agent.answering`.

Anti-fabrication lives here, in control flow: a structured answer is always rebuilt
from the stored fact (model prose is discarded); a miss is an honest refusal; the
planned sub-tasks are executed deterministically when the model does not call the
tool (or calls it for something else); a fact documents state differently is
answered as a conflict (every value with its source, no single number, no change
computed from it); narrative answers keep only sentences whose numbers appear in the
cited snippets and that contradict neither the fact store nor the answer's own
structured line (:mod:`ragspine_nb.agent.narrative.grounding`), and always end with their sources.

What the question asks decides what may be a headline figure
(:mod:`ragspine_nb.agent.reading.question_kind`): a question asking for text (a reason, a
method, a definition, a list of components) goes to the narrative channel and asserts
no figure — the figures it names are shown as context; a which-year / which-item
question names its answer as text with the compared values as inputs; a number question
gets a level, or the operation it asks for computed over cited cells
(:mod:`ragspine_nb.agent.reading.operation_detect`,
:mod:`~ragspine_nb.agent.compute.operation_plan`),
or a refusal listing the inputs found — never one operand, never a cross product of
several rows and periods.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ragspine_nb.agent.answering import (
    change_of_levels,
    faq_answer,
    roles_resolve,
    stated_answer,
    structured,
    text_answer,
)
from ragspine_nb.agent.compute.formula_answer import defined_answer
from ragspine_nb.agent.compute.introduced import qualified_in_prose, read_as_introduced
from ragspine_nb.agent.compute.model_answer import model_read
from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.compute.stated_change import stated_change
from ragspine_nb.agent.compute.stated_share import read_stated_shares
from ragspine_nb.agent.compute.tool_loop import MAX_TOOL_ITERATIONS, STRUCTURED_SYSTEM
from ragspine_nb.agent.faq import FaqCache
from ragspine_nb.agent.narrative.channel import NarrativeRetriever, mentioned_in
from ragspine_nb.agent.providers import LLMProvider
from ragspine_nb.agent.reading.intent import ROUTE_NARRATIVE, IntentParser
from ragspine_nb.agent.reading.operation_detect import detect_operation
from ragspine_nb.agent.reading.question_kind import KIND_LABEL, KIND_TEXT
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.run import Run, start_run
from ragspine_nb.agent.scope.clarify import (
    CLARIFY_ASK_FIRST,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    clarify_scope,
)
from ragspine_nb.agent.scope.company_scope import ask_which_company, workspace_companies
from ragspine_nb.agent.scope.fiscal_dates import Calendars
from ragspine_nb.agent.scope.follow_up import Carried
from ragspine_nb.agent.scope.unknown_entity import ask_unknown_entity
from ragspine_nb.agent.write.two_ask_answer import read_as_figure_ask
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = ["answer_question", "catalogue", "STEPS", "Step", "Turn", "DECISIONS",
           "MAX_TOOL_ITERATIONS", "STRUCTURED_SYSTEM"]


# --------------------------------------------------------------------- the steps
@dataclass
class Turn:
    """One question on its way through :data:`STEPS`: the run, and the operation read."""

    run: Run
    retriever: NarrativeRetriever | None
    top_k: int
    faq: FaqCache | None
    operation: Operation | None = None
    companies_read: dict[str, str] | None = None

    def companies(self) -> dict[str, str]:
        """The companies the workspace's documents name, read once per question."""
        if self.companies_read is None:
            self.companies_read = workspace_companies(self.run.store, self.run.profile)
        return self.companies_read


@dataclass(frozen=True)
class Step:
    """One step of the answer loop: its name, what it decides when it fires, and how.

    ``decides`` is one of :data:`DECISIONS`; a ``reading`` step never finishes the answer:
    it reads the question again (a figure ask, an introduced qualifier, the operation) for
    the steps after it. Every other step returns the answer when its condition holds and
    ``None`` otherwise.
    """

    name: str
    decides: str
    says: str
    apply: Callable[[Turn], AgentResult | None]


#: What a step may decide, in the order the README lists them.
DECISIONS: tuple[str, ...] = ("refusal", "ask back", "answer", "narrative", "reading")


def _out_of_scope(t: Turn) -> AgentResult | None:
    if t.run.clar.mode != CLARIFY_OUT_OF_SCOPE_ENTITY:
        return None
    return t.run.finish(t.run.clar.question, t.run.intent.route)


def _unknown_entity(t: Turn) -> AgentResult | None:
    several = not t.run.intent.entities and len(t.companies()) > 1
    unknown = ask_unknown_entity(t.run.intent, t.run.profile, t.run.clar,
                                 lambda name: mentioned_in(t.retriever, name), not several)
    if unknown is None:
        return None
    t.run.clar = unknown
    return t.run.finish(unknown.question, t.run.intent.route)


def _which_company(t: Turn) -> AgentResult | None:
    which = ask_which_company(t.run.intent, t.run.clar, t.companies())
    if which is None:
        return None
    t.run.clar = which
    return t.run.finish(which.question, t.run.intent.route)


def _faq(t: Turn) -> AgentResult | None:
    intent = t.run.intent
    if t.faq is None or intent.metrics or intent.entities or intent.periods:
        return None
    return faq_answer(t.run, t.faq)


def _defined(t: Turn) -> AgentResult | None:
    return defined_answer(t.run)


def _two_readings(t: Turn) -> AgentResult | None:
    read_as_figure_ask(t.run)  # "what was X, and why did it fall?": the figure, then the why
    read_as_introduced(t.run, t.retriever)  # the qualifier introduces the table?
    return None


def _text_question(t: Turn) -> AgentResult | None:
    run = t.run
    if run.kind.kind == KIND_TEXT and run.intent.route != ROUTE_NARRATIVE or \
            qualified_in_prose(run, t.retriever):
        return text_answer(run, t.retriever, t.top_k)
    return None


def _operation(t: Turn) -> AgentResult | None:
    run = t.run
    operation = detect_operation(run.intent, run.profile, run.kind) if run.intent.metrics \
        else None
    t.operation = operation = read_stated_shares(run, operation)  # stated shares?
    intent = run.intent
    run.trace.record(operation=operation.kind if operation else None)
    if operation is not None and operation.between and len(intent.periods) < 2 \
            and intent.change_cue:  # "the difference between A and B": one period, not two
        run.clar = clarify_scope(replace(intent, change_cue=False), run.ref,
                                 profile=run.profile, reported=run.reported)
    return None


def _unnamed_label(t: Turn) -> AgentResult | None:
    run, operation = t.run, t.operation
    if run.kind.kind == KIND_LABEL and (operation is None or (
            run.clar.mode == CLARIFY_ASK_FIRST and not roles_resolve(run, operation))):
        return text_answer(run, t.retriever, t.top_k)
    return None


def _stated_change(t: Turn) -> AgentResult | None:
    run = t.run
    stated = stated_change(run.intent, run.clar, run.store, run.profile, run.ref, t.operation) \
        if run.clar.mode != CLARIFY_ASK_FIRST or run.intent.metrics else None
    if stated is not None:
        return stated_answer(run, stated)
    if change_of_levels(run.intent, t.operation, run.clar.assumed_periods):
        # no stated change for these years: the change of the levels
        run.intent = replace(run.intent, channel=None, channels=())
    return None


def _ask_first(t: Turn) -> AgentResult | None:
    run = t.run
    if run.clar.mode == CLARIFY_ASK_FIRST and not roles_resolve(run, t.operation):
        return run.finish(run.clar.question, run.intent.route)
    return None


def _narrative_route(t: Turn) -> AgentResult | None:
    if t.run.intent.route == ROUTE_NARRATIVE:
        return text_answer(t.run, t.retriever, t.top_k)
    return None


def _fact_channel(t: Turn) -> AgentResult | None:
    answered = structured(t.run, t.operation, t.retriever, t.top_k)
    # no figure read by any rule: a wired model's reading, verified against the store
    return answered if answered.figures else model_read(t.run, t.operation, answered)


#: The answer loop, in order: the first step that returns an answer decides it.
STEPS: tuple[Step, ...] = (
    Step("out_of_scope_entity", "refusal",
         "a competitor named (the gate read the raw question first): refused before any tool, "
         "retrieval or model", _out_of_scope),
    Step("unknown_entity", "ask back",
         "a company the workspace does not know: asked which, never the home company's figure",
         _unknown_entity),
    Step("which_company", "ask back",
         "several companies' filings and none named: asked which, never one picked",
         _which_company),
    Step("faq", "answer",
         "a curated answer matched exactly (no row, company or period named), unless a stored "
         "fact contradicts it", _faq),
    Step("defined_formula", "answer",
         "a formula the question defines (\"X is defined as A / B\"): computed over stored "
         "cells, or why not", _defined),
    Step("two_asks", "reading",
         "\"what was X, and why did it fall?\" read as the figure then the why; a qualifier "
         "the prose uses to introduce a table read as that table's figure", _two_readings),
    Step("text_question", "narrative",
         "a reason, a method, a definition, a list asked for (or a qualifier only prose "
         "states): the narrative, its figures as context", _text_question),
    Step("operation", "reading",
         "the operation asked (change, average, ratio, share, count…) and the shares tables "
         "state; \"the difference between A and B\" with one period asks which", _operation),
    Step("unnamed_label", "narrative",
         "a which-year / which-item question no operation names: the narrative",
         _unnamed_label),
    Step("stated_change", "answer",
         "a change the report states itself: its own figure, nothing computed (else the "
         "change is computed from the levels)", _stated_change),
    Step("ask_first", "ask back",
         "a row, column, company or period the question leaves open and the store cannot "
         "settle: asked back with the options", _ask_first),
    Step("narrative_route", "narrative", "a question for prose: the narrative channel",
         _narrative_route),
    Step("fact_channel", "answer",
         "the cells named, or the operation computed over cited cells with its derivation; a "
         "missing cell, an operation not read or rows × periods: an honest refusal, unless a "
         "wired model proposes a formula over stored cells that the store verifies",
         _fact_channel),
)


def catalogue() -> str:
    """The steps as the README lists them: number, name, what each decides and when.

    >>> print(catalogue().splitlines()[0])
    | # | step | decides | when |
    """
    rows = ["| # | step | decides | when |", "|---|---|---|---|"]
    rows += [f"| {i} | `{s.name}` | {s.decides} | {s.says} |" for i, s in enumerate(STEPS, 1)]
    return "\n".join(rows)


def answer_question(
    question: str,
    store: FactStore,
    provider: LLMProvider | None = None,
    *,
    reference_date: date | None = None,
    narrative_retriever: NarrativeRetriever | None = None,
    intent_parser: IntentParser | None = None,
    profile: DomainProfile | None = None,
    history: Sequence[tuple[str, str]] | None = None,
    faq: FaqCache | None = None,
    top_k: int = 6,
    follow_up: Carried | None = None,
    calendars: Calendars | None = None,
) -> AgentResult:
    """Answer one question; see the module docstring for the guarantees.

    ``history`` (``(role, text)`` turns) is generation context for narrative synthesis
    only: it is never fed to intent parsing or retrieval. Turns naming a competitor are
    dropped first (the trace counts them); the question is judged on its own text.
    ``follow_up`` (in a conversation, the previous answer's resolved slots) fills the
    slots the question leaves empty, and the answer says so. ``calendars`` (the companies'
    fiscal calendars) is read from the store when not given. The steps of :data:`STEPS`
    run in order; the trace's ``step`` names the one that decided.
    """
    run = start_run(question, store, provider, reference_date, intent_parser, profile, history,
                    follow_up, calendars)
    turn = Turn(run, narrative_retriever, top_k, faq)
    for step in STEPS:
        run.trace.record(step=step.name)
        decided = step.apply(turn)
        if decided is not None:
            return decided
    raise RuntimeError(f"no step answered; the last one ({STEPS[-1].name}) always does")
