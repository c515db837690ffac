"""How computed figures are named: the labels of operations over cited cells.

``the company Dividend yield, average of FY2019, FY2018 and FY2017``; ``the company
Prepaid expenses as a percentage of Total prepaid …, FY2019``; ``number of items that are
above $50 million (of A and B)``. Pure functions of facts and the profile, in English and
Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.reading.labels import column_label, entity_label, metric_label, slot_label
from ragspine_nb.core import Fact
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile

__all__ = ["OPERATION_WORDS", "SLOT_FIELDS", "slots_of", "name_of", "common_of", "joined",
           "operation_label", "change_label", "compared_label", "count_label", "gap_label",
           "ratio_label", "period_tail"]

#: How an operation is named in a figure's label.
OPERATION_WORDS: dict[str, dict[str, str]] = {
    "en": {"average": "average of", "sum": "sum of", "max": "highest of", "min": "lowest of",
           "count": "number of periods", "reported": "reported for"},
    "zh": {"average": "平均值", "sum": "合计", "max": "最高值", "min": "最低值",
           "count": "期间数", "reported": "列示期间"},
}


# ------------------------------------------------------------------ names
#: The fact's attribute each slot names.
SLOT_FIELDS = {"metric": "metric_code", "entity": "entity", "channel": "channel",
               "period": "period"}


def _part(fact: Fact, slot: str, profile: DomainProfile) -> str:
    if slot == "period":
        return period_label(fact.period_type, fact.period)
    return slot_label(profile, slot, getattr(fact, SLOT_FIELDS[slot]))


def slots_of(facts: Sequence[Fact]) -> list[str]:
    """The slots (metric, entity, channel, period) in which the facts differ."""
    return [s for s, attr in SLOT_FIELDS.items() if len({getattr(f, attr) for f in facts}) > 1]


def name_of(fact: Fact, slots: Sequence[str], profile: DomainProfile) -> str:
    """A fact named by its ``slots`` ("Hong Kong FY2019")."""
    return " ".join(_part(fact, s, profile) for s in slots)


def common_of(facts: Sequence[Fact], varying: Sequence[str], profile: DomainProfile) -> str:
    """What the facts share: entity, row and column (not the period)."""
    f = facts[0]
    parts = [entity_label(profile, f.entity) if "entity" not in varying else "",
             metric_label(profile, f.metric_code) if "metric" not in varying else ""]
    if "channel" not in varying and f.channel != profile.default_channel:
        parts.append(f"({column_label(profile, f.channel)})")
    return " ".join(p for p in parts if p)


def joined(names: Sequence[str], lang: str) -> str:
    """``A, B and C`` (``A、B、C`` in Chinese)."""
    if lang == "zh":
        return "、".join(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def period_tail(facts: Sequence[Fact], varying: Sequence[str], lang: str) -> str:
    """``, FY2019`` when the facts share one period, else nothing."""
    if "period" in varying:
        return ""
    sep = "，" if lang == "zh" else ", "
    return sep + period_label(facts[0].period_type, facts[0].period)


def operation_label(kind: str, facts: Sequence[Fact], profile: DomainProfile, lang: str) -> str:
    """``the company Dividend yield, average of FY2019, FY2018 and FY2017``."""
    varying = slots_of(facts)
    names = joined([name_of(f, varying, profile) for f in facts], lang)
    common = common_of(facts, varying, profile)
    tail = period_tail(facts, varying, lang)
    if lang == "zh":
        return f"{common}，{names}{OPERATION_WORDS['zh'][kind]}{tail}"
    return f"{common}, {OPERATION_WORDS['en'][kind]} {names}{tail}"


def change_label(op: Operation, facts: Sequence[Fact], profile: DomainProfile,
                  lang: str) -> str:
    """``the company Revenue, change in the percentage change, FY2019 against FY2018``."""
    common = common_of(facts, ["period"], profile)
    late, early = (period_label(f.period_type, f.period) for f in facts[:2])
    pct = op.inner == "percent_change"
    if lang == "zh":
        return f"{common}，{late}{'变动率' if pct else '变动'}较{early}的变化"
    return f"{common}, change in the {'percentage change' if pct else 'change'}, {late} " \
           f"against {early}"


#: A test written as a comparison, not a verb ("above $50 million", "more than 20%").
_COMPARED = re.compile(r"(?:above|below|over|under|(?:more|less|greater|fewer|higher|lower) "
                       r"than|at (?:least|most)|between)\b", re.I)


def count_label(op: Operation, facts: Sequence[Fact], profile: DomainProfile,
                 lang: str) -> str:
    """``the company Net sales, number of periods that exceed $200,000 thousand (of …)``."""
    varying = slots_of(facts) or ["period"]
    common = common_of(facts, varying, profile)
    names = joined([name_of(f, varying, profile) for f in facts], lang)
    test = op.test.text if op.test is not None else ""
    counted = ("periods", "期间") if "period" in varying else ("items", "项目")
    if lang == "zh":
        return f"{common}，{names}中{test or '列示'}的{counted[1]}数"
    what = ("that are " if _COMPARED.match(test) else "that ") + test if test else "reported"
    return f"{common}, number of {counted[0]} {what} (of {names})"


def ratio_label(kind: str, top: Sequence[Fact], bottom: Fact, profile: DomainProfile,
                 lang: str, period: bool = True) -> str:
    """``the company Prepaid expenses as a percentage of Total prepaid …, FY2019``.

    ``period=False`` leaves the period out (the caller names several).
    """
    facts = [*top, bottom]
    varying = slots_of(facts) or ["metric"]
    entity = "" if "entity" in varying else entity_label(profile, bottom.entity) + " "
    if "entity" in varying and "metric" not in varying:
        varying = [*varying, "metric"]  # "ACME Hong Kong Revenue", not "ACME Hong Kong"
    elif "metric" not in varying:  # "Revenue, north america as a percentage of total"
        entity += metric_label(profile, bottom.metric_code) + ("，" if lang == "zh" else ", ")
    num = joined([name_of(f, varying, profile) for f in top], lang)
    den = name_of(bottom, varying, profile)
    tail = period_tail(facts, varying, lang) if period else ""
    if lang == "zh":
        return f"{entity}{num}{'占' if kind == 'share' else '与'}{den}" \
               f"{'的比例' if kind == 'share' else '之比'}{tail}"
    if kind == "share":
        return f"{entity}{num} as a percentage of {den}{tail}"
    return f"{entity}ratio of {num} to {den}{tail}"


def gap_label(first: Sequence[Fact], second: Sequence[Fact], profile: DomainProfile,
              lang: str) -> str:
    """``the company, average Investment income less average Financing costs, FY2019 and …``."""
    common = common_of([*first, *second], ["metric", "period"], profile)
    a, b = (metric_label(profile, side[0].metric_code) for side in (first, second))
    years = joined([period_label(f.period_type, f.period) for f in first], lang)
    if lang == "zh":
        return f"{common}，{a}平均值减{b}平均值（{years}）"
    return f"{common}, average {a} less average {b} ({years})"


def compared_label(what: str, first: str, second: str, percent: bool, lang: str) -> str:
    """One row's figure of a period less another's, as a question compared them.

    "How much larger was revenue in FY2022 than in FY2023?" is no change from FY2022 to
    FY2023: its label says which figure is taken from which.

    >>> compared_label("Nike Revenue", "FY2022", "FY2023", False, "en")
    'Nike Revenue, FY2022 less FY2023'
    >>> compared_label("Nike Revenue", "FY2022", "FY2023", True, "zh")
    'Nike Revenue，FY2022较FY2023差额（占FY2023的百分比）'
    """
    if lang == "zh":
        return f"{what}，{first}较{second}差额{f'（占{second}的百分比）' if percent else ''}"
    return f"{what}, {first} less {second}{f' as a percentage of {second}' if percent else ''}"
