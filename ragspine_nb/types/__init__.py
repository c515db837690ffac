"""Plain value types exchanged between layers.

Stores, retrieval, the agent, displays and evaluation exchange only these frozen
dataclasses: :mod:`~ragspine_nb.types.records` (facts and chunks with lineage, labels),
:mod:`~ragspine_nb.types.results` (what a fact lookup returns) and
:mod:`~ragspine_nb.types.reports` (what ingestion reports).
"""

from ragspine_nb.types.figures import COMPUTED_OPERATIONS, OPERATIONS, Figure
from ragspine_nb.types.records import (
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
)
from ragspine_nb.types.reports import (
    INGEST_STATUSES,
    FileReport,
    IngestReport,
    SkippedItem,
)
from ragspine_nb.types.results import (
    ConflictResult,
    FoundResult,
    NotFoundResult,
    QueryResult,
    Resolution,
    UnrecognizedParamResult,
)

__all__ = [
    "Figure",
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
    "CHANGE_PCT_CHANNEL",
    "RESTRICTED",
    "DEFAULT_SENSITIVITY",
    "is_blank",
    "is_restricted",
    "RESTRICTED_MENTIONS",
    "INGEST_STATUSES",
    "SkippedItem",
    "FileReport",
    "IngestReport",
]
