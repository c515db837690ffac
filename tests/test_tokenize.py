"""Tokenizer rules per script: folded Latin/Greek words, Cyrillic words, kana/Hangul/Han grams."""

from __future__ import annotations

import pytest

from ragspine_nb.retrieval import BM25Index, tokenize
from ragspine_nb.retrieval.tokenize import ENGLISH_STOPWORDS, fold_diacritics


@pytest.mark.parametrize("text, tokens", [
    # Latin with diacritics: one word, accents folded
    ("café", ["cafe"]),
    ("Zürich", ["zurich"]),
    ("naïve", ["naive"]),
    ("São Paulo", ["sao", "paulo"]),
    ("Łódź Straße Œuvre", ["lodz", "strasse", "oeuvre"]),
    ("cafe\u0301", ["cafe"]),  # decomposed accent
    ("MPFA新规 in Zürich", ["mpfa", "新", "规", "新规", "in", "zurich"]),
    # Greek and Cyrillic: words (Greek accents folded, Cyrillic letters kept)
    ("Ελλάδα", ["ελλαδα"]),
    ("выручка", ["выручка"]),
    ("Выручка выросла на 5%", ["выручка", "выросла", "на", "5"]),
    # Japanese: Han and kana runs, each unigrams then bigrams
    ("東京の会社です", ["東", "京", "東京", "の", "会", "社", "会社", "で", "す", "です"]),
    ("カタカナ", ["カ", "タ", "カ", "ナ", "カタ", "タカ", "カナ"]),
    ("ｶﾀｶﾅ", ["カ", "タ", "カ", "ナ", "カタ", "タカ", "カナ"]),  # half-width
    # Korean: each space-separated Hangul run, unigrams then bigrams
    ("삼성전자 매출", ["삼", "성", "전", "자", "삼성", "성전", "전자", "매", "출", "매출"]),
    # Han unchanged from before, including what is dropped (〇, 々)
    ("2025年营收", ["2025", "年", "营", "收", "年营", "营收"]),
    ("二〇二五年", ["二", "二", "五", "年", "二五", "五年"]),
    ("人々", ["人"]),
])
def test_tokenize_scripts(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


@pytest.mark.parametrize("document, query", [
    ("Café", "cafe"), ("Zürich", "ZURICH"), ("naïve", "naive"), ("São Paulo", "sao paulo"),
    ("cafe\u0301", "café"), ("ΕΛΛΆΔΑ", "Ελλαδα"), ("Ёлка", "елка"),
])
def test_query_without_accents_gives_the_document_tokens(document: str, query: str) -> None:
    assert tokenize(document) == tokenize(query)


def test_fold_keeps_distinct_cyrillic_letters_and_other_scripts() -> None:
    assert fold_diacritics("мой") == "мой"  # й is a letter of its own, not и + breve
    assert fold_diacritics("ёлка") == "елка"
    assert tokenize("हिन्दी भाषा") == ["हिन्दी", "भाषा"]  # vowel signs stay inside the word


def test_stopwords_and_stemmer_see_folded_words() -> None:
    assert tokenize("The naïve Café", stopwords=ENGLISH_STOPWORDS, stemmer=str.upper) == [
        "NAIVE", "CAFE"]
    assert tokenize("Выручка", stemmer=str.upper) == ["выручка"]  # the stemmer is for ASCII
    assert tokenize("Выручка выросла", stopwords={"выросла"}) == ["выручка"]


def test_bm25_finds_accented_and_hangul_documents() -> None:
    idx = BM25Index.build(["zh", "ge", "ko", "ru"], [
        "Our office in Zürich opened", "Our office in Geneva opened",
        "삼성전자의 매출은 증가했다", "Выручка выросла"])
    assert idx.search("Zurich office", top_k=1)[0][0] == "zh"
    assert idx.search("삼성전자 매출", top_k=1)[0][0] == "ko"
    assert idx.search("выручка", top_k=1)[0][0] == "ru"
