"""Readings of a question the store cannot serve for the company it names are dropped.

A workspace holding many filings has a vocabulary pooled from all of them: a row label
of one company's table ("Year End"), a column of another's 10-Q ("Quarter Jun 3"). For a
question naming a company, a metric or column that has no stored fact *of that company*
is not a reading of the question — asking back "which of these do you mean" with it
offers an option that cannot be answered. The rule, checked against the store:

* several metrics read and no list asked ("… and …"): those with a fact of the named
  companies stay when at least one does (never all dropped: the rest says not found);
* column / channel options to ask about: those stored for the named companies and the
  metrics kept stay; one left is the column read, none left is no column asked.

A question naming no company, or naming one with no facts, is left as it is. Nothing is
guessed: a reading is only ever removed, never added.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ragspine_nb.agent.intent import ParsedIntent
from ragspine_nb.stores.protocols import FactReader

__all__ = ["Narrowed", "narrow_to_store", "narrowed"]


@dataclass(frozen=True)
class Narrowed:
    """What the store kept of a question's readings, and what it dropped."""

    metrics: tuple[str, ...]
    channel_options: tuple[str, ...]
    dropped: tuple[str, ...] = ()


def narrowed(metrics: tuple[str, ...], options: tuple[str, ...], listed: bool,
             held: frozenset[tuple[str, str]]) -> Narrowed:
    """The readings ``held`` (stored ``(metric, channel)`` pairs) can serve.

    >>> held = frozenset({("INVENTORIES", "TOTAL"), ("REVENUE", "TOTAL")})
    >>> narrowed(("YEAR_END", "INVENTORIES"), (), False, held)
    Narrowed(metrics=('INVENTORIES',), channel_options=(), dropped=('YEAR_END',))
    >>> narrowed(("REVENUE", "NET_INCOME"), (), True, held).dropped  # a list: both asked
    ()
    >>> narrowed(("CAPEX",), ("C_QUARTER_JUN_3", "C_QUARTER_MAR_3"), False, held).dropped
    ('C_QUARTER_JUN_3', 'C_QUARTER_MAR_3')
    """
    if not held:
        return Narrowed(metrics, options)
    stored = {m for m, _ in held}
    kept = metrics
    if len(metrics) > 1 and not listed:
        kept = tuple(m for m in metrics if m in stored) or metrics
    opts = tuple(c for c in options if any(m == k and ch == c for m, ch in held for k in kept))
    dropped = tuple(m for m in metrics if m not in kept) + tuple(c for c in options
                                                                  if c not in opts)
    return Narrowed(kept, opts, dropped)


def narrow_to_store(intent: ParsedIntent, store: FactReader) -> tuple[ParsedIntent, Narrowed]:
    """The intent with the readings the named companies' facts cannot serve dropped."""
    if not intent.entities or not (len(intent.metrics) > 1 or intent.channel_options):
        return intent, Narrowed(intent.metrics, intent.channel_options)
    held = frozenset().union(*(store.metric_channels(e) for e in intent.entities))
    result = narrowed(intent.metrics, intent.channel_options, intent.list_cue, held)
    if not result.dropped:
        return intent, result
    out = replace(intent, metrics=result.metrics, metric=result.metrics[0] if result.metrics
                  else intent.metric, channel_options=result.channel_options)
    if len(result.channel_options) == 1 and len(intent.channel_options) > 1:
        out = replace(out, channel=result.channel_options[0],
                      channels=result.channel_options, channel_options=())
    return out, result
