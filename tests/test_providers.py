"""Real SDKs against mocked HTTP transports: the SDK builds the request and parses the reply."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import anthropic
import httpx
import httpx2
import openai
import pytest

from ragspine_nb import DomainProfile, FactStore
from ragspine_nb.agent import AnthropicProvider, OpenAIProvider, answer_question
from ragspine_nb.errors import ProviderError


def _anthropic_client(handler: Any) -> anthropic.Anthropic:
    # anthropic 2.x ships its own HTTP stack (httpx2); the transport is mocked there
    return anthropic.Anthropic(api_key="test-key", max_retries=0,
                               http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))


def _message(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-opus-4-8",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 11, "output_tokens": 7}}


def test_anthropic_tool_use_round_trip(demo_facts: FactStore, profile: DomainProfile) -> None:
    requests: list[dict[str, Any]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        requests.append(body)
        assert request.url.path == "/v1/messages"
        auth = request.headers.get("x-api-key", request.headers.get("authorization", ""))
        assert "test-key" in auth
        if len(requests) == 1:
            return httpx2.Response(200, json=_message([
                {"type": "text", "text": "Let me look that up."},
                {"type": "tool_use", "id": "toolu_1", "name": "query_metric",
                 "input": {"metric": "revenue", "entity": "ACME Hong Kong", "period": "FY2025"}},
            ], "tool_use"))
        return httpx2.Response(200, json=_message(
            [{"type": "text", "text": "It was 7,777 (made up)."}], "end_turn"))

    provider = AnthropicProvider(client=_anthropic_client(handler), max_tokens=256)
    r = answer_question("ACME Hong Kong revenue FY2025", demo_facts, provider, profile=profile,
                        reference_date=date(2026, 3, 31))
    assert "1,405 US$ m" in r.answer and "7,777" not in r.answer
    first, second = requests
    assert first["model"] == "claude-opus-4-8" and first["max_tokens"] == 256
    assert first["tools"][0]["name"] == "query_metric"
    tool_result = second["messages"][-1]["content"][0]
    assert tool_result["type"] == "tool_result" and tool_result["tool_use_id"] == "toolu_1"
    assert json.loads(tool_result["content"])["value"] == 1405.0
    assert r.trace["model_tool_calls"] == 1


@pytest.mark.parametrize("status", [500, 429, 401])
def test_anthropic_api_errors_become_provider_errors(status: int) -> None:
    provider = AnthropicProvider(client=_anthropic_client(
        lambda request: httpx2.Response(status, json={"type": "error", "error": {
            "type": "api_error", "message": "boom"}})))
    with pytest.raises(ProviderError, match="Anthropic API error"):
        provider.create_message(system="s", messages=[{"role": "user", "content": "hi"}],
                                tools=[])


def test_anthropic_connection_error_becomes_provider_error() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("no network")

    provider = AnthropicProvider(client=_anthropic_client(handler))
    with pytest.raises(ProviderError):
        provider.create_message(system="s", messages=[{"role": "user", "content": "hi"}],
                                tools=[])


def test_anthropic_is_configurable_without_a_client() -> None:
    p = AnthropicProvider("claude-test", api_key="k", base_url="http://127.0.0.1:9", timeout=5)
    assert p.model == "claude-test" and str(p._client.base_url).startswith("http://127.0.0.1:9")


def test_openai_tool_calls_round_trip(demo_facts: FactStore, profile: DomainProfile) -> None:
    seen: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        if len(seen) == 1:
            msg = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function", "function": {
                    "name": "query_metric",
                    "arguments": json.dumps({"metric": "ROE", "entity": "ACME_CN",
                                             "period": "FY2025"})}}]}
            finish = "tool_calls"
        else:
            msg, finish = {"role": "assistant", "content": "ROE was 12%."}, "stop"
        return httpx.Response(200, json={"id": "x", "object": "chat.completion", "created": 0,
                                         "model": "gpt-test", "choices": [{
                                             "index": 0, "message": msg,
                                             "finish_reason": finish}]})

    client = openai.OpenAI(api_key="k", max_retries=0,
                           http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    r = answer_question("Mainland China ROE FY2025", demo_facts,
                        OpenAIProvider("gpt-test", client=client), profile=profile)
    assert "12%" not in r.answer and r.tool_results[0]["status"] == "not_found"
    assert seen[1]["messages"][-1]["role"] == "tool"
    assert seen[0]["messages"][0]["role"] == "system"


def test_a_real_provider_paraphrases_for_retrieval_and_never_sees_restricted(
        demo_ws: Any) -> None:
    from ragspine_nb import Agent, NarrativeIndex
    from ragspine_nb.retrieval.planning import PARAPHRASE_SYSTEM

    requests: list[dict[str, Any]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        requests.append(body)
        if body.get("system") == PARAPHRASE_SYSTEM:
            return httpx2.Response(200, json=_message([{"type": "text", "text":
                "why bancassurance new sales declined\nbank channel sales drop reasons"}],
                "end_turn"))
        return httpx2.Response(200, json=_message([{"type": "text", "text":
            "Bank commissions were capped [1]."}], "end_turn"))

    profile = DomainProfile.from_file(demo_ws / "profile.toml")
    agent = Agent(FactStore(demo_ws / "facts.db", create=False),
                  NarrativeIndex(demo_ws / "chunks.db", profile=profile),
                  provider=AnthropicProvider(client=_anthropic_client(handler)))
    r = agent.ask("What happened to bancassurance sales in Mainland China?",
                  date(2026, 3, 31))
    kinds = [v["kind"] for v in r.retrieval["plans"][0]["variants"]]
    assert "semantic" in kinds
    assert "why bancassurance new sales declined" in [
        v["text"] for v in r.retrieval["plans"][0]["variants"]]
    assert any(b.get("system") == PARAPHRASE_SYSTEM for b in requests)
    assert r.citations and all(c["doc_id"] and c["locator"] for c in r.citations)
    assert "CANARY" not in json.dumps(requests, ensure_ascii=False)
