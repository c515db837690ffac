"""The saved vocabulary answers like the dict it replaces (real tokens, CJK included)."""

from __future__ import annotations

import random

import pytest

from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval.packed import SavedTerms, byte_order, pack_strings
from ragspine_nb.retrieval.tokenize import tokenize


def _terms() -> list[str]:
    root = data_root()
    texts: list[str] = []
    for name in ("scifact", "cmrc2018-chunks"):
        if (root / name).exists():
            texts.extend(load_beir(root / name).doc_texts()[1][:300])
    if not texts:
        pytest.skip(f"no SciFact / CMRC data under {root}")
    return list(dict.fromkeys(t for text in texts for t in tokenize(text)))


def test_saved_terms_give_every_id_and_miss_what_is_not_there() -> None:
    terms = _terms()
    assert any("\u4e00" <= t[0] <= "\u9fff" for t in terms)  # Chinese tokens are in
    table = SavedTerms(pack_strings(terms), byte_order(terms))
    plain = dict(zip(terms, range(len(terms)), strict=True))
    assert len(table) == len(plain)
    assert all(table.get(t) == i for t, i in plain.items())
    rng = random.Random(7)
    absent = [t + "zz" for t in rng.sample(terms, 200)] + ["", "\uffff", "香港收入下降了吗"]
    assert [table.get(t, -1) for t in absent] == [plain.get(t, -1) for t in absent]
    assert list(table) == terms
    added = [t + "éé" for t in terms[:50]]  # a document with new terms added
    assert [table.setdefault(t, len(table)) for t in terms[:50] + added] == \
        list(range(50)) + list(range(len(terms), len(terms) + 50))
    assert table.terms() == terms + added and table.get(added[-1]) == len(table) - 1


def test_a_term_list_packed_as_json_or_cut_short_is_refused() -> None:
    with pytest.raises(ValueError, match="without JSON"):
        SavedTerms(pack_strings(["a\x1fb"]), byte_order(["a\x1fb"]))
    with pytest.raises(ValueError, match="holds"):
        SavedTerms(pack_strings(["a", "b"]), byte_order(["a"]))
