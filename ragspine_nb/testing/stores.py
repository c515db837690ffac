"""Contracts of the stores: :class:`FactWriter` and :class:`ChunkWriter` (with their readers).

:class:`FactStoreContract` checks what the fact store promises: a written fact reads
back exactly, with its source document and locator; an identity nobody states is not
found (never a neighbour, never a pick between disagreeing documents); a fact without
lineage rejects its whole batch; re-ingesting a document replaces its facts, ledger row
and vocabulary; withdrawing it removes only its facts. :class:`ChunkStoreContract`
checks the chunk store's versions (a new version replaces the old one atomically, an
empty one withdraws the document, a staged one stays invisible until activated) and
that every chunk comes back with its sensitivity label exactly as written, so readers
serving prompts can keep RESTRICTED text out. Both check the shared handle:
``execute_read`` reads with bound parameters and refuses every write, ``close`` is
idempotent, ``with`` gives the store, and a read-only store refuses writes with
:class:`~ragspine_nb.errors.ReadOnlyStoreError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from ragspine_nb.core import ConflictResult, Fact, FoundResult, NotFoundResult, Source
from ragspine_nb.errors import (
    InvalidRecordError,
    LineageError,
    ReadOnlyQueryError,
    ReadOnlyStoreError,
)
from ragspine_nb.profile import MetricSpec
from ragspine_nb.stores.protocols import FactReader, FactWriter
from ragspine_nb.testing._store_checks import (
    HOSTILE_VALUES,
    REFUSED_READS,
    check_handle_lifecycle,
)
from ragspine_nb.testing.chunk_store import ChunkStoreContract
from ragspine_nb.vocabulary import Vocabulary

if TYPE_CHECKING:
    from ragspine_nb.stores import ChunkStore, FactStore
    from ragspine_nb.stores.protocols import ChunkWriter

    def _shipped_stores_conform(facts: FactStore, chunks: ChunkStore
                                ) -> tuple[FactWriter, ChunkWriter]:
        return facts, chunks  # mypy checks the shipped stores against the Protocols

__all__ = ["FactStoreContract", "ChunkStoreContract"]

DECK = "ACME_FY2025_Results.pptx"
DECK_LOC = "slide=3,table=1,row=REVENUE,col=FY2025"
RESTATED = "AAA_restatement.csv"
HK_FY2025 = ("REVENUE", "ACME_HK", "FY", "2025")
_LEDGER = {"doc_id": DECK, "path": f"/data/{DECK}", "file_hash": "a" * 64,
           "fingerprint": "fp-1", "extractor_version": "pptx@1", "title": "FY2025 results",
           "sensitivity": "INTERNAL", "facts": 2, "chunks": 0,
           "ingested_at": "2026-01-15T09:30:00+00:00"}
_VOCABULARY = Vocabulary(metrics=(MetricSpec("BACKLOG", "USD_M", "Order backlog",
                                              ("order backlog",)),))


def _fact(metric: str = "REVENUE", value: float = 1405.0, doc: str = DECK,
          locator: str = DECK_LOC, **kw: Any) -> Fact:
    """An ACME Hong Kong fact stated by ``doc`` (FY2025 unless told)."""
    return Fact(metric, kw.pop("entity", "ACME_HK"), "HK", kw.pop("channel", "TOTAL"),
                kw.pop("period_type", "FY"), kw.pop("period", "2025"), value, "USD_M", doc,
                locator, **kw)


_FULL = _fact(source_file_hash="b" * 64, extractor_version="pptx@1",
              mapping_version="glossary@1", valid_as_of="2025-12-31",
              ingested_at="2026-01-15T09:30:00+00:00")


def _write(store: FactWriter, how: str, facts: list[Any], doc: str = DECK) -> int:
    """Write ``facts`` by ``upsert`` or as ``doc``'s ingestion (``replace_source_doc``)."""
    return store.upsert(facts) if how == "upsert" else store.replace_source_doc(doc, facts)


def _snapshot(store: FactReader) -> list[tuple[Any, ...]]:
    return [(f.metric_code, f.period_type, f.period, f.value, f.source_doc_id,
             f.source_locator) for f in store.iter_facts()]


class FactStoreContract:
    """The behavioural contract of :class:`~ragspine_nb.stores.protocols.FactWriter`.

    Notes
    -----
    The inheriting class defines the fixture ``fact_store``: a fresh, **empty**, writable
    store for every test. It may define ``read_only_fact_store``: a callable that takes
    the written ``fact_store`` and returns a store reading the same data that cannot be
    written (the mixin's default skips the read-only test).
    """

    @pytest.fixture
    def read_only_fact_store(self) -> Callable[[FactWriter], FactReader]:
        """Override to open the written store read-only; skipped by default."""
        pytest.skip("this fact store has no read-only mode")

    def test_fact_store_has_the_protocol_members(self, fact_store: FactWriter) -> None:
        """Every member of the reader and writer Protocols is there."""
        assert isinstance(fact_store, FactWriter) and isinstance(fact_store, FactReader)

    def test_fact_store_starts_empty(self, fact_store: FactWriter) -> None:
        """No facts, metrics, ledger rows or vocabularies; every lookup is not found."""
        assert (fact_store.count(), fact_store.iter_facts(), fact_store.metric_codes()) == (
            0, [], frozenset())
        assert (fact_store.source_documents(), fact_store.vocabularies()) == ([], {})
        assert fact_store.lookup(*HK_FY2025) == NotFoundResult(*HK_FY2025, "TOTAL")

    @pytest.mark.parametrize("how", ["upsert", "replace_source_doc"])
    def test_written_fact_reads_back_exactly_with_its_source(
            self, fact_store: FactWriter, how: str) -> None:
        """Value, unit, lineage and versions come back as written; the source is cited."""
        assert _write(fact_store, how, [_FULL, _fact("NEW_SALES", 310.5)]) == 2
        assert fact_store.query(*HK_FY2025) == _FULL
        found = fact_store.lookup(*HK_FY2025)
        assert isinstance(found, FoundResult) and found.fact == _FULL
        assert found.fact.source == Source(DECK, DECK_LOC) and found.also_stated_by == ()
        stamped = fact_store.query("NEW_SALES", "ACME_HK", "FY", "2025")
        assert stamped is not None and stamped.ingested_at.strip()  # stamped at write time
        assert fact_store.statements(*HK_FY2025) == [_FULL]
        assert fact_store.iter_facts(metric_code="REVENUE") == [_FULL]
        assert fact_store.metric_codes() == frozenset({"REVENUE", "NEW_SALES"})
        assert fact_store.metric_channels("ACME_HK") == frozenset(
            {("REVENUE", "TOTAL"), ("NEW_SALES", "TOTAL")})
        assert fact_store.metric_channels("ACME_CN") == frozenset()
        assert fact_store.delete_by_source_doc(DECK) == 2  # read again after a write
        assert fact_store.metric_channels("ACME_HK") == frozenset()

    @pytest.mark.parametrize("identity", [
        ("REVENUE", "ACME_HK", "FY", "2024", "TOTAL"), ("REVENUE", "ACME_HK", "HY", "2025",
                                                       "TOTAL"),
        ("REVENUE", "ACME_HK", "FY", "2025", "AGENCY"), ("revenue", "ACME_HK", "FY", "2025",
                                                        "TOTAL"),
        ("REVENUE", "ACME_CN", "FY", "2025", "TOTAL"), ("NEW_SALES", "ACME_HK", "FY", "2025",
                                                       "TOTAL"),
    ], ids=["other-year", "half-year", "other-channel", "lower-case", "other-entity",
            "other-metric"])
    def test_unknown_identity_is_not_found_never_a_guess(
            self, fact_store: FactWriter, identity: tuple[str, str, str, str, str]) -> None:
        """A neighbour of a stored fact is not found: no nearest year, case or channel."""
        fact_store.replace_source_doc(DECK, [_fact()])
        assert fact_store.query(*identity) is None
        assert fact_store.lookup(*identity) == NotFoundResult(*identity)
        assert fact_store.statements(*identity) == []

    def test_fy_and_hy_of_one_year_are_different_facts(self, fact_store: FactWriter) -> None:
        """FY 2025, HY 2025H1 and HY 2025 are three identities."""
        fact_store.upsert([_fact(value=1405.0), _fact(value=700.0, period_type="HY",
                                                      period="2025H1"),
                           _fact(value=701.0, period_type="HY")])
        got = [fact_store.query("REVENUE", "ACME_HK", t, p)
               for t, p in (("FY", "2025"), ("HY", "2025H1"), ("HY", "2025"))]
        assert [f.value if f else None for f in got] == [1405.0, 700.0, 701.0]
        assert fact_store.count() == 3

    @pytest.mark.parametrize("how", ["upsert", "replace_source_doc"])
    @pytest.mark.parametrize("field", ["source_doc_id", "source_locator"])
    @pytest.mark.parametrize("blank", ["", "   ", None])
    def test_a_fact_without_lineage_rejects_the_whole_batch(
            self, fact_store: FactWriter, how: str, field: str, blank: object) -> None:
        """A forged fact with blank lineage: ``LineageError``, nothing of the batch kept."""
        forged = _fact()
        object.__setattr__(forged, field, blank)  # bypass the constructor's check
        with pytest.raises(LineageError):
            _write(fact_store, how, [_fact("NEW_SALES", 310.5), forged])
        assert fact_store.count() == 0 and fact_store.source_documents() == []

    @pytest.mark.parametrize("how", ["upsert", "replace_source_doc"])
    def test_an_invalid_record_rejects_the_whole_batch(
            self, fact_store: FactWriter, how: str) -> None:
        """A non-Fact in a batch: ``InvalidRecordError``, nothing written."""
        with pytest.raises(InvalidRecordError):
            _write(fact_store, how, [_fact(), "REVENUE=1405"])
        assert fact_store.count() == 0

    def test_reingesting_a_document_replaces_its_facts_ledger_and_vocabulary(
            self, fact_store: FactWriter) -> None:
        """The document's old facts go, the new ones come; other documents are untouched."""
        other = _fact(entity="ACME_SG", doc=RESTATED, locator="cell=B3")
        fact_store.replace_source_doc(RESTATED, [other])
        fact_store.replace_source_doc(DECK, [_fact(), _fact("NEW_SALES", 310.5)],
                                      document=_LEDGER, vocabulary=_VOCABULARY)
        assert fact_store.source_document(DECK) == _LEDGER
        assert fact_store.vocabularies() == {DECK: _VOCABULARY}
        ledger = {**_LEDGER, "fingerprint": "fp-2", "facts": 1}
        assert fact_store.replace_source_doc(DECK, [_fact(value=1406.0)], document=ledger) == 1
        assert _snapshot(fact_store) == [
            ("REVENUE", "FY", "2025", 1406.0, DECK, DECK_LOC),
            ("REVENUE", "FY", "2025", 1405.0, RESTATED, "cell=B3")]
        assert fact_store.query("NEW_SALES", "ACME_HK", "FY", "2025") is None
        assert fact_store.source_document(DECK) == ledger and fact_store.vocabularies() == {}
        assert [d["doc_id"] for d in fact_store.source_documents()] == [DECK]
        assert fact_store.source_document(RESTATED) is None  # no ledger row was given

    def test_replace_source_doc_is_idempotent(self, fact_store: FactWriter) -> None:
        """The same ingestion twice leaves the same facts, once each."""
        for _ in range(2):
            fact_store.replace_source_doc(DECK, [_FULL, _fact("NEW_SALES", 310.5)],
                                          document=_LEDGER)
            assert fact_store.count() == 2 and fact_store.statements(*HK_FY2025) == [_FULL]
        assert fact_store.source_documents() == [_LEDGER]

    def test_replace_source_doc_refuses_another_documents_facts(
            self, fact_store: FactWriter) -> None:
        """A fact citing another document: ``InvalidRecordError``, the old facts stay."""
        fact_store.replace_source_doc(DECK, [_fact()], document=_LEDGER)
        with pytest.raises(InvalidRecordError):
            fact_store.replace_source_doc(DECK, [_fact(value=1.0, doc=RESTATED)])
        with pytest.raises(InvalidRecordError):
            fact_store.replace_source_doc(DECK, [], document={**_LEDGER, "doc_id": RESTATED})
        assert _snapshot(fact_store) == [("REVENUE", "FY", "2025", 1405.0, DECK, DECK_LOC)]
        assert fact_store.source_document(DECK) == _LEDGER

    @pytest.mark.parametrize("how", ["replace_with_nothing", "delete_by_source_doc"])
    def test_withdrawing_a_document_removes_only_its_facts(
            self, fact_store: FactWriter, how: str) -> None:
        """A withdrawn document's facts are gone; another document's stay."""
        fact_store.replace_source_doc(DECK, [_fact(), _fact("NEW_SALES", 310.5)])
        fact_store.replace_source_doc(RESTATED, [_fact(entity="ACME_SG", doc=RESTATED)])
        if how == "delete_by_source_doc":
            assert fact_store.delete_by_source_doc(DECK) == 2
            assert fact_store.delete_by_source_doc("never-ingested.pdf") == 0
        else:
            assert fact_store.replace_source_doc(DECK, []) == 0
        assert [f.source_doc_id for f in fact_store.iter_facts()] == [RESTATED]
        assert isinstance(fact_store.lookup(*HK_FY2025), NotFoundResult)
        assert fact_store.metric_codes() == frozenset({"REVENUE"})

    def test_upsert_overwrites_value_and_lineage(self, fact_store: FactWriter) -> None:
        """An upsert of a stored identity replaces value and source; the count stays."""
        fact_store.upsert([_fact()])
        fact_store.upsert([_fact(value=1400.0, doc=RESTATED, locator="sheet=Summary!C4")])
        assert _snapshot(fact_store) == [
            ("REVENUE", "FY", "2025", 1400.0, RESTATED, "sheet=Summary!C4")]

    def test_disagreeing_documents_are_a_conflict_never_a_pick(
            self, fact_store: FactWriter) -> None:
        """Two documents, two values: no single number; both statements, both cited."""
        fact_store.replace_source_doc(DECK, [_fact()])
        fact_store.replace_source_doc(RESTATED, [_fact(value=999.0, doc=RESTATED,
                                                       locator="cell=B3")])
        assert fact_store.query(*HK_FY2025) is None and fact_store.count() == 0
        got = fact_store.lookup(*HK_FY2025)
        assert isinstance(got, ConflictResult)
        assert [(f.value, f.source) for f in got.statements] == [
            (999.0, Source(RESTATED, "cell=B3")), (1405.0, Source(DECK, DECK_LOC))]
        assert [f.value for f in fact_store.statements(*HK_FY2025)] == [999.0, 1405.0]

    def test_agreeing_documents_cite_every_source(self, fact_store: FactWriter) -> None:
        """The same value from two documents is found, citing the other one too."""
        fact_store.replace_source_doc(DECK, [_fact()])
        fact_store.replace_source_doc(RESTATED, [_fact(doc=RESTATED, locator="cell=B3")])
        got = fact_store.lookup(*HK_FY2025)
        assert isinstance(got, FoundResult) and got.fact.value == 1405.0
        assert got.fact.source == Source(RESTATED, "cell=B3")  # the first document by id
        assert got.also_stated_by == (Source(DECK, DECK_LOC),)

    def test_iter_facts_filters_exactly(self, fact_store: FactWriter) -> None:
        """Filters are AND-combined and exact; an unknown filter is a ``ValueError``."""
        fact_store.upsert([_fact(), _fact(period="2024", value=1320.0),
                           _fact("ROE", 12.5, entity="ACME_SG")])
        assert [f.period for f in fact_store.iter_facts(metric_code="REVENUE")] == [
            "2024", "2025"]
        assert fact_store.iter_facts(metric_code="ROE", entity="ACME_HK") == []
        assert [f.value for f in fact_store.iter_facts(entity="ACME_SG")] == [12.5]
        with pytest.raises(ValueError):
            fact_store.iter_facts(colour="red")

    @pytest.mark.parametrize("value", HOSTILE_VALUES)
    def test_values_are_bound_never_spliced(self, fact_store: FactWriter, value: str) -> None:
        """A hostile value finds nothing, deletes nothing, and is stored as plain data."""
        fact_store.upsert([_fact()])
        for i in range(4):
            identity = list(HK_FY2025)
            identity[i] = value
            assert fact_store.query(*identity) is None
        assert fact_store.iter_facts(entity=value) == []
        assert fact_store.delete_by_source_doc(value) == 0 and fact_store.count() == 1
        fact_store.upsert([_fact(entity=value, doc=value, locator=value)])
        stored = fact_store.query("REVENUE", value, "FY", "2025")
        assert stored is not None and stored.source == Source(value, value)
        assert fact_store.count() == 2

    def test_sql_for_shows_bound_parameters(self, fact_store: FactWriter) -> None:
        """The SQL shown for a lookup binds every value; none is spliced into the text."""
        sql, params = fact_store.sql_for("REVENUE", "ACME_HK", "FY", "2025")
        assert "REVENUE" not in sql and "ACME_HK" not in sql
        assert params == ("REVENUE", "ACME_HK", "TOTAL", "FY", "2025")

    def test_execute_read_reads_with_bound_parameters(self, fact_store: FactWriter) -> None:
        """One dict per row, keyed by column, values bound."""
        fact_store.upsert([_fact(), _fact(period="2024", value=1320.0)])
        assert fact_store.execute_read(
            "SELECT period, value FROM fact_metric WHERE entity = ? ORDER BY period",
            ["ACME_HK"]) == [{"period": "2024", "value": 1320.0},
                             {"period": "2025", "value": 1405.0}]

    @pytest.mark.parametrize("sql", REFUSED_READS)
    def test_execute_read_refuses_writes(self, fact_store: FactWriter, sql: str) -> None:
        """Anything that would write is a ``ReadOnlyQueryError`` and changes nothing."""
        fact_store.upsert([_fact()])
        with pytest.raises(ReadOnlyQueryError):
            fact_store.execute_read(sql.format(table="fact_metric"))
        assert _snapshot(fact_store) == [("REVENUE", "FY", "2025", 1405.0, DECK, DECK_LOC)]
        assert fact_store.execute_read("SELECT COUNT(*) AS n FROM fact_metric") == [{"n": 1}]

    def test_close_is_idempotent_and_with_gives_the_store(
            self, fact_store: FactWriter) -> None:
        """``close`` twice is fine, the next use reopens; ``with`` yields the store."""
        fact_store.replace_source_doc(DECK, [_fact()], document=_LEDGER)
        check_handle_lifecycle(fact_store,
                               lambda: (_snapshot(fact_store), fact_store.source_documents()))

    @pytest.mark.parametrize("write", ["upsert", "replace_source_doc", "delete_by_source_doc"])
    def test_read_only_store_refuses_writes(
            self, fact_store: FactWriter, write: str,
            read_only_fact_store: Callable[[FactWriter], FactReader]) -> None:
        """Reads work; every write is a ``ReadOnlyStoreError`` and changes nothing."""
        fact_store.replace_source_doc(DECK, [_fact()], document=_LEDGER)
        store = read_only_fact_store(fact_store)
        assert isinstance(store.lookup(*HK_FY2025), FoundResult)
        assert store.execute_read("SELECT COUNT(*) AS n FROM fact_metric") == [{"n": 1}]
        assert isinstance(store, FactWriter), "a read-only store without writes: nothing to do"
        with pytest.raises(ReadOnlyStoreError):
            if write == "upsert":
                store.upsert([_fact("NEW_SALES", 310.5)])
            elif write == "replace_source_doc":
                store.replace_source_doc(DECK, [])
            else:
                store.delete_by_source_doc(DECK)
        assert _snapshot(store) == [("REVENUE", "FY", "2025", 1405.0, DECK, DECK_LOC)]
        assert store.source_documents() == [_LEDGER]

    @pytest.mark.parametrize("label", ["RESTRICTED", " restricted ", "Board only", "INTERNAL"])
    def test_ledger_keeps_the_sensitivity_label_exactly(
            self, fact_store: FactWriter, label: str) -> None:
        """A document's sensitivity label comes back verbatim (RESTRICTED stays RESTRICTED)."""
        fact_store.replace_source_doc(DECK, [], document={**_LEDGER, "sensitivity": label})
        row = fact_store.source_document(DECK)
        assert row is not None and row["sensitivity"] == label
