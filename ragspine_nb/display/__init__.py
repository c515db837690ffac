"""HTML and text displays rendered from plain data (no stores, no network)."""

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import (
    Card,
    Message,
    Table,
    format_number,
    render_flow,
    render_html,
    render_text,
    render_transcript,
)
from ragspine_nb.display.scorecard import Headline, Scorecard

__all__ = ["Card", "Table", "Message", "CardReprMixin", "render_html", "render_text",
           "render_flow", "render_transcript", "format_number", "Headline", "Scorecard"]
