"""Persistence: the SQLite fact store and the versioned chunk store."""

from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.stores.protocols import (
    ChunkReader,
    ChunkWriter,
    FactReader,
    FactWriter,
    StoreHandle,
)

__all__ = ["FactStore", "ChunkStore", "StoreHandle", "FactReader", "FactWriter",
           "ChunkReader", "ChunkWriter"]
