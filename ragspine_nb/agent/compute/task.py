"""A :class:`Task`: one cell a question names, to look up in the fact store.

A task is the typed sub-task that crosses the question engine: the reading plans
tasks, the lookups answer them, the writer names them. Its four slots are the fact
store's keys; the period is a label such as ``FY2019``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, Protocol

from ragspine_nb.period_codes import period_label

__all__ = ["Task", "Slot", "SLOTS", "StoredCell"]

#: The slots of a task, in the order a message names them.
Slot = Literal["metric", "entity", "period", "channel"]
SLOTS: tuple[Slot, ...] = ("metric", "entity", "period", "channel")


class StoredCell(Protocol):
    """What names a stored cell: a fact, or a lookup's miss or conflict."""

    @property
    def metric_code(self) -> str: ...  # noqa: D102
    @property
    def entity(self) -> str: ...  # noqa: D102
    @property
    def period_type(self) -> str: ...  # noqa: D102
    @property
    def period(self) -> str: ...  # noqa: D102
    @property
    def channel(self) -> str: ...  # noqa: D102


@dataclass(frozen=True)
class Task:
    """One cell to look up: metric, entity, period label, column (channel).

    >>> t = Task("REVENUE", "ACME_HK", "FY2024", "TOTAL")
    >>> t.slot("period"), t.but(period="FY2023").period
    ('FY2024', 'FY2023')
    >>> t.to_dict()
    {'metric': 'REVENUE', 'entity': 'ACME_HK', 'period': 'FY2024', 'channel': 'TOTAL'}
    """

    metric: str
    entity: str
    period: str
    channel: str

    @classmethod
    def of(cls, cell: StoredCell) -> Task:
        """The task that looks ``cell`` up (a fact, a miss or a conflict names its cell).

        >>> from ragspine_nb.core import Fact
        >>> Task.of(Fact("REVENUE", "ACME_HK", "NA", "TOTAL", "FY", "2024", 1.0, "M", "a.csv",
        ...              "cell=B2"))
        Task(metric='REVENUE', entity='ACME_HK', period='FY2024', channel='TOTAL')
        """
        return cls(cell.metric_code, cell.entity, period_label(cell.period_type, cell.period),
                   cell.channel)

    def slot(self, name: Slot) -> str:
        """The value of one slot, by its name."""
        value: str = getattr(self, name)
        return value

    def but(self, **slots: str) -> Task:
        """The task with some slots replaced (``task.but(period="FY2018")``)."""
        return replace(self, **slots)

    def row(self) -> tuple[str, str, str]:
        """Every slot but the period: the row of a table this cell sits in."""
        return (self.metric, self.entity, self.channel)

    def to_dict(self) -> dict[str, str]:
        """Plain data in slot order, as a model is shown the planned sub-tasks."""
        return {s: self.slot(s) for s in SLOTS}
