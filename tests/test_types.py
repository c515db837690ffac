from __future__ import annotations

import math

import pytest

from ragspine_nb import Chunk, Fact, LineageError
from ragspine_nb.core import (
    FoundResult,
    NotFoundResult,
    StoredChunk,
    UnrecognizedParamResult,
    is_restricted,
)
from ragspine_nb.errors import InvalidRecordError
from tests.conftest import make_chunk, make_fact


def test_fact_takes_the_ten_seed_fields_positionally() -> None:
    f = Fact("REVENUE", "ACME_CN", "CN", "TOTAL", "FY", "2024", 1320, "USD_M",
             "ACME_FY2024_Review.pptx", "slide=2,table=1,row=REVENUE,col=FY2024")
    assert (f.metric_code, f.period_type, f.period, f.value) == ("REVENUE", "FY", "2024", 1320.0)
    assert isinstance(f.value, float)
    assert f.source.to_dict() == {"doc": "ACME_FY2024_Review.pptx",
                                  "locator": "slide=2,table=1,row=REVENUE,col=FY2024"}
    assert (f.source_file_hash, f.extractor_version, f.mapping_version, f.valid_as_of,
            f.ingested_at) == ("", "", "", "", "")


@pytest.mark.parametrize("field", ["source_doc_id", "source_locator"])
@pytest.mark.parametrize("bad", ["", "   ", "\t\n", None, 7])
def test_fact_without_lineage_cannot_exist(field: str, bad: object) -> None:
    with pytest.raises(LineageError, match=field):
        make_fact(**{field: bad})


@pytest.mark.parametrize("bad", [math.nan, math.inf, "12", True, None])
def test_fact_value_must_be_a_finite_number(bad: object) -> None:
    with pytest.raises(InvalidRecordError, match="value"):
        make_fact(value=bad)


def test_fact_period_type_lists_valid_options() -> None:
    with pytest.raises(InvalidRecordError, match=r"\['FY', 'HY', 'QUARTER'\]"):
        make_fact(period_type="MONTH")


@pytest.mark.parametrize("field", ["doc_id", "source_locator"])
def test_chunk_without_lineage_cannot_exist(field: str) -> None:
    with pytest.raises(LineageError):
        make_chunk(**{field: " "})


def test_chunk_rejects_bad_seq_and_blank_text() -> None:
    with pytest.raises(InvalidRecordError):
        make_chunk(seq=-1)
    with pytest.raises(InvalidRecordError):
        make_chunk(text="   ")


def test_stored_chunk_is_a_chunk_with_version() -> None:
    c = StoredChunk(doc_id="d", chunk_id="d#0", seq=0, text="t", source_locator="para=1",
                    version=3, active=False)
    assert isinstance(c, Chunk) and c.version == 3 and c.active is False


@pytest.mark.parametrize("label", ["RESTRICTED", "restricted", "Restricted", " RESTRICTED ",
                                   "RESTRICTED\u200b", "ＲＥＳＴＲＩＣＴＥＤ", "\u00a0restricted",
                                   # fail closed: any label that mentions restricted or board
                                   "UNRESTRICTED", "RESTRICTED-ish", "Restricted - Board only",
                                   "CONFIDENTIAL \u2013 BOARD", "Strictly confidential"])
def test_every_spelling_of_restricted_is_restricted(label: str) -> None:
    assert is_restricted(label)
    assert make_chunk(sensitivity=label).restricted


@pytest.mark.parametrize("label", ["INTERNAL", "PUBLIC", "CONFIDENTIAL", " confidential ", ""])
def test_other_labels_are_not_restricted(label: str) -> None:
    assert not is_restricted(label)


def test_query_results_have_the_seed_json_shape() -> None:
    found = FoundResult(make_fact(entity="ACME_CN", geography="CN")).to_dict()
    assert found["status"] == "found" and found["value"] == 1320.0
    assert found["source"] == {"doc": "ACME_FY2024_Review.pptx",
                               "locator": "slide=2,table=1,row=REVENUE,col=FY2024"}
    assert NotFoundResult("REVENUE", "ACME_CN", "FY", "2025", "TOTAL").to_dict() == {
        "status": "not_found",
        "normalized": {"metric_code": "REVENUE", "entity": "ACME_CN", "period_type": "FY",
                       "period": "2025", "channel": "TOTAL"},
    }
    assert UnrecognizedParamResult("entity", "some unknown company").to_dict() == {
        "status": "unrecognized_param", "param": "entity", "raw": "some unknown company"}


def test_nul_characters_are_refused_because_sqlite_would_truncate_them() -> None:
    with pytest.raises(InvalidRecordError, match="NUL"):
        make_chunk(text="\x00")
    with pytest.raises(InvalidRecordError, match="NUL"):
        make_fact(source_locator="row=1\x00; DROP")
