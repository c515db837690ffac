from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from ragspine_nb import DatabaseNotFoundError, Fact, FactStore, LineageError, ReadOnlyQueryError
from ragspine_nb.errors import InvalidRecordError
from ragspine_nb.stores.facts import FACT_COLUMNS
from tests.conftest import make_fact

INJECTIONS = [
    "'; DROP TABLE fact_metric; --",
    "x' OR '1'='1",
    "REVENUE\"; DELETE FROM fact_metric; --",
    "1; ATTACH DATABASE '/tmp/pwn.db' AS pwn; --",
    "' UNION SELECT sql, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 FROM sqlite_master --",
    "REVENUE' --",
]


def _schema(store: FactStore) -> list[tuple[str, str]]:
    return [(r["name"], r["sql"]) for r in
            store.execute_read("SELECT name, sql FROM sqlite_master ORDER BY name")]


def test_upsert_then_exact_query(fact_db: FactStore) -> None:
    assert fact_db.upsert([make_fact()]) == 1
    got = fact_db.query("REVENUE", "ACME_HK", "FY", "2024")
    assert got is not None and got.value == 1320.0
    assert got.source_locator == "slide=2,table=1,row=REVENUE,col=FY2024"
    assert got.ingested_at  # stamped at write time
    assert fact_db.query("REVENUE", "ACME_HK", "FY", "2023") is None
    assert fact_db.query("REVENUE", "ACME_HK", "FY", "2024", channel="AGENCY") is None
    assert fact_db.query("revenue", "ACME_HK", "FY", "2024") is None  # codes are exact


def test_fy_and_hy_of_the_same_year_are_different_facts(fact_db: FactStore) -> None:
    fact_db.upsert([make_fact(period_type="FY", period="2024", value=100.0),
                    make_fact(period_type="HY", period="2024H1", value=40.0),
                    make_fact(period_type="HY", period="2024", value=41.0)])
    assert fact_db.count() == 3
    assert fact_db.query("REVENUE", "ACME_HK", "FY", "2024").value == 100.0  # type: ignore[union-attr]
    assert fact_db.query("REVENUE", "ACME_HK", "HY", "2024H1").value == 40.0  # type: ignore[union-attr]
    assert fact_db.query("REVENUE", "ACME_HK", "HY", "2024").value == 41.0  # type: ignore[union-attr]


def test_upsert_overwrites_value_and_lineage(fact_db: FactStore) -> None:
    fact_db.upsert([make_fact(source_file_hash="a" * 64, extractor_version="x@1")])
    fact_db.upsert([make_fact(value=1400.0, source_doc_id="restated.xlsx",
                              source_locator="sheet=Summary!C4", source_file_hash="b" * 64,
                              extractor_version="x@2", mapping_version="m@2",
                              valid_as_of="2025-06-30")])
    got = fact_db.query("REVENUE", "ACME_HK", "FY", "2024")
    assert fact_db.count() == 1 and got is not None
    assert (got.value, got.source_doc_id, got.source_locator, got.source_file_hash,
            got.extractor_version, got.mapping_version, got.valid_as_of) == (
        1400.0, "restated.xlsx", "sheet=Summary!C4", "b" * 64, "x@2", "m@2", "2025-06-30")


@pytest.mark.parametrize("field", ["source_doc_id", "source_locator"])
@pytest.mark.parametrize("bad", ["", "   ", None])
def test_forged_fact_with_blank_lineage_is_rejected_at_write(
        fact_db: FactStore, field: str, bad: object) -> None:
    forged = make_fact()
    object.__setattr__(forged, field, bad)  # bypass the constructor's check
    with pytest.raises(LineageError, match=field):
        fact_db.upsert([make_fact(period="2023"), forged])
    assert fact_db.count() == 0  # the whole batch was rejected


@pytest.mark.parametrize("column", ["source_doc_id", "source_locator"])
@pytest.mark.parametrize("bad", ["", "  ", None])
def test_database_itself_rejects_blank_or_null_lineage(tmp_path: Path, column: str,
                                                       bad: object) -> None:
    path = tmp_path / "f.sqlite"
    with FactStore(path) as store:
        store.count()
    conn = sqlite3.connect(path)
    values = {c: "x" for c in FACT_COLUMNS} | {"period_type": "FY", "value": 1.0, column: bad}
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(f"INSERT INTO fact_metric ({', '.join(values)}) "
                     f"VALUES ({', '.join('?' for _ in values)})", list(values.values()))
    conn.close()


def test_a_bad_record_rejects_the_whole_batch(fact_db: FactStore) -> None:
    with pytest.raises(InvalidRecordError):
        fact_db.upsert([make_fact(), "not a fact"])  # type: ignore[list-item]
    assert fact_db.count() == 0


def test_delete_and_replace_by_source_doc(fact_db: FactStore) -> None:
    fact_db.upsert([make_fact(), make_fact(period="2023"),
                    make_fact(entity="ACME_SG", geography="SG", source_doc_id="other.pptx")])
    assert fact_db.delete_by_source_doc("ACME_FY2024_Review.pptx") == 2
    assert fact_db.count() == 1
    assert fact_db.replace_source_doc("other.pptx", [make_fact(
        entity="ACME_CN", geography="CN", source_doc_id="other.pptx")]) == 1
    assert [f.entity for f in fact_db.iter_facts()] == ["ACME_CN"]
    with pytest.raises(InvalidRecordError, match="other documents"):
        fact_db.replace_source_doc("other.pptx", [make_fact()])
    assert [f.entity for f in fact_db.iter_facts()] == ["ACME_CN"]


def test_iter_facts_filters_and_rejects_unknown_filters(fact_db: FactStore) -> None:
    fact_db.upsert([make_fact(), make_fact(metric_code="ROE", unit="PCT", value=12.5)])
    assert [f.metric_code for f in fact_db.iter_facts(metric_code="ROE")] == ["ROE"]
    with pytest.raises(ValueError, match="Valid filters"):
        fact_db.iter_facts(colour="red")


@pytest.mark.parametrize("sql", [
    "INSERT INTO fact_metric (metric_code) VALUES ('x')",
    "UPDATE fact_metric SET value = 0",
    "DELETE FROM fact_metric",
    "DROP TABLE fact_metric",
    "CREATE TABLE t (x)",
    "ALTER TABLE fact_metric ADD COLUMN y",
    "ATTACH DATABASE ':memory:' AS other",
    "PRAGMA journal_mode = DELETE",
    "BEGIN",
    "SELECT 1; DELETE FROM fact_metric",
    "WITH x AS (SELECT 1) DELETE FROM fact_metric",
    "REPLACE INTO fact_metric (metric_code) VALUES ('x')",
])
def test_execute_read_refuses_anything_but_a_read(fact_db: FactStore, sql: str) -> None:
    fact_db.upsert([make_fact()])
    before = _schema(fact_db)
    with pytest.raises(ReadOnlyQueryError):
        fact_db.execute_read(sql)
    assert fact_db.count() == 1 and _schema(fact_db) == before
    assert fact_db.query("REVENUE", "ACME_HK", "FY", "2024").value == 1320.0  # type: ignore[union-attr]


def test_execute_read_runs_reads_with_bound_params(fact_db: FactStore) -> None:
    fact_db.upsert([make_fact(), make_fact(period="2023", value=1.5)])
    rows = fact_db.execute_read(
        "WITH r AS (SELECT period, value FROM fact_metric WHERE metric_code = ?) "
        "SELECT period, value FROM r ORDER BY period", ["REVENUE"])
    assert rows == [{"period": "2023", "value": 1.5}, {"period": "2024", "value": 1320.0}]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_sql_injection_through_every_string_parameter_changes_nothing(
        fact_db: FactStore, payload: str) -> None:
    fact_db.upsert([make_fact()])
    before = (_schema(fact_db), fact_db.to_frame().to_dict())
    for i in range(5):
        args = ["REVENUE", "ACME_HK", "FY", "2024", "TOTAL"]
        args[i] = payload
        assert fact_db.query(*args) is None
    for key in ("metric_code", "entity", "geography", "channel", "period_type", "period",
                "source_doc_id"):
        assert fact_db.iter_facts(**{key: payload}) == []
    assert fact_db.delete_by_source_doc(payload) == 0
    assert fact_db.execute_read("SELECT COUNT(*) AS n FROM fact_metric WHERE entity = ?",
                                [payload]) == [{"n": 0}]
    # a payload stored as data stays data
    fact_db.upsert([make_fact(entity=payload, source_doc_id=payload, source_locator=payload)])
    assert fact_db.query("REVENUE", payload, "FY", "2024").source_locator == payload  # type: ignore[union-attr]
    assert fact_db.count() == 2
    assert fact_db.delete_by_source_doc(payload) == 1
    assert (_schema(fact_db), fact_db.to_frame().to_dict()) == before


def test_file_store_persists_and_schema_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "facts.sqlite"
    with FactStore(path) as store:
        store.upsert([make_fact()])
    for _ in range(2):
        with FactStore(path) as again:
            assert again.count() == 1
            assert again.integrity_check() == "ok"


def test_opening_a_missing_store_without_create_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "nope.sqlite"
    with pytest.raises(DatabaseNotFoundError, match="nothing was created"):
        FactStore(path, create=False)
    assert not path.exists()


def test_opening_a_foreign_database_without_create_fails(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE x (y)").connection.commit()
    other.close()
    with pytest.raises(DatabaseNotFoundError, match="not a ragspine_nb store"):
        FactStore(path, create=False).count()


def test_to_frame_has_every_column_with_lineage(fact_db: FactStore) -> None:
    fact_db.upsert([make_fact(source_file_hash="h" * 64, extractor_version="pptx@1")])
    frame = fact_db.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == list(FACT_COLUMNS)
    assert frame.loc[0, "source_locator"] == "slide=2,table=1,row=REVENUE,col=FY2024"
    assert frame.loc[0, "extractor_version"] == "pptx@1"


def test_sql_for_shows_the_exact_parameterized_query(fact_db: FactStore) -> None:
    sql, params = fact_db.sql_for("REVENUE", "ACME_HK", "FY", "2024")
    assert "?" in sql and "REVENUE" not in sql
    assert params == ("REVENUE", "ACME_HK", "TOTAL", "FY", "2024")


def test_fact_round_trips_exactly(fact_db: FactStore) -> None:
    f = make_fact(value=-42.3, source_file_hash="c" * 64, extractor_version="csv@1",
                  mapping_version="glossary@abc", valid_as_of="2025-03-31",
                  ingested_at="2025-04-01T00:00:00+00:00")
    fact_db.upsert([f])
    assert fact_db.query("REVENUE", "ACME_HK", "FY", "2024") == f
    assert isinstance(fact_db.iter_facts()[0], Fact)


def test_vocabularies_are_read_again_after_a_write_from_any_connection(tmp_path: Path) -> None:
    """Kept between questions (a folder of 10-Ks holds hundreds), never stale after a write."""
    from ragspine_nb.testing.stores import _LEDGER, _VOCABULARY, DECK

    reader = FactStore(tmp_path / "facts.db")
    writer = FactStore(tmp_path / "facts.db")
    assert reader.vocabularies() == {}
    first = reader.vocabularies()
    first["mutated"] = _VOCABULARY  # a caller's copy: the kept one is not changed
    assert reader.vocabularies() == {}
    writer.replace_source_doc(DECK, [make_fact(source_doc_id=DECK)], document=_LEDGER,
                              vocabulary=_VOCABULARY)  # another connection writes
    assert reader.vocabularies() == {DECK: _VOCABULARY}
    writer.replace_source_doc(DECK, [make_fact(source_doc_id=DECK)], document=_LEDGER)
    assert reader.vocabularies() == {}
    reader.replace_source_doc(DECK, [make_fact(source_doc_id=DECK)], document=_LEDGER,
                              vocabulary=_VOCABULARY)  # and this one
    assert reader.vocabularies() == {DECK: _VOCABULARY}


def test_metric_channels_are_read_again_after_a_write_from_any_connection(
        tmp_path: Path) -> None:
    """Kept between questions (each asks it of the entities it names), never stale."""
    reader = FactStore(tmp_path / "facts.db")
    writer = FactStore(tmp_path / "facts.db")
    assert reader.metric_channels("ACME_HK") == frozenset()
    writer.upsert([make_fact()])  # another connection writes
    assert reader.metric_channels("ACME_HK") == frozenset({("REVENUE", "TOTAL")})
    assert reader.metric_channels() == frozenset({("REVENUE", "TOTAL")})
    reader.upsert([make_fact(metric_code="COGS")])  # and this one
    assert reader.metric_channels("ACME_HK") == frozenset({("REVENUE", "TOTAL"),
                                                           ("COGS", "TOTAL")})
    writer.delete_by_source_doc(make_fact().source_doc_id)
    assert reader.metric_channels("ACME_HK") == frozenset()
