from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.glossary import normalize_channel, normalize_entity, normalize_metric
from ragspine_nb.period_codes import normalize_period


@pytest.mark.parametrize("text, code", [
    ("revenue", "REVENUE"), ("Revenue", "REVENUE"), ("REVENUE", "REVENUE"), ("营收", "REVENUE"),
    ("营业收入", "REVENUE"), ("  total   revenue ", "REVENUE"), ("Revenue (US$m)", "REVENUE"),
    ("营业收入（亿元）", "REVENUE"), ("ＲＥＶＥＮＵＥ", "REVENUE"),
    ("Return on equity", "ROE"), ("new sales", "NEW_SALES"), ("营运利润", "OPERATING_PROFIT"),
])
def test_normalize_metric(profile: DomainProfile, text: str, code: str) -> None:
    assert normalize_metric(profile, text) == code


@pytest.mark.parametrize("text", ["rev", "revenues growth", "operating margin", "", "  ", None,
                                  42, "revenue revenue", "营"])
def test_normalize_metric_never_guesses(profile: DomainProfile, text: object) -> None:
    assert normalize_metric(profile, text) is None


@pytest.mark.parametrize("text, code", [
    ("ACME Hong Kong", "ACME_HK"), ("acme hk", "ACME_HK"), ("香港", "ACME_HK"),
    ("ACME_HK", "ACME_HK"), ("ACME Hong Kong — Financial Performance", "ACME_HK"),
    ("ACME Mainland China | FY2024", "ACME_CN"), ("中国内地", "ACME_CN"),
    ("ACME Group", "ACME_GROUP"), ("ACME Hong Kong (US$m)", "ACME_HK"),
    ("集团", "ACME_GROUP"), ("acme", "ACME_GROUP"),
])
def test_normalize_entity(profile: DomainProfile, text: str, code: str) -> None:
    assert normalize_entity(profile, text) == code


@pytest.mark.parametrize("text", ["some unknown company", "Hong", "竞安", "ACME Japan", "", None,
                                  "ACME Singapore", "Key figures (US$m)"])
def test_normalize_entity_never_guesses(profile: DomainProfile, text: object) -> None:
    assert normalize_entity(profile, text) is None


@pytest.mark.parametrize("text, code", [
    ("agency", "AGENCY"), ("代理", "AGENCY"), ("Bancassurance", "BANCASSURANCE"),
    ("TOTAL", "TOTAL"), ("", "TOTAL"), (None, "TOTAL"),
])
def test_normalize_channel(profile: DomainProfile, text: object, code: str) -> None:
    assert normalize_channel(profile, text) == code


def test_normalize_channel_unknown_is_none(profile: DomainProfile) -> None:
    assert normalize_channel(profile, "agnecy") is None


REF = date(2025, 6, 30)


@pytest.mark.parametrize("text, expected", [
    ("FY2024", ("FY", "2024")), ("FY24", ("FY", "2024")), ("F19", ("FY", "2019")),
    ("2024", ("FY", "2024")), ("FY 2024", ("FY", "2024")),
    ("2024年", ("FY", "2024")), ("fy2024", ("FY", "2024")), ("2024年度", ("FY", "2024")),
    ("2024H1", ("HY", "2024H1")), ("2024h2", ("HY", "2024H2")), ("FY2024H1", ("HY", "2024H1")),
    ("H1 2024", ("HY", "2024H1")), ("1H2024", ("HY", "2024H1")),
    ("2024年上半年", ("HY", "2024H1")), ("2024年下半年", ("HY", "2024H2")),
    ("2025Q1", ("QUARTER", "2025Q1")), ("Q3 2024", ("QUARTER", "2024Q3")),
    ("2024年第三季度", ("QUARTER", "2024Q3")), ("２０２４", ("FY", "2024")),
    ("今年", ("FY", "2025")), ("this year", ("FY", "2025")), ("去年", ("FY", "2024")),
    ("last year", ("FY", "2024")), ("前年", ("FY", "2023")),
    ("the year before last", ("FY", "2023")),
    ("上半年", ("HY", "2025H1")), ("下半年", ("HY", "2025H2")),
    ("去年下半年", ("HY", "2024H2")), ("first half of last year", ("HY", "2024H1")),
    ("本季度", ("QUARTER", "2025Q2")), ("this quarter", ("QUARTER", "2025Q2")),
    ("上季度", ("QUARTER", "2025Q1")), ("last quarter", ("QUARTER", "2025Q1")),
])
def test_normalize_period(profile: DomainProfile, text: str, expected: tuple[str, str]) -> None:
    assert normalize_period(profile, text, REF) == expected


def test_last_quarter_rolls_over_the_year(profile: DomainProfile) -> None:
    assert normalize_period(profile, "上季度", date(2025, 2, 10)) == ("QUARTER", "2024Q4")
    assert normalize_period(profile, "本季度", date(2025, 12, 31)) == ("QUARTER", "2025Q4")
    assert normalize_period(profile, "last quarter", date(2025, 4, 1)) == ("QUARTER", "2025Q1")


@pytest.mark.parametrize("text", ["24", "2024Q5", "2024H3", "Q0 2024", "12024", "abc",
                                  "", None, "2024-13", "next year", "3024", "2024年第五季度"])
def test_normalize_period_never_guesses(profile: DomainProfile, text: object) -> None:
    assert normalize_period(profile, text, REF) is None


def test_relative_period_defaults_to_today(profile: DomainProfile) -> None:
    assert normalize_period(profile, "今年") == ("FY", str(date.today().year))
