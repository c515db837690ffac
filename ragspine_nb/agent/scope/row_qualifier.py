"""A word written right before the one row read, that the row's names do not hold.

In a folder of filings every line label of every filing names something: General Mills'
balance sheet line "Receivables" becomes a name of the built-in "Accounts receivable".
"What is Nike's tax receivable in fiscal 2023?" then names that row in full by its last
word, and "tax" — a word of other rows' names, so not "unstated" — was read by nothing:
Nike's accounts receivable (4,131 million) was answered as its tax receivable, a wrong
number. A question naming a company, read as one row, whose word just before the row's
name is a word of some line item's name (a qualifier: "tax", not a verb: "drove") but
none of the row's own names' words, no word of a question about figures, no company,
column or period word, and no plain modifier ("net", "consolidated") asks about a
narrower thing than the row: the row is offered (asked back), never answered.

The same after the row's name: "What was 3M's operating income excluding restructuring in
2022?" answered the reported operating income (6,539 million), which restructuring is part
of. A word of another line item after "excluding", "before", "after", "net of", "adjusted
for" or "less" asks the row adjusted by it, a figure no row states: the row is offered.
So does a word asking another version of the row ("Nike's revenue in constant currency"
answered the reported 51,217 million; "currency-neutral", "organic", "adjusted").
"""

from __future__ import annotations

import re
from dataclasses import replace

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.unstated import QUESTION_WORDS, line_item_words
from ragspine_nb.agent.scope.stored_readings import metric_names
from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import content_words

__all__ = ["unread_qualifier", "unread_adjustment", "unread_version", "offered_instead",
           "ASKED_VERSION"]

#: Modifiers that leave a line item what it is ("net revenue", "consolidated revenue").
_PLAIN = frozenset({"net", "consolidated", "reported", "gaap", "annual", "overall", "group",
                    "company", "companys", "firm", "business", "its", "their", "the"})
_WORD_BEFORE = re.compile(r"([a-z][a-z'’-]*)\s+$")


def _known_names(intent: ParsedIntent, profile: DomainProfile) -> list[str]:
    """The names of the row, companies and columns read or offered (unknown code: itself).

    "the company's 2019 financial assets closing balance" names the column "Financial
    assets" before the row.
    """
    names = [n for m in intent.metrics for n in metric_names(profile, m)]
    for code in intent.entities:
        spec = profile.entities.get(code)
        names += [spec.label, *spec.synonyms] if spec else [code]
    return names + [n for c in (*intent.channels, intent.channel or "", *intent.channel_options)
                    if c in profile.channels for n in profile.channels[c].synonyms]


def _known_words(intent: ParsedIntent, profile: DomainProfile) -> set[str]:
    """Words of the row's names, the companies' names and the columns read."""
    return {w for n in _known_names(intent, profile) for w in content_words(n)}


def unread_qualifier(intent: ParsedIntent, profile: DomainProfile) -> str | None:
    """The word before the one row's name that nothing read explains, else ``None``.

    Only a question naming a company and read as one row, no list.
    """
    said = intent.mentions.get("metric", "")
    if not intent.entities or len(intent.metrics) != 1 or intent.list_cue or not said:
        return None
    asked = fold(intent.raw_question)
    at = asked.find(fold(said))
    m = _WORD_BEFORE.search(asked[:at]) if at > 0 else None
    if m is None:
        return None
    word = m.group(1)
    if word.endswith(("'s", "’s", "s'")):
        return None  # a possessive: the company's, Nike's
    words = content_words(word)
    if not words or words & (QUESTION_WORDS | _PLAIN | _known_words(intent, profile)):
        return None
    # a word of some line item's name qualifies one ("tax"); a verb ("drove") does not
    return word if words <= line_item_words(profile) else None


#: "excluding restructuring", "before special items", "net of litigation": the row adjusted by
#: another line item, a figure no row states (a period after "before" is no adjustment).
_ADJUSTED = re.compile(r"(?<![a-z])(?:excluding|excludes|exclude|ex|before|after|net of|"
                       r"adjusted for|less)\s+(?:the\s+|any\s+|all\s+)?([a-z][a-z'’-]*)")


def unread_adjustment(intent: ParsedIntent, profile: DomainProfile) -> str | None:
    """The line item the one row read is asked net of ("excluding restructuring"), else ``None``.

    Only a question naming a company and read as one row: the word after "excluding",
    "before", "after", "net of", "adjusted for" or "less" that follows the row's name is a
    word of some line item's name and none of the row's (nor a question's, company's,
    column's or period's word).
    """
    said = intent.mentions.get("metric", "")
    if not intent.entities or len(intent.metrics) != 1 or intent.list_cue or not said:
        return None
    asked = fold(intent.raw_question)
    at = asked.find(fold(said))
    if at < 0:
        return None
    m = _ADJUSTED.search(asked, at + len(said))
    if m is None:
        return None
    words = content_words(m.group(1))
    if not words or words & (QUESTION_WORDS | _PLAIN | _known_words(intent, profile)):
        return None
    return m.group(1) if words <= line_item_words(profile) else None


#: Words asking for another version of a figure than the one a report states ("revenue in
#: constant currency", "currency-neutral growth", "adjusted EBITDA", "organic sales"). Not
#: :data:`~ragspine_nb.agent.reading.unstated.VERSION_WORDS`: those count only when no
#: name of the workspace holds them; these whenever the names read lack them.
ASKED_VERSION = frozenset({"constant", "neutral", "adjusted", "organic", "underlying",
                           "proforma", "normalized", "normalised", "restated", "recast"})


def unread_version(intent: ParsedIntent, profile: DomainProfile) -> str | None:
    """A word of the question asking another version of the one row read, else ``None``.

    In a folder, "constant" is some filing's row word ("Constant Currency Growth %"), so
    never unstated; asked of another company's "Revenue" it still asks a figure no row
    read states. Only a question naming a company and read as one row, no list.

    >>> from ragspine_nb.profile import DomainProfile
    >>> i = ParsedIntent("What was ACME's revenue in constant currency in 2024?",
    ...                  "structured", "en", metrics=("REVENUE",), metric="REVENUE",
    ...                  entities=("ACME",), mentions={"metric": "revenue"})
    >>> unread_version(i, DomainProfile.builtin())
    'constant'
    """
    said = intent.mentions.get("metric", "")
    if not intent.entities or len(intent.metrics) != 1 or intent.list_cue or not said:
        return None
    words = content_words(fold(intent.raw_question).replace("-", " ")) & ASKED_VERSION
    known = {w for n in _known_names(intent, profile) for w in
             content_words(fold(n).replace("-", " "))}
    return min(words - known, default=None)


def offered_instead(intent: ParsedIntent, profile: DomainProfile) -> ParsedIntent:
    """The intent with its one row offered instead of read, when a qualifier is unread.

    A qualifier before the row's name ("tax receivable"), an adjustment after it
    ("operating income excluding restructuring"), or another version of it asked
    ("revenue in constant currency").
    """
    if unread_qualifier(intent, profile) is None and \
            unread_adjustment(intent, profile) is None and \
            unread_version(intent, profile) is None:
        return intent
    return replace(intent, metrics=(), metric=None, metric_candidates=intent.metrics)
