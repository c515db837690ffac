"""What a text question asks for, and whether a sentence says that kind of thing.

A question's **focus** is read from its wording alone (English and Chinese), never from a
dataset's phrases: "why …" / "what caused …" / 为什么 asks for a *cause*; "how is X
determined" / "what does X represent" for a *definition*; "what does X include" /
"what are the components of" for a *list*; "how long" / "over what period" for a
*duration*; "when" for a *time*; "what does the table show" for the *table*'s
description; "what was the key agenda of the 8-K" for the *event* a filing reports;
"what industry does X operate in" for the *business* it describes itself as being in
("Today, we are a global leader in … packaging"); anything else is *general*. A sentence
**answers** a focus when it carries the words that kind of answer is written with ("due
to", "because", "driven by", 由于 … for a cause; "is defined as", "represents", 是指 … for
a definition; "include", "consist of", 包括 … for a list; "On June 30, 2022, …" for the
event a filing reports; "we are a global leader in …" for the business).

The extractive synthesis (:mod:`ragspine_nb.agent.narrative.extractive`) ranks sentences by the
question's terms and raises those that answer its focus.
"""

from __future__ import annotations

import re

from ragspine_nb.agent.reading.question_kind import uncontracted
from ragspine_nb.lexicon import MONTH

__all__ = ["FOCI", "question_focus", "answers_focus", "introduces_table", "is_anaphoric",
           "reports_event", "describes_business"]

#: The kinds of answer a text question can ask for.
FOCI: tuple[str, ...] = ("cause", "definition", "method", "list", "duration", "frequency",
                         "time", "table", "event", "business", "general")

_I = re.IGNORECASE
#: Question wording per focus, tried in this order (the first that matches wins).
_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("table", re.compile(
        r"\b(?:what|which)\b[^?]*\b(?:does|do|did|is|are)\s+(?:the|this)\s+table\s+"
        r"(?:show|present|represent|provide|contain|depict|display|summari[sz]e|detail)"
        r"|\bwhat\s+(?:is|are)\s+(?:shown|presented|provided|summari[sz]ed)\s+in\s+the\s+table"
        r"|(?:表格?|下表|该表|此表)(?:显示|列示|展示|反映|说明)了?(?:什么|哪些)", _I)),
    ("event", re.compile(
        r"\bagenda\b|\bwhat\s+(?:is|was|were|are)\s+(?:the\s+)?(?:main\s+|key\s+|primary\s+)?"
        r"(?:purpose|subject|topic|matters?|events?|news)\s+(?:of|in|reported)\b[^?]*"
        r"\b(?:filing|8-?k|report|release|announcement)\b|\bwhat\s+(?:is|was|does|did)\s+"
        r"[^?]{0,60}\b(?:filing|8-?k|release|announcement)\s+(?:about|announce|report|"
        r"disclose)\b|主要内容|议程|主要事项", _I)),
    ("business", re.compile(
        r"\bwhat\s+(?:industry|industries|sector|sectors|line\s+of\s+business|lines\s+of\s+"
        r"business)\b|\bwhat\s+(?:kind|type|sort)\s+of\s+(?:company|business)\b|"
        r"\b(?:core|main|primary|principal)\s+business(?:es)?\b(?!\s+(?:segments?|units?))|"
        r"主营业务|什么行业|哪个行业|哪一行业", _I)),
    ("cause", re.compile(
        r"\bwhy\b|\bwhat\s+(?:caused|causes|led|leads|drove|drives|contributed|resulted|"
        r"accounted|accounts|triggered|impacted|affected|explains?)\b|\breasons?\b|"
        r"\bdue\s+to\s+what\b|\bdriven\s+by\s+what\b|\bwhat\s+(?:is|was|were|are)\s+"
        r"(?:the\s+)?(?:increase|decrease|decline|rise|fall|change|drop|growth|reduction)"
        r"[^?]*\b(?:due|attributable|attributed)\s+to\b|\b(?:due|attributable|attributed)\s+"
        r"to\s*\??$|为什么|为何|原因|何故|什么导致|哪些因素|由于什么", _I)),
    ("method", re.compile(
        r"\bhow\s+(?:does|do|did|is|are|was|were|will)\b[^?]*\b(?:estimate|estimated|"
        r"determine|determined|calculate|calculated|compute|computed|measure|measured|"
        r"account|accounted|recogni[sz]e|recogni[sz]ed|value|valued|assess|assessed|"
        r"allocate|allocated|derive|derived|attribute|attributed|test|tested|arrive)\b"
        r"|如何(?:计算|确定|估计|计量|确认)|怎么(?:计算|确定|估计)", _I)),
    ("list", re.compile(
        r"\bwhat\s+(?:does|do|did)\b[^?]*\b(?:include|consist|comprise|contain|cover)\b|"
        r"\bwhat\s+(?:is|are|was|were)\s+(?:included|comprised|contained)\b|"
        r"\b(?:components?|constituents?|elements?|items?|types?|kinds?|categories|"
        r"segments?|classes)\s+of\b|\bwhat\s+(?:types?|kinds?|items?|components?)\b|"
        r"\bconsists?\s+of\b|包括哪些|包含哪些|由哪些|哪些(?:项目|组成|部分|类别)|构成", _I)),
    ("definition", re.compile(
        r"\bwhat\s+does\b[^?]*\b(?:mean|represent|refer|stand\s+for|define)\b|"
        r"\bhow\s+(?:is|are|does|do)\b[^?]*\bdefined?\b|\bdefin(?:e|ition)\b|"
        r"\bwhat\s+(?:is|are)\s+(?:a|an|the)?\s*[^?]{0,60}\?\s*$|是指什么|是什么|什么是|定义",
        _I)),
    ("duration", re.compile(
        r"\bhow\s+long\b|\bover\s+(?:what|which|how\s+many)\b|\bwhat\s+(?:is|was|were|are)\s+"
        r"the\s+(?:\w+\s+){0,4}(?:period|term|life|duration|lives)\b|\bduration\b|"
        r"多长时间|多久|期限", _I)),
    ("frequency", re.compile(r"\bhow\s+(?:often|frequently)\b|\bhow\s+many\s+times\b|"
                             r"\bat\s+what\s+(?:frequency|intervals?)\b|多久一次|频率", _I)),
    ("time", re.compile(r"\bwhen\b|\bwhat\s+(?:date|time)\b|\bwhich\s+(?:date|day|month)\b|"
                        r"什么时候|何时|哪一天", _I)),
)

#: How a filing's item opens its report of an event: "On June 30, 2022, …", 2022年6月30日.
_EVENT_DATE = (rf"on\s+{MONTH}\s+\d{{1,2}},\s+(?:19|20)\d\d,"
               r"|(?:于|在)?\d{4}年\d{1,2}月\d{1,2}日")
#: Sentence wording that answers a focus.
_ANSWERS: dict[str, re.Pattern[str]] = {
    "cause": re.compile(
        r"\b(?:due\s+to|because|driven\s+by|as\s+a\s+result\s+of|result(?:ed|ing|s)?\s+(?:of|from)|"
        r"attributable\s+to|attributed\s+to|primarily|mainly|largely|principally|partially|"
        r"reflect(?:s|ed|ing)?|owing\s+to|led\s+by|caused\s+by|offset\s+by|benefit(?:ed|ted|"
        r"ing|ting)?\s+from|thanks\s+to|on\s+account\s+of|after|impacted\s+by|"
        r"affected\s+by)\b|由于|因为|主要(?:原因|是|受|由于|得益于)|受|得益于|带动|导致|所致|"
        r"影响", _I),
    "definition": re.compile(
        r"\b(?:is|are)\s+defined\s+as|\bdefines?\b|\bmeans?\b|\brefers?\s+to\b|"
        r"\brepresents?\b|\b(?:is|are)\s+(?:calculated|determined|computed|measured|"
        r"based)\b|\bconsists?\s+of\b|\bcomprises?\b|\bequals?\b|\bis\s+the\b|\bare\s+the\b|"
        r"是指|指的是|定义为|即", _I),
    "method": re.compile(
        r"\busing\b|\bbased\s+on\b|\bby\s+(?:applying|using|reference|comparing|"
        r"multiplying|dividing|taking|estimating)\b|\bmethod\b|\bmodel\b|\bapproach\b|"
        r"\btechnique\b|\bcalculated\b|\bdetermined\b|\bestimated\b|\bmeasured\b|"
        r"采用|使用|根据|按照|基于", _I),
    "list": re.compile(r"\binclud(?:e|es|ed|ing)\b|\b(?:consist(?:s|ed)?|compris(?:e|es|ed)|"
                       r"made\s+up|composed)\s+(?:\w+ly\s+)?of\b|\bcompris(?:e|es|ed)\b|"
                       r"\bsuch\s+as\b|\bnamely\b|"
                       r"包括|包含|由.{1,20}组成|分别", _I),
    "duration": re.compile(r"\b\d+(?:\.\d+)?\s*(?:-\s*)?(?:years?|months?|weeks?|days?)\b|"
                           r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|"
                           r"twelve|fifteen|twenty|thirty)\s+(?:years?|months?|weeks?|days?)\b"
                           r"|\d+\s*(?:年|个月|天)", _I),
    "frequency": re.compile(r"\b(?:annually|quarterly|monthly|weekly|daily|semi-?annually|"
                            r"biannually|yearly|each\s+(?:year|quarter|month)|every\s+(?:\w+\s+)?"
                            r"(?:years?|quarters?|months?|weeks?|days?)|(?:once|twice)\s+a\s+"
                            r"(?:year|quarter|month)|per\s+(?:year|annum|quarter|month))\b|"
                            r"每年|每季|每月|每周", _I),
    "time": re.compile(rf"\b{MONTH}\s+"
                       r"\d{1,2}\b|\b(?:19|20)\d\d\b|\b(?:during|since|until|in)\s+"
                       r"(?:fiscal\s+)?(?:19|20)\d\d\b|\d{4}年", _I),
    "event": re.compile(rf"^\s*(?:{_EVENT_DATE})", _I),
    "business": re.compile(
        r"\b(?:we\s+are|is|are)\s+(?:a|an|the|one\s+of\s+the)\s+(?:[\w,'’-]+\s+){0,5}?"
        r"(?:leaders?|compan(?:y|ies)|manufacturers?|providers?|retailers?|producers?|"
        r"makers?|developers?|designers?|suppliers?|distributors?|conglomerates?|banks?|"
        r"insurers?|marketers?|networks?|brands?|platforms?)\b"
        r"(?![^.]*\b(?:incorporated|shell\s+company)\b)|主要从事|主营业务(?:为|是)", _I),
    "table": re.compile(r"\bas\s+follows\b|\bfollowing\s+(?:table|tables|schedule|summary)\b|"
                        r"\btables?\s+below\b|\b(?:set\s+out|shown|presented|summari[sz]ed|"
                        r"detailed|provided|disclosed|listed)\s+(?:below|in\s+the\s+"
                        r"(?:following|table))\b|:\s*$|如下|下表", _I),
}
#: "the decrease in revenue …" names what moved; "in fiscal 2023", "of $5 million" do not
_OWN_SUBJECT = (r"\s+(?:in|of)\s+(?!(?:the\s+)?(?:fiscal|first|second|third|fourth|current|"
                rf"prior|year|quarter|q[1-4]\b|\d|\$|{MONTH}))")
_ANAPHOR = re.compile(r"^\s*(?:this|these|those|that|such|it|they|the\s+(?:increase|"
                      r"decrease|decline|rise|fall|change|growth|reduction|improvement|"
                      rf"higher|lower|difference|variance)\b(?!{_OWN_SUBJECT}))\b"
                      r"|^\s*(?:这|此|该|上述)", _I)


def question_focus(question: str) -> str:
    """What kind of answer the question asks for (one of :data:`FOCI`).

    Examples
    --------
    >>> [question_focus(q) for q in ("Why did revenue fall?", "What caused the increase?",
    ...                              "How is the fair value determined?",
    ...                              "What does other income include?",
    ...                              "Over what period will the cost be recognized?",
    ...                              "What does the table show?", "为什么银保下降？",
    ...                              "What is EBITDA?", "What was revenue in 2019?")]
    ['cause', 'cause', 'method', 'list', 'duration', 'table', 'cause', 'definition', 'general']
    """
    text = " ".join(uncontracted(question).split())
    return next((name for name, pattern in _ASKS if pattern.search(text)), "general")


def answers_focus(sentence: str, focus: str) -> bool:
    """Whether the sentence is worded the way an answer of ``focus`` is.

    Examples
    --------
    >>> answers_focus("Sales fell, primarily due to lower volumes.", "cause")
    True
    >>> answers_focus("Other costs include rent, fees and travel.", "list")
    True
    >>> answers_focus("Revenue was $5 million.", "cause")
    False
    """
    pattern = _ANSWERS.get(focus)
    return bool(pattern and pattern.search(sentence))


def introduces_table(sentence: str) -> bool:
    """Whether the sentence introduces a table ("… were as follows:", "the following table").

    Examples
    --------
    >>> introduces_table("The tax effects of temporary differences were as follows:")
    True
    >>> introduces_table("Revenue grew 5%.")
    False
    """
    return bool(_ANSWERS["table"].search(sentence.strip()))


def is_anaphoric(sentence: str) -> bool:
    """Whether the sentence starts by pointing back ("This increase …", "The decrease was …").

    Such a sentence continues the one before it: it is about that sentence's subject.

    Examples
    --------
    >>> is_anaphoric("The increase was driven by higher rates."), is_anaphoric("Revenue rose.")
    (True, False)

    A movement that names what moved is about that, not the sentence before:

    >>> is_anaphoric("The decrease in revenue in fiscal 2023 was driven by lower sales.")
    False
    >>> [is_anaphoric(s) for s in ("The decrease in fiscal 2023 was due to lower volume.",
    ...                            "The increase of $5 million reflects higher rates.")]
    [True, True]
    """
    return bool(_ANAPHOR.match(sentence))


#: A sentence inside a passage that reports an event the way a filing's item does.
_EVENT_IN = re.compile(rf"(?:^|[\n¶。]|[.;]\s)\s*(?:{_EVENT_DATE})", _I)


def reports_event(passage: str) -> bool:
    """Whether a passage reports an event: a sentence opening "On June 30, 2022, …".

    What a current report (an 8-K's item, a press release) is about is written so.

    Examples
    --------
    >>> reports_event("Item 8.01 Other Events. On June 30, 2022, Amcor Finance entered into")
    True
    >>> reports_event("Date of Report (Date of earliest event reported): July 1, 2022")
    False
    """
    return bool(_EVENT_IN.search(passage))


def describes_business(passage: str) -> bool:
    """Whether a passage describes what the company is ("we are a global leader in …").

    Examples
    --------
    >>> describes_business("Today, we are a global leader in developing and producing "
    ...                    "responsible packaging for food and beverage products.")
    True
    >>> describes_business("Amcor plc is a public limited company incorporated in Jersey.")
    False
    """
    return bool(_ANSWERS["business"].search(passage))
