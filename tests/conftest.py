from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine_nb import Chunk, DomainProfile, Fact, FactStore

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "ragspine_nb" / "demo"


@pytest.fixture(scope="session")
def profile() -> DomainProfile:
    return DomainProfile.from_file(DEMO / "profile.toml")


@pytest.fixture
def fact_db() -> Iterator[FactStore]:
    with FactStore(":memory:") as db:  # closed: Python 3.13 warns about an unclosed database
        yield db


def make_fact(**over: object) -> Fact:
    base: dict[str, object] = dict(
        metric_code="REVENUE", entity="ACME_HK", geography="HK", channel="TOTAL",
        period_type="FY", period="2024", value=1320.0, unit="USD_M",
        source_doc_id="ACME_FY2024_Review.pptx",
        source_locator="slide=2,table=1,row=REVENUE,col=FY2024",
    )
    base.update(over)
    return Fact(**base)  # type: ignore[arg-type]


#: A recursive query that never ends: what a read's time limit must stop.
INFINITE = ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
            "SELECT count(*) AS n FROM r")


def store_fact(metric: str = "REVENUE", value: float = 1405.0, period: str = "2025") -> Fact:
    """A Hong Kong fact of the demo deck, for the store attack tests."""
    return Fact(metric, "ACME_HK", "HK", "TOTAL", "FY", period, value, "USD_M",
                "ACME_FY2025_Results.pptx", f"slide=4,row={metric},col=FY{period}")


#: The facts the store attack tests write before each attack.
STORE_FACTS = [store_fact(), store_fact("NEW_SALES", 310.5), store_fact("REVENUE", 1320.0, "2024")]


def make_chunk(doc: str = "doc.md", seq: int = 0, text: str | None = None, **over: object) -> Chunk:
    base: dict[str, object] = dict(
        doc_id=doc, chunk_id=f"{doc}#{seq}", seq=seq, text=text or f"paragraph {seq} of {doc}",
        source_locator=f"para={seq + 1}",
    )
    base.update(over)
    return Chunk(**base)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def demo_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo corpus ingested once per test session (a workspace folder)."""
    from ragspine_nb.cli.commands import build_demo

    ws = tmp_path_factory.mktemp("demo") / "ws"
    report = build_demo(ws)
    assert report.count("failed") == 0
    return ws


@pytest.fixture
def demo_facts(demo_ws: Path) -> FactStore:
    return FactStore(demo_ws / "facts.db", create=False)
