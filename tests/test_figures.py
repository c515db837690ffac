"""Issue 15 items 1 and 8: the numbers an answer asserts are data, and the text shows them.

Every route that states a number fills ``AgentResult.figures``: a found fact is one
``lookup``, a change the report states is ``stated_change``, a change computed today
from two found cells of one row is ``difference`` / ``percent_change`` with both
operands and its derivation. Conflicts, misses, ask-backs and refusals assert no
figure, nor does a change question with one operand missing (the operand found is
listed as an input, never as the answer). The answer text is rendered from the
figures. ``Agent.from_workspace`` is the one way to build an agent from a folder.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent, DomainProfile, Fact, FactStore
from ragspine_nb.agent.compute.operations import NotComputed, Operation, compute
from ragspine_nb.agent.write.answer import render_figures
from ragspine_nb.core import Figure, Source
from ragspine_nb.errors import DatabaseNotFoundError, InvalidRecordError

REF = date(2026, 3, 31)
DECK = "ACME_FY2025_Results.pptx"


def _loc(col: str, slide: int = 3, row: str = "REVENUE") -> str:
    return f"slide={slide},table=1,row={row},col={col}"


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


def _fact(value: float, period: str = "2025", doc: str = "t.xlsx", locator: str = "B3",
          unit: str = "USD_M", channel: str = "TOTAL", metric: str = "REVENUE") -> Fact:
    return Fact(metric, "ACME_HK", "HK", channel, "FY", period, value, unit, doc, locator)


def _store(*docs: tuple[str, list[Fact]]) -> FactStore:
    store = FactStore(":memory:")
    for doc, facts in docs:
        store.replace_source_doc(doc, facts)
    return store


# ------------------------------------------------------------------ lookups
def test_a_found_fact_is_one_lookup_figure(agent: Agent) -> None:
    r = agent.ask("What was ACME Hong Kong's revenue in FY2025?", REF)
    (fig,) = r.figures
    assert (fig.value, fig.unit, fig.operation) == (1405.0, "USD_M", "lookup")
    assert fig.label == "ACME Hong Kong Revenue, FY2025"
    assert fig.sources == (Source(DECK, _loc("FY2025")),)
    assert [(f.metric_code, f.period) for f in fig.operands] == [("REVENUE", "2025")]
    assert fig.derivation == ""
    assert r.answer == render_figures(r.figures, "en")
    assert r.answer.startswith("ACME Hong Kong Revenue, FY2025: 1,405 US$ m (source: "
                               f"{DECK} · {_loc('FY2025')}")


def test_a_non_default_channel_is_named_in_the_label(agent: Agent) -> None:
    r = agent.ask("ACME Hong Kong agency new sales FY2025", REF)
    assert [(f.label, f.value) for f in r.figures] == [
        ("ACME Hong Kong New sales (agency channel), FY2025", 835.0)]


def test_chinese_questions_get_chinese_text_from_the_same_figures(agent: Agent) -> None:
    r = agent.ask("中国内地2024年的营业收入是多少？", REF)
    (fig,) = r.figures
    assert (fig.value, fig.label) == (1580.0, "ACME Mainland China Revenue，FY2024")
    assert r.answer == render_figures(r.figures, "zh")
    assert "1,580百万美元（来源：ACME_FY2025_Results.pptx" in r.answer


def test_a_list_asserts_one_figure_per_sub_task(agent: Agent) -> None:
    r = agent.ask("ACME Hong Kong and Mainland China revenue FY2025", REF)
    assert [(f.operation, f.value) for f in r.figures] == [("lookup", 1405.0),
                                                           ("lookup", 1530.0)]
    assert r.answer == render_figures(r.figures, "en")
    assert r.answer.startswith("Comparison:\n- ACME Hong Kong Revenue, FY2025: 1,405 US$ m")


def test_an_assumption_is_stated_before_the_figures(agent: Agent) -> None:
    r = agent.ask("营运利润是多少？", REF)
    note = "（假设：主体为ACME Group，期间为FY2025（最近完整财年））"
    assert r.answer == note + render_figures(r.figures, "zh")
    assert [f.value for f in r.figures] == [1105.0]


# -------------------------------------------------------------- operations
def test_a_change_between_two_years_is_one_computed_difference(agent: Agent) -> None:
    r = agent.ask("What was the change in ACME Hong Kong revenue between FY2024 and FY2025?",
                  REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit) == ("difference", 85.0, "USD_M")
    assert fig.label == "ACME Hong Kong Revenue, change from FY2024 to FY2025"
    assert fig.derivation == "(1,405 − 1,320) = 85"
    assert [f.value for f in fig.operands] == [1405.0, 1320.0]
    assert fig.sources == (Source(DECK, _loc("FY2025")), Source(DECK, _loc("FY2024")))
    assert r.answer == render_figures(r.figures, "en")
    assert r.answer.splitlines() == [
        f"ACME Hong Kong Revenue, change from FY2024 to FY2025: 85 US$ m (source: {DECK})",
        "  Derivation: (1,405 − 1,320) = 85, from:",
        f"  - FY2025: 1,405 US$ m (source: {DECK} · {_loc('FY2025')} · as of 2026-03-20)",
        f"  - FY2024: 1,320 US$ m (source: {DECK} · {_loc('FY2024')} · as of 2026-03-20)"]


def test_a_percentage_change_is_computed_with_its_derivation(agent: Agent) -> None:
    r = agent.ask("What was the percentage change in ACME Hong Kong revenue in FY2025?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit) == ("percent_change", 6.44, "PCT")
    assert fig.derivation == "(1,405 − 1,320) / 1,320 = 6.44%"
    assert fig.label == "ACME Hong Kong Revenue, percentage change from FY2024 to FY2025"
    assert r.answer == r.clarification.assumption_note + " " + render_figures(r.figures, "en")
    assert "the comparison is FY2025 against FY2024" in r.answer


def test_a_fall_is_a_negative_difference(agent: Agent) -> None:
    r = agent.ask("What was the change in Mainland China revenue from FY2024 to FY2025?", REF)
    assert [(f.value, f.derivation) for f in r.figures] == [(-50.0, "(1,530 − 1,580) = -50")]


def test_a_chinese_comparison_asserts_both_levels_and_their_difference(agent: Agent) -> None:
    r = agent.ask("香港2024年和2025年的营业收入对比", REF)
    assert [(f.operation, f.value) for f in r.figures] == [
        ("lookup", 1320.0), ("lookup", 1405.0), ("difference", 85.0)]
    assert r.figures[2].label == "ACME Hong Kong Revenue，FY2025较FY2024变动"
    assert r.answer == render_figures(r.figures, "zh")
    assert "计算：(1,405 − 1,320) = 85" in r.answer


def test_a_difference_between_two_named_figures_is_taken_in_the_question_order(
        agent: Agent) -> None:
    r = agent.ask("香港和内地2025年营业收入的差额", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.derivation) == ("difference", -125.0,
                                                          "(1,405 − 1,530) = -125")
    assert fig.label == "Revenue，ACME Hong Kong − ACME Mainland China，FY2025"
    same_row = agent.ask("What was the difference in ACME Hong Kong revenue between FY2024 "
                         "and FY2025?", REF)
    assert [(f.operation, f.value) for f in same_row.figures] == [("difference", 85.0)]


def test_a_difference_that_also_reads_as_two_changes_asserts_no_figure(agent: Agent) -> None:
    # two rows named in one period: their difference in that period (no second period is
    # assumed for a difference *between* named figures)
    one = agent.ask("What was the difference between revenue and operating profit of the "
                    "group in FY2025?", REF)
    assert [(f.operation, f.value, f.derivation) for f in one.figures] == [
        ("difference", 3655.0, "(4,760 − 1,105) = 3,655")]
    # two rows and two periods: the difference between them, or each one's change? Never
    # pick
    r = agent.ask("What was the difference between revenue and operating profit of the "
                  "group in FY2024 and FY2025?", REF)
    assert r.figures == ()
    assert "Difference not computed: it is not clear whether the difference between ACME " \
           "Group Revenue and ACME Group Operating profit or the change of each from FY2024 " \
           "to FY2025 is meant" in r.answer


def test_a_change_with_one_operand_missing_asserts_no_figure(agent: Agent) -> None:
    r = agent.ask("What was the change in ACME Hong Kong revenue between FY2024 and FY2030?",
                  REF)
    assert r.figures == ()
    assert [t["status"] for t in r.tool_results] == ["found", "not_found"]
    assert r.answer.startswith("Change not computed: ACME Hong Kong Revenue, FY2030 is "
                               "not in the fact store; no estimate is given.")
    # the operand found is listed as an input with its source, never as the answer
    assert f"Input found: ACME Hong Kong Revenue, FY2024: 1,320 US$ m (source: {DECK}" \
        in r.answer
    zh = agent.ask("香港2024年到2030年营业收入的变化", REF)
    assert zh.figures == () and zh.answer.startswith("未计算变动：")
    assert "已找到的输入：ACME Hong Kong Revenue，FY2024：1,320百万美元" in zh.answer


def test_a_change_with_both_operands_missing_asserts_no_figure(agent: Agent) -> None:
    r = agent.ask("What was the change in ACME Hong Kong revenue between FY2029 and FY2030?",
                  REF)
    assert r.figures == () and "Input found" not in r.answer
    assert "FY2029" in r.answer and "FY2030" in r.answer


def test_a_why_question_asserts_no_figure_and_shows_its_cells_as_context(agent: Agent) -> None:
    # issue 15 item 4: a question asking for text (a reason) never gets a table figure as
    # its headline; the cell it names anchors the narrative and is shown as context
    r = agent.ask("Why did Mainland China revenue fall in FY2025?", REF)
    assert r.route == "composite" and "Attribution:" in r.answer
    assert r.figures == ()
    assert [(t["status"], t["value"]) for t in r.tool_results] == [("found", 1530.0)]
    assert r.answer.startswith("Figures in question (context, not the answer):\n"
                               "ACME Mainland China Revenue, FY2025: 1,530 US$ m (source: ")


@pytest.mark.parametrize("question", [
    "竞安2025年的营收是多少？",                          # refusal
    "What was our number for 2025?",                    # ask back
    "What was Mainland China's ROE in FY2025?",         # miss
    "What happened to bancassurance sales in Mainland China?",  # narrative
    "What was the change in ACME Hong Kong revenue in 2025H1?",  # which two periods?
])
def test_refusals_asks_misses_and_narratives_assert_no_figure(agent: Agent,
                                                              question: str) -> None:
    assert agent.ask(question, REF).figures == ()


def test_a_stated_change_is_its_own_figure() -> None:
    pct = _fact(6.4, unit="PCT", channel="CHANGE_PCT", doc="deck.pptx", locator="col=change")
    store = _store(("deck.pptx", [pct, _fact(1320.0, "2024", "deck.pptx", "col=2024"),
                                  _fact(1405.0, "2025", "deck.pptx", "col=2025")]))
    prof = _profile_with_change_channel()
    r = Agent(store, profile=prof).ask(
        "What was the percentage change in Hong Kong revenue in FY2025?", REF)
    (fig,) = r.figures
    assert (fig.operation, fig.value, fig.unit) == ("stated_change", 6.4, "PCT")
    assert fig.sources == (Source("deck.pptx", "col=change"),) and fig.derivation == ""
    assert r.answer.startswith("(The change as the report states it, not computed.) ")
    assert r.answer.endswith(render_figures(r.figures, "en"))


def _profile_with_change_channel() -> DomainProfile:
    base = DomainProfile.from_file(Path(__file__).resolve().parents[1] / "ragspine_nb" / "demo"
                                   / "profile.toml").to_dict()
    return DomainProfile.from_dict({**base, "channels": {
        **base["channels"], "CHANGE_PCT": {"synonyms": ["% change"]}}})


def test_a_conflict_asserts_no_figure_and_no_change(profile: DomainProfile) -> None:
    store = _store(("a.xlsx", [_fact(999.0, doc="a.xlsx"), _fact(1320.0, "2024", "a.xlsx")]),
                   ("deck.pptx", [_fact(1405.0, doc="deck.pptx", locator="s3")]))
    a = Agent(store, profile=profile)
    level = a.ask("ACME Hong Kong revenue FY2025", REF)
    assert level.figures == () and level.answer.startswith("Conflict:")
    change = a.ask("What was the change in ACME Hong Kong revenue between FY2024 and FY2025?",
                   REF)
    assert change.figures == ()
    assert "Change not computed: FY2025 is in conflict" in change.answer
    assert "Input found: ACME Hong Kong Revenue, FY2024: 1,320 US$ m" in change.answer


def test_operands_in_different_units_are_not_computed(profile: DomainProfile) -> None:
    store = _store(("a.xlsx", [_fact(1.4, doc="a.xlsx", unit="USD_BN"),
                               _fact(1320.0, "2024", "a.xlsx", "B4")]))
    r = Agent(store, profile=profile).ask(
        "What was the change in ACME Hong Kong revenue between FY2024 and FY2025?", REF)
    assert r.figures == ()
    assert "Change not computed: the operands are in different units (USD_BN, USD_M)" \
        in r.answer


def test_an_amount_without_a_scale_says_so(profile: DomainProfile) -> None:
    store = _store(("a.csv", [_fact(27069.0, doc="a.csv", unit="USD")]))
    r = Agent(store, profile=profile).ask("ACME Hong Kong revenue FY2025", REF)
    assert [(f.value, f.unit) for f in r.figures] == [(27069.0, "USD")]
    assert "27,069 US$ (scale not stated)" in r.answer
    assert not re.search(r"\bunit\b", r.answer)
    # a per-share amount has no scale to state
    eps = Figure.of_fact(_fact(1.23, unit="USD", metric="DILUTED_EARNINGS_PER_SHARE"), "EPS")
    assert render_figures([eps], "en").startswith("EPS: 1.23 US$ (source: t.xlsx · B3)")
    assert "未注明数量级" in agent_zh_text(store, profile)


def agent_zh_text(store: FactStore, profile: DomainProfile) -> str:
    return Agent(store, profile=profile).ask("香港2025年营业收入", REF).answer


# ---------------------------------------------------------------- compute
def test_compute_is_pure_and_refuses_what_it_cannot_do() -> None:
    a, b = _fact(1.1, "2025"), _fact(1.0, "2024")
    done = compute(Operation("difference"), (a, b))
    assert not isinstance(done, NotComputed)
    assert (done.value, done.unit, done.derivation) == (0.1, "USD_M", "(1.1 − 1) = 0.1")
    pct = compute(Operation("percent_change"), (a, b))
    assert not isinstance(pct, NotComputed) and (pct.value, pct.unit) == (10.0, "PCT")
    assert isinstance(compute(Operation("percent_change"), (a, _fact(0.0))), NotComputed)
    refused = compute(Operation("percent_change"), (a, _fact(-2.0)))
    assert refused == NotComputed("negative_base", ("-2",))
    assert isinstance(refused, NotComputed)
    assert refused.text() == "the base value is negative (-2)"
    assert refused.text("zh") == "基数为负（-2）"
    # two negative amounts (an allowance growing from (15,916) to (19,911)): their size
    grown = compute(Operation("percent_change"), (_fact(-19911.0), _fact(-15916.0)))
    assert not isinstance(grown, NotComputed)
    assert (grown.value, grown.derivation) == (
        25.1, "both negative, in size: (19,911 − 15,916) / 15,916 = 25.1%")
    shrunk = compute(Operation("percent_change"), (_fact(-1.3), _fact(-1.9)))
    assert not isinstance(shrunk, NotComputed) and shrunk.value == -31.58
    assert compute(Operation("average"), (a, b)).reason == "unsupported"  # type: ignore[union-attr]
    assert compute(Operation("difference"), (a,)).reason == "operands"  # type: ignore[union-attr]
    with pytest.raises(InvalidRecordError, match="Valid"):
        Operation("lookup")


def test_figure_to_dict_is_stable(agent: Agent) -> None:
    r = agent.ask("What was the change in ACME Hong Kong revenue between FY2024 and FY2025?",
                  REF)
    d = r.figures[0].to_dict()
    assert set(d) == {"value", "unit", "label", "operation", "derivation", "operands",
                      "sources"}
    assert [o["period"] for o in d["operands"]] == ["2025", "2024"]
    assert isinstance(r.figures[0], Figure)


# ------------------------------------------------------------ from_workspace
def test_from_workspace_builds_the_agent_of_a_folder(demo_ws: Path) -> None:
    a = Agent.from_workspace(demo_ws)
    assert a.index is not None and "ACME_HK" in a.profile.entities
    assert a.ask("What happened to bancassurance sales?", REF).route == "narrative"
    assert a.ask("What happened to bancassurance sales?", REF).sources
    with pytest.raises(DatabaseNotFoundError):
        Agent.from_workspace(demo_ws / "nope")


def test_the_cli_and_the_service_build_the_workspace_agent(
        demo_ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    import shutil

    from fastapi.testclient import TestClient

    from ragspine_nb.cli.commands import main
    from ragspine_nb.service.app import create_app_for_workspace

    assert main(["ask", "What was the change in ACME Hong Kong revenue between FY2024 and "
                 "FY2025?", "--workspace", str(demo_ws), "--json"]) == 0
    (fig,) = json.loads(capsys.readouterr().out)["figures"]
    assert (fig["operation"], fig["value"], fig["derivation"]) == (
        "difference", 85.0, "(1,405 − 1,320) = 85")
    ws = tmp_path / "ws"  # the service writes conversations.db beside the stores
    shutil.copytree(demo_ws, ws)
    with TestClient(create_app_for_workspace(ws)) as client:
        body = client.post("/v1/ask", json={"question": "ACME Hong Kong revenue FY2025",
                                            "reference_date": "2026-03-31"}).json()
    assert body["answer"].startswith("ACME Hong Kong Revenue, FY2025: 1,405 US$ m")


def test_the_result_card_shows_the_figures(agent: Agent) -> None:
    html = agent.ask("What was the change in ACME Hong Kong revenue between FY2024 and "
                     "FY2025?", REF)._repr_html_()
    assert "Figures the answer asserts" in html and "(1,405 − 1,320) = 85" in html


def test_from_workspace_reads_the_effective_profile_of_a_folder_without_one(
        tmp_path: Path) -> None:
    from ragspine_nb.ingestion.workspace import Workspace, ingest

    src = tmp_path / "in"
    src.mkdir()
    (src / "report.csv").write_text("US$ thousands,FY2024,FY2025\nRevenue,100,120\n"
                                    "Cost of sales,60,70\n", encoding="utf-8")
    report = ingest(src, workspace=tmp_path / "ws", metadata={"report.csv": {
        "company": "Acme Corp"}}, progress=False)
    assert report.count("failed") == 0, report.files
    agent = Agent.from_workspace(tmp_path / "ws")
    with Workspace(tmp_path / "ws") as ws:
        assert agent.profile.to_dict() == ws.effective_profile().to_dict()
    r = agent.ask("What was the change in Acme's revenue from FY2024 to FY2025?", REF)
    assert [(f.operation, f.value, f.derivation) for f in r.figures] == [
        ("difference", 20.0, "(120 − 100) = 20")]


def test_a_table_with_no_scale_gives_plain_figures_that_say_so(tmp_path: Path) -> None:
    from ragspine_nb.ingestion.workspace import ingest

    src = tmp_path / "in"
    src.mkdir()
    (src / "report.csv").write_text("Metric,FY2024,FY2025\nRevenue,100,120\nNumber of stores,"
                                    "3,4\nDiluted earnings per share,1.2,1.5\n",
                                    encoding="utf-8")
    ingest(src, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    answers = {q: agent.ask(q, date(2026, 1, 1)) for q in (
        "What was revenue in FY2025?", "What was the number of stores in 2024?",
        "What was the diluted earnings per share in 2025?")}
    assert [(f.value, f.unit) for r in answers.values() for f in r.figures] == [
        (120.0, ""), (3.0, ""), (1.5, "")]
    texts = [r.answer for r in answers.values()]
    assert "Revenue, FY2025: 120 (scale not stated) (source: report.csv" in texts[0]
    assert "FY2024: 3 (source: report.csv" in texts[1]           # a count has no scale
    assert "FY2025: 1.5 (source: report.csv" in texts[2]         # nor a per-share amount
    assert not any(re.search(r"\bunit\b|NUMBER", t) for t in texts)
