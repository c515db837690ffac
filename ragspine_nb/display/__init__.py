"""HTML and text displays rendered from plain data (no stores, no network)."""

from ragspine_nb.display.render import (
    Card,
    Table,
    format_number,
    render_flow,
    render_html,
    render_text,
)

__all__ = ["Card", "Table", "render_html", "render_text", "render_flow", "format_number"]
