"""Issue 35: real public filings are never locked away (FinanceBench 10-K pages).

A few pages of the 10-Ks in ``../shared/datasets/financebench/pdfs`` (or
``$RAGSPINE_DATA``) where the marking words sit in headings, sentences and table rows
("Summary of Restricted Stock Units", "Restricted Cash", "RESTRICTED STOCK UNIT AWARD
AGREEMENT", "The Board of Directors and Stockholders") go through the real PDF reader and
the classifier with the built-in and the demo profile: none may come out RESTRICTED.
Skipped when the dataset is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.extract.beir import data_root
from ragspine_nb.extract.document import read_document
from tests.conftest import DEMO

pytestmark = pytest.mark.slow

#: (file, 1-based page): pages whose headings, rows and sentences hold marking words.
PAGES = [
    ("ADOBE_2022_10K.pdf", 81),       # "Summary of Restricted Stock Units" and its table
    ("3M_2022_10K.pdf", 127),         # "Restricted stock units 2,375 —" in a table row
    ("3M_2022_10K.pdf", 210),         # "RESTRICTED STOCK UNIT AWARD AGREEMENT" (exhibit)
    ("BESTBUY_2023_10K.pdf", 30),     # "Restricted Cash" heading
    ("ADOBE_2017_10K.pdf", 97),       # "The Board of Directors and Stockholders"
]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import pypdfium2 as pdfium

    folder = data_root() / "financebench" / "pdfs"
    if not all((folder / name).is_file() for name, _ in PAGES):
        pytest.skip(f"FinanceBench PDFs not found under {folder} (set RAGSPINE_DATA)")
    sample = pdfium.PdfDocument.new()
    for name, page in PAGES:
        source = pdfium.PdfDocument(str(folder / name))
        sample.import_pages(source, [page - 1])
        source.close()
    path = tmp_path_factory.mktemp("filings") / "10k_sample.pdf"
    sample.save(str(path))
    sample.close()
    return path


@pytest.mark.parametrize("profile", [DomainProfile.builtin(),
                                     DomainProfile.from_file(DEMO / "profile.toml")],
                         ids=["builtin", "demo"])
def test_public_filing_pages_are_not_restricted(sample: Path, profile: DomainProfile) -> None:
    result = read_document(sample, sample.name, profile)
    assert result.sensitivity == "INTERNAL", result.warnings
    assert not [w for w in result.warnings if w.startswith("sensitivity")]
    assert len(result.chunks) >= len(PAGES)
    if profile.is_builtin:  # its tables are still read (the demo profile dates none)
        assert result.facts
