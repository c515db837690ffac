"""What a question asks to compute over the figures it names: one frozen :class:`Operation`.

The operation is read from the question's words
(:mod:`ragspine_nb.agent.reading.operation_detect`) before any figure is looked up, and
applied to the cited cells by :mod:`ragspine_nb.agent.compute.operations`; it names what
to compute, never a value.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragspine_nb.agent.reading.operation_cues import RatioSplit, Threshold
from ragspine_nb.core import COMPUTED_OPERATIONS
from ragspine_nb.errors import InvalidRecordError

__all__ = ["Operation", "ANSWERS"]

#: How an operation's outcome is answered: a headline figure, or a label named as text.
ANSWERS: tuple[str, ...] = ("number", "label")

@dataclass(frozen=True)
class Operation:
    """What a question asks to compute over the figures it names.

    Parameters
    ----------
    kind : str
        One of :data:`~ragspine_nb.core.COMPUTED_OPERATIONS`.
    with_levels : bool
        The levels are asked for too (a comparison: both figures and their difference).
    between : bool
        The question asks for the difference *between* figures it names ("the
        difference between A and B"), which is not a change over time: when it also
        spans two periods, which difference is meant is not clear. On an ``average``:
        the average difference between two rows, the same as the difference of their
        averages over the same periods.
    over_range : bool
        An average or sum over a range of periods ("from 2017 to 2019"): every fiscal
        year from the first to the last named is an operand.
    years : int
        "The 3 years" with no period named: the latest that many fiscal years.
    implicit : bool
        A sum read from a bare "total": it is a sum only when several operands are
        named, otherwise the question asks for a level.
    split : RatioSplit or None
        Where a ratio's / share's numerator and denominator are named.
    test : Threshold or None
        A count's (or a which-period question's) test against a stated amount.
    answer : str
        ``number`` (a headline figure) or ``label`` (which period / item, as text).
    nested : str
        An operation of operations the question asks for ("the change in the average",
        "the average change"): named here, refused as not computed.
    over : str
        What a count, max or min runs over: ``periods`` (the row's periods) or ``items``
        (rows or columns named as a list); empty for the others.
    inner : str
        A ``change_of_change``'s inner change: ``difference`` or ``percent_change``.
    points : bool
        A ``percent_change`` asked in percentage points ("the absolute percentage
        change", "the percentage-point change"): over two percentages it is their
        difference in points; over amounts it stays a relative change.
    then : str
        A ratio / share asked for several years: ``average`` — the mean of the yearly
        results ("the average proportion of A as a percentage of B in 2017 and 2018");
        ``change`` — the later of two years' result less the earlier's ("the change in
        the percentage of sales represented by gross profit between 2018 and 2019");
        empty — one result per year.
    opening : bool
        An average asked as one year's ("the 2019 average total assets"): that of the
        year's opening and closing balances, the ends of the year before and the year.
    quarterly : bool
        An average asked per quarter of one year ("the average quarterly low price in
        2018"): over that year's four quarters.
    direction : str
        A ``trend`` asked as yes or no: ``up`` ("Did revenue increase …?") or ``down``;
        empty when it names both ways or neither ("improved or declined").
    each : bool
        The operation of each row the question names is asked: one figure per row
        ("respectively", "each", or no word asking to combine them). False when the
        question also asks to combine them ("the change in total net sales of A and
        B"): each row's change or the change of their total? Several rows then give no
        figure, only their inputs.
    compound : bool
        A ``percent_change`` asked as a compound annual growth rate ("CAGR"): the yearly
        rate that compounds the earlier fiscal year's figure into the later one's over
        the years between them; ``years``, when the question says them ("3-year CAGR"),
        must be those years.
    compared : str
        A difference asked as "how much more (or less) was A than B"
        (:func:`~ragspine_nb.agent.reading.comparative.compared_first`): ``first`` — A
        less B, ``second`` — B less A, the figures taken in the order the question writes
        them (over two years too: "larger in 2022 than in 2023" is 2022's less 2023's);
        empty — a change over periods is the later less the earlier.
    signed : bool
        A ``max`` / ``min`` of signed values: the question names a loss's extreme beside
        ("brought in the most (or lost the least)", "the least negative"), so a loss is
        below any gain and negative values are compared as they are.
    """

    kind: str
    with_levels: bool = False
    between: bool = False
    over_range: bool = False
    years: int = 0
    implicit: bool = False
    split: RatioSplit | None = None
    test: Threshold | None = None
    answer: str = "number"
    nested: str = ""
    over: str = ""
    inner: str = ""
    points: bool = False
    then: str = ""
    opening: bool = False
    quarterly: bool = False
    direction: str = ""
    each: bool = False
    signed: bool = False
    compound: bool = False
    compared: str = ""

    def __post_init__(self) -> None:
        if self.kind not in COMPUTED_OPERATIONS:
            raise InvalidRecordError(f"Operation.kind {self.kind!r} is not valid. "
                                     f"Valid: {list(COMPUTED_OPERATIONS)}")
        if self.compared not in ("", "first", "second"):
            raise InvalidRecordError(f"Operation.compared {self.compared!r} is not valid. "
                                     "Valid: ['', 'first', 'second']")
        if self.answer not in ANSWERS:
            raise InvalidRecordError(f"Operation.answer {self.answer!r} is not valid. "
                                     f"Valid: {list(ANSWERS)}")
