"""TAT-QA split files for evaluation: contexts, questions and their gold answers.

Everything here is evaluation-only: reading a split's JSON, turning each gold answer
into numbers (value, written precision, scale) or text spans, and writing a context
as the files a user would ingest (``table.csv`` and ``notes.md``). Nothing of it
reaches the product's extraction path.

A gold answer is **numeric** when it is a number (arithmetic and count answers) or
when every span of a span / multi-span answer is one amount ("$1,496.5", "(9.8)",
"36%", "£59.1m", "approximately 13%"); its scale is the span's own ("million", "%")
or else the question's ``scale`` field. Anything else is a **text** gold: words,
years ("2019" answers a "which year" question), dates, and spans mixing words and
numbers ("2.5 years", "decreased $352 million").
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

__all__ = [
    "TatqaQuestion", "TatqaContext", "GoldNumber", "Gold", "Amount", "load_split",
    "parse_amount", "is_year", "gold_of", "reference_date", "write_context", "SCALE_FACTORS",
    "TABLE_FILE", "NOTES_FILE",
]

TABLE_FILE = "table.csv"
NOTES_FILE = "notes.md"

#: TAT-QA's ``scale`` values with their factors (``percent`` is not a factor).
SCALE_FACTORS: dict[str, float] = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9}


@dataclass(frozen=True)
class TatqaQuestion:
    """One question of a context, as the split states it."""

    uid: str
    question: str
    answer: Any
    answer_type: str
    answer_from: str
    scale: str = ""
    derivation: str = ""
    #: the paragraphs the answer comes from, as 1-based positions in the context's order
    rel_paragraphs: tuple[int, ...] = ()


@dataclass(frozen=True)
class TatqaContext:
    """One context: a table (rows as given), its paragraphs in order, its questions."""

    uid: str
    table: tuple[tuple[str, ...], ...]
    paragraphs: tuple[str, ...]
    questions: tuple[TatqaQuestion, ...]


def _question(q: dict[str, Any], position: dict[str, int]) -> TatqaQuestion:
    rel = tuple(position[str(p)] for p in q.get("rel_paragraphs") or () if str(p) in position)
    return TatqaQuestion(str(q["uid"]), str(q["question"]), q["answer"], str(q["answer_type"]),
                         str(q["answer_from"]), str(q.get("scale") or ""),
                         str(q.get("derivation") or ""), rel)


def load_split(path: str | Path) -> list[TatqaContext]:
    """Every context of a TAT-QA split file (``tatqa_dataset_dev.json`` and alike).

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    ValueError
        When the file is not a list of TAT-QA contexts (``table``, ``paragraphs``,
        ``questions``).
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list) or not all(
            isinstance(c, dict) and {"table", "paragraphs", "questions"} <= set(c) for c in data):
        raise ValueError(f"{Path(path).name}: not a TAT-QA split (a list of contexts with "
                         "'table', 'paragraphs' and 'questions')")
    out = []
    for c in data:
        paragraphs = sorted(c["paragraphs"], key=lambda p: int(p.get("order", 0)))
        position = {str(p.get("order")): i for i, p in enumerate(paragraphs, start=1)}
        out.append(TatqaContext(
            str(c["table"]["uid"]),
            tuple(tuple(str(cell) for cell in row) for row in c["table"]["table"]),
            tuple(str(p["text"]) for p in paragraphs),
            tuple(_question(q, position) for q in sorted(c["questions"],
                                                         key=lambda q: int(q.get("order", 0))))))
    return out


# ------------------------------------------------------------------------ amounts
@dataclass(frozen=True)
class Amount:
    """A number as written: signed value, digits after the point, scale word."""

    value: float
    decimals: int
    scale: str  # "", "thousand", "million", "billion" or "percent"


_QUALIFIER = re.compile(r"^(?:approximately|approx\.?|about|around|nearly|almost)\s+", re.I)
_CURRENCY = re.compile(
    r"(?:US|HK|NT|A|C|S|R)?\$|[£€¥]|\b(?:USD|RMB|INR|EUR|GBP|CNY|HKD)(?=\W|\d|$)", re.I)
_AMOUNT = re.compile(
    r"^(?P<sign>-)?(?P<open>\()?(?P<sign2>-)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<close>\))?(?P<scale>%|percent|thousands?|millions?|billions?|bn|mn|m|k)?(?P<close2>\))?$",
    re.I)
_SCALE_WORDS = {"%": "percent", "percent": "percent", "k": "thousand", "m": "million",
                "mn": "million", "bn": "billion"}


def parse_amount(text: str) -> Amount | None:
    """One amount written as ``text``, else ``None`` (words, dates, several numbers).

    Examples
    --------
    >>> parse_amount("$(9.8) million")
    Amount(value=-9.8, decimals=1, scale='million')
    >>> parse_amount("£(8.1m)"), parse_amount("29 per cent").scale
    (Amount(value=-8.1, decimals=1, scale='million'), 'percent')
    >>> parse_amount("2.5 years") is None, parse_amount("−298").value
    (True, -298.0)
    """
    t = text.strip().replace("\u2212", "-").replace("\u2013", "-").replace("\u00a0", " ")
    t = _QUALIFIER.sub("", t)
    t = re.sub(r"\s+", "", _CURRENCY.sub("", t))  # "29 per cent" → "29percent"
    m = _AMOUNT.match(t)
    if m is None or (m["open"] is None) != (m["close"] is None and m["close2"] is None):
        return None
    num = m["num"].replace(",", "")
    value = float(num)
    negative = bool(m["sign"]) ^ bool(m["sign2"]) ^ bool(m["open"])
    word = (m["scale"] or "").lower()
    scale = _SCALE_WORDS.get(word, word.rstrip("s"))
    return Amount(-value if negative else value,
                  len(num.split(".")[1]) if "." in num else 0, scale)


def is_year(text: str) -> bool:
    """A bare year ("2019"): the answer to a "which year" question, not an amount."""
    return re.fullmatch(r"\s*(?:19|20)\d\d\s*", text) is not None


# --------------------------------------------------------------------------- gold
@dataclass(frozen=True)
class GoldNumber:
    """One gold number: its value as written, its precision and its scale."""

    value: float
    decimals: int
    scale: str  # "", "thousand", "million", "billion" or "percent"
    exact: bool = False  # a count: equal or not, no tolerance


@dataclass(frozen=True)
class Gold:
    """What a question's answer is: numbers (``kind == "number"``) or text spans."""

    kind: str  # "number" or "text"
    numbers: tuple[GoldNumber, ...] = ()
    spans: tuple[str, ...] = ()
    operands: tuple[float, ...] = ()  # the derivation's numbers (magnitudes)


_DERIVATION_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _decimals(value: float | int | str) -> int:
    text = str(value)
    return len(text.split(".")[1]) if "." in text and "e" not in text.lower() else 0


def _spans(answer: Any) -> tuple[str, ...]:
    items = answer if isinstance(answer, list) else [answer]
    return tuple(str(s).strip() for s in items if str(s).strip())


def gold_of(q: TatqaQuestion) -> Gold:
    """The gold of one question (see the module docstring for numeric vs text).

    Examples
    --------
    >>> q = TatqaQuestion("u", "What was the change?", 6.4, "arithmetic", "table",
    ...                   "percent", "(1,405-1,320)/1,320")
    >>> g = gold_of(q)
    >>> g.kind, g.numbers[0], g.operands
    ('number', GoldNumber(value=6.4, decimals=1, scale='percent', exact=False), (1405.0, 1320.0))
    """
    operands = tuple(dict.fromkeys(float(x.replace(",", ""))
                                   for x in _DERIVATION_NUMBER.findall(q.derivation)))
    spans = _spans(q.answer)
    if q.answer_type == "arithmetic" and isinstance(q.answer, int | float) \
            and not isinstance(q.answer, bool):
        number = GoldNumber(float(q.answer), _decimals(q.answer), q.scale)
        return Gold("number", (number,), spans, operands)
    if q.answer_type == "count":
        count = parse_amount(spans[0]) if len(spans) == 1 else None
        if count is not None:
            return Gold("number", (GoldNumber(count.value, 0, "", exact=True),), spans, operands)
        return Gold("text", (), spans, operands)
    amounts = [None if is_year(s) else parse_amount(s) for s in spans]
    if spans and all(a is not None for a in amounts):
        numbers = tuple(GoldNumber(a.value, a.decimals, a.scale or q.scale)
                        for a in amounts if a is not None)
        return Gold("number", numbers, spans, operands)
    return Gold("text", (), spans, operands)


# ---------------------------------------------------------------------- contexts
_YEAR = re.compile(r"(?<![\d,.])((?:19|20)\d\d)(?![\d,.])")


def reference_date(ctx: TatqaContext) -> date:
    """January 1 after the latest year written in the table (the paragraphs', else 2020).

    Relative periods ("last year", no year at all) resolve against it, as a reader of
    that report would.
    """
    years = [int(y) for row in ctx.table for cell in row for y in _YEAR.findall(cell)]
    if not years:
        years = [int(y) for p in ctx.paragraphs for y in _YEAR.findall(p)] or [2019]
    return date(max(years) + 1, 1, 1)


def write_context(ctx: TatqaContext, folder: str | Path) -> Path:
    """Write a context as a user's files: ``table.csv`` and ``notes.md``; returns the folder.

    The table's rows go as they are through Python's :mod:`csv` module; the paragraphs
    in order, separated by blank lines.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with (out / TABLE_FILE).open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(ctx.table)
    (out / NOTES_FILE).write_text("\n\n".join(ctx.paragraphs) + "\n", encoding="utf-8")
    return out

