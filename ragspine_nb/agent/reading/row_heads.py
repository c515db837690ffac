"""A row named by the head of its label, when nothing else is read.

"Indemnification receivable" names the one row "Indemnification receivable from SSL for
pre-closing taxes (see Note 13)". A filing's label often runs on past the thing it
names: a source ("from SSL"), a purpose ("for pre-closing taxes"), a note reference
("(see Note 13)"). A question names the thing ("What is the percentage change in
indemnification receivable?") and no row's name in full, so it was read as no row and
the nearest built-in names were offered ("Accounts receivable"), never the row meant.
When nothing else was read, the one row with figures whose label's head — the words
before its first qualifier (" from ", " for ", "(", ",") — is two or more words, all
written in the question, is the row asked (its full label names it in the answer). Two
such rows, or a head of one word ("Other from …"), read nothing: the near names are
offered as before.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from ragspine_nb.agent.reading.intent_readings import Rows
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import content_words

if TYPE_CHECKING:
    from ragspine_nb.agent.reading.intent_rows import RowReader

__all__ = ["label_head", "row_by_head", "named_by_head"]

#: Where a label's qualifier starts: a source, a purpose, a parenthesis, a comma.
_QUALIFIER = re.compile(r"\s+(?:from|for)\s+|\s*\(|\s*,\s*", re.I)


def label_head(label: str) -> frozenset[str]:
    """The content words of a label before its first qualifier; empty when it has none.

    >>> sorted(label_head("Indemnification receivable from SSL for pre-closing taxes"))
    ['indemnification', 'receivable']
    >>> label_head("Accounts receivable")
    frozenset()
    """
    parts = _QUALIFIER.split(label, maxsplit=1)
    if len(parts) < 2 or not parts[1].strip():
        return frozenset()
    return frozenset(content_words(parts[0]))


def row_by_head(heads: Mapping[str, frozenset[str]], words: frozenset[str],
                live: Collection[str]) -> str | None:
    """The one row with figures (``live``) whose label's head (``heads``) ``words`` hold.

    >>> heads = {"IND": frozenset({"indemnification", "receivable"}),
    ...          "FEE": frozenset({"fees", "paid"})}
    >>> row_by_head(heads, frozenset({"change", "indemnification", "receivable"}), {"IND"})
    'IND'
    >>> row_by_head(heads, frozenset({"receivable"}), {"IND"}) is None
    True
    """
    found = [code for code, head in heads.items() if code in live and head <= words]
    return found[0] if len(found) == 1 else None


@lru_cache(maxsize=8)
def _heads(profile: DomainProfile) -> dict[str, frozenset[str]]:
    """Each metric's label head of two or more words (built once per profile)."""
    heads = {code: label_head(spec.label) for code, spec in profile.metrics.items()
             if spec.label}
    return {code: head for code, head in heads.items() if len(head) >= 2}


def named_by_head(reader: RowReader, rows: Rows, words: frozenset[str]) -> Rows:
    """The one row named by its label's head, when nothing was read; else ``rows``.

    Only rows read as nothing (near names offered, no misspelling) are read again.
    """
    if rows.codes or not rows.candidates or rows.misspelled or reader.live is None:
        return rows
    heads = _heads(reader.profile)
    code = row_by_head(heads, words, reader.live)
    return rows if code is None else Rows((code,), rows.hits, heads[code])
