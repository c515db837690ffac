"""The agent layer: security gate, intent, clarification, query tool, providers, orchestrator."""

from ragspine_nb.agent.agent import Agent, AgentResult, NarrativeRetriever, answer_question
from ragspine_nb.agent.compute.operations import Computed, NotComputed, Operation, compute
from ragspine_nb.agent.compute.query_tools import (
    build_query_metric_tool_anthropic,
    build_query_metric_tool_openai,
    execute_query_metric,
)
from ragspine_nb.agent.conversation import Conversation
from ragspine_nb.agent.faq import FaqCache, FaqEntry
from ragspine_nb.agent.gate.security_gate import SecurityGate, SecurityVerdict
from ragspine_nb.agent.providers import (
    AnthropicProvider,
    LLMProvider,
    MockProvider,
    OpenAIProvider,
    ProviderResponse,
    ToolCall,
)
from ragspine_nb.agent.reading.intent import IntentParser, ParsedIntent, RuleIntentParser
from ragspine_nb.agent.scope.clarify import ClarificationResult, clarify_scope
from ragspine_nb.agent.write.answer import StructuredAnswer, render_figures, structured_answer

__all__ = [
    "Agent", "AgentResult", "answer_question", "Conversation", "NarrativeRetriever",
    "ClarificationResult",
    "clarify_scope", "FaqCache", "FaqEntry", "IntentParser", "ParsedIntent", "RuleIntentParser",
    "LLMProvider", "MockProvider", "AnthropicProvider", "OpenAIProvider", "ProviderResponse",
    "ToolCall", "execute_query_metric", "build_query_metric_tool_anthropic",
    "build_query_metric_tool_openai", "SecurityGate", "SecurityVerdict",
    "StructuredAnswer", "structured_answer", "render_figures", "Operation", "Computed",
    "NotComputed", "compute",
]
