"""FAQ short-circuit: curated answers for recurring questions, matched exactly.

Matching is NFKC + casefold + collapsed whitespace, trailing ``?？。.！!`` stripped,
over the question and its aliases. Never used for questions with structured slots
(numbers come from the fact store), real-time cues, entries outside their validity
window, or RESTRICTED entries. The security gate runs before the FAQ.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb.core import DEFAULT_SENSITIVITY, Source, is_restricted

__all__ = ["FaqEntry", "FaqCache", "REALTIME_CUES"]

REALTIME_CUES: tuple[str, ...] = ("今天", "昨天", "现在", "此刻", "最新", "实时", "today",
                                  "yesterday", "right now", "now", "latest", "current")
_TRAILING = re.compile(r"[?？。.！!\s]+$")


def _key(text: str) -> str:
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return _TRAILING.sub("", folded)


@dataclass(frozen=True)
class FaqEntry:
    """One curated answer with its source."""

    question: str
    answer: str
    source: Source
    aliases: tuple[str, ...] = ()
    valid_from: str = ""
    valid_to: str = ""
    sensitivity: str = DEFAULT_SENSITIVITY


@dataclass
class FaqCache:
    """Exact-match lookup over :class:`FaqEntry` items."""

    entries: list[FaqEntry] = field(default_factory=list)

    @classmethod
    def from_file(cls, path: str | Path) -> FaqCache:
        """Load a JSON list of ``{question, answer, source: {doc, locator}, aliases, ...}``."""
        rows: list[dict[str, Any]] = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls([FaqEntry(r["question"], r["answer"], Source(**r["source"]),
                             tuple(r.get("aliases", ())), r.get("valid_from", ""),
                             r.get("valid_to", ""), r.get("sensitivity", DEFAULT_SENSITIVITY))
                    for r in rows])

    def lookup(self, question: str, reference_date: date | None = None) -> FaqEntry | None:
        """The matching entry, or ``None`` (see the module docstring for the exclusions)."""
        key = _key(question)
        if any(cue in key for cue in REALTIME_CUES if not cue.isascii()) or any(
                re.search(rf"\b{re.escape(cue)}\b", key) for cue in REALTIME_CUES
                if cue.isascii()):
            return None
        ref = (reference_date or date.today()).isoformat()
        for entry in self.entries:
            if is_restricted(entry.sensitivity):
                continue
            if (entry.valid_from and ref < entry.valid_from) or (
                    entry.valid_to and ref > entry.valid_to):
                continue
            if key in {_key(entry.question), *(_key(a) for a in entry.aliases)}:
                return entry
        return None
