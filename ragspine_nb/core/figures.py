"""Headline figures: the numbers an answer asserts, each with how it was obtained.

A :class:`Figure` is what an answer states as *the* number — a looked-up level, or an
operation computed deterministically over cited cells (its operands). Operands and
quoted passages are not headline figures. The answer text is rendered from the
figures, so what is scored is what is shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ragspine_nb.core.records import Fact, Source, is_blank
from ragspine_nb.errors import InvalidRecordError, LineageError

__all__ = ["Figure", "OPERATIONS", "COMPUTED_OPERATIONS"]

#: What a figure can be: a stored level (``lookup``), a change a report states itself
#: (``stated_change``), or an operation computed over its operands.
COMPUTED_OPERATIONS: tuple[str, ...] = (
    "difference", "percent_change", "average", "sum", "ratio", "share", "count", "max", "min",
    "change_of_change", "trend", "spread",
)
OPERATIONS: tuple[str, ...] = ("lookup", "stated_change", *COMPUTED_OPERATIONS)


@dataclass(frozen=True)
class Figure:
    """One number an answer asserts.

    Parameters
    ----------
    value : float
        The number as stated (in ``unit``).
    unit : str
        The fact store's convention: ``USD_M``, ``USD_K``, ``CNY_100M``, ``PCT``, a bare
        currency (``USD``), ``shares``, a bare scale (``M``), or ``""`` for a plain number.
    label : str
        What the number is, in words ("ACME Hong Kong revenue, FY2025").
    operation : str
        One of :data:`OPERATIONS`.
    operands : tuple of Fact
        The stored cells it was read from or computed over (a lookup has exactly one).
    sources : tuple of Source
        Where it comes from (document + locator); never empty.
    derivation : str
        How it was obtained, e.g. ``"(1,320 − 1,086) = 234"``; empty for a lookup.

    Examples
    --------
    >>> f = Fact("REVENUE", "ACME_HK", "HK", "TOTAL", "FY", "2025", 1405.0, "USD_M",
    ...          "deck.pptx", "slide=3,table=1,row=REVENUE,col=FY2025")
    >>> Figure.of_fact(f, "ACME Hong Kong revenue, FY2025").sources[0].locator
    'slide=3,table=1,row=REVENUE,col=FY2025'
    """

    value: float
    unit: str
    label: str
    operation: str
    operands: tuple[Fact, ...] = ()
    sources: tuple[Source, ...] = ()
    derivation: str = ""

    def __post_init__(self) -> None:
        if self.operation not in OPERATIONS:
            raise InvalidRecordError(f"Figure.operation {self.operation!r} is not valid. "
                                     f"Valid: {list(OPERATIONS)}")
        if isinstance(self.value, bool) or not isinstance(self.value, int | float) \
                or not math.isfinite(self.value):
            raise InvalidRecordError(f"Figure.value must be a finite number, got {self.value!r}")
        if not isinstance(self.unit, str):
            raise InvalidRecordError(f"Figure.unit must be a string, got {self.unit!r}")
        if is_blank(self.label):
            raise InvalidRecordError("Figure.label must say what the number is")
        if not self.sources:
            raise LineageError(f"a Figure must cite its sources: {self.label!r}")
        if self.operation == "lookup" and len(self.operands) != 1:
            raise InvalidRecordError("a lookup Figure has exactly one operand (the stored fact)")
        if self.operation in COMPUTED_OPERATIONS and not self.operands:
            raise InvalidRecordError(f"a computed Figure ({self.operation}) needs its operands")

    @classmethod
    def of_fact(cls, fact: Fact, label: str) -> Figure:
        """A stored level as a headline figure (operation ``lookup``)."""
        return cls(fact.value, fact.unit, label, "lookup", (fact,), (fact.source,))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (operands as their value, unit and source)."""
        return {
            "value": self.value, "unit": self.unit, "label": self.label,
            "operation": self.operation, "derivation": self.derivation,
            "operands": [{"value": f.value, "unit": f.unit, "metric_code": f.metric_code,
                          "entity": f.entity, "period_type": f.period_type,
                          "period": f.period, "channel": f.channel,
                          "source": f.source.to_dict()} for f in self.operands],
            "sources": [s.to_dict() for s in self.sources],
        }
