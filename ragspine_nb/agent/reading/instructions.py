"""The question asked, read apart from the instructions written around it.

Analysts paste questions the way they brief a colleague: "What is the FY2018 capital
expenditure amount for 3M? Give a response to the question by relying on the details
shown in the cash flow statement." Read whole, the instruction's words ("response",
"relying", "details") name nothing in the store and send the question to the narrative
channel. :func:`read_instructions` splits a question into sentences and keeps apart,
from the structure of each sentence (never from a list of questions):

1. **instructions** — a sentence opening with a verb addressed to the answerer
   ("Give …", "Answer …", "Base your judgments …", "Round …", "Assume …", "Please …"),
   a condition whose main clause is one ("If margin is not a useful metric for a company
   like this, then state that and explain why."), or with the asker's own frame ("You
   are an investment banker …", "We want to calculate …", "Here's the question:"); a
   frame ending in a colon keeps what follows it as the question ("Answer the following
   question …: what is …?");
2. **definitions** — "X is defined as …", "Define X as …" (a formula the question
   states; named in the answer, not read as the question's rows);
3. the **asked** text: every other sentence, in order.

The statements an instruction names ("the cash flow statement", "the statement of
financial position") are read as statement kinds
(:data:`~ragspine_nb.extract.pdf_statements.STATEMENT_KINDS`). Nothing is dropped
silently: the caller states what it read, and screens the *whole* question with the
security gate before any of this (a name in an instruction still refuses).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.extract.pdf_statements import statement_kind

__all__ = ["Instructions", "read_instructions"]

#: Verbs that open a sentence addressed to the answerer.
_DIRECTING = (
    "give|answer|base|round|assume|use|using|provide|calculate|compute|respond|express|report"
    "|show|please|state|rely|utili[sz]e|consider|approximate|address|reference|referencing"
    "|focus|limit|restrict|keep|treat|ignore|exclude|include|return|format|present|write"
)
_INSTRUCTION = re.compile(
    rf"^(?:(?:{_DIRECTING})\b|(?:you|we)\s+(?:are|want|need|would|will|have)\b"
    r"|here(?:'s| is)\s+(?:the|my|our)\s+question\b"
    r"|(?:when|while|by)\s+(?:primarily\s+)?(?:referencing|drawing|using|relying|basing)\b"
    r"|basing\s+your\b"
    rf"|if\b[^,?]*,\s*(?:then\s+)?(?:(?:{_DIRECTING}|explain|say|tell|note|mention)\b)"
    r"|(?:according to|in agreement with|based on)\b.*\b(?:statement|sheet|position)s?\b)",
    re.I)
#: A greeting or thanks written around the question ("Thanks!", "Hi, what was …"): no
#: content, read apart and not stated as an instruction.
_COURTESY = re.compile(
    r"^(?:many\s+thanks|thanks|thank\s+you|thx|cheers|hi|hello|hey|good\s+(?:morning|"
    r"afternoon|evening)|regards|kind\s+regards|best\s+regards)(?:\s+(?:so|very)\s+much"
    r"|\s+a\s+lot|\s+in\s+advance|\s+there|\s+all|\s+team)?\s*[!.]*$", re.I)
_DEFINITION = re.compile(r"\bis\s+defined\s+as\b|^define\s+\w", re.I)
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[\"'“(]?[A-Z])")
_QUESTION_WORD = re.compile(r"^(?:what|how|which|who|whom|whose|when|where|why|is|are|was"
                            r"|were|do|does|did|has|have|had|can|could|should|would|will)\b",
                            re.I)


@dataclass(frozen=True)
class Instructions:
    """A question split into what is asked and what is asked of the answerer."""

    #: the question's own sentences, as written (the whole question when nothing is split)
    asked: str
    #: instruction sentences, as written
    notes: tuple[str, ...] = ()
    #: formulas the question defines ("X is defined as: …"), as written
    definitions: tuple[str, ...] = ()
    #: statements the instructions name, as statement kinds (``cash_flow``, …)
    statements: tuple[str, ...] = ()
    #: greetings and thanks, as written ("Thanks!")
    courtesies: tuple[str, ...] = ()

    @property
    def split(self) -> bool:
        """Whether any sentence was read apart from the question."""
        return bool(self.notes or self.definitions or self.courtesies)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def _framed(sentence: str) -> tuple[str, str] | None:
    """``(frame, question)``: an instruction ending in a colon or a comma before it.

    "According to the balance sheet, what is …", "Here is the question: what is …".
    """
    for mark in (":", ","):
        head, found, tail = sentence.partition(mark)
        if found and tail.strip() and (_INSTRUCTION.match(head.strip()) or
                                       _COURTESY.match(head.strip())) and \
                _QUESTION_WORD.match(tail.strip()):
            return head.strip() + mark, tail.strip()
    return None


def _is_instruction(sentence: str) -> bool:
    return bool(_INSTRUCTION.match(sentence)) and not _QUESTION_WORD.match(sentence) \
        and "?" not in sentence


def read_instructions(question: str) -> Instructions:
    """Split ``question`` into the asked text, instructions and definitions (pure).

    Examples
    --------
    >>> r = read_instructions("What is the FY2018 capital expenditure amount for 3M? Give "
    ...     "a response to the question by relying on the details shown in the cash flow "
    ...     "statement.")
    >>> r.asked, r.statements
    ('What is the FY2018 capital expenditure amount for 3M?', ('cash_flow',))
    >>> read_instructions("Answer using the balance sheet: what is FY2019 inventory?").asked
    'what is FY2019 inventory?'
    >>> read_instructions("What was revenue in 2019?").split
    False

    Greetings and thanks are read apart too, as courtesies:

    >>> r = read_instructions("Hi, what was revenue in 2019? Thanks so much!")
    >>> r.asked, r.notes, r.courtesies
    ('what was revenue in 2019?', (), ('Hi,', 'Thanks so much!'))
    """
    asked: list[str] = []
    notes: list[str] = []
    definitions: list[str] = []
    courtesies: list[str] = []
    for sentence in _sentences(question):
        framed = _framed(sentence)
        if _COURTESY.match(sentence):
            courtesies.append(sentence)
        elif framed is not None:
            (courtesies if _COURTESY.match(framed[0][:-1]) else notes).append(framed[0])
            asked.append(framed[1])
        elif _DEFINITION.search(sentence) and not _QUESTION_WORD.match(sentence):
            definitions.append(sentence)
        elif _is_instruction(sentence):
            notes.append(sentence)
        else:
            kept, inner = _inner_instructions(sentence)
            asked.append(kept)
            notes += inner
    if not asked or not (notes or definitions or courtesies):
        return Instructions(question)
    kinds = tuple(dict.fromkeys(k for n in notes for k in _kinds(n)))
    return Instructions(" ".join(asked), tuple(notes), tuple(definitions), kinds,
                        tuple(courtesies))


_PAREN = re.compile(r"\(([^()]*)\)")


def _inner_instructions(sentence: str) -> tuple[str, list[str]]:
    """A question sentence without the instructions inside its parentheses.

    "… from FY2015 to FY2016 (in units of percents and round to one decimal place)?"
    keeps "(in units of percents)" (what the answer is in) and reads "round to one
    decimal place" apart; a parenthesis with no instruction is kept as written.
    """
    notes: list[str] = []

    def keep(m: re.Match[str]) -> str:
        parts = re.split(r"\s+and\s+|;\s*|,\s*", m.group(1))
        told = [p for p in parts if _INSTRUCTION.match(p.strip())]
        if not told:
            return m.group(0)
        notes.extend(p.strip() for p in told)
        rest = [p for p in parts if p not in told]
        return f"({' and '.join(rest)})" if rest else ""

    kept = " ".join(_PAREN.sub(keep, sentence).split()).replace(" ?", "?")
    return kept, notes


def _kinds(note: str) -> list[str]:
    """Every statement one instruction names, in order.

    "the income statement and the statement of financial position": two.
    """
    parts = re.split(r"\band\b|,|;", note)
    return [k for p in parts if (k := statement_kind([p]))]
