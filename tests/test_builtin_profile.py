"""No handwritten profile needed: the built-in financial profile and per-document companies."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent, DomainProfile, Workspace, ingest
from ragspine_nb.company import company_entity, company_forms
from ragspine_nb.errors import ProfileError
from ragspine_nb.extract.document import METADATA_KEYS
from ragspine_nb.glossary import normalize_entity, normalize_metric
from tests.conftest import DEMO


@pytest.mark.parametrize("term, code", [
    ("Revenue", "REVENUE"), ("Net sales", "REVENUE"), ("营业收入", "REVENUE"),
    ("净销售额", "REVENUE"), ("销售额", "REVENUE"), ("经营活动现金流", "OPERATING_CASH_FLOW"),
    ("投资活动现金流", "INVESTING_CASH_FLOW"), ("筹资活动现金流", "FINANCING_CASH_FLOW"),
    ("Cost of sales", "COST_OF_REVENUE"), ("营业成本", "COST_OF_REVENUE"),
    ("Gross profit", "GROSS_PROFIT"), ("毛利", "GROSS_PROFIT"),
    ("Income from operations", "OPERATING_INCOME"), ("营业利润", "OPERATING_INCOME"),
    ("Net income", "NET_INCOME"), ("净利润", "NET_INCOME"),
    ("Diluted earnings per share", "EPS_DILUTED"), ("每股收益", "EPS"),
    ("Total assets", "TOTAL_ASSETS"), ("资产总计", "TOTAL_ASSETS"),
    ("Total liabilities", "TOTAL_LIABILITIES"), ("Total shareholders' equity", "TOTAL_EQUITY"),
    ("Cash and cash equivalents", "CASH"), ("现金及现金等价物", "CASH"),
    ("Capital expenditures", "CAPEX"), ("Net cash provided by operating activities",
                                        "OPERATING_CASH_FLOW"),
    ("Free cash flow", "FREE_CASH_FLOW"), ("Depreciation and amortization",
                                           "DEPRECIATION_AMORTIZATION"),
    ("Research and development", "RD_EXPENSES"), ("研发费用", "RD_EXPENSES"),
    ("SG&A", "SGA_EXPENSES"), ("Provision for income taxes", "INCOME_TAX"),
    ("Dividends paid", "DIVIDENDS_PAID"), ("毛利率", "GROSS_MARGIN"),
    ("Net cash provided by financing activities", "FINANCING_CASH_FLOW"),
    ("Cash flows from investing activities", "INVESTING_CASH_FLOW"),
    ("Cash used in financing activities", "FINANCING_CASH_FLOW"),
])
def test_builtin_profile_names_the_statement_line_items(term: str, code: str) -> None:
    assert normalize_metric(DomainProfile.builtin(), term) == code


def test_builtin_profile_shape() -> None:
    p = DomainProfile.builtin()
    assert (p.home_entity_code, p.company_name, list(p.entities)) == \
        ("COMPANY", "the company", ["COMPANY"])
    assert normalize_entity(p, "the company") == "COMPANY"
    assert dict(p.competitors) == {} and list(p.channels) == ["TOTAL"]
    assert p.sensitivity.default == "INTERNAL"
    assert {m.unit for m in p.metrics.values()} == {"", "PCT", "shares"}
    assert p.unit_of("REVENUE") == "" and p.unit_of("ROE") == "PCT"
    assert p.is_builtin and not DomainProfile.from_file(DEMO / "profile.toml").is_builtin
    # a term claimed by two line items would resolve to neither: none is
    terms = [t.casefold() for m in p.metrics.values() for t in (m.label, *m.synonyms)]
    owners: dict[str, set[str]] = {}
    for m in p.metrics.values():
        for t in (m.label, *m.synonyms):
            owners.setdefault(t.casefold(), set()).add(m.code)
    assert {t: c for t, c in owners.items() if len(c) > 1} == {}
    assert len(terms) > 200
    # the saved copy reads back as the same profile
    again = DomainProfile.from_dict(json.loads(json.dumps(p.to_dict())))
    assert again.is_builtin and again.metrics == p.metrics


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir(parents=True)
    (docs / "report.csv").write_text("USD millions,2019,2018\nRevenue,100,90\nNet income,12,9\n",
                                   "utf-8")
    (docs / "notes.md").write_text("# Notes\n\nRevenue grew on new orders.\n", "utf-8")
    return docs


def test_ingest_without_a_profile_starts_from_the_builtin_and_saves_it(tmp_path: Path) -> None:
    report = ingest(_docs(tmp_path), workspace=tmp_path / "ws", progress=False)
    assert [(f.doc_id, f.status, f.facts) for f in report.files] == \
        [("notes.md", "ingested", 0), ("report.csv", "ingested", 4)]
    assert (tmp_path / "ws" / "profile.json").is_file()
    ws = Workspace(tmp_path / "ws")
    assert ws.profile.is_builtin and ws.profile.metrics == DomainProfile.builtin().metrics
    assert {f.entity for f in ws.facts.iter_facts()} == {"COMPANY"}
    agent = Agent(ws.facts, profile=ws.effective_profile())
    result = agent.ask("What was revenue in 2019?", reference_date=date(2020, 1, 1))
    assert "100" in result.answer and "report.csv" in result.answer
    # "净销售额" (net sales) is revenue in Chinese too: it asked which line item was meant
    zh = agent.ask("2019年的净销售额是多少？", reference_date=date(2020, 1, 1))
    assert [f.value for f in zh.figures] == [100.0]
    # a second batch keeps the saved profile (the ingestion is unchanged: nothing redone)
    again = ingest(_docs(tmp_path / "b"), workspace=tmp_path / "ws", progress=False)
    assert [f.status for f in again.files] == ["skipped_unchanged", "skipped_unchanged"]


def test_a_users_profile_still_wins(tmp_path: Path) -> None:
    ingest(_docs(tmp_path), workspace=tmp_path / "ws", profile=DEMO / "profile.toml",
           progress=False)
    ws = Workspace(tmp_path / "ws")
    assert not ws.profile.is_builtin and ws.effective_profile().home_entity_code == "ACME_GROUP"


def test_company_metadata_files_the_facts_under_the_company(tmp_path: Path) -> None:
    assert "company" in METADATA_KEYS
    meta = {"report.csv": {"company": "Acme Corp."}}
    ingest(_docs(tmp_path), workspace=tmp_path / "ws", metadata=meta, progress=False)
    ws = Workspace(tmp_path / "ws")
    assert {f.entity for f in ws.facts.iter_facts()} == {"ACME"}
    assert {f.geography for f in ws.facts.iter_facts()} == {"UNSPECIFIED"}
    assert list(ws.facts.vocabularies()) == ["report.csv"]
    effective = ws.effective_profile()
    # the only document stating facts is Acme's: "the company" is Acme
    assert (effective.home_entity_code, effective.company_name) == ("ACME", "Acme Corp.")
    for name in ("Acme", "acme corporation", "Acme Corp", "the company"):
        assert normalize_entity(effective, name) == "ACME", name
    assert ws.profile.home_entity_code == "COMPANY"  # the stored profile is unchanged
    agent = Agent(ws.facts, profile=effective)
    for question in ("What was Acme's net income in 2019?", "What was net income in 2019?"):
        result = agent.ask(question, reference_date=date(2020, 1, 1))
        assert "12" in result.answer and "Acme Corp." in result.answer, result.answer


def test_two_companies_keep_the_placeholder_home(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    (docs / "beta.csv").write_text("USD millions,2019\nRevenue,55\n", "utf-8")
    meta = {"report.csv": {"company": "Acme Corp."}, "beta.csv": {"company": "Beta Holdings PLC"}}
    ingest(docs, workspace=tmp_path / "ws", metadata=meta, progress=False)
    ws = Workspace(tmp_path / "ws")
    effective = ws.effective_profile()
    assert effective.home_entity_code == "COMPANY"
    assert normalize_entity(effective, "Beta Holdings") == "BETA_HOLDINGS"
    agent = Agent(ws.facts, profile=effective)
    result = agent.ask("What was Beta Holdings' revenue in 2019?", reference_date=date(2020, 1, 1))
    assert "55" in result.answer
    # re-ingesting a document under another company replaces its vocabulary with its facts
    meta["beta.csv"] = {"company": "Gamma Inc."}
    ingest(docs, workspace=tmp_path / "ws", metadata=meta, progress=False)
    ws = Workspace(tmp_path / "ws")
    assert [e.code for v in ws.facts.vocabularies().values() for e in v.entities] == \
        ["GAMMA", "ACME"]
    assert {f.entity for f in ws.facts.iter_facts(source_doc_id="beta.csv")} == {"GAMMA"}
    ws.facts.delete_by_source_doc("beta.csv")
    assert list(ws.facts.vocabularies()) == ["report.csv"]


def test_company_known_to_the_profile_is_that_entity(tmp_path: Path) -> None:
    profile = DomainProfile.from_file(DEMO / "profile.toml")
    assert company_entity(profile, "ACME Hong Kong Ltd.") == ("ACME_HK", None)
    meta = {"report.csv": {"company": "ACME Hong Kong Limited"}}
    ingest(_docs(tmp_path), workspace=tmp_path / "ws", profile=profile, metadata=meta,
           progress=False)
    ws = Workspace(tmp_path / "ws")
    assert {f.entity for f in ws.facts.iter_facts()} == {"ACME_HK"}
    assert ws.facts.vocabularies() == {}


def test_company_and_entity_together_is_a_clear_failure(tmp_path: Path) -> None:
    meta = {"report.csv": {"company": "Acme Corp.", "entity": "the company"}}
    report = ingest(_docs(tmp_path), workspace=tmp_path / "ws", metadata=meta, progress=False)
    (failed,) = [f for f in report.files if f.doc_id == "report.csv"]
    assert failed.status == "failed" and "give one" in failed.reason


@pytest.mark.parametrize("name, forms", [
    ("Acme Corp.", ("acme corp.", "acme corp", "acme corporation", "acme")),
    ("Widget Co., Ltd.", ("widget co., ltd.", "widget co. ltd.", "widget co., ltd", "widget co ltd",
                          "widget company limited", "widget")),
    ("Koninklijke Philips N.V.", ("koninklijke philips n.v.", "koninklijke philips")),
    ("平安银行股份有限公司", ("平安银行股份有限公司", "平安银行")),
    ("Amco", ("amco",)),  # "co" is a legal form only as a word of its own
    ("ACME Group", ("acme group",)),  # a Group is not a legal form: it tells companies apart
])
def test_company_forms(name: str, forms: tuple[str, ...]) -> None:
    assert company_forms(name) == forms


def test_company_codes_never_take_a_profile_entity() -> None:
    profile = DomainProfile.from_dict({
        "home": {"company_name": "Holding", "entity_code": "ZETA_ONE"},
        "metrics": {"R": {"unit": "USD_M"}}})
    assert company_entity(profile, "Zeta_One Ltd") == ("ZETA_ONE", None)  # its code: known
    code, spec = company_entity(profile, "Zeta One Ltd")
    assert code == "ZETA_ONE_CO" and spec is not None and spec.label == "Zeta One Ltd"


def test_the_ingest_command_needs_no_profile(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from ragspine_nb.cli.commands import main

    code = main(["ingest", str(_docs(tmp_path)), "--workspace", str(tmp_path / "ws")])
    assert code == 0, capsys.readouterr().err
    assert Workspace(tmp_path / "ws").profile.is_builtin


@pytest.mark.parametrize("name, code", [
    ("net income margin", "NET_MARGIN"), ("operating income margin", "OPERATING_MARGIN"),
    ("days sales outstanding", "DAYS_SALES_OUTSTANDING"), ("DPO", "DAYS_PAYABLE_OUTSTANDING"),
    ("存货周转天数", "DAYS_INVENTORY_OUTSTANDING"),
])
def test_the_built_in_profile_knows_an_analysts_names_of_its_ratios(name: str, code: str) -> None:
    assert normalize_metric(DomainProfile.builtin(), name) == code


def test_a_depreciation_line_naming_what_it_depreciates_is_the_d_and_a(tmp_path: Path) -> None:
    """Netflix's cash flow statement says "Depreciation and amortization of property,
    equipment and intangibles": the whole D&A (a question's EBITDA margin was refused as
    'not in the fact store'); streaming content's amortization stays a line of its own."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "statements.csv").write_text(
        "In thousands,2015,2014\nRevenues,\"6,779,511\",\"5,504,656\"\n"
        "Operating income,\"305,826\",\"402,648\"\n"
        "Amortization of streaming content assets,\"3,405,382\",\"2,656,279\"\n"
        "\"Depreciation and amortization of property, equipment and intangibles\","
        "\"62,283\",\"54,028\"\n", "utf-8")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    answer = agent.ask("What is the FY2015 EBITDA margin?", reference_date=date(2016, 1, 1)).answer
    assert "(305,826 + 62,283) / 6,779,511 × 100 = 5.43%" in answer, answer


def test_a_gross_margin_without_a_gross_profit_line_is_computed_from_sales_and_cost(
        tmp_path: Path) -> None:
    """3M's income statement states net sales and cost of sales, no gross profit: its
    gross margin was 'not in the fact store'. Gross profit is computed only as the gross
    margin's operand; asked for itself, it stays what a table states (none here)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "income.csv").write_text(
        "USD millions,2022,2021\nNet sales,\"34,229\",\"35,355\"\n"
        "Cost of sales,\"19,232\",\"18,795\"\n", "utf-8")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    margin = agent.ask("What was the gross margin in 2022?", reference_date=date(2023, 1, 1))
    assert "(Revenue - Cost of revenue) / Revenue × 100: (34,229 - 19,232) / 34,229 × 100 " \
        "= 43.81%" in margin.answer, margin.answer
    profit = agent.ask("What was the gross profit in 2022?", reference_date=date(2023, 1, 1))
    assert not profit.figures and "not in the fact store" in profit.answer, profit.answer


def test_an_operand_formula_is_read_checked_and_written_back() -> None:
    spec = {"home": {"company_name": "A", "entity_code": "A"}, "metrics": {
        "R": {"unit": "USD_M"}, "C": {"unit": "USD_M"},
        "G": {"unit": "USD_M", "operand_formula": "R - C"},
        "M": {"unit": "PCT", "formula": "G / R"}}}
    p = DomainProfile.from_dict(spec)
    assert p.metrics["G"].operand_formula == "R - C" and not p.metrics["G"].formula
    assert DomainProfile.from_dict(p.to_dict()).metrics == p.metrics
    bad = {**spec, "metrics": {**spec["metrics"], "R": {"unit": "USD_M",
                                                        "operand_formula": "G + C"}}}
    with pytest.raises(ProfileError, match="computed from itself"):
        DomainProfile.from_dict(bad)
    with pytest.raises(ProfileError, match=r"metrics\.G\.operand_formula 'R - X'.*not metrics"):
        DomainProfile.from_dict({**spec, "metrics": {**spec["metrics"], "G": {
            "unit": "USD_M", "operand_formula": "R - X"}}})


def test_a_capex_line_naming_the_intangibles_bought_is_the_capex(tmp_path: Path) -> None:
    """Amcor's cash flow statement says "Purchase of property, plant, and equipment, and
    other intangible assets": the capital expenditure (its free cash flow was refused as
    'Capital expenditure is not in the fact store')."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cash_flows.csv").write_text(
        "($ million),2023,2022\nNet cash provided by operating activities,\"1,261\",\"1,526\"\n"
        "\"Purchase of property, plant, and equipment, and other intangible assets\","
        "(526),(527)\n", "utf-8")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    answer = agent.ask("What was the free cash flow in FY2023?", reference_date=date(2024, 1, 1)
                       ).answer
    assert "1,261 - 526 (the size of -526) = 735" in answer, answer


def test_cash_flows_asked_in_chinese_reach_the_statement_rows(tmp_path: Path) -> None:
    """"经营活动现金流" (operating cash flow) asked which line item was meant."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cash.csv").write_text("USD millions,2019,2018\nNet cash provided by operating "
                                   "activities,120,100\nNet cash used in investing activities,"
                                   "-40,-30\n", "utf-8")
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    for asked, value in (("2019年的经营活动现金流是多少？", 120.0),
                         ("2019年的投资活动现金流是多少？", -40.0)):
        result = agent.ask(asked, reference_date=date(2020, 1, 1))
        assert [f.value for f in result.figures] == [value], result.answer
