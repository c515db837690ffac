"""A segment's table is not the company's: its figures never answer for the whole.

3M's 10-K states each business segment's sales change in a table titled by the segment
("Transportation and Electronics Business (26.0% of consolidated sales):"). Filed under
the filer, "How did 3M net sales change from 2021 to 2022?" answered the segment's
−3.9% as 3M's. A table whose titles name one part of the company (and no entity the
profile knows) gives no fact of the company and says why; a part the profile names as an
entity is read under it. And a row phrase dropped for having no figure ("sales change"
beside "net sales") no longer hides the change the question asks.
"""

from __future__ import annotations

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.agent.reading.intent import RuleIntentParser
from ragspine_nb.extract.table_part import company_part
from ragspine_nb.extract.tables import TableContext, extract_table
from ragspine_nb.profile_fields import MetricSpec
from ragspine_nb.vocabulary import Vocabulary, merge_vocabulary

SEGMENT = [["", "2022", "2021"],
           ["Sales (millions)", "$ 8,902", "$ 9,262"],
           ["Organic sales", "1.2 %", "8.7 %"],
           ["Total sales change", "(3.9) %", "10.2 %"]]


def _ctx(*titles: str, entity: str | None = None) -> TableContext:
    return TableContext(doc_id="10k.pdf", titles=titles, entity=entity,
                        locate=lambda r, c, rk, cl: f"page=31,table=1,r{r}c{c}",
                        source_file_hash="h" * 64, extractor_version="x@1",
                        mapping_version="m")


@pytest.mark.parametrize("titles, part", [
    (["Transportation and Electronics Business (26.0% of consolidated sales):"],
     "Transportation and Electronics"),
    (["Safety and Industrial Business (33.9% of consolidated sales):"], "Safety and Industrial"),
    (["Consumer Business:"], "Consumer"),
    (["Health Care Division"], "Health Care"),
    (["International Segment"], "International"),
    (["Selected financial data for the Domestic segment was as follows ($ in millions):"],
     "Domestic"),
    (["Cloud (41% of total revenue)"], "Cloud"),
    (["Table of Contents", "Consumer Business (15.0% of consolidated sales):"], "Consumer"),
])
def test_a_title_naming_one_part(titles: list[str], part: str) -> None:
    assert company_part(titles) == part


@pytest.mark.parametrize("titles", [
    ["Sales and operating income by business segment"],
    ["Business Segment Information"],
    ["Business segment"],
    ["Total Segment"],
    ["Reportable Segment"],
    ["Operating segments:"],
    ["Net sales by segment were as follows:"],
    ["Results of Operations"],
    ["Consolidated Statement of Income"],
    ["Year 2022 results:"],
    ["the company's business"],
    ["Information for the Company's reportable segments is as follows:"],
    [],
])
def test_a_title_naming_no_one_part(titles: list[str]) -> None:
    assert company_part(titles) == ""


def test_a_segment_table_gives_no_fact_of_the_company() -> None:
    title = "Transportation and Electronics Business (26.0% of consolidated sales):"
    out = extract_table(DomainProfile.builtin(), SEGMENT, _ctx(title))
    assert out.facts == []
    assert [(s.locator, s.reason.split(":")[0]) for s in out.skipped] == [
        ("page=31,table=1,r0c0", "a table of one part of the company ('Transportation and "
                                 "Electronics', named in its title)")]
    # the same table under a title naming no part is the company's
    plain = extract_table(DomainProfile.builtin(), SEGMENT, _ctx("Sales change analysis"))
    assert {f.entity for f in plain.facts} == {"COMPANY"} and len(plain.facts) == 6


def test_a_part_the_profile_knows_is_read_under_it(profile: DomainProfile) -> None:
    out = extract_table(profile, [["US$m", "FY2024", "FY2025"], ["Revenue", "1,320", "1,405"]],
                        _ctx("ACME Hong Kong Business (12% of consolidated revenue)"))
    assert {(f.entity, f.value) for f in out.facts} == {("ACME_HK", 1320.0),
                                                        ("ACME_HK", 1405.0)}


def test_a_dropped_row_phrase_leaves_the_change_cue() -> None:
    # "sales change" is a row of the folder's vocabulary with no stored figure: "net
    # sales" is the row asked, and "change" the operation
    profile = merge_vocabulary(DomainProfile.builtin(), Vocabulary(metrics=(MetricSpec(
        "TOTAL_SALES_CHANGE", "", label="Total sales change",
        synonyms=("total sales change", "sales change")),)))
    parser = RuleIntentParser(profile, live_metrics={"REVENUE"})
    intent = parser.parse("How did 3M net sales change from 2021 to 2022?")
    assert intent.metrics == ("REVENUE",)
    assert intent.change_cue
