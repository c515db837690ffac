"""The honest TAT-QA scorer: gold parsing, the classifier on hand-made answers, the report,
and one end-to-end run of ``ragspine-nb eval tatqa`` on a tiny split written in tmp_path."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb.core import Fact, Figure
from ragspine_nb.eval.tatqa.evaluate import evaluate_tatqa, summarize
from ragspine_nb.eval.tatqa.gold import (
    Amount,
    Gold,
    GoldNumber,
    TatqaQuestion,
    gold_of,
    load_split,
    parse_amount,
    reference_date,
    write_context,
)
from ragspine_nb.eval.tatqa.run import ContextRun, Outcome
from ragspine_nb.eval.tatqa.score import CATEGORIES, Verdict, classify
from ragspine_nb.eval.tatqa.subsets import CellCheck, check_cells, extraction_summary, subset_of


def fig(value: float, unit: str, operation: str = "lookup", locator: str = "row=1") -> Figure:
    """A headline figure as the agent asserts it (one cited operand)."""
    fact = Fact("ROW", "COMPANY", "ALL", "TOTAL", "FY", "2019", value, unit, "table.csv",
                locator)
    return Figure(value, unit, "row, 2019", operation, (fact,), (fact.source,))


def q(answer: Any, answer_type: str = "span", scale: str = "", derivation: str = "",
      answer_from: str = "table") -> TatqaQuestion:
    return TatqaQuestion("u", "question?", answer, answer_type, answer_from, scale, derivation)


# ----------------------------------------------------------------------- gold parsing
@pytest.mark.parametrize(("text", "amount"), [
    ("$1,496.5", Amount(1496.5, 1, "")),
    ("$ 74,646", Amount(74646.0, 0, "")),
    ("(1,234)", Amount(-1234.0, 0, "")),
    ("$(9.8) million", Amount(-9.8, 1, "million")),
    ("£(8.1m)", Amount(-8.1, 1, "million")),
    ("−298", Amount(-298.0, 0, "")),
    ("36%", Amount(36.0, 0, "percent")),
    ("6.14 per cent", Amount(6.14, 2, "percent")),
    ("approximately 13%", Amount(13.0, 0, "percent")),
    ("$14.8 billion", Amount(14.8, 1, "billion")),
    ("US$261,518", Amount(261518.0, 0, "")),
    ("2.5 years", None), ("decreased $352 million", None), ("January 1, 2018", None),
    ("(3", None), ("Fixed Price", None),
])
def test_parse_amount(text: str, amount: Amount | None) -> None:
    assert parse_amount(text) == amount


def test_gold_numbers_text_years_and_counts() -> None:
    # an arithmetic answer: its written precision and the question's scale
    assert gold_of(q(-15.79, "arithmetic", "percent", "(80 - 95) / 95")) == Gold(
        "number", (GoldNumber(-15.79, 2, "percent"),), ("-15.79",), (80.0, 95.0))
    # a span's own scale word wins over the field; "%" makes a percentage
    assert gold_of(q(["$85.1 million"])).numbers == (GoldNumber(85.1, 1, "million"),)
    assert gold_of(q(["36%"])).numbers == (GoldNumber(36.0, 0, "percent"),)
    assert gold_of(q(["5,687"], scale="thousand")).numbers == (GoldNumber(5687.0, 0,
                                                                          "thousand"),)
    # numeric multi-span: one gold number per span (empty spans dropped)
    assert [n.value for n in gold_of(q(["73,260", "57,768", ""], "multi-span")).numbers] == \
        [73260.0, 57768.0]
    # years, words, dates and mixed spans are text
    for answer in (["2019"], ["2019", "2018"], ["Fixed Price"], ["2.5 years"],
                   ["2020", "Thereafter"]):
        gold = gold_of(q(answer, "multi-span"))
        assert (gold.kind, gold.numbers, gold.spans) == ("text", (), tuple(answer))
    # a count is exact
    assert gold_of(q("2", "count")).numbers == (GoldNumber(2.0, 0, "", exact=True),)


# ------------------------------------------------------------------------ the classifier
def verdict(answer: Any, figures: list[Figure], *, answer_type: str = "span", scale: str = "",
            derivation: str = "", text: str = "", abstain: str = "no_figure") -> Verdict:
    return classify(gold_of(q(answer, answer_type, scale, derivation)), figures, text, abstain)


def test_half_a_unit_of_the_last_digit() -> None:
    # gold 0.6: ±0.05 (0.5% would be 0.003)
    assert verdict(["0.6"], [fig(0.64, "USD")]).category == "correct"
    assert verdict(["0.6"], [fig(0.66, "USD")]) == Verdict("wrong_number", "false_figure")
    # an integer gold: ±0.5
    assert verdict(["12"], [fig(12.49, "USD")]).category == "correct"
    assert verdict(["12"], [fig(12.51, "USD")]).category == "wrong_number"


def test_half_a_percent_of_the_gold() -> None:
    # 10,000: 0.5% = 50 beats half a unit
    assert verdict(["10,000"], [fig(10049, "USD")]).category == "correct"
    assert verdict(["10,000"], [fig(10051, "USD")]).category == "wrong_number"
    # a long arithmetic float: 0.5% of 33.33
    assert verdict(33.333333, [fig(33.4, "PCT", "percent_change")], answer_type="arithmetic",
                   scale="percent").category == "correct"


def test_an_equal_amount_in_another_scale_is_equal() -> None:
    for value, unit in ((1496500, "USD_K"), (1.4965, "USD_BN"), (1496.5, "M"),
                        (1496500000, "USD")):
        assert verdict(["$1,496.5"], [fig(value, unit)], scale="million").category == \
            "correct", unit
    assert verdict(["5,687"], [fig(5.687, "USD_M")], scale="thousand").category == "correct"


def test_scale_wrong_or_missing() -> None:
    # the right digits, a scale the gold does not have (a per-share amount in millions)
    assert verdict(["5.56"], [fig(5.56, "USD_M")]) == Verdict("wrong_number", "scale_wrong")
    assert verdict(["$963,947"], [fig(963947, "USD_K")]) == \
        Verdict("wrong_number", "scale_wrong")
    # the right digits with no scale where the gold has one ("scale not stated")
    assert verdict(["$ 74,646"], [fig(74646, "USD")], scale="thousand") == \
        Verdict("wrong_number", "scale_missing")
    # a percentage stated as a plain number
    assert verdict(["36%"], [fig(36, "unit")]) == Verdict("wrong_number", "scale_missing")
    # a percentage gold against an amount with a scale
    assert verdict(6.4, [fig(6.4, "USD_M")], answer_type="arithmetic", scale="percent") == \
        Verdict("wrong_number", "scale_wrong")


def test_sign_flips_are_correct_and_counted() -> None:
    v = verdict(-15.79, [fig(15.79, "PCT", "percent_change")], answer_type="arithmetic",
                scale="percent")
    assert v == Verdict("correct", sign_flipped=True)
    assert verdict(["(1,234)"], [fig(-1234, "USD")]) == Verdict("correct")


def test_percent_golds() -> None:
    assert verdict(["36%"], [fig(36, "PCT")]).category == "correct"
    assert verdict(6.4, [fig(6.43, "PCT", "percent_change")], answer_type="arithmetic",
                   scale="percent").category == "correct"
    # 0.064 is not 6.4%
    assert verdict(6.4, [fig(0.064, "unit")], answer_type="arithmetic",
                   scale="percent") == Verdict("wrong_number", "false_figure")


def test_operands_where_an_operation_was_asked() -> None:
    gold = dict(answer_type="arithmetic", scale="million", derivation="1,320 - 1,086")
    assert verdict(234, [fig(234, "USD_M", "difference")], **gold).category == "correct"
    # a level (one operand) as the answer to a difference
    assert verdict(234, [fig(1320, "USD_M")], **gold) == Verdict("wrong_number", "operand")
    # both operands, no difference
    assert verdict(234, [fig(1320, "USD_M"), fig(1086, "USD_M")], **gold) == \
        Verdict("wrong_number", "operand")
    # an operand and a figure from elsewhere: the worse kind is reported
    assert verdict(234, [fig(1320, "USD_M"), fig(77, "USD_M")], **gold) == \
        Verdict("wrong_number", "false_figure")
    # the answer and an extra figure: wrong
    assert verdict(234, [fig(234, "USD_M", "difference"), fig(1320, "USD_M")], **gold) == \
        Verdict("wrong_number", "operand")


def test_multi_span_numbers() -> None:
    gold = dict(answer_type="multi-span", scale="thousand")
    both = [fig(73260, "USD_K"), fig(57.768, "USD_M")]
    assert verdict(["73,260", "57,768"], both, **gold).category == "correct"
    assert verdict(["73,260", "57,768"], both[::-1], **gold).category == "correct"
    assert verdict(["73,260", "57,768"], both[:1], **gold) == Verdict("partial")
    assert verdict(["73,260", "57,768"], [both[0], fig(1, "USD_K")], **gold) == \
        Verdict("wrong_number", "false_figure")


def test_counts_must_be_equal() -> None:
    assert verdict("2", [fig(2, "unit", "count")], answer_type="count").category == "correct"
    assert verdict("2", [fig(2.4, "unit", "count")], answer_type="count").category == \
        "wrong_number"
    assert verdict("2", [fig(5753, "USD_M")], answer_type="count") == \
        Verdict("wrong_number", "false_figure")


def test_text_golds() -> None:
    text = "Sales by type: the FIXED   price contracts and Other’s."
    assert verdict(["fixed price"], [], text=text) == \
        Verdict("text_correct", "no_figure", text_correct=True)
    assert verdict(["Fixed Price", "other's"], [], text=text, answer_type="multi-span",
                   abstain="narrative") == Verdict("text_correct", "narrative",
                                                   text_correct=True)
    assert verdict(["Fixed Price", "cost-plus"], [], text=text, answer_type="multi-span",
                   abstain="narrative") == Verdict("text_missed", "narrative")
    # a headline figure on a text question is counted apart, whatever the text says
    assert verdict(["fixed price"], [fig(1496.5, "USD_M")], text=text) == \
        Verdict("figure_on_text", text_correct=True)
    # "which year": a year is text
    assert verdict(["2019"], [fig(1496.5, "USD_M")], text="2019") == \
        Verdict("figure_on_text", text_correct=True)


def test_abstentions_and_bad_arguments() -> None:
    assert verdict(["1,234"], [], abstain="ask_back") == Verdict("abstained", "ask_back")
    assert verdict(["1,234"], [], text="It was 1,234.", abstain="narrative") == \
        Verdict("abstained", "narrative", text_correct=True)
    with pytest.raises(ValueError, match="Valid: \\['ask_back'"):
        verdict(["1"], [], abstain="shrug")
    with pytest.raises(ValueError, match="Valid: \\['number', 'text'\\]"):
        classify(Gold("table"), [], "")


# -------------------------------------------------------------------- contexts as files
CTX = {
    "table": {"uid": "ctx-a", "table": [
        ["", "Years Ended September 30,", ""], ["", "2019", "2018"],
        ["Fixed Price", "$ 1,452.4", "$ 1,146.2"], ["Other", "44.1", "56.7"],
        ["Total sales", "$1,496.5", "$1,202.9"]]},
    "paragraphs": [
        {"uid": "p2", "order": 2, "text": "The table below presents total net sales "
                                          "disaggregated by contract type (in millions):"},
        {"uid": "p1", "order": 1, "text": "Sales by Contract Type: substantially all of our "
                                          "contracts are fixed-price type contracts."}],
    "questions": [
        {"uid": "q1", "order": 1, "question": "What is the amount of total sales in 2019?",
         "answer": ["$1,496.5"], "derivation": "", "answer_type": "span",
         "answer_from": "table-text", "rel_paragraphs": ["2"], "scale": "million"},
        {"uid": "q2", "order": 2, "question": "What was the change in total sales from 2018 "
                                              "to 2019?",
         "answer": 293.6, "derivation": "1,496.5 - 1,202.9", "answer_type": "arithmetic",
         "answer_from": "table-text", "rel_paragraphs": ["2"], "scale": "million"},
        {"uid": "q3", "order": 3, "question": "What type are substantially all of the "
                                              "contracts?",
         "answer": ["fixed-price type"], "derivation": "", "answer_type": "span",
         "answer_from": "text", "rel_paragraphs": ["1"], "scale": ""},
    ]}
CTX_B = {
    "table": {"uid": "ctx-b", "table": [
        ["", "2019", "2018"], ["Revenue, \"net\"", "2,000", "1,800"], ["Cost", "(500)", "(450)"]]},
    "paragraphs": [{"uid": "p", "order": 1, "text": "Amounts in thousands."}],
    "questions": [
        {"uid": "q4", "order": 1, "question": "In which year was revenue higher?",
         "answer": ["2019"], "derivation": "", "answer_type": "span", "answer_from": "table",
         "rel_paragraphs": [], "scale": ""}]}


@pytest.fixture
def split(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([CTX, CTX_B]), encoding="utf-8")
    return path


def test_load_split_and_write_context(split: Path, tmp_path: Path) -> None:
    a, b = load_split(split)
    assert (a.uid, len(a.questions), a.paragraphs[0][:14]) == ("ctx-a", 3, "Sales by Contr")
    assert [x.rel_paragraphs for x in a.questions] == [(2,), (2,), (1,)]
    assert reference_date(a) == date(2020, 1, 1) == reference_date(b)
    folder = write_context(b, tmp_path / "files")
    assert (folder / "table.csv").read_text(encoding="utf-8").splitlines() == [
        ",2019,2018", '"Revenue, ""net""","2,000","1,800"', "Cost,(500),(450)"]
    notes = write_context(a, tmp_path / "a")
    assert (notes / "notes.md").read_text(encoding="utf-8") == \
        a.paragraphs[0] + "\n\n" + a.paragraphs[1] + "\n"
    assert [subset_of(a, x) for x in a.questions] == ["single_cell", "difference", ""]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"table": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match="'table', 'paragraphs' and 'questions'"):
        load_split(bad)


def test_subset_cells_checked_against_the_stored_facts(split: Path) -> None:
    a = load_split(split)[0]
    stored = {"cell=B5": fig(1496.5, "USD_M", locator="cell=B5").operands[0],
              "cell=C5": fig(1202.9, "USD", locator="cell=C5").operands[0]}
    checks = check_cells(a, a.questions, stored)
    # "Total sales" 2019 and 2018: the first in its scale, the second with none stated
    assert checks == (CellCheck("cell=B5", True, "equal"), CellCheck("cell=C5", True, "digits"))
    assert check_cells(a, a.questions, {}) == (CellCheck("cell=B5", False, ""),
                                               CellCheck("cell=C5", False, ""))
    assert extraction_summary(checks) == {"cells": 2, "located": 2, "value_and_scale": 1,
                                          "scale_differs": 1, "located_rate": 1.0,
                                          "value_and_scale_rate": 0.5}


# ----------------------------------------------------------------------------- the report
def outcome(category: str, kind: str = "", answer_type: str = "span",
            figures: tuple[dict[str, Any], ...] = (), subset: str = "") -> Outcome:
    return Outcome("ctx", "u", "<b>Q</b>?", answer_type, "table", ("1,234",), "million", "",
                   subset, Verdict(category, kind), figures, "answer", 0.002)


def test_summary_rates_over_all_questions_breakdowns_and_wrong_list() -> None:
    wrong_fig = fig(1320, "USD_M").to_dict()
    runs = [ContextRun("a", (outcome("correct", subset="single_cell"),
                             outcome("wrong_number", "operand", "arithmetic", (wrong_fig,),
                                     "difference"),
                             outcome("abstained", "ask_back", "arithmetic", subset="difference"),
                             outcome("figure_on_text", figures=(wrong_fig,))), 0.02, 0.008, 12),
            ContextRun("b", (outcome("text_correct", "narrative"),), 0.0, 0.0, 0,
                       "ProfileError: no profile")]
    report = summarize(runs, "tiny.json", 1, 0.5)
    assert report["questions"] == 5 and report["contexts"] == 2
    assert report["categories"] == {"correct": 1, "wrong_number": 1, "partial": 0,
                                    "abstained": 1, "figure_on_text": 1, "text_correct": 1,
                                    "text_missed": 0}
    assert report["rates"]["correct"] == 0.2 and report["stated_wrong"] == {"count": 2,
                                                                             "rate": 0.4}
    assert report["wrong_kinds"]["operand"] == 1 and report["abstain_kinds"]["ask_back"] == 1
    assert report["by_answer_type"]["arithmetic"]["questions"] == 2
    assert report["subsets"]["difference"] == {"asked": 2, "answered": 1, "correct": 0,
                                               "precision": 0.0, "coverage": 0.5}
    assert report["ingest_errors"] == {"b": "ProfileError: no profile"}
    assert [w["category"] for w in report["wrong"]] == ["wrong_number", "figure_on_text"]
    assert report["wrong"][0]["figures"][0]["sources"] == [{"doc": "table.csv",
                                                            "locator": "row=1"}]
    assert json.loads(json.dumps(report.to_dict())) == report.to_dict()
    assert list(report.to_frame().index) == list(CATEGORIES)
    html = report._repr_html_()
    assert "&lt;b&gt;Q&lt;/b&gt;?" in html and "<b>Q</b>" not in html  # escaped
    assert "1320 USD_M — row, 2019 [lookup] (table.csv · row=1)" in html
    assert "wrong_number · operand" in html and "≥ 0.5" in html
    assert report.lines()[1].split() == ["correct", "1", "0.200", "(target", "≥", "0.5)"]


def test_report_plot_draws_the_rates(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    runs = [ContextRun("a", (outcome("correct"), outcome("wrong_number", "false_figure")),
                       0.0, 0.0, 1)]
    ax = summarize(runs).plot()
    heights = [round(p.get_height(), 6) for p in ax.patches]
    assert heights == [0.5, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]


# ---------------------------------------------------------------------------- end to end
def test_cli_runs_every_question_through_ingestion(split: Path, tmp_path: Path) -> None:
    from ragspine_nb.cli.commands import main

    out = tmp_path / "out" / "tatqa.json"
    out.parent.mkdir()
    assert main(["eval", "tatqa", str(split), "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["questions"] == 4 and report["contexts"] == 2
    assert sum(report["categories"].values()) == 4
    assert report["ingest_errors"] == {}
    assert out.with_suffix(".html").is_file()
    assert str(tmp_path) not in out.read_text(encoding="utf-8")
    # the figures do not depend on the number of workers
    one, two = evaluate_tatqa(split, workers=1), evaluate_tatqa(split, workers=2)
    assert one["categories"] == two["categories"] and one["wrong"] == two["wrong"]
    assert main(["eval", "tatqa", str(tmp_path / "missing.json")]) == 2


def test_the_halves_split_contexts_by_position_and_cover_the_split() -> None:
    from ragspine_nb.eval.tatqa.evaluate import split_half

    items = list(range(7))
    tune, check = split_half(items, "tune"), split_half(items, "check")  # type: ignore[arg-type]
    assert tune == [0, 2, 4, 6] and check == [1, 3, 5]
    assert split_half(items, "all") == items  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="valid: \\['all', 'tune', 'check'\\]"):
        split_half(items, "dev")  # type: ignore[arg-type]
