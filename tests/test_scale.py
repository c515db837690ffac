"""Units as verified fields: what a text states, what a row is, the unit of one figure,
and an unstated scale read from prose (extract/scale.py, extract/prose_scale.py, units.py)."""

from __future__ import annotations

import pytest

from ragspine_nb.core import Fact
from ragspine_nb.extract.prose_scale import ScaleInference, infer_scale, rescale_facts, with_scale
from ragspine_nb.extract.scale import (
    RowKind,
    Stated,
    cell_unit,
    fold_quotes,
    merge_stated,
    read_stated,
    row_kind,
)
from ragspine_nb.units import PLAIN, join_unit, unit_parts, unit_text


def test_typographic_quotes_and_dashes_are_folded() -> None:
    assert fold_quotes("$’000 – “Net”") == "$'000 - \"net\""


@pytest.mark.parametrize("text, scale, currency, money", [
    ("(in millions)", "M", "", False), ("$ in millions", "M", "", True),
    ("(Dollars in thousands)", "K", "", True), ("$’000", "K", "", True),
    ("US$’000", "K", "USD", True), ("RMB'000", "K", "CNY", True), ("€ million", "M", "EUR", True),
    ("£m", "M", "GBP", True), ("USDm", "M", "USD", True), ("(In thousands)", "K", "", False),
    ("(inthousands)", "K", "", False), ("(000s)", "K", "", False), ("in billions", "BN", "", False),
    ("人民币亿元", "100M", "CNY", True), ("万元", "10K", "CNY", True), ("Revenue", "", "", False),
    ("Tonnes of CO2e", "", "", False), ("December 31, 2019", "", "", False),
])
def test_read_stated_scale_and_currency(text: str, scale: str, currency: str, money: bool
                                        ) -> None:
    got = read_stated(text)
    assert (got.scale, got.currency, got.money_scale) == (scale, currency, money)


def test_except_clauses_name_the_rows_they_take_away() -> None:
    a = read_stated("(In millions, except per share amounts)")
    assert (a.scale, a.except_per_share, a.except_shares) == ("M", True, False)
    b = read_stated("in thousands, except share and per share data")
    assert (b.scale, b.except_per_share, b.except_shares) == ("K", True, True)
    c = read_stated("(in thousands, except percentages)")
    assert (c.scale, c.except_percent, c.percent) == ("K", True, False)
    # a scale naming shares is the share counts' own ("Shares (in thousands)")
    assert read_stated("Shares (in thousands)") == Stated(shares_scale="K")


@pytest.mark.parametrize("text", ["%", "(%)", "% of revenue", "Percent", "percentage of sales",
                                  "Expenses as a percentage of revenue", "百分比"])
def test_percent_is_stated(text: str) -> None:
    assert read_stated(text).percent


def test_merge_takes_the_nearest_statement() -> None:
    row, column, table = Stated(), read_stated("Shares (in thousands)"), read_stated("US$m")
    merged = merge_stated(row, column, table)
    assert (merged.scale, merged.currency, merged.shares_scale) == ("M", "USD", "K")
    assert merge_stated(read_stated("(in thousands)"), table).scale == "K"


@pytest.mark.parametrize("label, context, values, money, kind", [
    ("Diluted earnings per share", "", (), False, RowKind.PER_SHARE),
    ("Basic", "Earnings per share:", (), False, RowKind.PER_SHARE),
    ("Cash dividends declared per common share", "", (), False, RowKind.PER_SHARE),
    ("EPS (cents)", "", (), False, RowKind.PER_SHARE),
    ("Weighted-average exercise price", "", (), True, RowKind.PER_SHARE),
    ("Effective tax rate", "", (21.0,), False, RowKind.RATE),
    ("Gross margin %", "", (40.1,), False, RowKind.RATE),
    ("Discount rate (1)", "", (3.5,), False, RowKind.RATE),
    ("Change in statutory federal tax rate", "", (-10.0,), False, RowKind.AMOUNT),
    ("Interest rate swaps", "", (250.0,), False, RowKind.AMOUNT),
    ("Foreign exchange rate (1)", "", (12_500.0,), False, RowKind.AMOUNT),
    ("Effective tax rate", "", (21.0,), True, RowKind.AMOUNT),  # money is never a rate
    ("Current ratio", "", (1.4,), False, RowKind.RATIO),
    ("Number of employees", "", (9800.0,), False, RowKind.COUNT),
    ("Expected life (in years)", "", (6.4,), False, RowKind.COUNT),
    ("Weighted average shares outstanding", "", (), False, RowKind.SHARES),
    ("Outstanding", "Number of Shares", (), False, RowKind.SHARES),
    ("Share-based compensation", "", (), False, RowKind.AMOUNT),
    ("Own shares held", "", (), True, RowKind.AMOUNT),
    ("Revenue", "(In millions, except per share data)", (), False, RowKind.AMOUNT),
])
def test_row_kind(label: str, context: str, values: tuple[float, ...], money: bool,
                  kind: str) -> None:
    assert row_kind(label, context, values, money) == kind


@pytest.mark.parametrize("kind, stated, percent, currency, unit", [
    (RowKind.AMOUNT, "US$m", False, "", "USD_M"),
    (RowKind.AMOUNT, "(in millions)", False, "", "M"),
    (RowKind.AMOUNT, "(in millions)", False, "EUR", "EUR_M"),
    (RowKind.AMOUNT, "", False, "", ""),            # no scale stated: none made up
    (RowKind.AMOUNT, "", False, "USD", "USD"),
    (RowKind.AMOUNT, "(in millions)", True, "", "PCT"),
    (RowKind.PER_SHARE, "(in millions)", False, "", ""),
    (RowKind.PER_SHARE, "US$m", False, "", "USD"),
    (RowKind.RATE, "(in millions)", False, "", "PCT"),
    (RowKind.RATIO, "(in millions)", False, "", ""),
    (RowKind.COUNT, "$ in thousands", False, "", ""),
    (RowKind.SHARES, "(in millions)", False, "", "shares_M"),
    (RowKind.SHARES, "$ in millions", False, "", "shares"),     # a currency's scale
    (RowKind.SHARES, "(in thousands, except share data)", False, "", "shares"),
    (RowKind.SHARES, "(in thousands, except per share data)", False, "", "shares_K"),
])
def test_cell_unit(kind: str, stated: str, percent: bool, currency: str, unit: str) -> None:
    assert cell_unit(kind, read_stated(stated), percent=percent, currency=currency) == unit


# ---------------------------------------------------------------- scale from prose
@pytest.mark.parametrize("figures, prose, scale", [
    # a prose amount that a table figure equals in one scale: $757.3 million = 757,336 k
    ([757_336.0], ["Sales of $757.3 million in 2018."], "K"),
    ([1_382.8], ["Sales of $1,382.8 million."], "M"),
    ([1_382.8], ["Sales were 1,382.8 in total."], None),
    # a round amount tells nothing ("1 million" fits 1,000 k and 1 m alike)
    ([1_000.0], ["about 1 million shares"], None),
    # "million" merely mentioned is not a statement of the table's scale
    ([35_842.0], ["we invested 3.0 million Euro ($3.4 million)"], None),
    # a sentence that states it
    ([35_842.0], ["All amounts are in thousands."], "K"),
    # a currency named between "in" and the scale
    ([35_842.0], ["Expressed in US $000's except share and per share amounts"], "K"),
    ([35_842.0], ["Figures are in RMB thousands."], "K"),
    ([1_382.8], ["(in US$ millions)"], "M"),
    # a year after a currency code is not a scale
    ([35_842.0], ["in US$ 2000 we sold more"], None),
    # two scales stated: nothing is decided
    ([35_842.0], ["in thousands here, in millions there"], None),
])
def test_infer_scale(figures: list[float], prose: list[str], scale: str | None) -> None:
    found = infer_scale(figures, prose)
    assert (found.scale if found else None) == scale


def test_a_stated_scale_reaches_share_counts_only_when_its_clause_spares_them() -> None:
    spared = infer_scale([254.0], ["a calculation (in millions, except per share amounts):"])
    taken = infer_scale([254.0], ["the following (in thousands, except share data):"])
    money = infer_scale([757_336.0], ["Sales of $757.3 million."])
    assert spared is not None and spared.shares
    assert taken is not None and not taken.shares
    assert money is not None and not money.shares


def test_rescale_facts_touches_only_the_unscaled_amounts() -> None:
    def fact(loc: str, unit: str) -> Fact:
        return Fact("M", "C", "NA", "TOTAL", "FY", "2019", 1.0, unit, "t.csv", loc)

    facts = [fact("a", PLAIN), fact("b", "USD"), fact("c", "PCT"), fact("d", "shares"),
             fact("e", PLAIN)]
    found = ScaleInference("K", 2, ("757.3 million",), shares=False)
    got = [f.unit for f in rescale_facts(facts, ["a", "b", "c", "d"], found)]
    assert got == ["K", "USD_K", "PCT", "shares", PLAIN]
    found = ScaleInference("M", 0, ("in millions",), shares=True)
    assert [f.unit for f in rescale_facts(facts, ["d"], found)][3] == "shares_M"


def test_unit_codes() -> None:
    assert [join_unit(a, b) for a, b in (("USD", "M"), ("", "K"), ("shares", "K"))] == \
        ["USD_M", "K", "shares_K"]
    assert (with_scale(PLAIN, "K"), with_scale("USD_M", "K")) == ("K", "USD_M")
    assert unit_parts(PLAIN).factor is None and unit_text(PLAIN) == ""
    assert unit_parts("shares_K").factor == 1e3 and unit_parts("shares_K").currency == "shares"


def test_prose_stating_one_scale_for_amounts_and_another_for_shares() -> None:
    found = infer_scale([1_887.8], [
        "CONSOLIDATED FINANCIAL STATEMENTS (Tabular amounts in millions, unless otherwise "
        "disclosed)", "for the years ended December 31, (shares in thousands, except per "
        "share data):"])
    assert found is not None and (found.scale, found.shares, found.shares_scale) == \
        ("M", False, "K")

    def fact(loc: str, unit: str) -> Fact:
        return Fact("M", "C", "NA", "TOTAL", "FY", "2019", 1.0, unit, "t.csv", loc)

    got = rescale_facts([fact("a", PLAIN), fact("b", "shares")], ["a", "b"], found)
    assert [f.unit for f in got] == ["M", "shares_K"]
    # words split across lines still state it; "(1,000)" beside a label is thousands
    assert infer_scale([53_445.0], ["summarized\nas\nfollows\n(in\nthousands):"]) == \
        ScaleInference("K", 0, ("summarized as follows (in thousands)",), shares=True,
                       shares_scale="K")
    assert read_stated("Number of shares (1,000)").shares_scale == "K"


def test_a_variance_in_dollars_is_an_amount_a_price_in_dollars_is_not() -> None:
    assert row_kind("Product", "Revenue: | 2019 vs. 2018 Variance in Dollars") == \
        RowKind.AMOUNT
    assert row_kind("Closing price (in dollars)") == RowKind.PER_SHARE


def test_one_scale_stated_for_dollars_and_share_amounts_reaches_both() -> None:
    # a running page header in the notes: "(dollars and share amounts in thousands, ...)"
    found = infer_scale([37_390.0], [
        "Notes to Consolidated Financial Statements (Continued) (dollars and share amounts "
        "in thousands, except per share amounts)"])
    assert found is not None and (found.scale, found.shares, found.shares_scale) == \
        ("K", True, "K")
    # the words before the scale never reach back over a sentence's end
    found = infer_scale([12.0], ["1,000 shares were issued. Amounts in thousands."])
    assert found is not None and found.evidence == ("Amounts in thousands",)


def test_the_bisected_scale_vote_equals_the_scan_of_every_cell() -> None:
    import random

    from ragspine_nb.extract.prose_scale import _any_within

    rng = random.Random(11)
    for _ in range(300):
        cells = sorted({round(rng.uniform(1, 10 ** rng.randint(1, 9)), rng.choice((0, 1, 2)))
                        for _ in range(rng.randint(1, 40))})
        pick = rng.choice(cells)
        for factor in (1.0, 1e3, 1e6, 1e9):
            amount = pick * factor * rng.choice((1.0, 1.0004, 0.9996, 1.3))
            slack = amount * rng.choice((0.0, 5e-5, 5e-4))
            scanned = any(abs(v * factor - amount) <= slack for v in cells)
            assert _any_within(cells, amount, slack, factor) == scanned


def test_the_scale_phrases_read_near_their_cores_are_every_phrase_of_real_prose() -> None:
    """TAT-QA's paragraphs and two 10-Ks' page text: the same matches as a full scan."""
    import json

    import pypdfium2 as pdfium
    import pytest

    from ragspine_nb.extract.beir import data_root
    from ragspine_nb.extract.prose_scale import _STATED_IN_PROSE, stated_scale_phrases

    root = data_root()
    texts: list[str] = []
    tatqa = root / "tatqa" / "tatqa_dataset_dev.json"
    if tatqa.exists():
        for context in json.loads(tatqa.read_text(encoding="utf-8")):
            texts.append(" ".join(p["text"] for p in context["paragraphs"]))
    for name in ("NIKE_2021_10K.pdf", "3M_2018_10K.pdf"):
        path = root / "financebench" / "pdfs" / name
        if path.exists():
            doc = pdfium.PdfDocument(str(path))
            texts.append(" ".join(page.get_textpage().get_text_range() for page in doc))
    if not texts:
        pytest.skip(f"no TAT-QA or FinanceBench data under {root}")
    found = 0
    for text in texts:
        expected = [m.span() for m in _STATED_IN_PROSE.finditer(text)]
        assert [m.span() for m in stated_scale_phrases(text)] == expected
        found += len(expected)
    assert found > 100
