from __future__ import annotations

import re

from ragspine_nb import ChunkStore, DomainProfile, FactStore
from ragspine_nb.display import Card, Table, render_html, render_text
from tests.conftest import make_chunk, make_fact

EVIL = '<script>alert("x")</script>&<img src=x onerror=1>'


def _no_network(html: str) -> None:
    assert not re.search(r"(src|href)\s*=\s*['\"]?(https?:)?//", html)
    assert "@import" not in html and "url(" not in html


def test_html_escapes_every_user_string() -> None:
    card = Card(title=EVIL, subtitle=EVIL, stats=((EVIL, EVIL),),
                tables=(Table(EVIL, (EVIL,), ((EVIL,),)),), notes=(EVIL,))
    html = render_html(card)
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    _no_network(html)


def test_html_is_deterministic_and_has_a_text_fallback() -> None:
    card = Card(title="T", stats=(("facts", "3"),), tables=(Table("c", ("a",), (("1",),), 5),))
    assert render_html(card) == render_html(card)
    assert "… 4 more rows" in render_text(card)
    assert "<details>" in render_html(card) and "facts: 3" in render_html(card)
    assert not re.search(r"0x[0-9a-f]{6,}", render_html(card))


def test_long_cells_are_clipped() -> None:
    html = render_html(Card("T", tables=(Table("c", ("a",), (("y" * 5000,),)),)))
    assert "y" * 200 not in html and "…" in html


def test_fact_store_display_shows_counts_preview_and_lineage() -> None:
    store = FactStore()
    store.upsert([make_fact(period="1999", source_file_hash="ab" * 32, extractor_version="pptx@1",
                            source_locator=EVIL)]
                 + [make_fact(period=str(2000 + i)) for i in range(12)])
    html = store._repr_html_()
    assert "facts: <b>13</b>" in html
    assert "pptx@1" in html and "abababababab" in html and "slide=2,table=1" in html
    assert "… 3 more rows" in html
    assert "<script>" not in html
    _no_network(html)
    assert repr(store) == "FactStore(path=':memory:', facts=13)"
    assert store._repr_html_() == html


def test_chunk_store_display_hides_restricted_text() -> None:
    store = ChunkStore()
    store.replace_doc_chunks("pub.md", [make_chunk("pub.md", 0, text="public growth story")])
    store.replace_doc_chunks("bm.md", [make_chunk("bm.md", 0, text="CANARY-R01 secret plan",
                                                  sensitivity="restricted\u200b")])
    html = store._repr_html_()
    assert "public growth story" in html
    assert "CANARY" not in html and "[restricted text hidden]" in html
    assert "restricted chunks: <b>1</b>" in html
    assert repr(store) == "ChunkStore(path=':memory:', active_chunks=2, documents=2)"
    _no_network(html)


def test_profile_display(profile: DomainProfile) -> None:
    html = profile._repr_html_()
    assert "ACME Group" in html and "REVENUE" in html and "香港" in html
    _no_network(html)


def test_every_rich_object_renders_deterministic_offline_html(demo_ws) -> None:  # type: ignore[no-untyped-def]
    from datetime import date

    from ragspine_nb import Agent, NarrativeIndex
    from ragspine_nb.ingestion.workspace import Workspace

    ws = Workspace(demo_ws)
    index = NarrativeIndex(ws.chunks, profile=ws.profile)
    agent = Agent(ws.facts, index, profile=ws.profile)
    objects = [ws.facts, ws.chunks, ws.profile, index, index.topology(), agent,
               index.search("bancassurance", top_k=5),
               agent.ask("Why did Mainland China revenue fall in FY2025?", date(2026, 3, 31))]
    for obj in objects:
        html = obj._repr_html_()
        assert html == obj._repr_html_(), type(obj).__name__
        _no_network(html)
        assert "<script" not in html and "prefers-color-scheme" in html
        assert repr(obj) and not re.search(r"0x[0-9a-f]{6,}", repr(obj))
        assert "CANARY" not in html


def test_fact_store_display_writes_numbers_as_people_read_them() -> None:
    store = FactStore()
    store.upsert([make_fact(period="2020", value=4310500.0), make_fact(period="2021", value=0.125)])
    html = store._repr_html_()
    assert "<td>4,310,500</td>" in html and "<td>0.125</td>" in html
    assert "e+06" not in html


def test_rich_objects_get_their_html_from_one_mixin() -> None:
    """``_repr_html_`` / ``_repr_mimebundle_`` are written once, in display/mixin.py."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "ragspine_nb"
    defined = sorted(
        f"{p.relative_to(root)}:{n.name}" for p in root.rglob("*.py")
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(n, ast.FunctionDef) and n.name in ("_repr_html_", "_repr_mimebundle_"))
    assert defined == ["display/mixin.py:_repr_html_", "display/mixin.py:_repr_mimebundle_"]


def test_the_mimebundle_carries_escaped_html_and_the_repr() -> None:
    from ragspine_nb.agent.conversation import Conversation, transcript
    from ragspine_nb.display import CardReprMixin
    from ragspine_nb.display.render import render_transcript
    from ragspine_nb.stores.conversations import Message

    store = FactStore(":memory:")
    bundle = store._repr_mimebundle_()
    assert isinstance(store, CardReprMixin) and bundle["text/plain"] == repr(store)
    assert bundle["text/html"] == store._repr_html_()
    assert store._repr_mimebundle_(include=["text/plain"]) == {"text/plain": repr(store)}
    shown = render_transcript(transcript([Message("user", EVIL, 1, "t", ({"doc": EVIL,
                                                                           "locator": "p1"},))]))
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert issubclass(Conversation, CardReprMixin)
