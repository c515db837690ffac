"""LLM providers behind one small protocol; the offline MockProvider is the default.

Messages use Anthropic's shape: ``{"role": "user"|"assistant", "content": str | blocks}``
with ``tool_use`` / ``tool_result`` blocks. Providers return a :class:`ProviderResponse`.
Only network, API and timeout failures become :class:`~ragspine_nb.errors.ProviderError`;
program errors propagate.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ragspine_nb._optional import import_optional
from ragspine_nb.agent.narrative.extractive import SENTENCE, extractive_answer
from ragspine_nb.agent.narrative.subject import Subject
from ragspine_nb.errors import ProviderError

__all__ = [
    "COMPANY_LINE",
    "SUBJECT_LINE",
    "OTHERS_LINE",
    "LLMProvider",
    "ProviderResponse",
    "ToolCall",
    "MockProvider",
    "RecordingProvider",
    "AnthropicProvider",
    "OpenAIProvider",
    "DEFAULT_ANTHROPIC_MODEL",
    "SLOTS_MARKER",
    "SENTENCE",
]

DEFAULT_ANTHROPIC_MODEL = "claude-opus-4-8"
#: The orchestrator puts the normalised sub-tasks after this marker in the user message.
SLOTS_MARKER = "Normalised sub-tasks (JSON):"


@dataclass(frozen=True)
class ToolCall:
    """A model's request to run a tool."""

    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ProviderResponse:
    """What a provider returns."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str = "end_turn"
    raw_content: Any = None
    usage: dict[str, int] = field(default_factory=dict)


@runtime_checkable
class LLMProvider(Protocol):
    """One method: create a message, possibly with tool calls."""

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        """Return the model's next message."""
        ...


# ------------------------------------------------------------------------ mock
#: The prompt line naming the company whose own filings every snippet comes from.
COMPANY_LINE = "Company (every snippet is from its own filings):"
#: The prompt lines naming what the question is about and its siblings (segments, regions
#: of the same report): a sentence naming only a sibling is about that sibling.
SUBJECT_LINE = "The question is about:"
OTHERS_LINE = "Not about (a sentence naming only these is about them):"
_SNIPPET = re.compile(r"^\[(\d+)\] \(source: ([^)]*)\)\s*(.*)$")


def _last_user_text(messages: Sequence[dict[str, Any]]) -> str:
    for m in reversed(messages):
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            return str(m["content"])
    return ""


class MockProvider:
    """Deterministic, offline, no key. The core runs entirely on it.

    * With tools offered and no tool results yet, it calls ``query_metric`` once per
      sub-task the orchestrator listed (the JSON after :data:`SLOTS_MARKER`).
    * After tool results it writes a short sentence (the orchestrator discards model
      prose for numbers anyway).
    * Without tools (narrative synthesis) it is **extractive**: it answers with the
      snippet sentences that answer the question — its terms, weighted by rarity, and
      what it asks for (a cause, a definition, a list …) — cited as ``[n]``
      (:func:`~ragspine_nb.agent.narrative.extractive.extractive_answer`); it never echoes the
      prompt.
    """

    name = "mock"

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        """See the class docstring."""
        last = messages[-1] if messages else {}
        has_results = isinstance(last.get("content"), list) and any(
            b.get("type") == "tool_result" for b in last["content"])
        if tools and not has_results:
            text = _last_user_text(messages)
            if SLOTS_MARKER in text:
                tasks = json.loads(text.split(SLOTS_MARKER, 1)[1].strip().splitlines()[0])
                calls = tuple(ToolCall(f"call_{i}", "query_metric", dict(t))
                              for i, t in enumerate(tasks))
                return ProviderResponse("", calls, "tool_use")
            return ProviderResponse("I could not identify the metric to look up.")
        if has_results:
            return ProviderResponse("Here is what the fact store returned.")
        return ProviderResponse(self._extract(_last_user_text(messages)))

    @staticmethod
    def _extract(prompt: str) -> str:
        """The snippets' sentences that answer the question (see :mod:`.extractive`)."""
        question = company = ""
        snippets: list[tuple[int, str]] = []
        named: dict[str, tuple[str, ...]] = {SUBJECT_LINE: (), OTHERS_LINE: ()}
        for line in prompt.splitlines():
            if line.startswith(COMPANY_LINE):
                company = line[len(COMPANY_LINE):].strip()
            for head in named:
                if line.startswith(head):
                    named[head] = tuple(n.strip() for n in line[len(head):].split(" / ")
                                        if n.strip())
            if line.startswith("Question:") or line.startswith("问题："):
                question = line.split(":", 1)[-1].split("：", 1)[-1].strip()
            m = _SNIPPET.match(line)
            if m:
                snippets.append((int(m.group(1)), m.group(3)))
        return extractive_answer(question, snippets, company,
                                 about=Subject(named[SUBJECT_LINE], named[OTHERS_LINE]))


# ------------------------------------------------------------------- anthropic
class RecordingProvider:
    """Another provider (the offline mock by default) that keeps every prompt it is sent.

    For audits: what reached the model, as text (system prompt and messages as JSON),
    e.g. to check that no RESTRICTED text ever does.

    >>> spy = RecordingProvider()
    >>> _ = spy.create_message(system="s", messages=[{"role": "user", "content": "q"}],
    ...                        tools=[])
    >>> spy.prompts
    ['s[{"role": "user", "content": "q"}]']
    """

    name = "spy"

    def __init__(self, inner: LLMProvider | None = None) -> None:
        self.inner: LLMProvider = inner or MockProvider()
        self.prompts: list[str] = []

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        """Record the prompt, then return ``inner``'s message."""
        self.prompts.append(system + json.dumps(messages, ensure_ascii=False))
        return self.inner.create_message(system=system, messages=messages, tools=tools)


class AnthropicProvider:
    """Claude through the real ``anthropic`` SDK (imported lazily).

    Parameters
    ----------
    model : str
        Model id (default :data:`DEFAULT_ANTHROPIC_MODEL`).
    api_key, base_url : str, optional
        Passed to ``anthropic.Anthropic``; ``base_url`` supports gateways.
    timeout : float, default 30.0
    max_retries : int, default 2
    max_tokens : int, default 2048
    client : object, optional
        A ready ``anthropic.Anthropic`` client (tests pass one with a mocked transport).
    """

    def __init__(self, model: str = DEFAULT_ANTHROPIC_MODEL, *, api_key: str | None = None,
                 base_url: str | None = None, timeout: float = 30.0, max_retries: int = 2,
                 max_tokens: int = 2048, client: Any = None) -> None:
        self._sdk = import_optional("anthropic", extra="llm", feature="AnthropicProvider")
        self.model = model
        self.max_tokens = max_tokens
        self.name = f"anthropic:{model}"
        self._client = client if client is not None else self._sdk.Anthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        """One Messages API call; SDK errors become ProviderError."""
        kwargs: dict[str, Any] = {"model": self.model, "max_tokens": self.max_tokens,
                                  "system": system, "messages": messages}
        if tools:
            kwargs["tools"] = tools
        try:
            resp = self._client.messages.create(**kwargs)
        except self._sdk.APIError as exc:  # connection, timeout, status errors
            raise ProviderError(f"Anthropic API error: {type(exc).__name__}") from exc
        text = "".join(getattr(b, "text", "") for b in resp.content if b.type == "text")
        calls = tuple(ToolCall(b.id, b.name, dict(b.input)) for b in resp.content
                      if b.type == "tool_use")
        usage = {"input_tokens": getattr(resp.usage, "input_tokens", 0),
                 "output_tokens": getattr(resp.usage, "output_tokens", 0)}
        return ProviderResponse(text, calls, str(resp.stop_reason or ""),
                                [b.model_dump() for b in resp.content], usage)


# ---------------------------------------------------------------------- openai
class OpenAIProvider:
    """Chat Completions through the real ``openai`` SDK (imported lazily)."""

    def __init__(self, model: str = "gpt-4.1", *, api_key: str | None = None,
                 base_url: str | None = None, timeout: float = 30.0, max_retries: int = 2,
                 client: Any = None) -> None:
        self._sdk = import_optional("openai", extra="llm", feature="OpenAIProvider")
        self.model = model
        self.name = f"openai:{model}"
        self._client = client if client is not None else self._sdk.OpenAI(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)

    @staticmethod
    def _convert(system: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"role": "system", "content": system}]
        for m in messages:
            content = m["content"]
            if isinstance(content, str):
                out.append({"role": m["role"], "content": content})
                continue
            if m["role"] == "assistant":
                calls = [{"id": b["id"], "type": "function",
                          "function": {"name": b["name"], "arguments": json.dumps(b["input"])}}
                         for b in content if b.get("type") == "tool_use"]
                text = "".join(b.get("text", "") for b in content if b.get("type") == "text")
                out.append({"role": "assistant", "content": text or None,
                            **({"tool_calls": calls} if calls else {})})
            else:
                for b in content:
                    if b.get("type") == "tool_result":
                        out.append({"role": "tool", "tool_call_id": b["tool_use_id"],
                                    "content": b["content"]})
        return out

    def create_message(self, *, system: str, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ProviderResponse:
        """One Chat Completions call; SDK errors become ProviderError."""
        kwargs: dict[str, Any] = {"model": self.model,
                                  "messages": self._convert(system, messages)}
        if tools:  # the orchestrator's tools are in Anthropic's shape: functions here
            kwargs["tools"] = [t if "type" in t else {"type": "function", "function": {
                "name": t["name"], "description": t.get("description", ""),
                "parameters": t.get("input_schema", {"type": "object"})}} for t in tools]
        try:
            resp = self._client.chat.completions.create(**kwargs)
        except self._sdk.APIError as exc:
            raise ProviderError(f"OpenAI API error: {type(exc).__name__}") from exc
        msg = resp.choices[0].message
        calls = tuple(ToolCall(c.id, c.function.name, json.loads(c.function.arguments or "{}"))
                      for c in (msg.tool_calls or []))
        return ProviderResponse(msg.content or "", calls, resp.choices[0].finish_reason or "")
