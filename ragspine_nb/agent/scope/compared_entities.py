"""Which company (or region) had the highest X: every one the store states X for, compared.

"Which company had the highest revenue in 2022?" over a folder of several companies' 10-Ks
names no company: it asks for the one of them all with the highest figure. It was read as
the home company's rows ("Comparison not computed: the company Subscription … and the
company Product …") or asked back which company was meant. "Which region had the highest
revenue in FY2025?" over a group's deck went to the narrative and quoted a passage about
something else. :func:`compared_entities` reads a which-item question whose noun is a
company, a region or another part of a group ("which company", "which of the segments",
"哪个地区", "哪家公司") and names none of them: the entities compared are every one holding
a fact of the rows read, the home entity left out when two or more others hold one (the
group is their whole, not one of them). The extreme is then taken over them as over a
list the question wrote ("Hong Kong or Mainland China"), each figure cited.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.labels import entity_label
from ragspine_nb.agent.reading.question_kind import KIND_LABEL, TARGET_ITEM, QuestionKind
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.protocols import FactReader

__all__ = ["Compared", "compared_entities", "compared_note"]

_WHICH = re.compile(
    r"(?<![a-z])which\s+(?:one\s+)?(?:of\s+(?:the|these|those|our)\s+)?(?:\w+\s+)?"
    r"(?:compan(?:y|ies)|firms?|issuers?|registrants?|business(?:es)?|regions?|segments?|"
    r"entit(?:y|ies)|subsidiar(?:y|ies)|markets?|geograph(?:y|ies)|divisions?|"
    r"operating units?)(?![a-z])"
    r"|哪(?:个|家|一个|一家|些)(?:公司|地区|区域|分部|业务|市场|企业|子公司)")


def _none_named(intent: ParsedIntent, noun: str, profile: DomainProfile) -> bool:
    """No entity named, but the home one read from the noun itself ("which company")."""
    said = fold(intent.mentions.get("entity", ""))
    return not intent.entities or (intent.entities == (profile.home_entity_code,)
                                   and bool(said) and said in noun)


@dataclass(frozen=True)
class Compared:
    """The intent with the entities compared, and those stating no figure of it (named).

    ``assumed``: the fiscal year taken when the question names none (said in the note).
    """

    intent: ParsedIntent
    without: tuple[str, ...] = ()
    assumed: bool = False


def _stated(store: FactReader, codes: list[str], rows: set[str]
            ) -> dict[str, set[tuple[str, str]]]:
    """The periods each of ``codes`` states one of ``rows`` for (read once)."""
    return {c: {(f.period_type, f.period) for m in rows
                for f in store.iter_facts(metric_code=m, entity=c)} for c in codes}


def _latest_common(stated: dict[str, set[tuple[str, str]]]) -> str | None:
    """The latest fiscal year two or more of them state."""
    years = Counter(p for periods in stated.values() for k, p in periods if k == "FY")
    return max((y for y, n in years.items() if n >= 2), default=None)


def compared_entities(intent: ParsedIntent, kind: QuestionKind, store: FactReader,
                      profile: DomainProfile) -> Compared:
    """Every entity holding the rows' facts in the periods named, for a which-company ask.

    Only a which-item question (:class:`QuestionKind` label, item) naming no entity, one
    or more rows, and a company or part of one as its noun; otherwise unchanged. Those
    stating facts but none of the rows in the periods named are left out and named
    (``without``): the answer says it compared the others.
    """
    found = _WHICH.search(fold(intent.raw_question))
    if kind.kind != KIND_LABEL or kind.target != TARGET_ITEM or not intent.metrics or \
            found is None or not _none_named(intent, found.group(0), profile):
        return Compared(intent)
    rows = set(intent.metrics)
    stating = [code for code in profile.entities if store.metric_channels(code)]
    others = [code for code in stating if code != profile.home_entity_code]
    candidates = others if len(others) >= 2 else stating
    stated = _stated(store, candidates, rows)
    year = None if intent.periods else _latest_common(stated)
    if year is not None:  # "which company had the highest revenue?": the latest year shared
        intent = replace(intent, periods=(("FY", year),), period=("FY", year))
    compared = tuple(c for c in candidates if stated[c] and (
        not intent.periods or stated[c] & set(intent.periods)))
    if len(compared) < 2:
        return Compared(intent)
    return Compared(replace(intent, entities=compared, entity=compared[0]),
                    tuple(c for c in candidates if c not in compared), year is not None)


def compared_note(profile: DomainProfile, without: tuple[str, ...],
                  periods: tuple[tuple[str, str], ...], lang: str,
                  assumed: bool = False) -> str:
    """What the answer says of the entities left out of the comparison, and the year taken.

    >>> from ragspine_nb.profile import DomainProfile
    >>> p = DomainProfile.builtin()
    >>> compared_note(p, ("NETFLIX",), (("FY", "2022"),), "en")
    '(Compared: those with a stored figure for FY2022; none stored for NETFLIX.)'
    >>> compared_note(p, (), (("FY", "2023"),), "en", assumed=True)
    '(Assuming FY2023, the latest fiscal year two or more of them state.)'
    """
    names = [entity_label(profile, code) for code in without]
    when = "、".join(period_label(*p) for p in periods) if lang == "zh" else \
        " or ".join(period_label(*p) for p in periods)
    year = ((f"（假设：{when}，即两家及以上列示的最近财年）" if lang == "zh" else
             f"(Assuming {when}, the latest fiscal year two or more of them state.)")
            if assumed else "")
    if not names:
        return year
    return f"{year}{'' if lang == 'zh' or not year else ' '}{_left_out(names, when, lang)}"


def _left_out(names: list[str], when: str, lang: str) -> str:
    if lang == "zh":
        return f"（仅比较已存储{when}数字的各方；{'、'.join(names)}无已存储的数字）"
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    end = "" if listed.endswith(".") else "."
    return f"(Compared: those with a stored figure for {when}; none stored for {listed}{end})"
