"""Rows whose names hold the row the question names: its "Total", and its variants.

A folder of filings states one figure under several names. "Current liabilities" is a
joint-venture note's row in one filing and "Total current liabilities" the balance
sheet's; "earnings per share" is stated only as "Basic earnings per share" and "Diluted
earnings per share". The row read as written is not always the figure asked:

- :func:`beside_totals` — the row named "Total" and the row's name, stated in another
  table, is a reading too (asked back); the one total that holds a figure asked stands
  in for a row named that holds none, the reading said;
- :func:`variants_stated` — a row named that holds no figure asked, whose variants (names
  holding all its words and more: "Diluted earnings per share") do, offers them: asked
  back, never one picked (a part is never presented as the whole).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.intent_rows import OPERATION_WORDS
from ragspine_nb.agent.reading.intent_terms import word_set
from ragspine_nb.agent.scope.stored_readings import holds_asked
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.protocols import FactReader

__all__ = ["beside_totals", "variants_stated"]

#: At most this many variants are offered; more name too little to ask among.
_OFFERED = 5


def _named(profile: DomainProfile, code: str) -> frozenset[str]:
    """A metric's name (its label, else its code) as words."""
    spec = profile.metrics.get(code)
    return word_set(spec.label or code) if spec is not None else frozenset()


@lru_cache(maxsize=8)
def _totals(profile: DomainProfile) -> dict[frozenset[str], tuple[str, ...]]:
    """Each name's words → the metrics named "Total" and those words."""
    out: dict[frozenset[str], list[str]] = {}
    for code, spec in profile.metrics.items():
        words = word_set(spec.label or code)
        if "total" in words and words - {"total"}:
            out.setdefault(words - {"total"}, []).append(code)
    return {k: tuple(v) for k, v in out.items()}


def _table(doc: str, locator: str) -> str:
    """The table a fact's cell is in: its document and locator before the row or cell."""
    head = re.split(r",?(?:row|cell)=", locator, maxsplit=1)[0]
    return f"{doc}|{head}"


def beside_totals(intent: ParsedIntent, store: FactReader, profile: DomainProfile
                  ) -> ParsedIntent:
    """One row read, and the rows named by "Total" and its name: both, from other tables.

    "General Mills' current liabilities" named, as written, the "Current liabilities" of
    a note on its joint ventures (1,298.8) — and the balance sheet's "Total current
    liabilities" (8,019.9) just as well: both are readings (the question is asked back
    unless they state the same figures). In one table "Other operating expenses" and
    "Total other operating expenses" are a line and its section's sum: the line named is
    asked, as before. A row named that states no figure asked ("Current liabilities" of
    another company's filing, for Nike) gives way to the one total that does, the reading
    said. "total" written in the question names its row already.
    """
    if len(intent.metrics) != 1 or intent.list_cue or "total" in word_set(intent.raw_question):
        return intent
    (row,) = intent.metrics
    named = _named(profile, row)
    totals = _totals(profile).get(named, ()) if named and "total" not in named else ()
    if not totals:
        return intent
    asked = set(intent.periods)

    def tables(metric: str) -> set[str]:
        return {_table(f.source_doc_id, f.source_locator) for f in
                store.iter_facts(metric_code=metric)
                if (not intent.entities or f.entity in intent.entities)
                and (not asked or (f.period_type, f.period) in asked)}

    mine = tables(row)
    others = [t for t in totals if (theirs := tables(t)) and not theirs & mine]
    if not others:
        return intent
    if not mine:  # the row named states no figure asked: the total does, said
        return intent if len(others) > 1 else replace(
            intent, metrics=(others[0],), metric=others[0], read_as_row=(row, others[0]))
    return replace(intent, metrics=(row, *others))


@lru_cache(maxsize=8)
def _by_word(profile: DomainProfile) -> dict[str, frozenset[str]]:
    """Each word of the metrics' names → the metrics whose name holds it."""
    out: dict[str, set[str]] = {}
    for code, spec in profile.metrics.items():
        for word in word_set(spec.label or code):
            out.setdefault(word, set()).add(code)
    return {w: frozenset(c) for w, c in out.items()}


def variants_stated(intent: ParsedIntent, store: FactReader, profile: DomainProfile
                    ) -> ParsedIntent:
    """One row read that holds no figure asked: its variants that do, offered.

    "What was General Mills' earnings per share in fiscal 2020?" read the built-in
    "Earnings per share", which its filings never state alone: they state "Basic …" and
    "Diluted earnings per share" (3.59 and 3.56). The answer was "not found"; the rows
    whose names hold every word of the one read and more, with a figure of the named
    companies for a period asked, are offered instead (asked back: which is meant is not
    said), when there are at most five. A name adding a change or a rate ("Changes in
    operating assets and liabilities: Inventories") is another quantity, not a variant. A
    row the profile computes (a formula) or answers by its parts (a group) is left to those.
    """
    if not intent.entities or not intent.periods or len(intent.metrics) != 1 \
            or intent.list_cue:
        return intent
    (row,) = intent.metrics
    spec = profile.metrics.get(row)
    if spec is None or spec.formula or spec.parts:
        return intent  # computed from its operands or answered by its parts
    channel = intent.channel or profile.default_channel
    named = _named(profile, row)
    if not named or holds_asked(store, row, intent, channel):
        return intent
    index = _by_word(profile)
    holding = frozenset.intersection(*(index.get(w, frozenset()) for w in named))
    held = {m for e in intent.entities for m, c in store.metric_channels(e) if c == channel}
    wider = {c: _named(profile, c) for c in holding & held if c != row}
    found = sorted(c for c, words in wider.items() if words > named
                   and not (words - named) & OPERATION_WORDS
                   and holds_asked(store, c, intent, channel))
    if not found or len(found) > _OFFERED:
        return intent
    return replace(intent, metrics=(), metric=None, metric_candidates=tuple(found))
