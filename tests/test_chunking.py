from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_nb.extract.chunking import chunk_document, pack_spans, paragraph_spans

DOC = (
    "ACME Group FY2024 review\n"
    "\n"
    "Revenue grew to US$4,500 million.\n"
    "\n\n"
    "  Hong Kong agency sales recovered after travel reopened.  \n"
    "Mainland China fell.\n"
)


def test_paragraphs_are_non_blank_lines_numbered_from_one() -> None:
    spans = paragraph_spans(DOC)
    assert [DOC[s.start:s.end] for s in spans] == [
        "ACME Group FY2024 review", "Revenue grew to US$4,500 million.",
        "Hong Kong agency sales recovered after travel reopened.", "Mainland China fell."]
    assert [s.first_para for s in spans] == [1, 2, 3, 4]


def test_chunks_keep_blank_lines_and_are_exact_slices() -> None:
    chunks = chunk_document(DOC, "review.md", max_chars=480, overlap_chars=80)
    assert len(chunks) == 1
    assert chunks[0].text == DOC.strip()
    assert chunks[0].text in DOC and "\n\n\n  Hong Kong" in chunks[0].text
    assert chunks[0].source_locator == "para=1-4"


def test_packing_with_overlap_repeats_trailing_paragraphs() -> None:
    src = "\n\n".join(f"Paragraph number {i} here." for i in range(1, 7))  # 23-24 chars each
    chunks = chunk_document(src, "d", max_chars=60, overlap_chars=30)
    assert [c.source_locator for c in chunks] == ["para=1-2", "para=2-3", "para=3-4",
                                                  "para=4-5", "para=5-6"]
    assert all(c.text in src and len(c.text) <= 60 for c in chunks)


def test_oversized_paragraph_splits_at_sentence_enders_without_overlap() -> None:
    para = "第一句很长的话。" * 3 + "Second sentence here! " + "x" * 50
    src = f"short intro\n{para}\nShort outro"
    chunks = chunk_document(src, "d", max_chars=30, overlap_chars=10)
    locs = [c.source_locator for c in chunks]
    assert locs[0] == "para=1" and locs[-1] == "para=3"
    parts = [c for c in chunks if "part=" in c.source_locator]
    expected = [f"para=2,part={i}" for i in range(1, len(parts) + 1)]
    assert [c.source_locator for c in parts] == expected
    assert parts[0].text == "第一句很长的话。第一句很长的话。第一句很长的话。"
    pieces = [s for s in pack_spans(src, paragraph_spans(src), 30, 10) if s.part]
    assert [src[s.start:s.end] for s in pieces] == [c.text for c in parts]
    for a, b in zip(pieces, pieces[1:], strict=False):
        assert a.end <= b.start  # pieces never overlap
    assert [len(c.text) for c in parts[-2:]] == [29, 21]  # the 50-char run was hard-cut


def test_prefix_metadata_ids_and_seq() -> None:
    chunks = chunk_document("a\nb", "deck.pptx", max_chars=1, overlap_chars=0,
                            source_locator_prefix="slide=4", seq_start=7, entity="ACME_HK",
                            sensitivity="RESTRICTED", language="en")
    assert [c.source_locator for c in chunks] == ["slide=4,para=1", "slide=4,para=2"]
    assert [c.seq for c in chunks] == [7, 8]
    assert chunks[0].chunk_id.startswith("deck.pptx#7-") and chunks[0].entity == "ACME_HK"
    assert all(c.sensitivity == "RESTRICTED" for c in chunks)


@pytest.mark.parametrize("kwargs", [dict(max_chars=0), dict(max_chars=-5),
                                    dict(overlap_chars=-1), dict(max_chars=50, overlap_chars=50),
                                    dict(max_chars=50, overlap_chars=80), dict(max_chars=1.5)])
def test_invalid_sizes_raise(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        chunk_document("text", "d", **kwargs)  # type: ignore[arg-type]


def test_blank_text_gives_no_chunks() -> None:
    assert chunk_document(" \n\n\t\n", "d") == []


TEXT = st.text(alphabet=st.sampled_from(list("ab 。.!\n\n\t中文字")), max_size=400)


@settings(max_examples=300, deadline=None)
@given(text=TEXT, max_chars=st.integers(1, 60), overlap=st.integers(0, 59))
def test_every_chunk_is_a_slice_and_every_paragraph_is_covered(text: str, max_chars: int,
                                                               overlap: int) -> None:
    overlap = min(overlap, max_chars - 1)
    paras = paragraph_spans(text)
    spans = pack_spans(text, paras, max_chars, overlap)
    chunks = chunk_document(text, "d", max_chars=max_chars, overlap_chars=overlap)
    assert len(chunks) == len(spans)
    covered = set()
    for span, chunk in zip(spans, chunks, strict=True):
        assert text[span.start:span.end] == chunk.text
        assert len(chunk.text) <= max_chars and chunk.text.strip() == chunk.text
        covered.update(range(span.start, span.end))
    for p in paras:  # every non-space character of every paragraph lands in some chunk
        assert all(i in covered for i in range(p.start, p.end) if not text[i].isspace())
    assert len({c.chunk_id for c in chunks}) == len(chunks)


MDNA = (
    "Item 7. Management's Discussion and Analysis of Financial Condition\n"
    "Results of Operations\n"
    "Revenue in fiscal 2023 decreased compared with fiscal 2022 in every category we sell,\n"
    "primarily driven by comparable sales declines in computing and home theater.\n"
    "Selected financial data for the Domestic segment was as follows ($ in millions):\n"
    "Revenue $ 42,794 $ 47,830\n"
    "Gross profit $ 9,011 $ 10,531\n"
    "Liquidity and Capital Resources\n"
    "Cash and cash equivalents were lower at the end of the year than at its start.\n"
)


def test_a_heading_starts_a_chunk_and_a_table_stays_with_its_caption() -> None:
    chunks = chunk_document(MDNA, "bby.pdf", max_chars=300, overlap_chars=120)
    texts = [c.text for c in chunks]
    assert all(t in MDNA for t in texts)
    # the item and its first sub-heading open the first chunk; the wrapped sentence stays
    # whole; the caption opens the next chunk with its rows; no chunk repeats another's
    assert texts[0].startswith("Item 7.") and texts[0].endswith("home theater.")
    assert texts[1].startswith("Selected financial data") and texts[1].endswith("10,531")
    assert texts[2].startswith("Liquidity and Capital Resources")
    assert [c.source_locator for c in chunks] == ["para=1-4", "para=5-7", "para=8-9"]


def test_a_wrapped_sentence_is_never_cut_between_chunks() -> None:
    src = ("Revenue in fiscal 2023 decreased compared with fiscal 2022 primarily due to\n"
           "comparable sales declines across most of the categories that we sell.\n"
           "Operating income fell as well.")
    chunks = chunk_document(src, "d", max_chars=160, overlap_chars=0)
    assert chunks[0].text.endswith("categories that we sell.")
    assert chunks[0].source_locator == "para=1-2"
    # a short line ending no sentence (a label) is no wrapped line
    labels = chunk_document("Fiscal Year\nrevenue fell.", "d", max_chars=15, overlap_chars=0)
    assert [c.text for c in labels] == ["Fiscal Year", "revenue fell."]
