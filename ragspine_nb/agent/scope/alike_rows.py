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
"""

from __future__ import annotations

from ragspine_nb.agent.reading.intent import ParsedIntent
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
    rows = [_figures(store, m, entities, channel) for m in intent.metrics]
    if not all(rows):
        return ()
    shared = set.intersection(*(set(r) for r in rows))
    if not shared or any(len({r[k] for r in rows}) > 1 for k in shared):
        return ()  # two rows state different figures for one period: never one picked
    asked = {(e, p) for e in entities for p in intent.periods} or \
        {max(shared, key=lambda k: k[1][1])}
    return intent.metrics if asked <= shared else ()


def alike_note(profile: DomainProfile, codes: tuple[str, ...], lang: str) -> str:
    """What the answer says of rows that agree, in the question's language.

    >>> from ragspine_nb.profile import DomainProfile
    >>> alike_note(DomainProfile.builtin(), ("REVENUE", "NET_INCOME"), "en")
    '(Revenue and Net income state the same figures: Revenue is answered.)'
    """
    names = [metric_label(profile, c) for c in codes]
    if lang == "zh":
        return f"（{'、'.join(names)}所列数字相同，按{names[0]}作答）"
    return f"({' and '.join(names)} state the same figures: {names[0]} is answered.)"
