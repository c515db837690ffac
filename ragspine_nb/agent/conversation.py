"""Conversations: follow-up questions with the last messages as generation context.

The last ``history_turns`` messages (default 5) are handed to the agent as *generation
context only*: intent parsing, the fact lookups and retrieval see the new question alone,
exactly as in a fresh :meth:`Agent.ask`, and the security gate drops every history turn
that names a competitor before anything uses the history. So a follow-up can never
smuggle a competitor name, a RESTRICTED label or a different metric in through the
history, and a number in an answer still comes from the fact store. Messages persist in
a :class:`~ragspine_nb.stores.conversations.ConversationStore`; a question and its answer
are written together, and a conversation exists once its first turn is answered.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from ragspine_nb.agent.scope.follow_up import Carried
from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import Message as Shown
from ragspine_nb.display.render import render_transcript
from ragspine_nb.display.views import make_view
from ragspine_nb.stores.conversations import ConversationStore, Message, check_conversation_id

if TYPE_CHECKING:
    from ragspine_nb.agent.agent import Agent, AgentResult

__all__ = ["Conversation", "HISTORY_TURNS"]

HISTORY_TURNS = 5


class Conversation(CardReprMixin):
    """One conversation with an :class:`Agent`, persisted message by message.

    Parameters
    ----------
    agent : Agent
        Answers each question.
    store : ConversationStore, optional
        Where messages live (in memory by default; pass a file store to keep them).
    conversation_id : str, optional
        Continue this conversation (created if new); a random id by default.
    history_turns : int, default 5
        How many earlier messages the agent sees as generation context.

    Examples
    --------
    >>> from ragspine_nb import Agent, DomainProfile, FactStore
    >>> profile = DomainProfile.from_dict({"home": {"company_name": "ACME",
    ...     "entity_code": "ACME"}, "metrics": {"REVENUE": {"unit": "USD_M"}}})
    >>> chat = Conversation(Agent(FactStore(":memory:"), profile=profile), None, "c-1")
    >>> _ = chat.ask("What was revenue in FY2025?")
    >>> [m.role for m in chat.messages]
    ['user', 'assistant']
    """

    def __init__(self, agent: Agent, store: ConversationStore | None = None,
                 conversation_id: str | None = None, history_turns: int = HISTORY_TURNS
                 ) -> None:
        if history_turns < 0:
            raise ValueError(f"history_turns must be >= 0, got {history_turns}")
        self.agent = agent
        self.store = store or ConversationStore()
        # created with its first answered turn: a failed answer leaves no empty conversation
        self.conversation_id = check_conversation_id(conversation_id or uuid.uuid4().hex)
        self.history_turns = history_turns
        self._listeners: list[Callable[[AgentResult], None]] = []

    @property
    def messages(self) -> list[Message]:
        """Every message so far, in order."""
        if not self.store.exists(self.conversation_id):
            return []
        return self.store.messages(self.conversation_id)

    def _recent(self) -> list[Message]:
        """The last messages a next answer reads: its context, and the answer it follows."""
        if not self.store.exists(self.conversation_id):
            return []
        return self.store.messages(self.conversation_id, last=max(self.history_turns, 1))

    def history(self, recent: list[Message] | None = None) -> list[tuple[str, str]]:
        """The ``(role, text)`` pairs the next answer may use as context."""
        if self.history_turns == 0:
            return []
        recent = self._recent() if recent is None else recent
        return [(m.role, m.content) for m in recent[-self.history_turns:]]

    def last_slots(self, recent: list[Message] | None = None) -> Carried | None:
        """The slots the last answer resolved (a follow-up question may carry them over)."""
        recent = self._recent() if recent is None else recent
        return Carried.from_dict(recent[-1].meta.get("slots")) if recent else None

    def ask(self, question: str, reference_date: date | None = None) -> AgentResult:
        """Answer a question in this conversation and store both messages (in one write).

        A follow-up ("And in FY2024?", "Why did it change?") is completed with the slots
        the previous answer resolved — profile codes, never its text — and says so.
        """
        recent = self._recent()  # one read: the context and the answer followed on from
        slots = self.last_slots(recent)  # passed only when there is something to follow
        result = self.agent.ask(question, reference_date=reference_date,
                                history=self.history(recent),
                                **({"follow_up": slots} if slots else {}))
        self.store.append_many(self.conversation_id, [
            ("user", question, (), None),
            ("assistant", result.answer, result.sources, result_meta(result))])
        for listener in list(self._listeners):  # e.g. a ChatWidget showing this conversation
            listener(result)
        return result

    def add_listener(self, callback: Callable[[AgentResult], None]) -> None:
        """Call ``callback(result)`` after each answered turn (both messages stored)."""
        self._listeners.append(callback)

    def widget(self, reference_date: date | None = None) -> Any:
        """A :class:`~ragspine_nb.widgets.ChatWidget` on this conversation."""
        return make_view("chat", self, reference_date)

    def __repr__(self) -> str:
        return (f"Conversation(id={self.conversation_id!r}, "
                f"messages={len(self.messages)}, history_turns={self.history_turns})")

    def _display_html(self) -> str:
        return render_transcript(transcript(self.messages),
                                 title=f"Conversation {self.conversation_id}")


def result_meta(result: AgentResult) -> dict[str, Any]:
    """What a stored answer keeps besides its text: route, clarification, statuses."""
    return {"route": result.route, "clarification": result.clarification.mode,
            "tool_status": result.tool_status,
            "request_id": result.trace.get("request_id", ""), "slots": result.slots}


def transcript(messages: Sequence[Message]) -> list[Shown]:
    """Stored messages as display data: who wrote each, its text and its sources."""
    return [Shown(m.role, "You" if m.role == "user" else "Agent", m.content,
                  tuple((s.get("doc", ""), s.get("locator", "")) for s in m.sources))
            for m in messages]
