"""Derived vocabulary merged under a profile: the profile always wins, derived entries only add."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import pytest

import ragspine_nb.stores.fact_schema as fact_schema
from ragspine_nb import FactStore, Workspace
from ragspine_nb.core import Fact
from ragspine_nb.errors import ProfileError, StoreError
from ragspine_nb.glossary import normalize_channel, normalize_entity, normalize_metric
from ragspine_nb.profile import ChannelSpec, DomainProfile, EntitySpec, MetricSpec
from ragspine_nb.vocabulary import Vocabulary, code_from_label, merge_vocabulary
from tests.test_store_contract import BACKENDS, fresh_database, pg_server  # noqa: F401


def _profile() -> DomainProfile:
    return DomainProfile.from_dict({
        "home": {"company_name": "Acme Group", "entity_code": "ACME"},
        "metrics": {"REVENUE": {"unit": "USD_M", "label": "Revenue",
                                "synonyms": ["revenue", "sales", "营收"]},
                    "NET_INCOME": {"unit": "USD_M", "synonyms": ["net income"]}},
        "channels": {"ONLINE": {"synonyms": ["online"]}},
    })


def test_no_vocabulary_returns_the_profile_itself() -> None:
    p = _profile()
    assert merge_vocabulary(p) is p
    assert merge_vocabulary(p, Vocabulary(), Vocabulary()) is p


def test_derived_metric_adds_a_code_and_its_unclaimed_terms() -> None:
    p = _profile()
    v = Vocabulary(metrics=(MetricSpec("BACKLOG", "", "Order backlog",
                                       ("order backlog", "backlog", "Sales")),))
    merged = merge_vocabulary(p, v)
    assert merged.metrics["BACKLOG"].synonyms == ("order backlog", "backlog")
    assert normalize_metric(merged, "Backlog") == "BACKLOG"
    assert normalize_metric(merged, "sales") == "REVENUE"  # the profile's synonym stays its own
    assert merged.metrics["REVENUE"] == p.metrics["REVENUE"]
    assert p.metrics.keys() == {"REVENUE", "NET_INCOME"}  # the input profile is untouched


def test_a_derived_entry_with_the_profiles_code_only_adds_names_nobody_claims() -> None:
    # a row read as the profile's metric through a statement's wording ("Turnover, total")
    # keeps its name; the profile's label, unit and synonyms stay as they are
    p = _profile()
    v = Vocabulary(metrics=(MetricSpec("REVENUE", "", "Turnover", ("turnover", "sales")),
                            MetricSpec("net income", "", "x", ("x",))))
    merged = merge_vocabulary(p, v)
    assert merged.metrics["REVENUE"] == replace(
        p.metrics["REVENUE"], synonyms=(*p.metrics["REVENUE"].synonyms, "turnover"))
    assert set(merged.metrics) == set(p.metrics)
    assert normalize_metric(merged, "turnover") == "REVENUE"


def test_derived_label_claimed_by_the_profile_does_not_make_it_ambiguous() -> None:
    p = _profile()
    v = Vocabulary(metrics=(MetricSpec("SEGMENT_REVENUE", "", "Revenue", ("segment revenue",)),))
    merged = merge_vocabulary(p, v)
    assert merged.metrics["SEGMENT_REVENUE"].label == ""
    assert normalize_metric(merged, "Revenue") == "REVENUE"
    assert normalize_metric(merged, "segment revenue") == "SEGMENT_REVENUE"


def test_two_derived_metrics_with_one_code_merge_their_synonyms() -> None:
    p = _profile()
    a = Vocabulary(metrics=(MetricSpec("BACKLOG", "USD_M", "Backlog", ("backlog",)),))
    b = Vocabulary(metrics=(MetricSpec("BACKLOG", "USD_K", "Order book",
                                       ("Backlog", "order book")),))
    m = merge_vocabulary(p, a, b).metrics["BACKLOG"]
    assert (m.unit, m.label, m.synonyms) == ("USD_M", "Backlog", ("backlog", "order book"))


def test_a_term_two_derived_metrics_share_resolves_to_neither() -> None:
    v = Vocabulary(metrics=(MetricSpec("A_TOTAL", "", "", ("total",)),
                            MetricSpec("B_TOTAL", "", "", ("total",))))
    merged = merge_vocabulary(_profile(), v)
    assert normalize_metric(merged, "total") is None  # never a silent pick


def test_parts_keep_known_metrics_and_never_form_a_cycle() -> None:
    a = Vocabulary(metrics=(MetricSpec("TOTAL_X", "", "", (), ("X1", "X2", "MISSING")),
                            MetricSpec("X1", "", "", ()), MetricSpec("X2", "", "", ())))
    b = Vocabulary(metrics=(MetricSpec("X1", "", "", (), ("TOTAL_X",)),))
    merged = merge_vocabulary(_profile(), a, b)
    assert merged.metrics["TOTAL_X"].parts == ("X1", "X2")
    assert merged.metrics["X1"].parts == ()
    assert merged.contains("TOTAL_X", "X2")


def test_channels_and_entities_follow_the_same_rules() -> None:
    p = _profile()
    v = Vocabulary(
        channels=(ChannelSpec("ADJUSTED", ("adjusted", "online")), ChannelSpec("ONLINE", ("web",))),
        entities=(EntitySpec("BETA", "Beta Inc.", "UNSPECIFIED",
                             ("beta", "beta inc.", "acme group")),
                  EntitySpec("ACME", "Other", "X", ("other",))),
    )
    merged = merge_vocabulary(p, v)
    assert merged.channels["ADJUSTED"].synonyms == ("adjusted",)
    assert merged.channels["ONLINE"] == p.channels["ONLINE"]
    assert normalize_channel(merged, "web") is None
    assert merged.entities["BETA"].synonyms == ("beta", "beta inc.")
    assert normalize_entity(merged, "Beta Inc.") == "BETA"
    assert normalize_entity(merged, "Acme Group") == "ACME"
    assert merged.home_entity_code == "ACME" and merged.entities["ACME"] == p.entities["ACME"]


def test_round_trip_and_bad_stored_shape() -> None:
    v = Vocabulary(metrics=(MetricSpec("A", "shares_K", "A", ("a",), ("B",)),
                            MetricSpec("B", "", "", ())),
                   channels=(ChannelSpec("MEN", ("men",)),),
                   entities=(EntitySpec("BETA", "Beta", "UNSPECIFIED", ("beta",)),))
    assert Vocabulary.from_dict(v.to_dict()) == v
    with pytest.raises(ProfileError, match="expected sections"):
        Vocabulary.from_dict({"metrics": [{"unit": "x"}]})


def test_code_from_label() -> None:
    assert code_from_label("  Net income (loss) ") == "NET_INCOME_LOSS"
    assert code_from_label("股份有限公司") == "股份有限公司"


def test_thousands_of_derived_metrics_merge_fast() -> None:
    vocabularies = [Vocabulary(metrics=tuple(
        MetricSpec(f"ROW_{d}_{i}", "", f"Row {d} {i}", (f"row {d} {i}", f"line {i}"),
                   (f"ROW_{d}_{i + 1}",) if i % 10 else ())
        for i in range(100))) for d in range(50)]
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    merged = merge_vocabulary(_profile(), *vocabularies)
    elapsed = time.process_time() - start
    assert len(merged.metrics) == 2 + 5000
    assert elapsed < 2.0, elapsed


# ------------------------------------------------------- the store (both backends)
@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return fresh_database(request.getfixturevalue("pg_server"))


def _fact(doc: str, value: float = 1.0) -> Fact:
    return Fact("BACKLOG", "COMPANY", "GROUP", "TOTAL", "FY", "2019", value, "USD_M", doc,
                "cell=B2")


_V1 = Vocabulary(metrics=(MetricSpec("BACKLOG", "USD_M", "Backlog", ("backlog",)),))
_V2 = Vocabulary(metrics=(MetricSpec("ORDER_BOOK", "USD_M", "Order book", ("order book",)),),
                 entities=(EntitySpec("ACME", "Acme Corp.", "UNSPECIFIED", ("acme",)),))


def test_the_vocabulary_is_replaced_and_removed_with_the_documents_facts(url: str) -> None:
    store = FactStore(url)
    store.replace_source_doc("a.csv", [_fact("a.csv")], vocabulary=_V1)
    store.replace_source_doc("b.csv", [_fact("b.csv")], vocabulary=_V2)
    assert store.vocabularies() == {"a.csv": _V1, "b.csv": _V2}
    store.replace_source_doc("a.csv", [_fact("a.csv")], vocabulary=_V2)
    assert store.vocabularies() == {"a.csv": _V2, "b.csv": _V2}
    store.replace_source_doc("a.csv", [_fact("a.csv")])  # a version that brings none
    assert store.vocabularies() == {"b.csv": _V2}
    store.delete_by_source_doc("b.csv")
    assert store.vocabularies() == {} and store.count() == 1


def test_a_failed_write_keeps_the_previous_vocabulary(url: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = FactStore(url)
    store.replace_source_doc("a.csv", [_fact("a.csv")], vocabulary=_V1)
    monkeypatch.setattr(fact_schema, "LEDGER_UPSERT", "INSERT INTO no_such_table VALUES (?)")
    with pytest.raises(StoreError):
        store.replace_source_doc("a.csv", [_fact("a.csv", 2.0)], vocabulary=_V2,
                                 document={"doc_id": "a.csv"})
    assert store.vocabularies() == {"a.csv": _V1}
    assert store.iter_facts()[0].value == 1.0


def test_a_store_made_before_the_vocabulary_table_gains_it(url: str) -> None:
    FactStore(url).replace_source_doc("a.csv", [_fact("a.csv")])
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP TABLE vocabulary")
    else:
        with sqlite3.connect(url) as conn:
            conn.execute("DROP TABLE vocabulary")
    store = FactStore(url, create=False)
    assert store.vocabularies() == {}
    store.replace_source_doc("a.csv", [_fact("a.csv")], vocabulary=_V1)
    assert store.vocabularies() == {"a.csv": _V1}


def test_push_carries_each_documents_vocabulary(url: str, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws", create=True)
    ws.facts.replace_source_doc("a.csv", [_fact("a.csv")], vocabulary=_V1)
    ws.facts.replace_source_doc("b.md", [], vocabulary=_V2)
    facts, _ = ws.push(url)
    assert facts.vocabularies() == {"a.csv": _V1, "b.md": _V2}
    merged = ws.effective_profile()
    assert {"BACKLOG", "ORDER_BOOK"} <= set(merged.metrics) and "ACME" in merged.entities
    assert normalize_metric(merged, "order book") == "ORDER_BOOK"
