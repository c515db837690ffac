"""Answer "what's the number?" questions from the fact store, never from a model.

Order of control flow: the security gate screens the raw question first; then slots
are scanned; a missing metric asks back; a missing entity or period is assumed
(home entity, latest complete fiscal year) and the assumption is stated; the fact is
looked up with ``query_metric``; a miss is an honest refusal with no number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ragspine_nb.agent.intent import scan_question
from ragspine_nb.agent.query_tools import execute_query_metric
from ragspine_nb.agent.security_gate import SecurityGate
from ragspine_nb.lang import detect_language
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.types import (
    Fact,
    FoundResult,
    NotFoundResult,
    QueryResult,
    Source,
    UnrecognizedParamResult,
)

__all__ = ["StructuredAnswer", "answer_structured", "format_value", "period_label"]


@dataclass(frozen=True)
class StructuredAnswer:
    """An answer with its status, sources and stated assumptions."""

    question: str
    text: str
    status: str
    language: str
    sources: tuple[Source, ...] = ()
    assumptions: tuple[str, ...] = ()
    narrowing_options: tuple[str, ...] = ()
    result: QueryResult | None = field(default=None, compare=False)


def format_value(value: float) -> str:
    """``1320.0`` → ``"1,320"``, ``12.5`` → ``"12.5"``, ``-3.25`` → ``"-3.25"``."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.6f}".rstrip("0").rstrip(".")


def period_label(period_type: str, period: str) -> str:
    """``("FY", "2024")`` → ``"FY2024"``; HY and QUARTER periods already carry their suffix."""
    return f"FY{period}" if period_type == "FY" else period


def _found_text(fact: Fact, profile: DomainProfile, lang: str) -> str:
    entity = profile.entities[fact.entity].label if fact.entity in profile.entities else fact.entity
    metric = fact.metric_code
    channel = "" if fact.channel == profile.default_channel else f" ({fact.channel})"
    where = f"{fact.source_doc_id} · {fact.source_locator}"
    value = f"{format_value(fact.value)} {fact.unit}"
    plabel = period_label(fact.period_type, fact.period)
    if lang == "zh":
        return f"{entity} {plabel} {metric}{channel}：{value}（来源：{where}）"
    return f"{entity} {plabel} {metric}{channel}: {value} (source: {where})"


def _miss_text(result: QueryResult, lang: str) -> str:
    if isinstance(result, NotFoundResult):
        what = (f"{result.metric_code} / {result.entity} / "
                f"{period_label(result.period_type, result.period)} / {result.channel}")
        if lang == "zh":
            return f"查不到：{what} 未在事实表中找到，不提供任何推测数字。"
        return f"Not found: {what} is not in the fact store; no estimate is given."
    if isinstance(result, UnrecognizedParamResult):
        if lang == "zh":
            return f"无法识别参数 {result.param}：“{result.raw}”，请换一种说法。"
        return f"Unrecognized {result.param}: {result.raw!r}. Please rephrase it."
    raise TypeError(f"not a miss: {result!r}")


def answer_structured(
    question: str,
    store: FactStore,
    profile: DomainProfile,
    *,
    reference_date: date | None = None,
) -> StructuredAnswer:
    """Answer a numeric question from the fact store.

    Parameters
    ----------
    question : str
        The user's question, in Chinese or English.
    store : FactStore
        Where every number comes from.
    profile : DomainProfile
        Vocabulary, home entity and competitor aliases.
    reference_date : date, optional
        Anchor for relative periods and for the assumed latest fiscal year.

    Returns
    -------
    StructuredAnswer
        ``status`` is one of ``refused``, ``ask_first``, ``found``, ``not_found``,
        ``unrecognized_param``.
    """
    ref = reference_date or date.today()
    lang = detect_language(question)
    gate = SecurityGate(profile)
    verdict = gate.screen(question)
    if verdict.refused:  # before any slot parsing, tool or model
        return StructuredAnswer(question, gate.refusal_text(verdict, lang), "refused", lang,
                                narrowing_options=(profile.company_name,))
    slots = scan_question(question, profile, ref, masked_question=verdict.masked_text)
    if slots.metric is None:
        options = tuple(profile.metrics)
        text = (f"请问您想查询哪个指标？支持：{'、'.join(options)}" if lang == "zh"
                else f"Which metric do you mean? Supported: {', '.join(options)}")
        return StructuredAnswer(question, text, "ask_first", lang, narrowing_options=options)
    assumptions: list[str] = []
    entity = slots.entity
    if entity is None:
        entity = profile.home_entity_code
        assumptions.append(f"entity={entity}")
    period = slots.period
    if period is None:
        period = ("FY", str(ref.year - 1))
        assumptions.append(f"period=FY{ref.year - 1}")
    result = execute_query_metric(
        store, profile, slots.metric, entity,
        period[1] if period[0] != "FY" else f"FY{period[1]}",
        slots.channel, reference_date=ref,
    )
    if isinstance(result, FoundResult):
        text = _found_text(result.fact, profile, lang)
        sources: tuple[Source, ...] = (result.fact.source,)
        status = "found"
    else:
        text, sources, status = _miss_text(result, lang), (), result.status
    if assumptions:
        note = "、".join(assumptions) if lang == "zh" else ", ".join(assumptions)
        text = (f"（假设：{note}）" if lang == "zh" else f"(Assuming {note}) ") + text
    return StructuredAnswer(question, text, status, lang, sources, tuple(assumptions),
                            result=result)
