"""Issue 14 item 9: a fact two documents state differently is a conflict, never "first wins".

The attack: ``AAA_restatement.csv`` (ACME Hong Kong revenue FY2025 = 999) sorts before
the results deck (1,405), and "keep the first statement" answered 999 while the deck's
figure was only logged. Now both statements are kept; every path that reads a fact
answers the conflict with both values and sources until a user resolves it (a recorded
choice) or a document's new version agrees.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import Agent, DomainProfile, Fact, FactStore, NarrativeIndex
from ragspine_nb.agent.compute.query_tools import execute_query_metric
from ragspine_nb.agent.faq import FaqCache, FaqEntry
from ragspine_nb.cli.commands import build_demo, default_demo_data, main
from ragspine_nb.core import ConflictResult, FoundResult, NotFoundResult, Source
from ragspine_nb.errors import ConflictResolutionError
from ragspine_nb.ingestion.workspace import Workspace, ingest
from tests.test_store_contract import BACKENDS, fresh_database, pg_server  # noqa: F401

REF = date(2026, 3, 31)
DECK = "ACME_FY2025_Results.pptx"
DECK_LOC = "slide=3,table=1,row=REVENUE,col=FY2025"
RESTATED = "AAA_restatement.csv"
HK_FY2025 = ("REVENUE", "ACME_HK", "FY", "2025")
RESTATEMENT = "ACME Hong Kong (US$m),\nMetric,FY2025,FY2024\nRevenue,999,1320\n"


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "facts.db")
    return fresh_database(request.getfixturevalue("pg_server"))


def _fact(value: float, doc: str, locator: str = "cell=B3", **kw: Any) -> Fact:
    return Fact("REVENUE", "ACME_HK", "HK", kw.pop("channel", "TOTAL"), "FY",
                kw.pop("period", "2025"), value, "USD_M", doc, locator, **kw)


def _workspace(root: Path, restatement_first: bool, text: str = RESTATEMENT) -> Path:
    """The demo workspace plus the restatement, sorted first in one batch or ingested last."""
    data = root / "data"
    shutil.copytree(default_demo_data(), data)
    restatement = root / RESTATED
    restatement.write_text(text, encoding="utf-8")
    if restatement_first:
        shutil.copy(restatement, data / "reports" / RESTATED)
    ws = root / "ws"
    build_demo(ws, data)
    if not restatement_first:
        ingest(restatement, workspace=ws, progress=False)
    return ws


def _agent(ws: Path) -> Agent:
    w = Workspace(ws)
    return Agent(w.facts, NarrativeIndex(w.chunks, profile=w.profile), profile=w.profile)


@pytest.fixture(scope="module")
def both_orders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("orders")
    return {"first": _workspace(root / "first", True), "last": _workspace(root / "last", False)}


# ------------------------------------------------------------------- the store
def test_two_documents_disagreeing_are_a_conflict_on_both_backends(url: str) -> None:
    store = FactStore(url)
    store.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    store.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    assert store.query(*HK_FY2025) is None and store.count() == 0  # no single number
    got = store.lookup(*HK_FY2025)
    assert isinstance(got, ConflictResult)
    assert [(f.value, f.source_doc_id, f.source_locator) for f in got.statements] == [
        (999.0, RESTATED, "cell=B3"), (1405.0, DECK, DECK_LOC)]
    assert store.conflicts() == [got]
    assert store.execute_read("SELECT COUNT(*) AS n FROM fact_statement") == [{"n": 2}]


def test_the_order_of_documents_decides_nothing(url: str) -> None:
    a, b = FactStore(url), FactStore(":memory:")
    a.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    a.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    b.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    b.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    strip = [(f.value, f.source_doc_id) for f in a.lookup(*HK_FY2025).statements]  # type: ignore[union-attr]
    assert strip == [(f.value, f.source_doc_id)
                     for f in b.lookup(*HK_FY2025).statements]  # type: ignore[union-attr]


def test_the_same_value_from_two_documents_is_no_conflict_and_keeps_both_sources(
        url: str) -> None:
    store = FactStore(url)
    store.replace_source_doc(RESTATED, [_fact(1405.0, RESTATED)])
    store.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    got = store.lookup(*HK_FY2025)
    assert isinstance(got, FoundResult) and got.fact.value == 1405.0
    assert got.fact.source_doc_id == RESTATED  # the first document by id, whatever the order
    assert got.also_stated_by == (Source(DECK, DECK_LOC),)
    assert store.conflicts() == [] and store.count() == 1


def test_a_recorded_choice_answers_the_chosen_statement_with_who_when_and_why(url: str) -> None:
    store = FactStore(url)
    store.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    store.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    with pytest.raises(ConflictResolutionError, match=r"keep one of \['AAA_restatement.csv', "
                                                      r"'ACME_FY2025_Results.pptx'\]"):
        store.resolve_conflict(*HK_FY2025, keep="other.xlsx")
    with pytest.raises(ConflictResolutionError, match="nothing to resolve"):
        store.resolve_conflict("REVENUE", "ACME_HK", "FY", "2024", keep=DECK)
    found = store.resolve_conflict(*HK_FY2025, keep=DECK, note="audited deck", by="analyst")
    assert (found.fact.value, found.fact.source_doc_id) == (1405.0, DECK)
    assert found.resolution is not None and (found.resolution.resolved_by,
                                             found.resolution.note) == ("analyst", "audited deck")
    assert store.query(*HK_FY2025).value == 1405.0  # type: ignore[union-attr]
    assert store.conflicts() == []
    assert [r.fact.value for r in store.resolved_conflicts()] == [1405.0]
    # the same value re-ingested (another cell): the choice stays
    store.replace_source_doc(RESTATED, [_fact(999.0, RESTATED, "cell=C3")])
    assert store.lookup(*HK_FY2025).resolution is not None  # type: ignore[union-attr]
    # a changed value: the choice was made among other statements, so the conflict reopens
    store.replace_source_doc(RESTATED, [_fact(998.0, RESTATED)])
    assert isinstance(store.lookup(*HK_FY2025), ConflictResult)
    assert store.query(*HK_FY2025) is None


def test_a_later_version_of_a_document_that_agrees_ends_the_conflict(url: str) -> None:
    store = FactStore(url)
    store.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    store.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    store.replace_source_doc(RESTATED, [_fact(1405.0, RESTATED)])
    got = store.lookup(*HK_FY2025)
    assert isinstance(got, FoundResult) and got.fact.value == 1405.0 and got.resolution is None
    store.replace_source_doc(RESTATED, [])  # the restatement no longer states it
    got = store.lookup(*HK_FY2025)
    assert isinstance(got, FoundResult) and got.fact.source_doc_id == DECK
    assert got.also_stated_by == ()
    assert store.delete_by_source_doc(DECK) == 1
    assert isinstance(store.lookup(*HK_FY2025), NotFoundResult)


def test_a_store_written_before_statements_were_kept_is_backfilled_on_its_next_write(
        tmp_path: Path) -> None:
    store = FactStore(tmp_path / "facts.db")
    store.upsert([_fact(1405.0, DECK, DECK_LOC)])
    with store._db.transaction() as tx:  # what an older version left: facts, no statements
        tx.execute("DELETE FROM fact_statement")
    assert store.lookup(*HK_FY2025).status == "found"  # type: ignore[union-attr]
    store.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    assert isinstance(store.lookup(*HK_FY2025), ConflictResult)


# ------------------------------------------------------------------- ingestion
def test_ingest_reports_the_conflict_and_keeps_both_statements(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, restatement_first=False)
    report = ingest(tmp_path / RESTATED, workspace=ws, progress=False)
    assert report.count("skipped_unchanged") == 1  # same bytes: nothing rewritten
    (tmp_path / RESTATED).write_text(RESTATEMENT.replace("999", "998"), encoding="utf-8")
    report = ingest(tmp_path / RESTATED, workspace=ws, progress=False)
    assert [s.reason for s in report.skipped if "CONFLICT" in s.reason] == [
        f"CONFLICT (kept, not skipped): {DECK} ({DECK_LOC}) states 1405 USD_M, this cell "
        "998 USD_M; answered as a conflict with both sources until resolved "
        "(ragspine-nb conflicts)"]
    facts = FactStore(ws / "facts.db", create=False)
    assert [f.value for f in facts.lookup(*HK_FY2025).statements] == [998.0, 1405.0]  # type: ignore[union-attr]
    assert facts.query("REVENUE", "ACME_HK", "FY", "2024").value == 1320.0  # type: ignore[union-attr]


def test_the_same_amount_in_another_scale_is_agreement_not_a_conflict(url: str) -> None:
    store = FactStore(url)
    store.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    store.replace_source_doc("history.csv", [
        Fact("REVENUE", "ACME_HK", "HK", "TOTAL", "FY", "2025", 1405123.0, "USD_K",
             "history.csv", "cell=C4")])
    got = store.lookup(*HK_FY2025)
    assert isinstance(got, FoundResult) and got.fact.value == 1405.0
    assert [s.doc for s in got.also_stated_by] == ["history.csv"]
    store.replace_source_doc("history.csv", [
        Fact("REVENUE", "ACME_HK", "HK", "TOTAL", "FY", "2025", 1450000.0, "USD_K",
             "history.csv", "cell=C4")])  # 1,450 million: another figure
    assert isinstance(store.lookup(*HK_FY2025), ConflictResult)


def test_a_document_stating_one_fact_twice_differently_answers_neither(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, restatement_first=False,
                    text=RESTATEMENT + "\nACME Hong Kong (US$m),\nMetric,FY2019\nRevenue,1250\n"
                    "\nACME Hong Kong (US$m),\nMetric,FY2019\nRevenue,1205\n")
    facts = FactStore(ws / "facts.db", create=False)
    assert isinstance(facts.lookup("REVENUE", "ACME_HK", "FY", "2019"), NotFoundResult)
    report = ingest(tmp_path / RESTATED, workspace=ws, progress=False, dry_run=True)
    assert report.count("skipped_unchanged") == 1
    agreed = RESTATEMENT + "\nACME Hong Kong (US$m),\nMetric,FY2019\nRevenue,1250\n" \
        "\nACME Hong Kong (US$k),\nMetric,FY2019\nRevenue,1250000\n"
    (tmp_path / RESTATED).write_text(agreed, encoding="utf-8")
    report = ingest(tmp_path / RESTATED, workspace=ws, progress=False)
    assert [s.reason[:53] for s in report.skipped if "this document" in s.reason] == [
        "same fact already stated in this document at cell=B7;"]
    assert facts.lookup("REVENUE", "ACME_HK", "FY", "2019").fact.value == 1250.0  # type: ignore[union-attr]


# ---------------------------------------------------------------- the agent
QUESTIONS = {
    "structured": "What was ACME Hong Kong's revenue in FY2025?",
    "zh": "香港2025年的营业收入是多少？",
    "multi": "Hong Kong and Mainland China revenue in FY2025",
    "change": "Compare Hong Kong revenue in FY2024 and FY2025.",
    "composite": "Why did Hong Kong revenue grow in FY2025?",
}


def _untimed(value: Any) -> Any:
    """Tool results without ``ingested_at`` (two workspaces are built seconds apart)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k != "ingested_at"}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def test_every_path_answers_the_conflict_in_either_order(both_orders: dict[str, Path]) -> None:
    first, last = (_agent(both_orders[k]) for k in ("first", "last"))
    for kind, q in QUESTIONS.items():
        a, b = first.ask(q, REF), last.ask(q, REF)
        assert (a.answer, _untimed(a.tool_results), a.sources) == (
            b.answer, _untimed(b.tool_results), b.sources), q
        conflicts = [t for t in a.tool_results if t["status"] == "conflict"]
        assert len(conflicts) == 1, (kind, a.tool_results)
        assert [(s["value"], s["source"]["doc"]) for s in conflicts[0]["statements"]] == [
            (999.0, RESTATED), (1405.0, DECK)]
        body = a.answer.split("\n\n")[0]
        assert {"999", "1,405"} <= {v for v in ("999", "1,405") for u in (" US$ m", "百万美元")
                                     if v + u in body}, (kind, body)
        assert f"{RESTATED} · cell=B3" in body and f"{DECK} · {DECK_LOC}" in body, (kind, body)
        assert {"doc": RESTATED, "locator": "cell=B3"} in a.sources
        assert {"doc": DECK, "locator": DECK_LOC} in a.sources
        cited = {(c["doc_id"], c["locator"]) for c in a.citations if c["kind"] == "fact"}
        assert {(RESTATED, "cell=B3"), (DECK, DECK_LOC)} <= cited
        assert a.trace["tool_status"].get("conflict") == 1
        assert "conflict" in a.tool_status
    zh = first.ask(QUESTIONS["zh"], REF).answer
    assert zh.startswith("数据冲突：") and "未给出单一数字" in zh
    en = first.ask(QUESTIONS["structured"], REF).answer
    assert en.startswith("Conflict: ACME Hong Kong FY2025 REVENUE is stated differently")


def test_a_change_with_a_conflicting_operand_is_not_computed(both_orders: dict[str, Path]
                                                             ) -> None:
    agent = _agent(both_orders["first"])
    ans = agent.ask(QUESTIONS["change"], REF)
    assert "Change not computed: FY2025 is in conflict" in ans.answer
    assert "Change: FY2025 vs FY2024" not in ans.answer
    assert "1,320 US$ m" in ans.answer  # the clean operand is still answered
    zh = agent.ask("香港2024年和2025年的营业收入对比", REF).answer
    assert "未计算变动：FY2025 数据冲突" in zh and "对比：" not in zh


def test_a_stated_change_in_conflict_is_answered_as_a_conflict(tmp_path: Path,
                                                               profile: DomainProfile) -> None:
    store = FactStore(":memory:")
    pct = {"metric_code": "REVENUE", "entity": "ACME_HK", "geography": "HK",
           "channel": "CHANGE_PCT", "period_type": "FY", "period": "2025", "unit": "PCT"}
    store.replace_source_doc(DECK, [Fact(**pct, value=6.4, source_doc_id=DECK,  # type: ignore[arg-type]
                                          source_locator="slide=3,col=change")])
    store.replace_source_doc(RESTATED, [Fact(**pct, value=-24.3, source_doc_id=RESTATED,  # type: ignore[arg-type]
                                             source_locator="cell=D3")])
    store.replace_source_doc("levels.xlsx", [_fact(1320.0, "levels.xlsx", period="2024"),
                                             _fact(1405.0, "levels.xlsx")])
    prof = DomainProfile.from_dict({**profile.to_dict(), "channels": {
        **profile.to_dict()["channels"], "CHANGE_PCT": {"synonyms": ["% change"]}}})
    ans = Agent(store, profile=prof).ask(
        "What was the percentage change in Hong Kong revenue in FY2025?", REF)
    assert [t["status"] for t in ans.tool_results] == ["conflict"], ans.answer
    assert "6.4%" in ans.answer and "-24.3%" in ans.answer
    assert "Change:" not in ans.answer and "+6.4%" not in ans.answer


def test_query_metric_returns_the_conflict_status(both_orders: dict[str, Path],
                                                  profile: DomainProfile) -> None:
    store = FactStore(both_orders["last"] / "facts.db", create=False)
    got = execute_query_metric(store, "revenue", "ACME HK", "FY2025",
                               profile=profile, reference_date=REF)
    assert got.status == "conflict" and got.to_dict()["statements"][1]["source"] == {
        "doc": DECK, "locator": DECK_LOC}


def test_a_resolved_conflict_says_so_in_the_answer(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, restatement_first=True)
    assert main(["conflicts", "--workspace", str(ws)]) == 0
    assert main(["conflicts", "--workspace", str(ws), "--resolve", "REVENUE", "ACME_HK", "FY2025",
                 "--keep", DECK, "--note", "the audited deck", "--by", "cfo"]) == 0
    ans = _agent(ws).ask(QUESTIONS["structured"], REF)
    assert [t["status"] for t in ans.tool_results] == ["found"]
    assert "1,405 US$ m" in ans.answer and "999" not in ans.answer
    assert "resolved by user choice on " in ans.answer and "cfo" in ans.answer
    assert "the audited deck" in ans.answer
    assert ans.tool_results[0]["resolution"]["keep_doc_id"] == DECK
    assert main(["conflicts", "--workspace", str(ws), "--resolve", "REVENUE", "ACME_HK", "FY2025",
                 "--keep", "nope.csv"]) == 2


def test_the_cli_lists_open_conflicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    ws = _workspace(tmp_path, restatement_first=False)
    capsys.readouterr()
    assert main(["conflicts", "--workspace", str(ws), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["normalized"]["entity"] for r in rows] == ["ACME_HK"]
    assert [s["value"] for s in rows[0]["statements"]] == [999.0, 1405.0]


def test_a_faq_answer_stating_a_conflicting_figure_is_not_served(
        both_orders: dict[str, Path]) -> None:
    agent = _agent(both_orders["first"])
    agent.faq = FaqCache([FaqEntry("How did the business do?",
                                   "ACME Hong Kong revenue was US$1,405 million in FY2025.",
                                   Source(DECK, DECK_LOC))])
    ans = agent.ask("How did the business do?", REF)
    assert ans.route != "faq" and ans.trace.get("faq_bypassed") == "fact_in_conflict"
    assert "1,405 million" not in ans.answer


def test_the_service_payload_cites_both_statements(both_orders: dict[str, Path]) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from ragspine_nb.service import create_app

    client = TestClient(create_app(_agent(both_orders["first"])))
    body = client.post("/v1/ask", json={"question": QUESTIONS["structured"],
                                        "reference_date": "2026-03-31"}).json()
    assert body["tool_status"] == {"conflict": 1}
    excerpts = [c["excerpt"] for c in body["citations"] if c["kind"] == "fact"]
    assert any("999 USD_M" in e for e in excerpts) and any("1,405 USD_M" in e for e in excerpts)


def test_the_ask_widget_shows_both_statements(both_orders: dict[str, Path]) -> None:
    pytest.importorskip("ipywidgets")
    from ragspine_nb.widgets import AskWidget

    w = AskWidget(_agent(both_orders["last"]), REF)
    result = w.ask(QUESTIONS["structured"])
    assert result.tool_status == {"conflict": 1}
    assert "999 US$ m" in w.answer.value and "1,405 US$ m" in w.answer.value
    # each source shown once (in the answer's own text, not again as a list)
    assert w.answer.value.count(f"{RESTATED} · cell=B3") == 1
    assert w.answer.value.count(f"{DECK} · {DECK_LOC}") == 1
    assert "<td>tool_status.conflict</td><td>1</td>" in w.trace.value  # the trace records it


def test_every_statement_can_be_copied_to_another_store(url: str) -> None:
    local = FactStore(":memory:")
    local.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    local.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    assert local.iter_facts() == []  # the conflict is in no document's settled facts
    team = FactStore(url)
    for doc in (RESTATED, DECK):
        team.replace_source_doc(doc, [f for f in local.iter_statements()
                                      if f.source_doc_id == doc])
    assert isinstance(team.lookup(*HK_FY2025), ConflictResult)


def test_a_settled_row_that_disagrees_with_the_statements_is_never_answered(url: str) -> None:
    """Defence in depth: the statements decide, even if a stale row slipped into fact_metric."""
    store = FactStore(url)
    store.replace_source_doc(DECK, [_fact(1405.0, DECK, DECK_LOC)])
    store.replace_source_doc(RESTATED, [_fact(999.0, RESTATED)])
    with store._db.transaction() as conn:  # what a lost race between two writers would leave
        conn.execute("INSERT INTO fact_metric SELECT * FROM fact_statement "
                     "WHERE source_doc_id = ?", (RESTATED,))
    assert store.query(*HK_FY2025).value == 999.0  # type: ignore[union-attr]
    got = store.lookup(*HK_FY2025)
    assert isinstance(got, ConflictResult) and len(got.statements) == 2


def test_concurrent_writers_on_postgres_always_leave_the_conflict(
        request: pytest.FixtureRequest) -> None:
    """Two documents written at the same moment: each write sees the other's statement."""
    from concurrent.futures import ThreadPoolExecutor

    server = request.getfixturevalue("pg_server")
    for round_ in range(8):
        url = fresh_database(server)
        FactStore(url).count()  # the schema, once

        def write(doc: str, value: float, url: str = url) -> None:
            store = FactStore(url)
            store.replace_source_doc(doc, [_fact(value, doc)])
            store.close()

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(write, [DECK, RESTATED], [1405.0, 999.0]))
        store = FactStore(url)
        assert store.query(*HK_FY2025) is None, round_
        assert isinstance(store.lookup(*HK_FY2025), ConflictResult), round_
