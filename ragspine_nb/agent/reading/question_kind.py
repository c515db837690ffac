"""What a question asks for: a number, a label (a year, an item) or text.

A question asking for a number ("What was revenue in 2019?", "the average …", "how
many years …") may get a headline figure. One asking for a **label** — which year or
period ("In which year was revenue higher?", "哪一年…") or which item ("Which segment
had the largest …") — is answered by naming the winner as text, with the compared
values shown as inputs: a year is not a headline number. One asking for **text** — a
reason, a description, a definition, a method, a list of items or components, a place
or a date ("Why …", "How is … determined?", "What does … consist of?", "What are the
components of …", "Where …", "When was …", "为什么…", "包括哪些…") — never gets a table
figure as its headline: it goes to the narrative channel.

Pure reading of the question's words (English and Chinese), no profile, no store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.glossary import fold

__all__ = ["QuestionKind", "question_kind", "as_question", "uncontracted", "KIND_NUMBER",
           "KIND_LABEL", "KIND_TEXT", "TARGET_PERIOD", "TARGET_ITEM", "TARGET_DIRECTION",
           "TARGET_SPREAD", "KINDS", "direction_words"]

KIND_NUMBER = "number"
KIND_LABEL = "label"
KIND_TEXT = "text"
KINDS: tuple[str, ...] = (KIND_NUMBER, KIND_LABEL, KIND_TEXT)
#: What a label question names: a period (a year, a quarter) or an item (a row, a column).
TARGET_PERIOD = "period"
TARGET_ITEM = "item"
#: A label naming which way a figure moved ("Has the quick ratio improved or declined?").
TARGET_DIRECTION = "direction"
#: A label on how much a figure moved from year to year ("Are its margins consistent?").
TARGET_SPREAD = "spread"

#: A period asked for; "year on year", "year-over-year" qualify a change and ask none.
_PERIOD_NOUN = (r"(?:fiscal )?(?:years?(?![- ](?:on|over|to)[- ]years?\b)|fy|periods?|quarters?|"
                r"months?|half[- ]years?|halves|dates?)")
#: "which" opening a clause: the question's own "which", not a relative pronoun.
_WHICH = r"(?:^|[,;:?]\s*)(?:(?:in|for|at|from|of|under|by|during|to|on|between) )?which\b"
_LABEL_PERIOD_EN = re.compile(
    rf"\bwhat (?:are|were) the {_PERIOD_NOUN}\b|{_WHICH}(?: of the)? {_PERIOD_NOUN}\b"
    rf"|(?:^|[,;:]\s*)(?:in )?what {_PERIOD_NOUN}\b"
    rf"|\bwhich {_PERIOD_NOUN} (?:was|were|is|are|did|does|had|has|have|saw|recorded)\b")
#: "What is the component that contributed the most …": which item, asked with "what"
_ITEM_NOUN = (r"(?:components?|segments?|items?|categor(?:y|ies)|regions?|countr(?:y|ies)|"
              r"products?|business(?:es)?|divisions?|sources?|types?|elements?|lines?|units?)")
_LABEL_ITEM_EN = re.compile(
    rf"{_WHICH}(?! {_PERIOD_NOUN}\b)"
    rf"|\bwhat (?:is|was|are|were) the (?:[a-z-]+ )?{_ITEM_NOUN} (?:that|which|with)\b"
    r"(?=.*\b(?:most|least|highest|lowest|largest|smallest|greatest|biggest)\b)")
_WHEN_EXTREME = re.compile(r"(?:^|[,;:]\s*)when (?:was|were|did|is|are)\b.*\b(?:highest|lowest|"
                           r"largest|smallest|most|least|greatest|higher|lower|larger|smaller|"
                           r"greater|peak|peaked|maximum|minimum)\b")
_LABEL_PERIOD_ZH = re.compile(r"哪(?:一|个)?(?:年|财年|年度|期|季度|个月|月|半年)")
_LABEL_ITEM_ZH = re.compile(r"哪(?:一|个|家|项)")

#: Words of a movement: up, down, or one way or the other ("improve", "deteriorate").
_UP_WORDS = r"increas(?:e|ed|es|ing)|grow(?:s|n|ing)?|grew|ris(?:e|es|en|ing)|rose|go(?:ne)? up"
_DOWN_WORDS = (r"decreas(?:e|ed|es|ing)|declin(?:e|ed|es|ing)|fall(?:s|en|ing)?|fell|"
               r"drop(?:s|ped|ping)?|shr(?:ink|inks|ank|unk|inking)|go(?:ne)? down")
_EITHER_WORDS = (r"improv(?:e|ed|es|ing)|deteriorat(?:e|ed|es|ing)|worsen(?:ed|s|ing)?|"
                 r"trend(?:s|ing)?")
#: A yes/no or either-way question about how a figure moved ("Did revenue increase from
#: 2018 to 2019?", "Has the quick ratio improved or declined between FY2022 and FY2023?",
#: "Does the company have an improving margin profile?") — never one about a movement's
#: cause ("Was the decrease due to …") nor one naming "the increase in" as a thing.
_DIRECTION_EN = re.compile(
    rf"^(?:is|are|was|were|has|have|had|did|does|do)\b(?:(?!\b(?:the|an?|this|that) "
    rf"(?:{_UP_WORDS}|{_DOWN_WORDS})\b).)*?\b(?P<word>{_UP_WORDS}|{_DOWN_WORDS}|{_EITHER_WORDS})\b")
_UP = re.compile(rf"\b(?:{_UP_WORDS})\b|增长|上升|提高")
_DOWN = re.compile(rf"\b(?:{_DOWN_WORDS})\b|下降|减少|降低")
_EITHER = re.compile(rf"\b(?:{_EITHER_WORDS})\b|改善|恶化")
_DIRECTION_ZH = re.compile(r"(?:是否|有没有|有无)(?P<word>增长|上升|提高|改善|下降|减少|降低|恶化)")
#: A yes/no question comparing a figure of one period with another's ("Was revenue higher
#: in FY2025 than in FY2024?", "2025年营业收入是否高于2024年？"): which way it moved, asked
#: (:func:`~ragspine_nb.agent.reading.comparative.compared_direction`); never an amount
#: ("higher than $5 billion" is a test).
_COMPARED_EN = re.compile(
    r"^(?:is|are|was|were)\b.*?\b(?P<word>higher|lower|larger|smaller|greater|bigger|more|"
    r"less)\b.*?\bthan\s+(?!\$|€|£|¥|\d[\d,.]*\s*(?:%|percent|million|billion|thousand|"
    r"bn\b|m\b|k\b))")
_COMPARED_ZH = re.compile(r"是否(?P<word>高于|低于|多于|少于|大于|小于)")
#: A yes/no question on how steady a figure is ("Are Best Buy's gross margins historically
#: consistent?", "Is revenue volatile?", "毛利率是否稳定？").
_STEADY_EN = re.compile(
    r"^(?:is|are|was|were|has|have|had|did|does|do)\b.*?\b(?P<word>consistent|inconsistent|"
    r"stable|unstable|steady|volatile|fluctuat(?:e|ed|es|ing))\b")
_STEADY_ZH = re.compile(r"(?:是否|有没有|有无)(?P<word>稳定|波动)")
_CAUSE = re.compile(r"\b(?:why|due to|because|driven by|caused by|attributable|result of|"
                    r"reason|as a result)\b|原因|为什么|由于")
#: Methods, reasons, definitions, components, places and dates.
_METHOD_VERB = (r"(?:determined|calculated|computed|derived|measured|estimated|recogni[sz]ed|"
                r"defined|accounted(?: for)?|presented|classified|valued|tested|amortized|"
                r"depreciated|treated|reported|allocated|assessed|funded|obtained|settled|"
                r"recorded|disclosed|applied|used|made up|arrived at|established|set|charged|"
                r"expensed|capitalized|financed|paid|incurred|attributed|divided|estimate|"
                r"stated|carried|"
                r"define|determine|calculate|compute|derive|measure|recogni[sz]e|account|"
                r"classify|value|allocate|assess|record|disclose|apply|attribute|divide|"
                r"manage|mitigate|hedge|benefit)")
_TEXT_EN = re.compile("|".join((
    r"\bwhy\b", r"\bhow (?:come|often|long)\b",
    r"\bwhat (?:impacted|impacts|affected|affects|influenced|influences|happens|happened|"
    r"would happen|benefits?)\b",
    r"\b(?:due|attributable|attributed|driven|influenced|impacted|affected|caused|limited|"
    r"according|in accordance|recogni[sz]ed|reclassified|classified|related|compared) (?:to|by|"
    r"as|with)\s*[?.!]*$",
    r"^(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should) ",
    r"^what (?:is|are) (?!the\b|a\b|an\b|our\b|its\b|their\b|total\b)[^\d?]{1,60}\?*$",
    rf"\bhow (?:is|are|was|were|do|does|did|will|would|can|should)\b(?!.*\bhow much\b)"
    rf"(?:(?!\bhow (?:much|many)\b).)*\b{_METHOD_VERB}\b",
    r"\bwhat (?:caused|causes|led to|leads to|drove|drives|contributed|contributes|resulted|"
    r"results|explains|accounted for|could|would|might|factors?)\b",
    r"\bwhat (?:is|are|was|were) (?:the )?(?:main |primary |key |principal )?"
    r"(?:reasons?|causes?|drivers?|factors?|purposes?|basis|methods?|approach|policy|"
    r"policies|nature|definition|meaning|terms?|conditions?|objectives?|criteria|"
    r"assumptions?|inputs?)\b",
    r"\bwhat (?:does|do|did|will|would) .*\b(?:represent|include|exclude|consist|comprise|refer|"
    r"mean|cover|relate|reflect|contain|involve|indicate|measure|stand for|entail|"
    r"describe|require|do|use|show|complete|approve|acquire|combine|announce|adopt|"
    r"sign|launch|follow|have|result|arise|stem|originate)(?:s|es|ed|d)?\b",
    # "the company's main cost of revenue": which item, not an amount
    r"\bwhat (?:is|are|was|were) (?:the )?(?:(?:company|group|firm)(?:'s|’s) |its |their |our )?"
    r"(?:main|primary|principal|major) (?!reasons?\b|causes?\b)",
    r"\bwhat (?:is|are|was|were) (?:included|excluded|comprised|contained|recorded|"
    r"recogni[sz]ed|presented|disclosed|reported) (?:in|within|as|under)\b",
    r"\bwhat (?:is|are|was|were) the (?:[a-z-]+ ){0,2}(?:components|segments|types|"
    r"categories|kinds|items|elements|sources|classes|scopes|constituents|parts|businesses|"
    r"products|services|instruments|programs|plans|risks|regions|countries|names|entities|"
    r"activities|impacts|effects|steps)(?:\s*\??$| (?:in|of|that|which|listed|included|"
    r"used|considered|making|under|the|does|do|for|shown)\b)",
    r"\bwhat (?:financial )?(?:items|information|types|kinds|categories|sorts|classes|"
    r"entitlements|services|segments|regions|activities)\b",
    r"\b(?:what|which) (?:method|approach|standard|model|basis|valuation technique|"
    r"accounting policy)\b",
    r"\bwhat (?:are|were) (?:they|these|those)\b",
    r"^\s*(?:where|who|whom|whose)\b", r"(?:^|[,;:]\s*)(?:where|who)\b",
    r"(?:^|[,;:]\s*)when (?:was|were|is|are|did|does|do|will|would|can|should|has|have)\b",
    r"\b(?:describe|explain|summari[sz]e|elaborate)\b",
    r"\bwhat is meant by\b", r"\bmeaning of\b", r"\bis defined as\b",
    # "What was the last fiscal year of expiration for …": a date, not an amount
    r"\bwhat (?:is|are|was|were) the (?:(?:earliest|latest|last|first|final|next|expected|"
    r"expiration|expiry|maturity|due|effective|grant|closing) )*(?:fiscal )?(?:years?|dates?) "
    r"(?:of|when|in which|on which)\b",
    # "What are total segment assets composed of?": the components, not the amount
    r"\b(?:composed|made up|comprised|consist(?:s|ed)?|constituted) of\s*\?*$",
)))
_TEXT_ZH = re.compile("|".join((
    "为什么", "为何", "原因", "是什么", "指什么", "什么是", "定义", "含义", "如何(?:确定|计算|"
    "衡量|核算|计量|确认|定义|评估|得出)", "怎么(?:算|计算|确定)", "由哪些", "包括哪些",
    "包含哪些", "有哪些", "构成", "组成", "何时", "什么时候", "哪里", "在哪", "谁", "解释",
    "说明", "描述", "驱动因素", "导致",
)))
#: A question that asks for an amount in so many words stays a number question even if
#: it also names a reason ("How much of the increase was due to …").
_NUMBER_EN = re.compile(r"\bhow (?:much|many)\b|\bwhat (?:was|is|were|are) the (?:amount|"
                        r"value|number|total|sum|average|percentage|ratio|change|difference)\b"
                        r"|\b(?:what|which) (?:percentage|proportion|portion|amount)\b")
_NUMBER_ZH = re.compile(r"多少|几")


@dataclass(frozen=True)
class QuestionKind:
    """What a question asks for.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`: ``number``, ``label`` or ``text``.
    target : str
        For a label: :data:`TARGET_PERIOD` (which year / period) or :data:`TARGET_ITEM`
        (which row, column or segment); empty otherwise.
    cue : str
        The words that decided it (empty for a number: the default).
    """

    kind: str
    target: str = ""
    cue: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"QuestionKind.kind {self.kind!r} is not valid. Valid: "
                             f"{list(KINDS)}")

    @property
    def asks_number(self) -> bool:
        """Whether a headline figure may answer it."""
        return self.kind == KIND_NUMBER


def _first(text: str, *patterns: re.Pattern[str]) -> re.Match[str] | None:
    found = [m for m in (p.search(text) for p in patterns) if m]
    return min(found, key=lambda m: m.start()) if found else None


def direction_words(text: str) -> str:
    """Which way a folded question asks whether a figure moved: ``up``, ``down`` or ``""``.

    ``""`` when it names both ways ("increased or decreased") or neither ("improved":
    whether up is better depends on the figure).

    Examples
    --------
    >>> direction_words("did revenue increase from 2018 to 2019?")
    'up'
    >>> direction_words("has the quick ratio improved or declined?")
    ''
    """
    up, down = _UP.search(text), _DOWN.search(text)
    if _EITHER.search(text) or bool(up) == bool(down):
        return ""
    return "up" if up else "down"


def _label(text: str) -> QuestionKind | None:
    direction = _first(text, _DIRECTION_EN, _DIRECTION_ZH, _COMPARED_EN, _COMPARED_ZH)
    sentence = re.split(r"[?？。!]", text, maxsplit=1)[0]  # not a later instruction's "why"
    steady = _first(text, _STEADY_EN, _STEADY_ZH)
    if steady and not _CAUSE.search(sentence):
        return QuestionKind(KIND_LABEL, TARGET_SPREAD, steady.group("word"))
    if direction and not _CAUSE.search(sentence):
        return QuestionKind(KIND_LABEL, TARGET_DIRECTION, direction.group("word"))
    period = _first(text, _LABEL_PERIOD_EN, _LABEL_PERIOD_ZH, _WHEN_EXTREME)
    if period:
        return QuestionKind(KIND_LABEL, TARGET_PERIOD, period.group(0).strip(" ,;:"))
    item = _first(text, _LABEL_ITEM_EN, _LABEL_ITEM_ZH)
    if item and not _first(text, _NUMBER_EN, _NUMBER_ZH):
        return QuestionKind(KIND_LABEL, TARGET_ITEM, item.group(0).strip(" ,;:"))
    return None


#: A request written as an imperative ("List the items under …", "Show me the years …",
#: "Could you tell me the components of …").
_IMPERATIVE = re.compile(r"^\s*(?:please\s+)?(?:(?:can|could|would)\s+you\s+(?:please\s+)?)?"
                         r"(?:show|list|name|identify|tell|give|provide|state)\s+"
                         r"(?:me\s+|us\s+)?(?=the\b)", re.IGNORECASE)


#: The owner written before the thing asked ("the company's segments", "its segments"):
#: the kind of question does not depend on it.
_OWNER = re.compile(r"\b(?:the\s+(?:company|group|firm)['’]s|its|their|our)\s+(?=[a-z])",
                    re.IGNORECASE)


#: A question word contracted with "is" ("What's included in …").
_CONTRACTED = re.compile(r"\b(what|where|who|how|which|when)['’]s\b", re.IGNORECASE)


def as_question(text: str) -> str:
    """``text`` with an opening request read as the question it stands for, owner apart.

    >>> as_question("List the items under deferred tax liabilities")
    'what are the items under deferred tax liabilities'
    >>> as_question("Could you tell me the years included in the table?")
    'what are the years included in the table?'
    >>> as_question("Show why revenue fell")
    'Show why revenue fell'
    >>> as_question("What are the company's segments of revenue?")
    'What are the segments of revenue?'
    >>> as_question("What's included in Service delivery costs?")
    'What is included in Service delivery costs?'
    """
    return _OWNER.sub("the ", _IMPERATIVE.sub("what are ", uncontracted(text), count=1))


def uncontracted(text: str) -> str:
    """A question word contracted with "is" written out.

    >>> uncontracted("What's the plan? Where’s it stated?")
    'What is the plan? Where is it stated?'
    """
    return _CONTRACTED.sub(r"\1 is", text)


def question_kind(question: str) -> QuestionKind:
    """What ``question`` asks for: a number (the default), a label or text.

    A which-year / which-period question is a label before anything else ("In which year
    was revenue higher?"); a which-item question is one unless it asks for an amount
    ("Which amount …", "how much"); a reason, method, definition, list of components,
    place or date is text unless the question asks "how much / how many" or for "the
    amount / value / total / change …" in so many words.

    Examples
    --------
    >>> question_kind("What was revenue in 2019?").kind
    'number'
    >>> question_kind("In which year was revenue higher?")
    QuestionKind(kind='label', target='period', cue='in which year')
    >>> question_kind("How is the discount rate determined?").kind
    'text'
    >>> question_kind("哪一年的营业收入更高？").target
    'period'
    >>> question_kind("为什么2025年营运利润下降？").kind
    'text'
    >>> question_kind("Has the quick ratio improved or declined between FY2022 and FY2023?")
    QuestionKind(kind='label', target='direction', cue='improved')
    >>> question_kind("Are Best Buy's gross margins historically consistent?").target
    'spread'
    >>> question_kind("Show the year on year percentage change in revenue").kind
    'number'
    >>> question_kind("Tell me the increase in inventory due to.").kind
    'text'
    """
    text = fold(as_question(question))
    label = _label(text)
    if label is not None:
        return label
    number = _first(text, _NUMBER_EN, _NUMBER_ZH)
    found = _first(text, _TEXT_EN, _TEXT_ZH)
    if found and not (number and number.start() <= found.start()):
        return QuestionKind(KIND_TEXT, cue=found.group(0).strip(" ,;:"))
    return QuestionKind(KIND_NUMBER)
