"""Columns a question names: the terms naming them, and the row's total beside one.

:func:`channel_terms` lists every column's names (a percent column also without its
"%"); :func:`column_phrases` tells a row's name inside a column's name apart from a
row named; :func:`total_pair` reads "the difference between total net receivables and current
net receivables" over a table with a "Total" column as that column against the one named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.agent.reading.cue_words import PERCENT_CHANGE, POINTS_CHANGE
from ragspine_nb.agent.reading.dated_columns import DatedColumns
from ragspine_nb.agent.reading.intent_readings import Hit
from ragspine_nb.agent.reading.intent_terms import without_percent, word_set
from ragspine_nb.agent.reading.ratio_sides import AS_SHARE
from ragspine_nb.extract.placement import TOTAL_COLUMN
from ragspine_nb.glossary import function_words_only
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import content_words

__all__ = ["Columns", "channel_terms", "total_pair", "TOTAL_COLUMN", "names_the_operation",
           "column_phrases"]
_BETWEEN = re.compile(r"(?<![a-z])between(?![a-z]).*(?<![a-z])and(?![a-z])")
_TOTAL = re.compile(r"(?<![a-z])total(?![a-z])")


@dataclass(frozen=True)
class Columns:
    """The columns a question names, or the options to ask back with."""

    codes: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    #: the content words the named columns use
    words: frozenset[str] = frozenset()
    #: the columns were named by their headers' dates ("the quarter ended July 27, 2019")
    dated: DatedColumns | None = None


def channel_terms(profile: DomainProfile) -> list[tuple[str, str]]:
    """Column names as ``(term, code)``; a percent column is named without its "%" too.

    "External valuation %" is named by "external valuation" — when no other column has
    those words and two words at least remain ("% of Total" is not named by "total").
    """
    pairs = [(t, c.code) for c in profile.channels.values()
             if c.code != profile.default_channel for t in c.synonyms if not function_words_only(t)]
    rows = {content_words(t) for m in profile.metrics.values() for t in (m.label, *m.synonyms)}
    owners: dict[frozenset[str], set[str]] = {}
    for term, code in pairs:
        owners.setdefault(content_words(term), set()).add(code)
    extra = []
    for term, code in pairs:
        bare = without_percent(term)
        words = content_words(bare)
        others = [w for w, codes in owners.items() if codes != {code}]
        if len(words) >= 2 and not any(words <= w for w in others) and words not in rows:
            extra.append((bare, code))
    return pairs + extra


def total_pair(rest: str, named: frozenset[str], row_words: frozenset[str],
               pair: tuple[str, str], total_column: bool) -> tuple[str, ...]:
    """The named column and the row's total, in the order written; ``()`` if not asked.

    ``rest`` is the folded question outside the rows' names, ``named`` the named column's
    words, ``pair`` that column's code and the plain (total) channel. Only "between ...
    and ..." with "total" outside the row's and the column's names, over a workspace
    with a column headed "Total" (``total_column``: :data:`TOTAL_COLUMN` is a channel).

    >>> total_pair("the difference between total x and current x", frozenset({"current"}),
    ...            frozenset({"x"}), ("C_CURRENT", "TOTAL"), True)
    ('TOTAL', 'C_CURRENT')
    >>> total_pair("the difference in x between the current and the total",
    ...            frozenset({"current"}), frozenset({"x"}), ("C_CURRENT", "TOTAL"), True)
    ('C_CURRENT', 'TOTAL')
    """
    total = _TOTAL.search(rest)
    if not total_column or total is None or not _BETWEEN.search(rest) \
            or "total" in named | row_words:
        return ()
    column = min((m.start() for w in named
                  if (m := re.search(rf"(?<![a-z0-9]){re.escape(w)}", rest))), default=-1)
    return (pair[1], pair[0]) if total.start() < column else pair


def names_the_operation(column_words: frozenset[str], rest: str) -> bool:
    """Whether a column named only "Percent" is named by the operation asked.

    "The percentage change in net sales" and "cost of sales as a percentage of revenue"
    ask an operation; a report's column headed "Percent" (a share of some total) is not
    what they name.

    Examples
    --------
    >>> names_the_operation(frozenset({"percent"}), "what was the percentage change in sales")
    True
    >>> names_the_operation(frozenset({"percent"}), "how many percentage points did it change")
    True
    >>> names_the_operation(frozenset({"percent"}), "what percent of sales was apac")
    False
    >>> names_the_operation(frozenset({"percent", "sale"}), "the percentage change in sales")
    False
    >>> names_the_operation(frozenset({"percent"}), "cost of sales as a percentage of revenue")
    True

    A column "Percent of Total" is named by "as a percentage of total revenue" too: its
    other words are the share's base, which the question writes after "of".

    >>> names_the_operation(frozenset({"percent", "total"}),
    ...                     "subscription revenue as a percentage of total revenue")
    True
    >>> names_the_operation(frozenset({"percent", "total"}), "what was the percent of total")
    False

    A column named only by a comparison's word ("2023 versus 2022" headed a column
    "versus") is the comparison the question writes, never a column it names.

    >>> names_the_operation(frozenset({"versus"}), "revenue in 2023 versus 2022")
    True
    """
    compared = column_words - {"percent"}
    if compared and compared <= _COMPARING:
        return True
    share = AS_SHARE.search(rest)
    if share is not None:
        return column_words - {"percent"} <= content_words(rest[share.end():])
    return column_words <= {"percent"} and bool(PERCENT_CHANGE.search(rest)
                                                or POINTS_CHANGE.search(rest))


#: Words a question compares two figures with, never a column's own name.
_COMPARING = frozenset({"versus", "vs", "compared", "comparison", "against"})



def column_phrases(hits: Sequence[Hit], columns: Mapping[str, frozenset[str]],
                   held: Mapping[str, frozenset[str]] | None = None) -> list[Hit]:
    """The row phrases ``hits`` without those that name a column the question names.

    ``columns`` are the columns named, each with the words of its name. A phrase inside
    one of their names ("Total" in "% of Total") is the column, not a second row, as
    long as another row is named. With ``held`` (each column's rows that have stored figures),
    a phrase that is a column's whole name stays a row when that column holds no figure
    of another row named: "operating income and interest expense" beside a segment
    table's "Operating income" column names two rows, "net sales in Americas" under a
    "Net sales" column the column of the row "Americas".

    >>> hits = [(0, 16, "OPERATING_INCOME", "operating income"),
    ...         (21, 37, "INTEREST_EXPENSE", "interest expense")]
    >>> cols = {"C_OPERATING_INCOME": frozenset({"operating", "income"})}
    >>> [h[2] for h in column_phrases(hits, cols)]
    ['INTEREST_EXPENSE']
    >>> [h[2] for h in column_phrases(hits, cols, {"C_OPERATING_INCOME": frozenset({"SAFETY"})})]
    ['OPERATING_INCOME', 'INTEREST_EXPENSE']

    A phrase whose words lie in two columns' names is in neither:

    >>> hits = [(0, 12, "TOTAL_ASSETS", "total assets"),
    ...         (19, 36, "TOTAL_LIABILITIES", "total liabilities")]
    >>> cols = {"C_TOTAL_ASSETS": frozenset({"total", "asset"}),
    ...         "C_LIABILITIES": frozenset({"liability"})}
    >>> [h[2] for h in column_phrases(hits, cols)]
    ['TOTAL_LIABILITIES']
    """
    if len({h[2] for h in hits}) < 2:
        return list(hits)
    codes = {h[2] for h in hits}

    def is_column(hit: Hit) -> bool:
        phrase = word_set(hit[3])
        if not phrase or not any(phrase <= words for words in columns.values()):
            return False  # "total liabilities" is in no one of "Total assets", "Liabilities"
        whole = [c for c, words in columns.items() if words == phrase]
        return held is None or not whole or any(
            held.get(c, frozenset()) & (codes - {hit[2]}) for c in whole)

    return [h for h in hits if not is_column(h)] or list(hits)
