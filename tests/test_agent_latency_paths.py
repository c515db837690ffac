"""The agent's fast paths give the answers the slow ones gave (issue 19).

One search when a filter cannot match, one query plan per retrieval, token sets and
readings kept per text (a changed text is read anew), one figure reader per profile,
and term matching that skips terms absent from the text.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest

from ragspine_nb import DomainProfile, NarrativeIndex
from ragspine_nb.agent.narrative.extractive import (
    _ABBREV,
    SENTENCE,
    extractive_answer,
    passage_sentences,
    rank_sentences,
)
from ragspine_nb.agent.narrative.figures import FigureReader
from ragspine_nb.agent.reading.intent_terms import compile_terms, find_all, has_cue
from ragspine_nb.retrieval.coverage import passage_tokens
from ragspine_nb.retrieval.evidence import TermCoverageJudge, gather_evidence
from ragspine_nb.retrieval.planning import QueryPlan, RuleQueryPlanner
from ragspine_nb.retrieval.rewrite import GlossaryQueryRewriter
from ragspine_nb.retrieval.tokenize import tokenize
from ragspine_nb.vocab_caseless import ASCII_TWINS

QUESTION = "Why did Hong Kong agency sales grow?"


def _index() -> NarrativeIndex:
    index = NarrativeIndex()
    index.add_document("hk.md", "Hong Kong agency sales grew 12% on stronger recruiting.\n\n"
                       "Bancassurance in Hong Kong was flat.", entity="ACME_HK",
                       period="FY2025")
    index.add_document("fees.md", "The MPFA fee cap cut management fees by 0.2 points.\n\n"
                       "Agents earned lower commissions after the cap.", period="FY2024")
    index.add_document("board.md", "Board minutes: agency fee cap plans for Hong Kong.",
                       sensitivity="RESTRICTED")
    return index


class _Counting(RuleQueryPlanner):
    """A rule planner that counts its plans."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def plan(self, question: str) -> QueryPlan:
        """The rule plan, counted."""
        self.calls += 1
        return super().plan(question)


def _searches(index: NarrativeIndex, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The filters of every search the index runs from now on."""
    seen: list[dict[str, Any]] = []
    original = index.search_many

    def spy(queries: Any, top_k: int = 50, filters: Any = None, rerank: bool = False,
            **kw: Any) -> Any:
        seen.append(dict(filters or {}))
        return original(queries, top_k, filters, rerank, **kw)

    monkeypatch.setattr(index, "search_many", spy)
    return seen


def _as_before(index: NarrativeIndex, query: str, filters: dict[str, str],
               top_k: int) -> tuple[list[str], dict[str, Any]]:
    """What the retriever returned before: the filtered loop, then one retry without."""
    planner = RuleQueryPlanner(index.profile)
    _, report = gather_evidence(index, query, planner=planner, top_k=top_k, filters=filters)
    if not report.evidence and filters:
        _, report = gather_evidence(index, query, planner=planner, top_k=top_k, filters={})
    return [h.chunk.chunk_id for h in report.evidence], report.to_dict()


@pytest.mark.parametrize("filters", [
    {"entity": "ACME_CN"},                          # no chunk has the value
    {"entity": "ACME_HK", "period": "FY2024"},      # each value exists, never together
    {"entity": "ACME_HK", "period": "FY2025"},      # matches
    {"period": "FY2024"},                           # matches, nothing relevant kept
])
def test_retrieve_returns_what_it_did_with_one_search_when_a_filter_cannot_match(
        filters: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index()
    want_ids, want_report = _as_before(index, QUESTION, filters, 6)
    planner = _Counting()
    retriever = index.retriever(planner=planner)
    searches = _searches(index, monkeypatch)
    snippets = retriever.retrieve(QUESTION, filters=filters, top_k=6)
    assert [s["chunk_id"] for s in snippets] == want_ids
    assert retriever.last_report is not None
    assert retriever.last_report.to_dict() == want_report
    assert planner.calls == 1  # one plan serves the filtered search and the retry
    matches = index.store.iter_chunks(**filters)
    assert (filters in searches) == bool(matches)  # never filtered when nothing matches


def test_a_document_written_since_is_seen_by_the_filter_check() -> None:
    index = _index()
    retriever = index.retriever()
    retriever.retrieve(QUESTION, filters={"entity": "ACME_CN"}, top_k=6)
    assert retriever.last_results is not None and retriever.last_results.filters == {}
    index.add_document("cn.md", "Mainland China agency sales grew on recruiting.",
                       entity="ACME_CN")
    snippets = retriever.retrieve(QUESTION, filters={"entity": "ACME_CN"}, top_k=6)
    assert retriever.last_results.filters == {"entity": "ACME_CN"}
    assert [s["doc_id"] for s in snippets] == ["cn.md"]


def test_without_retry_the_filtered_search_still_runs_and_reports(
        monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index()
    retriever = index.retriever(retry_without_filters=False)
    searches = _searches(index, monkeypatch)
    assert retriever.retrieve(QUESTION, filters={"entity": "ACME_CN"}) == []
    assert searches == [{"entity": "ACME_CN"}]
    assert retriever.last_report is not None
    assert retriever.last_report.stop_reason == "no_candidates"


def test_plain_search_skips_an_unmatchable_filter_too(monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index()
    retriever = index.retriever(plan=False)
    want = [h.chunk.chunk_id for h in index.search(QUESTION, top_k=5) if not h.restricted]
    searches = _searches(index, monkeypatch)
    got = retriever.retrieve(QUESTION, filters={"entity": "ACME_CN"}, top_k=5)
    assert [s["chunk_id"] for s in got] == want and searches == [{}]


def test_gather_evidence_uses_the_plan_given_and_checks_its_question() -> None:
    index = _index()
    planner = _Counting()
    plan = RuleQueryPlanner().plan(QUESTION)
    _, given = gather_evidence(index, QUESTION, planner=planner, plan=plan)
    _, made = gather_evidence(index, QUESTION, planner=RuleQueryPlanner())
    assert planner.calls == 0 and given.to_dict() == made.to_dict()
    with pytest.raises(ValueError, match="plan is for"):
        gather_evidence(index, "another question", plan=plan)


def test_token_sets_are_kept_per_text_and_a_changed_text_is_read_anew() -> None:
    before = passage_tokens("Agency sales grew.")
    assert before is passage_tokens("Agency sales grew.")
    assert passage_tokens("Agency sales fell.") == frozenset(tokenize("Agency sales fell."))
    texts = ["agency sales grew", "sales", "x", "Agency SALES fell"]
    uncached = [sum(t in set(tokenize(x)) for t in ["agency", "sales"]) / 2 for x in texts]
    assert TermCoverageJudge().score("agency sales", texts) == uncached


def test_extractive_answers_do_not_depend_on_what_was_read_before() -> None:
    passages = [(1, "Interest expense was $50 million. Revenue grew 3%."),
                (2, "Interest expense increased primarily due to higher average debt.")]
    question = "Why did interest expense increase?"
    first = extractive_answer(question, passages)
    assert extractive_answer(question, passages) == first
    changed = [(1, passages[0][1]), (2, "Interest expense fell because debt was repaid.")]
    assert "repaid" in extractive_answer(question, changed)
    sentences = passage_sentences(passages)
    ranked = rank_sentences(question, sentences)
    assert [s.sentence for s in ranked][0].text.startswith("Interest expense increased")
    assert len(sentences) == 3 and passage_sentences(passages + passages) == sentences


def test_one_figure_reader_per_profile_and_its_lists_are_fresh(
        profile: DomainProfile) -> None:
    reader = FigureReader.shared(profile)
    assert FigureReader.shared(profile) is reader
    sentence = "ACME Hong Kong revenue was 1,405 million in FY2025."
    stated = reader.figures(sentence)
    assert stated == FigureReader(profile).figures(sentence)
    stated.clear()  # a caller's list is its own
    assert reader.figures(sentence) == FigureReader(profile).figures(sentence) != []
    other = DomainProfile.from_dict({"home": {"company_name": "X", "entity_code": "X"},
                                     "metrics": {"REVENUE": {"unit": "USD_M"}}})
    assert FigureReader.shared(other) is not reader


def _find_all_by_scanning(text: str, vocab: dict[str, str]) -> list[tuple[int, int, str, str]]:
    """What one pattern per term found, longest term first (every pattern scanned)."""
    found: list[tuple[int, int, str, str]] = []
    taken = [False] * len(text)
    for term in sorted(vocab, key=lambda t: (-len(t), t)):
        code, body = vocab[term], re.escape(term)
        pattern = re.compile(rf"(?<![a-z0-9])(?<![a-z0-9]-){body}(?![a-z0-9])(?!-[a-z0-9])"
                             if term.isascii() else body)
        for m in pattern.finditer(text):
            if not any(taken[m.start():m.end()]):
                taken[m.start():m.end()] = [True] * (m.end() - m.start())
                found.append((m.start(), m.end(), code, term))
    return sorted(found)


@pytest.mark.parametrize("text", [
    "hong kong agency sales and non-vested agency fees", "vested shares, net sales",
    "新单保费和银保渠道", "agency-led sales", "", "sales sales sales",
])
def test_term_matching_finds_what_scanning_every_pattern_finds(text: str) -> None:
    vocab = {"agency": "AGENCY", "sales": "SALES", "net sales": "NET_SALES",
             "vested": "VESTED", "hong kong": "HK", "银保": "BANCA",
             "新单保费": "NEW_SALES", "agency sales": "AGENCY_SALES"}
    assert find_all(text, compile_terms(vocab)) == _find_all_by_scanning(text, vocab)
    cues = ("sales", "银保", "how much", "net")
    assert has_cue(text, cues) == any(
        (re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", text) if c.isascii() else c in text)
        for c in cues)


@pytest.mark.parametrize("text", [
    "Why did Hong Kong agency sales grow?", "why did HONG KONG Agency SALES grow",
    "香港代理渠道的新单保费为什么增长？", "ACME香港 bancassurance", "Bİlanço ıncome ſales",
    "KELVIN REVENUE", "hong-kong agency", "", "ΣΑΣ revenue ς",
])
def test_glossary_matching_finds_what_scanning_every_pattern_finds(
        text: str, profile: DomainProfile) -> None:
    rewriter = GlossaryQueryRewriter(profile)
    taken = [False] * len(text)
    scanned = []
    for term, code, synonyms in rewriter._terms:  # every term's pattern, no shortcut
        escaped = re.escape(unicodedata.normalize("NFKC", term))
        pattern = re.compile(rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])" if term.isascii()
                             else escaped, re.IGNORECASE)
        for m in pattern.finditer(text):
            if not any(taken[m.start():m.end()]):
                taken[m.start():m.end()] = [True] * (m.end() - m.start())
                scanned.append((m.start(), m.end(), code, synonyms))
    got = [(m.start, m.end, m.code, m.synonyms) for m in rewriter._matches(text)]
    assert got == sorted(scanned, key=lambda m: m[0])


def test_only_the_known_characters_match_ascii_letters_case_insensitively() -> None:
    letters = re.compile("[a-z]", re.IGNORECASE)  # a class matches as each letter does
    found = {chr(cp) for cp in range(128, 0x110000) if letters.fullmatch(chr(cp))}
    assert found == ASCII_TWINS == {"\u0130", "\u0131", "\u017f", "\u212a"}


def test_sentences_split_where_they_did_before_the_full_stop_was_looked_for_first() -> None:
    before = re.compile(rf"[^。！？!?\n¶]+?(?:[。！？!?¶\n]|{_ABBREV}\.(?=\s|$)|$)")
    texts = ["U.S. sales rose 5.8% vs. 2019. Inc. is fine. R. Kaiser said no. e.g. this.",
             "Revenue grew.¶Costs fell! Why? 收入增长。利润下降！", "A. B. C.", "3.5. 2.", "end.",
             "Mr. Smith of ACME Ltd. joined Corp. in No. 5 St. James approx. 3 years ago.",
             "", ".", "...", "Total. \n Next line. i.e. done"]
    for text in texts:
        assert SENTENCE.findall(text) == before.findall(text)
