"""Readings of a question the store cannot serve for the company it names are dropped.

A workspace holding many filings has a vocabulary pooled from all of them: a row label
of one company's table ("Year End"), a column of another's 10-Q ("Quarter Jun 3"). For a
question naming a company, a metric or column that has no stored fact *of that company*
is not a reading of the question — asking back "which of these do you mean" with it
offers an option that cannot be answered. Only a line item or column a *document*
brought (its vocabulary) is ever dropped, never one of the profile's own: "income
before income tax" stays a reading beside "income tax" even when only the latter is
stored (dropping it would answer the wrong line). The rule, checked against the store:

* several metrics read and no list asked ("… and …"): those with a fact of the named
  companies stay when at least one does (never all dropped: the rest says not found);
* column / channel options to ask about: those stored for the named companies and the
  metrics kept stay; one left is the column read, none left is no column asked.

A reading is dropped only when the words it took from the question say nothing the kept
readings do not: "year end inventories" drops a "Year End" row (a question's general
word), but "days sales outstanding" keeps "Outstanding" beside "Revenue" ("sales") —
dropping it would answer revenue for a ratio the question names (:func:`names_more`).
A question naming no company, or naming one with no facts, is left as it is. Nothing is
guessed: a reading is only ever removed, never added.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.intent_terms import bare_label
from ragspine_nb.agent.reading.operation_detect import percent_column
from ragspine_nb.agent.reading.ratio_sides import ratio_split
from ragspine_nb.agent.reading.unstated import QUESTION_WORDS
from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.protocols import FactReader
from ragspine_nb.vocabulary import Vocabulary
from ragspine_nb.wordset import content_words

__all__ = ["Narrowed", "narrow_to_store", "narrowed", "brought_codes", "names_more",
           "profile_reading", "share_not_column", "narrow_to_periods", "metric_names",
           "unserved_row", "serves_column", "holds_asked"]


@dataclass(frozen=True)
class Narrowed:
    """What the store kept of a question's readings, and what it dropped."""

    metrics: tuple[str, ...]
    channel_options: tuple[str, ...]
    dropped: tuple[str, ...] = ()


def narrowed(metrics: tuple[str, ...], options: tuple[str, ...], listed: bool,
             held: frozenset[tuple[str, str]], brought: frozenset[str],
             channel: str | None = None) -> Narrowed:
    """The readings ``held`` (stored ``(metric, channel)`` pairs) can serve.

    Only codes in ``brought`` (those documents brought, not the profile's) are dropped.
    With ``channel`` (the column asked, the plain one when the question names none), a
    metric serves only with a fact in that column: a segment table's "Total revenues",
    stored only under its region columns, is no reading of "Nike's revenue" beside the
    income statement's line.

    >>> held = frozenset({("INVENTORIES", "TOTAL"), ("INCOME_TAX", "TOTAL")})
    >>> docs = frozenset({"YEAR_END", "C_QUARTER_JUN_3", "C_QUARTER_MAR_3"})
    >>> narrowed(("YEAR_END", "INVENTORIES"), (), False, held, docs)
    Narrowed(metrics=('INVENTORIES',), channel_options=(), dropped=('YEAR_END',))
    >>> narrowed(("INCOME_TAX", "PRETAX_INCOME"), (), False, held, docs).dropped  # profile's
    ()
    >>> narrowed(("YEAR_END", "NET_INCOME"), (), True, held, docs).dropped  # a list: both asked
    ()

    (:func:`narrow_to_store` reads a list's items apart: a row listed with its own words.)
    >>> narrowed(("CAPEX",), ("C_QUARTER_JUN_3", "C_QUARTER_MAR_3"), False, held, docs).dropped
    ('C_QUARTER_JUN_3', 'C_QUARTER_MAR_3')
    >>> held = frozenset({("REVENUE", "TOTAL"), ("SEGMENT_REVENUES", "C_NORTH_AMERICA")})
    >>> narrowed(("REVENUE", "SEGMENT_REVENUES"), (), False, held,
    ...          frozenset({"SEGMENT_REVENUES"}), "TOTAL").metrics
    ('REVENUE',)
    """
    if not held:
        return Narrowed(metrics, options)
    stored = {m for m, c in held if channel is None or c == channel} | (set(metrics) - brought)
    kept = metrics
    if len(metrics) > 1 and not listed:
        kept = tuple(m for m in metrics if m in stored) or metrics
    opts = tuple(c for c in options if c not in brought
                 or any(m == k and ch == c for m, ch in held for k in kept))
    dropped = tuple(m for m in metrics if m not in kept) + tuple(c for c in options
                                                                  if c not in opts)
    return Narrowed(kept, opts, dropped)


#: The codes of the vocabularies last read, kept with them (the store reads them again only
#: after a write; the codes are gathered again only when they are other objects).
_BROUGHT: list[tuple[tuple[Vocabulary, ...], frozenset[str]]] = []


def brought_codes(store: FactReader) -> frozenset[str]:
    """The metric and column codes the workspace's documents brought beside the profile."""
    vocabularies = tuple(store.vocabularies().values())
    for held, codes in _BROUGHT:
        if len(held) == len(vocabularies) and all(a is b for a, b in zip(held, vocabularies,
                                                                          strict=True)):
            return codes
    codes = frozenset([m.code for v in vocabularies for m in v.metrics]
                      + [c.code for v in vocabularies for c in v.channels])
    _BROUGHT[:] = [(vocabularies, codes)]
    return codes


def names_more(question: str, names: Iterable[str], kept_names: Iterable[str]) -> bool:
    """Whether a reading's names, where the question writes them, carry a word of their own.

    A word of its own is one that no kept reading's name holds and that is no general
    word of a question (:data:`~ragspine_nb.agent.reading.unstated.QUESTION_WORDS`).

    Examples
    --------
    >>> names_more("Adobe's days sales outstanding in FY2022", ["outstanding"],
    ...            ["revenue", "net sales", "sales"])
    True
    >>> names_more("year end inventories 2019", ["year end"], ["inventories"])
    False
    >>> names_more("days sales outstanding", ["shares outstanding"], ["sales"])  # not written
    False
    """
    asked = fold(question)
    said: set[str] = set()
    for name in names:
        if _written(asked, name):
            said |= content_words(name)
    covered = set().union(*(content_words(n) for n in kept_names))
    return bool(said - covered - QUESTION_WORDS)


def metric_names(profile: DomainProfile, code: str) -> list[str]:
    """A metric's label and synonyms (none for a code the profile lacks)."""
    spec = profile.metrics.get(code)
    return [spec.label, *spec.synonyms] if spec is not None else []


def narrow_to_store(intent: ParsedIntent, store: FactReader,
                    profile: DomainProfile | None = None) -> tuple[ParsedIntent, Narrowed]:
    """The intent with the readings the named companies' facts cannot serve dropped.

    With ``profile``, a reading that names something the others do not
    (:func:`names_more`) is never dropped: the question is asked back instead.
    """
    if not intent.entities or not (len(intent.metrics) > 1 or intent.channel_options):
        return intent, Narrowed(intent.metrics, intent.channel_options)
    held = frozenset().union(*(store.metric_channels(e) for e in intent.entities))
    brought = brought_codes(store)
    listed = intent.list_cue
    if profile is not None:
        stored = {m for m, _ in held}
        kept = [n for m in intent.metrics if m in stored for n in metric_names(profile, m)]
        brought = frozenset(c for c in brought if c in stored or c not in intent.metrics
                            or not _own_item(intent, metric_names(profile, c), kept))
        listed = False  # a row listed with its own words stays (above); none else is asked
    asked = intent.channel or (profile.default_channel if profile is not None
                               and not intent.channel_options else None)
    result = narrowed(intent.metrics, intent.channel_options, listed, held, brought, asked)
    if not result.dropped:
        return intent, result
    out = replace(intent, metrics=result.metrics, metric=result.metrics[0] if result.metrics
                  else intent.metric, channel_options=result.channel_options)
    if len(result.channel_options) == 1 and len(intent.channel_options) > 1:
        out = replace(out, channel=result.channel_options[0],
                      channels=result.channel_options, channel_options=())
    return out, result


def profile_reading(intent: ParsedIntent, store: FactReader, profile: DomainProfile
                    ) -> ParsedIntent:
    """The profile's own metric for the words another company's line item took.

    In a folder of several companies' filings, "gross margin" is a line item of some
    (Best Buy's and Nike's dollar "Gross margin" rows, a code their documents brought);
    asked of a company whose filings state no such line, the words are the profile's
    "Gross margin (%)" — the name it would have read them as had no document brought
    the row. The one metric read is replaced only when it is a brought code with no
    fact of the named companies and the words it took are, as written, the name of
    exactly one profile metric (its label or a synonym, notes such as "(%)" left out).
    """
    words = fold(intent.mentions.get("metric", ""))
    if not intent.entities or len(intent.metrics) != 1 or not words:
        return intent
    (code,) = intent.metrics
    brought = brought_codes(store)
    if code not in brought or any(m == code for e in intent.entities
                                  for m, _ in store.metric_channels(e)):
        return intent
    named = _own_names(profile, brought).get(words, frozenset())
    if len(named) != 1:
        return intent
    (found,) = named
    return replace(intent, metric=found, metrics=(found,))


@lru_cache(maxsize=8)
def _own_names(profile: DomainProfile, brought: frozenset[str]) -> dict[str, frozenset[str]]:
    """Each folded name of the profile's own metrics (notes left out too) → their codes."""
    out: dict[str, set[str]] = {}
    for m in profile.metrics.values():
        if m.code in brought:
            continue
        for name in (m.label, *m.synonyms):
            for form in {fold(name), fold(bare_label(name))} - {""}:
                out.setdefault(form, set()).add(m.code)
    return {k: frozenset(v) for k, v in out.items()}


def share_not_column(intent: ParsedIntent, store: FactReader, profile: DomainProfile
                     ) -> ParsedIntent:
    """A share asked, its percent word read as a column the company states for no row read.

    "What percentage of Nike's revenue came from North America?" read the "Percent"
    column of General Mills' tables: a share the tables state is looked up, not
    computed — but Nike states none. A percent column the named companies hold for
    none of the rows read is the question's word for the share: no column is read, and
    the share is computed (or refused) over the rows. A column a named company states
    for a row read ("what percent of sales was APAC" beside a "%" column) stays.
    """
    if not intent.entities or not intent.channels or \
            not all(percent_column(profile, c) for c in intent.channels) or \
            ratio_split(fold(intent.raw_question)) is None:
        return intent
    held = frozenset().union(*(store.metric_channels(e) for e in intent.entities))
    if not held or any((m, c) in held for m in intent.metrics for c in intent.channels):
        return intent
    return replace(intent, channel=None, channels=())


def narrow_to_periods(intent: ParsedIntent, store: FactReader, profile: DomainProfile
                      ) -> ParsedIntent:
    """Several rows read for the periods named: a document's row with no figure for them.

    "How much cash did Best Buy have at the end of Q2 FY2024?" offered, beside the two
    cash rows its 10-Q states, two rows only its 2017 10-K has ("Cash and cash
    equivalents at end of period - held for sale"). A row a document brought that holds
    no figure of the named companies for any period asked is no reading, when another
    row read holds one — unless the question writes its name in full, or its words say
    something the kept rows' do not (:func:`names_more`): then it stays, and the
    question is asked back with it ("subscription revenue" beside "Total subscription
    revenue", in a year only the latter states).
    """
    if not intent.entities or not intent.periods or len(intent.metrics) < 2:
        return intent
    channel = intent.channel or profile.default_channel

    def serves(metric: str) -> bool:
        return holds_asked(store, metric, intent, channel)

    brought = brought_codes(store)
    serving = [m for m in intent.metrics if serves(m)]
    if not serving:
        return intent
    kept_names = [n for m in serving for n in metric_names(profile, m)]
    asked_text = fold(intent.raw_question)
    kept = tuple(m for m in intent.metrics if m in serving or m not in brought
                 or _own_item(intent, metric_names(profile, m), kept_names, asked_text))
    if len(kept) == len(intent.metrics):
        return intent
    return replace(intent, metrics=kept, metric=kept[0])


def _own_item(intent: ParsedIntent, names: Sequence[str], kept: Sequence[str],
              asked: str | None = None) -> bool:
    """Whether a row is asked in its own words: they say more than the kept rows' names.

    In a list ("revenue and EBITDA"), a row whose name is written in full is an item of
    it too; a row found only inside the words of another ("(Increase) in inventories"
    beside "Inventories") is none.
    """
    if names_more(intent.raw_question, names, kept):
        return True
    if not intent.list_cue and asked is None:
        return False
    asked = asked if asked is not None else fold(intent.raw_question)
    return any(_written(asked, n) for n in names)


def holds_asked(store: FactReader, metric: str, intent: ParsedIntent,
           channel: str | None = None) -> bool:
    """Whether ``metric`` holds a figure of the named companies for a period asked.

    In ``channel`` only, when one is given (any column when ``None``).
    """
    asked = set(intent.periods)
    where = {"channel": channel} if channel is not None else {}
    return any((f.period_type, f.period) in asked for e in intent.entities
               for f in store.iter_facts(metric_code=metric, entity=e, **where))


def _written(asked: str, name: str) -> bool:
    """Whether the folded question writes ``name`` in full (as words)."""
    return bool(name) and re.search(rf"(?<!\w){re.escape(fold(name))}(?!\w)", asked) is not None


def unserved_row(intent: ParsedIntent, store: FactReader) -> str | None:
    """The one row read when a document brought it and it holds no figure asked.

    "Adobe's Digital Media revenue in fiscal 2017": the 2022 10-K's row "Total Digital
    Media revenue" states 2020–2022 only. Such a row (named companies and periods, no
    column named) may be the words of another row and a column
    (:func:`serves_column`); ``None`` when the row read holds a figure asked.
    """
    if not intent.entities or not intent.periods or len(intent.metrics) != 1 \
            or intent.channel or intent.channel_options:
        return None
    (metric,) = intent.metrics
    if metric not in brought_codes(store):
        return None
    return None if holds_asked(store, metric, intent) else metric


def serves_column(intent: ParsedIntent, store: FactReader) -> bool:
    """Whether one row in one named column holds a figure of the companies for a period asked."""
    if len(intent.metrics) != 1 or not intent.channel or not intent.entities:
        return False
    return holds_asked(store, intent.metrics[0], intent, intent.channel)
