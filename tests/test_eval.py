from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent, DomainProfile, FactStore, NarrativeIndex
from ragspine_nb.agent.agent import AgentResult
from ragspine_nb.agent.scope.clarify import ClarificationResult
from ragspine_nb.cli.commands import main
from ragspine_nb.eval import (
    GoldenSetError,
    compare_to_baseline,
    load_golden,
    run_qa,
    update_baseline,
)
from ragspine_nb.eval.golden import GoldenCase
from ragspine_nb.eval.qa import QAReport, _score
from tests.conftest import DEMO

GOOD = {"id": "a", "question": "q", "case_type": "numeric", "reference_date": "2026-03-31",
        "expected": {"value": 1.0, "unit": "USD_M", "source": {"doc": "d", "locator": "l"},
                     "clarification": "none", "refuse": False}}


def _write(tmp_path: Path, rows: list[object]) -> Path:
    p = tmp_path / "g.jsonl"
    p.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n",
                 encoding="utf-8")
    return p


def test_demo_golden_set_covers_every_case_type_and_both_languages() -> None:
    cases = load_golden(DEMO / "golden.jsonl")
    assert len(cases) >= 60
    assert {c.case_type for c in cases} == {"numeric", "clarification", "refusal", "narrative",
                                            "composite", "out_of_scope"}
    assert {c.tags["lang"] for c in cases} == {"en", "zh"}
    assert {c.tags.get("spelling") for c in cases} >= {"zero_width", "traditional", "homoglyph"}


@pytest.mark.parametrize("bad, message", [
    ("{not json", "line 2: invalid JSON"),
    ({**GOOD, "id": "a"}, "line 2: duplicate id 'a' \\(first on line 1\\)"),
    ({**GOOD, "id": "b", "case_type": "poem"}, "line 2: case_type 'poem'"),
    ({**GOOD, "id": "b", "expected": {"refuse": False}}, "expected.clarification is required"),
    ({**GOOD, "id": "b", "expected": {**GOOD["expected"], "source": {"doc": "d"}}},  # type: ignore[dict-item]
     "exactly doc and locator"),
    ({**GOOD, "id": "b", "reference_date": "yesterday"}, "ISO date"),
])
def test_strict_loader_rejects_the_whole_file(tmp_path: Path, bad: object, message: str) -> None:
    with pytest.raises(GoldenSetError, match=message):
        load_golden(_write(tmp_path, [GOOD, bad]))


def _result(answer: str, tool_results: list[dict[str, object]], mode: str = "none",
            sources: list[dict[str, str]] | None = None) -> AgentResult:
    return AgentResult("q", answer, "structured", ClarificationResult(mode),
                       tool_results=tool_results, sources=sources or [])


def _case(**expected: object) -> GoldenCase:
    base = {"clarification": "none", "refuse": False}
    base.update(expected)
    return GoldenCase("c", "q", "numeric", base, date(2026, 3, 31), {})


def test_gates_fail_when_they_should() -> None:
    src = {"doc": "deck.pptx", "locator": "slide=2"}
    case = _case(value=5.0, unit="USD_M", source=src)
    right = {"status": "found", "value": 5.0, "unit": "USD_M", "source": src}
    ok = _score(case, _result("5 US$ m (source: deck.pptx · slide=2)", [right]), [])
    assert all(ok.gates.values()) and not ok.fabricated
    wrong_value = _score(case, _result("6 (deck.pptx)", [{**right, "value": 6.0}]), [])
    assert wrong_value.gates["numeric_accuracy"] is False
    wrong_source = _score(case, _result("5 (x.pptx)", [{**right, "source": {
        "doc": "x.pptx", "locator": "slide=2"}}]), [])
    assert wrong_source.gates["numeric_accuracy"] and not wrong_source.gates["citation_validity"]
    unnamed = _score(case, _result("5 US$ m", [right]), [])  # right number, doc not named
    assert unnamed.gates["citation_validity"] is False
    refuse_case = _case(refuse=True, clarification="out_of_scope_entity")
    leaked = _score(refuse_case, _result("Rivalis made 12.5 in FY2024", [],
                                         "out_of_scope_entity"), [])
    assert leaked.fabricated and leaked.gates["refusal_appropriateness"]
    over_refused = _score(_case(), _result("Sorry", [], "out_of_scope_entity"), [])
    assert over_refused.gates["refusal_appropriateness"] is False       # two-way
    asked = _score(_case(), _result("Which metric?", [], "ask_first"), [])
    assert asked.gates["clarification_appropriateness"] is False       # asked on a complete q


def test_both_modes_pass_every_gate_on_the_demo(demo_ws: Path) -> None:
    profile = DomainProfile.from_file(demo_ws / "profile.toml")
    agent = Agent(FactStore(demo_ws / "facts.db", create=False),
                  NarrativeIndex(demo_ws / "chunks.db", profile=profile), profile=profile)
    cases = load_golden(DEMO / "golden.jsonl")
    for mode in ("tool", "agent"):
        report = run_qa(cases, agent, mode)
        assert report.failures() == [], [(c.id, c.gates, c.detail) for c in report.failures()]
        assert report.fabrication_count == 0
        assert set(report.by_tag("lang")) == {"en", "zh"}
        assert "fabrication_count" in report._repr_html_() and len(report.to_frame()) == 63
    with pytest.raises(ValueError, match="mode"):
        run_qa(cases, agent, "llm")


def test_ratchet_fails_on_regression_and_records_only_when_asked(tmp_path: Path) -> None:
    from ragspine_nb.eval.qa import CaseResult

    def report(ok: bool, fab: bool = False) -> QAReport:
        return QAReport("tool", [CaseResult("x", "numeric", {}, {"numeric_accuracy": ok}, fab,
                                            "")])

    path = tmp_path / "baseline.json"
    update_baseline(report(True), path)
    assert compare_to_baseline(report(True), json.loads(path.read_text())) == ([], [])
    regressions, _ = compare_to_baseline(report(False), json.loads(path.read_text()))
    assert regressions == ["numeric_accuracy: 1.000 → 0.000"]
    regressions, _ = compare_to_baseline(report(True, fab=True), json.loads(path.read_text()))
    assert regressions == ["fabrication_count: 0 → 1"]
    update_baseline(report(False), path)
    _, improvements = compare_to_baseline(report(True), json.loads(path.read_text()))
    assert improvements == ["numeric_accuracy: 0.000 → 1.000"]
    assert json.loads(path.read_text())["tool"]["numeric_accuracy"] == 0.0  # not silently raised


def test_cli_eval_qa_json_and_ratchet_exit_code(demo_ws: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "qa.json"
    assert main(["eval", "qa", "--workspace", str(demo_ws), "--json", str(out),
                 "--baseline", str(DEMO / "qa_baseline.json")]) == 0
    figures = json.loads(out.read_text())
    assert figures["numeric_accuracy"] == {"passed": 34, "total": 34, "rate": 1.0}
    assert figures["fabrication_count"] == 0
    strict = tmp_path / "strict.json"
    strict.write_text(json.dumps({"tool": {"numeric_accuracy": 1.0, "fabrication_count": -1}}))
    assert main(["eval", "qa", "--workspace", str(demo_ws), "--baseline", str(strict)]) == 1
    assert "REGRESSION: fabrication_count: -1 → 0" in capsys.readouterr().out


def test_extraction_accuracy_on_the_demo_and_its_mismatch_list(demo_ws: Path) -> None:
    from dataclasses import replace

    from ragspine_nb.eval import evaluate_extraction

    truth = json.loads((DEMO / "ground_truth.json").read_text(encoding="utf-8"))["facts"]
    facts = FactStore(demo_ws / "facts.db", create=False).iter_facts()
    report = evaluate_extraction(facts, truth)
    assert report.to_dict()["cell_value"] == {"correct": 83, "total": 83, "accuracy": 1.0}
    assert report.mismatches == [] and report.extra == 0
    broken = [replace(f, value=f.value + 1) if f.source_locator == "sheet=Group!B4" else
              replace(f, unit="USD_M") if f.source_locator == "cell=B3" else f for f in facts]
    bad = evaluate_extraction(broken[1:], truth)
    channels = {(m.locator, m.channel) for m in bad.mismatches}
    assert ("sheet=Group!B4", "cell_value") in channels and ("cell=B3", "unit_scale") in channels
    assert bad.accuracy("located") == 82 / 83
    assert "Mismatches" in bad._repr_html_() and len(bad.to_frame()) == 3


# ---------------------------------------------------------------- report values and plots
def _bar_heights(ax: object) -> list[float]:
    return [round(p.get_height(), 6) for p in ax.patches]  # type: ignore[attr-defined]


def test_reports_are_values_with_a_table_a_card_and_a_plot(demo_ws: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from ragspine_nb.eval import evaluate_extraction
    from ragspine_nb.eval.retrieval import BeirReport
    from ragspine_nb.eval.tatqa.evaluate import summarize
    from ragspine_nb.eval.tatqa.run import ContextRun, Outcome
    from ragspine_nb.eval.tatqa.score import Verdict

    def asked(category: str, answer_type: str) -> Outcome:
        return Outcome("c", "u", "<b>Q</b>?", answer_type, "table", ("1",), "", "", "",
                       Verdict(category, "false_figure" if category == "wrong_number" else ""),
                       (), "", 0.001)

    tatqa = summarize([ContextRun("c", (asked("correct", "span"), asked("wrong_number", "span"),
                                        asked("correct", "count")), 0.01, 0.003, 3)])
    assert json.loads(json.dumps(tatqa.to_dict())) == tatqa.to_dict()
    frame = tatqa.to_frame()
    assert frame.loc["correct", "count"] == 2 and frame.loc["wrong_number", "rate"] == 0.333333
    html = tatqa._repr_html_()
    assert "&lt;b&gt;Q&lt;/b&gt;?" in html and "<b>Q</b>" not in html  # escaped
    assert "≤ 0.01" in html
    # the bars are the report's figures, in order (all, then per answer type)
    assert _bar_heights(tatqa.plot())[:3] == [0.666667, 1.0, 0.5]

    beir = BeirReport({"bm25": {"ndcg@10": 0.66, "recall@100": 0.9, "mrr@10": 0.62,
                                "queries": 300}}, name="scifact")
    assert "bm25=nDCG@10 0.6600" in repr(beir) and "0.6600" in beir._repr_html_()
    assert list(beir.to_frame().index) == ["bm25"] and json.loads(json.dumps(beir)) == beir
    assert _bar_heights(beir.plot()) == [0.66, 0.9, 0.62]

    profile = DomainProfile.from_file(demo_ws / "profile.toml")
    agent = Agent(FactStore(demo_ws / "facts.db", create=False), None, profile=profile)
    qa = run_qa(load_golden(DEMO / "golden.jsonl")[:6], agent, "tool")
    from ragspine_nb.eval.qa import GATES

    assert _bar_heights(qa.plot()) == [round(qa.gate(g)["rate"], 6) for g in GATES]
    by_lang = qa.plot(by="lang")
    assert [t.get_text() for t in by_lang.get_legend().get_texts()] == sorted(qa.by_tag("lang"))
    truth = json.loads((DEMO / "ground_truth.json").read_text(encoding="utf-8"))["facts"]
    ext = evaluate_extraction(FactStore(demo_ws / "facts.db", create=False).iter_facts(), truth)
    assert set(_bar_heights(ext.plot())) == {1.0}
