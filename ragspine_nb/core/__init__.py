"""Plain value types exchanged between layers.

Stores, retrieval, the agent, displays and evaluation exchange only these frozen
dataclasses: :mod:`~ragspine_nb.core.records` (facts and chunks with lineage, labels),
:mod:`~ragspine_nb.core.results` (what a fact lookup returns),
:mod:`~ragspine_nb.core.handoff` (snippets, citations and what each channel hands the
answer) and
:mod:`~ragspine_nb.core.reports` (what ingestion reports).
"""

from ragspine_nb.core.figures import COMPUTED_OPERATIONS, OPERATIONS, Figure
from ragspine_nb.core.handoff import (
    SNIPPET_KEYS,
    Citation,
    CitationDict,
    Dropped,
    NarrativeOutcome,
    Snippet,
    ToolOutcome,
)
from ragspine_nb.core.records import (
    CHANGE_CHANNEL,
    CHANGE_PCT_CHANNEL,
    DEFAULT_SENSITIVITY,
    PERIOD_TYPES,
    RESTRICTED,
    RESTRICTED_MENTIONS,
    Chunk,
    Fact,
    Source,
    StoredChunk,
    is_blank,
    is_restricted,
    is_stated_change,
)
from ragspine_nb.core.reports import (
    INGEST_STATUSES,
    FileReport,
    IngestReport,
    SkippedItem,
)
from ragspine_nb.core.results import (
    ConflictResult,
    FoundResult,
    NotFoundResult,
    QueryResult,
    Resolution,
    UnrecognizedParamResult,
)

__all__ = [
    "Figure",
    "Snippet",
    "SNIPPET_KEYS",
    "Citation",
    "CitationDict",
    "Dropped",
    "ToolOutcome",
    "NarrativeOutcome",
    "OPERATIONS",
    "COMPUTED_OPERATIONS",
    "Fact",
    "Chunk",
    "StoredChunk",
    "Source",
    "FoundResult",
    "NotFoundResult",
    "UnrecognizedParamResult",
    "ConflictResult",
    "Resolution",
    "QueryResult",
    "PERIOD_TYPES",
    "CHANGE_CHANNEL",
    "CHANGE_PCT_CHANNEL",
    "RESTRICTED",
    "DEFAULT_SENSITIVITY",
    "is_blank",
    "is_stated_change",
    "is_restricted",
    "RESTRICTED_MENTIONS",
    "INGEST_STATUSES",
    "SkippedItem",
    "FileReport",
    "IngestReport",
]
