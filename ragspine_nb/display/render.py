"""Render plain display data (:class:`Card`) as escaped, self-contained HTML or text.

This module knows nothing about stores, retrieval or the agent: objects describe
themselves as a :class:`Card` and these functions draw it. Output is deterministic
(the container id is a hash of the content, never a memory address or a clock),
every user string is escaped, long cells are clipped, and no resource is fetched.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["Card", "Table", "Message", "render_html", "render_text", "render_flow",
           "render_transcript", "format_number", "MAX_CELL_CHARS"]

#: Cells longer than this are clipped with an ellipsis.
MAX_CELL_CHARS = 160


@dataclass(frozen=True)
class Table:
    """A captioned table of strings; ``total_rows`` > ``len(rows)`` adds an ellipsis row."""

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    total_rows: int | None = None


@dataclass(frozen=True)
class Card:
    """What a rich object shows: a title, key figures, tables and notes."""

    title: str
    subtitle: str = ""
    stats: tuple[tuple[str, str], ...] = ()
    tables: tuple[Table, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Message:
    """One message of a transcript: who wrote it, its text and the sources it cites."""

    role: str
    who: str
    text: str
    sources: tuple[tuple[str, str], ...] = ()


def format_number(value: float) -> str:
    """A number as people read it: thousands separated, never in scientific notation.

    >>> format_number(4310500.0), format_number(-42.3), format_number(0.125)
    ('4,310,500', '-42.3', '0.125')
    """
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.6f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=1)
def _css() -> str:
    return (resources.files("ragspine_nb.display") / "static" / "ragspine.css").read_text("utf-8")


def _clip(text: str, limit: int = MAX_CELL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _esc(text: str) -> str:
    return html.escape(_clip(text), quote=True)


def _table_html(t: Table) -> str:
    head = "".join(f"<th>{_esc(c)}</th>" for c in t.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_esc(v)}</td>" for v in row) + "</tr>" for row in t.rows
    )
    total = t.total_rows if t.total_rows is not None else len(t.rows)
    if total > len(t.rows):
        body += (f'<tr><td class="rs-more" colspan="{len(t.columns)}">… {total - len(t.rows)} '
                 "more rows (use .to_frame() for all)</td></tr>")
    if not t.rows:
        body = f'<tr><td class="rs-more" colspan="{max(len(t.columns), 1)}">(empty)</td></tr>'
    return f"<table><caption>{_esc(t.caption)}</caption><thead><tr>{head}</tr></thead>" \
           f"<tbody>{body}</tbody></table>"


def render_text(card: Card) -> str:
    """Plain-text rendering, the ``text/plain`` fallback of :func:`render_html`."""
    lines = [f"{card.title}" + (f" — {card.subtitle}" if card.subtitle else "")]
    if card.stats:
        lines.append("  " + " | ".join(f"{k}: {v}" for k, v in card.stats))
    for t in card.tables:
        lines.append(f"  {t.caption}:")
        lines.append("    " + " | ".join(t.columns))
        lines += ["    " + " | ".join(_clip(v, 60) for v in row) for row in t.rows]
        total = t.total_rows if t.total_rows is not None else len(t.rows)
        if total > len(t.rows):
            lines.append(f"    … {total - len(t.rows)} more rows")
    lines += [f"  {n}" for n in card.notes]
    return "\n".join(lines)


def render_html(card: Card) -> str:
    """Render ``card`` as one self-contained, escaped HTML block.

    The block carries its own ``<style>`` (scoped under ``.rs-card``, dark-mode aware
    through ``prefers-color-scheme`` and JupyterLab's theme variables) and a
    ``<details>`` with the text rendering for viewers that strip styles.
    """
    text = render_text(card)
    ident = "rs-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
    stats = "".join(
        f'<span class="rs-stat">{_esc(k)}: <b>{_esc(v)}</b></span>' for k, v in card.stats
    )
    tables = "".join(_table_html(t) for t in card.tables)
    notes = "".join(f'<div class="rs-note">{_esc(n)}</div>' for n in card.notes)
    sub = f'<span class="rs-sub">{_esc(card.subtitle)}</span>' if card.subtitle else ""
    return (
        f'<div id="{ident}" class="rs-card"><style>{_css()}</style>'
        f'<div><span class="rs-title">{_esc(card.title)}</span>{sub}</div>'
        f'<div class="rs-stats">{stats}</div>{tables}{notes}'
        f"<details><summary>text</summary><pre>{html.escape(text)}</pre></details></div>"
    )


def render_flow(title: str, columns: list[list[tuple[str, str]]]) -> str:
    """Draw stages left to right; boxes in one column run in parallel. No network, no JS.

    ``columns`` holds, per stage, ``(label, details)`` pairs.
    """
    text = " → ".join(" ∥ ".join(label for label, _ in col) for col in columns)
    ident = "rs-" + hashlib.sha1((title + text).encode("utf-8")).hexdigest()[:10]
    cols = []
    for col in columns:
        boxes = "".join(
            f'<div class="rs-node"><b>{_esc(label)}</b>'
            + (f'<div class="rs-node-d">{_esc(details)}</div>' if details else "") + "</div>"
            for label, details in col)
        cols.append(f'<div class="rs-col">{boxes}</div>')
    arrows = '<div class="rs-arrow">→</div>'.join(cols)
    return (f'<div id="{ident}" class="rs-card"><style>{_css()}</style>'
            f'<div><span class="rs-title">{_esc(title)}</span></div>'
            f'<div class="rs-flow">{arrows}</div>'
            f"<details><summary>text</summary><pre>{html.escape(text)}</pre></details></div>")


def render_transcript(messages: Sequence[Message], *, title: str = "",
                      empty: str = "No messages yet.") -> str:
    """A conversation as escaped HTML: each message with who wrote it and its sources.

    >>> out = render_transcript([Message("user", "You", "<b>hi</b>", (("a.md", "p1"),))])
    >>> "<div>&lt;b&gt;hi&lt;/b&gt;</div>" in out, "<li>a.md · p1</li>" in out
    (True, True)
    """
    rows = []
    for m in messages:
        sources = "".join(f"<li>{html.escape(doc)} · {html.escape(locator)}</li>"
                          for doc, locator in m.sources)
        body = html.escape(m.text).replace("\n", "<br>")
        rows.append(f"<div class='rs-msg rs-{html.escape(m.role)}'><b>{html.escape(m.who)}</b>"
                    f"<div>{body}</div>" + (f"<ul>{sources}</ul>" if sources else "") + "</div>")
    head = f"<div class='rs-title'>{html.escape(title)}</div>" if title else ""
    return (f"<div class='rs-transcript'>{head}"
            + ("".join(rows) or f"<i>{html.escape(empty)}</i>") + "</div>")
