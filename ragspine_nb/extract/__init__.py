"""Raw files to typed records: facts from tables, chunks from text, with exact locators."""

from ragspine_nb.extract.base import SUFFIXES, ExtractionError
from ragspine_nb.extract.chunking import chunk_document
from ragspine_nb.extract.document import DocumentResult, read_document
from ragspine_nb.extract.lineage import file_sha256, profile_fingerprint

__all__ = [
    "read_document",
    "DocumentResult",
    "ExtractionError",
    "SUFFIXES",
    "chunk_document",
    "file_sha256",
    "profile_fingerprint",
]
