"""Rule-based intent parsing (zero LLM, driven by the profile).

Slots are read from the gate-masked question into a
:class:`~ragspine_nb.agent.reading.parsed.ParsedIntent`: metric, entity, period, channel, the
multi-value lists ``metrics`` / ``entities`` / ``periods`` in question order, and the
route: a recognised metric plus a narrative cue → ``composite``; a metric or a
numeric cue → ``structured``; otherwise ``narrative``. Rows are read by
:class:`~ragspine_nb.agent.reading.intent_rows.RowReader` (whole names first, never a guess);
a question qualifying its figure with words no row, column or entity states
(:mod:`ragspine_nb.agent.reading.unstated`) goes to the narrative channel, never to the
nearest row.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from datetime import date
from functools import cached_property

from ragspine_nb.agent.gate.security_gate import SecurityGate
from ragspine_nb.agent.reading.abbreviations import names_united_states, writes_united_states
from ragspine_nb.agent.reading.bucket_window import read_window
from ragspine_nb.agent.reading.cue_words import (
    CHANGE_CUES,
    NARRATIVE_CUES,
    NUMERIC_CUES,
    PERCENT_CUES,
    SHARE_CUES,
)
from ragspine_nb.agent.reading.dated_columns import dated_columns
from ragspine_nb.agent.reading.intent_columns import (
    TOTAL_COLUMN,
    column_phrases,
    names_the_operation,
    total_pair,
)
from ragspine_nb.agent.reading.intent_columns import Columns as _Columns
from ragspine_nb.agent.reading.intent_columns import channel_terms as _channel_terms
from ragspine_nb.agent.reading.intent_rows import OPERATION_WORDS, Hit, RowReader, Rows
from ragspine_nb.agent.reading.intent_terms import (
    LIST_CUES,
    compile_terms,
    find_all,
    has_cue,
    list_cue,
    mask,
    named_over_placeholder,
    numbered_columns,
    without_phrases,
    without_words,
    word_set,
)
from ragspine_nb.agent.reading.list_partner import unread_partner
from ragspine_nb.agent.reading.operation_cues import without_operands, without_signed_extreme
from ragspine_nb.agent.reading.owners_words import named_codes
from ragspine_nb.agent.reading.parsed import (
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    ROUTE_STRUCTURED,
    IntentParser,
    ParsedIntent,
)
from ragspine_nb.agent.reading.question_periods import question_periods, starts_change
from ragspine_nb.agent.reading.ratio_sides import share_nouns
from ragspine_nb.agent.reading.spelling import Speller, name_texts
from ragspine_nb.agent.reading.unstated import (
    qualifies_beyond,
    unresolved_partner,
    unstated_words,
    vocabulary_words,
)
from ragspine_nb.core import CHANGE_PCT_CHANNEL, is_stated_change
from ragspine_nb.glossary import entity_vocabulary, fold, text_channel_vocabulary
from ragspine_nb.lang import detect_language
from ragspine_nb.period_phrases import QUESTION_PERIOD, without_periods
from ragspine_nb.profile import DomainProfile
from ragspine_nb.wordset import WordSetIndex, content_words

__all__ = [
    "ParsedIntent",
    "IntentParser",
    "RuleIntentParser",
    "ROUTE_STRUCTURED",
    "ROUTE_NARRATIVE",
    "ROUTE_COMPOSITE",
    "NARRATIVE_CUES",
    "NUMERIC_CUES",
    "LIST_CUES",
    "CHANGE_CUES",
    "PERCENT_CUES",
    "SHARE_CUES",
]

_PERIOD = QUESTION_PERIOD
# kept importable under their earlier names (agent.figures reads figures with them)
_compile, _find_all = compile_terms, find_all
#: "percentage of" names a share, not a percentage change
_SHARE_OF = re.compile(r"(?:percentage|percent|per cent|%) of\b")
def _mentions(rows: Rows, codes: tuple[str, ...], entity: str, period: str) -> dict[str, str]:
    """What the question wrote for the row, the company and the period read."""
    mentions = {}
    if rows.hits and codes and rows.hits[0][2] == codes[0]:
        mentions["metric"] = rows.hits[0][3]
    elif codes:
        mentions["metric"] = " ".join(sorted(rows.words))
    mentions.update((slot, said) for slot, said in (("entity", entity), ("period", period))
                    if said)
    return mentions


class RuleIntentParser:
    """Profile-driven, zero-LLM intent parser.

    Parameters
    ----------
    profile : DomainProfile
        Vocabulary and competitor aliases (the gate masks competitor names first).
    live_metrics : collection of str, optional
        The metrics that have stored figures (:meth:`FactStore.metric_codes`): one
        without figures never makes a question naming one with figures ambiguous.
    held : mapping of str to frozenset of str, optional
        Each column's metrics that have stored figures in it (see
        :func:`~ragspine_nb.agent.reading.intent_columns.column_phrases`).
    corpus : callable, optional
        Whether the workspace's text writes a word: such a word is never read as a
        misspelling (:mod:`~ragspine_nb.agent.reading.spelling`).
    corpus_words : callable, optional
        The long words the workspace's text writes (``min_len`` → words): a long
        misspelt word may be read as one of them.
    """

    def __init__(self, profile: DomainProfile, *, live_metrics: Collection[str] | None = None,
                 held: Mapping[str, frozenset[str]] | None = None,
                 corpus: Callable[[str], bool] | None = None,
                 corpus_words: Callable[[int], Iterable[str]] | None = None) -> None:
        self.profile, self.held, self.corpus = profile, held, corpus
        self.corpus_words = corpus_words
        self.gate = SecurityGate.from_profile(profile)
        self.rows = RowReader(profile, live_metrics)  # compiled once, not per question
        self._entities = compile_terms(entity_vocabulary(profile))
        self._channels = compile_terms(text_channel_vocabulary(profile))
        self._channel_words = WordSetIndex(_channel_terms(profile))
        self._column_names = {c.code: c.synonyms for c in profile.channels.values()
                              if c.code != profile.default_channel}
        self._known = vocabulary_words(profile)
        self._terms = tuple(fold(t) for t in (  # every name as written (Chinese lists)
            *(n for m in profile.metrics.values() for n in (m.label, *m.synonyms)),
            *(n for e in profile.entities.values() for n in (e.label, *e.synonyms)),
            *(n for c in profile.channels.values() for n in c.synonyms)))
        self._names_of: dict[str, frozenset[str]] = {}  # per column code (profile-only)

    @cached_property
    def speller(self) -> Speller:
        """The workspace's names as the words a misspelt one is read as (built on first use)."""
        return Speller(name_texts(self.profile), corpus=self.corpus,
                       corpus_words=self.corpus_words)

    def _first_mention(self, code: str, text: str) -> int:
        """Where a channel is first named in ``text`` (its code, a synonym, or a word)."""
        spec = self.profile.channels.get(code)
        terms = [code, *(spec.synonyms if spec else ())]
        hits = [m.start() for t in terms for w in [fold(t), *content_words(t)]
                for m in [re.search(rf"(?<![a-z0-9]){re.escape(w)}", text)] if m]
        return min(hits, default=len(text))

    def _names_words(self, code: str) -> frozenset[str]:
        """Every content word of a column's names ("%" is the word "percent"), kept per code."""
        if code not in self._names_of:
            spec = self.profile.channels.get(code)
            names = [code.replace("_", " "), *(spec.synonyms if spec else ())]
            self._names_of[code] = frozenset().union(
                *(content_words(n.replace("%", " percent ")) for n in names))
        return self._names_of[code]

    def _is_share(self, code: str) -> bool:
        """Whether a channel is a percentage column ("% of Total")."""
        spec = self.profile.channels.get(code)
        return any("percent" in content_words(t) for t in (spec.synonyms if spec else ()))

    def _is_percent_change(self, code: str) -> bool:
        """Whether a stated-change column states a percentage (``CHANGE_PCT``, "% change")."""
        return code.startswith(CHANGE_PCT_CHANNEL) or self._is_share(code)

    def _rows(self, text: str, hits: list[Hit], words: frozenset[str], listed: bool) -> Rows:
        """The rows named; a phrase inside a column's name is the column, not a row."""
        row_words = words
        named = {c: self._channel_words.words_of(c, words)
                 for c in self._channel_words.contained(words)}
        column_words = frozenset().union(*named.values())
        kept = column_phrases(hits, named, self.held)
        if len(kept) < len(hits):
            hits, row_words = kept, words - column_words
        return self.rows.read(hits, row_words, listed, text, column_words)

    def _columns(self, rest: str, words: frozenset[str], row_words: frozenset[str],
                 percent_asked: bool) -> _Columns:
        """The columns named outside the rows' names (never a pick between two)."""
        written, rest = without_periods(rest), without_operands(rest)  # a period: no column
        phrased = [c for c in find_all(without_periods(rest), self._channels)  # no periods
                   if c[2] != self.profile.default_channel]
        rest_words = content_words(_PERIOD.sub(" ", rest)) - row_words
        # a column may share words with the row ("number of shares granted" → "Number of
        # Shares"), but at least one of its words must lie outside the row's name
        picked = tuple(c for c in self._channel_words.contained(words)
                       if self._channel_words.words_of(c, words) & rest_words)
        # a phrase hit explained by a longer column name ("denominated" in "non-USD
        # denominated") is that column, not a second one
        unexplained = [c for c in phrased if not any(
            word_set(c[3]) < self._channel_words.words_of(p, words) for p in picked)]
        named = [c for c in dict.fromkeys([*(c[2] for c in unexplained), *picked])
                 # a stated change of the other kind is not the one asked ("change" for a
                 # percentage change), nor a column "Percent" the percentage change names
                 if not (is_stated_change(c) and self._is_percent_change(c) != percent_asked)
                 and not names_the_operation(self._channel_words.words_of(c, words), rest)]
        said = content_words(rest.replace("%", " percent "))
        used = frozenset().union(*(self._names_words(c) & said for c in named))
        if not named and (dated := dated_columns(written, self._column_names)).codes:
            return _Columns(dated.codes, dated=dated)  # named by their headers' dates
        window = read_window(rest, self._column_names) if not named else None
        if window is not None and (window.codes or window.options):
            # "due within 5 years": the buckets covering it, else ask which (never the total)
            return _Columns(window.codes, options=window.options)
        if not named:
            # a column named in part ("net additions" of "Net additions (losses)", "due
            # within 5 years" of "3 to 5 years"): ask; a stated change named only by the
            # operation's words ("the percentage change in X", X's "% Change" not stated:
            # "nm") is the operation asked, computed, never a column to pick
            partial = tuple(c for c in self._channel_words.closest(rest_words, min_shared=2)
                            if not (is_stated_change(c) and self._channel_words.shared(
                                c, rest_words) <= OPERATION_WORDS))
            return _Columns(options=partial or numbered_columns(_PERIOD.sub(" ", rest),
                                                                self._column_names))
        if len(named) == 1:
            if unresolved_partner(rest, self._names_words(named[0]), self._known):
                # "the domestic and European rates": one of two columns named is none
                # of ours; half an answer is not given as the whole, ask
                return _Columns(options=(named[0],))
            both = total_pair(rest, self._names_words(named[0]), row_words,
                              (named[0], self.profile.default_channel),
                              TOTAL_COLUMN in self.profile.channels)
            return _Columns(both or (named[0],), words=used)
        if list_cue(rest):  # "the domestic and international rates": both, in order
            return _Columns(tuple(sorted(named, key=lambda c: self._first_mention(c, rest))),
                            words=used)
        shares = [c for c in named if self._is_share(c)]
        if len(shares) == 1 and has_cue(rest, SHARE_CUES):
            # "the percentage of sales from APAC to total net sales": the share column;
            # the other column named is what the share is taken of
            return _Columns((shares[0],), words=used)
        return _Columns(options=tuple(named))  # two columns named without a list: ask

    def _cues(self, rest: str, rows: Rows, words: frozenset[str]
              ) -> tuple[_Columns, bool, bool]:
        """The columns named, and whether a change and a percentage are asked.

        Cues are read outside the rows' names ("Net increase in cash" is a level) and
        the columns' names ("the actual and constant percentage change" names two
        stated-change columns, no change between them); one stated-change column keeps
        its cue (the report's own change answers it). "The change in the percentage of
        sales" asks a difference, not a percentage.
        """
        cue_text = rest
        for w in rows.words:
            cue_text = re.sub(rf"(?<![a-z0-9]){re.escape(w)}s?(?![a-z0-9])", " ", cue_text)
        percent = has_cue(_SHARE_OF.sub(" ", cue_text), PERCENT_CUES)
        cols = self._columns(rest, words, rows.words, percent)
        if cols.codes and not (len(cols.codes) == 1 and is_stated_change(cols.codes[0])):
            cue_text = without_words(cue_text, cols.words)
            percent = has_cue(_SHARE_OF.sub(" ", cue_text), PERCENT_CUES)
        return cols, has_cue(cue_text, CHANGE_CUES), percent

    def _route(self, text: str, rows: Rows, codes: tuple[str, ...], periods: bool,
               unstated: tuple[str, ...], columns: bool) -> str:
        """Narrative when the figure is qualified beyond any row; else by the cues."""
        if qualifies_beyond(unstated, places=not columns) and not rows.misspelled:
            return ROUTE_NARRATIVE  # the text states it, not the nearest row
        if codes and has_cue(text, NARRATIVE_CUES):
            return ROUTE_COMPOSITE
        if codes or has_cue(text, NUMERIC_CUES) or (rows.candidates and
                                                      (periods or rows.misspelled)):
            # a near-miss row with a period, or a misspelled metric: ask back, not search
            return ROUTE_STRUCTURED
        return ROUTE_NARRATIVE

    def sparing(self, codes: Collection[str]) -> RuleIntentParser:
        """A copy of this parser reading ``codes`` as rows without stored figures.

        A row the named companies state for no period asked is read as no row with
        figures; the compiled vocabularies are shared, not built again.
        """
        if self.rows.live is None or not set(codes) & self.rows.live:
            return self
        spared = copy.copy(self)
        spared.rows = copy.copy(self.rows)
        spared.rows.live = self.rows.live - frozenset(codes)
        return spared

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        """Parse ``question`` (relative periods resolve against ``reference_date``)."""
        found, masked = self.gate.detect(question)
        text = fold(masked)
        entities = find_all(text, self._entities)  # masked from rows, every one
        # a comma or "and" inside a row's whole name is no list ("Selling, general and
        # administrative expense")
        listed = list_cue(self.rows.unlisted(text))
        # rows are named outside period phrases and the entities' names ("Best Buy" the
        # company, not the segment row "Best Buy" of its own filing)
        named = without_phrases(mask(mask(text, entities), [
            (a, b, "", "") for a, b in share_nouns(text)]))  # "what share of": no row
        words = content_words(named)
        rows = self._rows(named, self.rows.phrases(named), words, listed)
        # a ratio named with its items asks for the ratio; "… attributable to 3M": the owners'
        codes = named_codes(self.profile, text, entities, rows)
        # a channel is read from what the metric did not use (no "total" of "total debt")
        cols, change, percent = self._cues(mask(text, list(rows.hits)), rows, words)
        read_as_part = rows.read_as_part
        if rows.part is not None and not read_as_part and len(cols.codes) > 1:
            # the list is of columns ("1-90 and 91-180 days past due in low risk country")
            read_as_part = (*(c for c in codes if c != rows.part), rows.part)
            codes = (rows.part,)
        candidates, read_codes = rows.candidates, codes
        said = rows.hits[0][3] if rows.hits and codes and rows.hits[0][2] == codes[0] else ""
        spec = self.profile.metrics.get(codes[0]) if len(codes) == 1 else None
        if spec is not None and listed and unread_partner(
                without_periods(text), fold(said), content_words(" ".join(
                    (spec.label, *spec.synonyms))), self._known, self._terms):
            codes, candidates = (), codes  # "revenue and EBITDA", none EBITDA: ask, never half
        periods, period_text, unread = question_periods(
            self.profile, text, reference_date, mask(text, list(rows.hits)),
            rows.words | cols.words, cols)
        unstated = unstated_words(_PERIOD.sub(" ", without_signed_extreme(text)), self._known)
        if writes_united_states(masked) and names_united_states(mask(mask(
                text, list(rows.hits)), find_all(text, self._channels))):
            unstated = tuple(sorted({*unstated, "united"}))  # a place no name read says
        change_from = len(periods) == 1 and has_cue(text, CHANGE_CUES) and \
            starts_change(text, period_text)
        entities = named_over_placeholder(self.profile, entities)
        entity_codes = tuple(dict.fromkeys(e[2] for e in entities))
        mentions = _mentions(rows, codes, entities[0][3] if entities else "", period_text)
        return ParsedIntent(
            raw_question=question, language=detect_language(question),
            route=self._route(text, rows, read_codes, bool(periods), unstated,
                              bool(cols.codes or cols.options)),
            metric=codes[0] if codes else None,
            entity=entity_codes[0] if entity_codes else None,
            period=periods[0] if periods else None,
            channel=cols.codes[0] if cols.codes else None, channels=cols.codes,
            metrics=codes, entities=entity_codes, periods=tuple(periods),
            external_entity=found[0].display_name if found else None,
            numeric_cue=has_cue(text, NUMERIC_CUES), narrative_cue=has_cue(text, NARRATIVE_CUES),
            mentions=mentions, list_cue=listed, change_cue=change, percent_cue=percent,
            change_from=change_from, metric_candidates=candidates,
            channel_options=cols.options, read_as_part=read_as_part,
            read_as_closing=rows.read_as_closing, read_as_row=rows.read_as_row,
            read_as_movement=rows.read_as_movement, unread_period=unread, unstated=unstated,
        )
