"""One scale lexicon, longest spelling first, for every reader (issue 36).

A CSV headed "单位：人民币百万元" was stored as ``CNY_10K``: the table reader tried 万
before 百万 (a factor of 100). Headings, labels, prose amounts and question thresholds
now read scales with one lexicon (:data:`ragspine_nb.units.SCALE_WORDS`), matched
longest first.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from filemakers import make_xlsx

from ragspine_nb import FactStore, ingest
from ragspine_nb.agent import Agent
from ragspine_nb.agent.reading.operation_cues import threshold
from ragspine_nb.extract.prose_scale import prose_amounts
from ragspine_nb.extract.scale import read_stated
from ragspine_nb.extract.values import detect_unit
from ragspine_nb.units import SCALE_WORDS, SCALES, stated_scale, unit_label

SPELLINGS = [
    ("单位：人民币百万元", "CNY_M"), ("单位：千元", "CNY_K"), ("单位：万元", "CNY_10K"),
    ("单位：亿元", "CNY_100M"), ("单位：百万美元", "USD_M"), ("单位：人民币十亿元", "CNY_BN"),
    ("单位：人民币千万元", "CNY_10M"), ("(in thousands)", "K"), ("(in millions)", "M"),
    ("US$'000", "USD_K"), ("RMB'000", "CNY_K"), ("¥ million", "M"), ("HK$m", "HKD_M"),
    ("(in billions)", "BN"), ("€000", "EUR_K"),
]


def _stored_units(tmp_path: Path, name: str, write: object) -> set[str]:
    folder = tmp_path / "docs"
    folder.mkdir()
    write(folder / name)  # type: ignore[operator]
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    return set(FactStore(tmp_path / "ws" / "facts.db", create=False).to_frame().unit)


@pytest.mark.parametrize(("heading", "unit"), SPELLINGS)
def test_a_csv_heading_states_its_scale(tmp_path: Path, heading: str, unit: str) -> None:
    def write(path: Path) -> None:
        path.write_text(f"{heading}\nItem,2023,2022\nRevenue,1200,1000\nNet income,150,120\n",
                        encoding="utf-8")

    assert _stored_units(tmp_path, "report.csv", write) == {unit}


@pytest.mark.parametrize(("heading", "unit"), [SPELLINGS[0], SPELLINGS[4], SPELLINGS[10]])
def test_an_xlsx_title_states_its_scale(tmp_path: Path, heading: str, unit: str) -> None:
    def write(path: Path) -> None:
        make_xlsx(path, {"Summary": [[heading], ["Item", "2023", "2022"],
                                     ["Revenue", 1200, 1000], ["Net income", 150, 120]]})

    assert _stored_units(tmp_path, "report.xlsx", write) == {unit}


def test_the_answer_is_in_millions_of_yuan(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "report.csv").write_text(
        "单位：人民币百万元\n项目,2023年,2022年\n营业收入,1200,1000\n", encoding="utf-8")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    try:
        r = agent.ask("2023年营业收入是多少？", date(2024, 6, 1))
    finally:
        agent.close()
    assert [(f.value, f.unit) for f in r.figures] == [(1200.0, "CNY_M")]
    assert "1,200百万元" in r.answer


def test_every_reader_uses_the_one_lexicon() -> None:
    for heading, unit in SPELLINGS:
        scale = unit.rpartition("_")[2] if "_" in unit else unit
        assert stated_scale(heading) == scale, heading
        assert read_stated(heading).scale == scale, heading
        assert (detect_unit(heading) or "").endswith(scale), heading
    # prose amounts and question thresholds read the same words
    assert [round(a) for _, a, _ in prose_amounts("营业收入为12.5亿元，净利润为3,456万元。")] == [
        1_250_000_000, 34_560_000]
    assert [round(a) for _, a, _ in prose_amounts("Net sales were $757.3 million.")] == [
        757_300_000]
    ten_million = threshold("哪一年营业收入超过1千万？")
    thousands = threshold("which years did revenue exceed $200,000 thousand?")
    assert ten_million is not None and ten_million.scale == "10M"  # not 千 (K) nor 万 (10K)
    assert thousands is not None and thousands.scale == "K"


def test_longer_spellings_come_first_and_every_code_has_a_factor_and_labels() -> None:
    for word, code in SCALE_WORDS.items():
        assert code in SCALES
        for other, other_code in SCALE_WORDS.items():
            if other != word and other in word and other_code != code:
                # the longer spelling wins wherever both could match
                assert stated_scale(word) == code, (word, other)
    assert unit_label("CNY_10M", "zh") == "千万元" and unit_label("USD_100K") == "US$ ×100k"


def test_words_touching_letters_name_no_scale() -> None:
    assert stated_scale("a multimillion contract") == ""
    assert stated_scale("5bn") == "BN"
