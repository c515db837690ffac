"""Answer templates in the question's language (Chinese or English)."""

from __future__ import annotations

from ragspine_nb.glossary import period_label
from ragspine_nb.types import Fact, NotFoundResult, UnrecognizedParamResult

__all__ = ["format_value", "period_label", "found_line", "miss_line", "TEXT"]


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
}


def found_line(fact: Fact, entity_label: str, default_channel: str, lang: str) -> str:
    """One answer line rebuilt from the stored fact (never from model prose)."""
    channel = "" if fact.channel == default_channel else f" ({fact.channel})"
    where = f"{fact.source_doc_id} · {fact.source_locator}"
    value = f"{format_value(fact.value)} {fact.unit}"
    plabel = period_label(fact.period_type, fact.period)
    as_of = f" · as of {fact.valid_as_of}" if fact.valid_as_of and lang == "en" else (
        f" · 截至 {fact.valid_as_of}" if fact.valid_as_of else "")
    if lang == "zh":
        return (f"{entity_label} {plabel} {fact.metric_code}{channel}：{value}"
                f"（来源：{where}{as_of}）")
    return f"{entity_label} {plabel} {fact.metric_code}{channel}: {value} (source: {where}{as_of})"


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
