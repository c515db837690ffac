"""A table row's footnote: "Service delivery costs(1)" is explained by the note "(1) Include …".

Reports mark a row label with a footnote marker — ``(1)``, ``(a)``, ``*`` or a digit
glued on ("Incentive schemes1") — and explain it in a line that starts with the same
marker, below the table or in the notes beside it. "What is included in service
delivery costs?" is answered by that line, quoted whole and cited.

Pure functions: :func:`footnote_marker` reads a label's marker, :func:`find_footnote`
finds the one line that starts with it among passages (none or several: ``None`` —
never a guess between two notes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Footnote", "footnote_marker", "find_footnote", "ASKS_FOOTNOTE"]

#: The question foci a row's footnote answers (what a row includes, means, is made of).
ASKS_FOOTNOTE: frozenset[str] = frozenset({"list", "definition", "method"})
_MARKER = re.compile(r"(?:\(\s*(?P<paren>\d{1,2}|[a-z])\s*\)|(?<=[a-z])(?P<glued>\d)"
                     r"|(?P<star>\*+))\s*:?\s*$")


@dataclass(frozen=True)
class Footnote:
    """The note a marker points to, and the passage it is in."""

    marker: str
    text: str
    snippet: Mapping[str, Any]


def footnote_marker(label: str) -> str | None:
    """The footnote marker a row label ends with (``"1"``, ``"a"``, ``"*"``), if any.

    Examples
    --------
    >>> [footnote_marker(x) for x in ("Service delivery costs(1)", "Recorded investment (1)",
    ...                               "Incentive schemes1", "Tax Fees (a)", "Revenue",
    ...                               "Scope (Scope 2)")]
    ['1', '1', '1', 'a', None, None]
    """
    m = _MARKER.search(label.strip())
    if m is None:
        return None
    return m.group("paren") or m.group("glued") or m.group("star")


def _starts(marker: str) -> re.Pattern[str]:
    """A line that starts with the marker: "(1) …", "1) …", "1. …", "* …"."""
    if marker.startswith("*"):
        return re.compile(rf"^\s*{re.escape(marker)}(?!\*)\s*(?P<text>\S.*)$", re.M)
    return re.compile(rf"^\s*(?:\(\s*{re.escape(marker)}\s*\)|{re.escape(marker)}[.)])\s*"
                      rf"(?P<text>\S.*)$", re.M)


def find_footnote(marker: str, snippets: Sequence[Mapping[str, Any]]) -> Footnote | None:
    r"""The one line among the snippets' texts that starts with the marker.

    Examples
    --------
    >>> notes = [{"text": "(1) Include cost of equipment sold.\n\n(2) Include fees."}]
    >>> find_footnote("2", notes).text
    '(2) Include fees.'
    >>> find_footnote("3", notes) is None
    True
    """
    pattern = _starts(marker)
    found = [(m.group(0).strip(), s) for s in snippets
             for m in pattern.finditer(str(s.get("text", "")))]
    texts = {text for text, _ in found}
    if len(texts) != 1:
        return None
    text, snippet = found[0]
    return Footnote(marker, text, snippet)
