"""What a fact lookup returns: found, not found, an unrecognised parameter, or a conflict."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ragspine_nb.core.records import Fact, Source
from ragspine_nb.errors import InvalidRecordError

__all__ = [
    "FoundResult",
    "NotFoundResult",
    "UnrecognizedParamResult",
    "ConflictResult",
    "Resolution",
    "QueryResult",
]

@dataclass(frozen=True)
class Resolution:
    """A user's recorded choice between the conflicting statements of one fact.

    ``keep_doc_id`` is the document whose statement is answered; the choice holds while
    the statements it was made among (``statements``: ``doc|value|unit`` lines) are
    unchanged.
    """

    keep_doc_id: str
    resolved_by: str
    resolved_at: str
    note: str = ""
    statements: str = ""

    def to_dict(self) -> dict[str, str]:
        """Return every field as a plain dict."""
        return asdict(self)


@dataclass(frozen=True)
class FoundResult:
    """``query_metric`` found the exact row; the value comes from the fact store.

    ``also_stated_by`` lists the other documents stating the same value;
    ``resolution`` is set when documents disagreed and a user chose this statement.
    """

    fact: Fact
    status: Literal["found"] = field(default="found", init=False)
    also_stated_by: tuple[Source, ...] = ()
    resolution: Resolution | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the seed's JSON shape (value, unit, codes, source)."""
        out = self._seed_dict()
        if self.also_stated_by:
            out["also_stated_by"] = [s.to_dict() for s in self.also_stated_by]
        if self.resolution is not None:
            out["resolution"] = self.resolution.to_dict()
        return out

    def _seed_dict(self) -> dict[str, Any]:
        f = self.fact
        return {
            "status": self.status,
            "value": f.value,
            "unit": f.unit,
            "metric_code": f.metric_code,
            "entity": f.entity,
            "period_type": f.period_type,
            "period": f.period,
            "channel": f.channel,
            "source": f.source.to_dict(),
            "lineage": {
                "source_file_hash": f.source_file_hash,
                "extractor_version": f.extractor_version,
                "mapping_version": f.mapping_version,
                "valid_as_of": f.valid_as_of,
                "ingested_at": f.ingested_at,
            },
        }


def _identity(result: NotFoundResult | ConflictResult) -> dict[str, str]:
    """The looked-up identity, as the seed's ``normalized`` JSON object."""
    return {"metric_code": result.metric_code, "entity": result.entity,
            "period_type": result.period_type, "period": result.period,
            "channel": result.channel}


@dataclass(frozen=True)
class NotFoundResult:
    """Every parameter normalized, but no row matches; never interpolated."""

    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str
    status: Literal["not_found"] = field(default="not_found", init=False)

    def to_dict(self) -> dict[str, Any]:
        """Return the seed's JSON shape."""
        return {
            "status": self.status,
            "normalized": _identity(self),
        }


@dataclass(frozen=True)
class UnrecognizedParamResult:
    """A parameter could not be normalized to a controlled code."""

    param: str
    raw: str
    status: Literal["unrecognized_param"] = field(default="unrecognized_param", init=False)

    def to_dict(self) -> dict[str, Any]:
        """Return the seed's JSON shape."""
        return {"status": self.status, "param": self.param, "raw": self.raw}


@dataclass(frozen=True)
class ConflictResult:
    """Documents state this fact with different values: no single number is answered.

    ``statements`` holds one :class:`Fact` per document (value, unit and source each),
    ordered by document id, until a user resolves the conflict or a later version of
    a document makes them agree.
    """

    metric_code: str
    entity: str
    period_type: str
    period: str
    channel: str
    statements: tuple[Fact, ...]
    status: Literal["conflict"] = field(default="conflict", init=False)

    def __post_init__(self) -> None:
        if len(self.statements) < 2:
            raise InvalidRecordError("a ConflictResult needs at least two statements")

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape: the identity and every statement with its source."""
        return {
            "status": self.status,
            "normalized": _identity(self),
            "statements": [{"value": f.value, "unit": f.unit, "source": f.source.to_dict(),
                            "valid_as_of": f.valid_as_of, "ingested_at": f.ingested_at}
                           for f in self.statements],
        }


QueryResult = FoundResult | NotFoundResult | UnrecognizedParamResult | ConflictResult
