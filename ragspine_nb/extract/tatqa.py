"""TAT-QA contexts → facts, paragraph chunks and a profile derived from the table.

One context = one table + its paragraphs (real annual reports, anonymised). The entity
is the table uid; metrics are the row labels (raw and normalised forms as synonyms,
qualified by their section when a label repeats); periods are the header years.
Locators use TAT-QA's own coordinates: ``table=0,row=<r>,col=<c>`` and
``paragraph=<order>``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine_nb.profile import DomainProfile
from ragspine_nb.types import Chunk, Fact

__all__ = ["TatqaContext", "load_tatqa", "context_to_records", "parse_tatqa_number",
           "detect_scale"]

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_FOOTNOTE = re.compile(r"\(\s*(?:\d{1,2}|[a-z])\s*\)|\*+")
_SCALES = (("billion", re.compile(r"in billions|\$\s?billion|\bbillions?\b", re.I)),
           ("million", re.compile(r"in millions|\$\s?m\b|million|\bmn\b", re.I)),
           ("thousand", re.compile(r"in thousands|\$\s?'?000|thousand|\(000s?\)|'000", re.I)))


@dataclass(frozen=True)
class TatqaContext:
    """A context with its records, ready for a fact store and a chunk store."""

    uid: str
    profile: DomainProfile
    facts: tuple[Fact, ...]
    chunks: tuple[Chunk, ...]
    table: tuple[tuple[str, ...], ...]
    questions: tuple[dict[str, Any], ...]
    scale: str


def parse_tatqa_number(cell: str) -> tuple[float | None, bool]:
    """``(value, is_percent)`` for a TAT-QA cell; ``(None, False)`` when not a number."""
    text = cell.strip().replace("\u2212", "-").replace("–", "-")
    if text in ("", "-", "—", "--"):
        return None, False
    percent = "%" in text
    text = re.sub(r"[$€£¥%,\s]|US|HK|RMB", "", text)
    negative = text.startswith("(") and text.endswith(")")
    text = text.strip("()")
    if text.startswith("-"):
        negative, text = not negative, text[1:]
    if not re.fullmatch(r"\d+(\.\d+)?", text):
        return None, False
    value = float(text)
    return (-value if negative else value), percent


def detect_scale(table: list[list[str]], paragraphs: list[str]) -> str:
    """The scale stated in the table's text, else in the paragraphs, else ``""``."""
    for source in (" ".join(c for row in table for c in row
                            if parse_tatqa_number(c)[0] is None), " ".join(paragraphs)):
        for name, pattern in _SCALES:
            if pattern.search(source):
                return name
    return ""


def _norm_label(label: str) -> str:
    text = label.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = _FOOTNOTE.sub("", text).strip().rstrip(":").strip()
    return " ".join(text.lower().split())


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _variants(label: str) -> set[str]:
    """The label without parenthetical notes, and with singular words."""
    bare = " ".join(re.sub(r"\([^)]*\)", " ", label).split())
    out = {bare} if bare else set()
    for text in (label, bare):
        out.add(" ".join(_singular(w) for w in text.split()))
    return {v for v in out if v}


def _header_rows(table: list[list[str]]) -> int:
    for r, row in enumerate(table):
        for cell in row[1:]:
            value, _ = parse_tatqa_number(cell)
            if value is not None and not (_YEAR.fullmatch(cell.strip() or "x")):
                return r
    return len(table)


def _column_periods(table: list[list[str]], header: int) -> dict[int, str]:
    width = max(len(r) for r in table)
    periods: dict[int, str] = {}
    for c in range(1, width):
        for r in range(header - 1, -1, -1):
            years = set(_YEAR.findall(table[r][c])) if c < len(table[r]) else set()
            if len(years) > 1:
                break  # a change or fiscal-span column ("2019 vs 2018")
            if years:
                periods[c] = years.pop()
                break
            left = next((table[r][k] for k in range(c - 1, 0, -1) if table[r][k].strip()), "")
            left_years = set(_YEAR.findall(left))
            if left_years and not table[r][c].strip() and len(left_years) == 1:
                periods[c] = left_years.pop()  # a year spanning sub-columns
                break
    return periods


def context_to_records(ctx: dict[str, Any]) -> TatqaContext:
    """Turn one TAT-QA context into facts, chunks and a derived profile."""
    uid = ctx["table"]["uid"]
    raw = ctx["table"]["table"]
    width = max(len(r) for r in raw)
    table = [[" ".join(str(c).split()) for c in r] + [""] * (width - len(r)) for r in raw]
    paragraphs = sorted(ctx["paragraphs"], key=lambda p: p["order"])
    scale = detect_scale(table, [p["text"] for p in paragraphs])
    header = _header_rows(table)
    periods = _column_periods(table, header)
    shared = {y: list(periods.values()).count(y) for y in set(periods.values())}
    metrics: dict[str, dict[str, Any]] = {}
    facts: list[Fact] = []
    section = ""
    labels = [_norm_label(r[0]) for r in table]
    repeated = {lab for lab in labels if lab and labels.count(lab) > 1}
    for r in range(header, len(table)):
        row = table[r]
        label = labels[r]
        if not label:
            continue
        if all(not c.strip() for c in row[1:]):
            section = label
            continue
        code = f"ROW{r}"
        synonyms = [label] + ([f"{section} {label}"] if section else [])
        if label in repeated and section:
            synonyms = [f"{section} {label}"]
        variants = {v for syn in synonyms for v in _variants(syn)} - set(synonyms)
        metrics[code] = {"unit": scale or "unit", "label": row[0],
                         "synonyms": synonyms, "variants": sorted(variants)}
        for c, year in periods.items():
            value, percent = parse_tatqa_number(row[c])
            if value is None:
                continue
            unit = "percent" if percent or "%" in row[0] else (scale or "unit")
            # a year over several columns (amount / % / quarters): the column label becomes
            # the channel, so no lookup by year alone can pick one of them silently
            channel = "TOTAL" if shared[year] == 1 else f"COL{c}"
            facts.append(Fact(code, uid, "NA", channel, "FY", year, value, unit, uid,
                              f"table=0,row={r},col={c}"))
    # variants (no parenthetical note, singular words) only where exactly one row has them
    owners: dict[str, set[str]] = {}
    for code, spec in metrics.items():
        for v in (*spec["synonyms"], *spec.pop("variants")):
            owners.setdefault(v, set()).add(code)
    for v, codes in owners.items():
        if len(codes) == 1:
            (code,) = codes
            if v not in metrics[code]["synonyms"]:
                metrics[code]["synonyms"].append(v)
    profile = DomainProfile.from_dict({
        "home": {"company_name": uid, "entity_code": uid, "geography": "NA"},
        "metrics": metrics or {"NONE": {"unit": "unit"}},
    })
    chunks = tuple(Chunk(doc_id=uid, chunk_id=f"{uid}#p{p['order']}", seq=i,
                         text=p["text"].strip() or "(empty)",
                         source_locator=f"paragraph={p['order']}", language="en")
                   for i, p in enumerate(paragraphs))
    return TatqaContext(uid, profile, tuple(facts), chunks, tuple(tuple(r) for r in table),
                        tuple(ctx["questions"]), scale)


def load_tatqa(path: str | Path) -> list[TatqaContext]:
    """Every context of a TAT-QA split file (dev, test_gold, ...)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [context_to_records(ctx) for ctx in data]
