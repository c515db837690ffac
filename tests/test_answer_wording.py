"""Answers and reports in the reader's words: unit labels, contiguous citations, what was
not read and where a missing figure is mentioned."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import openpyxl

from ragspine_nb import Agent, FactStore, ingest
from ragspine_nb.agent.narrative.channel import _with_sources
from ragspine_nb.core import Snippet
from ragspine_nb.units import unit_label, with_unit

REF = date(2026, 3, 31)


def test_units_are_written_as_readers_write_them() -> None:
    assert [unit_label(c) for c in ("USD_M", "USD_K", "EUR_M", "PCT", "CNY_100M", "shares")] == \
        ["US$ m", "US$ k", "€ m", "%", "CNY ×100m", "shares"]
    assert unit_label("CNY_100M", "zh") == "亿元"
    assert with_unit("27.6", "CNY_100M", "zh") == "27.6亿元"
    assert with_unit("13.4", "PCT") == "13.4%" and with_unit("1,405", "USD_M") == "1,405 US$ m"


def test_a_found_answer_shows_labels_not_codes(demo_ws: Path) -> None:
    agent = Agent.from_workspace(demo_ws)
    r = agent.ask("What was ACME Hong Kong's revenue in FY2025?", REF)
    assert r.answer.startswith("ACME Hong Kong Revenue, FY2025: 1,405 US$ m (source: ")
    assert [(f.value, f.unit) for f in r.figures] == [(1405.0, "USD_M")]  # data keeps codes
    miss = agent.ask("What was Hong Kong revenue in FY2026?", REF)
    assert miss.answer.startswith("Not found: ACME Hong Kong Revenue, FY2026 is not in the "
                                  "fact store; no estimate is given.")
    agent.close()


def _snip(n: int, doc: str, loc: str) -> Snippet:
    return Snippet(f"passage {n}", doc, loc, chunk_id=f"c{n}")


def test_citations_are_renumbered_in_order_one_number_per_source() -> None:
    snippets = [_snip(1, "a.md", "p1"), _snip(2, "b.md", "p2"), _snip(3, "c.md", "p3"),
                _snip(4, "a.md", "p1")]
    text, sources, passages = _with_sources("Up [3]. Down [1] [4]. Flat [3].", snippets, "en")
    assert text == "Up [1]. Down [2]. Flat [1].\nSources:\n[1] c.md · p3\n[2] a.md · p1"
    assert sources == ({"doc": "c.md", "locator": "p3"}, {"doc": "a.md", "locator": "p1"})
    assert [(c.index, c.doc_id) for c in passages] == [(1, "c.md"), (2, "a.md")]


def _transposed(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Baltics"
    for row in (["Period", "Revenue", "EBITDA"], ["FY2023", 95.0, 18.0],
                ["FY2024", 100.5, 20.1], ["FY2025", 110.2, 25.3]):
        ws.append(row)
    wb.save(path)
    return path


def test_a_transposed_sheet_is_read_turned_and_cited_as_written(tmp_path: Path) -> None:
    report = ingest([_transposed(tmp_path / "Baltics.xlsx")], tmp_path / "ws")
    (only,) = report.files
    assert only.status == "ingested" and only.facts == 6
    with FactStore(tmp_path / "ws" / "facts.db", create=False) as store:
        facts = sorted((f.metric_code, f.period, f.value, f.source_locator)
                       for f in store.iter_facts())
    assert facts == [("EBITDA", "2023", 18.0, "sheet=Baltics!C2"),
                     ("EBITDA", "2024", 20.1, "sheet=Baltics!C3"),
                     ("EBITDA", "2025", 25.3, "sheet=Baltics!C4"),
                     ("REVENUE", "2023", 95.0, "sheet=Baltics!B2"),
                     ("REVENUE", "2024", 100.5, "sheet=Baltics!B3"),
                     ("REVENUE", "2025", 110.2, "sheet=Baltics!B4")]


def test_periods_down_under_two_header_rows_are_named_not_misread(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Baltics"
    for row in (["", "Revenue", "EBITDA"], ["Period", "USD m", "USD m"], ["FY2023", 95.0, 18.0],
                ["FY2024", 100.5, 20.1], ["FY2025", 110.2, 25.3]):
        ws.append(row)
    wb.save(tmp_path / "Baltics.xlsx")
    report = ingest([tmp_path / "Baltics.xlsx"], tmp_path / "ws")
    (only,) = report.files
    assert only.status == "no_text" and only.facts == 0
    assert only.reason == ("no facts and no text: sheet=Baltics!A1: periods run down the first "
                           "column under more than one header row naming columns — layout not "
                           "supported (put the periods in the header row)")


def test_a_miss_points_to_the_passages_that_mention_it(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "results.csv").write_text("USD m,FY2024,FY2025\nRevenue,1320,1405\n",
                                      encoding="utf-8")
    (docs / "letter.md").write_text(
        "# Chairman's letter\n\nRevenue in FY2023 was restated after the disposal.\n\n"
        "Our people worked hard.\n", encoding="utf-8")
    ingest([docs], tmp_path / "ws")
    agent = Agent.from_workspace(tmp_path / "ws")
    r = agent.ask("What was revenue in FY2023?", REF)
    assert r.figures == () and "not in the fact store" in r.answer
    assert r.answer.endswith("Passages in the sources below mention it (to read; no figure "
                             "is taken from them).\nSources:\n- letter.md · para=1-3")
    assert {"doc": "letter.md", "locator": "para=1-3"} in r.sources
    agent.close()


def test_a_transcript_lists_each_source_once() -> None:
    from ragspine_nb.display.render import Message, render_transcript

    html = render_transcript([Message("assistant", "Agent", "Up. [1]\nSources:\n[1] a.md · p1",
                                      (("a.md", "p1"), ("b.md", "p2")))])
    assert html.count("a.md · p1") == 1 and "<li>b.md · p2</li>" in html
