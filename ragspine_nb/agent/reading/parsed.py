"""A parsed question: the slots the rule parser (or another :class:`IntentParser`) reads.

:class:`ParsedIntent` is what crosses from reading to the agent: the rows, columns,
entities and periods named (in question order), the cues read, and the route
(``structured``, ``narrative`` or ``composite``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Protocol, runtime_checkable

__all__ = ["ParsedIntent", "IntentParser", "ROUTE_STRUCTURED", "ROUTE_NARRATIVE",
           "ROUTE_COMPOSITE"]

ROUTE_STRUCTURED = "structured"
ROUTE_NARRATIVE = "narrative"
ROUTE_COMPOSITE = "composite"


@dataclass(frozen=True)
class ParsedIntent:
    """Slots of one question. ``raw_question`` is always the user's exact text."""

    raw_question: str
    route: str
    language: str
    metric: str | None = None
    entity: str | None = None
    period: tuple[str, str] | None = None
    channel: str | None = None
    #: several channels (columns) named as a list: one sub-task each
    channels: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    periods: tuple[tuple[str, str], ...] = ()
    external_entity: str | None = None
    numeric_cue: bool = False
    narrative_cue: bool = False
    list_cue: bool = False
    change_cue: bool = False
    #: the one period named is where a change starts ("from FY2024", "since 2024", "较2024年")
    change_from: bool = False
    percent_cue: bool = False
    #: fuzzy candidates (some words shared) when no metric matched: options to ask back
    metric_candidates: tuple[str, ...] = ()
    #: several channels (e.g. table columns) named at once: options to ask back
    channel_options: tuple[str, ...] = ()
    #: the row read as the closing balance ("... end of the year") of a balance named bare
    read_as_closing: str | None = None
    #: a total and its part were both named: ``(*totals, part)``, the part is answered
    read_as_part: tuple[str, ...] = ()
    #: metrics without figures qualified by a row: ``(*unfilled, row)``, the row answered
    read_as_row: tuple[str, ...] = ()
    #: ``(balance, movement)``: a roll-forward's balance named with its movement
    read_as_movement: tuple[str, ...] = ()
    #: a period phrase that names no period of ours ("the quarter ended July 27, 2019",
    #: "nine months ended ..."): never read as the year in it; the gateway asks back
    unread_period: str = ""
    #: words qualifying the figure that no row, column or entity states (two or more
    #: send the question to the narrative channel, never to the nearest row)
    unstated: tuple[str, ...] = ()
    mentions: dict[str, str] = field(default_factory=dict)  # slot → the text that matched


@runtime_checkable
class IntentParser(Protocol):
    """Parses a question; implementations must fill ``raw_question`` with the input."""

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        """Return the intent."""
        ...
