"""The fact store's tables: their columns, the schema and the fixed SQL it runs.

``fact_metric`` holds the settled facts, ``fact_statement`` every document's statement of
one (:mod:`ragspine_nb.stores.statements`), ``source_document`` the ledger of what was
ingested from which bytes, ``document_identity`` and ``document_registrant`` what a
document says of itself, ``vocabulary`` the names its tables brought. Every SQL string
here names only fixed column identifiers; values are always bound.
"""

from __future__ import annotations

from ragspine_nb.core import PERIOD_TYPES
from ragspine_nb.stores import statements as st
from ragspine_nb.stores.registrants import REGISTRANT_SCHEMA

__all__ = ["FACT_COLUMNS", "FACT_FILTERS", "DOCUMENT_COLUMNS", "IDENTITY_COLUMNS", "REGISTRANT",
           "SCHEMA", "REQUIRED", "LINEAGE", "LEDGER_UPSERT", "LEDGER_SELECT", "VOCABULARY_DELETE",
           "VOCABULARY_INSERT", "VOCABULARY_FORMAT", "IDENTITY_DELETE", "IDENTITY_UPSERT",
           "IDENTITY_SELECT", "QUERY"]

#: Columns of ``fact_metric`` in :class:`~ragspine_nb.core.Fact` field order.
FACT_COLUMNS: tuple[str, ...] = (
    "metric_code", "entity", "geography", "channel", "period_type", "period", "value", "unit",
    "source_doc_id", "source_locator", "source_file_hash", "extractor_version",
    "mapping_version", "valid_as_of", "ingested_at",
)
#: Keyword filters accepted by :meth:`FactStore.iter_facts`.
FACT_FILTERS: tuple[str, ...] = (
    "metric_code", "entity", "geography", "channel", "period_type", "period", "source_doc_id",
)
REQUIRED = ("metric_code", "entity", "geography", "channel", "period", "unit")
LINEAGE = ("source_doc_id", "source_locator")


def _nonblank(col: str) -> str:
    return f"{col} TEXT NOT NULL CHECK (length(trim({col})) > 0)"


_COLUMNS_DDL = f"""
    {_nonblank("metric_code")},
    {_nonblank("entity")},
    {_nonblank("geography")},
    {_nonblank("channel")},
    period_type TEXT NOT NULL CHECK (period_type IN ({", ".join(repr(p) for p in PERIOD_TYPES)})),
    {_nonblank("period")},
    value REAL NOT NULL,
    {_nonblank("unit")},
    {_nonblank("source_doc_id")},
    {_nonblank("source_locator")},
    source_file_hash TEXT NOT NULL DEFAULT '',
    extractor_version TEXT NOT NULL DEFAULT '',
    mapping_version TEXT NOT NULL DEFAULT '',
    valid_as_of TEXT NOT NULL DEFAULT '',
    {_nonblank("ingested_at")}"""
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS fact_metric ({_COLUMNS_DDL},
    PRIMARY KEY (metric_code, entity, channel, period_type, period)
);
CREATE INDEX IF NOT EXISTS fact_metric_by_doc ON fact_metric (source_doc_id);
CREATE INDEX IF NOT EXISTS fact_metric_by_entity ON fact_metric (entity, metric_code, channel);
CREATE TABLE IF NOT EXISTS source_document (
    doc_id TEXT PRIMARY KEY CHECK (length(trim(doc_id)) > 0),
    path TEXT NOT NULL,
    file_hash TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    extractor_version TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    sensitivity TEXT NOT NULL DEFAULT '',
    facts INTEGER NOT NULL,
    chunks INTEGER NOT NULL,
    ingested_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS document_identity (
    doc_id TEXT PRIMARY KEY CHECK (length(trim(doc_id)) > 0),
    company TEXT NOT NULL DEFAULT '',
    entity TEXT NOT NULL DEFAULT '',
    period TEXT NOT NULL DEFAULT '',
    fiscal_year_end TEXT NOT NULL DEFAULT '',
    doc_type TEXT NOT NULL DEFAULT '',
    sources TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS vocabulary (
    doc_id TEXT PRIMARY KEY CHECK (length(trim(doc_id)) > 0),
    format INTEGER NOT NULL,
    body TEXT NOT NULL
);
{REGISTRANT_SCHEMA}
{st.statement_schema(_COLUMNS_DDL)}"""
#: Columns of the ``source_document`` ledger (what was ingested, from which bytes).
DOCUMENT_COLUMNS: tuple[str, ...] = (
    "doc_id", "path", "file_hash", "fingerprint", "extractor_version", "title", "sensitivity",
    "facts", "chunks", "ingested_at",
)

# Every SQL string below names only fixed column identifiers; values are always bound.
LEDGER_UPSERT = (
    f"INSERT OR REPLACE INTO source_document ({', '.join(DOCUMENT_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' for _ in DOCUMENT_COLUMNS)})"
)
LEDGER_SELECT = f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM source_document"  # noqa: S608
VOCABULARY_DELETE = "DELETE FROM vocabulary WHERE doc_id = ?"
#: What a document says of itself (``extract.identity.DocumentIdentity.to_row`` + entity).
IDENTITY_COLUMNS: tuple[str, ...] = ("doc_id", "company", "entity", "period",
                                     "fiscal_year_end", "doc_type", "sources")
#: The identity row's key for the filer's registrant number (kept in a table of its own).
REGISTRANT = "registrant"
IDENTITY_DELETE = "DELETE FROM document_identity WHERE doc_id = ?"
IDENTITY_UPSERT = (
    f"INSERT OR REPLACE INTO document_identity ({', '.join(IDENTITY_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' for _ in IDENTITY_COLUMNS)})")
IDENTITY_SELECT = f"SELECT {', '.join(IDENTITY_COLUMNS)} FROM document_identity"  # noqa: S608
VOCABULARY_INSERT = "INSERT INTO vocabulary (doc_id, format, body) VALUES (?, ?, ?)"
#: The shape of a stored vocabulary's JSON body (:meth:`Vocabulary.to_dict`).
VOCABULARY_FORMAT = 1
QUERY = (
    f"SELECT {', '.join(FACT_COLUMNS)} FROM fact_metric "  # noqa: S608
    "WHERE metric_code = ? AND entity = ? AND channel = ? AND period_type = ? AND period = ?"
)
