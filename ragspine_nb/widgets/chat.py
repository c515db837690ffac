"""ChatWidget: the AskWidget with a conversation — a transcript, follow-ups, new chats."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from ragspine_nb.agent.conversation import transcript
from ragspine_nb.display.render import render_transcript
from ragspine_nb.stores.conversations import Message
from ragspine_nb.widgets._html import compact
from ragspine_nb.widgets.ask import AskWidget

__all__ = ["ChatWidget", "transcript_html"]


def transcript_html(messages: Sequence[Message]) -> str:
    """The conversation so far, escaped by the renderer: each message with its sources."""
    return render_transcript(transcript(messages))


class ChatWidget(AskWidget):
    """A chat in the notebook, persisted in the conversation's store.

    Built on :class:`AskWidget` (same question box, Enter to ask, busy state,
    clarification buttons and trace); adds the transcript and a *New conversation*
    button. Each answer is shown once, as the transcript's last message; the line below
    the question box gives its route and clarification. The widget listens to its
    conversation, so turns asked from code (``chat.ask(...)``) appear too. Earlier
    messages are the agent's generation context only (see
    :class:`~ragspine_nb.agent.Conversation`).

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
        self.new_button = w.Button(description="New conversation", icon="plus",
                                   layout=w.Layout(width="auto", min_width="170px"))
        self.new_button.on_click(lambda _: self.new_conversation())
        self.row.children = (*self.row.children, self.new_button)
        self.ui = w.VBox([self.header, self.transcript, self.row, self.answer, self.options,
                          self.trace])
        self._listen(conversation)
        self._refresh()

    def ask(self, question: str | None = None) -> Any:
        """Ask in this conversation; the transcript shows both messages afterwards."""
        result = super().ask(question)
        if result is not None:
            self.question.value = ""
        return result

    def _listen(self, conversation: Any) -> None:
        conversation.add_listener(lambda result: self._on_turn(conversation, result))

    def _on_turn(self, conversation: Any, result: Any) -> None:
        # a turn asked from code; the widget's own asks are shown by ``ask`` itself, and a
        # conversation this widget has left (New conversation) is no longer shown
        if conversation is self.conversation and not self.busy:
            self._show(result)

    def _show(self, result: Any) -> None:
        super()._show(result)
        self._refresh()

    @staticmethod
    def _render(result: Any) -> str:
        # the answer itself is the transcript's last message: only its route here
        return compact(render_transcript([], empty=f"Last answer · route: {result.route} · "
                                         f"clarification: {result.clarification.mode}"))

    def new_conversation(self) -> Any:
        """Start a new conversation in the same store (the old one stays stored)."""
        from ragspine_nb.agent.conversation import Conversation

        old = self.conversation
        self.conversation = Conversation(old.agent, old.store, history_turns=old.history_turns)
        self.agent = self.conversation
        self._listen(self.conversation)
        self.answer.value = ""
        self.options.children = ()
        self.trace.value = ""
        self.last_result = None
        self._refresh()
        return self.conversation

    def _refresh(self) -> None:
        messages = self.conversation.messages
        self.header.value = compact(render_transcript(
            [], title=f"Conversation {self.conversation.conversation_id} · "
                      f"{len(messages)} messages", empty=""))
        self.transcript.value = compact(transcript_html(messages))
