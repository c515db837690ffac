"""ChatWidget: the AskWidget with a conversation — a transcript, follow-ups, new chats."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import date
from typing import Any

from ragspine_nb.agent.conversation import transcript
from ragspine_nb.display.render import render_transcript
from ragspine_nb.stores.conversations import Message
from ragspine_nb.widgets.ask import AskWidget

__all__ = ["ChatWidget", "transcript_html"]


def transcript_html(messages: Sequence[Message]) -> str:
    """The conversation so far, escaped by the renderer: each message with its sources."""
    return render_transcript(transcript(messages))


class ChatWidget(AskWidget):
    """A chat in the notebook, persisted in the conversation's store.

    Built on :class:`AskWidget` (same answer card, clarification buttons and trace);
    adds the transcript and a *New conversation* button. Earlier messages are the
    agent's generation context only (see :class:`~ragspine_nb.agent.Conversation`).

    Parameters
    ----------
    conversation : Conversation
        The conversation to continue (``Conversation(agent, ConversationStore(path))``).
    reference_date : datetime.date, optional
        What relative periods resolve against.
    """

    def __init__(self, conversation: Any, reference_date: date | None = None) -> None:
        super().__init__(conversation, reference_date)
        w = self._w
        self.conversation = conversation
        self.question.placeholder = "Ask a question or a follow-up…"
        self.header = w.HTML()
        self.transcript = w.HTML()
        self.new_button = w.Button(description="New conversation", icon="plus")
        self.new_button.on_click(lambda _: self.new_conversation())
        self.ui = w.VBox([self.header, self.transcript,
                          w.HBox([self.question, self.date, self.button, self.new_button]),
                          self.answer, self.options, self.ui.children[-1]])
        self._refresh()

    def ask(self, question: str | None = None) -> Any:
        """Ask in this conversation; the transcript shows both messages afterwards."""
        result = super().ask(question)
        if result is not None:
            self.question.value = ""
        self._refresh()
        return result

    def new_conversation(self) -> Any:
        """Start a new conversation in the same store (the old one stays stored)."""
        from ragspine_nb.agent.conversation import Conversation

        old = self.conversation
        self.conversation = Conversation(old.agent, old.store, history_turns=old.history_turns)
        self.agent = self.conversation
        self.answer.value = ""
        self.options.children = ()
        self._refresh()
        return self.conversation

    def _refresh(self) -> None:
        messages = self.conversation.messages
        self.header.value = (f"<b>Conversation</b> <code>"
                             f"{html.escape(self.conversation.conversation_id)}</code> · "
                             f"{len(messages)} messages")
        self.transcript.value = transcript_html(messages)
