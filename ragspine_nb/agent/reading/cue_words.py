"""Words that cue what a question asks: a reason, a number, a change, a percentage, a share.

Read by :mod:`ragspine_nb.agent.reading.intent` (and importable from there under these names).
"""

from __future__ import annotations

import re

__all__ = ["NARRATIVE_CUES", "CHANGE_CUES", "PERCENT_CUES", "SHARE_CUES", "NUMERIC_CUES",
           "PERCENT_CHANGE", "POINTS_CHANGE", "COMPOUND_GROWTH", "MOVEMENT_VERBS",
           "SUBTRACTION", "HOW_MUCH_MORE"]

NARRATIVE_CUES: tuple[str, ...] = (
    "为什么", "为何", "原因", "怎么", "如何", "解释", "说明", "影响", "发生了什么", "背景",
    "驱动", "导致", "因素", "why", "how come", "reason", "explain", "what happened", "driver",
    "drivers", "impact", "cause", "caused", "because", "describe", "summarise", "summarize",
    "what drove", "outlook",
)
#: A verb of movement asks how much moved ("How much did revenue grow in FY2023?"),
#: never the level: a change cue of the reading and of the net that refuses a level.
MOVEMENT_VERBS: tuple[str, ...] = ("grow", "grew", "grows", "rise", "rose", "rises", "risen",
                                   "fall", "fell", "falls", "fallen", "drop", "dropped",
                                   "drops", "decline", "declined")
#: Words asking for a change between periods rather than a level.
CHANGE_CUES: tuple[str, ...] = ("percentage change", "change in", "changes in", "increase in",
                                "decrease in", "percentage increase", "percentage decrease",
                                "increased by", "decreased by", "grew by", "fell by",
                                "change", "changed", "increase", "decrease", "increased",
                                "decreased", "growth", "difference between",
                                *MOVEMENT_VERBS,
                                "增长了多少", "下降了多少", "增加了多少", "减少了多少",
                                "上升了多少", "增长多少", "下降多少", "增加多少", "减少多少",
                                "增长了百分之", "下降了百分之", "增加了百分之", "减少了百分之",
                                "上升了百分之", "增长百分之", "下降百分之", "增加百分之",
                                "减少百分之",
                                "variance", "growth rate", "增长率", "增幅", "降幅", "变化", "同比")
#: Words asking for a change as a percentage (a stated "% change" answers these first).
PERCENT_CUES: tuple[str, ...] = ("percentage", "percent", "per cent", "%", "growth rate",
                                 "增长率", "增幅", "降幅", "百分比")
#: Words asking for a share of something (a percentage column), not a change.
SHARE_CUES: tuple[str, ...] = ("percentage of", "percent of", "% of", "share of",
                               "proportion of", "占比")
NUMERIC_CUES: tuple[str, ...] = (
    "多少", "是多少", "数值", "金额", "几", "比例", "数字", "how much", "how many", "value",
    "amount", "figure", "number", "total",
)
#: One figure less another, written as an operator: "revenue less cost of revenue",
#: "2022 minus 2021", "营业收入减去营业成本" — never "less than", "1 year or less",
#: "more or less", nor a row's sign ("Less: interest expense").
SUBTRACTION = re.compile(r"(?<![a-z])(?<!or )(?:minus|less)(?!\s+than)(?![a-z:])|减去")
#: "How much more did A earn than B", "A比B高多少": the difference between the figures named
#: ("同比减少了多少", "环比": a change from the period before, no such comparison).
HOW_MUCH_MORE = re.compile(r"(?<![a-z])how much (?:more|less|higher|lower|greater|larger|"
                           r"bigger|smaller)(?![a-z])|(?<![同环])比.{1,40}?[高多低少大小]了?多少")
#: A compound annual growth rate ("CAGR", "compound annual growth rate", "年复合增长率").
COMPOUND_GROWTH = re.compile(
    r"(?<![a-z])cagr(?![a-z])|(?<![a-z])compound(?:ed)? (?:average )?(?:annual |yearly )?"
    r"(?:growth|rate)|年复合增长率|复合年增长率|年均复合增长率|复合增长率")
#: A change asked in percentage points ("the percentage-point change", "absolute percentage
#: change", "百分点"): over two percentages, their difference in points.
POINTS_CHANGE = re.compile(r"absolute (?:percentage|percent|%) (?:change|increase|decrease)|"
                           r"percentage[- ]points?|百分点")
#: A change asked as a percentage: the percentage qualifies the change itself.
PERCENT_CHANGE = re.compile(
    r"(?:percentage|percent|per cent|%) (?:change|changes|increase|decrease|growth|decline|"
    r"rise|fall|drop|movement|reduction)|growth rate|rate of (?:change|growth|increase|"
    r"decrease)|(?:by|in) (?:what|which) (?:percentage|percent)|(?:change|increase|decrease|"
    r"growth|decline) (?:in|as a) (?:percentage|percent)(?! of)|(?:change|increase|decrease|"
    r"growth|decline) \(%\)|what (?:percentage|percent) (?:did|has|have|had|was|were|is|does)"
    r"\b[^?%]{0,80}?(?:increase|decrease|change|grow|grew|rise|rose|fall|fell|decline|drop)"
    r"|\((?:in (?:units of )?(?:percents?|percentages?|%)|as an? (?:%|percent(?:age)?))"
    r"|\bin (?:units of )?(?:percents?|percentages?|%)(?: terms)?\s*[?.]?\s*$"
    r"|增长率|增幅|降幅|变动率|"
    r"变化率|百分比变化|变动百分比|(?:增长|下降|减少|增加|上升|变动|变化)了?百分之(?:几|多少)")
