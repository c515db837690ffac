"""Rows a question names that state the same figures are one reading, said.

A filing states one line item in several tables: Adobe's "Total subscription revenue"
(a revenue note) and "Subscription" under "Revenue:" (the income statement) hold the same
16,388 for fiscal 2022. "What was Adobe's subscription revenue in fiscal 2022?" names both,
and asking back which was meant offers a choice that changes nothing. When the rows the
question names (no list asked) state the same figure for each period asked — the latest
period they all state when none is asked — and contradict each other in no period they
all state (same value, same unit, in the column asked), the first is answered and the
answer says the others agree. Rows that differ anywhere are left as they are (the caller
asks back): nothing is chosen between different numbers.

A reconciliation repeats a line item with its sign word: Amcor's "Interest expense (159)"
is "Add: Interest expense 159" and "Less: Interest expense (159)" of its EBIT table.
Rows whose labels differ only by that word (:func:`unsigned_label`) agree when their
amounts do, sign apart; the row with no sign word is answered (none: nothing is).
"""

from __future__ import annotations

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.intent_terms import unsigned_label
from ragspine_nb.agent.reading.labels import metric_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.protocols import FactReader

__all__ = ["alike_rows", "alike_note"]

#: ``(entity, (period type, period))``: one cell of a row
_Cell = tuple[str, tuple[str, str]]


def _figures(store: FactReader, metric: str, entities: tuple[str, ...], channel: str
             ) -> dict[_Cell, tuple[float, str]]:
    return {(f.entity, (f.period_type, f.period)): (f.value, f.unit)
            for entity in entities
            for f in store.iter_facts(metric_code=metric, entity=entity, channel=channel)}


def alike_rows(intent: ParsedIntent, store: FactReader, profile: DomainProfile
               ) -> tuple[str, ...]:
    """The rows named, when they state the same figures (the first is answered); else ``()``.

    Only several rows named without a list, read plainly (no part, movement or row
    reading), with no column left to ask about.
    """
    if len(intent.metrics) < 2 or intent.list_cue or intent.channel_options or \
            intent.read_as_part or intent.read_as_row or intent.read_as_movement:
        return ()
    entities = intent.entities or (profile.home_entity_code,)
    channel = intent.channel or profile.default_channel
    metrics = _signed_twins(profile, intent.metrics)
    rows = [_figures(store, m, entities, channel) for m in metrics or intent.metrics]
    if not all(rows):
        return ()
    shared = set.intersection(*(set(r) for r in rows))
    said = {k: {(abs(r[k][0]) if metrics else r[k][0], r[k][1]) for r in rows} for k in shared}
    if not shared or any(len(figures) > 1 for figures in said.values()):
        return ()  # two rows state different figures for one period: never one picked
    asked = {(e, p) for e in entities for p in intent.periods} or \
        {max(shared, key=lambda k: k[1][1])}
    return (metrics or intent.metrics) if asked <= shared else ()


def _signed_twins(profile: DomainProfile, codes: tuple[str, ...]) -> tuple[str, ...]:
    """``codes`` with the row of no sign word first, when they are one line item signed.

    ``()`` unless every label is one row's label, or it with a sign word, and one is bare.
    """
    labels = {c: metric_label(profile, c) for c in codes}
    bare = [c for c, label in labels.items() if not unsigned_label(label)]
    names = {(unsigned_label(label) or label).casefold() for label in labels.values()}
    if len(bare) != 1 or len(names) != 1:
        return ()
    return (bare[0], *(c for c in codes if c != bare[0]))


def alike_note(profile: DomainProfile, codes: tuple[str, ...], lang: str) -> str:
    """What the answer says of rows that agree, in the question's language.

    >>> from ragspine_nb.profile import DomainProfile
    >>> alike_note(DomainProfile.builtin(), ("REVENUE", "NET_INCOME"), "en")
    '(Revenue and Net income state the same figures: Revenue is answered.)'
    """
    names = [metric_label(profile, c) for c in codes]
    signed = bool(_signed_twins(profile, codes))  # a reconciliation's rows, signed
    if lang == "zh":
        apart = "（符号除外）" if signed else ""
        return f"（{'、'.join(names)}所列数字相同{apart}，按{names[0]}作答）"
    return (f"({' and '.join(names)} state the same figures{', sign apart' if signed else ''}: "
            f"{names[0]} is answered.)")
