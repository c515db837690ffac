"""TAT-QA contexts → facts, paragraph chunks and a profile derived from the table.

One context = one table + its paragraphs (real annual reports, anonymised). The entity
is the table uid; metrics are the row labels (raw and normalised forms as synonyms,
qualified by their section when a label repeats; an unlabelled row closing a section is
that section's total). Column headers give periods: years, fiscal labels (``FY19``,
``F19``, ``2018/2019`` = the later year), quarters (``Q4 2019``), a year spanning
sub-columns. Several columns of one period become channels named by their header words
("as reported", "net sales"); a stated percentage change column goes to
:data:`~ragspine_nb.types.CHANGE_PCT_CHANNEL` under its later year; a named absolute
change column ("Variance in Dollars") to a ``CHANGE_*`` channel. Locators use TAT-QA's
own coordinates: ``table=0,row=<r>,col=<c>`` and ``paragraph=<order>``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine_nb.extract.sums import sum_parts
from ragspine_nb.profile import DomainProfile, parts_reach
from ragspine_nb.types import CHANGE_PCT_CHANNEL, Chunk, Fact
from ragspine_nb.wordset import singular

__all__ = ["TatqaContext", "load_tatqa", "context_to_records", "parse_tatqa_number",
           "detect_scale"]

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_FOOTNOTE = re.compile(r"\(\s*(?:\d{1,2}|[a-z])\s*\)|\*+")
_SCALES = (("billion", re.compile(r"in billions|\$\s?billion|\bbillions?\b", re.I)),
           ("million", re.compile(r"in millions|[$€£¥]\s?m\b|million|\bmn\b|\$m\b", re.I)),
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


_FACTOR = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
#: "$757.3 million", "1.9 billion" in prose: an amount the table may state in a scale.
_PROSE_AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion)\b", re.I)
#: Sentences that state the scale of the figures ("in thousands", "$'000").
_STATED = tuple((name, re.compile(rf"\bin {name}s\b|\({name}s\)", re.I))
                for name in ("thousand", "million", "billion"))


def _scale_votes(table: list[list[str]], paragraphs: list[str]) -> dict[str, int]:
    """How many prose amounts each scale would turn a table figure into.

    "$757.3 million" in the text and ``757,336`` in the table: the table is in
    thousands. A figure equal to the amount as written counts for no scale (``""``).
    """
    cells = {abs(v) for row in table for c in row[1:]
             for v, percent in [parse_tatqa_number(c)]
             if v is not None and not percent and abs(v) >= 1}
    votes: dict[str, int] = {}
    for m in _PROSE_AMOUNT.finditer(" ".join(paragraphs)):
        number = m.group(1).replace(",", "")
        if len(re.sub(r"\D", "", number).lstrip("0")) < 3:
            continue  # "1 million" is too round to tell a table's scale
        amount = float(number) * _FACTOR[m.group(2).lower()]
        # the prose rounds: half a unit of its last digit, in its own scale
        places = len(number.split(".")[1]) if "." in number else 0
        slack = 0.5 * 10 ** -places * _FACTOR[m.group(2).lower()]
        for name, factor in (("", 1.0), *_FACTOR.items()):
            if any(abs(v * factor - amount) <= slack for v in cells):
                votes[name] = votes.get(name, 0) + 1
    return votes


#: Rows whose figures a table's scale does not apply to: per-share amounts, prices,
#: rates and ratios, counts of days or years ("Earnings per share (cents)", "Expected
#: term (in years)", "Effective tax rate").
_UNSCALED = re.compile(
    r"\bper (?:share|unit|ton|tonne|barrel|employee|customer|subscriber|user|square)"
    r"|\b(?:share|stock|selling|average|unit|sales?|exercise|purchase|offering|strike|"
    r"closing|market) prices?\b|\bprices? (?:per|paid)\b|\bcents?\b|\bratio\b"
    r"|\brate\s*(?:\(|$|\|)|\bin years\b|\byears?\)|\bdays?\b|\bfiscal year of\b", re.I)


def _row_scale(names: str, scale: str) -> str:
    """The unit of a figure: the table's scale, unless the row is unscaled.

    ``names`` joins the row label, its section and its column header; any of them may
    say it is a per-share amount, a price, a rate or a count.
    """
    return "unit" if not scale or _UNSCALED.search(names) else scale


def _stated_scale(text: str) -> str:
    """A scale the text states ("(Shares in thousands)", "$'000"), else ``""``."""
    return next((name for name, pattern in _SCALES if pattern.search(text)), "")


def _header_text(table: list[list[str]], block: _Block, column: int) -> str:
    """The header cells above a column in its block, and the column's name.

    The name includes a group title spanning the column ("Cash dividend per share" over
    2018 | 2019).
    """
    col = block.columns.get(column)
    return " ".join([*(table[r][column] for r in range(block.header_start, block.data_start)),
                     col.full if col else ""])


def detect_scale(table: list[list[str]], paragraphs: list[str]) -> str:
    """The scale of the table's figures (``"thousand"``, ``"million"``, ...), else ``""``.

    In order: a scale stated in the table's own text ("in millions", "$'000"); the scale
    that turns the most table figures into amounts the paragraphs state ("$757.3
    million" for ``757,336``); a sentence stating the scale ("in thousands"). A word
    like "million" merely appearing in the prose is not a statement, and no scale is
    better than a wrong one (a thousandfold error in every answer).
    """
    text = " ".join(c for row in table for c in row if parse_tatqa_number(c)[0] is None)
    if in_table := _stated_scale(text):
        return in_table
    votes = _scale_votes(table, paragraphs)
    if votes:
        best = max(votes.values())
        winners = [name for name, n in votes.items() if n == best]
        if len(winners) == 1:
            return winners[0]
    prose = " ".join(paragraphs)
    stated = [name for name, pattern in _STATED if pattern.search(prose)]
    return stated[0] if len(stated) == 1 else ""


def _norm_label(label: str) -> str:
    text = label.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = _FOOTNOTE.sub("", text).strip().rstrip(":").strip()
    text = re.sub(r"(?<=[a-z])\d$", "", text)  # a footnote digit glued on: "Current year1"
    return " ".join(text.lower().split())


def _variants(label: str) -> set[str]:
    """The label without parenthetical notes, and with singular words."""
    bare = " ".join(re.sub(r"\([^)]*\)", " ", label).split())
    out = {bare} if bare else set()
    if bare.startswith("total ") and len(bare) > 6:
        out.add(bare[6:])  # "Total BCE operating revenues" (kept only if no other row has it)
    for text in (label, bare):
        out.add(" ".join(singular(w) for w in text.split()))
    return {v for v in out if v}


def _header_rows(table: list[list[str]]) -> int:
    for r, row in enumerate(table):
        for cell in row[1:]:
            value, _ = parse_tatqa_number(cell)
            if value is not None and not (_YEAR.fullmatch(cell.strip() or "x")):
                return r
    return len(table)


_QUARTER = re.compile(r"(?<![a-z0-9])q([1-4])\s*(?:fy)?\s*'?((?:19|20)\d\d)(?!\d)", re.I)
_FISCAL2 = re.compile(r"(?<![a-z0-9])fy?\s?'?(\d\d)(?!\d)", re.I)
_SPAN = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*/\s*((?:19|20)?\d\d)(?!\d)")
_CHANGE = re.compile(r"chang|varian|variation|differen|increase|decrease|\bvs\b|\bover\b",
                     re.I)
_CHANGE_WORDS = {"change", "changes", "percent", "variance", "increase", "decrease", "vs", "over",
                 "difference"}
#: Header words that carry no column meaning (dates, fiscal words, units and scales).
_NOISE = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|fiscal|years?|ended|ending|"
    r"end|as|of|at|for|the|in|weeks?|months?|period|millions?|thousands?|billions?|"
    r"except|percentages|amounts?|data|usd|rmb|us|m|bn|k|note)\b|[$€£¥’'()*:,.\d]",
    re.I)


@dataclass(frozen=True)
class _Column:
    period: tuple[str, str] | None  # ("FY", "2019") / ("QUARTER", "2019Q4")
    kind: str  # "level" | "change_pct" | "change" | "other"
    label: str  # what the header says besides periods, dates and units
    dated: str = ""  # the label with the month and day ("july 27"), for same-year columns
    full: str = ""  # the label with its parenthesised notes, another name for the column


def _cell_period(text: str) -> tuple[str, str] | str | None:
    """A header cell's period, ``"multi"`` for a span or change of years, else None."""
    if m := _QUARTER.search(text):
        return "QUARTER", f"{m.group(2)}Q{m.group(1)}"
    if m := _SPAN.search(text):  # fiscal "2018/2019" or "2018/19" = the later year
        later = m.group(2)
        return "FY", later if len(later) == 4 else m.group(1)[:2] + later
    years = set(_YEAR.findall(text))
    if len(years) > 1:
        return "multi"
    if years:
        return "FY", years.pop()
    if m := _FISCAL2.search(text):  # "FY19", "F19"
        return "FY", f"20{m.group(1)}"
    return None


#: A bucket header: "1–90", "91-180", "181 - 360" (not years), or ">360".
_RANGE = re.compile(r"(?<![\d.,/])(\d{1,3})\s*[-–—]\s*(\d{1,3})(?![\d.,/])")
_OVER = re.compile(r">\s*(\d{1,4})(?![\d.,/])")
_MONTH_DAY = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(\d{1,2})\b", re.I)
_CURRENCY_WORDS = re.compile(r"\b(?:nt|hk|dollars?)\b", re.I)


def _column_label(text: str, *, change: bool = False, notes: bool = False) -> str:
    """Header words that name a column.

    A change column keeps "dollars" ("Variance in Dollars"); parenthesised notes
    ("Net additions (losses)") are kept only with ``notes=True``.
    """
    # aging / maturity buckets ("1–90", "91-180", ">360") name their column
    ranges = [f"{a}-{b}" for a, b in _RANGE.findall(text)] + \
        [f"{a}+" for a in _OVER.findall(text)]
    text = _OVER.sub(" ", _RANGE.sub(" ", text))
    text = text if change else _CURRENCY_WORDS.sub(" ", text)
    text = text if notes else re.sub(r"\([^)]*\)", " ", text)
    text = re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", "", text)  # "Non-USD" is one word
    for period in (_QUARTER, _SPAN, _FISCAL2):  # "Q4 2019", "2018/19", "F19" are periods
        text = period.sub(" ", text)
    words = _NOISE.sub(" ", text.replace("%", " percent ")).lower().split()
    return " ".join(dict.fromkeys([*ranges, *(w for w in words
                                               if len(w) > 1 and re.search(r"[a-z]", w))]))


def _dated(text: str, label: str) -> str:
    days = [f"{m.group(1).lower()} {int(m.group(2))}" for m in _MONTH_DAY.finditer(text)]
    return " ".join([label, *days]).strip() if days else ""


def _columns(table: list[list[str]], header: int) -> dict[int, _Column]:
    """Period, kind and label of every column after the first."""
    width = max(len(r) for r in table)
    out: dict[int, _Column] = {}
    # header rows with gaps hold group titles spanning the columns to their right
    spanning = {r for r in range(header)
                if sum(bool(x.strip()) for x in table[r][1:]) * 2 <= width - 1}
    # one dated title over all the columns ("Common Stock Price Range 2018" above "Low |
    # High"): its period is every column's, its words name none of them
    titles = {r for r in range(header) if width > 2 and len(
        cells := [x for x in table[r][1:] if x.strip()]) == 1
        and isinstance(_cell_period(cells[0]), tuple) and not _CHANGE.search(cells[0])}
    for c in range(1, width):
        period: tuple[str, str] | str | None = None
        ptext = ""  # the header text the period was read from
        for r in range(header - 1, -1, -1):
            ptext = table[r][c]
            period = _cell_period(ptext)
            if period is None and not ptext.strip():
                # a period spanning sub-columns: the nearest header cell to the left
                ptext = next((table[r][k] for k in range(c - 1, 0, -1) if table[r][k].strip()),
                             "")
                period = _cell_period(ptext)
            if period is not None:
                break
        own = " ".join(table[r][c] for r in range(header))
        # a group header over several columns ("Financial assets" over 2019 | 2018) names
        # every column under it: the nearest header cell to the left in an empty row cell
        named = " ".join(table[r][c] or (next(
            (table[r][k] for k in range(c - 1, 0, -1) if table[r][k].strip()), "")
            if r in spanning else "") for r in range(header) if r not in titles)
        values = [table[r][c] for r in range(header, len(table))
                  if parse_tatqa_number(table[r][c])[0] is not None]
        percent = ("%" in own or "percent" in own.lower() or
                   (bool(values) and sum("%" in v for v in values) * 2 > len(values)))
        if period == "multi" or _CHANGE.search(own):
            years = sorted(set(_YEAR.findall(f"{own} {ptext}")))
            kind = "change_pct" if percent else "change"
            out[c] = _Column(("FY", years[-1]) if years else None, kind,
                             _column_label(own, change=True))
        elif isinstance(period, tuple):
            label = _column_label(named)
            out[c] = _Column(period, "level", label, _dated(named, label),
                             _column_label(named, notes=True))
        else:
            out[c] = _Column(None, "other", _column_label(named), "",
                             _column_label(named, notes=True))
    levels = [col.period for col in out.values() if col.kind == "level" and col.period]
    if len(set(levels)) == 1:  # one period in the table: named columns beside it share it
        for c, col in out.items():
            if col.kind == "other" and col.label:
                out[c] = _Column(levels[0], "level", col.label, "", col.full)
    for c, col in out.items():  # a change without a stated year: the table's latest level
        if col.kind.startswith("change") and col.period is None and levels:
            out[c] = _Column(max(levels, key=lambda p: (p[1], p[0])), col.kind, col.label)
    return out


def _slug(label: str) -> str:
    return "C_" + re.sub(r"[^A-Z0-9]+", "_", label.upper()).strip("_")


def _channels(cols: dict[int, _Column], default_year: str | None, quarterly: bool = False
              ) -> tuple[dict[int, tuple[tuple[str, str], str]],
                         dict[int, tuple[tuple[str, str], str]], dict[str, list[str]],
                         dict[int, tuple[str, str] | None]]:
    """Where each column's facts go, and the channels.

    Returns ``{column: (period, channel)}`` for the columns that hold facts; the same
    for the label channel of a column that is its period's only one (stored twice: by
    period alone, and by the header words a question may use); the channels; and the
    period of every level column (placed or not).

    A period held by one level column is that period's TOTAL; several columns of one
    period (amount / %, quarters, as reported / adjusted) become channels named by their
    header label, so no lookup by period alone can pick one of them silently. Stated
    percentage changes go to ``CHANGE_PCT``. Columns without a period hold no facts
    (unless the whole table has no period: then the ``default_year``), but their labels
    still become channels, so a question naming one never falls back on another column.
    """
    levels = {c: col for c, col in cols.items() if col.kind == "level"}
    if not levels and default_year:
        levels = {c: _Column(("FY", default_year), "level", col.label)
                  for c, col in cols.items() if col.kind == "other"}
    channels: dict[str, list[str]] = {}
    out_change: dict[int, tuple[tuple[str, str], str]] = {}
    for c, col in cols.items():
        if col.label and col.kind in ("level", "other"):
            names = channels.setdefault(_slug(col.label), [col.label])
            if col.full and col.full not in names:
                names.append(col.full)
        elif col.kind == "change" and col.period is not None and \
                not set(col.label.split()) <= _CHANGE_WORDS:
            # a stated absolute change ("Variance in Dollars"): asked for by its name
            code = "CHANGE" + _slug(col.label)[1:]
            if code not in channels:
                channels[code] = [col.label]
                out_change[c] = (col.period, code)
    per_period: dict[tuple[str, str], list[int]] = {}
    for c, col in levels.items():
        per_period.setdefault(col.period or ("FY", ""), []).append(c)
    out: dict[int, tuple[tuple[str, str], str]] = {}
    aliases: dict[int, tuple[tuple[str, str], str]] = {}
    for period, cs in per_period.items():
        if len(cs) == 1 and quarterly and levels[cs[0]].dated:
            # "Quarters Ended | October 27, 2018": a quarter, never the fiscal year's figure
            out[cs[0]] = (period, _slug(levels[cs[0]].dated))
            channels.setdefault(_slug(levels[cs[0]].dated), [levels[cs[0]].dated])
            continue
        if len(cs) == 1:
            out[cs[0]] = (period, "TOTAL")
            if levels[cs[0]].label:  # named by its header words too ("Fiscal 2018 Net Sales")
                aliases[cs[0]] = (period, _slug(levels[cs[0]].label))
            continue
        labels = [levels[c].label for c in cs]
        if (quarterly or len(set(labels)) < len(cs)) and all(levels[c].dated for c in cs):
            labels = [levels[c].dated for c in cs]  # quarters ended "July 27", "April 27"
            for c in cs:
                channels.setdefault(_slug(levels[c].dated), [levels[c].dated])
        for c, label in zip(cs, labels, strict=True):
            if label and labels.count(label) == 1:
                out[c] = (period, _slug(label))
            elif not label and labels.count("") == 1:
                out[c] = (period, "TOTAL")  # the plain figure beside named ones ("$" | "%")
    pct = [(c, col.period) for c, col in cols.items()
           if col.kind == "change_pct" and col.period is not None]
    for c, period in pct:
        same = [k for k, p in pct if p == period]
        plain = [k for k in same if set(cols[k].label.split()) <= _CHANGE_WORDS]
        if len(same) == 1 or plain == [c]:  # the plain "% change" of several (normalised...)
            out[c] = (period, CHANGE_PCT_CHANNEL)
            names = channels.setdefault(CHANGE_PCT_CHANNEL, [])
            if not set(cols[c].label.split()) <= _CHANGE_WORDS and cols[c].label not in names:
                names.append(cols[c].label)  # a named one ("% of penetration change")
    out.update(out_change)
    levels_by_col = {c: col.period for c, col in levels.items()}
    return out, aliases, channels, levels_by_col


Placement = tuple[int, tuple[tuple[str, str], str]]  # (column, ((ptype, period), channel))


@dataclass(frozen=True)
class _Block:
    """Rows under one header: a table may restart its header ("Fiscal 2018" blocks)."""

    header_start: int
    data_start: int
    end: int
    placements: tuple[Placement, ...]
    level_cols: dict[int, tuple[str, str] | None]
    quarterly: bool
    periods: frozenset[tuple[str, str]]
    columns: dict[int, _Column]


def _is_reheader(row: list[str]) -> bool:
    """A row inside the data that names periods and holds no figures starts a new block."""
    cells = row[1:]
    if any(re.search(r"\d+/\d+/\d+", c) for c in cells):  # dates in data ("30/7/2021")
        return False
    return any(isinstance(_cell_period(c), tuple) for c in cells) and not any(
        parse_tatqa_number(c)[0] is not None and not _YEAR.fullmatch(c.strip()) for c in cells)


def _blocks(table: list[list[str]], header: int, default_year: str | None,
            channels: dict[str, list[str]]) -> list[_Block]:
    starts = [(0, header)]
    r = header + 1
    while r < len(table):
        sub = _header_rows(table[r:]) if _is_reheader(table[r]) else 0
        if 0 < sub < len(table) - r:
            starts.append((r, r + sub))
            r += sub
        r += 1
    out = []
    for i, (hs, ds) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(table)
        quarterly = any("quarter" in cell.lower() for row in table[hs:ds] for cell in row)
        cols = _columns(table[hs:], ds - hs)
        titled = any(isinstance(_cell_period(table[r][0]), tuple) and
                     all(not x.strip() for x in table[r][1:]) for r in range(hs, end))
        # year titles over the rows ("2019:" ... "2018:") date them; else the report's year
        out.append(_layout(cols, None if titled else default_year, quarterly, channels,
                           (hs, ds, end)))
    return out


def _layout(cols: dict[int, _Column], default_year: str | None, quarterly: bool,
            channels: dict[str, list[str]], span: tuple[int, int, int],
            periods: frozenset[tuple[str, str]] | None = None) -> _Block:
    """The block of rows ``span`` laid out by ``cols``; its channel names join ``channels``."""
    columns, aliases, names, level_cols = _channels(cols, default_year, quarterly)
    for code, syns in names.items():
        merged = channels.setdefault(code, [])
        merged += [x for x in syns if x not in merged]
    placements = tuple(list(columns.items()) + list(aliases.items()))
    return _Block(*span, placements, level_cols, quarterly,
                  periods if periods is not None else frozenset(pc[0] for _, pc in placements),
                  cols)


def _period_section(block: _Block, period: tuple[str, str],
                    channels: dict[str, list[str]]) -> _Block:
    """Rows under a year title ("2019" above rows, quarters across): that year's block."""
    cols = {c: _Column(period, "level", col.label, col.dated, col.full)
            for c, col in block.columns.items() if col.kind == "other"}
    return _layout(cols, None, block.quarterly, channels,
                   (block.header_start, block.data_start, block.end), frozenset({period}))


def _row_figures(row: list[str], block: _Block) -> list[Placement]:
    """Where a row's figures go; a row's only figure for a period is also that period's."""
    figures = [(c, pc) for c, pc in block.placements
               if parse_tatqa_number(row[c])[0] is not None]
    plain = {pc[0] for _, pc in block.placements if pc[1] == "TOTAL"}
    for (ptype, period) in {pc[0] for _, pc in figures} - plain:
        # (a period with its own plain column: a dash there is not another column's)
        mine = [c for c, p in block.level_cols.items()
                if p == (ptype, period) and parse_tatqa_number(row[c])[0] is not None]
        if len(mine) == 1 and not block.quarterly and \
                (mine[0], ((ptype, period), "TOTAL")) not in figures:
            figures.append((mine[0], ((ptype, period), "TOTAL")))
    return figures


def context_to_records(ctx: dict[str, Any]) -> TatqaContext:
    """Turn one TAT-QA context into facts, chunks and a derived profile."""
    uid = ctx["table"]["uid"]
    raw = ctx["table"]["table"]
    width = max(len(r) for r in raw)
    table = [[" ".join(str(c).split()) for c in r] + [""] * (width - len(r)) for r in raw]
    paragraphs = sorted(ctx["paragraphs"], key=lambda p: p["order"])
    scale = detect_scale(table, [p["text"] for p in paragraphs])
    para_years = _YEAR.findall(" ".join(p["text"] for p in paragraphs))
    channels: dict[str, list[str]] = {}
    blocks = _blocks(table, _header_rows(table), max(para_years) if para_years else None,
                     channels)
    metrics: dict[str, dict[str, Any]] = {}
    facts: list[Fact] = []
    labels = [_norm_label(r[0]) for r in table]
    # the same row label (and section) in a later block with other periods: the same metric
    seen: dict[tuple[str, str], tuple[str, frozenset[tuple[str, str]]]] = {}
    row_codes: dict[int, str] = {}
    figures: dict[int, dict[tuple[str, str, str], float]] = {}
    summed = {r for block in blocks for r in sum_parts(_cell_figures(table, block))}
    for block in blocks:
        hs, ds = block.header_start, block.data_start
        # a section title can sit among the header rows ("Revenue:" above the first data)
        section = next((labels[r] for r in range(ds - 1, hs - 1, -1)
                        if labels[r] and all(not c.strip() for c in table[r][1:])), "")
        mine = labels[ds:block.end]
        repeated = {lab for lab in mine if lab and mine.count(lab) > 1}
        layout = block
        first = _cell_period(section)
        if isinstance(first, tuple) and not block.periods:  # "2019" right above the data
            layout, section, repeated = _period_section(block, first, channels), "", set()
        for r in range(ds, block.end):
            row = table[r]
            label = labels[r]
            if not label and (r in summed or section and any(
                    parse_tatqa_number(c)[0] is not None for c in row)):
                # an unlabelled row closing a section, or adding up the rows above it, is
                # their total
                label = "total"
            if not label:
                continue
            if all(not c.strip() for c in row[1:]):
                period = _cell_period(row[0])
                if isinstance(period, tuple) and not block.periods:
                    layout, section = _period_section(block, period, channels), ""
                    repeated = set()  # the same label under each year is one metric
                else:
                    section = label
                continue
            code = f"ROW{r}"
            earlier = seen.get((section, label))
            if earlier and not earlier[1] & layout.periods:
                code = earlier[0]
                seen[(section, label)] = (code, earlier[1] | layout.periods)
            else:
                seen[(section, label)] = (code, layout.periods)
                synonyms = [label] + ([f"{section} {label}"] if section else [])
                if (label in repeated or label == "total") and section:
                    synonyms = [f"{section} {label}", f"{label} {section}"]
                variants = {v for syn in synonyms for v in _variants(syn)} - set(synonyms)
                if label == "total" and section:
                    variants.add(section)  # the section's own name, if no row is named so
                metrics[code] = {"unit": _row_scale(f"{row[0]} | {section}", scale),
                                 "label": row[0],
                                 "synonyms": synonyms, "variants": sorted(variants)}
            for c, ((ptype, period), channel) in _row_figures(row, layout):
                value, percent = parse_tatqa_number(row[c])
                if value is None:
                    continue
                header = _header_text(table, layout, c)
                unit = "percent" if percent or "%" in row[0] or \
                    channel == CHANGE_PCT_CHANNEL else _row_scale(
                        f"{row[0]} | {section} | {header}", _stated_scale(header) or scale)
                facts.append(Fact(code, uid, "NA", channel, ptype, period, value, unit, uid,
                                  f"table=0,row={r},col={c}"))
                row_codes[r] = code
                if not channel.startswith("CHANGE"):  # changes do not add up
                    figures.setdefault(r, {})[(ptype, period, channel)] = value
    _add_parts(metrics, blocks, row_codes, figures)
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
        "channels": {code: {"synonyms": syns} for code, syns in channels.items()},
    })
    chunks = tuple(Chunk(doc_id=uid, chunk_id=f"{uid}#p{p['order']}", seq=i,
                         text=p["text"].strip() or "(empty)",
                         source_locator=f"paragraph={p['order']}", language="en")
                   for i, p in enumerate(paragraphs))
    return TatqaContext(uid, profile, tuple(facts), chunks, tuple(tuple(r) for r in table),
                        tuple(ctx["questions"]), scale)


def _cell_figures(table: list[list[str]], block: _Block
                  ) -> list[tuple[int, dict[int, float]]]:
    """The figures of the block's rows in its level columns, by column."""
    cols = [c for c, (_, channel) in block.placements if not channel.startswith("CHANGE")]
    out = []
    for r in range(block.data_start, block.end):
        values = {c: v for c in cols if (v := parse_tatqa_number(table[r][c])[0]) is not None}
        if values:
            out.append((r, values))
    return out


def _add_parts(metrics: dict[str, dict[str, Any]], blocks: list[_Block],
               row_codes: dict[int, str],
               figures: dict[int, dict[tuple[str, str, str], float]]) -> None:
    """Record which rows are the sums of which (checked on the figures, per block)."""
    parts: dict[str, list[str]] = {}
    for block in blocks:
        rows = [(r, figures[r]) for r in range(block.data_start, block.end) if r in figures]
        for total, run in sum_parts(rows).items():
            code = row_codes[total]
            for r in run:
                part = row_codes[r]
                # one code can span blocks: never let a metric contain itself
                if part != code and not parts_reach(parts, part, code) and \
                        part not in parts.get(code, []):
                    parts.setdefault(code, []).append(part)
    for code, found in parts.items():
        metrics[code]["parts"] = found


def load_tatqa(path: str | Path) -> list[TatqaContext]:
    """Every context of a TAT-QA split file (dev, test_gold, ...)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [context_to_records(ctx) for ctx in data]
