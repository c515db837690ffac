"""The typed hand-off between the channels and the answer (Snippet, Citation, outcomes)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb.agent.agent import Agent
from ragspine_nb.agent.narrative.channel import run_narrative
from ragspine_nb.agent.write.render import citations
from ragspine_nb.core import Citation, NarrativeOutcome, Snippet, ToolOutcome


def test_a_snippet_reads_as_its_mapping_and_refuses_a_passage_without_a_source() -> None:
    raw = {"text": "Revenue rose 5%.", "doc_id": "a.md", "source_locator": "p1",
           "scores": {"fused": 0.5}, "unknown": 1}
    s = Snippet.coerce(raw)
    assert (s.text, s.doc_id, s.source_locator, s.scores["fused"]) == \
        ("Revenue rose 5%.", "a.md", "p1", 0.5)
    assert s["doc_id"] == "a.md" and s.get("title") == "" and "unknown" not in s
    assert Snippet.coerce(s) is s
    assert json.loads(json.dumps(s.to_dict()))["source_locator"] == "p1"
    with pytest.raises(KeyError, match="source_locator"):
        Snippet.coerce({"text": "x", "doc_id": "a.md"})


def test_citations_number_passages_then_facts_then_other_sources() -> None:
    passage = Citation(1, "passage", "a.md", "p1", "A", "Revenue rose.")
    fact = {"status": "found", "value": 1320.0, "unit": "USD_M",
            "source": {"doc": "t.xlsx", "locator": "Sheet1!B2"},
            "metric_code": "REVENUE", "entity": "ACME", "period": "2025", "channel": "TOTAL"}
    out = citations([passage], [fact], [{"doc": "t.xlsx", "locator": "Sheet1!B2"},
                                        {"doc": "n.md", "locator": "para 3"}], None)
    assert [(c.index, c.kind, c.doc_id, c.locator) for c in out] == [
        (1, "passage", "a.md", "p1"), (2, "fact", "t.xlsx", "Sheet1!B2"),
        (3, "source", "n.md", "para 3")]
    assert out[1].excerpt == "REVENUE · ACME · 2025 · TOTAL: 1,320 USD_M"
    assert out[2].to_dict() == {"index": 3, "kind": "source", "doc_id": "n.md", "title": "",
                                "locator": "para 3", "excerpt": ""}


def test_tool_outcome_gives_the_seed_json_of_each_lookup() -> None:
    assert ToolOutcome().tool_results() == [] and ToolOutcome().figures == ()


def test_the_narrative_channel_returns_its_passages_and_plan(demo_ws: Path) -> None:
    agent = Agent.from_workspace(demo_ws)
    result = agent.ask("Why did Hong Kong agency new sales rise?")
    passages = [c for c in result.citations if c["kind"] == "passage"]
    assert passages and all(c["doc_id"] and c["locator"] for c in passages)
    assert result.retrieval.get("plans")  # the query plan the outcome carried
    agent.close()


def test_run_narrative_writes_into_nothing_it_is_given(demo_ws: Path) -> None:
    from ragspine_nb.agent.narrative.grounding import GroundingContext
    from ragspine_nb.agent.run import start_run

    agent = Agent.from_workspace(demo_ws)
    run = start_run("Why did Hong Kong agency new sales rise?", agent.store, None, None,
                    agent.parser, agent.profile, None)
    told = run_narrative(run.question, run.intent, run.provider, agent.retriever, (),
                         run.trace, run.lang, 6, run.grounder, GroundingContext())
    assert isinstance(told, NarrativeOutcome)
    assert told.passages and all(isinstance(c, Citation) for c in told.passages)
    assert {(s["doc"], s["locator"]) for s in told.sources} <= \
        {(c.doc_id, c.locator) for c in told.passages}
    agent.close()


def test_the_retriever_is_built_once_per_agent(demo_ws: Path) -> None:
    agent = Agent.from_workspace(demo_ws)
    first = agent.retriever
    agent.ask("Why did Hong Kong agency new sales rise?")
    assert agent.retriever is first
    agent.planner = type(agent.planner)(agent.profile)  # a new planner: a new retriever
    assert agent.retriever is not first and agent.retriever.planner is agent.planner
    agent.close()


def test_each_thread_reads_its_own_last_report(demo_ws: Path) -> None:
    agent = Agent.from_workspace(demo_ws)
    retriever = agent.retriever
    seen: dict[str, Any] = {}

    def ask(query: str) -> None:
        retriever.retrieve(query, top_k=3)
        seen[query] = retriever.last_report.plans[0].question

    threads = [threading.Thread(target=ask, args=(q,)) for q in
               ("agency new sales", "bancassurance commissions", "mainland visitors")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {q: q for q in seen} and len(seen) == 3
    agent.close()
