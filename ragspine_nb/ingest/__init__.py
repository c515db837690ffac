"""Raw files to typed records (facts and chunks) with exact locators and lineage."""

from ragspine_nb.ingest.fact_table import read_fact_table
from ragspine_nb.ingest.lineage import file_sha256, profile_fingerprint
from ragspine_nb.ingest.text import read_text_chunks

__all__ = ["read_fact_table", "read_text_chunks", "file_sha256", "profile_fingerprint"]
