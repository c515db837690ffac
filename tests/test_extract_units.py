from __future__ import annotations

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.extract.tables import (
    TableContext,
    extract_table,
    find_table_blocks,
    parse_row_label,
)
from ragspine_nb.extract.values import detect_unit, parse_number


@pytest.mark.parametrize("cell, value, percent", [
    ("1,320", 1320.0, False), ("(42.3)", -42.3, False), ("12.8%", 12.8, True),
    ("(3.2%)", -3.2, True), ("−5", -5.0, False), ("１，２００", 1200.0, False), (" 7 ", 7.0, False),
    (1320, 1320.0, False), (0.5, 0.5, False), ("+4.5", 4.5, False), ("1 320", 1320.0, False),
])
def test_parse_number(cell: object, value: float, percent: bool) -> None:
    got = parse_number(cell)
    assert (got.value, got.percent) == (value, percent)


@pytest.mark.parametrize("cell", ["n/a", "—", "-", "", None, "1,32", "12.8.1", "abc", "1e5x",
                                  True, float("nan"), "1,320 USD"])
def test_parse_number_reports_non_numbers(cell: object) -> None:
    got = parse_number(cell)
    assert got.value is None and got.reason


@pytest.mark.parametrize("text, unit", [
    ("Key figures (US$m)", "USD_M"), ("US$ millions", "USD_M"), ("(US$ thousands)", "USD_K"),
    ("HK$ bn", "HKD_BN"), ("RMB m", "CNY_M"), ("人民币亿元", "CNY_100M"), ("万元", "CNY_10K"),
    ("ROE (%)", "PCT"), ("净资产收益率（%）", "PCT"), ("Revenue", None), ("Mainland China", None),
])
def test_detect_unit(text: str, unit: str | None) -> None:
    assert detect_unit(text) == unit


def test_detect_unit_borrows_a_currency_for_a_bare_scale() -> None:
    assert detect_unit("in thousands", "USD") == "USD_K"
    assert detect_unit("in millions") == "M"


@pytest.mark.parametrize("label, parsed", [
    ("Revenue", ("REVENUE", "TOTAL")), ("Revenue (US$m)", ("REVENUE", "TOTAL")),
    ("New sales - Agency", ("NEW_SALES", "AGENCY")), ("New sales (Bancassurance)",
                                                      ("NEW_SALES", "BANCASSURANCE")),
    ("新单保费 — 代理人渠道", ("NEW_SALES", "AGENCY")), ("ROE (%)", ("ROE", "TOTAL")),
    ("Embedded value", None), ("New sales - Online", None), ("Revenue growth", None),
])
def test_parse_row_label(profile: DomainProfile, label: str,
                         parsed: tuple[str, str] | None) -> None:
    assert parse_row_label(profile, label) == parsed


def _ctx(titles: tuple[str, ...], entity: str | None = None) -> TableContext:
    return TableContext(doc_id="t.pptx", titles=titles, entity=entity,
                        locate=lambda r, c, rk, cl: f"r{r}c{c}:{rk}:{cl}",
                        source_file_hash="h" * 64, extractor_version="x@1", mapping_version="m")


def test_extract_table_attributes_every_cell(profile: DomainProfile) -> None:
    rows = [["US$m", "FY2024", "1H2025", "YoY"],
            ["Revenue", "1,320", "700", "+6%"],
            ["ROE", "15.1%", "", "x"],
            ["Embedded value", "1", "2", "3"],
            ["", "", "", ""]]
    out = extract_table(profile, rows, _ctx(("ACME Hong Kong — Key figures (US$m)",)))
    got = {(f.metric_code, f.period_type, f.period, f.value, f.unit, f.source_locator)
           for f in out.facts}
    assert got == {("REVENUE", "FY", "2024", 1320.0, "USD_M", "r1c1:REVENUE:FY2024"),
                   ("REVENUE", "HY", "2025H1", 700.0, "USD_M", "r1c2:REVENUE:2025H1"),
                   ("ROE", "FY", "2024", 15.1, "PCT", "r2c1:ROE:FY2024")}
    assert all(f.entity == "ACME_HK" and f.geography == "HK" for f in out.facts)
    assert all(f.extractor_version == "x@1" and f.source_file_hash == "h" * 64 for f in out.facts)
    reasons = sorted(s.reason for s in out.skipped)
    # an empty cell is nil, not a failure: it is not listed; a stated change is a channel
    # this profile does not have
    assert reasons == ["column header 'YoY' names channel CHANGE_PCT that the profile does "
                       "not have; column skipped",
                       "row label 'Embedded value' not in the glossary; row skipped"]


def test_a_table_naming_no_entity_is_the_documents(profile: DomainProfile) -> None:
    rows = [["", "FY2024"], ["Revenue", "1"]]
    # no entity in the titles: the document's entity, else the profile's home entity
    out = extract_table(profile, rows, _ctx(("Key figures",)))
    assert [f.entity for f in out.facts] == ["ACME_GROUP"] and out.skipped == []
    mapped = extract_table(profile, rows, _ctx(("Key figures",), entity="ACME_CN"))
    assert [f.entity for f in mapped.facts] == ["ACME_CN"]
    # a title naming an entity wins over the document's
    titled = extract_table(profile, rows, _ctx(("ACME Hong Kong",), entity="ACME_CN"))
    assert [f.entity for f in titled.facts] == ["ACME_HK"]


def test_repeated_period_columns_are_reported_and_neither_is_picked(
        profile: DomainProfile) -> None:
    rows = [["", "FY2024", "2024"], ["Revenue", "1", "2"]]
    out = extract_table(profile, rows, _ctx(("ACME Group",)))
    assert out.facts == []
    assert [s.reason for s in out.skipped] == [
        f"column header {h!r} repeats the period of another column and nothing tells them "
        "apart; column skipped" for h in ("FY2024", "2024")]


def test_find_table_blocks(profile: DomainProfile) -> None:
    grid = [["ACME Hong Kong (US$m)", None, None],
            ["Metric", "FY2021", "FY2022"],
            ["Revenue", 1, 2],
            [None, None, None],
            ["Notes: unaudited", None, None],
            [None, "Mainland China", None],
            [None, "Metric", "FY2023"],
            [None, "Revenue", 3]]
    blocks = find_table_blocks(profile, grid)
    assert [(b.header_row, b.end_row, b.label_col, b.title) for b in blocks] == [
        (1, 3, 0, "ACME Hong Kong (US$m)"), (6, 8, 1, "Mainland China")]
