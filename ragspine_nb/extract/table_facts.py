"""The facts of one walked table: each row's metric and each figure's channel and unit.

A row is a profile metric when its label goes through the glossary (in a table that
brings its own vocabulary, only when no other row of its block claims the same metric);
otherwise a metric derived from its label when the profile lets tables bring their own
(the built-in profile), else it is skipped and reported. A column's channel must be one
the profile knows unless the table brings its own vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ragspine_nb.core import Fact, is_stated_change
from ragspine_nb.extract.header_periods import Period
from ragspine_nb.extract.placement import NIL_MARKS, Channels, Place, row_places
from ragspine_nb.extract.rows import Namer, closing_subject
from ragspine_nb.extract.scale import RowKind
from ragspine_nb.extract.table_units import borrow_currency, figure_unit
from ragspine_nb.extract.table_walk import RowRef, change_row, plain_channel
from ragspine_nb.extract.values import parse_number
from ragspine_nb.glossary import (
    fold,
    metric_vocabulary,
    normalize_channel,
    normalize_metric,
    row_vocabulary,
    statement_names,
)
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.units import store_unit
from ragspine_nb.wordset import content_words

__all__ = ["Emitter", "RowMetric", "known_rows", "DEFERRED_TAX"]

#: A section of deferred tax components ("Deferred tax assets:", "递延所得税资产").
DEFERRED_TAX = re.compile(r"(?i)deferred (?:income )?tax|递延所得税")
#: The section a row of a table titled for deferred taxes is named with.
_TAX_SECTION = "deferred taxes"
#: A parenthesised note in a row label ("Net cash operating activities (1)").
_NOTE = re.compile(r"\([^)]*\)")


@dataclass(frozen=True)
class RowMetric:
    """A row's metric and channel; ``known`` when the profile names it."""

    code: str
    channel: str
    known: bool


@dataclass
class Emitter:
    """Collects the facts, skips and figures of one table (see the module docstring)."""

    profile: DomainProfile
    derive: bool
    entity: str
    parse_label: Callable[[DomainProfile, str], tuple[str, str] | None]
    locate: Callable[[int, int, str, str], str]
    lineage: dict[str, str]
    doc_id: str
    channels: Channels
    namer: Namer
    facts: list[Fact] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    unscaled: list[str] = field(default_factory=list)
    priced: list[str] = field(default_factory=list)  # unscaled, written to the cent
    figures: dict[int, dict[tuple[Period, str], float]] = field(default_factory=dict)
    codes: dict[int, str] = field(default_factory=dict)
    bad_columns: dict[int, str] = field(default_factory=dict)
    #: (row, column) → indices of its facts in ``facts``, and the kind of each fact
    at: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    kinds: list[str] = field(default_factory=list)
    good_columns: set[int] = field(default_factory=set)
    #: a filing's table (:attr:`~ragspine_nb.extract.tables.TableContext.filing`)
    filing: bool = False
    #: the table's title names deferred taxes: every row is one of their components
    tax_titled: bool = False

    # ------------------------------------------------------------------ metrics
    def known(self, ref: RowRef) -> tuple[str, str] | None:
        """The profile's (metric, channel) for a row label, else None.

        In a filing's table (``filing``), a row under a deferred tax section
        ("Deferred tax assets (liabilities): Depreciation and amortization (43,204)"), or
        any row of a table whose title names deferred taxes ("Deferred tax assets and
        liabilities were comprised of the following: … Property and equipment (169)"), is
        the tax effect of the item it names, never the item: not the profile's metric of
        that name (derived instead, qualified by its section). A lone table keeps the
        plain reading: there the row is what a question about that name asks for.
        A closing row ("Goodwill, end of the year") is the profile's metric it closes on.
        A row under a section of working-capital changes is the change of the item it
        names (:func:`change_row`), never the profile's balance of that name.
        """
        if self._tax_effect(ref):
            return None
        if change_row(ref.section):
            return None
        found = self.parse_label(self.profile, ref.raw)
        for name in statement_names(ref.raw) if found is None and self.filing else ():
            # a filing's line: "Property, plant, and equipment, net", "Accounts receivable —
            # net of allowances of $174 and $189" are the profile's line items
            if (found := self.parse_label(self.profile, name)) is not None:
                break
        if found is None:
            # the normal label (if it differs from the raw one), then what a closing row
            # closes on
            for text in (ref.label if ref.label != ref.raw.casefold() else "",
                         closing_subject(ref.label)):
                if text and (code := normalize_metric(self.profile, text, row=True)):
                    found = code, self.profile.default_channel
                    break
        if found is None and (code := _section_item(self.profile, ref.label, ref.section)
                              or _same_words(self.profile, ref.label, ref.section)):
            found = code, self.profile.default_channel
        return found

    def _tax_effect(self, ref: RowRef) -> bool:
        """A filing's row under a deferred tax section or title, naming another item."""
        return self.filing and not DEFERRED_TAX.search(ref.label) and bool(
            self.tax_titled or DEFERRED_TAX.search(ref.section))

    def keep_name(self, ref: RowRef, code: str) -> None:
        """Keep a row's own name for the profile's metric it was read as.

        A row read through a statement's wording ("Total cost of revenue") keeps its
        name as a name of the metric, so a question using it reads it whole; a row under
        a section keeps its name with the section's ("Trade receivables" under "Current":
        "current trade receivables"), as a row read as none of the profile's is named.
        """
        known = metric_vocabulary(self.profile)
        # not a row below the section's own total ("Total revenue" after "Total services")
        qualified = f"{ref.section} {ref.raw}" if ref.section and not ref.after_total else ""
        if fold(ref.raw) in known and (not qualified or fold(qualified) in known):
            return
        # the row's own name first: the name its table shows it by
        self.namer.known_names.setdefault(code, []).extend(n for n in (ref.raw, qualified) if n)

    def metric(self, ref: RowRef, known: tuple[str, str] | None) -> RowMetric | None:
        """The row's metric: the profile's, a derived one, or None (skipped, reported)."""
        if known is not None:
            return RowMetric(known[0], known[1], True)
        if not self.derive:
            self.skipped.append((self._loc(ref.r, 0, ref.raw, ""),
                                 f"row label {ref.raw!r} not in the glossary; row skipped"))
            return None
        # a change's row is named with its section ("changes in … inventories"), a row of
        # a table titled for deferred taxes with them
        tax = self._tax_effect(ref)
        titled = self.tax_titled and not ref.section and tax
        section = _TAX_SECTION if titled else ref.section
        # a tax effect is named, and labelled, only with its section: "inventories" names
        # no deferred tax asset on inventories (Amcor's 20 was answered as its inventories)
        raw = f"{section[:1].upper()}{section[1:]}: {ref.raw}" if tax and section else ref.raw
        # a row naming a profile metric, derived because two rows of its block claim it
        # ("TOTAL REVENUES" under "Revenues by:" twice), is named with its section only:
        # the bare name stays the profile metric's
        claimed = self.known(ref) is not None
        code = self.namer.code_for(raw, ref.label, section,
                                   ref.repeated or change_row(ref.section) or titled or tax
                                   or claimed, ref.layout.periods, ref.stub)
        if code is None:
            self.skipped.append((self._loc(ref.r, 0, ref.raw, ""),
                                 f"row label {ref.raw!r} names nothing; row skipped"))
            return None
        return RowMetric(code, self.profile.default_channel, False)

    def align_share_counts(self, parts: dict[int, tuple[int, ...]]) -> None:
        """Rows adding up to a share count are share counts, in its unit.

        "Dilutive securities" between "Basic weighted average shares" and "Diluted
        weighted average shares" (checked on the figures) is a number of shares, whatever
        its own words say.
        """
        for total, run in parts.items():
            for (r, c), indices in self.at.items():
                if r != total or self.kinds[indices[0]] != RowKind.SHARES:
                    continue
                fact = self.facts[indices[0]]
                for part in run:
                    for i in self.at.get((part, c), []):
                        if self.kinds[i] == RowKind.AMOUNT:
                            self._set_unit(i, fact.unit, fact.source_locator in self.unscaled)

    def _set_unit(self, i: int, unit: str, unscaled: bool) -> None:
        fact = self.facts[i]
        self.facts[i] = replace(fact, unit=unit)
        self.kinds[i] = RowKind.SHARES
        if (fact.source_locator in self.unscaled) != unscaled:
            if unscaled:
                self.unscaled.append(fact.source_locator)
            else:
                self.unscaled.remove(fact.source_locator)

    # ------------------------------------------------------------------ figures
    def _loc(self, r: int, c: int, rk: str, cl: str) -> str:
        return self.locate(r, c, rk, cl)

    def _channel(self, place: Place, metric: RowMetric) -> str | None:
        """The figure's channel, or None when the profile has no such channel."""
        channel = plain_channel(place.channel, self.profile.default_channel)
        if metric.channel != self.profile.default_channel:
            return metric.channel if channel == self.profile.default_channel else None
        if self.derive or channel in self.profile.channels:
            return channel
        names = self.channels.get(place.channel, [])
        return next((code for n in names if (code := normalize_channel(self.profile, n))), None)

    def row(self, grid: Sequence[Sequence[str]], ref: RowRef, metric: RowMetric,
            section_raw: str) -> None:
        """The facts of one row (and the skips of its cells that hold no number)."""
        row = grid[ref.r]
        key = metric.code if metric.channel == self.profile.default_channel \
            else f"{metric.code}.{metric.channel}"
        self._report_text_cells(row, ref, key, metric)
        first, nils = len(self.facts), []
        for place in row_places(row, ref.layout):
            channel = self._channel(place, metric)
            if channel is None:
                self.bad_columns.setdefault(place.column, place.channel)
                continue
            self.good_columns.add(place.column)
            if self._figure(grid, ref, metric, place, channel, section_raw, key):
                nils.append(len(self.facts) - 1)
        self._nil_units(first, nils)

    def _nil_units(self, first: int, nils: Sequence[int]) -> None:
        """A row's dashes in the one unit its figures share ("—" beside "1.3 %" is 0 %).

        A dash carries no unit of its own: it took the table's ("in millions") even in
        a row of percentages.
        """
        units = {self.facts[i].unit for i in range(first, len(self.facts)) if i not in nils}
        if len(units) == 1 and nils:
            unit = units.pop()
            for i in nils:
                self.facts[i] = replace(self.facts[i], unit=unit)

    def _report_text_cells(self, row: Sequence[str], ref: RowRef, key: str,
                           metric: RowMetric) -> None:
        """Cells of the row's placed columns that hold text, not a number (a dash is nil)."""
        for c in sorted({p.column for p in ref.layout.places
                         if self._channel(p, metric) is not None}):
            cell = row[c]
            number = parse_number(cell)
            if number.value is None and cell.strip() and cell.strip() not in ("-", "—", "–"):
                self.skipped.append((self._loc(ref.r, c, key, ""), number.reason))

    def _figure(self, grid: Sequence[Sequence[str]], ref: RowRef, metric: RowMetric,
                place: Place, channel: str, section_raw: str, key: str) -> bool:
        """File one figure of the row; whether it is a dash (nil) filed as zero."""
        row = grid[ref.r]
        number = parse_number(row[place.column])
        value = number.value
        nil = value is None and _nil(row[place.column], channel)
        if nil:
            value = 0.0
        if value is None:
            return False
        found = figure_unit(ref.units, ref.layout, place.column, channel, ref.raw, section_raw,
                            row, ref.r)
        unit = borrow_currency(found.unit, self.profile.unit_of(metric.code)) \
            if metric.known else found.unit
        ptype, period = place.period
        col = period_label(ptype, period)
        if channel not in (self.profile.default_channel, metric.channel):
            col = f"{col}.{channel}"
        locator = self._loc(ref.r, place.column, key, col)
        self.facts.append(Fact(
            metric.code, self.entity, self.profile.geography_of(self.entity), channel, ptype,
            period, value, store_unit(unit), self.doc_id, locator, **self.lineage))
        self.at.setdefault((ref.r, place.column), []).append(len(self.facts) - 1)
        self.kinds.append(found.kind)
        self.codes[ref.r] = metric.code
        if not metric.known and metric.code in self.namer.rows and \
                not self.namer.rows[metric.code].unit:
            self.namer.rows[metric.code].unit = store_unit(unit)
        if not found.scale_stated:
            self.unscaled.append(locator)  # the prose's scale may fill it in, but
            if number.currency and _CENTS.search(row[place.column].strip()):
                # "$ 117.01" (a price, a $100 investment's worth) is written to the cent:
                # no amount in millions is (it still says what scale the prose matches)
                self.priced.append(locator)
        if not is_stated_change(channel):
            self.figures.setdefault(ref.r, {})[(place.period, channel)] = value
        return nil


#: A figure written to the cent ("$ 117.01", "($ 2.50)"), read with its currency mark.
_CENTS = re.compile(r"\d\.\d{2}\)?$")
#: A label naming no line item, only a place in its section ("Total", "Net", "").
_BARE_TOTAL = re.compile(r"\s*(?:(?:total|net|subtotal|sub-total)\b\s*)*[:.]?\s*", re.I)


def _section_item(profile: DomainProfile, label: str, section: str) -> str | None:
    """The one line item a short row label names with its section heading, if any.

    "Basic" under "Earnings per share:" is the basic earnings per share. A bare "Total"
    stays its section's own total: "Assets:" may head a note's assets, not the balance
    sheet's.
    """
    section = section.strip(" :：").casefold()
    if not section or len(label.split()) > 2 or _BARE_TOTAL.fullmatch(label):
        return None
    named = {code for text in (f"{label} {section}", f"{section} {label}")
             if (code := normalize_metric(profile, text, row=True))}
    return named.pop() if len(named) == 1 else None


@lru_cache(maxsize=16)
def _names_by_words(profile: DomainProfile) -> dict[frozenset[str], frozenset[str]]:
    """The profile's row names by their content words (two words at least)."""
    out: dict[frozenset[str], set[str]] = {}
    for name, code in row_vocabulary(profile).items():
        words = content_words(name.replace("%", " percent "))  # "gross margin (%)"
        if len(words) >= 2 and name != code.casefold():  # a name, not the code
            out.setdefault(words, set()).add(code)
    return {words: frozenset(codes) for words, codes in out.items()}


def _same_words(profile: DomainProfile, label: str, section: str) -> str | None:
    """The one line item whose name has the label's content words, in any order.

    "Net cash operating activities" is the net cash from operating activities; a label
    whose words name two items, or fewer than two words, names none. Read only for a
    row under no section heading (under "Deferred tax liabilities:" a row's name is
    the tax effect of the item, not the item).
    """
    if section:
        return None
    words = content_words(_NOTE.sub(" ", label).replace("%", " percent "))
    codes = _names_by_words(profile).get(words, frozenset())
    return next(iter(codes)) if len(codes) == 1 else None


def _nil(cell: str, channel: str) -> bool:
    """Whether a placed cell is a dash (placed beside figures: nil, as reports print zero).

    A dash in a stated-change column says no change was stated, not a change of nil.
    """
    return cell.strip() in NIL_MARKS and not is_stated_change(channel)


def known_rows(emit: Emitter, refs: Sequence[RowRef],
               sums: dict[int, tuple[int, ...]] | None = None) -> dict[int, tuple[str, str]]:
    """Rows the profile names, by row index (the step before :meth:`Emitter.metric`).

    In a table bringing its own vocabulary, a metric two rows of one block claim (or a
    label repeated in it) is derived instead: never a silent pick of one of them. When
    one of them is named without a note and the others only with theirs ("Free cash
    flow" beside "Free cash flow (pre-spectrum)"), the plain one keeps the name; in a
    filing's table, when one of them adds up the others (``sums``, checked on the
    figures: "Sales 8,747", "Licensing revenue 12", "Total revenue 8,759"), the total
    keeps it.
    """
    found = {ref.r: k for ref in refs if (k := emit.known(ref)) is not None}
    if not emit.derive:
        return found
    # a filing's statement: its total line is the company's (a lone table stays unpicked)
    kept = _claimed_once(found, refs, (sums or {}) if emit.filing else {})
    for ref in refs:
        if ref.r in kept:
            emit.keep_name(ref, kept[ref.r][0])
    return kept


def _claimed_once(found: dict[int, tuple[str, str]], refs: Sequence[RowRef],
                  sums: dict[int, tuple[int, ...]]) -> dict[int, tuple[str, str]]:
    """The rows that keep the profile's name they were read as (see :func:`known_rows`)."""
    claims: dict[tuple[frozenset[tuple[str, str]], tuple[str, str]], list[RowRef]] = {}
    for ref in refs:
        if ref.r in found:
            claims.setdefault((ref.layout.periods, found[ref.r]), []).append(ref)
    keeps = set()
    for rows in claims.values():
        plain = [ref for ref in rows if "(" not in ref.label]
        totals = [ref for ref in rows
                  if {o.r for o in rows if o is not ref} <= set(sums.get(ref.r, ()))]
        if len(rows) == 1 or len(plain) == 1:
            keeps.add((plain or rows)[0].r)
        elif len(totals) == 1:
            keeps.add(totals[0].r)
    return {ref.r: found[ref.r] for ref in refs if ref.r in keeps and not ref.repeated}
