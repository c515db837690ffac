"""What a wired model is shown of a question and the store, and what it may answer.

The cells it may read (:func:`offered_cells`): the stored facts of the question's
companies and periods whose row shares a word with the question (or with the formulas of
the rows it names), best first, each with an id, its row's label, column, period, unit and
source, never a value. The one tool it may call (:func:`reading_tool`): ``propose_reading``
with a formula over those ids and the question's words naming what it computes, read back
as a :class:`Proposal` (:func:`proposal_of`). Whether a proposal answers the question is
decided by :func:`~ragspine_nb.agent.compute.model_reading.verify`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.agent.reading.labels import entity_label, metric_label
from ragspine_nb.agent.reading.unstated import QUESTION_WORDS
from ragspine_nb.core import Fact
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.units import unit_text
from ragspine_nb.wordset import content_words

__all__ = ["READING_TOOL", "READING_SYSTEM", "MAX_CELLS", "Cell", "Proposal",
           "offered_cells", "reading_tool", "reading_prompt", "proposal_of"]

READING_TOOL = "propose_reading"
READING_SYSTEM = (
    "You read a question about reported figures into a formula over the stored cells "
    "listed by id. If one formula over those cells answers exactly what the question asks, "
    f"call {READING_TOOL} once; otherwise call nothing. Use only the ids listed, the "
    "operators + - * / and parentheses, and no number the question does not write (an "
    "average of n cells is (C1 + C2) / n). Never state a figure: the formula is computed "
    "from the store.")
#: At most this many cells are offered (the rows sharing most words with the question).
MAX_CELLS = 60


@dataclass(frozen=True)
class Cell:
    """A stored cell offered to the model: its id, its fact and how it is shown."""

    id: str
    fact: Fact
    #: the row's label ("Total current assets")
    label: str
    #: the column's code when not the default one ("DOMESTIC"), else ""
    column: str
    #: every content word of its row's, column's and company's names
    words: frozenset[str]
    #: the words of each of its column's names (none for the default column)
    columns: tuple[frozenset[str], ...] = ()

    @property
    def period(self) -> str:
        """The cell's period label (``FY2023``)."""
        return period_label(self.fact.period_type, self.fact.period)

    def line(self, profile: DomainProfile) -> str:
        """The cell as the prompt lists it: no value."""
        column = f" [column: {self.column}]" if self.column else ""
        unit = unit_text(self.fact.unit) or "number"
        return (f"{self.id}: {self.label}{column} | {entity_label(profile, self.fact.entity)} | "
                f"{self.period} | {unit} | {self.fact.source_doc_id} · "
                f"{self.fact.source_locator}")


@dataclass(frozen=True)
class Proposal:
    """The model's reading: a formula over cell ids, what it computes, and ``× 100``."""

    formula: str
    name: str = ""
    percent: bool = False


# --------------------------------------------------------------------- the cells
def _names(profile: DomainProfile, fact: Fact) -> frozenset[str]:
    spec, column = profile.metrics.get(fact.metric_code), profile.channels.get(fact.channel)
    entity = profile.entities.get(fact.entity)
    terms = [*((spec.label, *spec.synonyms) if spec else (fact.metric_code,)),
             *((column.code.replace("_", " "), *column.synonyms) if column else ()),
             *((entity.label, *entity.synonyms) if entity else (fact.entity,))]
    return frozenset(w for t in terms for w in content_words(t))


def offered_cells(facts: Sequence[Fact], question: str, profile: DomainProfile,
                  limit: int = MAX_CELLS, *, also: frozenset[str] = frozenset()) -> list[Cell]:
    """The cells of ``facts`` whose row shares a word with the question, best first.

    A row ranks by the share of its row and column names' words that are the question's
    (or ``also``: the words of the formulas of the rows the question names), then by how
    many; the companies' names count for nothing; a row naming none is not offered.
    """
    companies = {w for e in profile.entities.values() for t in (e.label, *e.synonyms)
                 for w in content_words(t)}
    asked = (content_words(fold(question)) | also) - QUESTION_WORDS - companies
    ranked: dict[tuple[str, str], tuple[float, int]] = {}
    for f in facts:
        key = (f.metric_code, f.channel)
        if key not in ranked:
            spec = profile.metrics.get(f.metric_code)
            row = {w for t in ((spec.label, *spec.synonyms) if spec else ())
                   for w in content_words(t)} - QUESTION_WORDS - companies
            names = _names(profile, f) - QUESTION_WORDS - companies
            ranked[key] = (len(names & asked) / len(names), len(names & asked)) \
                if row & asked else (0.0, 0)
    kept = sorted((f for f in facts if ranked[(f.metric_code, f.channel)][1]),
                  key=lambda f: tuple(-x for x in ranked[(f.metric_code, f.channel)]))[:limit]
    return [Cell(f"C{i}", f, metric_label(profile, f.metric_code),
                 "" if f.channel == profile.default_channel else f.channel, _names(profile, f),
                 _column_names(profile, f.channel))
            for i, f in enumerate(kept, 1)]


def _column_names(profile: DomainProfile, code: str) -> tuple[frozenset[str], ...]:
    """The words of each name of a column other than the default one.

    A question's general words are no column's: "number of shares" is "share".
    """
    if code == profile.default_channel:
        return ()
    spec = profile.channels.get(code)
    names = (code.replace("_", " "), *(spec.synonyms if spec else ()))
    return tuple(w for n in names if (w := frozenset(
        x for x in content_words(n) - QUESTION_WORDS if len(x) > 1)))  # "C_": a code's


def reading_tool() -> dict[str, object]:
    """The ``propose_reading`` tool (Anthropic's shape: name, description, input schema)."""
    return {"name": READING_TOOL,
            "description": "Propose the formula over the listed cell ids that answers the "
                           "question. Nothing is computed by you.",
            "input_schema": {"type": "object", "properties": {
                "formula": {"type": "string",
                            "description": "arithmetic over cell ids, e.g. '(C1 - C2) / C3'"},
                "name": {"type": "string",
                         "description": "the question's own words naming what the formula "
                                        "computes, e.g. 'quick ratio'"},
                "percent": {"type": "boolean",
                            "description": "true when the question asks a percentage "
                                           "(the ratio is multiplied by 100)"}},
                "required": ["formula", "name"]}}


def reading_prompt(question: str, cells: Sequence[Cell], profile: DomainProfile) -> str:
    """The user message: the question and the cells (ids, labels, periods, units, sources)."""
    listed = "\n".join(c.line(profile) for c in cells)
    return f"Question: {question}\n\nStored cells (id: row | company | period | unit | " \
           f"source):\n{listed}"


def proposal_of(arguments: Mapping[str, object]) -> Proposal:
    """The tool call's arguments as a proposal (a missing or odd field: an empty one)."""
    formula, name = arguments.get("formula"), arguments.get("name")
    return Proposal(formula if isinstance(formula, str) else "",
                    name if isinstance(name, str) else "", arguments.get("percent") is True)
