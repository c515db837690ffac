"""Questions rewritten without changing what they say, to see whether answers hold.

Rules written against one benchmark may not carry over to another analyst's phrasing
("In 2019, what was …", "Tell me the …", "… in 2019 compared to 2018", "…? Thanks!"; the
tables as another exporter prints them: :mod:`ragspine_nb.eval.tatqa.table_rewrites`).
Each rewrite here changes only how a question is written — never a figure, a period, a
row's name or the operation asked — and leaves one it does not fit as written (not
counted as rewritten). ``bench/rewrites.py`` answers every question of
the split as written and rewritten through the user's path and counts the answers whose
verdict moves; an answer should not depend on the writing.

Pure functions of the question text (no profile, no store).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["REWRITES", "Rewrite", "rewritten_split"]

#: One rewrite: the question as written → the question rewritten (unchanged if it does
#: not fit).
Rewrite = Callable[[str], str]

_YEAR = r"(?:19|20)\d\d"
_OPENING = re.compile(r"^(What|How|Which|Who|When|Where|Why|Is|Are|Was|Were|Do|Does|Did)\b")
_LEVEL = re.compile(r"^What (?:is|was|are|were) the\b(?! (?:change|percentage|average|"
                    r"difference|total|ratio|proportion|sum|number|amount|value)\b)")
_RANGE = re.compile(rf"\bfrom ({_YEAR}) to ({_YEAR})\b")


def front_year(q: str) -> str:
    """The period moved to the front, set off by a comma.

    >>> front_year("What was the license revenue in 2020?")
    'In 2020, what was the license revenue?'
    """
    m = re.match(rf"^(.*?)\s+(in|for|during)\s+((?:fiscal\s+)?{_YEAR})\s*\?$", q)
    if m is None or not _OPENING.match(q):
        return q
    head = m.group(1)
    return f"{m.group(2).capitalize()} {m.group(3)}, {head[0].lower()}{head[1:]}?"


def comma_year(q: str) -> str:
    """The period set off by a comma at the end.

    >>> comma_year("What was the license revenue in 2020?")
    'What was the license revenue, in 2020?'
    """
    return re.sub(rf"\s+(in|for|during)\s+({_YEAR})\s*\?$", r", \1 \2?", q)


def fiscal_year(q: str) -> str:
    """A year written as a fiscal year ("in fiscal 2019").

    >>> fiscal_year("What was revenue in 2019?")
    'What was revenue in fiscal 2019?'
    """
    if "fiscal" in q.lower():
        return q
    return re.sub(rf"(?<![\w/])(in|for|during) ({_YEAR})(?![\w/])", r"\1 fiscal \2", q)


def fy(q: str) -> str:
    """Every year naming a period written as "FY2019" (never one inside a row's name).

    >>> fy("What was the change in revenue from 2018 to 2019?")
    'What was the change in revenue from FY2018 to FY2019?'
    >>> fy("What were the Notes due 2023 in 2019?")
    'What were the Notes due 2023 in FY2019?'
    """
    if "fiscal" in q.lower():
        return q
    return re.sub(rf"\b(in|for|during|from|to|and|or|than|vs|between)\s+({_YEAR})(?![\w/%-])",
                  r"\1 FY\2", q)


def request(q: str) -> str:
    """A level asked as a request: "Tell me the …".

    >>> request("What was the license revenue in 2020?")
    'Tell me the license revenue in 2020.'
    """
    r = _LEVEL.sub("Tell me the", q)
    return r[:-1] + "." if r != q and r.endswith("?") else q


def show(q: str) -> str:
    """A level asked as a request: "Show the …".

    >>> show("What are the items under deferred tax liabilities?")
    'Show the items under deferred tax liabilities'
    """
    r = _LEVEL.sub("Show the", q)
    return r[:-1] if r != q and r.endswith("?") else q


def contraction(q: str) -> str:
    """"What is" contracted.

    >>> contraction("What is included in other income?")
    "What's included in other income?"
    """
    return re.sub(r"^What is\b", "What's", q)


def thanks(q: str) -> str:
    """Thanks after the question.

    >>> thanks("What was revenue in 2019?")
    'What was revenue in 2019? Thanks!'
    """
    return f"{q.rstrip()} Thanks!"


def greeting(q: str) -> str:
    """A greeting before the question.

    >>> greeting("What was revenue in 2019?")
    'Hi, what was revenue in 2019?'
    """
    return f"Hi, {q[0].lower()}{q[1:]}" if _OPENING.match(q) else q


def lower(q: str) -> str:
    """All in lower case.

    >>> lower("What was EBITDA in 2019?")
    'what was ebitda in 2019?'
    """
    return q.lower()


def no_mark(q: str) -> str:
    """No question mark.

    >>> no_mark("What was revenue in 2019?")
    'What was revenue in 2019'
    """
    return q.rstrip(" ?")


def _consecutive(q: str, write: Callable[[str, str], str]) -> str:
    """``from A to B`` rewritten by ``write(A, B)`` where B is the year after A."""
    m = _RANGE.search(q)
    if m is None or int(m.group(2)) - int(m.group(1)) != 1:
        return q
    return q[:m.start()] + write(m.group(1), m.group(2)) + q[m.end():]


def versus(q: str) -> str:
    """Two consecutive years as "in B vs A".

    >>> versus("What was the change in revenue from 2018 to 2019?")
    'What was the change in revenue in 2019 vs 2018?'
    >>> versus("What was the average revenue from 2017 to 2019?")
    'What was the average revenue from 2017 to 2019?'
    """
    return _consecutive(q, lambda a, b: f"in {b} vs {a}")


def compared(q: str) -> str:
    """Two consecutive years as "in B compared to A".

    >>> compared("What was the percentage change in revenue from 2018 to 2019?")
    'What was the percentage change in revenue in 2019 compared to 2018?'
    """
    return _consecutive(q, lambda a, b: f"in {b} compared to {a}")


def between(q: str) -> str:
    """A range "from A to B" as "between A and B".

    >>> between("What was the average revenue from 2017 to 2019?")
    'What was the average revenue between 2017 and 2019?'
    """
    return _RANGE.sub(r"between \1 and \2", q)


def owner(q: str) -> str:
    """The company named as the owner of the thing asked.

    >>> owner("What was the license revenue in 2020?")
    "What was the company's license revenue in 2020?"
    """
    return _LEVEL.sub(lambda m: m.group(0) + " company's", q)


def the_year(q: str) -> str:
    """A year written as "the year 2019".

    >>> the_year("What was revenue in 2019?")
    'What was revenue in the year 2019?'
    """
    return re.sub(rf"(?<![\w/])in ({_YEAR})(?![\w/])", r"in the year \1", q)


def year_ended(q: str) -> str:
    """The period written as "for the year ended 2019".

    >>> year_ended("What was revenue in 2019?")
    'What was revenue for the year ended 2019?'
    """
    return re.sub(rf"(?<![\w/])(?:in|for) ({_YEAR})\s*\?$", r"for the year ended \1?", q)


def misspelt(q: str) -> str:
    """The question's longest word (eight letters or more) misspelt: one letter left out.

    A user's typing, not a reworded question: the letter before the word's last two
    goes ("activities" → "activites"); a question with no such word is left as it is.

    >>> misspelt("What was the net cash provided by financing activities in 2019?")
    'What was the net cash provided by financing activites in 2019?'
    >>> misspelt("What was revenue in 2019?")
    'What was revenue in 2019?'
    """
    words = re.findall(r"[A-Za-z]{8,}", q)
    if not words:
        return q
    word = max(words, key=len)
    return q.replace(word, word[:-3] + word[-2:], 1)


def misspelt_short(q: str) -> str:
    """The question's longest word of five or six letters misspelt: one letter left out.

    >>> misspelt_short("What was the change in sales from 2018 to 2019?")
    'What was the chage in sales from 2018 to 2019?'
    """
    words = [w for w in re.findall(r"[A-Za-z]+", q) if 5 <= len(w) <= 6]
    if not words:
        return q
    word = max(words, key=len)
    return re.sub(rf"\b{word}\b", word[:-3] + word[-2:], q, count=1)


def title_case(q: str) -> str:
    """Every word capitalised, as a heading is written.

    >>> title_case("What was the net income of ACME in 2019?")
    'What Was The Net Income Of ACME In 2019?'
    """
    return re.sub(r"\b[a-z]", lambda m: m.group().upper(), q)


def percent_sign(q: str) -> str:
    """"percentage change" written "% change", as analysts write it.

    >>> percent_sign("What was the percentage change in revenue from 2018 to 2019?")
    'What was the % change in revenue from 2018 to 2019?'
    """
    return re.sub(r"\bpercentage (change|increase|decrease)\b", r"% \1", q, flags=re.I)


def how_much(q: str) -> str:
    """"What was the change in X from A to B?" asked "How much did X change from A to B?".

    >>> how_much("What was the change in the net revenue from 2018 to 2019?")
    'How much did the net revenue change from 2018 to 2019?'
    """
    return re.sub(rf"^What (?:was|is) the change in (.+?) (from|between) ({_YEAR}) (to|and) "
                  rf"({_YEAR})\s*\?$", r"How much did \1 change \2 \3 \4 \5?", q)


#: The rewrites, by name.
REWRITES: dict[str, Rewrite] = {
    "front_year": front_year, "comma_year": comma_year, "fiscal_year": fiscal_year,
    "fy": fy, "request": request, "show": show, "contraction": contraction,
    "thanks": thanks, "greeting": greeting,
    "lower": lower, "no_mark": no_mark, "versus": versus, "compared": compared,
    "between": between, "owner": owner, "the_year": the_year, "year_ended": year_ended,
    "misspelt": misspelt, "misspelt_short": misspelt_short, "title_case": title_case,
    "percent_sign": percent_sign, "how_much": how_much,
}


def rewritten_split(raw: Sequence[dict[str, Any]], rewrite: Rewrite
                    ) -> tuple[list[dict[str, Any]], set[str]]:
    """The split (TAT-QA's JSON) with every question rewritten; the uids that changed.

    Only the contexts with a rewritten question are kept.
    """
    out, changed = [], set()
    for ctx in raw:
        questions = []
        for q in ctx["questions"]:
            text = rewrite(q["question"])
            if text != q["question"]:
                changed.add(q["uid"])
            questions.append({**q, "question": text})
        if any(q["uid"] in changed for q in ctx["questions"]):
            out.append({**ctx, "questions": questions})
    return out, changed
