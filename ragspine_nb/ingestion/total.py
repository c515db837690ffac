"""A table's bare "Total" row, named by the sentence introducing the table in its folder.

A table whose last row is a bare "Total" (or has no label) that its rows add up to says
only "Total": asked for "total accrued liabilities", nothing answers. The report names
it in the sentence introducing the table: "Accrued liabilities consisted of the
following (in thousands):" (:func:`~ragspine_nb.extract.table_subject.table_subject`).
Within one ingestion batch such a document is written after the other files of its
folder were read; when the prose of the folder (its own included) introduces tables
with exactly one such subject, and no other document of the folder has a bare total of
its own, the total row becomes that figure: the profile's metric when the subject is
one of its names ("Revenue by geographic area was as follows:" — the total is revenue),
else a metric of its own ("Total accrued liabilities"), its rows its parts. The facts
say so in their lineage (``mapping_version`` gains ``|total=Accrued liabilities from
notes.md``) and the file's line quotes the sentence. A total row with rows below it
(a gross total before "Less accumulated depreciation") or whose rows do not add up to
it is left as it is. RESTRICTED prose is never read for this.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.extract.rows import label_variants, norm_label
from ragspine_nb.extract.table_subject import introduced_subjects
from ragspine_nb.glossary import fold, metric_vocabulary
from ragspine_nb.ingestion.context import BatchContext
from ragspine_nb.profile import DomainProfile, MetricSpec
from ragspine_nb.vocabulary import Vocabulary, code_from_label

__all__ = ["BARE_TOTAL", "bare_total", "total_step", "subject_code"]

#: The code a table's bare "Total" row (or its unlabelled total row) is read under.
BARE_TOTAL = "TOTAL"
_BARE_LABELS = {"total", "totals", ""}
#: A grid cell's row in a locator ("cell=B9", "sheet=P&L!B9", "…,r=9,c=2").
_GRID = re.compile(r"^(?P<prefix>.*?)(?:(?<=[=!])[A-Z]{1,3}(?P<row>\d+)|\br=(?P<r>\d+),c=\d+)$")


def bare_total(result: DocumentResult) -> MetricSpec | None:
    """The document's one bare total row ("Total", or no label) its rows add up to, else None.

    Its code is ``TOTAL``, or the table's stub with it ("Item | 2019" gives ``ITEM_TOTAL``).
    """
    found = [m for m in result.vocabulary.metrics
             if m.parts and fold(m.label) in _BARE_LABELS and m.code.endswith(BARE_TOTAL)]
    return found[0] if len(found) == 1 else None


def _row(locator: str) -> tuple[str, int] | None:
    found = _GRID.match(locator)
    if found is None:
        return None
    return found.group("prefix"), int(found.group("row") or found.group("r"))


def _is_last_row(result: DocumentResult, code: str) -> bool:
    """Whether every cell of ``code`` is on the last row holding figures of its table."""
    last: dict[str, int] = {}
    mine: list[tuple[str, int]] = []
    for fact in result.facts:
        where = _row(fact.source_locator)
        if where is None:
            return False  # a locator that tells no row order: nothing is renamed
        last[where[0]] = max(last.get(where[0], 0), where[1])
        if fact.metric_code == code:
            mine.append(where)
    return bool(mine) and all(row == last[prefix] for prefix, row in mine)


def subject_code(subject: str, profile: DomainProfile) -> tuple[str, bool]:
    """The profile's metric named ``subject`` (``(code, True)``), else a code of its own.

    Examples
    --------
    >>> p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"},
    ...     "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue", "sales"]}}})
    >>> subject_code("Revenue", p), subject_code("Accrued liabilities", p)
    (('REVENUE', True), ('ACCRUED_LIABILITIES', False))
    """
    code = metric_vocabulary(profile).get(fold(subject))
    return (code, True) if code is not None else (code_from_label(subject), False)


def _named(spec: MetricSpec, subject: str, code: str) -> MetricSpec:
    name = norm_label(subject)
    if name.startswith("total "):
        name = name[len("total "):]
    synonyms = [f"total {name}", f"{name} total", name, *spec.synonyms]  # "total" stays
    variants = [v for s in synonyms for v in label_variants(s) if v not in synonyms]
    if fold(subject).startswith("total "):
        label = subject
    elif subject[:1].isupper() and not subject[1:2].isupper():  # "Accrued …", not "EBITDA"
        label = f"Total {subject[:1].lower()}{subject[1:]}"
    else:
        label = f"Total {subject}"
    return replace(spec, code=code, label=label,
                   synonyms=tuple(dict.fromkeys([*synonyms, *variants])))


def total_step(result: DocumentResult, context: BatchContext, path: Path,
               profile: DomainProfile) -> DocumentResult:
    """``result`` with its bare total row named by its folder's prose (module docstring)."""
    spec = bare_total(result)
    if spec is None or context.totals.get(path.parent) != {result.doc_id} or \
            not _is_last_row(result, spec.code):
        return result
    texts = context.prose_for(result, path)
    subjects = {fold(s): (s, d) for d, t in texts for s in introduced_subjects(t)}
    if len(subjects) != 1:
        return result
    subject, origin = next(iter(subjects.values()))
    code, known = subject_code(subject, profile)
    taken = {m.code for m in result.vocabulary.metrics} | {f.metric_code for f in result.facts}
    if not code or (code in taken and code != spec.code):
        return result  # a row of the table already has the name: which one is meant is unclear
    lineage = f"|total={subject} from {origin}"
    facts = tuple(replace(f, metric_code=code, mapping_version=f.mapping_version + lineage)
                  if f.metric_code == spec.code else f for f in result.facts)
    metrics = tuple(_named(m, subject, code) if m.code == spec.code
                    else replace(m, parts=tuple(code if p == spec.code else p for p in m.parts))
                    for m in result.vocabulary.metrics)
    profile_metric = f" (the profile's metric {code})" if known else ""
    note = (f"bare total row read as {subject!r}{profile_metric} from the prose of {origin}, "
            "which introduces its table")
    return replace(result, facts=facts,
                   vocabulary=Vocabulary(metrics, result.vocabulary.channels,
                                         result.vocabulary.entities),
                   warnings=(*result.warnings, note))
