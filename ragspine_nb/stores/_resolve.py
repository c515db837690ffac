"""The fact store's conflict-aware reads and users' resolutions (mixed into FactStore)."""

from __future__ import annotations

import getpass
from abc import ABC, abstractmethod

from ragspine_nb.core import ConflictResult, Fact, FoundResult, NotFoundResult, Resolution
from ragspine_nb.errors import ConflictResolutionError
from ragspine_nb.stores import statements as st
from ragspine_nb.stores._postgres import PostgresDatabase
from ragspine_nb.stores._sqlite import SQLiteDatabase

__all__ = ["ConflictMixin", "LookupResult"]

LookupResult = FoundResult | NotFoundResult | ConflictResult


def _whoami() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name in some containers
        return "unknown"


def _label(key: st.Key) -> str:
    metric, entity, channel, period_type, period = key
    return f"{metric} / {entity} / {period_type} {period} / {channel}"


class ConflictMixin(ABC):
    """Statements, lookups that surface conflicts, and recorded choices."""

    _db: SQLiteDatabase | PostgresDatabase

    @abstractmethod
    def query(self, metric: str, entity: str, period_type: str, period: str,
              channel: str = "TOTAL") -> Fact | None:
        """The settled fact (implemented by :class:`FactStore`)."""

    def statements(self, metric: str, entity: str, period_type: str, period: str,
                   channel: str = "TOTAL") -> list[Fact]:
        """Every document's statement of one identity, ordered by document id."""
        rows = self._db.fetchall(st.statements_sql(),
                                 (metric, entity, channel, period_type, period))
        return [st.row_to_fact(r) for r in rows]

    def iter_statements(self) -> list[Fact]:
        """Every document's statement of every fact, ordered by document id then identity.

        What a copy of the store must carry (``iter_facts`` holds only settled facts:
        an open conflict is in neither of its documents' settled facts).
        """
        rows = self._db.fetchall(st.all_statements_sql())
        return [st.row_to_fact(r) for r in rows]

    def _resolution(self, key: st.Key) -> Resolution | None:
        rows = self._db.fetchall(st.resolutions_sql())
        return st.parse_resolutions(rows, {key}).get(key)

    def lookup(self, metric: str, entity: str, period_type: str, period: str,
               channel: str = "TOTAL") -> LookupResult:
        """The fact, with the documents agreeing and any user choice; or the conflict.

        Returns
        -------
        FoundResult
            The settled fact; ``also_stated_by`` lists other documents stating the same
            value, ``resolution`` the user's choice when documents disagreed.
        ConflictResult
            Documents state different values and no recorded choice applies.
        NotFoundResult
            Nothing states this identity.
        """
        key = (metric, entity, channel, period_type, period)
        fact = self.query(metric, entity, period_type, period, channel)
        stmts = self.statements(metric, entity, period_type, period, channel)
        chosen = None
        if len(stmts) > 1 and st.disagree(stmts):  # the statements decide, not the settled row
            settled = st.settle(stmts, self._resolution(key))
            if settled.conflict:
                return st.conflict_of(settled)
            fact, chosen = settled.fact, settled.resolution
        if fact is None:
            return NotFoundResult(metric, entity, period_type, period, channel)
        if chosen is None and len(stmts) > 1:  # agreeing: the year's own filing is cited
            fact = st.cited_statement([s for s in stmts if st.same_value(s, fact)],
                                      self._own_periods([s.source_doc_id for s in stmts]))
        others = tuple(s.source for s in stmts
                       if s.source_doc_id != fact.source_doc_id and st.same_value(s, fact))
        return FoundResult(fact, also_stated_by=others, resolution=chosen)

    def _own_periods(self, docs: list[str]) -> dict[str, tuple[str, str]]:
        """Each document's own ``(period, doc_type)``, as it says of itself."""
        rows = self._db.fetchall(st.own_periods_sql(len(docs)), tuple(docs))
        return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}

    def conflicts(self) -> list[ConflictResult]:
        """Every open conflict (documents disagree, no recorded choice applies)."""
        return [st.conflict_of(s) for s in self._settled_shared() if s.conflict]

    def resolved_conflicts(self) -> list[FoundResult]:
        """Every conflict a user resolved, as the chosen fact with its resolution."""
        return [FoundResult(s.fact, resolution=s.resolution) for s in self._settled_shared()
                if s.fact is not None and s.resolution is not None]

    def _settled_shared(self) -> list[st.Settled]:
        by_key: dict[st.Key, list[Fact]] = {}
        for row in self._db.fetchall(st.conflicted_sql()):
            fact = st.row_to_fact(row)
            by_key.setdefault(st.key_of(fact), []).append(fact)
        chosen = st.parse_resolutions(self._db.fetchall(st.resolutions_sql()), set(by_key))
        return [st.settle(v, chosen.get(k)) for k, v in by_key.items()]

    def resolve_conflict(self, metric: str, entity: str, period_type: str, period: str,
                         channel: str = "TOTAL", *, keep: str, note: str = "",
                         by: str | None = None, at: str | None = None) -> FoundResult:
        """Record a user's choice: answer ``keep``'s statement of this identity.

        The choice is stored with who (``by``, default the login name), when and
        ``note``, shown in every answer's derivation, and holds while the statements
        it was made among keep their values (a document re-ingested with the same
        value keeps it; a changed value reopens the conflict). ``at`` (default now)
        keeps the original time when a recorded choice is copied to another store.

        Raises
        ------
        ConflictResolutionError
            No documents disagree on this identity, or ``keep`` does not state it
            (the message lists the documents that do).
        """
        key = (metric, entity, channel, period_type, period)
        with self._db.transaction() as conn:
            stmts = [st.row_to_fact(r) for r in
                     conn.execute(st.statements_sql(), key).fetchall()]
            if len(stmts) < 2 or not st.disagree(stmts):
                raise ConflictResolutionError(
                    f"no conflict on {_label(key)}: {len(stmts)} statement(s), all agreeing; "
                    "nothing to resolve (see FactStore.conflicts())")
            docs = [s.source_doc_id for s in stmts]
            if keep not in docs:
                raise ConflictResolutionError(
                    f"{keep!r} does not state {_label(key)}; keep one of {docs}")
            choice = Resolution(keep, by or _whoami(), at or st.utc_now(), note,
                                st.signature(stmts))
            st.write_resolution(conn, key, choice)
            st.settle_keys(conn, {key: stmts})
        found = self.lookup(metric, entity, period_type, period, channel)
        if not isinstance(found, FoundResult):  # settled above: only a concurrent write
            raise ConflictResolutionError(f"{_label(key)} changed while resolving; try again")
        return found
