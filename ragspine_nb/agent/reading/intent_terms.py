"""Low-level text steps of intent parsing: term patterns, matches, masks and cues.

Pure functions over a folded question (:func:`~ragspine_nb.glossary.fold`); the parser
(:mod:`ragspine_nb.agent.reading.intent`) composes them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragspine_nb.agent.reading.cue_words import HOW_MUCH_MORE, SUBTRACTION
from ragspine_nb.lexicon import MONTH
from ragspine_nb.period_phrases import (
    EVERY_YEAR,
    LATEST_YEARS,
    ORDINALS,
    PHRASE,
    QUESTION_PERIOD,
)
from ragspine_nb.profile import DomainProfile
from ragspine_nb.vocab_matcher import VocabMatcher, shared_matcher
from ragspine_nb.wordset import content_words

__all__ = ["Terms", "compile_terms", "find_all", "mask", "list_cue", "has_cue", "word_set",
           "named_over_placeholder",
           "without_words", "unsigned_label", "bare_label", "without_percent",
           "part_of_year", "parts_of_year", "numbered_columns",
           "LIST_CUES"]

#: Words that make several metrics / entities an explicit list rather than an ambiguity.
LIST_CUES: tuple[str, ...] = ("和", "与", "及", "以及", "、", "对比", "比较", "分别", " and ",
                              " vs", "versus", "compare", "compared", "both", "each", ",")

#: A vocabulary compiled for :func:`find_all`.
Terms = VocabMatcher

_DATE_COMMA = re.compile(rf"\b{MONTH}\s*"
                         r"\d{1,2}\s*,")
#: A comma before a clause saying how a figure is measured, or before the question
#: itself ("In 2019, what was …", "For the segment, how much …") or before its period
#: ("revenue, in 2019": the period is masked as ``\x00`` by then), not before another item.
_CLAUSE_COMMA = re.compile(r",\s*(?=(?:based on|according to|in terms of|as reported|"
                           r"as presented|as shown|what|how|which|who|when|where|did|does|"
                           r"do|was|were|is|are|has|have|had|can|could|please|tell|give|"
                           r"show|find|list)\b|(?:in|for|during|as of|as at|at|over|on)?\s*\x00)")
_PHRASE = re.compile(rf"(?<![a-z0-9])(?:{PHRASE})|{EVERY_YEAR.pattern}|{LATEST_YEARS.pattern}")
_TOKEN = re.compile(r"%|[a-z0-9]+(?:[-'][a-z0-9]+)*")
_PAREN = re.compile(r"\([^()]*\)")
_TRAILING_PERCENT = re.compile(r"\s*[(\[]?\s*(?:%|(?<![a-z])(?:percentage|percent|pct))\s*[)\]]?"
                               r"\s*$", re.IGNORECASE)
_PART_OF_YEAR = re.compile(r"(?<![a-z])(?:(?:first|second|third|fourth|1st|2nd|3rd|4th)"
                           r"(?:\s+(?:and|&|or|to)\s+(?:first|second|third|fourth|1st|2nd|3rd|4th))?"
                           r"\s+(?:fiscal\s+)?(?:quarter|half)s?|q[1-4]|h[12])(?![a-z0-9])"
                           r"|(?<![a-z0-9.,])(?:[1-4]q|[12]h)(?![a-z0-9])")
#: A sign word opening a row label ("Less: valuation allowance", "Add: ...").
_SIGN = re.compile(r"^\s*(?:less|add|plus|deduct|minus)\b\s*:?\s*(?=\S)", re.IGNORECASE)


@lru_cache(maxsize=16384)
def word_set(text: str) -> frozenset[str]:
    """:func:`~ragspine_nb.wordset.content_words` of a token or a name, kept per text.

    For a question's single tokens and the profile's names, which recur from question
    to question (the result depends on the text alone); a whole question is read with
    ``content_words`` itself.

    >>> sorted(word_set("Net sales"))
    ['net', 'sale']
    """
    return content_words(text)


def compile_terms(vocab: dict[str, str]) -> Terms:
    """A vocabulary's matcher: longest term first, ASCII terms on word edges.

    Built once per distinct vocabulary and shared by every reader of a profile
    (:func:`~ragspine_nb.vocab_matcher.shared_matcher`): a lookup table, not a pattern
    per term.
    """
    return shared_matcher(vocab)


def find_all(text: str, terms: Terms) -> list[tuple[int, int, str, str]]:
    """Non-overlapping longest matches ``(start, end, code, term)`` in text order.

    A term matches as the pattern of the term between word edges would: an ASCII term
    where no letter or digit (nor a hyphenated word: "vested" is not in "non-vested")
    touches it, any other term wherever it is written.

    >>> find_all("net sales of non-vested units", compile_terms({"net sales": "NS",
    ...                                                          "sales": "S", "vested": "V"}))
    [(0, 9, 'NS', 'net sales')]
    """
    return terms.find_all(text)


def mask(text: str, spans: list[tuple[int, int, str, str]], fill: str = " ") -> str:
    """``text`` with each span written over with ``fill`` (same length; blanked by default)."""
    for start, end, _, _ in spans:
        text = text[:start] + fill * (end - start) + text[end:]
    return text


def without_phrases(text: str) -> str:
    """``text`` with each period phrase of several words blanked out (same length).

    "2018 year end" or "the year ended December 31, 2019" names a period, not the rows
    "At end of the year" or "Year ended"; "each fiscal year" names every year, not the
    row "For the fiscal year"; a bare year is kept (it may be part of a name).

    >>> without_phrases("transfers between 2018 year end and 2019")
    'transfers between               and 2019'
    """
    return _PHRASE.sub(lambda m: " " * len(m.group(0)), text)


_GROUPED = re.compile(r"(?<![\d,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")


_EACH_PERIOD = re.compile(r"\beach (?:fiscal |calendar )?(?:year|quarter|month|period)\b")


def list_cue(text: str) -> bool:
    """A list of metrics / entities, not "between 2018 and 2019" (periods are not a list).

    >>> list_cue("revenue in fy2021, fy2022 and fy2023"), list_cue("revenue each fiscal year")
    (False, False)
    >>> list_cue("revenue and net income in 2021"), list_cue("revenue of each segment")
    (True, True)

    One figure less another lists its two operands, as does "how much more … than …";
    "less than" lists nothing:

    >>> list_cue("revenue less cost of revenue"), list_cue("due in less than a year")
    (True, False)
    >>> list_cue("how much higher was revenue than cost of sales")
    True
    >>> list_cue("营业收入比营业成本高多少")
    True

    A comma that ends an opening phrase lists nothing:

    >>> list_cue("in fy2020, what was the license revenue?")
    False
    >>> list_cue("what was the license revenue, in fy2020?")
    False
    >>> list_cue("the change in revenue in 2019 compared to 2018")
    False
    """
    text = _DATE_COMMA.sub(" ", text)  # "as of December 31, 2019" is a date, not a list
    text = _GROUPED.sub(" ", text)  # "$1,000,000": one number
    text = QUESTION_PERIOD.sub(" \x00 ", text)  # a period ends a word ("fy2025 and")
    # every separator between two periods ("fy2021, fy2022 and fy2023"), not every other
    text = re.sub(r"(?<=\x00)\s*(?:and|to|&|vs\.?|versus|,|和|与|至|到|compared\s+(?:to|with)|"
                  r"against|relative\s+to)\s*(?=\x00)", " ", text)
    text = _CLAUSE_COMMA.sub(" ", text)  # "… in 2019, based on the location": no list
    text = _EACH_PERIOD.sub(" ", text)  # "each fiscal year" lists periods, not rows
    return any(cue in f" {text} " for cue in LIST_CUES) or bool(SUBTRACTION.search(text)) or \
        bool(HOW_MUCH_MORE.search(text) and (" than " in text or "比" in text))


def has_cue(text: str, cues: tuple[str, ...]) -> bool:
    """Whether one of ``cues`` occurs in ``text`` (ASCII cues as whole words)."""
    for cue in cues:
        if cue not in text:  # the pattern below is the cue itself between word edges
            continue
        if cue.isascii():
            if re.search(rf"(?<![a-z]){re.escape(cue)}(?![a-z])", text):
                return True
        elif cue in text:
            return True
    return False


def without_words(text: str, words: frozenset[str]) -> str:
    """``text`` with every token whose content words all lie in ``words`` blanked out.

    >>> without_words("the change in the percentage of total sales", frozenset({"percent",
    ...                                                                          "total"}))
    'the change in the            of       sales'
    """
    def blank(m: re.Match[str]) -> str:
        found = word_set(m.group(0).replace("%", "percent"))
        return " " * len(m.group(0)) if found and found <= words else m.group(0)
    return _TOKEN.sub(blank, text) if words else text


def bare_label(label: str) -> str:
    """A name without its parenthesised notes, nested ones too, else ``""``.

    >>> bare_label("Carrying amount (non-current (liabilities)/assets)")
    'Carrying amount'
    >>> bare_label("Transition costs and project assets(1)"), bare_label("Revenue")
    ('Transition costs and project assets', '')
    """
    bare = label
    while True:
        shorter = _PAREN.sub(" ", bare)
        if shorter == bare:
            break
        bare = shorter
    bare = " ".join(bare.split())
    return bare if bare != " ".join(label.split()) else ""


def without_percent(name: str) -> str:
    """A column's name without its percent sign or word ("External valuation %"), else ``""``.

    Only a trailing "%" is a unit marker: a share column ("% of Total Fees",
    "percentage total fees") keeps its name, without "%" it would name the whole.

    >>> without_percent("external valuation percent"), without_percent("Margin (%)")
    ('external valuation', 'Margin')
    >>> without_percent("percentage total fees"), without_percent("net sales")
    ('', '')
    """
    m = _TRAILING_PERCENT.search(name)
    return " ".join(name[:m.start()].split()) if m and name[:m.start()].strip() else ""


def unsigned_label(label: str) -> str:
    """A row label without the sign word that opens it ("Less: X" → "X"), else ``""``.

    >>> unsigned_label("Less: valuation allowance"), unsigned_label("Less off-hire days")
    ('valuation allowance', 'off-hire days')
    >>> unsigned_label("Lessor income")
    ''
    """
    bare = _SIGN.sub("", label)
    return bare if bare != label else ""


def part_of_year(text: str, named: frozenset[str]) -> str:
    """A quarter or half named in ``text`` whose words are not all in ``named``, else ``""``.

    ``text`` is the folded question without its period phrases' years read apart: the
    caller checks that no quarter or half was read as a period; ``named`` holds the words
    of the rows and columns named ("Third Quarter" rows, a "First" column).

    >>> part_of_year("the change between the second and first quarter in fiscal 2019",
    ...              frozenset())
    'second and first quarter'
    >>> part_of_year("the change between the third quarter and fourth quarter",
    ...              frozenset({"third", "fourth", "quarter"}))
    ''
    """
    for m in _PART_OF_YEAR.finditer(text):
        if not content_words(m.group(0)) <= named | {"quarter", "half", "fiscal"}:
            return m.group(0)
    return ""


def parts_of_year(text: str, year: str) -> list[tuple[str, str]]:
    """The quarters and halves ``text`` names without a year, as parts of ``year``.

    >>> parts_of_year("in 2019, the change between the third quarter and fourth quarter",
    ...               "2019")
    [('QUARTER', '2019Q3'), ('QUARTER', '2019Q4')]
    >>> parts_of_year("the second and first half", "2018")
    [('HY', '2018H2'), ('HY', '2018H1')]
    >>> parts_of_year("4q revenue", "2025")
    [('QUARTER', '2025Q4')]
    """
    out: list[tuple[str, str]] = []
    for m in _PART_OF_YEAR.finditer(text):
        said = m.group(0)
        if said[0] in "qh":
            out.append(("QUARTER" if said[0] == "q" else "HY", f"{year}{said.upper()}"))
            continue
        if said[-1] in "qh":  # "4q", "2h" (as analysts write them)
            out.append(("QUARTER" if said[-1] == "q" else "HY",
                        f"{year}{said[-1].upper()}{said[0]}"))
            continue
        half = "half" in said
        for n in (ORDINALS[w] for w in said.split() if w in ORDINALS):
            if half and n > 2:
                return []
            out.append(("HY", f"{year}H{n}") if half else ("QUARTER", f"{year}Q{n}"))
    return list(dict.fromkeys(out))


_COUNT = re.compile(r"(?<![\d.,])\d+(?:\.\d+)?(?![\d.,]*\d)")


def numbered_columns(text: str, columns: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The columns whose names hold a number ``text`` names ("within 5 years").

    ``text`` is the question without its period phrases; ``columns`` maps a column's
    code to its names. A question naming a span by its number, but no column whole
    ("due within 5 years" over "3 to 5 years" and "More than 5 years"), asks which:
    the total column is not the answer.

    >>> numbered_columns("obligations due within 5 years",
    ...                  {"C_3_5": ("3 to 5 years",), "C_MORE": ("more than 5 years",),
    ...                   "C_1": ("up to 1 year",)})
    ('C_3_5', 'C_MORE')
    """
    asked = set(_COUNT.findall(text))
    return tuple(code for code, names in columns.items()
                 if asked & {n for name in names for n in _COUNT.findall(name)})


def named_over_placeholder(profile: DomainProfile, entities: list[tuple[int, int, str, str]]
                           ) -> list[tuple[int, int, str, str]]:
    """The entities named, the built-in placeholder's words left out beside a named one.

    In a folder of several companies the built-in profile's home is a placeholder named
    "company", "the group"; "What kind of company is Nike?" names Nike, and "company" is
    a noun of the question, not a second entity read first.
    """
    if not profile.is_builtin or profile.home_entity_code != DomainProfile.builtin(
            ).home_entity_code:
        return entities
    named = [e for e in entities if e[2] != profile.home_entity_code]
    return named if named and len(named) < len(entities) else entities
