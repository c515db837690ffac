"""Answer templates in the question's language (Chinese or English)."""

from __future__ import annotations

from collections.abc import Callable

from ragspine_nb.core import (
    ConflictResult,
    Fact,
    NotFoundResult,
    Resolution,
    UnrecognizedParamResult,
)
from ragspine_nb.display.render import format_number
from ragspine_nb.extract.scale import RowKind, row_kind
from ragspine_nb.period_codes import period_label
from ragspine_nb.units import unit_parts, unit_text, with_unit

__all__ = ["format_value", "value_text", "is_amount", "period_label", "miss_line", "conflict_line",
           "not_computed_line", "missing_text", "conflicted_text", "NOT_COMPUTED",
           "statement_text", "where_text", "figure_line", "resolved_note", "TEXT",
           "SCALE_NOT_STATED", "OPERATION_NAMES", "STATEMENT_NAMES", "PREMISE_VERBS",
           "PREMISE_POINTS", "with_note"]


def with_note(note: str, text: str, lang: str) -> str:
    """``text`` after its note (what was assumed or read): a space between in English.

    >>> with_note("(Assuming FY2023.)", "Revenue: 1", "en"), with_note("（假设）", "收入", "zh")
    ('(Assuming FY2023.) Revenue: 1', '（假设）收入')
    >>> with_note("", "Revenue: 1", "en"), with_note("(Read so.)", "", "en")
    ('Revenue: 1', '(Read so.)')
    """
    if not note:
        return text
    return note + text if lang == "zh" else f"{note} {text}".strip()


#: A number with thousands separators (:func:`~ragspine_nb.display.render.format_number`).
format_value = format_number


#: What an amount in a currency with no stated scale says beside its unit.
SCALE_NOT_STATED = {"en": "scale not stated", "zh": "未注明数量级"}


def is_amount(fact: Fact) -> bool:
    """Whether a stored fact is an amount of money, read from its metric's words.

    Per-share amounts, rates, ratios, counts and share counts are not ("EPS",
    "EFFECTIVE_TAX_RATE", "NUMBER_OF_EMPLOYEES"); anything else is.

    Examples
    --------
    >>> from dataclasses import replace
    >>> f = Fact("DILUTED_EARNINGS_PER_SHARE", "C", "NA", "TOTAL", "FY", "2019", 1.2, "USD",
    ...          "t.csv", "r1")
    >>> is_amount(f), is_amount(replace(f, metric_code="REVENUE"))
    (False, True)
    """
    words = " ".join(fact.metric_code.replace("_", " ").replace(".", " ").lower().split())
    return row_kind(words) == RowKind.AMOUNT


def value_text(value: float, unit: str, lang: str, amount: bool = False) -> str:
    """A value with its unit as readers write it: ``"1,405 US$ m"``; no scale is said so.

    ``amount`` says the figure is an amount of money (not a per-share amount, a count or
    a ratio): then a bare currency or no unit at all means the source stated no scale,
    and the text says "scale not stated" rather than inventing one.

    Examples
    --------
    >>> value_text(1405, "USD_M", "en", True), value_text(27069, "USD", "en", True)
    ('1,405 US$ m', '27,069 US$ (scale not stated)')
    >>> value_text(1.23, "USD", "en"), value_text(12, "NUMBER", "en"), value_text(6.4, "PCT", "en")
    ('1.23 US$', '12', '6.4%')
    >>> value_text(757336, "NUMBER", "en", True)
    '757,336 (scale not stated)'
    """
    shown = unit_text(unit)  # a plain number (stored as NUMBER) shows no unit
    text = with_unit(format_value(value), unit, lang)
    parts = unit_parts(unit)
    if amount and parts.factor is None and not parts.percent and \
            (parts.currency or not shown):
        note = SCALE_NOT_STATED[lang]
        text += f"（{note}）" if lang == "zh" else f" ({note})"
    return text


#: The financial statements an instruction names, in words.
STATEMENT_NAMES: dict[str, dict[str, str]] = {
    "en": {"income": "the income statement", "balance_sheet": "the balance sheet",
           "cash_flow": "the cash flow statement",
           "comprehensive_income": "the statement of comprehensive income",
           "equity": "the statement of equity"},
    "zh": {"income": "利润表", "balance_sheet": "资产负债表", "cash_flow": "现金流量表",
           "comprehensive_income": "综合收益表", "equity": "权益变动表"},
}

TEXT = {
    "operation_not_read": {"zh": "问题要求的运算未能从问题中确定地读出，因此不给出数字",
                           "en": "the question asks for it in words this agent could not "
                                 "read exactly, so no figure is given"},
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
    "mentioned_in": {"zh": "下列来源中的段落提及该项（仅供查阅，未读取为数字）。",
                     "en": "Passages in the sources below mention it (to read; no figure is "
                           "taken from them)."},
    "follow_up": {"zh": "（承接上一问：{slots}。）",
                  "en": "(Following on from the previous question: {slots}.) "},
    "read_apart": {"zh": "（按问题读取：“{asked}”；另有{n}句说明另读{kinds}。）",
                   "en": "(Read as the question: “{asked}”; {n} instruction sentence(s) "
                         "read apart{kinds}.) "},
    "restated": {"zh": "按所问单位（{span}）换算：", "en": "Restated as asked ({span}):"},
    "restated_no_scale": {"zh": "{label}：来源未注明数量级，未换算", "en": "{label}: its source "
                          "states no scale, so it is not restated"},
    "currency_asked": {"zh": "所问币种（{span}）：", "en": "Asked {span}:"},
    "currency_stated": {"zh": "{label}：来源以{have}列示，未换算为{asked}（未做汇率换算）",
                        "en": "{label}: stated in {have} by its source; not converted to "
                              "{asked} (no exchange rate is applied)"},
    "currency_not_stated": {"zh": "{label}：来源未注明币种，未换算为{asked}",
                            "en": "{label}: its source states no currency; not converted "
                                  "to {asked}"},
    "restated_currency": {"zh": "（以{have}列示，未做汇率换算）",
                          "en": " (stated in {have}; no exchange rate is applied)"},
    "stated_share": {"zh": "（报告中直接列示的百分比，非计算所得）",
                     "en": "(The percentages as the report states them, not computed.)"},
    "stated_change": {"zh": "（报告中直接列示的变动，非计算所得）",
                      "en": "(The change as the report states it, not computed.)"},
    "derivation": {"zh": "计算：{d}，其中：", "en": "Derivation: {d}, from:"},
    "input_found": {"zh": "已找到的输入：", "en": "Input found: "},
    "compared": {"zh": "比较的数值（输入，非答案）：", "en": "Compared (inputs, not the answer):"},
    "not_answered": {"zh": "未回答：{why}。", "en": "Not answered: {why}."},
    "context_figures": {"zh": "相关数字（背景，非答案）：",
                        "en": "Figures in question (context, not the answer):"},
    # a direction the question takes for granted that the stored change contradicts
    "premise_moved": {"zh": "并未{asked}：较{prior}{moved}{by}，{derivation}；{prior_line}。",
                      "en": "It did not {asked}: it {moved} {by} from {prior}, {derivation}; "
                            "{prior_line}."},
    "premise_flat": {"zh": "并未{asked}：与{prior}持平；{prior_line}。",
                     "en": "It did not {asked}: it was unchanged from {prior}; {prior_line}."},
    # "How much did revenue fall?" when the change computed above is a rise
    "premise_change": {"zh": "注意：并未{asked}，而是{moved}（见上方计算）。",
                       "en": "Note: it did not {asked}; it {moved} (the change above)."},
    "withheld": {"zh": "（已略去 {n} 句与事实表不符、无法由事实表核实或涉及数据冲突的内容。）",
                 "en": "({n} sentence(s) stating a figure the fact store contradicts, cannot "
                       "confirm or holds in conflict were withheld.)"},
    # a reading a wired model proposed, verified against the store (compute/model_answer)
    "model_read": {"zh": "（由模型（{model}）读取为：{name} = {names}；已按事实库核验：每个单元格"
                         "均已存储并注明来源，问题所述期间与用语均已覆盖，单位一致。）",
                   "en": "(Read by the model ({model}) as {name} = {names}; checked against the "
                         "store: every cell stored and cited, the question's periods and words "
                         "covered, one unit.)"},
    "model_rejected": {"zh": "模型（{model}）提出的读法未被采用：{why}。",
                       "en": "A reading the model ({model}) proposed was not used: {why}."},
    "withheld_instructions": {"zh": "（已略去 {n} 句对回答者下达指令、而非陈述文件内容的句子。）",
                              "en": "({n} sentence(s) addressed to whoever answers, not stating "
                                    "what the documents say, were withheld.)"},
}


def _as_of(fact: Fact, lang: str) -> str:
    if not fact.valid_as_of:
        return ""
    return f" · 截至 {fact.valid_as_of}" if lang == "zh" else f" · as of {fact.valid_as_of}"


def where_text(fact: Fact, lang: str) -> str:
    """``deck.pptx · slide=3 · as of 2026-03-20``: a fact's document, locator and date."""
    return f"{fact.source_doc_id} · {fact.source_locator}{_as_of(fact, lang)}"


def figure_line(label: str, value: str, where: str, lang: str) -> str:
    """``label: value (source: where)`` in the question's language."""
    return f"{label}：{value}（来源：{where}）" if lang == "zh" else \
        f"{label}: {value} (source: {where})"


def statement_text(fact: Fact, lang: str) -> str:
    """``1,405 USD_M (source: deck.pptx · slide=3)``: one stated value with its source."""
    value = value_text(fact.value, fact.unit, lang, is_amount(fact))
    where = where_text(fact, lang)
    return f"{value}（来源：{where}）" if lang == "zh" else f"{value} (source: {where})"


def resolved_note(resolution: Resolution, lang: str) -> str:
    """Who chose a fact documents disagreed on, when and why."""
    day = resolution.resolved_at[:10]
    note = f": {resolution.note}" if resolution.note else ""
    if lang == "zh":
        return f"（数据冲突已由用户选择解决：{day}，{resolution.resolved_by}{note}）"
    return f" — resolved by user choice on {day} by {resolution.resolved_by}{note}"


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


#: Why an operation was not computed (:class:`~ragspine_nb.agent.compute.operations.NotComputed`).
NOT_COMPUTED: dict[str, dict[str, str]] = {
    "en": {"units": "the operands are in different units ({0}, {1})",
           "zero_base": "the base value is zero",
           "negative_base": "the base value is negative ({0})",
           "operands": "it needs two operands, {0} given",
           "periods": "the periods are of different kinds ({0}, {1})",
           "unsupported": "{0} is not computed yet",
           "ambiguous": "it is not clear whether the difference between {0} or the change "
                        "of each from {1} to {2} is meant; please ask for one of them",
           "cross": "the question names several figures ({0}) and no operation that "
                    "combines them into one; please ask for one figure or say how to "
                    "combine them",
           "no_periods": "the question does not say which periods to take the {0} over; "
                         "please name them (e.g. 2018 and 2019, or from 2017 to 2019)",
           "sides": "what is divided by what could not be identified ({0}); please name "
                    "both figures",
           "items": "the items to count are not identified in the stored tables",
           "threshold_units": "{0} cannot be compared with figures stated in {1} (the "
                              "scales differ or are not stated)",
           "nested": "the {0} of changes or of other computed figures ({1}) is not computed",
           "tie": "two or more values are equal ({0})",
           "change_periods": "it needs the two consecutive years whose changes are compared "
                             "(e.g. the change in 2019 against the change in 2018)",
           "signs": "some values are negative ({0}), so it is not clear whether the value "
                    "or its size is compared",
           "gap_signs": "the difference changes sign from period to period ({0}), so it is "
                        "not clear whether its average or the average of its size is meant",
           "compound_years": "the question names a {0}-year rate, and {1} to {2} is not "
                             "{0} years",
           "compound_periods": "a compound annual rate runs from one fiscal year to a "
                               "later one ({0} to {1} given)",
           "years_count": "the question counts {0} years, and {1} are named ({2}); please "
                          "name the {0} years (e.g. from 2017 to 2019)"},
    "zh": {"units": "各输入的单位不同（{0}、{1}）",
           "zero_base": "基数为零",
           "negative_base": "基数为负（{0}）",
           "operands": "需要两个输入，现有 {0} 个",
           "periods": "两个期间的类型不同（{0}、{1}）",
           "unsupported": "暂不支持 {0} 运算",
           "ambiguous": "不清楚是指{0}之间的差额，还是各自从{1}到{2}的变动，请明确其一",
           "cross": "问题涉及多个数字（{0}），但未说明如何合并为一个，请只问一个数字或说明计算方式",
           "no_periods": "问题未说明{0}取哪些期间，请指明（例如 2018年和2019年）",
           "sides": "无法确定分子和分母（{0}），请分别指明",
           "items": "无法在已存储的表格中确定要计数的项目",
           "threshold_units": "{0} 无法与单位为 {1} 的数字比较（数量级不同或未注明）",
           "nested": "暂不计算变动或其他计算结果的{0}（{1}）",
           "tie": "有两个或以上数值相等（{0}）",
           "change_periods": "需要指明两个相邻年度（例如2019年的变动与2018年的变动）",
           "signs": "部分数值为负（{0}），无法确定比较的是数值还是其绝对值",
           "gap_signs": "各期差额正负不一（{0}），无法确定是取差额的平均值还是其绝对值的平均值",
           "compound_years": "问题所问为{0}年的复合增长率，而{1}至{2}并非{0}年",
           "compound_periods": "年复合增长率需从一个财年算至其后的财年（现为{0}至{1}）",
           "years_count": "问题所说为{0}年，而所列期间为{1}个（{2}），"
                          "请列明这{0}年（例如2017年至2019年）"},
}


#: What each operation is called in a "not computed" line.
#: How the premise sentences name a direction: the verb asked about, the verb of what moved.
PREMISE_VERBS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {"up": ("rise", "rose"), "down": ("fall", "fell")},
    "zh": {"up": ("上升", "上升"), "down": ("下降", "下降")},
}
#: What a premise's change is counted in: percent, or (a rate's) percentage points.
PREMISE_POINTS = {"pct": "%", "en": " percentage points", "zh": "个百分点"}

OPERATION_NAMES: dict[str, dict[str, str]] = {
    "en": {"change": "Change", "difference": "Difference", "percent_change":
           "Percentage change", "average": "Average", "sum": "Sum", "ratio": "Ratio",
           "share": "Percentage", "count": "Count", "max": "Comparison", "min": "Comparison",
           "change_of_change": "Change of a change", "trend": "Direction",
           "spread": "Year-to-year moves", "multiple": "Multiple"},
    "zh": {"change": "变动", "difference": "差额", "percent_change": "变动率", "average": "平均值",
           "sum": "合计", "ratio": "比率", "share": "占比", "count": "计数", "max": "比较",
           "min": "比较", "change_of_change": "变动的变动", "trend": "走势", "spread": "逐年波动",
           "multiple": "倍数"},
}


def not_computed_line(kind: str, why: str, lang: str) -> str:
    """An operation (``kind``: ``change``, ``difference``, ``average`` …) not computed, and why."""
    name = OPERATION_NAMES[lang].get(kind, OPERATION_NAMES[lang]["change"])
    if lang == "zh":
        return f"未计算{name}：{why}。"
    return f"{name} not computed: {why}."


def conflicted_text(names: list[str], lang: str) -> str:
    """``"FY2025 is in conflict"``: the operands documents disagree on."""
    if lang == "zh":
        return f"{'、'.join(names)} 数据冲突"
    return f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} in conflict"


def missing_text(results: list[NotFoundResult | UnrecognizedParamResult], lang: str,
                 name: Callable[[NotFoundResult], str]) -> str:
    """The operands not found or not recognised (no digits but the periods asked about).

    ``name`` writes what a miss was looking for, in the profile's words.
    """
    zh = lang == "zh"
    found = [name(r) for r in results if isinstance(r, NotFoundResult)]
    unknown = [f"{r.param}“{r.raw}”" if zh else f"{r.param} {r.raw!r}"
               for r in results if isinstance(r, UnrecognizedParamResult)]
    clauses = []
    if found and zh:
        clauses.append(f"{'、'.join(found)} 未在事实表中找到，不提供任何推测数字")
    elif found:
        verb = "is" if len(found) == 1 else "are"
        clauses.append(f"{' and '.join(found)} {verb} not in the fact store; no estimate is "
                       "given")
    if unknown:
        clauses.append(f"无法识别参数 {'、'.join(unknown)}" if zh
                       else f"unrecognized {' and '.join(unknown)}")
    return ("；" if zh else "; ").join(clauses)


def miss_line(result: NotFoundResult | UnrecognizedParamResult, lang: str,
              name: Callable[[NotFoundResult], str]) -> str:
    """An honest refusal: no digits other than the period asked about.

    ``name`` writes what the lookup was looking for, in the profile's words.
    """
    if isinstance(result, NotFoundResult):
        what = name(result)
        if lang == "zh":
            return f"查不到：{what} 未在事实表中找到，不提供任何推测数字。"
        return f"Not found: {what} is not in the fact store; no estimate is given."
    if lang == "zh":
        return f"无法识别参数 {result.param}：“{result.raw}”，请换一种说法。"
    return f"Unrecognized {result.param}: {result.raw!r}. Please rephrase it."
