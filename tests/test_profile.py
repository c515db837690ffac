from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ragspine_nb import DomainProfile, ProfileError
from tests.conftest import DEMO

ISSUE_SHAPE = """
[home]
company_name = "ACME Group"
entity_code = "ACME_GROUP"
[entities.ACME_HK]
label = "ACME Hong Kong"
geography = "HK"
synonyms = ["acme hk", "hong kong", "香港"]
[metrics.REVENUE]
unit = "USD_M"
synonyms = ["revenue", "营收", "营业收入"]
[channels]
default = "TOTAL"
[channels.AGENCY]
synonyms = ["agency", "代理"]
[competitors]
"竞安" = "竞安(Jingan)"
[sensitivity]
default = "INTERNAL"
restricted_filename_patterns = ["board_minutes"]
restricted_keywords = ["exec_comp"]
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_toml_of_the_documented_shape(tmp_path: Path) -> None:
    p = DomainProfile.from_file(_write(tmp_path, "p.toml", ISSUE_SHAPE))
    assert p.company_name == "ACME Group" and p.home_entity_code == "ACME_GROUP"
    assert p.entities["ACME_HK"].synonyms == ("acme hk", "hong kong", "香港")
    assert p.entities["ACME_HK"].geography == "HK"
    assert p.metrics["REVENUE"].unit == "USD_M"
    assert set(p.channels) == {"TOTAL", "AGENCY"} and p.default_channel == "TOTAL"
    assert p.competitors == {"竞安": "竞安(Jingan)"}
    assert p.sensitivity.restricted_filename_patterns == ("board_minutes",)
    assert p.sensitivity.restricted_keywords == ("exec_comp",)


def test_home_entity_is_an_entity_with_its_own_synonyms() -> None:
    p = DomainProfile.from_dict({
        "home": {"company_name": "ACME Group", "entity_code": "ACME_GROUP",
                 "synonyms": ["集团"]},
        "metrics": {"REVENUE": {"unit": "USD_M"}},
    })
    home = p.entities["ACME_GROUP"]
    assert home.label == "ACME Group"
    assert "集团" in home.synonyms and "ACME Group" in home.synonyms


def test_yaml_json_and_toml_give_the_same_profile(tmp_path: Path) -> None:
    import tomllib

    data = tomllib.loads(ISSUE_SHAPE)
    a = DomainProfile.from_file(_write(tmp_path, "p.toml", ISSUE_SHAPE))
    dumped = yaml.safe_dump(data, allow_unicode=True)
    b = DomainProfile.from_file(_write(tmp_path, "p.yaml", dumped))
    c = DomainProfile.from_file(_write(tmp_path, "p.json", json.dumps(data, ensure_ascii=False)))
    for other in (b, c):
        assert repr(other) == repr(a)
        assert other.entities == a.entities and other.metrics == a.metrics
        assert other.competitors == a.competitors and other.sensitivity == a.sensitivity


def test_profiles_may_grow_unknown_sections_are_kept() -> None:
    p = DomainProfile.from_dict({
        "home": {"company_name": "A", "entity_code": "A"},
        "metrics": {"REVENUE": {"unit": "USD_M"}},
        "dimensions": {"product": {"label": "Product"}},
    })
    assert p.extra == {"dimensions": {"product": {"label": "Product"}}}


@pytest.mark.parametrize("data, message", [
    ({}, r"no \[home\] section.*Known sections"),
    ({"home": {"company_name": "A"}}, "home.entity_code"),
    ({"home": {"company_name": "A", "entity_code": "A"}}, "no \\[metrics\\]"),
    ({"home": {"company_name": "A", "entity_code": "A"}, "metrics": {"R": {}}}, "metrics.R.unit"),
    ({"home": {"company_name": "A", "entity_code": "A"},
      "metrics": {"R": {"unit": "U", "synonyms": "revenue"}}}, "list of strings"),
    ({"home": {"company_name": "A", "entity_code": "A"}, "metrics": {"R": {"unit": "U"}},
      "competitors": {"X": ""}}, "competitors"),
    ([1, 2], "mapping"),
])
def test_malformed_profiles_raise_clear_errors(data: object, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        DomainProfile.from_dict(data)  # type: ignore[arg-type]


def test_unknown_format_lists_supported(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match=r"\['.toml', '.yaml', '.yml', '.json'\]"):
        DomainProfile.from_file(_write(tmp_path, "p.ini", "x"))
    with pytest.raises(ProfileError, match="cannot parse"):
        DomainProfile.from_file(_write(tmp_path, "p.toml", "[home\n"))
    with pytest.raises(ProfileError, match="not found"):
        DomainProfile.from_file(tmp_path / "missing.toml")


def test_demo_profile_loads_and_displays(profile: DomainProfile) -> None:
    assert profile.home_entity_code == "ACME_GROUP"
    assert "ACME_GROUP" in repr(profile)
    html = profile._repr_html_()
    assert "ACME Hong Kong" in html and "<script" not in html
    assert (DEMO / "profile.toml").is_file()


def test_to_dict_round_trips(profile: DomainProfile) -> None:
    again = DomainProfile.from_dict(profile.to_dict())
    assert again.to_dict() == profile.to_dict()
    assert again.entities == profile.entities and again.metrics == profile.metrics
    assert again.channels == profile.channels and again.competitors == profile.competitors


def _with_formulas(**formulas: str) -> dict[str, object]:
    metrics: dict[str, dict[str, object]] = {
        c: {"unit": "USD_M"} for c in ("REVENUE", "GROSS_PROFIT", "NET_INCOME")}
    for code, formula in formulas.items():
        metrics.setdefault(code, {"unit": "PCT"})["formula"] = formula
    return {"home": {"company_name": "ACME", "entity_code": "ACME"}, "metrics": metrics}


def test_a_metric_formula_is_checked_and_kept() -> None:
    p = DomainProfile.from_dict(_with_formulas(GROSS_MARGIN="GROSS_PROFIT / REVENUE"))
    assert p.metrics["GROSS_MARGIN"].formula == "GROSS_PROFIT / REVENUE"
    assert DomainProfile.from_dict(p.to_dict()).metrics["GROSS_MARGIN"].formula == \
        "GROSS_PROFIT / REVENUE"
    with pytest.raises(ProfileError, match=r"not metrics: \['EBIT'\].*known metrics"):
        DomainProfile.from_dict(_with_formulas(MARGIN="EBIT / REVENUE"))
    with pytest.raises(ProfileError, match="must be arithmetic"):
        DomainProfile.from_dict(_with_formulas(MARGIN="GROSS_PROFIT % REVENUE"))
    with pytest.raises(ProfileError, match="computed from itself"):
        DomainProfile.from_dict(_with_formulas(A="B + REVENUE", B="A - REVENUE"))


def test_every_builtin_formula_names_builtin_metrics_and_parses() -> None:
    from ragspine_nb.agent.compute.expression import parse

    builtin = DomainProfile.builtin()
    formulas = {c: m.formula for c, m in builtin.metrics.items() if m.formula}
    assert {"CURRENT_RATIO", "QUICK_RATIO", "EBITDA_MARGIN", "ROE", "ROA",
            "FREE_CASH_FLOW"} <= set(formulas)
    for formula in formulas.values():
        parse(formula)  # raises FormulaSyntaxError on a formula that does not read
