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
           "render_transcript", "format_number", "badge", "MAX_CELL_CHARS", "INLINE"]

#: Cells longer than this are clipped with an ellipsis.
MAX_CELL_CHARS = 160

#: The layout each block carries in its own ``style=`` attribute. JupyterLab drops the
#: ``<style>`` of an untrusted (e.g. freshly cloned) notebook's stored outputs but keeps
#: inline styles, so spacing, flex layout and borders must not depend on the stylesheet.
#: Colours stay in the stylesheet (theme-aware, and it overrides these borders' neutral
#: grey with ``!important``); ``#999`` reads on light and dark backgrounds alike.
INLINE: dict[str, str] = {
    "card": "border:1px solid #999;border-radius:6px;padding:8px 12px;margin:4px 0;"
            "max-width:100%;overflow-x:auto;font-size:13px",
    "head": "margin:0 0 4px",
    "title": "font-weight:600;font-size:14px",
    "sub": "margin-left:8px",
    "stats": "display:flex;flex-wrap:wrap;gap:6px 16px;margin:6px 0",
    "note": "margin-top:4px",
    "caption": "text-align:left;padding:2px 0",
    "flow": "display:flex;flex-direction:row;align-items:center;gap:6px;flex-wrap:wrap;"
            "margin:6px 0",
    "col": "display:flex;flex-direction:column;gap:4px",
    "node": "border:1px solid #999;border-radius:4px;padding:3px 8px",
    "node_d": "font-size:11px",
    "arrow": "font-size:16px",
    "msg": "margin:0 0 10px",
    "checks": "display:flex;flex-wrap:wrap;gap:4px 10px;margin:4px 0",
}
#: Badge colours: white on green / red / grey reads in light and dark themes.
_BADGE = {True: "#1a7f37", False: "#cf222e", None: "#6e7781"}


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
    #: Targets checked: ``(label, text, met)``; each is drawn as a pass/miss badge.
    checks: tuple[tuple[str, str, bool], ...] = ()


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


def badge(met: bool | None, text: str = "") -> str:
    """A pass / miss badge with inline colours (``met=None``: no target, grey).

    >>> ">PASS</span>" in badge(True), ">MISS</span>" in badge(False), "#cf222e" in badge(False)
    (True, True, True)
    """
    word = text or {True: "PASS", False: "MISS", None: "—"}[met]
    return (f'<span class="rs-badge" style="background:{_BADGE[met]};color:#fff;'
            "border-radius:9px;padding:0 7px;font-size:11px;font-weight:600;"
            f'white-space:nowrap">{html.escape(word)}</span>')


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
    return f'<table><caption style="{INLINE["caption"]}">{_esc(t.caption)}</caption>' \
           f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_text(card: Card) -> str:
    """Plain-text rendering, the ``text/plain`` fallback of :func:`render_html`."""
    lines = [f"{card.title}" + (f" — {card.subtitle}" if card.subtitle else "")]
    if card.stats:
        lines.append("  " + " | ".join(f"{k}: {v}" for k, v in card.stats))
    if card.checks:
        lines.append("  " + " | ".join(f"[{'PASS' if ok else 'MISS'}] {k}: {v}"
                                       for k, v, ok in card.checks))
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
    checks = "".join(f'<span class="rs-check">{badge(ok)} {_esc(k)}: {_esc(v)}</span>'
                     for k, v, ok in card.checks)
    checks = f'<div class="rs-checks" style="{INLINE["checks"]}">{checks}</div>' if checks else ""
    tables = "".join(_table_html(t) for t in card.tables)
    notes = "".join(f'<div class="rs-note" style="{INLINE["note"]}">{_esc(n)}</div>'
                    for n in card.notes)
    return (
        f'<div id="{ident}" class="rs-card" style="{INLINE["card"]}"><style>{_css()}</style>'
        f"{_head(card.title, card.subtitle)}"
        f'<div class="rs-stats" style="{INLINE["stats"]}">{stats}</div>{checks}{tables}{notes}'
        f"<details><summary>text</summary><pre>{html.escape(text)}</pre></details></div>"
    )


def _head(title: str, subtitle: str = "") -> str:
    sub = (f'<span class="rs-sub" style="{INLINE["sub"]}">{_esc(subtitle)}</span>'
           if subtitle else "")
    return (f'<div style="{INLINE["head"]}"><span class="rs-title" style="{INLINE["title"]}">'
            f"{_esc(title)}</span>{sub}</div>")


def render_flow(title: str, columns: list[list[tuple[str, str]]]) -> str:
    """Draw stages left to right; boxes in one column run in parallel. No network, no JS.

    ``columns`` holds, per stage, ``(label, details)`` pairs.
    """
    text = " → ".join(" ∥ ".join(label for label, _ in col) for col in columns)
    ident = "rs-" + hashlib.sha1((title + text).encode("utf-8")).hexdigest()[:10]
    cols = []
    for col in columns:
        boxes = "".join(
            f'<div class="rs-node" style="{INLINE["node"]}"><b>{_esc(label)}</b>'
            + (f'<div class="rs-node-d" style="{INLINE["node_d"]}">{_esc(details)}</div>'
               if details else "") + "</div>"
            for label, details in col)
        cols.append(f'<div class="rs-col" style="{INLINE["col"]}">{boxes}</div>')
    arrows = f'<div class="rs-arrow" style="{INLINE["arrow"]}">→</div>'.join(cols)
    return (f'<div id="{ident}" class="rs-card" style="{INLINE["card"]}"><style>{_css()}</style>'
            f"{_head(title)}"
            f'<div class="rs-flow" style="{INLINE["flow"]}">{arrows}</div>'
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
                          for doc, locator in m.sources
                          if f"{doc} · {locator}" not in m.text)  # each source listed once
        body = html.escape(m.text).replace("\n", "<br>")
        rows.append(f"<div class='rs-msg rs-{html.escape(m.role)}' style='{INLINE['msg']}'>"
                    f"<b>{html.escape(m.who)}</b>"
                    f"<div>{body}</div>" + (f"<ul>{sources}</ul>" if sources else "") + "</div>")
    head = (f"<div class='rs-title' style='{INLINE['title']}'>{html.escape(title)}</div>"
            if title else "")
    return (f"<div class='rs-transcript'>{head}"
            + ("".join(rows) or f"<i>{html.escape(empty)}</i>") + "</div>")
