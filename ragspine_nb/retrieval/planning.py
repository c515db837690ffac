"""Query planning: 2–5 search variants per question, each labelled with how it was made.

* ``original`` — the question itself, always first;
* ``identifier`` — the keyword form with the codes, acronyms and ids found in it said
  twice (``MPFA``, ``FY2025``, ``E-1023``), so they weigh double. Identifiers *alone* as a
  query cost 0.053 nDCG@10 on SciFact (gene names are acronyms too); with the keywords
  they add 0.006 (``bench/planning_eval.py``);
* ``keyword`` — the question without question words and function words (CJK-aware);
  both it and ``identifier`` say a why-moved question's direction in the report's verb
  ("fall" → "decreased", :func:`~ragspine_nb.retrieval.movement.report_wording`);
* ``movement`` — for a question asking why something moved ("why did operating income
  fall?"), its words the way a report explains a movement ("… decreased … primarily due
  to …", :func:`~ragspine_nb.retrieval.movement.movement_query`);
* ``glossary`` — profile synonyms swapped in (:class:`GlossaryQueryRewriter`);
* ``semantic`` — paraphrases from an LLM, only when a provider is wired.

Variants are deduplicated on their folded text; the plan keeps at most
``max_variants``. Retrieval runs once per variant and the rankings are fused with RRF
(:meth:`NarrativeIndex.search` with ``variants=``), so a chunk found by several variants
rises, and each chunk appears once.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import Card, Table
from ragspine_nb.glossary import fold
from ragspine_nb.profile import DomainProfile
from ragspine_nb.retrieval.movement import movement_query, report_wording
from ragspine_nb.retrieval.rerank import TextProvider
from ragspine_nb.retrieval.rewrite import shared_rewriter

__all__ = [
    "QueryVariant",
    "QueryPlan",
    "QueryPlanner",
    "RuleQueryPlanner",
    "keyword_query",
    "identifiers",
    "VARIANT_KINDS",
    "PARAPHRASE_SYSTEM",
]

VARIANT_KINDS = ("original", "identifier", "keyword", "movement", "glossary", "semantic",
                 "refined")
PARAPHRASE_SYSTEM = (
    "You rewrite search queries. Reply with alternative phrasings of the user's query, one "
    "per line, no numbering, no commentary. Keep names, numbers and codes unchanged.")

_EN_QUESTION_WORDS = frozenset(
    "a an and are as at be been but by can could did do does for from had has have how if in "
    "into is it its me my of on or please should tell than that the their then there these "
    "they this those to was were what when where which who whom whose why will with would "
    "you your about explain describe show".split())
#: The generic owner of the thing asked ("the company's plan"): whose, not what.
_EN_OWNERS = frozenset({"company's", "group's", "firm's"})
#: Words the keyword variant leaves out: question words and the generic owner.
_EN_SKIPPED = _EN_QUESTION_WORDS | _EN_OWNERS
#: Chinese question words and particles, longest first (removed from the keyword variant).
_ZH_QUESTION_WORDS = ("为什么", "是什么", "怎么样", "如何", "怎么", "怎样", "什么", "哪些", "哪个",
                      "是否", "请问", "为何", "多少", "吗", "呢", "吧", "了", "的")
_ASCII_WORD = re.compile(r"[A-Za-z0-9]+(?:[-_/.][A-Za-z0-9]+)*")
_IDENTIFIER = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*(?:[-_/][A-Za-z0-9]+)+"
    r"|[A-Z]{2,}[A-Z0-9]*|[A-Za-z]*\d+[A-Za-z]+[A-Za-z0-9]*|[A-Za-z]+\d+)(?![A-Za-z0-9])")


@dataclass(frozen=True)
class QueryVariant:
    """One search query and how it was made (see :data:`VARIANT_KINDS`)."""

    text: str
    kind: str


@dataclass(frozen=True)
class QueryPlan(CardReprMixin):
    """The variants searched for one question (the original always first)."""

    question: str
    variants: tuple[QueryVariant, ...]

    @property
    def texts(self) -> list[str]:
        """The variant strings, in order."""
        return [v.text for v in self.variants]

    @property
    def kinds(self) -> list[str]:
        """The variant kinds, in order."""
        return [v.kind for v in self.variants]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for traces and the service."""
        return {"question": self.question,
                "variants": [{"text": v.text, "kind": v.kind} for v in self.variants]}

    def __repr__(self) -> str:
        inner = ", ".join(f"{v.kind}={v.text!r}" for v in self.variants)
        return f"QueryPlan({inner})"

    def _display_card(self) -> Card:
        rows = tuple((str(i), v.kind, v.text) for i, v in enumerate(self.variants, start=1))
        return Card(title="QueryPlan", subtitle=self.question,
                    stats=(("variants", str(len(self.variants))),),
                    tables=(Table("Variants", ("#", "kind", "query"), rows),))


@runtime_checkable
class QueryPlanner(Protocol):
    """Makes the search variants of a question."""

    def plan(self, question: str) -> QueryPlan:
        """The plan; ``variants[0]`` must be the question itself (kind ``original``)."""
        ...


def keyword_query(question: str) -> str:
    """The question's content words: question and function words out (English and Chinese).

    Examples
    --------
    >>> keyword_query("Why did Hong Kong agency sales fall in FY2025?")
    'Hong Kong agency sales fall FY2025'
    >>> keyword_query("What is the company's plan for its investments?")
    'plan investments'
    >>> keyword_query("为什么香港代理渠道的销售下滑了？")
    '香港代理渠道 销售下滑'
    """
    text = unicodedata.normalize("NFKC", question)
    for word in _ZH_QUESTION_WORDS:
        text = text.replace(word, " ")
    out: list[str] = []
    for token in re.findall(r"[A-Za-z0-9]+(?:[-_/.'][A-Za-z0-9]+)*|[^\sA-Za-z0-9]+", text):
        if token.isascii() and not token[0].isalnum():
            continue  # punctuation
        if token.isascii() and token.lower() in _EN_SKIPPED:
            continue
        token = re.sub(r"[\s\W_]+$", "", token) if not token.isascii() else token
        token = re.sub(r"^[\W_]+", "", token) if not token.isascii() else token
        if token:
            out.append(token)
    return " ".join(out)


def identifiers(question: str) -> list[str]:
    """Codes, acronyms and ids in the question, in order (``MPFA``, ``FY2025``, ``E-1023``).

    Examples
    --------
    >>> identifiers("Did MPFA rule E-1023 change FY2025 fees for ISO/IEC 27001?")
    ['MPFA', 'E-1023', 'FY2025', 'ISO/IEC']
    """
    found = [m.group(0) for m in _IDENTIFIER.finditer(unicodedata.normalize("NFKC", question))]
    return list(dict.fromkeys(t for t in found if not t.isdigit()))


def parse_paraphrases(text: str, limit: int) -> list[str]:
    """Lines of a paraphrase reply without numbering or bullets, at most ``limit``."""
    out = []
    for line in (text or "").splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)、])\s*", "", line).strip().strip('"“”')
        if 3 <= len(line) <= 300:
            out.append(line)
    return out[:limit]


class RuleQueryPlanner:
    """Rule variants (identifier, keyword, glossary) plus LLM paraphrases when wired.

    Parameters
    ----------
    profile : DomainProfile, optional
        Enables glossary variants (synonyms of metrics, entities and channels).
    provider : TextProvider, optional
        An LLM for ``semantic`` paraphrases; ``None`` (default) = rules only, offline.
    max_variants : int, default 5
        At most this many variants, the original included (2–5).

    Examples
    --------
    >>> planner = RuleQueryPlanner()
    >>> planner.plan("Why did MPFA cut fees?").kinds
    ['original', 'identifier', 'keyword']
    """

    def __init__(self, profile: DomainProfile | None = None, provider: TextProvider | None = None,
                 max_variants: int = 5) -> None:
        if not 2 <= max_variants <= 5:
            raise ValueError(f"max_variants must be between 2 and 5, got {max_variants}")
        self.profile = profile
        self.provider = provider
        self.max_variants = max_variants
        self._glossary = shared_rewriter(profile) if profile is not None else None

    def _paraphrases(self, question: str, n: int) -> list[str]:
        if self.provider is None or n < 1:
            return []
        try:
            resp = self.provider.create_message(
                system=PARAPHRASE_SYSTEM, tools=[],
                messages=[{"role": "user", "content": f"Give {n} phrasings of: {question}"}])
        except Exception:  # noqa: BLE001 - a paraphraser failure must not stop retrieval
            return []
        return parse_paraphrases(str(getattr(resp, "text", "") or ""), n)

    def plan(self, question: str) -> QueryPlan:
        """The variants for ``question`` (original first; duplicates folded away)."""
        candidates: list[QueryVariant] = [QueryVariant(question, "original")]
        said = report_wording(question) or question  # "fall" said as a report does
        ids = identifiers(said)
        keywords = keyword_query(said)
        if ids:
            candidates.append(QueryVariant(f"{keywords} {' '.join(ids)}".strip(), "identifier"))
        if keywords:
            candidates.append(QueryVariant(keywords, "keyword"))
        movement = movement_query(question)
        if movement:
            candidates.append(QueryVariant(movement, "movement"))
        if self._glossary is not None:
            candidates += [QueryVariant(v, "glossary")
                           for v in self._glossary.rewrite(question)[1:]]
        seen: set[str] = set()
        variants: list[QueryVariant] = []
        for v in candidates:  # the question itself always first, even a blank one
            key = fold(v.text)
            if v.kind == "original" or (key and key not in seen):
                seen.add(key)
                variants.append(v)
        rules = variants[: self.max_variants - (1 if self.provider is not None else 0)]
        for text in self._paraphrases(question, self.max_variants - len(rules)):
            key = fold(text)
            if key not in seen:
                seen.add(key)
                rules.append(QueryVariant(text, "semantic"))
        return QueryPlan(question, tuple(rules[: self.max_variants]))
