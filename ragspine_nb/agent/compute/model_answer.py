"""The fact channel's last reader: a wired model's reading, verified, or the refusal as it was.

Only for a question asking a number in English (the verifier checks English words; a
Chinese question keeps the rules' answer), after every rule has read nothing it can compute
(the fact channel's answer asserts no figure), and only with a wired model
(:func:`reads_questions`: the offline mock never is): the cells of the question's
companies and periods that share a word with it are offered
(:func:`~ragspine_nb.agent.compute.model_reading.offered_cells`), the model may propose
one formula over them, and :func:`~ragspine_nb.agent.compute.model_reading.verify`
decides. A verified reading is answered with its derivation, each cell cited, and a note
saying that the model read it and what was checked; a rejected one leaves the refusal as
it was, with one line saying why the model's reading was not used. A conflict (documents
stating one cell differently) is never read past. Provider errors leave the refusal.
"""

from __future__ import annotations

from dataclasses import replace

from ragspine_nb.agent.compute.expression import Value
from ragspine_nb.agent.compute.formula_answer import figure_answer
from ragspine_nb.agent.compute.model_offer import (
    READING_SYSTEM,
    READING_TOOL,
    Cell,
    Proposal,
    offered_cells,
    proposal_of,
    reading_prompt,
    reading_tool,
)
from ragspine_nb.agent.compute.model_reading import MAX_NAME_WORDS, Asked, Rejection, verify
from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.providers import LLMProvider, MockProvider
from ragspine_nb.agent.reading.cue_text import cue_text
from ragspine_nb.agent.reading.operation_cues import aggregate_cue, operation_asked
from ragspine_nb.agent.reading.question_kind import KIND_NUMBER
from ragspine_nb.agent.reading.unstated import line_item_words
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.run import Run
from ragspine_nb.agent.scope.stored_readings import metric_names
from ragspine_nb.agent.write.templates import TEXT
from ragspine_nb.core import Fact
from ragspine_nb.errors import ProviderError
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import normalize_period, period_label
from ragspine_nb.profile_fields import formula_codes
from ragspine_nb.wordset import content_words

__all__ = ["reads_questions", "model_read"]


#: What a computed figure is called when the question's words name it not.
_OPERATION_NAMES = {"en": {"+": "Sum", "-": "Difference", "/": "Ratio", "*": "Product",
                           "%": "Percentage"},
                    "zh": {"+": "合计", "-": "差额", "/": "比率", "*": "乘积", "%": "百分比"}}


def reads_questions(provider: LLMProvider) -> bool:
    """Whether ``provider`` is a wired model (a recording wrapper: what it wraps).

    >>> from ragspine_nb.agent.providers import RecordingProvider
    >>> reads_questions(MockProvider()), reads_questions(RecordingProvider())
    (False, False)
    """
    inner = getattr(provider, "inner", provider)
    return not isinstance(inner, MockProvider)


def _asked(run: Run, operation: Operation | None) -> Asked:
    """The question's words, the periods it names (or that were assumed), an operation."""
    periods = {period_label(*p) for p in run.intent.periods}
    assumed = run.clar.assumed_slots.get("period")
    if not periods and assumed:
        found = normalize_period(run.profile, assumed, relative=False)
        periods = {period_label(*found)} if found else set()
    kind = operation.kind if operation is not None else \
        operation_asked(cue_text(run.intent, run.profile)) or \
        ("sum" if aggregate_cue(fold(run.question)) else "")
    text = run.read.asked if run.read is not None else run.question
    # the profile's line items, built-in formulas included: a name the profile defines is
    # computed by its formula, never by the model's reading of it
    return Asked(fold(text), frozenset(periods), kind, line_item_words(run.profile))


def _facts(run: Run, asked: Asked) -> list[Fact]:
    """The question's companies' facts in its periods (and the year before each)."""
    entities = run.intent.entities or (str(run.clar.assumed_slots.get(
        "entity", run.profile.home_entity_code)),)
    before = {f"FY{int(p[2:]) - 1}" for p in asked.periods
              if p.startswith("FY") and p[2:].isdigit()} if asked.change else set()
    wanted = asked.periods | before
    return [f for e in entities for f in run.store.iter_facts(entity=e)
            if not wanted or period_label(f.period_type, f.period) in wanted]


def _formula_words(run: Run) -> frozenset[str]:
    """The words of the rows named by the formulas of the rows read.

    "Quick ratio": current assets, inventories, current liabilities.
    """
    codes = {c for m in (*run.intent.metrics, *run.intent.metric_candidates)
             if (spec := run.profile.metrics.get(m)) is not None and spec.formula
             for c in formula_codes(spec.formula)}
    return frozenset(w for c in codes for n in metric_names(run.profile, c)
                     for w in content_words(n))


def _proposal(run: Run, cells: list[Cell], question: str) -> Proposal | None:
    """The model's one ``propose_reading`` call, if it made one (an API error: none)."""
    try:
        resp = run.provider.create_message(
            system=READING_SYSTEM, tools=[reading_tool()],
            messages=[{"role": "user", "content": reading_prompt(question, cells, run.profile)}])
    except ProviderError:
        run.trace.record(model_reading={"provider_error": True})
        return None
    call = next((c for c in resp.tool_calls if c.name == READING_TOOL), None)
    if call is None:
        run.trace.record(model_reading={"proposed": False})
        return None
    return proposal_of(call.arguments)


def _name(proposal: Proposal, asked: Asked) -> str:
    """What the figure is called: the question's words the model named it with, else ''."""
    name = " ".join(proposal.name.split())
    if name and fold(name) in asked.text and len(name.split()) <= MAX_NAME_WORDS:
        return name
    return ""


def _answer(run: Run, proposal: Proposal, value: Value, asked: Asked) -> AgentResult:
    model = str(getattr(run.provider, "name", "") or type(run.provider).__name__)
    name = _name(proposal, asked) or _OPERATION_NAMES[run.lang].get(
        "%" if value.unit == "PCT" else value.op, value.names)
    note = TEXT["model_read"][run.lang].format(model=model, name=name, names=value.names)
    run.trace.record(model_reading={"formula": proposal.formula, "verified": True})
    return figure_answer(run, name, value, note)


def model_read(run: Run, operation: Operation | None, refused: AgentResult) -> AgentResult:
    """A verified reading of a wired model when ``refused`` asserts no figure, else it."""
    if refused.figures or run.kind.kind != KIND_NUMBER or run.lang != "en" or \
            not reads_questions(run.provider) or refused.tool_status.get("conflict"):
        return refused  # a Chinese question's words are not checked: never read by a model
    asked = _asked(run, operation)
    question = run.read.asked if run.read is not None else run.question
    cells = offered_cells(_facts(run, asked), question, run.profile,
                          also=_formula_words(run))
    if not cells:
        return refused
    proposal = _proposal(run, cells, question)
    if proposal is None:  # no reading proposed (or the API failed): the trace says which
        return replace(refused, trace=run.trace.to_dict())
    value = verify(proposal, {c.id: c for c in cells}, asked)
    if not isinstance(value, Rejection):
        return _answer(run, proposal, value, asked)
    run.trace.record(model_reading={"formula": proposal.formula,
                                    "rejected": list(value.reasons)})
    model = str(getattr(run.provider, "name", "") or type(run.provider).__name__)
    line = TEXT["model_rejected"][run.lang].format(model=model, why="; ".join(value.reasons))
    return replace(refused, answer=f"{refused.answer}\n{line}",
                   answer_plain=f"{refused.answer_plain}\n{line}", trace=run.trace.to_dict())
