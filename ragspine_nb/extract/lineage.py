"""Version lineage helpers: file hashes and the mapping (glossary) version."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ragspine_nb.profile import DomainProfile

__all__ = ["file_sha256", "profile_fingerprint"]


def file_sha256(path: str | Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def profile_fingerprint(profile: DomainProfile) -> str:
    """``glossary@<12 hex>``: changes whenever the profile's vocabulary changes."""
    vocab = {
        "metrics": {k: [m.unit, m.label, *m.synonyms] for k, m in sorted(profile.metrics.items())},
        "entities": {k: [e.label, e.geography, *e.synonyms]
                     for k, e in sorted(profile.entities.items())},
        "channels": {k: list(c.synonyms) for k, c in sorted(profile.channels.items())},
    }
    blob = json.dumps(vocab, ensure_ascii=False, sort_keys=True).encode("utf-8")
    return "glossary@" + hashlib.sha256(blob).hexdigest()[:12]
