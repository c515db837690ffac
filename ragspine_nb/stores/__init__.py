"""Persistence: the SQLite fact store and the versioned chunk store."""

from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore

__all__ = ["FactStore", "ChunkStore"]
