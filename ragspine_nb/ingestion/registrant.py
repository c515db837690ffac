"""One filer, one entity: a filing under a company's former or later name joins its entity.

A company read from a cover page becomes an entity named after it (``ADOBE_SYSTEMS`` for
"Adobe Systems Incorporated", ``ADOBE`` for "Adobe Inc."). A company renamed would then
be two: "Adobe's operating cash flow ratio for FY2015" looks under ``ADOBE`` and finds
nothing, the FY2015 figures being ``ADOBE_SYSTEMS``'s. The regulator's number of the filer
settles it (the SEC's commission file number, "0-15175" on every Adobe 10-K): a document
whose registrant number another document of the workspace already states is filed under
that document's entity — its facts, its passages, its identity row — and the name it
writes becomes one more name of the entity (its vocabulary's entity entry is renamed, so
the workspace merges the two). Two companies never share a number, so two companies are
never made one; a document stating no number is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.stores.facts import REGISTRANT

__all__ = ["same_filer_entity", "file_under_filer"]


def same_filer_entity(registrant: str, own: str, doc_id: str,
                      identities: Mapping[str, Mapping[str, str]]) -> tuple[str, str]:
    """``(entity, company)`` another document of the same registrant is filed under.

    ``("", "")`` when no other document states ``registrant`` or it is filed under ``own``.

    >>> rows = {"a15.pdf": {"registrant": "0-15175", "entity": "ADOBE_SYSTEMS",
    ...                     "company": "Adobe Systems Incorporated"}}
    >>> same_filer_entity("0-15175", "ADOBE", "a22.pdf", rows)
    ('ADOBE_SYSTEMS', 'Adobe Systems Incorporated')
    >>> same_filer_entity("1-3285", "MMM", "m.pdf", rows)
    ('', '')
    """
    if not registrant:
        return "", ""
    for other, row in sorted(identities.items()):
        entity = row.get("entity", "")
        if other != doc_id and row.get(REGISTRANT) == registrant and entity and entity != own:
            return entity, row.get("company", "")
    return "", ""


def file_under_filer(result: DocumentResult, own: str, entity: str) -> DocumentResult:
    """The document with everything filed under ``own`` moved to ``entity``."""
    vocabulary = replace(result.vocabulary, entities=tuple(
        replace(e, code=entity) if e.code == own else e for e in result.vocabulary.entities))
    return replace(
        result,
        facts=tuple(replace(f, entity=entity) if f.entity == own else f for f in result.facts),
        chunks=tuple(replace(c, entity=entity) if c.entity == own else c
                     for c in result.chunks),
        vocabulary=vocabulary)
