from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine_nb import DomainProfile, FactStore
from ragspine_nb.agent import SecurityGate, answer_structured, execute_query_metric
from ragspine_nb.agent.structured import format_value

REF = date(2026, 3, 31)


def test_query_tool_three_statuses(demo_facts: FactStore, profile: DomainProfile) -> None:
    found = execute_query_metric(demo_facts, profile, "营收", "香港", "FY2024")
    assert found.to_dict()["value"] == 1320.0
    assert found.to_dict()["source"] == {"doc": "ACME_FY2025_Results.pptx",
                                         "locator": "slide=3,table=1,row=REVENUE,col=FY2024"}
    miss = execute_query_metric(demo_facts, profile, "revenue", "hong kong", "2030")
    assert miss.to_dict() == {"status": "not_found", "normalized": {
        "metric_code": "REVENUE", "entity": "ACME_HK", "period_type": "FY", "period": "2030",
        "channel": "TOTAL"}}
    for args, param in ((("ebitda", "hk", "2024"), "metric"),
                        (("revenue", "some unknown company", "2024"), "entity"),
                        (("revenue", "hong kong", "24"), "period")):
        assert execute_query_metric(demo_facts, profile, *args).to_dict()["param"] == param
    typo = execute_query_metric(demo_facts, profile, "revenue", "hong kong", "FY2024", "agnecy")
    assert typo.status == "not_found" and typo.to_dict()["normalized"]["channel"] == "agnecy"


@pytest.mark.parametrize("question, value, lang", [
    ("What was ACME Hong Kong's revenue in FY2024?", "1,320 USD_M", "en"),
    ("中国内地2024年的营业收入是多少？", "1,580 USD_M", "zh"),
    ("香港代理人渠道FY2025新单保费", "835 USD_M", "zh"),
    ("ACME Mainland China operating profit FY2025", "-36 USD_M", "en"),
    ("集团2025年上半年营收", "2,290 USD_M", "zh"),
    ("Group ROE FY2021", "11.9 PCT", "en"),
])
def test_found_answers_carry_value_and_source(demo_facts: FactStore, profile: DomainProfile,
                                              question: str, value: str, lang: str) -> None:
    ans = answer_structured(question, demo_facts, profile, reference_date=REF)
    assert ans.status == "found" and ans.language == lang
    assert value in ans.text
    assert len(ans.sources) == 1 and ans.sources[0].doc in ans.text
    assert ans.sources[0].locator in ans.text
    assert ("来源" in ans.text) == (lang == "zh")


def test_missing_entity_and_period_are_assumed_and_stated(demo_facts: FactStore,
                                                          profile: DomainProfile) -> None:
    ans = answer_structured("营运利润是多少？", demo_facts, profile, reference_date=REF)
    assert ans.status == "found" and "1,105" in ans.text
    assert ans.assumptions == ("entity=ACME_GROUP", "period=FY2025")
    assert ans.text.startswith("（假设：entity=ACME_GROUP、period=FY2025）")


def test_missing_metric_asks_back_with_options(demo_facts: FactStore,
                                              profile: DomainProfile) -> None:
    ans = answer_structured("How did Hong Kong do in 2024?", demo_facts, profile,
                            reference_date=REF)
    assert ans.status == "ask_first" and ans.sources == ()
    assert ans.narrowing_options == ("REVENUE", "NEW_SALES", "OPERATING_PROFIT", "ROE")


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d[\d,.]*", text)


@pytest.mark.parametrize("question", [
    "香港银保渠道2025年新单保费是多少？", "What was ACME Hong Kong's revenue in FY2030?",
    "ACME Mainland China ROE 2025H1", "What was Mainland China's ROE in FY2025?",
])
def test_a_miss_is_an_honest_refusal_without_numbers(demo_facts: FactStore,
                                                     profile: DomainProfile, question: str) -> None:
    ans = answer_structured(question, demo_facts, profile, reference_date=REF)
    assert ans.status == "not_found" and ans.sources == ()
    # the only digits are the period the user asked about
    assert not _numbers(re.sub(r"(FY)?20\d\d(H[12]|Q[1-4])?", "", ans.text)), ans.text


@pytest.mark.parametrize("question", [
    "竞安2024年的营收是多少？", "竞 安的营收", "竞\u200b安的营收", "ＲＩＶＡＬＩＳ revenue 2024",
    "rivalis holdings revenue", "What is JINGAN SECURITIES' ROE?", "竞安证券和香港的营收对比",
])
def test_competitor_questions_are_refused_before_any_lookup(
        profile: DomainProfile, question: str) -> None:
    class Exploding(FactStore):
        def query(self, *a: object, **k: object) -> None:  # type: ignore[override]
            raise AssertionError("the fact store must not be reached")

    ans = answer_structured(question, Exploding(), profile, reference_date=REF)
    assert ans.status == "refused" and ans.sources == ()
    assert not _numbers(ans.text)


def test_gate_masks_the_whole_competitor_name(profile: DomainProfile) -> None:
    verdict = SecurityGate(profile).screen("竞安证券的营收")
    assert [h.alias for h in verdict.hits] == ["竞安证券"]
    assert verdict.masked_text == "    的营收"


@pytest.mark.parametrize("value, text", [(1320.0, "1,320"), (12.5, "12.5"), (-42.3, "-42.3"),
                                         (0.125, "0.125"), (1e6, "1,000,000")])
def test_format_value(value: float, text: str) -> None:
    assert format_value(value) == text
