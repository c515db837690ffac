"""AskWidget: a question box for an :class:`~ragspine_nb.agent.Agent`."""

from __future__ import annotations

import html
import json
from datetime import date
from typing import Any

from ragspine_nb._optional import import_optional

__all__ = ["AskWidget"]


class AskWidget:
    """Question, reference date, Ask; shows the answer, sources, route, clarification, trace.

    Narrowing options of a clarification are buttons that re-ask with that option.
    Build it with ``agent.widget()`` or ``AskWidget(agent)``; display ``.ui`` (or the
    object itself in a notebook).
    """

    def __init__(self, agent: Any, reference_date: date | None = None) -> None:
        w = import_optional("ipywidgets", extra="notebook", feature="AskWidget")
        self.agent = agent
        self.question = w.Text(placeholder="Ask about a figure or why it moved…",
                               description="Question", layout=w.Layout(width="70%"))
        self.date = w.DatePicker(description="As of", value=reference_date)
        self.button = w.Button(description="Ask", button_style="primary", icon="search")
        self.answer = w.HTML()
        self.options = w.HBox()
        self.trace = w.HTML()
        details = w.Accordion(children=[self.trace])
        details.set_title(0, "trace")
        self.ui = w.VBox([w.HBox([self.question, self.date, self.button]), self.answer,
                          self.options, details])
        self.last_result: Any = None
        self._w = w
        self.button.on_click(lambda _: self.ask())

    def ask(self, question: str | None = None) -> Any:
        """Ask (the box's text by default), render the result and return it."""
        if question is not None:
            self.question.value = question
        text = self.question.value.strip()
        if not text:
            self.answer.value = "<i>Type a question first.</i>"
            return None
        result = self.agent.ask(text, reference_date=self.date.value)
        self.last_result = result
        self.answer.value = self._render(result)
        self.options.children = tuple(self._option_button(text, opt)
                                      for opt in result.clarification.narrowing_options[:8])
        self.trace.value = ("<pre>" + html.escape(json.dumps(result.trace, indent=1,
                                                             ensure_ascii=False)) + "</pre>")
        return result

    def _option_button(self, question: str, option: str) -> Any:
        button = self._w.Button(description=option[:40], tooltip=f"re-ask with {option}")
        button.on_click(lambda _: self.ask(f"{question} {option}"))
        return button

    @staticmethod
    def _render(result: Any) -> str:
        sources = "".join(f"<li>{html.escape(s['doc'])} · {html.escape(s['locator'])}</li>"
                          for s in result.sources)
        badge = (f"<span style='opacity:.7'>route: {html.escape(result.route)} · "
                 f"clarification: {html.escape(result.clarification.mode)}</span>")
        body = html.escape(result.answer).replace("\n", "<br>")
        return (f"<div class='rs-answer'><div>{body}</div>{badge}"
                + (f"<ul>{sources}</ul>" if sources else "") + "</div>")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)  # type: ignore[no-untyped-call]
