"""Conversations persisted in SQLite: ids, ordered messages with their sources.

A notebook restart or a service restart keeps every conversation. Writes are
transactional (one message = one row; a failed write changes nothing), ids are
validated, and message content is stored as given (answers keep their citations).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragspine_nb.errors import StoreError
from ragspine_nb.stores._sqlite import Database

__all__ = ["ConversationStore", "Message", "ConversationNotFoundError", "ROLES",
           "CONVERSATION_ID"]

ROLES = ("user", "assistant")
#: What a conversation id may look like (letters, digits, ``-``, ``_``; 1–64 characters).
CONVERSATION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversation (
    conversation_id TEXT PRIMARY KEY CHECK (length(conversation_id) BETWEEN 1 AND 64),
    created_at TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS message (
    conversation_id TEXT NOT NULL REFERENCES conversation(conversation_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content TEXT NOT NULL,
    sources TEXT NOT NULL DEFAULT '[]',
    meta TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, seq)
);
"""


class ConversationNotFoundError(StoreError, KeyError):
    """No conversation with that id."""


@dataclass(frozen=True)
class Message:
    """One message of a conversation."""

    role: str
    content: str
    seq: int
    created_at: str
    sources: tuple[dict[str, str], ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (the service's history response)."""
        return {"role": self.role, "content": self.content, "seq": self.seq,
                "created_at": self.created_at, "sources": [dict(s) for s in self.sources],
                "meta": dict(self.meta)}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def check_conversation_id(conversation_id: object) -> str:
    """Return the id if valid, else raise ``ValueError`` saying what is allowed."""
    if not isinstance(conversation_id, str) or not CONVERSATION_ID.match(conversation_id):
        raise ValueError(f"conversation_id must be 1-64 letters, digits, '-' or '_', got "
                         f"{conversation_id!r}")
    return conversation_id


class ConversationStore:
    """Conversations and their messages in one SQLite file (or ``":memory:"``).

    Parameters
    ----------
    path : str or Path, default ":memory:"
        E.g. ``workspace / "conversations.db"``.

    Examples
    --------
    >>> store = ConversationStore()
    >>> cid = store.create("demo-1")
    >>> _ = store.append(cid, "user", "How much revenue?")
    >>> [m.role for m in store.messages(cid)]
    ['user']
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.db = Database(path, schema=_SCHEMA, table="conversation")
        self.db.conn.execute("PRAGMA foreign_keys = ON")

    @property
    def path(self) -> str:
        """The database path."""
        return self.db.path

    def create(self, conversation_id: str | None = None, title: str = "") -> str:
        """Create a conversation (a new random id by default); an existing id is kept."""
        cid = check_conversation_id(conversation_id or uuid.uuid4().hex)
        with self.db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO conversation VALUES (?, ?, ?)",
                         (cid, _now(), title[:200]))
        return cid

    def exists(self, conversation_id: str) -> bool:
        """Whether the conversation exists."""
        return bool(self.db.fetchall("SELECT 1 FROM conversation WHERE conversation_id = ?",
                                     (conversation_id,)))

    def ids(self) -> list[str]:
        """Every conversation id, oldest first."""
        return [r[0] for r in self.db.fetchall(
            "SELECT conversation_id FROM conversation ORDER BY created_at, conversation_id")]

    def append(self, conversation_id: str, role: str, content: str,
               sources: list[dict[str, str]] | tuple[dict[str, str], ...] = (),
               meta: dict[str, Any] | None = None) -> Message:
        """Add a message at the end (the conversation is created if needed)."""
        cid = check_conversation_id(conversation_id)
        if role not in ROLES:
            raise ValueError(f"role must be one of {list(ROLES)}, got {role!r}")
        if not isinstance(content, str):
            raise ValueError("content must be a string")
        created = _now()
        with self.db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO conversation VALUES (?, ?, '')", (cid, created))
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM message "
                               "WHERE conversation_id = ?", (cid,)).fetchone()[0]
            conn.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (cid, seq, role, content,
                          json.dumps([dict(s) for s in sources], ensure_ascii=False),
                          json.dumps(meta or {}, ensure_ascii=False, default=str), created))
        return Message(role, content, int(seq), created, tuple(dict(s) for s in sources),
                       dict(meta or {}))

    def messages(self, conversation_id: str, last: int | None = None) -> list[Message]:
        """The messages in order (only the ``last`` n when given)."""
        if not self.exists(conversation_id):
            raise ConversationNotFoundError(f"no conversation {conversation_id!r}")
        rows = self.db.fetchall(
            "SELECT role, content, seq, created_at, sources, meta FROM message "
            "WHERE conversation_id = ? ORDER BY seq", (conversation_id,))
        if last is not None:
            rows = rows[-last:] if last > 0 else []
        return [Message(r["role"], r["content"], r["seq"], r["created_at"],
                        tuple(json.loads(r["sources"])), json.loads(r["meta"])) for r in rows]

    def delete(self, conversation_id: str) -> None:
        """Remove a conversation and its messages."""
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM message WHERE conversation_id = ?", (conversation_id,))
            conn.execute("DELETE FROM conversation WHERE conversation_id = ?",
                         (conversation_id,))

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def __repr__(self) -> str:
        return f"ConversationStore(path={self.path!r}, conversations={len(self.ids())})"
