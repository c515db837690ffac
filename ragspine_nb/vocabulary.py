"""Derived vocabulary: metrics, channels and entities a document brings, merged under a profile.

Tables carry row labels no profile names. Extraction turns each into a metric of its own
and reports them as a :class:`Vocabulary`; the workspace stores one per document and
:func:`merge_vocabulary` lays them under the profile. The profile always wins: a derived
entry only adds a code and terms nobody in the profile claims.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ragspine_nb.errors import ProfileError
from ragspine_nb.glossary import fold
from ragspine_nb.profile import ChannelSpec, DomainProfile, EntitySpec, MetricSpec, parts_reach

__all__ = ["Vocabulary", "merge_vocabulary", "combine", "code_from_label", "home_company",
           "effective_profile"]

_NON_WORD = re.compile(r"[^0-9A-Z\u3400-\u9fff]+")


def code_from_label(label: str) -> str:
    """An upper-case code for a label: words joined by ``_``; CJK characters kept.

    Examples
    --------
    >>> [code_from_label(t) for t in ("Cost of sales (US$m)", "Acme Corp.", "营业收入")]
    ['COST_OF_SALES_US_M', 'ACME_CORP', '营业收入']
    """
    text = unicodedata.normalize("NFKC", label).upper()
    return _NON_WORD.sub("_", text).strip("_")


@dataclass(frozen=True)
class Vocabulary:
    """Entries one document brings beside the profile (derived, never handwritten).

    Examples
    --------
    >>> v = Vocabulary(metrics=(MetricSpec("SHARE_COUNT", "shares", "Share count"),))
    >>> Vocabulary.from_dict(v.to_dict()) == v, bool(Vocabulary())
    (True, False)
    """

    metrics: tuple[MetricSpec, ...] = ()
    channels: tuple[ChannelSpec, ...] = ()
    entities: tuple[EntitySpec, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.metrics or self.channels or self.entities)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping; :meth:`from_dict` rebuilds the vocabulary."""
        return {
            "metrics": [{"code": m.code, "unit": m.unit, "label": m.label,
                         "synonyms": list(m.synonyms), "parts": list(m.parts)}
                        for m in self.metrics],
            "channels": [{"code": c.code, "synonyms": list(c.synonyms)} for c in self.channels],
            "entities": [{"code": e.code, "label": e.label, "geography": e.geography,
                          "synonyms": list(e.synonyms)} for e in self.entities],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Vocabulary:
        """Rebuild a vocabulary from :meth:`to_dict`'s shape (missing sections are empty)."""
        try:
            return cls(
                metrics=tuple(MetricSpec(str(m["code"]), str(m.get("unit", "")),
                                         str(m.get("label", "")), _strs(m.get("synonyms")),
                                         _strs(m.get("parts")))
                              for m in data.get("metrics", ())),
                channels=tuple(ChannelSpec(str(c["code"]), _strs(c.get("synonyms")))
                               for c in data.get("channels", ())),
                entities=tuple(EntitySpec(str(e["code"]), str(e.get("label", "")),
                                          str(e.get("geography", "UNSPECIFIED")),
                                          _strs(e.get("synonyms")))
                               for e in data.get("entities", ())),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ProfileError(
                f"not a stored vocabulary ({exc!r}); expected sections 'metrics', "
                "'channels', 'entities' of objects with a 'code'") from exc


def combine(*vocabularies: Vocabulary) -> Vocabulary:
    """All entries of several vocabularies, in order (merging happens under a profile).

    >>> combine(Vocabulary(channels=(ChannelSpec("A"),)), Vocabulary()).channels
    (ChannelSpec(code='A', synonyms=()),)
    """
    return Vocabulary(tuple(m for v in vocabularies for m in v.metrics),
                      tuple(c for v in vocabularies for c in v.channels),
                      tuple(e for v in vocabularies for e in v.entities))


def _strs(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(str(v) for v in value)


def _claimed(codes: Iterable[str], terms: Iterable[str]) -> set[str]:
    return {fold(t) for t in (*codes, *terms) if t}


_S = TypeVar("_S", MetricSpec, ChannelSpec, EntitySpec)


def _add_terms(
    base: Mapping[str, _S], derived: Iterable[_S], claimed: set[str],
) -> dict[str, tuple[_S, list[str]]]:
    """Derived specs by code with their unclaimed synonyms, same-code entries merged.

    A derived code the profile defines, or one whose folded form the profile claims as a
    term, is dropped whole: the profile wins.
    """
    out: dict[str, tuple[_S, list[str]]] = {}
    for spec in derived:
        code = spec.code.strip()
        if not code or code in base or fold(code) in claimed:
            continue
        first, terms = out.setdefault(code, (spec, []))
        seen = set(map(fold, terms))
        for syn in spec.synonyms:
            key = fold(syn)
            if key and key not in claimed and key not in seen:
                seen.add(key)
                terms.append(syn)
    return out


def _read_names(base: Mapping[str, MetricSpec], derived: Iterable[MetricSpec],
                claimed: set[str]) -> dict[str, list[str]]:
    """Row names a document read as the profile's metrics ("Total cost of revenue").

    Only names nobody in the profile claims are added, so a question using a row's own
    wording reads that row whole; a name two metrics were read from is left out.
    """
    owners: dict[str, tuple[str, set[str]]] = {}  # folded name → (name, codes)
    for spec in derived:
        if spec.code in base:
            for name in spec.synonyms:
                if (key := fold(name)) and key not in claimed:
                    owners.setdefault(key, (name, set()))[1].add(spec.code)
    out: dict[str, list[str]] = {}
    for name, codes in owners.values():
        if len(codes) == 1:
            out.setdefault(codes.pop(), []).append(name)
    return out


def _merge_metrics(profile: DomainProfile, derived: Iterable[MetricSpec]) -> dict[str, MetricSpec]:
    derived = tuple(derived)
    base = profile.metrics
    claimed = _claimed(base, (t for m in base.values() for t in (m.label, *m.synonyms)))
    found = _add_terms(base, derived, claimed)
    parts: dict[str, list[str]] = {}
    for spec in derived:  # a derived metric's parts, and those of a profile metric that
        code = spec.code.strip()  # names none (a table's total the profile names)
        if code in found or (code in base and not base[code].parts and spec.parts):
            parts.setdefault(code, []).extend(spec.parts)
    merged = dict(base)
    for code, names in _read_names(base, derived, claimed).items():
        merged[code] = replace(base[code], synonyms=(*base[code].synonyms, *names))
    graph: dict[str, tuple[str, ...]] = {c: m.parts for c, m in base.items()}
    for code, (first, terms) in found.items():
        label = first.label if fold(first.label) not in claimed else ""
        merged[code] = MetricSpec(code, first.unit, label, tuple(terms))
    for code in (*(c for c in parts if c in found), *(c for c in parts if c not in found)):
        kept: list[str] = []
        for part in dict.fromkeys(parts[code]):
            if part in merged and part != code and not parts_reach(graph, part, code):
                kept.append(part)
                graph[code] = tuple(kept)
        if kept:
            merged[code] = replace(merged[code], parts=tuple(kept))
    return merged


def merge_vocabulary(profile: DomainProfile, *vocabularies: Vocabulary) -> DomainProfile:
    """The profile with the derived entries of ``vocabularies`` added under it.

    The profile wins wherever it speaks: a derived code the profile defines is dropped,
    a derived synonym (or label) any profile entry already claims is dropped; two derived
    entries with one code merge their synonyms (first unit and label kept, parts united
    as long as they name known metrics and form no cycle). Pure; linear in the entries.

    Examples
    --------
    >>> p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"},
    ...     "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue", "sales"]}}})
    >>> v1 = Vocabulary(metrics=(MetricSpec("NET_SALES", "USD_M", "Sales", ("sales", "net sales")),
    ...                          MetricSpec("BACKLOG", "", "Backlog", ("backlog",))))
    >>> v2 = Vocabulary(metrics=(MetricSpec("BACKLOG", "", "Backlog", ("order backlog",)),))
    >>> m = merge_vocabulary(p, v1, v2).metrics
    >>> sorted(m), m["NET_SALES"].synonyms, m["NET_SALES"].label, m["BACKLOG"].synonyms
    (['BACKLOG', 'NET_SALES', 'REVENUE'], ('net sales',), '', ('backlog', 'order backlog'))
    """
    if not any(vocabularies):
        return profile
    metrics = _merge_metrics(profile, (m for v in vocabularies for m in v.metrics))
    ch_base = profile.channels
    ch_found = _add_terms(ch_base, (c for v in vocabularies for c in v.channels),
                          _claimed(ch_base, (s for c in ch_base.values() for s in c.synonyms)))
    channels = {**ch_base, **{code: ChannelSpec(code, tuple(terms))
                              for code, (_, terms) in ch_found.items()}}
    en_base = profile.entities
    en_claimed = _claimed(en_base, (t for e in en_base.values() for t in (e.label, *e.synonyms)))
    en_found = _add_terms(en_base, (e for v in vocabularies for e in v.entities), en_claimed)
    entities = {**en_base, **{
        code: EntitySpec(code, first.label if fold(first.label) not in en_claimed else code,
                         first.geography, tuple(terms))
        for code, (first, terms) in en_found.items()}}
    return replace(profile, metrics=metrics, channels=channels, entities=entities)


def home_company(profile: DomainProfile, documents: Sequence[Vocabulary | None]) -> DomainProfile:
    """The profile with the documents' one company as its home entity, when there is one.

    ``documents`` holds each document's vocabulary (``None``: it brought none). When every
    document brings exactly one entity (its metadata ``company``) and it is the same one,
    the questions that name no company ("the company", or none) are about it: it becomes
    the home entity and takes the home's synonyms; the unused placeholder home goes.
    Otherwise the profile is returned unchanged.

    Examples
    --------
    >>> p = DomainProfile.builtin()
    >>> acme = Vocabulary(entities=(EntitySpec("ACME", "Acme Corp.", "UNSPECIFIED", ("acme",)),))
    >>> q = home_company(merge_vocabulary(p, acme), [acme, acme])
    >>> q.home_entity_code, q.company_name, "COMPANY" in q.entities
    ('ACME', 'Acme Corp.', False)
    >>> "the company" in q.home_entity.synonyms
    True
    >>> home_company(p, [acme, None]) is p
    True
    """
    codes = {tuple(dict.fromkeys(e.code for e in v.entities)) if v else () for v in documents}
    if len(codes) != 1:
        return profile
    (found,) = codes
    if len(found) != 1 or found[0] not in profile.entities or found[0] == profile.home_entity_code:
        return profile
    old, new = profile.home_entity, profile.entities[found[0]]
    home = replace(new, synonyms=tuple(dict.fromkeys(
        (*new.synonyms, old.label, *old.synonyms, profile.company_name))))
    entities = {c: e for c, e in profile.entities.items() if c != old.code}
    entities[home.code] = home
    return replace(profile, company_name=new.label, home_entity_code=new.code, entities=entities)


def effective_profile(profile: DomainProfile, stored: Mapping[str, Vocabulary],
                      documents: Sequence[str]) -> DomainProfile:
    """The profile an agent uses: ``profile`` with the documents' vocabularies under it.

    ``stored`` maps each document to its derived vocabulary (a fact store's
    ``vocabularies()``); ``documents`` names the documents that state facts. On the
    built-in profile, the one company every such document names is the home entity
    (:func:`home_company`).
    """
    merged = merge_vocabulary(profile, *stored.values())
    if not profile.is_builtin:
        return merged
    return home_company(merged, [stored.get(doc) for doc in documents])
