"""Named exceptions shared by every layer of ragspine_nb.

Each error subclasses the builtin a caller would naturally catch (``ValueError``,
``ImportError``, ``FileNotFoundError``) as well as :class:`RagspineError`, so both
``except RagspineError`` and ``except ValueError`` work.
"""

from __future__ import annotations

__all__ = [
    "RagspineError",
    "MissingExtraError",
    "LineageError",
    "InvalidRecordError",
    "ProfileError",
    "StoreError",
    "DatabaseNotFoundError",
    "StoreConnectionError",
    "ReadOnlyQueryError",
    "QueryLimitError",
    "ReadOnlyStoreError",
    "DiskFullError",
    "ConflictResolutionError",
    "ProviderError",
    "TraceError",
    "QrelsError",
]


class RagspineError(Exception):
    """Base class of every error raised on purpose by ragspine_nb."""


class MissingExtraError(RagspineError, ImportError):
    """An optional dependency is missing; the message names the exact install command."""

    def __init__(self, package: str, extra: str, feature: str) -> None:
        self.package = package
        self.extra = extra
        self.install_command = f"pip install 'ragspine_nb[{extra}]'"
        super().__init__(
            f"{feature} needs the optional package '{package}', which is not installed. "
            f"Install it with: {self.install_command}"
        )


class LineageError(RagspineError, ValueError):
    """A fact or chunk is missing its source document or locator (blank or NULL)."""


class InvalidRecordError(RagspineError, ValueError):
    """A fact or chunk has a field of the wrong type or an impossible value."""


class ProfileError(RagspineError, ValueError):
    """A domain profile is malformed; the message lists the valid keys or formats."""


class StoreError(RagspineError):
    """A store operation failed; the store is left as it was before the operation."""


class DatabaseNotFoundError(StoreError, FileNotFoundError):
    """A store was opened read-only (or must exist) and the database file is absent."""


class StoreConnectionError(StoreError, ConnectionError):
    """A database server (PostgreSQL) is unreachable or the URL is wrong; no fallback."""


class ReadOnlyQueryError(StoreError, PermissionError):
    """``execute_read`` was given a statement that would write or change the database."""


class QueryLimitError(StoreError):
    """``execute_read`` ran past its time limit or its result grew past its size limit."""


class ReadOnlyStoreError(StoreError, PermissionError):
    """A write was asked of a store that can only be read (a read-only file or folder)."""


class DiskFullError(StoreError, OSError):
    """The disk filled up during a write; the write was rolled back and nothing changed."""


class ConflictResolutionError(StoreError, ValueError):
    """A conflict cannot be resolved as asked (none open, or the document is not a party)."""


class ProviderError(RagspineError):
    """An LLM provider failed for a network, API or timeout reason (never a program error)."""


class TraceError(RagspineError, ValueError):
    """A trace payload tried to record a value, a text, a prompt or an answer."""


class QrelsError(RagspineError, ValueError):
    """Relevance judgments name ids the index does not hold (document ids for chunk ids)."""
