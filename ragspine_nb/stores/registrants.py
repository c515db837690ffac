"""Who filed a document, by the number the regulator gave the filer (its registrant number).

A company renamed is one filer: Adobe's 10-Ks for 2015–2017 say "Adobe Systems
Incorporated", its 10-K for 2022 "Adobe Inc.", and every one of them "Commission File
Number: 0-15175". The number a document states is kept beside its identity row (a table of
its own, so a workspace made before it gains the table when next opened for writing); the
ingest files a document whose registrant another document already names under that
document's entity (:mod:`ragspine_nb.ingestion.registrant`).
"""

from __future__ import annotations

import sqlite3
from typing import Any, Protocol

__all__ = ["REGISTRANT_SCHEMA", "write_registrant", "read_registrants"]

REGISTRANT_SCHEMA = """
CREATE TABLE IF NOT EXISTS document_registrant (
    doc_id TEXT PRIMARY KEY CHECK (length(trim(doc_id)) > 0),
    registrant TEXT NOT NULL CHECK (length(trim(registrant)) > 0)
);"""
_DELETE = "DELETE FROM document_registrant WHERE doc_id = ?"
_INSERT = "INSERT INTO document_registrant (doc_id, registrant) VALUES (?, ?)"
_SELECT = "SELECT doc_id, registrant FROM document_registrant"


class _Conn(Protocol):
    def execute(self, sql: str, params: Any = ...) -> Any: ...


class _Db(Protocol):
    def fetchall(self, sql: str, params: Any = ...) -> list[Any]: ...


def write_registrant(conn: _Conn, doc_id: str, registrant: str) -> None:
    """Replace the document's registrant number (none kept when ``registrant`` is empty)."""
    conn.execute(_DELETE, (doc_id,))
    if registrant.strip():
        conn.execute(_INSERT, (doc_id, registrant.strip()))


def read_registrants(db: _Db) -> dict[str, str]:
    """doc_id → registrant number; ``{}`` from a read-only file made before the table."""
    try:
        rows = db.fetchall(_SELECT)
    except sqlite3.OperationalError:  # "no such table": an older workspace opened read-only
        return {}
    return {str(r[0]): str(r[1]) for r in rows}
