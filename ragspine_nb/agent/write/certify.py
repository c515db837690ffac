"""Certificates of an answer's figures: each operand's cell shown in its source file.

``certificates(result, agent.store)`` renders, for every fact an answer's figures rest on,
where it stands in the ingested file (:func:`~ragspine_nb.extract.certificate.certificate`:
a sheet's neighbourhood, a slide's table, a PDF page region with the figure boxed). The file
is the one the ingestion ledger names; a RESTRICTED document is never rendered.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.errors import RagspineError
from ragspine_nb.extract.certificate import Certificate, certificate

__all__ = ["Certificates", "certificates"]


@dataclass(frozen=True)
class Certificates(CardReprMixin):
    """The certificates of one answer, and a line for each source that cannot be shown."""

    question: str
    shown: tuple[Certificate, ...]
    not_shown: tuple[str, ...]

    def _display_html(self) -> str:
        lines = "".join(f"<li>{html.escape(n)}</li>" for n in self.not_shown)
        return (f"<div class='rs-certificates'><div style='font-weight:600'>Where the figures "
                f"come from: {html.escape(self.question)}</div>"
                + "".join(c.html for c in self.shown)
                + (f"<ul style='font-size:12px;color:#9a6700'>{lines}</ul>" if lines else "")
                + "</div>")


def certificates(result: Any, store: Any, max_bytes: int = 400_000) -> Certificates:
    """Render the source of every fact the figures of ``result`` (an AgentResult) rest on.

    ``store`` is the fact store the answer came from (``agent.store``): its ledger names
    each document's file. A source whose file is gone, or that is RESTRICTED, gets a line
    saying so instead.
    """
    seen: set[tuple[str, str]] = set()
    shown: list[Certificate] = []
    not_shown: list[str] = []
    for figure in result.figures:
        for fact in figure.operands:
            key = (fact.source_doc_id, fact.source_locator)
            if key in seen:
                continue
            seen.add(key)
            row = store.source_document(fact.source_doc_id) or {}
            if str(row.get("sensitivity", "")).upper() == "RESTRICTED":
                not_shown.append(f"{fact.source_doc_id}: RESTRICTED, not shown")
                continue
            path = Path(str(row.get("path") or ""))
            if not row.get("path") or not path.is_file():
                not_shown.append(f"{fact.source_doc_id} · {fact.source_locator}: the file "
                                 f"is not at {path} any more")
                continue
            try:
                shown.append(certificate(path, fact.source_locator, fact.value,
                                         doc=fact.source_doc_id, max_bytes=max_bytes))
            except RagspineError as exc:
                not_shown.append(f"{fact.source_doc_id} · {fact.source_locator}: {exc}")
    return Certificates(result.question, tuple(shown), tuple(not_shown))
