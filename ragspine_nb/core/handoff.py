"""What the two channels hand the answer: snippets, citations and each channel's outcome.

A narrative retriever returns JSON-ready snippet mappings (text, doc_id,
source_locator, scores…); the agent reads each into a :class:`Snippet` at its door
(:meth:`Snippet.coerce`, which refuses a passage without a source) and grounds them into a
:class:`NarrativeOutcome`; the fact channel's lookups form a :class:`ToolOutcome`; the
answer cites both as :class:`Citation` objects. Every one carries a source document and a
locator. A :class:`Snippet` still reads as a mapping (``snippet["doc_id"]``) for code
written against the plain form.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypedDict

from ragspine_nb.core.figures import Figure
from ragspine_nb.core.results import QueryResult

__all__ = ["CitationDict", "Snippet", "Citation", "Dropped", "ToolOutcome",
           "NarrativeOutcome", "SNIPPET_KEYS"]


class CitationDict(TypedDict):
    """A :class:`Citation` as plain data (what results, the service and exports carry)."""

    index: int
    kind: str
    doc_id: str
    title: str
    locator: str
    excerpt: str


@dataclass(frozen=True, eq=False)
class Snippet(Mapping[str, Any]):
    """A retrieved passage with its provenance and scores (RESTRICTED already removed).

    Reads as a mapping too (``s["text"]``, ``s.get("scores")``), with the keys of
    :data:`SNIPPET_KEYS`; equal to any mapping with the same items.

    Examples
    --------
    >>> s = Snippet.coerce({"text": "Revenue rose.", "doc_id": "a.md", "source_locator": "p1"})
    >>> s.doc_id, s["source_locator"], s.scores
    ('a.md', 'p1', {})
    """

    text: str
    doc_id: str
    source_locator: str
    chunk_id: str = ""
    title: str = ""
    topic: str = ""
    entity: str = ""
    geography: str = ""
    period: str = ""
    language: str = ""
    sensitivity: str = ""
    scores: Mapping[str, float | None] = field(default_factory=dict)

    @classmethod
    def coerce(cls, value: Snippet | Mapping[str, Any]) -> Snippet:
        """A snippet from a snippet or a mapping with the same keys (others ignored).

        Raises
        ------
        KeyError
            When the mapping lacks ``text``, ``doc_id`` or ``source_locator`` (a passage
            without a source is never cited).
        """
        if isinstance(value, Snippet):
            return value
        missing = [k for k in ("text", "doc_id", "source_locator") if k not in value]
        if missing:
            raise KeyError(f"a snippet needs {', '.join(missing)} "
                           f"(keys: {', '.join(SNIPPET_KEYS)})")
        known = {k: value[k] for k in SNIPPET_KEYS if k in value and value[k] is not None}
        known["text"] = str(known["text"])
        return cls(**known)

    def to_dict(self) -> dict[str, Any]:
        """Every field as a plain dict (JSON-ready)."""
        out = asdict(self)
        out["scores"] = dict(self.scores)
        return out

    def __getitem__(self, key: str) -> Any:
        if key not in SNIPPET_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(SNIPPET_KEYS)

    def __len__(self) -> int:
        return len(SNIPPET_KEYS)



#: The keys a :class:`Snippet` reads as.
SNIPPET_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Snippet))


@dataclass(frozen=True)
class Citation:
    """One numbered citation of an answer: a passage, a stored fact or another source."""

    index: int
    kind: str
    doc_id: str
    locator: str
    title: str = ""
    excerpt: str = ""

    def to_dict(self) -> CitationDict:
        """The citation as plain data (index, kind, doc_id, title, locator, excerpt)."""
        return CitationDict(index=self.index, kind=self.kind, doc_id=self.doc_id,
                            title=self.title, locator=self.locator, excerpt=self.excerpt)

    @property
    def source(self) -> dict[str, str]:
        """The document and locator cited (``{"doc": …, "locator": …}``)."""
        return {"doc": self.doc_id, "locator": self.locator}


@dataclass(frozen=True)
class Dropped:
    """A sentence left out of an answer, and why."""

    sentence: str
    reason: str
    metric_code: str = ""
    entity: str = ""
    period: str = ""
    channel: str = ""
    stated: str = ""
    stored: str = ""

    def to_trace(self) -> dict[str, str]:
        """Identifiers only (the trace never holds content): reason and fact identity."""
        return {k: v for k, v in asdict(self).items()
                if k in ("reason", "metric_code", "entity", "period", "channel") and v}

    def to_dict(self) -> dict[str, str]:
        """Every field, for the answer's result object."""
        return asdict(self)


@dataclass(frozen=True)
class ToolOutcome:
    """What the fact channel hands the answer: lookups, the SQL that read them, figures.

    ``figures`` are the numbers the answer asserts (empty when it asserts none).
    """

    results: tuple[QueryResult, ...] = ()
    sql: tuple[tuple[str, tuple[str, ...]], ...] = ()
    figures: tuple[Figure, ...] = ()

    def tool_results(self) -> list[dict[str, Any]]:
        """Each lookup in the seed's JSON shape."""
        return [r.to_dict() for r in self.results]


@dataclass(frozen=True)
class NarrativeOutcome:
    """What the narrative channel hands the answer.

    ``text`` is the grounded prose followed by its numbered sources; ``passages`` are
    the passages it cites as :class:`Citation` objects; ``retrieval`` is the query plan
    and evidence loop (counts and kinds, empty when none ran); ``dropped`` the sentences
    grounding left out.
    """

    text: str
    sources: tuple[dict[str, str], ...] = ()
    dropped: tuple[Dropped, ...] = ()
    passages: tuple[Citation, ...] = ()
    retrieval: Mapping[str, Any] = field(default_factory=dict)

    def merged_sources(self, first: Sequence[dict[str, str]]) -> list[dict[str, str]]:
        """``first``, then this outcome's sources not among them."""
        out = list(first)
        return out + [s for s in self.sources if s not in out]
