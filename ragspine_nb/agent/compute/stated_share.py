"""Shares the tables state: "the percentage of revenue from Apple and Huawei in 2017".

A table of significant customers lists each one's share of revenue ("Apple 34%",
"Huawei 11%") and no revenue at all. Asked for "the percentage of revenue from Apple",
the share is the figure the table states, not one to compute: every row the question
names that the tables hold is stored as a percentage for the periods asked, and every
other row it names (the whole, "revenue") is stated by no table at all. The question
is then read as those rows' stated percentages — each one looked up, or their sum or
average when asked ("the total percentage of revenue from Apple and Huawei") — and the
answer says so. Anything else (the whole is stored, a row is no percentage) leaves the
share to be computed, or refused, as before.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ragspine_nb.agent.compute.operations import Operation
from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.run import Run
from ragspine_nb.agent.write.templates import TEXT
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.units import unit_parts

__all__ = ["StatedShares", "stated_shares", "read_stated_shares"]


@dataclass(frozen=True)
class StatedShares:
    """The question read over the stated percentages: its rows and its operation."""

    intent: ParsedIntent
    #: ``None``: each row looked up; else their ``sum`` or ``average``
    operation: Operation | None


def _asked_share(operation: Operation | None) -> str | None:
    """What is asked of the shares: ``""`` each, ``sum`` or ``average``; ``None`` no share."""
    if operation is None:
        return None
    if operation.kind == "sum" and operation.nested == "share":
        return "sum"
    if operation.kind == "share" and operation.then in ("", "average"):
        return operation.then
    return None


def _percent_rows(intent: ParsedIntent, store: FactStore, profile: DomainProfile
                  ) -> tuple[list[str], list[str]] | None:
    """The rows stored as percentages for every period asked, and the rows stored nowhere."""
    entity = intent.entity or profile.home_entity_code
    channel = intent.channel or profile.default_channel
    shares, absent = [], []
    for metric in intent.metrics:
        facts = store.iter_facts(metric_code=metric, entity=entity)
        if not facts:
            absent.append(metric)
            continue
        asked = [f for f in facts if f.channel == channel
                 and (not intent.periods or (f.period_type, f.period) in intent.periods)]
        if not asked or not all(unit_parts(f.unit).percent for f in asked):
            return None
        shares.append(metric)
    return shares, absent


def stated_shares(intent: ParsedIntent, operation: Operation | None, store: FactStore,
                  profile: DomainProfile) -> StatedShares | None:
    """The question read as the shares the tables state, or ``None`` (see module docstring)."""
    asked = _asked_share(operation)
    if asked is None or len(intent.metrics) < 2:
        return None
    rows = _percent_rows(intent, store, profile)
    if rows is None or not rows[0] or not rows[1]:
        return None
    shares = tuple(rows[0])
    read = replace(intent, metrics=shares, metric=shares[0])
    combined = Operation(asked, implicit=True) if asked else None
    return StatedShares(read, combined)


def read_stated_shares(run: Run, operation: Operation | None) -> Operation | None:
    """The operation to answer; the run's question re-read over the stated shares if any.

    The gateway decides again on the rows kept, and its note first says the
    percentages are the report's.
    """
    shares = stated_shares(run.intent, operation, run.store, run.profile)
    run.trace.record(stated_share=shares is not None)
    if shares is None:
        return operation
    run.intent = shares.intent
    run.reclarify(TEXT["stated_share"][run.lang], shares.operation)
    return shares.operation
