"""Headline figures against their targets: a :class:`Scorecard` and the report's summary page.

Plain data in (:class:`Headline`: a value, its target, its baseline), escaped HTML out,
with every style inline (a stored notebook shown untrusted keeps it) and nothing fetched.
A scorecard's notebook output also carries its figures as JSON under
:data:`SCORECARD_MIME`, so ``ragspine-nb report`` can put every notebook's headline
figures on one summary page without recomputing them.

For a reader who is not an engineer, each headline carries what it means and the data it
was measured on (the demo's fictional company, a public benchmark, the reader's own files,
with the split), and a scorecard lists what was *not run* and how to get it: the summary
page opens with one sentence per measure (:func:`verdict_sentences`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import INLINE, Card, Table, badge, format_number

__all__ = ["Headline", "Scorecard", "SCORECARD_MIME", "render_scorecard",
           "render_summary_page", "verdict_sentences"]

#: The MIME type of a scorecard's figures in a notebook output.
SCORECARD_MIME = "application/vnd.ragspine.scorecard+json"
_TOL = 1e-9
_CELL = "padding:3px 8px;border-bottom:1px solid #d0d7de;vertical-align:middle"
_TEXT = _CELL + ";text-align:left"  # JupyterLab right-aligns output tables by default
_NUM = _CELL + ";text-align:right;font-variant-numeric:tabular-nums"


@dataclass(frozen=True)
class Headline:
    """One headline figure: its value, its target (``("≥", 0.5)``) and its baseline.

    >>> h = Headline("TAT-QA", "correct", 0.453, ("≥", 0.5), baseline=0.342)
    >>> h.met, h.value_text, h.target_text, h.trend()
    (False, '0.453', '≥ 0.500', ('▲ +0.111 vs 0.342', True))
    >>> Headline("QA", "fabrication count", 0, ("≤", 0), baseline=0, digits=0).trend()
    ('= baseline', None)
    """

    section: str
    label: str
    value: float
    target: tuple[str, float] | None = None
    baseline: float | None = None
    unit: str = ""
    digits: int = 3
    note: str = ""
    #: What the figure measures, in one plain clause ("share of number questions answered
    #: with the exact figure").
    meaning: str = ""
    #: The data it was measured on, with its split ("the demo's fictional company ACME, 63
    #: golden questions").
    data: str = ""
    #: How far short of a ``≥``/``≤`` target still counts as met (a published anchor's
    #: rounding: 0.6646 meets "≥ 0.665" given as three decimals).
    tolerance: float = 0.0

    def _num(self, v: float) -> str:
        return format_number(round(v)) if self.digits == 0 else f"{v:,.{self.digits}f}"

    @property
    def met(self) -> bool | None:
        """Whether the value meets its target (``None``: no target)."""
        if self.target is None:
            return None
        op, bound = self.target
        slack = _TOL + self.tolerance
        if op == "≥":
            return self.value >= bound - slack
        if op == "≤":
            return self.value <= bound + slack
        return abs(self.value - bound) <= slack

    @property
    def value_text(self) -> str:
        """The value as written on the card (with its unit, if any)."""
        return self._num(self.value) + (f" {self.unit}" if self.unit else "")

    @property
    def target_text(self) -> str:
        """``"≥ 0.500"``, or ``"—"`` without a target."""
        return "—" if self.target is None else f"{self.target[0]} {self._num(self.target[1])}"

    def trend(self) -> tuple[str, bool | None]:
        """The change against the baseline, and whether it is for the better.

        ``None`` for "better" when the value is even or the target gives no direction;
        ``("", None)`` without a baseline.
        """
        if self.baseline is None:
            return "", None
        delta = self.value - self.baseline
        if abs(delta) <= _TOL:
            return "= baseline", None
        better = None if self.target is None or self.target[0] == "=" else (
            (delta > 0) == (self.target[0] == "≥"))
        sign = "+" if delta > 0 else "−"
        return f"{'▲' if delta > 0 else '▼'} {sign}{self._num(abs(delta))} vs " \
               f"{self._num(self.baseline)}", better

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Headline:
        """The inverse of :meth:`to_dict` (a JSON list target becomes a tuple)."""
        target = data.get("target")
        return cls(**{**data, "target": tuple(target) if target is not None else None})


class Scorecard(CardReprMixin):
    """Headline figures, grouped by section, each with a pass / miss badge and its trend.

    >>> card = Scorecard("Headline figures", [Headline("QA", "numeric accuracy", 1.0, ("≥", 1.0))])
    >>> card.met, card.missed, repr(card)
    (1, 0, "Scorecard('Headline figures', headlines=1, met=1, missed=0)")
    """

    def __init__(self, title: str, headlines: Iterable[Headline], subtitle: str = "",
                 not_run: Iterable[str] = ()) -> None:
        self.title = title
        self.subtitle = subtitle
        self.headlines: tuple[Headline, ...] = tuple(headlines)
        #: Measures that could not run, each ``"what: why (how to get it)"``.
        self.not_run: tuple[str, ...] = tuple(not_run)

    @property
    def met(self) -> int:
        """How many headlines meet their target."""
        return sum(h.met is True for h in self.headlines)

    @property
    def missed(self) -> int:
        """How many headlines miss their target."""
        return sum(h.met is False for h in self.headlines)

    def to_dict(self) -> dict[str, Any]:
        """``{"title", "subtitle", "headlines": [...]}`` (what the report reads back)."""
        return {"title": self.title, "subtitle": self.subtitle,
                "headlines": [h.to_dict() for h in self.headlines],
                "not_run": list(self.not_run)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scorecard:
        """The inverse of :meth:`to_dict`."""
        return cls(data["title"], (Headline.from_dict(h) for h in data["headlines"]),
                   data.get("subtitle", ""), data.get("not_run", ()))

    def to_frame(self) -> Any:
        """One row per headline: section, measure, value, target, status, trend."""
        import pandas as pd

        return pd.DataFrame([{"section": h.section, "measure": h.label, "value": h.value,
                              "target": h.target_text,
                              "status": {True: "pass", False: "miss", None: ""}[h.met],
                              "vs baseline": h.trend()[0]} for h in self.headlines])

    def _display_card(self) -> Card:
        rows = tuple((h.section, h.label, h.value_text, h.target_text,
                      {True: "PASS", False: "MISS", None: "—"}[h.met], h.trend()[0])
                     for h in self.headlines)
        return Card(self.title, self.subtitle, (("targets met", f"{self.met} of "
                                                 f"{self.met + self.missed}"),),
                    (Table("Headline figures", ("section", "measure", "value", "target",
                                                "status", "vs baseline"), rows),))

    def _display_html(self) -> str:
        return render_scorecard(self)

    def _display_data(self) -> dict[str, Any]:
        return {SCORECARD_MIME: self.to_dict()}

    def __repr__(self) -> str:
        return (f"Scorecard({self.title!r}, headlines={len(self.headlines)}, met={self.met}, "
                f"missed={self.missed})")


def _row(h: Headline) -> str:
    trend, better = h.trend()
    colour = {True: "#1a7f37", False: "#cf222e", None: "inherit"}[better]
    note = (f'<div style="font-size:11px;opacity:.75">{html.escape(h.note)}</div>'
            if h.note else "")
    return (f'<tr><td style="{_TEXT}">{html.escape(h.label)}{note}</td>'
            f'<td style="{_NUM};font-weight:600">{html.escape(h.value_text)}</td>'
            f'<td style="{_NUM}">{html.escape(h.target_text)}</td>'
            f'<td style="{_CELL};text-align:center">{badge(h.met)}</td>'
            f'<td style="{_TEXT};color:{colour};white-space:nowrap">{html.escape(trend)}</td></tr>')


def render_scorecard(card: Scorecard) -> str:
    """The scorecard as one escaped HTML block, every style inline."""
    sections: dict[str, list[Headline]] = {}
    for h in card.headlines:
        sections.setdefault(h.section, []).append(h)
    head = "".join(f'<th style="{_CELL};text-align:{a}">{t}</th>' for t, a in (
        ("measure", "left"), ("value", "right"), ("target", "right"), ("status", "center"),
        ("vs baseline", "left")))
    body = "".join(
        f'<tr><th colspan="5" style="{_CELL};text-align:left;padding-top:10px">'
        f"{html.escape(name)}</th></tr>" + "".join(_row(h) for h in rows)
        for name, rows in sections.items())
    body += "".join(
        f'<tr><td colspan="5" class="rs-not-run" style="{_TEXT};color:#9a6700">'
        f"not run: {html.escape(line)}</td></tr>" for line in card.not_run)
    total = card.met + card.missed
    verdict = badge(card.missed == 0, f"{card.met} of {total} targets met")
    summary = f'<span style="margin-left:10px">{verdict}</span>' if total else ""
    sub = (f'<span class="rs-sub" style="{INLINE["sub"]}">{html.escape(card.subtitle)}</span>'
           if card.subtitle else "")
    return (f'<div class="rs-card rs-scorecard" style="{INLINE["card"]};width:fit-content">'
            f'<div style="{INLINE["head"]}"><span class="rs-title" style="{INLINE["title"]}">'
            f"{html.escape(card.title)}</span>{sub}{summary}</div>"
            f'<table style="border-collapse:collapse;margin:4px 0;font-size:13px">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


_PAGE_CSS = (
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,"
    "'Liberation Sans','DejaVu Sans',sans-serif;color:#1f2328;background:#fff;margin:0}"
    "main{max-width:1000px;margin:0 auto;padding:12px 24px 32px}"
    "h1{font-size:24px;margin:12px 0 4px}h2{font-size:17px;margin:20px 0 6px}"
    ".rs-lead{color:#59636e;margin:0 0 12px}"
    ".rs-pages li{margin:3px 0}a{color:#0969da}"
    ".rs-verdict{padding-left:0;list-style:none}.rs-verdict li{margin:6px 0;line-height:1.45}"
    ".rs-verdict .rs-data{color:#59636e}"
)


def verdict_sentences(card: Scorecard) -> list[tuple[bool | None, str]]:
    """One plain sentence per headline (what it means, on what data, passed or not).

    Then one per measure that did not run. Each comes with its pass/miss (``None``: no
    target, or not run).

    >>> h = Headline("QA", "accuracy", 1.0, ("≥", 1.0), meaning="share of exact figures",
    ...              data="the demo")
    >>> for _, line in verdict_sentences(Scorecard("S", [h], not_run=["TAT-QA: no file"])):
    ...     print(line)
    Accuracy, the share of exact figures: 1.000 on the demo, target ≥ 1.000 — passed.
    Not run: TAT-QA: no file.
    """
    out: list[tuple[bool | None, str]] = []
    for h in card.headlines:
        label = h.label[:1].upper() + h.label[1:]
        meaning = f", the {h.meaning}" if h.meaning else ""
        data = f" on {h.data}" if h.data else ""
        verdict = {True: "passed", False: "missed", None: "no target"}[h.met]
        target = f", target {h.target_text}" if h.target is not None else ""
        out.append((h.met, f"{label}{meaning}: {h.value_text}{data}{target} — {verdict}."))
    out += [(None, f"Not run: {line}.") for line in card.not_run]
    return out


def render_summary_page(title: str, scorecards: Sequence[Scorecard],
                        pages: Sequence[tuple[str, str]], *, nav: str = "",
                        lead: str = "") -> str:
    """A whole HTML page: every scorecard, then links to the detailed pages.

    ``pages`` holds ``(href, title)`` pairs; ``nav`` is an HTML navigation bar the caller
    built (shared by every page of the report). No script and no external resource.
    """
    cards = "".join(render_scorecard(c) for c in scorecards) or (
        "<p>None of these notebooks shows headline figures.</p>")
    sentences = [v for c in scorecards for v in verdict_sentences(c)]
    verdict = ('<h2>In plain words</h2><ul class="rs-verdict">' + "".join(
        f'<li>{badge(met, "NOT RUN" if text.startswith("Not run") else "")} '
        f"{html.escape(text)}</li>" for met, text in sentences) + "</ul><h2>The figures</h2>"
        if sentences else "")
    links = "".join(f'<li><a href="{html.escape(href)}">{html.escape(name)}</a></li>'
                    for href, name in pages)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{_PAGE_CSS}</style></head>"
            f'<body>{nav}<main id="rs-summary"><h1>{html.escape(title)}</h1>'
            f'<p class="rs-lead">{html.escape(lead)}</p>{verdict}{cards}'
            f'<h2>Detailed pages</h2><ul class="rs-pages">{links}</ul></main></body></html>')
