"""The model reader: a wired model proposes a formula over stored cells, the store verifies.

Through the user's path (a CSV table → ``ingest`` → ``Agent.from_workspace`` with the real
``anthropic`` / ``openai`` SDK over a mocked transport → ``Agent.ask``): a verified reading
is answered from the store with its derivation and cited cells; hostile readings (an
invented cell, a number the model writes, one cell for an operation, a period the
question does not name, a qualifier dropped) are rejected and the refusal stands; the
offline default never asks a model; the prompt holds no value and no RESTRICTED text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anthropic
import httpx
import httpx2
import openai
import pytest

from ragspine_nb import Agent
from ragspine_nb.agent import AnthropicProvider, OpenAIProvider
from ragspine_nb.agent.compute.model_offer import READING_SYSTEM, READING_TOOL, Cell, Proposal
from ragspine_nb.agent.compute.model_reading import Asked, Rejection, verify
from ragspine_nb.agent.providers import RecordingProvider
from ragspine_nb.core import Fact
from ragspine_nb.ingestion.workspace import ingest
from ragspine_nb.wordset import content_words

QUESTION = "What was the total monetary assets in 2019?"
TABLE = """Monetary items (US$ thousands),2019,2018
Monetary assets - current,27728,18041
Monetary assets - non-current,373,2642
Monetary liabilities - current,14732,12100
Monetary liabilities - non-current,5739,4988
"""
SECRET = """# Board pack

RESTRICTED

| Item | 2019 |
|---|---|
| Monetary assets - secret reserve | 999999 |
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("model_reader")
    files = root / "files"
    files.mkdir()
    (files / "monetary.csv").write_text(TABLE, encoding="utf-8")
    (files / "board_pack.md").write_text(SECRET, encoding="utf-8")
    ingest(files, workspace=root / "ws", progress=False)
    return root / "ws"


def _ids(prompt: str) -> dict[tuple[str, str], str]:
    """``(row label, period) -> id`` of the cells a reading prompt lists."""
    return {(label, period): i for i, label, period in
            re.findall(r"^(C\d+): (.+?) \| .+? \| (\S+) \|", prompt, re.M)}


def _claude(formula: Any, name: str = "total monetary assets",
            seen: list[dict[str, Any]] | None = None) -> AnthropicProvider:
    """Claude through the real SDK: ``formula(ids)`` is what it proposes."""
    def handler(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        if seen is not None:
            seen.append(body)
        if body.get("system") == READING_SYSTEM:
            ids = _ids(body["messages"][-1]["content"])
            content = [{"type": "text", "text": "It is 99,999 thousand."},
                       {"type": "tool_use", "id": "toolu_1", "name": READING_TOOL,
                        "input": {"formula": formula(ids), "name": name}}]
            stop = "tool_use"
        else:
            content, stop = [{"type": "text", "text": "It is 99,999 thousand."}], "end_turn"
        return httpx2.Response(200, json={
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-opus-4-8",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 11, "output_tokens": 7}})

    client = anthropic.Anthropic(api_key="test-key", max_retries=0, http_client=httpx2.Client(
        transport=httpx2.MockTransport(handler)))
    return AnthropicProvider(client=client)


def _sum(ids: dict[tuple[str, str], str]) -> str:
    return f"{ids[('Monetary assets - current', 'FY2019')]} + " \
           f"{ids[('Monetary assets - non-current', 'FY2019')]}"


def test_the_offline_agent_refuses_and_asks_no_model(workspace: Path) -> None:
    spy = RecordingProvider()
    r = Agent.from_workspace(workspace, provider=spy).ask(QUESTION)
    assert not r.figures and "not in the fact store" in r.answer
    assert not any(READING_SYSTEM in p for p in spy.prompts)
    assert "model_reading" not in r.trace


def test_a_verified_reading_is_computed_from_the_store_and_cited(workspace: Path) -> None:
    seen: list[dict[str, Any]] = []
    r = Agent.from_workspace(workspace, provider=_claude(_sum, seen=seen)).ask(QUESTION)
    assert [f.value for f in r.figures] == [28101.0]
    assert r.answer.startswith("(Read by the model (anthropic:claude-opus-4-8) as total "
                               "monetary assets = Monetary assets - current + Monetary "
                               "assets - non-current; checked against the store")
    assert "the company total monetary assets, FY2019: 28,101 US$ k" in r.answer
    assert "27,728 + 373 = 28,101" in r.answer
    assert {s["locator"] for s in r.sources} == {"cell=B2", "cell=B3"}
    assert "99,999" not in r.answer  # the model's prose never reaches the answer
    assert r.trace["model_reading"]["verified"] is True
    # the prompt: the question and the cells, no value, nothing of the RESTRICTED file
    prompt = next(b for b in seen if b.get("system") == READING_SYSTEM)
    text = json.dumps(prompt, ensure_ascii=False)
    assert "27728" not in text and "27,728" not in text and "373" not in text
    assert "secret" not in text.lower() and "999999" not in text
    assert prompt["tools"][0]["name"] == READING_TOOL


@pytest.mark.parametrize(("formula", "name", "why"), [
    (lambda ids: "C99 + C1", "", "'C99' is no cell offered"),
    (lambda ids: f"{_sum(ids)} + 1000", "", "the formula writes 1,000, which the question "
                                            "does not"),
    (lambda ids: "C1 + C2; DROP TABLE", "", "is no arithmetic over the cells"),
    (lambda ids: ids[("Monetary assets - current", "FY2019")], "",
     "the question asks an operation and the reading is one cell"),
    (lambda ids: f"{ids[('Monetary liabilities - current', 'FY2019')]} + "
                 f"{ids[('Monetary liabilities - non-current', 'FY2019')]}", "total monetary",
     "the question's 'asset' is named by no cell used"),
    (lambda ids: f"{ids[('Monetary assets - current', 'FY2019')]} - "
                 f"{ids[('Monetary liabilities - current', 'FY2019')]}", "",
     "the question asks a sum and the reading computes a difference"),
])
def test_a_hostile_reading_is_rejected_and_the_refusal_stands(
        workspace: Path, formula: Any, name: str, why: str) -> None:
    r = Agent.from_workspace(workspace, provider=_claude(formula, name)).ask(QUESTION)
    assert not r.figures
    assert "not in the fact store; no estimate is given" in r.answer
    line = r.answer.splitlines()[-1]
    assert line.startswith("A reading the model (anthropic:claude-opus-4-8) proposed was not "
                           "used: ") and why in line
    assert "99,999" not in r.answer and "28,101" not in r.answer
    assert r.trace["model_reading"]["rejected"]


@pytest.mark.parametrize("question, said", [
    ("香港2025年营业收入的一半是多少？", "未计算倍数"),  # refused in the fact channel
    # a listed item no row names ("营业成本"): asked back before any channel (c8bbb85)
    ("香港2025年营业收入和营业成本合计是多少？", "请问您指的是哪个指标？"),
])
def test_a_chinese_question_is_never_read_by_a_model(demo_ws: Path, question: str,
                                                     said: str) -> None:
    seen: list[dict[str, Any]] = []
    agent = Agent.from_workspace(demo_ws, provider=_claude(lambda ids: "C1 + C2", seen=seen))
    r = agent.ask(question)
    assert not r.figures and r.answer.startswith(said), r.answer
    assert not any(b.get("system") == READING_SYSTEM for b in seen)


def test_an_api_error_leaves_the_refusal(workspace: Path) -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        if json.loads(request.content).get("system") == READING_SYSTEM:
            return httpx2.Response(529, json={"type": "error", "error": {
                "type": "overloaded_error", "message": "busy"}})
        return httpx2.Response(200, json={
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-opus-4-8",
            "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}})

    client = anthropic.Anthropic(api_key="k", max_retries=0, http_client=httpx2.Client(
        transport=httpx2.MockTransport(handler)))
    r = Agent.from_workspace(workspace, provider=AnthropicProvider(client=client)).ask(QUESTION)
    assert not r.figures and "not in the fact store" in r.answer
    assert r.trace["model_reading"] == {"provider_error": True}


def test_openai_is_offered_the_tool_as_a_function(workspace: Path) -> None:
    seen: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        msg: dict[str, Any] = {"role": "assistant", "content": "no tool"}
        if body["tools"][0]["function"]["name"] == READING_TOOL:
            ids = _ids(body["messages"][-1]["content"])
            msg = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function", "function": {
                    "name": READING_TOOL, "arguments": json.dumps({"formula": _sum(ids),
                                                                   "name": ""})}}]}
        return httpx.Response(200, json={
            "id": "c1", "object": "chat.completion", "created": 0, "model": "gpt-test",
            "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}]})

    client = openai.OpenAI(api_key="k", max_retries=0,
                           http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    r = Agent.from_workspace(workspace, provider=OpenAIProvider("gpt-test", client=client)) \
        .ask(QUESTION)
    assert all(t["type"] == "function" and "parameters" in t["function"]
               for b in seen for t in b.get("tools", []))
    assert [f.value for f in r.figures] == [28101.0]
    assert "the company Sum, FY2019: 28,101 US$ k" in r.answer


# ------------------------------------------------------------------ the verifier
def _cell(i: int, label: str, value: float, period: str = "2023", unit: str = "USD_M") -> Cell:
    fact = Fact(label.upper().replace(" ", "_"), "ACME", "US", "TOTAL", "FY", period, value,
                unit, "10k.pdf", f"page=5,row={i}")
    return Cell(f"C{i}", fact, label, "", content_words(f"{label} Acme"))


CELLS = {c.id: c for c in (
    _cell(1, "Accounts receivable", 500.0), _cell(2, "Total assets", 5000.0),
    _cell(3, "Gross margin", 40.0, unit="PCT"), _cell(4, "Net income", 542.0),
    _cell(5, "Net income", -762.3, period="2022"),
    _cell(6, "Basic earnings per share", 2.1))}


@pytest.mark.parametrize(("question", "periods", "operation", "formula", "expected"), [
    ("what is acme's tax receivable in fy2023?", {"FY2023"}, "", "C1",
     "the question's 'tax' is named by no cell used"),
    ("what is the ratio of receivables to gross margin?", {"FY2023"}, "ratio", "C1 / C3",
     "the operands are in different units"),
    ("what is the percentage change in net income in fy2023?", {"FY2023"}, "percent_change",
     "(C5 - C4) / C4", "a change subtracts the earlier figure from the later one"),
    ("what is the percentage change in net income in fy2023?", {"FY2023"}, "percent_change",
     "(C4 - C5) / C4", "a percentage change divides one row's change by its earlier figure"),
    ("what is the change in net income in fy2023?", {"FY2023"}, "change", "C4 - C1 - C5",
     "a subtraction of other rows in other periods is neither one row's nor one period's"),
    ("what was net income in fy2023?", {"FY2023"}, "", "C6",
     "C6 is a figure per share, which the question does not ask"),
    ("what is the quick ratio in fy2023?", {"FY2023"}, "ratio", "C1 / C2", "'quick'"),
    ("what was net income in fy2022?", {"FY2022"}, "", "C4",
     "C4 is of FY2023, a period the question does not name"),
    ("what was the change in net income?", set(), "change", "C4 - C5",
     "the question names no period and the cells span FY2022, FY2023"),
])
def test_the_verifier_rejects(question: str, periods: set[str], operation: str, formula: str,
                              expected: str) -> None:
    out = verify(Proposal(formula, "quick ratio", percent=True), CELLS,
                 Asked(question, frozenset(periods), operation, frozenset({"quick", "ratio"})))
    assert isinstance(out, Rejection) and any(expected in r for r in out.reasons), out


def test_a_change_across_a_loss_is_the_later_less_the_earlier() -> None:
    out = verify(Proposal("(C4 - C5) / C5", "", percent=True), CELLS,
                 Asked("what is the percentage change in net income in fy2023?",
                       frozenset({"FY2023"}), "percent_change"))
    assert not isinstance(out, Rejection)
    # (542.0 - -762.3) / |-762.3|: the change is never "the size of a deduction"
    assert round(out.value, 2) == 171.1
    assert out.numbers.startswith("(542 − -762.3) / 762.3")
