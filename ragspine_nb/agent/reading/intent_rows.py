"""Which rows (metrics) a question names: whole names first, then word sets, never a guess.

:class:`RowReader` reads a folded question against one profile's metrics:

1. phrases: every metric name or synonym written out in the question, longest first
   (a label with "and" or commas inside — "Research and development", "Electricity,
   heat, steam and cooling" — is matched whole before any list is split);
2. word sets: a row named in another word order or with its section in front, or a
   longer (section-qualified) name explaining every phrase matched; several rows named as
   fully as each other, or a row sharing more words than the one fully named, is
   ambiguous and the caller asks back with all of them (never picks);
3. a bare balance read as its closing row ("Goodwill in 2019" → "..., end of the year");
4. otherwise the rows sharing some words are offered as options (never answered), a
   misspelled word ("proft") read as the word it is one edit from;
5. a total named with one of its parts (no list) asks for the part.

A row label's opening sign word ("Less: valuation allowance") is no part of its name.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from ragspine_nb.agent.reading.intent_readings import (
    TOTAL_WORDS,
    Hit,
    Rows,
    movement_of,
    no_total_beside,
    qualified_by,
    row_and_column,
)
from ragspine_nb.agent.reading.intent_terms import compile_terms, find_all, mask, word_set
from ragspine_nb.agent.reading.name_edges import clause_verbs, negated_words
from ragspine_nb.agent.reading.ratio_sides import share_words
from ragspine_nb.agent.reading.row_heads import named_by_head
from ragspine_nb.agent.reading.row_names import dated_only, noteless_names, written_names
from ragspine_nb.agent.reading.row_phrases import named_phrases, outnamed
from ragspine_nb.glossary import fold, metric_vocabulary
from ragspine_nb.profile import DomainProfile
from ragspine_nb.typos import TypoIndex
from ragspine_nb.wordset import WordSetIndex, content_words

__all__ = ["Hit", "Rows", "RowReader", "START_WORDS", "END_WORDS", "OPERATION_WORDS"]

#: Metrics a question naming none offers, closest first.
_OFFERED = 5

#: Words that ask an operation, never name a row beside one the question names.
OPERATION_WORDS = frozenset({"percent", "change", "changes", "increase", "decrease", "growth",
                             "rate", "difference", "variance", "%"})
#: Words a question asks an operation with, which make no partial name outweigh a name
#: written in full ("the average of revenue" names "Revenue", not "Average monthly
#: revenue per membership"); "rate" names rows as often as it asks.
_ASKING_WORDS = (OPERATION_WORDS - {"rate"}) | {"average", "mean"}
#: Words placing a balance at the start or the end of a period.
START_WORDS = frozenset({"beginning", "begin", "opening", "start", "starting"})
END_WORDS = frozenset({"end", "ending", "closing", "close"})

#: Chinese labels that only say "total" (a row named by its place in its table).
_ZH_TOTALS = frozenset({"合计", "总计", "总额", "小计", "共计", "总数"})
#: A measure word alone ("Amount") names no line item, as "Total" names none.
_MEASURE_WORDS = frozenset({"amount", "amounts"})


def _asks_operation(extra: frozenset[str]) -> bool:
    """Whether a row's words beyond those of the row named only ask an operation."""
    return bool(extra) and extra <= OPERATION_WORDS


class RowReader:
    """One profile's metric names, compiled once, read against questions."""

    def __init__(self, profile: DomainProfile, live: Collection[str] | None = None) -> None:
        self.profile = profile
        self.live = frozenset(live) if live is not None else None
        self.terms = compile_terms({t: c for t, c in metric_vocabulary(profile).items()
                                    if not dated_only(t)})
        written = written_names(profile)
        self._strict_pairs = written  # names as written: indexed on first use
        self._strict: WordSetIndex | None = None
        pairs = [*written, *noteless_names(written)]
        self.index = WordSetIndex(
            pairs, rival_pairs=[(m.label or m.code, m.code) for m in profile.metrics.values()],
            cues=_ASKING_WORDS)
        #: every name, those two metrics share too: a list is never read inside one
        self.names = compile_terms({fold(t): "" for t, _ in pairs if fold(t)})
        self._typos: TypoIndex | None = None  # built on the first misspelled question

    @property
    def strict(self) -> WordSetIndex:
        """Names as written (a sign word aside): what may explain another metric's name.

        Consulted only when a question names several rows, so it is indexed then (tens
        of thousands of names on a folder of filings), not when the agent starts.
        """
        if self._strict is None:
            self._strict = WordSetIndex(self._strict_pairs)
        return self._strict

    def _typo_index(self) -> TypoIndex:
        if self._typos is None:
            self._typos = TypoIndex(w for m in self.profile.metrics.values()
                                    for t in (m.label, *m.synonyms) for w in content_words(t))
        return self._typos

    def near_miss(self, words: frozenset[str]) -> tuple[tuple[str, ...], bool]:
        """Metrics to offer when none was named, and whether a misspelling named them.

        A misspelled word ("proft") read as the metric word it is one edit from, when
        that completes a metric's name, offers that metric; otherwise metrics sharing
        some words are offered. Never an answer: the caller asks back.
        """
        fixed = self._typo_index().correct(words)
        if fixed is not None and (named := self.index.contained(fixed)):
            return named, True
        # the closest with stored figures first: a built-in name with none (dropped
        # later) never crowds a row that has figures out of the five offered
        ranked = self.index.closest(words, n=len(self.profile.metrics))
        live = [c for c in ranked if self.live is not None and c in self.live]
        return tuple((live or list(ranked))[:_OFFERED]), False

    def closing_balance(self, words: frozenset[str]) -> str | None:
        """The one row named but for "end of the year" when the question states no point.

        "Goodwill in 2019" for the rows "Goodwill, beginning of the year" / "..., end of
        the year": a balance asked for a period is its closing balance (stated).
        """
        if words & (START_WORDS | END_WORDS):
            return None
        # the question names the row but for its point: a row named by "end" alone ("Year
        # end" of a folder's table) is named by no question that writes nothing of it
        found = [c for c in self.index.contained(words | END_WORDS)
                 if self.index.words_of(c, words | END_WORDS) - END_WORDS]
        if len(found) == 1 and self.index.words_of(found[0], words | END_WORDS) & END_WORDS:
            return found[0]
        return None

    def named_part(self, codes: tuple[str, ...], phrased: set[str],
                   words: frozenset[str]) -> str | None:
        """The one named metric that every other candidate is a sum of, if any.

        A question naming a total and one of its parts without a list ("revenue from
        external customers from UK") asks for the part. Every row must be named in full:
        a total that only shares words with the question ("Deferred tax assets, net of
        valuation allowance" for "deferred tax assets") is no reading of it, so the
        caller asks back.
        """
        named = [c for c in codes if c in phrased or self.index.words_of(c, words)]
        if len(named) < len(codes):
            return None

        def apart(part: str, total: str) -> bool:
            # the part is named by words of its own, not only by the total's ("total"
            # naming a section's total and the grand total is no reading of either)
            mine, theirs = self.index.words_of(part, words), self.index.words_of(total, words)
            return not mine or not theirs or bool(mine - theirs)

        found = [p for p in named
                 if all(self.profile.contains(c, p) and apart(p, c) for c in codes if c != p)]
        return found[0] if len(found) == 1 else None

    def _bare_total(self, code: str) -> bool:
        """Whether a row's label is only "Total" / "Total change" / "合计" (named by its place).

        "Amount" (a column of a table read sideways, years down its rows) names no line
        item either: "the total amount of inventories" asks for the inventories.

        A label of no Latin words ("德国") is a name, not a bare total.
        """
        spec = self.profile.metrics.get(code)
        if spec is None:
            return False
        label = spec.label or code
        words = word_set(label)
        return not words - TOTAL_WORDS - _MEASURE_WORDS if words \
            else fold(label).strip() in _ZH_TOTALS

    def _widened(self, codes: tuple[str, ...], hits: list[Hit],
                 words: frozenset[str]) -> tuple[str, ...]:
        """The codes a word-set reading settles on (``()``: keep the phrase codes)."""
        contained = self.index.contained(words)
        if codes:  # as in :meth:`read`: no bare "Total" row beside a row named, nor a row
            # whose other words only ask an operation ("percent change" beside "net sales")
            near = frozenset().union(*(word_set(h[3]) for h in hits))
            contained = tuple(c for c in contained if c in codes or not (
                self._bare_total(c) or _asks_operation(self.index.words_of(c, words) - near)))
        if codes and len(contained) == 1:
            kept = self.index.words_of(contained[0], words)
            if not all(word_set(h[3]) <= kept for h in hits):
                # another row is named in full besides the phrase: ask (one metric
                # phrase + one other row) or keep the listed phrases (several)
                return tuple(dict.fromkeys([*codes, *contained])) \
                    if len(codes) == 1 and contained[0] not in codes else ()
        elif len(codes) == 1 and len(contained) > 1:
            phrase = frozenset().union(*(word_set(h[3]) for h in hits))
            if any(phrase < self.index.words_of(c, words) for c in contained if c not in codes):
                # a longer name includes the phrase ("underlying rights and other" of the
                # section "Indefinite-lived intangible assets" named as that section's
                # total): the longer names are the rows named
                return contained
            written = self.strict.contained(words)
            if len(written) == 1 and written[0] in contained:
                # one row named as written, the others only without their notes ("Free
                # cash flow" beside "Free cash flow (pre-spectrum)"): the one written
                return written
            # one phrase matched, but other rows are named at least as fully: ask
            return tuple(dict.fromkeys([*codes, *contained]))
        elif codes and not contained and (rivals := outnamed(self.index, self.live, hits,
                                                             words)):
            # a phrase names a row while another shares more of the question's words
            # ("net cash provided by financing activites", misspelt: "cash" named "Cash
            # and cash equivalents"): the phrase is no reading, ask with both
            return tuple(dict.fromkeys([*codes, *rivals]))
        elif codes:
            return ()  # several phrases matched and no longer name explains them
        return contained

    def read(self, hits: list[Hit], words: frozenset[str], listed: bool,
             text: str = "", columns: frozenset[str] = frozenset()) -> Rows:
        """The rows named by the phrase ``hits`` in ``text`` and the question's ``words``.

        With ``live`` metrics known, one that has no stored figure is dropped from
        several rows named (or offered) when some of them have figures; ``columns`` are
        the words of the columns the question names.
        """
        # "non-GAAP" names no "GAAP" row; "how did sales change" no "Sales change" row
        words = words - negated_words(text) - clause_verbs(text)
        if any(not self._bare_total(h[2]) for h in hits):
            # "the total amount of inventories": "total" names no bare "Total" row
            hits = [h for h in hits if not self._bare_total(h[2])]
        named = [h for h in hits if not content_words(h[3]) <= OPERATION_WORDS]
        if named and len(named) < len(hits):
            # "net sales growth": beside a row named, a name of operation words only (a
            # filing's "Growth %") asks that operation of it, read as a cue
            hits = named
        rows = named_by_head(self, no_total_beside(self, self._read(hits, words, listed), words),
                             words)  # "indemnification receivable": a label's head
        if listed:
            return self._alive(rows, words)
        return row_and_column(self, qualified_by(self, self._alive(rows, words), text),
                              words, columns)

    def _alive(self, rows: Rows, words: frozenset[str]) -> Rows:
        """Rows without the metrics that have no figure and name nothing more.

        A metric with no stored figure is dropped from several rows read when a row with
        figures was named by every word it was ("Total operating expense" explains the
        built-in "operating expenses"); one naming other words ("income before income
        tax" beside "Income tax expense") is another thing asked about: the caller asks.
        """
        if self.live is None:
            return rows
        if rows.candidates:
            kept = tuple(c for c in rows.candidates if c in self.live)
            return replace(rows, candidates=kept) if kept else rows
        kept = tuple(c for c in rows.codes if c in self.live)
        if not kept or len(kept) == len(rows.codes) or len(rows.codes) < 2:
            return rows
        # "total" and "net" name a sum or a place in a table as often as a row: the
        # built-in "Total revenue" is explained by "Consolidated net revenues"
        said = {c: (self.index.words_of(c, words) or self.index.shared(c, words))
                - TOTAL_WORDS for c in rows.codes}
        named = {k: self.strict.words_of(k, words) for k in kept}
        if not all(any(named[k] and said[d] <= named[k] for k in kept)
                   for d in rows.codes if d not in kept):
            return rows
        # other rows with figures named in full ("percentage of revenue" beside "product"
        # and the built-in "revenue"): all of them are asked about
        # — unless a row's words beyond theirs only ask an operation ("percent change"
        # beside "net sales": the change asked, not a row "Percent change")
        near = frozenset().union(*(self.index.words_of(k, words) for k in kept))
        others = [c for c in self.index.contained(words) if c in self.live and c not in kept
                  and not _asks_operation(self.index.words_of(c, words) - near)]
        # a dropped row's phrase names nothing: its words ("sales change" beside "net
        # sales") are read again as cues
        hits = tuple(h for h in rows.hits if h[2] in kept or h[2] in others)
        if others:
            return Rows((*kept, *others), hits)
        used = frozenset().union(*(self.index.words_of(c, words) for c in kept)) or rows.words
        part = rows.part if rows.part in kept else None
        return Rows(kept, hits, used, read_as_closing=rows.read_as_closing,
                    read_as_part=rows.read_as_part if set(rows.read_as_part) <= set(kept)
                    else (), part=part)

    def _qualified(self, codes: tuple[str, ...], words: frozenset[str]) -> tuple[str, ...]:
        """Rows of one name told apart by the qualified name the question names best.

        "Regional films" under "Global (India and International)", "International Only"
        and "India Only": "global regional films" shares more of the first one's
        qualified name than of any other, and every word the others share it shares too
        — that row is named. Rows named alike ("other receivables", current and
        non-current) stay ambiguous: the caller asks.
        """
        named = {self.index.words_of(c, words) for c in codes}
        if len(named) != 1 or not next(iter(named)):
            return codes
        said = {c: self.index.shared(c, words) for c in codes}
        top = [c for c in codes if all(said[o] < said[c] for o in codes if o != c)]
        return (top[0],) if len(top) == 1 else codes

    def under_heading(self, code: str, words: frozenset[str]) -> tuple[str, ...]:
        """Rows under a heading the question names beyond the one row it names in full.

        "Current income tax expense" names the heading over "Federal" and "State", not
        the row "Income tax expense" below them: when two or more rows share the same
        words with the question beyond those of the row named (their heading's), the
        question may mean any of them (the caller asks back). Rows without stored
        figures are left out, and so is a heading of operation words: "the change in net
        income" asks a change of the row, not for the rows "Change in … net income".
        """
        mine = self.index.words_of(code, words)
        if not mine:
            return ()
        extra: dict[str, frozenset[str]] = {}
        for names, other in self.index.holding(mine):  # only names holding the row's words
            shared = names & words
            if other != code and mine < shared and (self.live is None or other in self.live) \
                    and len(shared) > len(extra.get(other, frozenset())):
                extra[other] = shared
        heads = {shared - mine for shared in extra.values()}
        if len(extra) < 2 or len(heads) != 1 or _asks_operation(next(iter(heads))):
            return ()
        return tuple(extra)

    def _read(self, hits: list[Hit], words: frozenset[str], listed: bool) -> Rows:
        codes = tuple(dict.fromkeys(h[2] for h in hits))
        used: frozenset[str] = frozenset()
        if len(codes) > 1 and listed:
            return self._with_part(Rows(codes, tuple(hits)), words, listed)
        contained = self._widened(codes, hits, words)
        if len(contained) == 1 and not listed:
            contained = (*contained, *self.under_heading(contained[0], words))
        if len(contained) > 1 and not listed:
            contained = self._qualified(contained, words)
        if contained:
            used = frozenset().union(*(self.index.words_of(c, words) for c in contained))
            return self._with_part(Rows(contained, tuple(hits), used), words, listed)
        if codes:
            return self._with_part(Rows(codes, tuple(hits)), words, listed)
        closing = self.closing_balance(words)
        if closing is not None:
            used = self.index.words_of(closing, words | END_WORDS)
            return Rows((closing,), tuple(hits), used, read_as_closing=closing)
        candidates, misspelled = self.near_miss(words)
        return Rows(hits=tuple(hits), candidates=candidates, misspelled=misspelled)

    def _with_part(self, rows: Rows, words: frozenset[str], listed: bool) -> Rows:
        """"revenue from software maintenance": the total's words name the group."""
        if len(rows.codes) < 2:
            return rows
        part = self.named_part(rows.codes, {h[2] for h in rows.hits}, words)
        if part is None:
            return rows if listed else movement_of(self, rows, words)
        if listed:
            return Rows(rows.codes, rows.hits, rows.words, part=part)
        used = self.index.words_of(part, words) or rows.words
        return Rows((part,), rows.hits, used, part=part,
                    read_as_part=(*(c for c in rows.codes if c != part), part))

    def phrases(self, text: str) -> list[Hit]:
        """Every metric name written out in ``text``, longest first, in text order.

        Read without the clause's words and with lists of shared words written out
        (:func:`~ragspine_nb.agent.reading.row_phrases.named_phrases`); the "%" of "as a %
        of revenues" asks a share and starts no row's name ("% of revenues").
        """
        share = share_words(text)
        return [h for h in named_phrases(text, self.terms, self.index)
                if not any(a <= h[0] < b for a, b in share)]

    def unlisted(self, text: str) -> str:
        """``text`` with every metric name written over: a list is read outside names.

        A name stays a word ("#"), so "revenue 2025 and operating profit 2025" keeps its
        list instead of reading as the period range "2025 and 2025".
        """
        return mask(text, find_all(text, self.names), fill="#")
