"""The passages a :class:`NarrativeRetrieverContract` retriever is built over.

Four open passages with distinct wording and two RESTRICTED ones (two spellings of the
label) that repeat the open passages' words next to :data:`CANARY`, so a retriever that
leaks RESTRICTED text is caught by a plain substring check.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragspine_nb.core import is_restricted

__all__ = ["ContractPassage", "NARRATIVE_CORPUS", "CANARY", "open_passages"]

#: A marker only the RESTRICTED passages contain.
CANARY = "CANARY-9d41e7"


@dataclass(frozen=True)
class ContractPassage:
    """One document of the contract corpus (a single paragraph).

    Parameters
    ----------
    doc_id : str
        The document id a snippet must report.
    text : str
        The passage; a snippet's text is this text or a part of it.
    sensitivity : str
        ``INTERNAL``, ``PUBLIC`` or a spelling of ``RESTRICTED``.
    entity : str
        The entity code the passage is about (for filters).
    language : str
        ``en`` or ``zh``.
    """

    doc_id: str
    text: str
    sensitivity: str = "INTERNAL"
    entity: str = ""
    language: str = "en"

    @property
    def restricted(self) -> bool:
        """Whether the passage is RESTRICTED (it must never reach a snippet)."""
        return is_restricted(self.sensitivity)


#: The corpus, in the order a retriever should be given it.
NARRATIVE_CORPUS: tuple[ContractPassage, ...] = (
    ContractPassage("hk_review.md", "Hong Kong agency new sales grew strongly as mainland "
                    "visitors returned and the agency force expanded.", entity="ACME_HK"),
    ContractPassage("cn_review.md", "Mainland China revenue fell because bancassurance "
                    "commissions were capped by the regulator.", entity="ACME_CN"),
    ContractPassage("cn_review_zh.md", "内地银保渠道新单保费下降，主要因为佣金上限新规。",
                    entity="ACME_CN", language="zh"),
    ContractPassage("canteen.md", "The staff canteen opens at eight in the morning and "
                    "closes at three.", sensitivity="PUBLIC"),
    ContractPassage("board_minutes.md", f"Board minutes {CANARY}: mainland China revenue "
                    "fell and bancassurance commissions were capped; the acquisition of a "
                    "Hong Kong agency was approved.", sensitivity="RESTRICTED",
                    entity="ACME_CN"),
    ContractPassage("audit_notes.md", f"Audit committee {CANARY} notes on Hong Kong agency "
                    "new sales and the staff canteen.", sensitivity="restricted",
                    entity="ACME_HK"),
)


def open_passages() -> tuple[ContractPassage, ...]:
    """The passages a snippet may come from (every one not RESTRICTED).

    Returns
    -------
    tuple of ContractPassage
        In corpus order.

    Examples
    --------
    >>> [p.doc_id for p in open_passages()][:2]
    ['hk_review.md', 'cn_review.md']
    """
    return tuple(p for p in NARRATIVE_CORPUS if not p.restricted)
