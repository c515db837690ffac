"""Graded relevance judgments of a workspace: a TREC qrels file with versions.

A :class:`Judgments` is ``{query id: {chunk id: relevance}}`` (a read-only mapping, so
it goes wherever qrels go) plus each query's text, where each judgment came from
(``user``, ``synthetic``, ``page:<doc>#<n>``, ``document:<doc>``) and a version that
grows with every change. Grades: 2 relevant, 1 partly, 0 not relevant.

Files: :meth:`Judgments.save` writes a plain TREC qrels file (``qid 0 docid rel``,
readable by ``trec_eval`` and ``ir_measures``) and beside it ``<name>.meta.json``
(version, query texts, sources); the file it replaces is kept as
``<stem>.v<version><suffix>``. Writes go to a temporary file first, so a crash
leaves the previous file intact.

Page- and document-level judgments (a FinanceBench evidence page, a whole file) are
expanded to the chunks they cover by :meth:`Judgments.add_pages` and
:meth:`Judgments.add_documents`, each expansion recorded as the judgment's source.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.render import Card, Table
from ragspine_nb.errors import QrelsError

__all__ = ["Judgments", "GRADES", "JUDGMENTS_FILE", "NoJudgmentsError", "grade_of",
           "page_of_locator", "check_judged", "Expansion"]

#: Grade names (what the inspector's buttons say) → relevance.
GRADES: dict[str, int] = {"relevant": 2, "partly": 1, "not": 0}

#: Where a workspace keeps its judgments.
JUDGMENTS_FILE = "judgments/qrels.trec"

_PAGE = re.compile(r"(?:^|,)page=(\d+)")


class NoJudgmentsError(QrelsError):
    """No judged query can be scored: empty qrels, or none of them match queries/chunks."""


def grade_of(value: int | str) -> int:
    """``"relevant"``/``"partly"``/``"not"`` or 0–3 → relevance (named error otherwise).

    >>> grade_of("partly"), grade_of(2)
    (1, 2)
    """
    if isinstance(value, str) and value.strip().lower() in GRADES:
        return GRADES[value.strip().lower()]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    raise ValueError(f"relevance {value!r} is not a grade: use one of {list(GRADES)} "
                     "or an int 0-3")


def page_of_locator(locator: str) -> int | None:
    """The page number of a locator such as ``page=60,para=3-5`` (``None`` without one).

    >>> page_of_locator("page=60,table=1,row=CAPEX"), page_of_locator("slide=3")
    (60, None)
    """
    m = _PAGE.search(locator)
    return int(m.group(1)) if m else None


@dataclass(frozen=True)
class Expansion:
    """What a page- or document-level judgment became: the chunks it covers."""

    query_id: str
    source: str
    chunks: tuple[str, ...]


class Judgments(CardReprMixin, Mapping[str, Mapping[str, int]]):
    """Graded judgments per query, saved as a versioned TREC qrels file.

    Parameters
    ----------
    path : str or Path, optional
        The qrels file; when given, every change is saved at once (the inspector's clicks).
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.version = 0
        self.queries: dict[str, str] = {}
        self.synthetic: set[str] = set()
        self._rel: dict[str, dict[str, int]] = {}
        self._source: dict[tuple[str, str], str] = {}

    # -------------------------------------------------------------- mapping
    def __getitem__(self, qid: str) -> Mapping[str, int]:
        return self._rel[qid]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rel)

    def __len__(self) -> int:
        return len(self._rel)

    @property
    def n_judgments(self) -> int:
        """Judged (query, chunk) pairs."""
        return sum(len(v) for v in self._rel.values())

    def source(self, qid: str, doc_id: str) -> str:
        """Where the judgment of ``doc_id`` for ``qid`` came from."""
        return self._source.get((qid, doc_id), "user")

    # -------------------------------------------------------------- changes
    def mark(self, query_id: str, doc_id: str, relevance: int | str, query: str | None = None,
             source: str = "user") -> None:
        """Judge ``doc_id`` for ``query_id`` (``relevance``: a grade name or 0–3)."""
        rel = grade_of(relevance)
        if not query_id or not doc_id:
            raise ValueError("a judgment needs a query id and a chunk id")
        if query is not None:
            self.queries[query_id] = query
        self._rel.setdefault(query_id, {})[doc_id] = rel
        self._source[(query_id, doc_id)] = source
        if source == "synthetic":
            self.synthetic.add(query_id)
        self._changed()

    def unmark(self, query_id: str, doc_id: str) -> None:
        """Forget one judgment (nothing happens when there is none)."""
        judged = self._rel.get(query_id, {})
        if judged.pop(doc_id, None) is None:
            return
        self._source.pop((query_id, doc_id), None)
        if not judged:
            del self._rel[query_id]
        self._changed()

    def update(self, other: Mapping[str, Mapping[str, int]], source: str = "user") -> None:
        """Add every judgment of ``other`` (a dict of qrels or a :class:`Judgments`)."""
        for qid, judged in other.items():
            for doc, rel in judged.items():
                src = other.source(qid, doc) if isinstance(other, Judgments) else source
                self._rel.setdefault(qid, {})[doc] = grade_of(rel)
                self._source[(qid, doc)] = src
            if isinstance(other, Judgments):
                if qid in other.queries:
                    self.queries[qid] = other.queries[qid]
                if qid in other.synthetic:
                    self.synthetic.add(qid)
            elif source == "synthetic":
                self.synthetic.add(qid)
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        if self.path is not None:
            self.save(self.path)

    def add_pages(self, query_id: str, pages: Iterable[tuple[str, int]],
                  chunks: Iterable[Any], relevance: int | str = 2,
                  query: str | None = None) -> list[Expansion]:
        """Judge every chunk on each ``(doc id, page)``: a page-level judgment, expanded.

        ``chunks`` are the corpus's chunks (``doc_id``, ``chunk_id``, ``source_locator``).
        Returns one :class:`Expansion` per page (a page no chunk covers gives none).
        """
        by_page: dict[tuple[str, int], list[str]] = {}
        for c in chunks:
            p = page_of_locator(c.source_locator)
            if p is not None:
                by_page.setdefault((c.doc_id, p), []).append(c.chunk_id)
        return self._expand(query_id, [(f"page:{d}#{p}", by_page.get((d, p), []))
                                       for d, p in pages], relevance, query)

    def add_documents(self, query_id: str, doc_ids: Iterable[str], chunks: Iterable[Any],
                      relevance: int | str = 1, query: str | None = None) -> list[Expansion]:
        """Judge every chunk of each document (a document-level judgment, expanded)."""
        by_doc: dict[str, list[str]] = {}
        for c in chunks:
            by_doc.setdefault(c.doc_id, []).append(c.chunk_id)
        return self._expand(query_id, [(f"document:{d}", by_doc.get(d, [])) for d in doc_ids],
                            relevance, query)

    def _expand(self, query_id: str, groups: list[tuple[str, list[str]]], relevance: int | str,
                query: str | None) -> list[Expansion]:
        rel = grade_of(relevance)
        if query is not None:
            self.queries[query_id] = query
        out = []
        for source, ids in groups:
            for cid in ids:
                self._rel.setdefault(query_id, {})[cid] = rel
                self._source[(query_id, cid)] = source
            if ids:
                out.append(Expansion(query_id, source, tuple(ids)))
        self._changed()
        return out

    # -------------------------------------------------------------- files
    @classmethod
    def for_workspace(cls, folder: str | Path) -> Judgments:
        """The judgments of a workspace folder (loaded when saved before; saved on change)."""
        path = Path(folder) / JUDGMENTS_FILE
        j = cls.load(path) if path.exists() else cls()
        j.path = path
        return j

    def save(self, path: str | Path) -> Path:
        """Write the TREC qrels file and its ``.meta.json`` (previous file kept, versioned)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta_path = path.with_name(path.name + ".meta.json")
        if path.exists() and meta_path.exists():
            old = json.loads(meta_path.read_text(encoding="utf-8")).get("version", 0)
            if old != self.version:  # kept as a copy: the file is never missing, even briefly
                shutil.copyfile(path, path.with_name(f"{path.stem}.v{old:04d}{path.suffix}"))
        lines = [f"{q} 0 {d} {r}\n" for q, judged in self._rel.items() for d, r in judged.items()]
        meta = {"version": self.version, "queries": self.queries,
                "synthetic": sorted(self.synthetic),
                "sources": [[q, d, s] for (q, d), s in self._source.items() if s != "user"]}
        for target, text in ((path, "".join(lines)), (meta_path, json.dumps(meta, indent=1))):
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, target)
        return path

    @classmethod
    def load(cls, path: str | Path) -> Judgments:
        """Read a TREC qrels file (``qid iter docid rel``; a BEIR ``qid docid rel`` TSV too)."""
        path = Path(path)
        j = cls()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            parts = line.split()
            if not parts or parts[0] in ("query-id", "#"):
                continue
            if len(parts) not in (3, 4) or not parts[-1].lstrip("-").isdigit():
                raise QrelsError(f"{path}:{n}: expected 'qid 0 docid relevance' (TREC qrels) "
                                 f"or 'qid docid relevance', got {line!r}")
            j._rel.setdefault(parts[0], {})[parts[-2]] = max(0, int(parts[-1]))
        meta_path = path.with_name(path.name + ".meta.json")
        if meta_path.exists():
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            j.version = int(meta.get("version", 0))
            j.queries = dict(meta.get("queries", {}))
            j.synthetic = set(meta.get("synthetic", ()))
            j._source = {(q, d): s for q, d, s in meta.get("sources", ())}
        return j

    # -------------------------------------------------------------- views
    def to_frame(self) -> Any:
        """One row per judgment: query id, query, chunk id, relevance, grade, source, synthetic."""
        import pandas as pd

        names = {v: k for k, v in GRADES.items()}
        rows = [{"query_id": q, "query": self.queries.get(q, ""), "chunk_id": d,
                 "relevance": r, "grade": names.get(r, str(r)), "source": self.source(q, d),
                 "synthetic": q in self.synthetic}
                for q, judged in self._rel.items() for d, r in judged.items()]
        return pd.DataFrame(rows, columns=["query_id", "query", "chunk_id", "relevance", "grade",
                                           "source", "synthetic"])

    def _display_card(self) -> Card:
        kinds: dict[str, int] = {}
        for s in self._source.values():
            key = s.split(":", 1)[0]
            kinds[key] = kinds.get(key, 0) + 1
        rows = tuple((q, self.queries.get(q, "")[:80], str(sum(r > 0 for r in j.values())),
                      str(len(j)), "yes" if q in self.synthetic else "")
                     for q, j in list(self._rel.items())[:20])
        stats = (("queries", str(len(self))), ("judgments", str(self.n_judgments)),
                 ("synthetic queries", str(len(self.synthetic))),
                 ("sources", ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "—"),
                 ("version", str(self.version)),
                 ("file", str(self.path) if self.path else "not saved"))
        return Card(title="Judgments", subtitle="graded: 2 relevant, 1 partly, 0 not",
                    stats=stats, tables=(Table(f"first {len(rows)} of {len(self)} queries",
                                               ("query id", "query", "relevant", "judged",
                                                "synthetic"), rows),))

    def __repr__(self) -> str:
        return (f"Judgments(queries={len(self)}, judgments={self.n_judgments}, "
                f"synthetic={len(self.synthetic)}, version={self.version})")


def check_judged(queries: Mapping[str, str], qrels: Mapping[str, Mapping[str, int]],
                 known: Any) -> list[str]:
    """The query ids that can be scored: in ``queries``, with a relevant judged chunk known.

    ``known(doc_id)`` says whether the index holds a chunk id.

    Raises
    ------
    NoJudgmentsError
        When none can be scored; the message says which of the three is missing.
    """
    if not qrels:
        raise NoJudgmentsError(
            "no judgments: the qrels are empty. Mark hits in index.inspect(query) (saved to the "
            "workspace's judgments/qrels.trec), generate queries with "
            "ragspine_nb.retrieval.synthetic_queries(...), or pass "
            "{query id: {chunk id: relevance}}")
    shared = [q for q in qrels if q in queries]
    if not shared:
        raise NoJudgmentsError(
            f"no judged query id is a query id: judgments have {sorted(qrels)[:3]}, queries have "
            f"{sorted(queries)[:3]}")
    usable = [q for q in shared if any(r > 0 and known(d) for d, r in qrels[q].items())]
    if not usable:
        raise NoJudgmentsError(
            f"none of the {len(shared)} judged queries has a relevant chunk of this index "
            "(every judgment is 'not relevant', or names ids the index does not hold)")
    return usable
