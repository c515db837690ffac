"""Answer templates in the question's language (Chinese or English)."""

from __future__ import annotations

from ragspine_nb.glossary import period_label
from ragspine_nb.types import (
    ConflictResult,
    Fact,
    NotFoundResult,
    Resolution,
    UnrecognizedParamResult,
)

__all__ = ["format_value", "period_label", "found_line", "miss_line", "conflict_line",
           "not_computed_line", "statement_text", "TEXT"]


def format_value(value: float) -> str:
    """``1320.0`` → ``"1,320"``; ``-42.3`` → ``"-42.3"``; ``0.125`` → ``"0.125"``."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.6f}".rstrip("0").rstrip(".")


TEXT = {
    "provider_error": {"zh": "AI 服务暂时不可用，请稍后再试；本次未给出任何数字。",
                       "en": "The AI service is unavailable right now; no figures were given. "
                             "Please try again later."},
    "no_retriever": {"zh": "叙述类检索尚未接入，无法回答“为什么/发生了什么”类问题。",
                     "en": "Narrative retrieval is not connected, so this \"why / what "
                           "happened\" question cannot be answered."},
    "no_hits": {"zh": "未检索到与该问题相关的资料，无法给出有依据的回答。",
                "en": "No relevant passages were found, so there is no grounded answer."},
    "ungrounded": {"zh": "模型的回答无法由检索到的资料支持，已略去；请查看以下来源。",
                   "en": "The model's answer was not supported by the retrieved passages and "
                         "was withheld; see the sources below."},
    "attribution": {"zh": "归因分析：", "en": "Attribution:"},
    "sources": {"zh": "来源：", "en": "Sources:"},
    "comparison": {"zh": "对比结果：", "en": "Comparison:"},
    "stated_change": {"zh": "（报告中直接列示的变动，非计算所得）",
                      "en": "(The change as the report states it, not computed.)"},
    "withheld": {"zh": "（已略去 {n} 句与事实表不符或涉及数据冲突的内容。）",
                 "en": "({n} sentence(s) contradicting the fact store or stating a figure in "
                       "conflict were withheld.)"},
}


def _as_of(fact: Fact, lang: str) -> str:
    if not fact.valid_as_of:
        return ""
    return f" · 截至 {fact.valid_as_of}" if lang == "zh" else f" · as of {fact.valid_as_of}"


def statement_text(fact: Fact, lang: str) -> str:
    """``1,405 USD_M (source: deck.pptx · slide=3)``: one stated value with its source."""
    where = f"{fact.source_doc_id} · {fact.source_locator}{_as_of(fact, lang)}"
    value = f"{format_value(fact.value)} {fact.unit}"
    return f"{value}（来源：{where}）" if lang == "zh" else f"{value} (source: {where})"


def _resolved(resolution: Resolution, lang: str) -> str:
    day = resolution.resolved_at[:10]
    note = f": {resolution.note}" if resolution.note else ""
    if lang == "zh":
        return f"（数据冲突已由用户选择解决：{day}，{resolution.resolved_by}{note}）"
    return f" — resolved by user choice on {day} by {resolution.resolved_by}{note}"


def found_line(fact: Fact, entity_label: str, default_channel: str, lang: str,
               resolution: Resolution | None = None) -> str:
    """One answer line rebuilt from the stored fact (never from model prose).

    A fact documents disagreed on says who chose it, when and why (``resolution``).
    """
    channel = "" if fact.channel == default_channel else f" ({fact.channel})"
    plabel = period_label(fact.period_type, fact.period)
    sep = "：" if lang == "zh" else ": "
    line = f"{entity_label} {plabel} {fact.metric_code}{channel}{sep}{statement_text(fact, lang)}"
    return line + (_resolved(resolution, lang) if resolution is not None else "")


def conflict_line(result: ConflictResult, entity_label: str, default_channel: str,
                  lang: str) -> str:
    """A fact documents state differently: every value with its source, no single number."""
    channel = "" if result.channel == default_channel else f" ({result.channel})"
    what = (f"{entity_label} {period_label(result.period_type, result.period)} "
            f"{result.metric_code}{channel}")
    n = len(result.statements)
    if lang == "zh":
        stated = "；".join(statement_text(f, lang) for f in result.statements)
        return (f"数据冲突：{what} 在 {n} 份文件中的数值不一致：{stated}。冲突解决前未给出单一"
                "数字（可用 `ragspine-nb conflicts` 记录选择，或更新有误的文件）。")
    stated = "; ".join(statement_text(f, lang) for f in result.statements)
    return (f"Conflict: {what} is stated differently by {n} documents: {stated}. No single "
            "figure is given until it is resolved (record a choice with `ragspine-nb "
            "conflicts`, or correct the document).")


def not_computed_line(kind: str, operands: list[str], lang: str) -> str:
    """A change (``kind="change"``) or difference not computed: the operands in conflict."""
    names = "、".join(operands) if lang == "zh" else " and ".join(operands)
    if lang == "zh":
        return f"未计算{'变动' if kind == 'change' else '差额'}：{names} 数据冲突。"
    verb = "is" if len(operands) == 1 else "are"
    return f"{kind.capitalize()} not computed: {names} {verb} in conflict."


def miss_line(result: NotFoundResult | UnrecognizedParamResult, lang: str) -> str:
    """An honest refusal: no digits other than the period asked about."""
    if isinstance(result, NotFoundResult):
        what = (f"{result.metric_code} / {result.entity} / "
                f"{period_label(result.period_type, result.period)} / {result.channel}")
        if lang == "zh":
            return f"查不到：{what} 未在事实表中找到，不提供任何推测数字。"
        return f"Not found: {what} is not in the fact store; no estimate is given."
    if lang == "zh":
        return f"无法识别参数 {result.param}：“{result.raw}”，请换一种说法。"
    return f"Unrecognized {result.param}: {result.raw!r}. Please rephrase it."
