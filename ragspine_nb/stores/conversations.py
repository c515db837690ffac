"""Conversations persisted in SQLite: ids, ordered messages with their sources.

A notebook restart or a service restart keeps every conversation. Writes are
transactional (one message = one row; a failed write changes nothing), ids are
validated, and message content is stored as given (answers keep their citations).
"""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragspine_nb.errors import StoreError
from ragspine_nb.stores._sqlite import SQLiteDatabase

__all__ = ["ConversationStore", "Message", "MessagePage", "ConversationNotFoundError",
           "ROLES", "CONVERSATION_ID", "check_conversation_id", "check_storable_text"]

ROLES = ("user", "assistant")
#: What a conversation id may look like (letters, digits, ``-``, ``_``; 1–64 characters);
#: anchored with ``\A`` / ``\Z`` and used with ``fullmatch``: ``"abc\n"`` is not an id
#: (``$`` would match before a trailing newline).
CONVERSATION_ID = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_ALL = ("SELECT role, content, seq, created_at, sources, meta FROM message "
        "WHERE conversation_id = ? ORDER BY seq")
_LAST = ("SELECT role, content, seq, created_at, sources, meta FROM message "
         "WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?")
_PAGE = ("SELECT role, content, seq, created_at, sources, meta FROM message "
         "WHERE conversation_id = ? AND seq > ? ORDER BY seq LIMIT ?")

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


@dataclass(frozen=True)
class MessagePage:
    """One page of a conversation: messages with ``seq > after``, oldest first.

    Attributes
    ----------
    messages : tuple of Message
        At most the requested number of messages.
    total : int
        How many messages the conversation holds.
    next_after : int or None
        The cursor for the next page (the last ``seq`` here), ``None`` at the end.
    """

    messages: tuple[Message, ...]
    total: int
    next_after: int | None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _message(row: sqlite3.Row) -> Message:
    return Message(row["role"], row["content"], row["seq"], row["created_at"],
                   tuple(json.loads(row["sources"])), json.loads(row["meta"]))


def check_storable_text(text: str, field_name: str = "text") -> str:
    r"""Return ``text`` if it can be stored as UTF-8, else raise ``ValueError``.

    A lone surrogate (``"\ud800"`` sent as a JSON escape) is a valid Python string
    but not encodable text; it is refused before anything is written.

    Examples
    --------
    >>> check_storable_text("营收 FY2025")
    '营收 FY2025'
    >>> check_storable_text("ab\udc80", "message")
    Traceback (most recent call last):
    ValueError: message contains a lone surrogate at character 2 (U+DC80); send valid UTF-8 text
    """
    bad = _SURROGATE.search(text)
    if bad is not None:
        raise ValueError(f"{field_name} contains a lone surrogate at character {bad.start()} "
                         f"(U+{ord(bad.group()):04X}); send valid UTF-8 text")
    return text


def check_conversation_id(conversation_id: object) -> str:
    r"""Return the id if valid, else raise ``ValueError`` saying what is allowed.

    Examples
    --------
    >>> check_conversation_id("chat-1")
    'chat-1'
    >>> check_conversation_id("chat-1\n")
    Traceback (most recent call last):
    ValueError: conversation_id must be 1-64 letters, digits, '-' or '_', got 'chat-1\n'
    """
    if not isinstance(conversation_id, str) or not CONVERSATION_ID.fullmatch(conversation_id):
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
        self.db = SQLiteDatabase(path, schema=_SCHEMA, table="conversation")
        self.db.conn.execute("PRAGMA foreign_keys = ON")

    @property
    def path(self) -> str:
        """The database path."""
        return self.db.path

    def create(self, conversation_id: str | None = None, title: str = "") -> str:
        """Create a conversation (a new random id by default); an existing id is kept."""
        cid = check_conversation_id(conversation_id or uuid.uuid4().hex)
        check_storable_text(title, "title")
        with self.db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO conversation VALUES (?, ?, ?)",
                         (cid, _now(), title[:200]))
        return cid

    def exists(self, conversation_id: str) -> bool:
        """Whether the conversation exists."""
        return bool(self.db.fetchall("SELECT 1 FROM conversation WHERE conversation_id = ?",
                                     (conversation_id,)))

    def count(self) -> int:
        """How many conversations there are."""
        return int(self.db.fetchall("SELECT COUNT(*) FROM conversation")[0][0])

    def ids(self) -> list[str]:
        """Every conversation id, oldest first."""
        return [r[0] for r in self.db.fetchall(
            "SELECT conversation_id FROM conversation ORDER BY created_at, conversation_id")]

    def append(self, conversation_id: str, role: str, content: str,
               sources: list[dict[str, str]] | tuple[dict[str, str], ...] = (),
               meta: dict[str, Any] | None = None) -> Message:
        """Add a message at the end (the conversation is created if needed)."""
        return self.append_many(conversation_id, [(role, content, sources, meta)])[0]

    def append_many(self, conversation_id: str,
                    messages: Sequence[tuple[str, str, Sequence[dict[str, str]],
                                             dict[str, Any] | None]]) -> list[Message]:
        """Add ``(role, content, sources, meta)`` messages at the end in one transaction.

        Everything is checked before anything is written, so a question and its answer
        are stored together or not at all (the conversation is created if needed).
        """
        cid = check_conversation_id(conversation_id)
        for role, content, _, _ in messages:
            if role not in ROLES:
                raise ValueError(f"role must be one of {list(ROLES)}, got {role!r}")
            if not isinstance(content, str):
                raise ValueError("content must be a string")
            check_storable_text(content, "content")
        created = _now()
        out: list[Message] = []
        with self.db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO conversation VALUES (?, ?, '')", (cid, created))
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM message "
                               "WHERE conversation_id = ?", (cid,)).fetchone()[0]
            for role, content, sources, meta in messages:
                seq += 1
                conn.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (cid, seq, role, content,
                              json.dumps([dict(s) for s in sources], ensure_ascii=False),
                              json.dumps(meta or {}, ensure_ascii=False, default=str), created))
                out.append(Message(role, content, int(seq), created,
                                   tuple(dict(s) for s in sources), dict(meta or {})))
        return out

    def messages(self, conversation_id: str, last: int | None = None) -> list[Message]:
        """The messages in order (only the ``last`` n when given, read as n rows in SQL)."""
        if not self.exists(conversation_id):
            raise ConversationNotFoundError(f"no conversation {conversation_id!r}")
        if last is None:
            rows = self.db.fetchall(_ALL, (conversation_id,))
        else:
            rows = self.db.fetchall(_LAST, (conversation_id, max(last, 0)))[::-1]
        return [_message(r) for r in rows]

    def page(self, conversation_id: str, after: int = 0, limit: int = 100) -> MessagePage:
        """Up to ``limit`` messages with ``seq > after``, oldest first, and the total.

        Read in SQL on a connection of its own (a WAL snapshot for a file store), so a
        page of a long conversation neither waits for nor blocks the writers.

        Raises
        ------
        ConversationNotFoundError
            No conversation with that id.
        """
        if limit < 1 or after < 0:
            raise ValueError(f"limit must be >= 1 and after >= 0, got limit={limit}, "
                             f"after={after}")
        with self._reading() as fetch:
            if not fetch("SELECT 1 FROM conversation WHERE conversation_id = ?",
                         (conversation_id,)):
                raise ConversationNotFoundError(f"no conversation {conversation_id!r}")
            rows = fetch(_PAGE, (conversation_id, after, limit + 1))
            total = fetch("SELECT COUNT(*) FROM message WHERE conversation_id = ?",
                          (conversation_id,))[0][0]
        kept = [_message(r) for r in rows[:limit]]
        return MessagePage(tuple(kept), int(total),
                           kept[-1].seq if len(rows) > limit else None)

    @contextmanager
    def _reading(self) -> Iterator[Callable[[str, Sequence[Any]], list[sqlite3.Row]]]:
        """A fetch function for one consistent read that takes no store lock.

        A file store is read on a fresh read-only connection inside one transaction
        (WAL readers see a snapshot while a write is in progress); an in-memory store
        has a single connection and is read through it.
        """
        if self.db.is_memory:
            yield self.db.fetchall
            return
        self.db.conn  # noqa: B018 - the file and its schema exist before a reader opens
        uri = Path(self.db.path).resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, timeout=30.0, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("BEGIN")
            yield lambda sql, params: conn.execute(sql, tuple(params)).fetchall()
        finally:
            conn.close()

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
