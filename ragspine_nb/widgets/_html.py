"""Helpers the widgets share for the HTML they show (always escaped by the renderer first)."""

from __future__ import annotations

__all__ = ["compact"]

# static: spacing between the messages of a transcript (the renderer leaves it unstyled)
_STYLE = ("<style>.rs-widget .rs-msg{margin:0 0 10px}.rs-widget .rs-msg ul{margin:2px 0}"
          ".rs-widget .rs-transcript>.rs-title{font-weight:600}</style>")


def compact(block: str) -> str:
    """``block`` with normal line spacing.

    An ipywidgets ``HTML`` sets a 28 px line height, which spaces wrapped prose as if
    double-spaced.

    >>> compact("<p>x</p>").endswith("<p>x</p></div>")
    True
    """
    return f"<div class='rs-widget' style='line-height:1.45'>{_STYLE}{block}</div>"
