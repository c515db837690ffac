"""Which company a question is about, in a workspace holding several: ask, never pick one.

A folder as users bring it holds filings of several companies; each document names its
own (its cover page, title or file name: :mod:`ragspine_nb.extract.identity`), and its
figures and passages are filed under that company. A question that names none of them
cannot be answered from "the company": :func:`ask_which_company` asks back with the
companies the workspace holds, in the question's language, before any lookup or search.
A workspace of one company answers for it (it is the home entity of the built-in profile,
:func:`~ragspine_nb.vocabulary.home_company`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.scope.clarify import (
    CLARIFY_ASK_FIRST,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ClarificationResult,
)
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = ["workspace_companies", "ask_which_company"]


def workspace_companies(store: FactStore, profile: DomainProfile) -> dict[str, str]:
    """Entity code → name of every company the workspace's documents name themselves.

    Read from the ledger (:meth:`FactStore.document_identities`); RESTRICTED documents
    are never listed there.
    """
    out: dict[str, str] = {}
    for row in store.document_identities().values():
        code = row.get("entity", "")
        if code and row.get("company"):
            spec = profile.entities.get(code)
            out.setdefault(code, spec.label if spec is not None else row["company"])
    return out


def ask_which_company(intent: ParsedIntent, clar: ClarificationResult,
                      companies: Mapping[str, str]) -> ClarificationResult | None:
    """Ask which company is meant when the question names none of several.

    For a question that names no entity at all and is not refused: it is asked before
    any other ask-back (which metric or period is meant only matters for a company).

    >>> from ragspine_nb.agent.scope.clarify import CLARIFY_NONE
    >>> from ragspine_nb.agent.reading.intent import ParsedIntent
    >>> q = ParsedIntent("What was revenue in 2022?", "structured", "en")
    >>> ask_which_company(q, ClarificationResult(CLARIFY_NONE),
    ...                   {"3M": "3M Company", "BEST_BUY": "Best Buy Co., Inc."}).question
    'Which company do you mean? This workspace holds documents of 3M Company and Best Buy Co., Inc.'
    """
    if intent.entities or len(companies) < 2 or clar.mode == CLARIFY_OUT_OF_SCOPE_ENTITY:
        return None
    names = sorted(companies.values(), key=str.casefold)
    if intent.language == "zh":
        text = f"您问的是哪家公司？本工作区包含以下公司的文件：{'、'.join(names)}。"
    else:
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        end = "" if listed.endswith(".") else "."
        text = f"Which company do you mean? This workspace holds documents of {listed}{end}"
    return ClarificationResult(CLARIFY_ASK_FIRST, narrowing_options=tuple(names),
                               question=text)
