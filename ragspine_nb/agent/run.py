"""One question on its way through the answer loop: what was read, and how it finishes.

:func:`start_run` checks the input, screens the history, reads the question apart from
the instructions written around it (:mod:`ragspine_nb.agent.reading.instructions` — only when
the security gate finds nothing in the *whole* question, so an instruction naming a
competitor still refuses), parses the intent and clarifies its scope. :class:`Run`
carries that state through :mod:`ragspine_nb.agent.pipeline` and builds the result.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from ragspine_nb.agent.compute.operation_plan import PlanContext
from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.compute.plan_cells import every_year, reported_year
from ragspine_nb.agent.gate.security_gate import SecurityGate
from ragspine_nb.agent.narrative.grounding import Grounder, GroundingContext, question_context
from ragspine_nb.agent.providers import LLMProvider, MockProvider
from ragspine_nb.agent.reading.asked_scale import asked_scale
from ragspine_nb.agent.reading.instructions import Instructions, read_instructions
from ragspine_nb.agent.reading.intent import (
    ROUTE_NARRATIVE,
    ROUTE_STRUCTURED,
    IntentParser,
    ParsedIntent,
    RuleIntentParser,
)
from ragspine_nb.agent.reading.question_kind import KIND_NUMBER, QuestionKind, question_kind
from ragspine_nb.agent.reading.spelling import Respelt, doubt_question, respelt_note
from ragspine_nb.agent.reading.two_asks import TwoAsks
from ragspine_nb.agent.reading.unstated import unstated_rate
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.scope.alike_rows import alike_note, alike_rows
from ragspine_nb.agent.scope.clarify import (
    CLARIFY_ASK_FIRST,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ClarificationResult,
    clarify_scope,
)
from ragspine_nb.agent.scope.compared_entities import Compared, compared_entities, compared_note
from ragspine_nb.agent.scope.fiscal_dates import Calendars, calendars_of, in_fiscal_calendar
from ragspine_nb.agent.scope.follow_up import Carried, carried_slots, carried_text, carry_over
from ragspine_nb.agent.scope.row_qualifier import offered_instead
from ragspine_nb.agent.scope.stored_readings import (
    Narrowed,
    narrow_to_periods,
    narrow_to_store,
    profile_reading,
    serves_column,
    share_not_column,
    unserved_row,
)
from ragspine_nb.agent.scope.wider_names import beside_totals, variants_stated
from ragspine_nb.agent.trace import Trace
from ragspine_nb.agent.write.render import citations
from ragspine_nb.agent.write.restate import with_restated
from ragspine_nb.agent.write.templates import STATEMENT_NAMES, TEXT, with_note
from ragspine_nb.core import NarrativeOutcome, ToolOutcome
from ragspine_nb.errors import ProfileError
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = ["Run", "start_run", "NO_TOOLS"]

#: No lookups: what an answer without the fact channel hands :meth:`Run.finish`.
NO_TOOLS = ToolOutcome()


@dataclass
class Run:
    """One question on its way through the loop: what was read, and how to finish."""

    question: str
    store: FactStore
    provider: LLMProvider
    profile: DomainProfile
    ref: date
    intent: ParsedIntent
    clar: ClarificationResult
    history: Sequence[tuple[str, str]]
    trace: Trace
    grounder: Grounder
    context: GroundingContext
    parser: IntentParser
    kind: QuestionKind
    started: float = field(default_factory=time.perf_counter)
    #: the instructions read apart from the question (none: the question as written)
    read: Instructions | None = None
    #: the previous answer's slots this follow-up question was completed with
    carried: Carried = field(default_factory=Carried)
    #: the latest fiscal year the rows asked about are reported for, when it is before
    #: the latest complete one (a question naming no period is about it)
    reported: int | None = None
    #: a question asking for a figure and why it moved, read as its figure ask
    #: (:mod:`ragspine_nb.agent.reading.two_asks`)
    asks: TwoAsks | None = None

    @property
    def lang(self) -> str:
        """The question's language (answers are written in it)."""
        return self.intent.language

    def finish(self, answer: str, route: str, *, sources: Sequence[Mapping[str, str]] = (),
               tool: ToolOutcome = NO_TOOLS, narrative: NarrativeOutcome | None = None,
               plain: str | None = None) -> AgentResult:
        """The result: the answer with its sources, citations and timing.

        Parameters
        ----------
        answer, route
            The answer's text (the read-apart note is put first) and the route taken.
        sources
            Every source the answer cites (document and locator).
        tool
            The fact channel's lookups, the SQL that read them and the figures asserted.
        narrative
            The narrative channel's outcome, when it ran: its cited passages, query plan
            and dropped sentences.
        plain
            The answer without decoration (a curated FAQ answer); cited as the excerpt.
        """
        tool_results = tool.tool_results()
        refs = [{"doc": s["doc"], "locator": s["locator"]} for s in sources]
        cites = citations(narrative.passages if narrative else (), tool_results, refs, plain)
        self.trace.record(latency_ms=round((time.perf_counter() - self.started) * 1e3, 3),
                          n_sources=len(refs))
        answer = self.read_note() + with_restated(answer, tool.figures,
                                                  asked_scale(self.question), self.lang)
        return AgentResult(
            self.question, answer, route, self.clar, tool_results=tool_results, sources=refs,
            trace=self.trace.to_dict(), answer_plain=answer if plain is None else plain,
            language=self.lang, sql=list(tool.sql),
            retrieval=dict(narrative.retrieval) if narrative else {},
            citations=[c.to_dict() for c in cites],
            dropped=[d.to_dict() for d in narrative.dropped] if narrative else [],
            figures=tool.figures, slots=self.resolved_slots(), source_store=self.store)

    def resolved_slots(self) -> dict[str, Any]:
        """The slots this answer resolved, for a follow-up question (codes only)."""
        slots = carried_slots(self.intent, self.clar.mode)
        return slots.to_dict() if slots else {}

    @property
    def search_text(self) -> str:
        """What the narrative channel searches: the question, with the slots carried over.

        The instructions read apart from it are not searched for ("If gross margins are
        not a relevant metric …, explain why" names nothing the answer is in). "Why did
        it change?" after a Hong Kong revenue question searches for the labels of what
        it is about (profile labels of the carried codes, never earlier text).
        """
        asked = self.read.asked if self.read is not None else self.question
        if not self.carried:
            return asked
        return f"{asked} ({carried_text(self.carried, self.profile)})"

    def read_note(self) -> str:
        """Says what was read as the question: instructions apart, slots carried over."""
        carried = TEXT["follow_up"][self.lang].format(
            slots=carried_text(self.carried, self.profile)) if self.carried else ""
        return carried + self._instructions_note()

    def _instructions_note(self) -> str:
        if self.read is None or not (self.read.notes or self.read.definitions):
            return ""  # a greeting or thanks alone is not said
        kinds = ", ".join(STATEMENT_NAMES[self.lang].get(k, k) for k in self.read.statements)
        return TEXT["read_apart"][self.lang].format(
            asked=self.read.asked, n=len(self.read.notes) + len(self.read.definitions),
            kinds=(f", naming {kinds}" if self.lang == "en" else f"，提及{kinds}") if kinds
            else "")

    def reclarify(self, note: str, operation: Operation | None = None) -> None:
        """Decide again at the gateway for a question re-read; ``note`` comes first in its note.

        A question read anew (the shares the tables state, a qualifier introducing the
        table) is clarified as read, and the answer first says how it was read.
        """
        clar = clarify_scope(self.intent, self.ref, profile=self.profile, operation=operation,
                             reported=self.reported)
        self.clar = replace(clar, assumption_note=with_note(note, clar.assumption_note,
                                                            self.lang))

    def plan_context(self) -> PlanContext:
        """What operation planning reads (parts of the question parsed by our parser)."""
        return PlanContext(self.intent, self.clar, self.profile, self.store, self._part)

    def _part(self, text: str) -> ParsedIntent:
        """A part of the question (a ratio's side) read as the whole question is.

        Its readings are narrowed to what the companies it names — else the question's —
        have stored (:func:`narrow_to_store`): in a folder of several companies' filings
        "research and development expenses" is also another company's line item, which
        left Adobe's side of a ratio two rows ("could not be identified"); two rows of the
        company stating the same figures are one (:func:`alike_rows`).
        """
        part = self.parser.parse(text, self.ref)
        whose = part.entities or self.intent.entities
        if not whose:  # a note's "Current liabilities" beside the balance sheet's total
            return beside_totals(part, self.store, self.profile)
        narrowed, _ = narrow_to_store(replace(part, entities=whose), self.store, self.profile)
        narrowed = beside_totals(narrowed, self.store, self.profile)
        alike = alike_rows(narrowed, self.store, self.profile)  # one row stated twice
        if alike:
            narrowed = replace(narrowed, metrics=alike[:1], metric=alike[0])
        return replace(narrowed, entities=part.entities)


def _read_against_store(intent: ParsedIntent, store: FactStore, profile: DomainProfile,
                        kind: QuestionKind, calendars: Calendars | None = None
                        ) -> tuple[ParsedIntent, Narrowed, tuple[int, ...], tuple[str, ...]]:
    """The readings the store settles, and what was narrowed, the years read, rows alike.

    Another company's rows are dropped, rows stating the same figures read as one,
    "each fiscal year" read as the years reported.
    """
    intent = in_fiscal_calendar(intent, calendars_of(store) if calendars is None else calendars,
                                profile)  # a date, as the filings read it
    intent, narrowed = narrow_to_store(intent, store, profile)  # readings it has no fact of
    intent = profile_reading(intent, store, profile)  # another company's line item's words
    intent = share_not_column(intent, store, profile)  # a share's word, no column of theirs
    intent = narrow_to_periods(intent, store, profile)  # a row with no figure for the years
    intent = beside_totals(intent, store, profile)  # "Total" and the row's name, elsewhere
    intent = variants_stated(intent, store, profile)  # "Diluted EPS" for "EPS": offered
    intent = _per_unit(intent, profile)  # "revenue per share": no row's total
    intent = offered_instead(intent, profile)  # "tax receivable": a word the row lacks
    alike = alike_rows(intent, store, profile)
    if alike:
        intent = replace(intent, metrics=alike[:1], metric=alike[0])
    years = every_year(intent, store, profile) if kind.kind == KIND_NUMBER else ()
    if years:  # "in each fiscal year": every year the rows report, said
        intent = replace(intent, periods=tuple(("FY", str(y)) for y in years),
                         period=("FY", str(years[0])))
    return intent, narrowed, years, alike


def _per_unit(intent: ParsedIntent, profile: DomainProfile) -> ParsedIntent:
    """A figure asked per unit no row or column read states goes to the text.

    (:func:`unstated_rate`: "revenue per share" is no total of the revenue row.)
    """
    if intent.route != ROUTE_STRUCTURED or not intent.metrics:
        return intent
    names = [n for m in intent.metrics if (spec := profile.metrics.get(m))
             for n in (spec.label, *spec.synonyms, m.replace("_", " "))]
    names += [n for c in intent.channels if (col := profile.channels.get(c))
              for n in (*col.synonyms, c.replace("_", " "))]
    rate = unstated_rate(intent.raw_question, names)
    return replace(intent, route=ROUTE_NARRATIVE, unstated=(*intent.unstated, *rate.split())) \
        if rate else intent


def _as_asked(question: str, parser: IntentParser, gate: SecurityGate
              ) -> tuple[Instructions | None, Respelt]:
    """The question's instructions read apart, and its misspelt words read as known ones.

    The whole question is screened first: an instruction naming a competitor refuses, and
    a question naming one is read as written (the gate reads it so). A misspelt word is
    read as the word it is one letter from ("percentge"), said before the answer.
    """
    named = bool(gate.detect(question)[0])
    found = read_instructions(question)
    read = found if found.split and not named else None
    asked = read.asked if read is not None else question
    spelt = parser.speller.respell(asked) if isinstance(parser, RuleIntentParser) \
        and not named else Respelt(asked)
    return read, spelt


def _said(clar: ClarificationResult, intent: ParsedIntent, profile: DomainProfile,
          compared: Compared, spelt: Respelt, alike: tuple[str, ...]) -> ClarificationResult:
    """The gateway's decision with what the reading took for granted said before it.

    The companies left out of a comparison (and the year taken), the words read as
    others ("percentge"), and rows that state the same figures; a word that may be
    misspelt from several asks which before any figure is read from it.
    """
    lang = intent.language
    if compared.without or compared.assumed:  # the companies left out, the year taken
        clar = replace(clar, assumption_note=with_note(compared_note(
            profile, compared.without, intent.periods, lang, compared.assumed),
            clar.assumption_note, lang))
    if spelt.fixed:
        clar = replace(clar, assumption_note=with_note(respelt_note(spelt.fixed, lang),
                                                       clar.assumption_note, lang))
    asking = clar.mode in (CLARIFY_OUT_OF_SCOPE_ENTITY, CLARIFY_ASK_FIRST)  # said already
    if spelt.doubtful and intent.route != ROUTE_NARRATIVE and not asking:
        # "chage": change or charge? no figure is read from a word that may be either
        clar = ClarificationResult(CLARIFY_ASK_FIRST, question=doubt_question(
            spelt.doubtful, lang))
    if alike:  # rows that state the same figures: the first answered, said first
        clar = replace(clar, assumption_note=with_note(
            alike_note(profile, alike, lang), clar.assumption_note, lang))
    return clar


def _read_record(read: Instructions | None, spelt: Respelt) -> dict[str, list[str]]:
    """The trace's fields of what was read apart from the question: instructions, spelling."""
    return {"instructions": list(read.notes) if read else [],
            "definitions": list(read.definitions) if read else [],
            "courtesies": list(read.courtesies) if read else [],
            "respelt": [f"{a} -> {b}" for a, b in spelt.fixed],
            "doubtful": [w for w, _ in spelt.doubtful]}


def start_run(question: str, store: FactStore, provider: LLMProvider | None,
              reference_date: date | None, intent_parser: IntentParser | None,
              profile: DomainProfile | None, history: Sequence[tuple[str, str]] | None,
              follow_up: Carried | None = None, calendars: Calendars | None = None) -> Run:
    """Check the input, screen the history, parse the intent and clarify its scope.

    ``follow_up``: the previous answer's resolved slots; they fill the slots the
    question leaves empty (:mod:`ragspine_nb.agent.scope.follow_up`), after the gate read it.
    ``calendars``: the companies' fiscal calendars (:func:`calendars_of`), read from the
    store when not given.
    """
    if profile is None:
        raise ProfileError("answer_question needs profile= (a DomainProfile)")
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question must be a non-empty string")
    ref = reference_date or date.today()
    trace = Trace()
    started = time.perf_counter()
    parser = intent_parser or RuleIntentParser(profile)
    gate = parser.gate if isinstance(parser, RuleIntentParser) else \
        SecurityGate.from_profile(profile)
    screened, dropped = gate.screen_history(history)  # before anything uses the history
    trace.record(history_turns_dropped=dropped)
    read, spelt = _as_asked(question, parser, gate)
    asked = spelt.text
    intent = parser.parse(asked, ref)
    if intent.raw_question != asked:
        raise ValueError("an IntentParser must fill raw_question with the exact question")
    intent, carried = carry_over(intent, follow_up, profile)
    kind = question_kind(asked)
    compared = compared_entities(intent, kind, store, profile)  # "which company had the most"
    intent = compared.intent
    intent, narrowed, years, alike = _read_against_store(intent, store, profile, kind, calendars)
    unserved = unserved_row(intent, store)
    if unserved and isinstance(parser, RuleIntentParser):
        # a row stating no figure asked: its words as another row and a column that do
        again, _ = carry_over(parser.sparing({unserved}).parse(asked, ref), follow_up, profile)
        read_again = _read_against_store(again, store, profile, kind, calendars)
        if serves_column(read_again[0], store):
            intent, narrowed, years, alike = read_again
    # "which years …" asks for the periods: none is assumed from what is reported
    reported = reported_year(intent, store, profile, ref) if kind.kind == KIND_NUMBER else None
    clar = clarify_scope(intent, ref, profile=profile, gate=gate, reported=reported,
                         every_year=years)
    clar = _said(clar, intent, profile, compared, spelt, alike)
    trace.record(route=intent.route, metric=intent.metric, entity=intent.entity,
                 period=period_label(*intent.period) if intent.period else None,
                 channel=intent.channel, clar_mode=clar.mode, question_kind=kind.kind,
                 external_entity=bool(intent.external_entity), language=intent.language,
                 **_read_record(read, spelt),
                 carried_over=[k for k, v in carried.to_dict().items() if v],
                 not_stored_for_entity=list(narrowed.dropped))
    return Run(question, store, provider or MockProvider(), profile, ref, intent, clar,
               screened or [], trace, Grounder(profile, store),
               question_context(intent, clar, profile), parser, kind, started, read=read,
               carried=carried, reported=reported)
