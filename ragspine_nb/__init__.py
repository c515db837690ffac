"""ragspine_nb: Jupyter-native dual-channel question answering over reports.

The structured channel answers "what's the number?" exactly from a SQLite fact
store; the narrative channel answers "why?" from cited passages.
"""

# the composition root: the notebook widgets register the views the core's shortcuts
# build (``agent.widget()``, ``index.tune()``...; see ragspine_nb.display.views)
from ragspine_nb import widgets as _widgets  # noqa: F401
from ragspine_nb.agent import Agent, AgentResult, Conversation, MockProvider, answer_question
from ragspine_nb.core import (
    Chunk,
    ConflictResult,
    Fact,
    FileReport,
    FoundResult,
    IngestReport,
    NotFoundResult,
    Source,
    StoredChunk,
    UnrecognizedParamResult,
)
from ragspine_nb.errors import (
    ConflictResolutionError,
    DatabaseNotFoundError,
    DiskFullError,
    LineageError,
    MissingExtraError,
    ProfileError,
    QueryLimitError,
    RagspineError,
    ReadOnlyQueryError,
    ReadOnlyStoreError,
)
from ragspine_nb.extract.limits import IngestLimits
from ragspine_nb.ingestion.workspace import Workspace, ingest
from ragspine_nb.profile import DomainProfile
from ragspine_nb.retrieval import NarrativeIndex, SearchResults
from ragspine_nb.stores import ChunkStore, FactStore
from ragspine_nb.stores.conversations import ConversationStore
from ragspine_nb.stores.limits import ReadLimits

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "AgentResult",
    "Conversation",
    "ConversationStore",
    "MockProvider",
    "answer_question",
    "FactStore",
    "ChunkStore",
    "DomainProfile",
    "NarrativeIndex",
    "SearchResults",
    "Workspace",
    "ingest",
    "IngestLimits",
    "ReadLimits",
    "IngestReport",
    "FileReport",
    "Fact",
    "Chunk",
    "StoredChunk",
    "Source",
    "FoundResult",
    "NotFoundResult",
    "ConflictResult",
    "UnrecognizedParamResult",
    "RagspineError",
    "MissingExtraError",
    "LineageError",
    "ProfileError",
    "DatabaseNotFoundError",
    "ReadOnlyQueryError",
    "ReadOnlyStoreError",
    "DiskFullError",
    "QueryLimitError",
    "ConflictResolutionError",
    "__version__",
]
