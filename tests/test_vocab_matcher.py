"""The vocabulary matcher finds exactly what one regex per term found (issue 38).

The reference below is the per-term matcher it replaces, verbatim: the new one must give
identical matches on real questions, paragraphs and row labels (TAT-QA dev, the demo
golden set, the profiles' own names) and on random strings built to stress word edges,
hyphens, overlaps and Chinese.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_nb.agent.reading.intent_terms import compile_terms, find_all
from ragspine_nb.extract.beir import data_root
from ragspine_nb.glossary import channel_vocabulary, entity_vocabulary, fold, metric_vocabulary
from ragspine_nb.profile import DomainProfile
from ragspine_nb.vocab_caseless import CaselessMatcher
from ragspine_nb.vocab_matcher import VocabMatcher, shared_matcher

_DEMO = Path(__file__).resolve().parents[1] / "ragspine_nb" / "demo"


def _old_compile(vocab: dict[str, str], hyphen_words: bool = True
                 ) -> list[tuple[re.Pattern[str], str, str]]:
    out = []
    for term in sorted(vocab, key=lambda t: (-len(t), t)):
        body = re.escape(term)
        pattern = (rf"(?<![a-z0-9])(?<![a-z0-9]-){body}(?![a-z0-9])(?!-[a-z0-9])"
                   if term.isascii() else body)
        if not hyphen_words and term.isascii():  # unknown_entity._spans's pattern
            pattern = rf"(?<![a-z0-9]){body}(?![a-z0-9])"
        out.append((re.compile(pattern), vocab[term], term))
    return out


def _old_each(text: str, terms: list[tuple[re.Pattern[str], str, str]]
              ) -> list[tuple[int, int, str, str]]:
    return sorted((m.start(), m.end(), code, term) for pattern, code, term in terms
                  if term in text for m in pattern.finditer(text))


def _old_find_all(text: str, terms: list[tuple[re.Pattern[str], str, str]]
                  ) -> list[tuple[int, int, str, str]]:
    found: list[tuple[int, int, str, str]] = []
    taken = [False] * len(text)
    for pattern, code, term in terms:
        if term not in text:
            continue
        for m in pattern.finditer(text):
            if not any(taken[m.start():m.end()]):
                taken[m.start():m.end()] = [True] * (m.end() - m.start())
                found.append((m.start(), m.end(), code, term))
    return sorted(found)


def _same(vocab: dict[str, str], texts: list[str]) -> int:
    """Assert old == new on every text, both ways of matching; the matches compared."""
    n = 0
    for hyphen_words in (True, False):
        old = _old_compile(vocab, hyphen_words)
        new = VocabMatcher(vocab, hyphen_words=hyphen_words)
        for text in texts:
            expected = _old_find_all(text, old)
            assert new.find_all(text) == expected, text
            assert new.each_match(text) == _old_each(text, old), text
            n += len(expected)
    return n


def _demo_profile() -> DomainProfile:
    return DomainProfile.from_file(_DEMO / "profile.toml")


def _demo_questions() -> list[str]:
    lines = (_DEMO / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    return [fold(json.loads(line)["question"]) for line in lines if line.strip()]


def _tatqa() -> list[dict[str, object]]:
    path = data_root() / "tatqa" / "tatqa_dataset_dev.json"
    if not path.is_file():
        pytest.skip(f"TAT-QA dev not found under {data_root()} (set RAGSPINE_DATA)")
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _tatqa_vocab(contexts: list[dict[str, object]]) -> dict[str, str]:
    """Every table cell of TAT-QA dev with a letter, folded (thousands of real names)."""
    vocab: dict[str, str] = {}
    for i, ctx in enumerate(contexts):
        for row in ctx["table"]["table"]:  # type: ignore[index]
            for cell in row:
                if re.search(r"[^\W\d_]", cell) and (label := fold(cell)):
                    vocab.setdefault(label, f"R{i}")
    return vocab


def test_profiles_vocabularies_on_demo_questions() -> None:
    questions = _demo_questions()
    for profile in (_demo_profile(), DomainProfile.builtin()):
        for vocab in (metric_vocabulary(profile), entity_vocabulary(profile),
                      channel_vocabulary(profile)):
            _same(vocab, questions)
    assert _same(metric_vocabulary(_demo_profile()), questions) > 20


@pytest.mark.slow
def test_tatqa_labels_on_tatqa_questions_and_paragraphs() -> None:
    contexts = _tatqa()
    vocab = _tatqa_vocab(contexts)
    assert len(vocab) > 1800
    texts = [fold(q["question"]) for c in contexts for q in c["questions"]]  # type: ignore[attr-defined]
    texts += [fold(p["text"]) for c in contexts for p in c["paragraphs"]]  # type: ignore[attr-defined]
    texts += list(vocab)  # each label read against all the others
    assert _same(vocab, texts) > 10_000
    builtin = DomainProfile.builtin()
    _same(metric_vocabulary(builtin), texts[:3000])


@pytest.mark.slow
def test_overlapping_word_ngrams_of_tatqa_questions() -> None:
    """Every 1-3 word n-gram of 300 questions as a term: overlaps everywhere."""
    questions = [fold(q["question"]) for c in _tatqa()[:60]  # type: ignore[attr-defined]
                 for q in c["questions"]]
    vocab: dict[str, str] = {}
    for q in questions:
        words = q.split()
        for n in (1, 2, 3):
            for i in range(len(words) - n + 1):
                vocab.setdefault(" ".join(words[i:i + n]), str(n))
    assert _same(vocab, questions) > 1000


_ALPHABET = "ab- ,()%$&'.\n1营收入A"
_WORDS = ["a", "b", "ab", "a-b", "b a", "a b", "ab-", "-ab", "1", "%", "(a)", "a(b)", "营",
          "营收", "收入", "营收入", "a营", "ab ab", "a-", "A", "Ab", "$a", "a a a", "ba-ab"]


@settings(max_examples=400, deadline=None)
@given(vocab=st.dictionaries(st.one_of(st.sampled_from(_WORDS), st.text(_ALPHABET, min_size=1,
                                                                        max_size=6)),
                             st.sampled_from(["X", "Y", "Z"]), max_size=12),
       text=st.lists(st.one_of(st.sampled_from(_WORDS), st.text(_ALPHABET, max_size=4)),
                     max_size=12).map("".join))
def test_random_vocabularies_and_texts(vocab: dict[str, str], text: str) -> None:
    _same(vocab, [text, text + text, f" {text}-{text} "])


def test_empty_term_matches_as_its_pattern_did() -> None:
    _same({"": "E", "a": "A"}, ["", "a", "a b", "-a-", "x a-b a"])


def test_shared_matcher_is_built_once_per_vocabulary() -> None:
    vocab = {"net sales": "NS", "sales": "S"}
    assert shared_matcher(vocab) is shared_matcher(dict(vocab))
    assert compile_terms(vocab) is shared_matcher(vocab)
    assert shared_matcher({"sales": "S"}) is not shared_matcher(vocab)
    assert find_all("net sales", compile_terms(vocab)) == [(0, 9, "NS", "net sales")]


def test_ordered_terms_keep_their_order_and_first_code() -> None:
    m = VocabMatcher.ordered([("sales", "S"), ("net sales", "NS"), ("sales", "X")])
    assert m.find_all("net sales, sales") == [(4, 9, "S", "sales"), (11, 16, "S", "sales")]
    assert len(m) == 2


def test_hyphenated_words_and_word_edges() -> None:
    m = VocabMatcher({"vested": "V", "non-vested": "NV", "cn": "CN", "long-term": "LT",
                      "term": "T"})
    assert m.find_all("non-vested units, unvested, vested-ness, vested") == [
        (0, 10, "NV", "non-vested"), (41, 47, "V", "vested")]
    assert m.find_all("concern cn long-term term-loan term") == [
        (8, 10, "CN", "cn"), (11, 20, "LT", "long-term"), (31, 35, "T", "term")]
    loose = VocabMatcher({"vested": "V", "term": "T"}, hyphen_words=False)
    assert loose.find_all("non-vested term-loan") == [(4, 10, "V", "vested"),
                                                       (11, 15, "T", "term")]


# --- the case-insensitive matcher against GlossaryQueryRewriter's patterns (verbatim) ---

_TWINS = frozenset("\u0130\u0131\u017f\u212a")


def _probe_key(term: str) -> tuple[str, bool] | None:
    if term.isascii():
        return term.lower(), True
    if all((c.isascii() and not c.isalpha()) or (unicodedata.category(c) == "Lo"
                                                   and c.lower() == c.upper() == c)
           for c in term):
        return term, False
    return None


def _rewriter_pattern(term: str) -> re.Pattern[str]:
    escaped = re.escape(unicodedata.normalize("NFKC", term))
    if term.isascii():
        return re.compile(rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])", re.IGNORECASE)
    return re.compile(escaped, re.IGNORECASE)


def _rewriter_matches(text: str, patterns: list[re.Pattern[str]],
                      probes: list[tuple[str, bool] | None]) -> list[tuple[int, int, int]]:
    """GlossaryQueryRewriter._matches, with each term's index for its code."""
    taken = [False] * len(text)
    found = []
    lower = text.lower() if _TWINS.isdisjoint(text) else None
    for i, (pattern, probe) in enumerate(zip(patterns, probes, strict=True)):
        if probe is not None and (key := probe[0]) is not None and (
                (probe[1] and lower is not None and key not in lower)
                or (not probe[1] and key not in text)):
            continue
        for m in pattern.finditer(text):
            if not any(taken[m.start():m.end()]):
                taken[m.start():m.end()] = [True] * (m.end() - m.start())
                found.append((m.start(), m.end(), i))
    return sorted(found)


def _same_caseless(terms: list[str], texts: list[str]) -> int:
    terms = sorted((t for t in terms if t), key=lambda t: (-len(t), t))
    new = CaselessMatcher([(t, str(i)) for i, t in enumerate(terms)])
    patterns = [_rewriter_pattern(t) for t in terms]
    probes = [_probe_key(unicodedata.normalize("NFKC", t)) for t in terms]
    n = 0
    for text in texts:
        text = unicodedata.normalize("NFKC", text)
        expected = _rewriter_matches(text, patterns, probes)
        got = [(s, e, int(c)) for s, e, c, _ in new.find_all(text)]
        assert got == expected, text
        n += len(expected)
    return n


def _profile_terms(profile: DomainProfile) -> list[str]:
    groups = [(m.label, *m.synonyms) for m in profile.metrics.values()]
    groups += [(e.label, *e.synonyms) for e in profile.entities.values()]
    groups += [c.synonyms for c in profile.channels.values()]
    return [s for g in groups for s in g]


def test_caseless_on_profiles_and_demo_questions() -> None:
    lines = (_DEMO / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["question"] for line in lines if line.strip()]
    questions += [q.upper() for q in questions] + [q.title() for q in questions]
    for profile in (_demo_profile(), DomainProfile.builtin()):
        assert _same_caseless(_profile_terms(profile), questions) > 10


@pytest.mark.slow
def test_caseless_on_tatqa_labels_questions_and_paragraphs() -> None:
    contexts = _tatqa()
    labels = sorted({c for ctx in contexts for row in ctx["table"]["table"]  # type: ignore[index]
                     for c in row if re.search(r"[^\W\d_]", c)})
    texts = [q["question"] for c in contexts for q in c["questions"]]  # type: ignore[attr-defined]
    texts += [p["text"] for c in contexts for p in c["paragraphs"]]  # type: ignore[attr-defined]
    assert _same_caseless(labels, texts[:4000]) > 5000


_MIXED = "aAbB- ,.%1营收ΣσςÉéİıſKＡ—’…"


@settings(max_examples=400, deadline=None)
@given(terms=st.lists(st.text(_MIXED, min_size=1, max_size=5), max_size=10),
       text=st.text(_MIXED, max_size=30))
def test_caseless_random_terms_and_texts(terms: list[str], text: str) -> None:
    _same_caseless(terms, [text, text.upper(), text.lower(), f"{text} {text}"])


# --- the other per-term or per-word regex work on the agent's start-up path ---

def _old_spans(question: str, names: list[str]) -> list[tuple[int, int]]:
    """unknown_entity._spans before issue 38 (one pattern per name, per question)."""
    lowered = question.casefold()
    out = []
    for name in {n.casefold() for n in names if n and n.isascii()}:
        for m in re.finditer(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])", lowered):
            out.append((m.start(), m.end()))
    return out


def test_unknown_entity_spans_as_one_pattern_per_name() -> None:
    from ragspine_nb.agent.scope.unknown_entity import _metric_names, _spans
    profile = _demo_profile()
    names = [t for m in profile.metrics.values() for t in (m.label, *m.synonyms) if t]
    names += ["Revenue", "cost of sales", "(loss)", "non-vested", "vested", "Net-Sales"]
    lines = (_DEMO / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["question"] for line in lines if line.strip()]
    questions += ["What was Zentrix revenue in FY2025?", "REVENUE of non-vested Net-Sales (loss)",
                  "revenue-revenue revenues", ""]
    for q in questions:
        assert sorted(_spans(q, names)) == sorted(_old_spans(q, names)), q
    assert _metric_names(profile) is _metric_names(profile)
    metric_names = [t for m in profile.metrics.values() for t in (m.label, *m.synonyms)]
    for q in questions:
        assert sorted(_spans(q, _metric_names(profile))) == sorted(_old_spans(q, metric_names))


def _old_content_words(text: str) -> frozenset[str]:
    """wordset.content_words before issue 38 (no word kept), with issue 36's one change.

    A leading "%" adds the word "percent" ("% of revenues" names a percentage).
    """
    from ragspine_nb.wordset import _DASH, _SAME, _WORD, STOP_WORDS, singular
    raw = (re.sub(r"[-']", "", w) for w in _WORD.findall(_DASH.sub("-", _old_fold(text))))
    words = (_SAME.get(s, s) for w in raw if w not in STOP_WORDS for s in (singular(w),))
    out = frozenset(w for w in words if w not in STOP_WORDS)
    return out | {"percent"} if _old_fold(text).startswith("%") else out


def _old_fold(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()


_SPACES = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())


@settings(max_examples=300, deadline=None)
@given(st.text("ab -'–\u2011 Sx1920%的" + _SPACES, max_size=40))
def test_fold_and_content_words_as_before(text: str) -> None:
    from ragspine_nb.wordset import content_words
    assert fold(text) == _old_fold(text)
    assert content_words(text) == _old_content_words(text)
    assert content_words(text * 20) == _old_content_words(text * 20)  # not remembered
    assert content_words(text, keep=["the"]) >= content_words(text)


def test_dated_only_shortcut_as_before() -> None:
    # a name of years only, as before; and now a name of a period only ("FY 2019",
    # "Fiscal Year", "First Quarter": quarters down a table's column)
    from ragspine_nb.agent.reading.row_names import _YEAR
    from ragspine_nb.agent.reading.row_names import dated_only as _dated_only
    from ragspine_nb.period_phrases import names_only_a_period
    from ragspine_nb.wordset import content_words
    for term in ["2019", "FY 2019", "2019 and 2020", "revenue 2019", "１９２０", "Ⅱ 2019",
                 "the 1999", "19", "x20", "", "year 2018", "Fiscal Year", "First Quarter"]:
        words = content_words(term)
        assert _dated_only(term) == (names_only_a_period(term) or (
            bool(words) and all(_YEAR.fullmatch(w) for w in words)))
    assert _dated_only("Fiscal Year") and not _dated_only("Third quarter revenue")


def test_chunk_ids_are_the_filtered_chunks_ids(tmp_path: Path) -> None:
    from ragspine_nb.core import Chunk
    from ragspine_nb.stores.chunks import ChunkStore
    store = ChunkStore(tmp_path / "chunks.db")
    for doc, entity in (("b.pdf", "ACME"), ("a.pdf", "ACME"), ("c.pdf", "OTHER")):
        store.replace_doc_chunks(doc, [Chunk(chunk_id=f"{doc}#{i}", doc_id=doc, seq=i,
                                             text=f"t {i}", entity=entity,
                                             source_locator=f"para={i}") for i in range(3)])
    store.replace_doc_chunks("a.pdf", [Chunk(chunk_id="a.pdf#new", doc_id="a.pdf", seq=0,
                                             text="t", entity="ACME", source_locator="para=0")])
    for flt in ({}, {"entity": "ACME"}, {"doc_id": "c.pdf"}, {"entity": "NONE"}):
        assert store.chunk_ids(**flt) == [c.chunk_id for c in store.iter_chunks(**flt)]
    with pytest.raises(ValueError, match="Valid"):
        store.chunk_ids(company="ACME")


class _OldWordSetIndex:
    """WordSetIndex's lookups before issue 38 (a scan of every term), verbatim."""

    def __init__(self, terms: list[tuple[frozenset[str], str]],
                 rivals: list[tuple[frozenset[str], str]]) -> None:
        self._terms, self._rivals = terms, rivals

    def contained(self, words: frozenset[str]) -> tuple[str, ...]:
        from ragspine_nb.wordset import _YEAR_WORD
        inside = [t for t in self._terms if t[0] <= words]
        if not inside:
            return ()
        best = max(len(t[0]) for t in inside)
        plain = frozenset(w for w in words if not _YEAR_WORD.fullmatch(w))
        codes = {t[1] for t in inside if len(t[0]) == best}
        strength = max(len(t[0] & plain) for t in self._terms if t[1] in codes)
        rivals = [t[1] for t in self._rivals if len(t[0] & plain) > strength]
        if rivals:
            top = [t[1] for t in inside if len(t[0]) == best]
            return tuple(dict.fromkeys([*top, *rivals]))
        top = list(dict.fromkeys(t[1] for t in inside if len(t[0]) == best))
        if len(top) == 1:
            winner = max((t for t in inside if t[1] == top[0]), key=lambda t: len(t[0]))
            if all(t[0] <= winner[0] for t in inside if t[1] != top[0]):
                return tuple(top)
            others = [t[1] for t in inside if not t[0] <= winner[0]]
            return tuple(dict.fromkeys([*top, *others]))
        return tuple(top)

    def words_of(self, code: str, words: frozenset[str]) -> frozenset[str]:
        inside = [t[0] for t in self._terms if t[1] == code and t[0] <= words]
        return max(inside, key=len, default=frozenset())

    def shared(self, code: str, words: frozenset[str]) -> frozenset[str]:
        return max((t[0] & words for t in self._terms if t[1] == code), key=len,
                   default=frozenset())


_NAME_WORDS = ["net", "sales", "interest", "expense", "income", "deferred", "federal",
               "2019", "2020", "total", "cost", "of", "the", "tax"]


@settings(max_examples=300, deadline=None)
@given(pairs=st.lists(st.tuples(st.lists(st.sampled_from(_NAME_WORDS), max_size=4).map(" ".join),
                                st.sampled_from(["A", "B", "C", "D"])), max_size=12),
       rival_pairs=st.one_of(st.none(), st.lists(st.tuples(
           st.lists(st.sampled_from(_NAME_WORDS), max_size=3).map(" ".join),
           st.sampled_from(["A", "B", "E"])), max_size=6)),
       question=st.lists(st.sampled_from(_NAME_WORDS), max_size=6).map(" ".join))
def test_word_set_lookups_as_scanning_every_term(pairs: list[tuple[str, str]],
                                                 rival_pairs: list[tuple[str, str]] | None,
                                                 question: str) -> None:
    from ragspine_nb.wordset import WordSetIndex, content_words
    new = WordSetIndex(pairs, rival_pairs)
    terms = [(w, c) for t, c in pairs if (w := content_words(t))]
    rivals = terms if rival_pairs is None else [(w, c) for t, c in rival_pairs
                                                 if (w := content_words(t))]
    old = _OldWordSetIndex(terms, rivals)
    words = content_words(question)
    assert new.contained(words) == old.contained(words)
    for code in ("A", "B", "C", "D", "Z"):
        assert new.words_of(code, words) == old.words_of(code, words)
        assert new.shared(code, words) == old.shared(code, words)
