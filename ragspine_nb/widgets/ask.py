"""AskWidget: a question box for an :class:`~ragspine_nb.agent.Agent`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.display.render import Card, Message, Table, render_html, render_transcript
from ragspine_nb.widgets._html import compact

__all__ = ["AskWidget", "trace_html", "trace_rows"]

#: Shown in the answer area while the agent works (the Ask button is disabled meanwhile).
BUSY_TEXT = "Answering…"


def trace_rows(trace: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """A trace flattened to ``(field, value)`` rows; nested keys are joined with dots.

    >>> trace_rows({"route": "structured", "retrieval": {"loops": 1}, "ids": ["a", "b"]})
    [('route', 'structured'), ('retrieval.loops', '1'), ('ids', 'a, b')]
    """
    rows: list[tuple[str, str]] = []
    for key, value in trace.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            rows += trace_rows(value, prefix=name + ".")
        elif isinstance(value, list | tuple):
            rows.append((name, ", ".join(v if isinstance(v, str) else
                                         json.dumps(v, ensure_ascii=False, default=str)
                                         for v in value) or "—"))
        else:
            rows.append((name, "—" if value is None or value == {} else
                         value if isinstance(value, str) else json.dumps(value, default=str)))
    return rows


def trace_html(trace: Mapping[str, Any]) -> str:
    """The trace as a collapsed two-column table (``<details>``), escaped by the renderer."""
    card = Card(title="Trace", subtitle=str(trace.get("request_id", "")),
                tables=(Table("what the agent did", ("field", "value"),
                              tuple(trace_rows(trace))),))
    return compact(f"<details><summary>trace</summary>{render_html(card)}</details>")


class AskWidget:
    """Question, reference date, Ask; shows the answer, sources, route, clarification, trace.

    Enter in the question box asks too; while the agent works the button is disabled and
    the answer area says "Answering…". Narrowing options of a clarification are buttons
    that re-ask with that option. Build it with ``agent.widget()`` or
    ``AskWidget(agent)``; display ``.ui`` (or the object itself in a notebook).
    """

    def __init__(self, agent: Any, reference_date: date | None = None) -> None:
        w = import_optional("ipywidgets", extra="notebook", feature="AskWidget")
        self.agent = agent
        self.question = w.Text(placeholder="Ask about a figure or why it moved…",
                               description="Question",
                               layout=w.Layout(flex="1 1 320px", min_width="240px"))
        self.date = w.DatePicker(description="As of", value=reference_date,
                                 style={"description_width": "auto"},
                                 layout=w.Layout(width="auto"))
        self.button = w.Button(description="Ask", button_style="primary", icon="search",
                               layout=w.Layout(width="auto", min_width="80px"))
        self.answer = w.HTML()
        self.options = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.trace = w.HTML()
        self.row = w.HBox([self.question, self.date, self.button],
                          layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.ui = w.VBox([self.row, self.answer, self.options, self.trace])
        self.last_result: Any = None
        self.busy = False
        self._w = w
        self.button.on_click(lambda _: self.ask())
        # Enter sends the text box's "submit" event (the message behind the deprecated
        # ``Text.on_submit``); the value itself is synced on every keystroke before it
        self.question.on_msg(self._on_question_msg)

    def _on_question_msg(self, _widget: Any, content: Mapping[str, Any], _buffers: Any) -> None:
        if content.get("event") == "submit" and not self.busy:
            self.ask()

    def ask(self, question: str | None = None) -> Any:
        """Ask (the box's text by default), render the result and return it.

        Returns ``None`` without asking when the box is empty or an answer is running.
        """
        if self.busy:  # a second Enter or click while answering
            return None
        if question is not None:
            self.question.value = question
        text = self.question.value.strip()
        if not text:
            self.answer.value = compact(render_transcript([], empty="Type a question first."))
            return None
        self._set_busy(True)
        try:
            result = self.agent.ask(text, reference_date=self.date.value)
        except Exception as exc:
            self.answer.value = compact(render_transcript(
                [], empty=f"Could not answer: {type(exc).__name__}: {exc}"))
            raise
        finally:
            self._set_busy(False)
        self._show(result)
        return result

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.button.disabled = busy
        self.button.description = BUSY_TEXT if busy else "Ask"
        if busy:
            self.answer.value = compact(render_transcript([], empty=BUSY_TEXT))

    def _show(self, result: Any) -> None:
        """Render one result: the answer, its clarification buttons and the trace."""
        self.last_result = result
        self.answer.value = self._render(result)
        self.options.children = tuple(self._option_button(result.question, opt)
                                      for opt in result.clarification.narrowing_options[:8])
        self.trace.value = trace_html(result.trace)

    def _option_button(self, question: str, option: str) -> Any:
        button = self._w.Button(description=option[:40], tooltip=f"re-ask with {option}",
                                layout=self._w.Layout(width="auto"))
        button.on_click(lambda _: self.ask(f"{question} {option}"))
        return button

    @staticmethod
    def _render(result: Any) -> str:
        who = f"Answer · route: {result.route} · clarification: {result.clarification.mode}"
        sources = tuple((s["doc"], s["locator"]) for s in result.sources)
        return compact(render_transcript([Message("assistant", who, result.answer, sources)]))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)  # type: ignore[no-untyped-call]
