"""One file → facts and chunks with metadata: the reader dispatch used by batch ingestion."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ragspine_nb.company import company_entity
from ragspine_nb.core import Chunk, Fact, is_restricted
from ragspine_nb.errors import ProfileError
from ragspine_nb.extract.base import (
    Extraction,
    ExtractionError,
    IngestLimitError,
    ReadContext,
    Segment,
    sniff,
)
from ragspine_nb.extract.chunking import DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS, chunk_document
from ragspine_nb.extract.identity import DocumentIdentity, read_identity
from ragspine_nb.extract.limits import (
    DEFAULT_LIMITS,
    IngestLimits,
    LimitHit,
    cap_title,
    file_size_hit,
)
from ragspine_nb.extract.office import read_docx, read_pptx, read_xlsx
from ragspine_nb.extract.pdf import read_pdf
from ragspine_nb.extract.plain import read_csv, read_text
from ragspine_nb.extract.scheduled import SCHEDULED, SCHEDULED_CHANNEL, scheduled_facts
from ragspine_nb.extract.screen import package_screen
from ragspine_nb.extract.tables import Skip
from ragspine_nb.glossary import fold, normalize_entity
from ragspine_nb.lang import detect_language
from ragspine_nb.period_codes import normalize_period, period_label
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import decide_sensitivity
from ragspine_nb.vocabulary import Vocabulary, combine, merge_vocabulary

__all__ = [
    "DocumentResult",
    "read_document",
    "period_from_filename",
    "document_period",
    "check_metadata",
    "entity_step",
    "METADATA_KEYS",
    "MAX_PROSE_CHARS",
    "READERS",
]

Reader = Callable[[Path, DomainProfile, ReadContext], Extraction]
#: Suffix → reader.
READERS: dict[str, Reader] = {
    ".pptx": read_pptx, ".xlsx": read_xlsx, ".xlsm": read_xlsx, ".docx": read_docx,
    ".pdf": read_pdf, ".csv": read_csv, ".md": read_text, ".txt": read_text,
}
#: Keys a per-document metadata mapping may set.
METADATA_KEYS: tuple[str, ...] = (
    "title", "topic", "entity", "company", "geography", "period", "language", "sensitivity",
    "valid_as_of",
)
#: Narrative text a :class:`DocumentResult` keeps for the tables beside it (characters).
MAX_PROSE_CHARS = 1_000_000
_FILENAME_PERIOD = re.compile(r"(?<![A-Za-z0-9])(FY\d{4}|\d{4}H[12]|\d{4}Q[1-4])(?![A-Za-z0-9])",
                              re.IGNORECASE)


@dataclass(frozen=True)
class DocumentResult:
    """Everything read from one file, ready to be written."""

    doc_id: str
    facts: tuple[Fact, ...]
    chunks: tuple[Chunk, ...]
    skipped: tuple[Skip, ...]
    title: str
    sensitivity: str
    extractor_version: str
    warnings: tuple[str, ...] = ()
    limit_hits: tuple[LimitHit, ...] = ()
    #: metrics, channels and entities this document brings beside the profile
    vocabulary: Vocabulary = Vocabulary()
    #: locators of table amounts whose scale the document states nowhere
    unscaled: tuple[str, ...] = ()
    #: the narrative text (at most :data:`MAX_PROSE_CHARS`), for the scale of tables beside it
    prose: str = ""
    #: every figure of the tables with unscaled amounts (the scale inference reads them all)
    unscaled_figures: tuple[float, ...] = ()
    #: locators of tables naming no period (nor does the document): they gave no fact
    undated: tuple[str, ...] = ()
    #: who filed it, for which period, what it is (read from the document itself)
    identity: DocumentIdentity = DocumentIdentity()


def period_from_filename(name: str, profile: DomainProfile) -> str:
    """An explicit ``FY2024``/``2025H1``/``2025Q1`` in a file name, else ``""``."""
    found = _filename_period(name, profile)
    return period_label(*found) if found else ""


def _filename_period(name: str, profile: DomainProfile) -> tuple[str, str] | None:
    m = _FILENAME_PERIOD.search(name)
    return normalize_period(profile, m.group(1), relative=False) if m else None


def document_period(profile: DomainProfile, meta: Mapping[str, str], name: str
                    ) -> tuple[tuple[str, str] | None, str]:
    """The document's own period and where it is stated: metadata, else the file name.

    A table naming no period is of this period (its facts' lineage says so).

    Raises
    ------
    ExtractionError
        When metadata ``period`` is not a period.
    """
    if meta.get("period"):
        found = normalize_period(profile, meta["period"], relative=False)
        if found is None:
            raise ExtractionError(f"metadata period {meta['period']!r} is not a period")
        return found, "metadata"
    found = _filename_period(name, profile)
    return (found, "file name") if found else (None, "")


def check_metadata(meta: Mapping[str, object], doc_id: str) -> dict[str, str]:
    """Validate one document's metadata mapping; unknown keys list the valid ones."""
    unknown = sorted(set(meta) - set(METADATA_KEYS))
    if unknown:
        raise ExtractionError(f"metadata for {doc_id!r} has unknown key(s) {unknown}; "
                              f"valid keys: {list(METADATA_KEYS)}")
    out = {}
    for key, value in meta.items():
        if not isinstance(value, str):
            raise ExtractionError(f"metadata {key!r} for {doc_id!r} must be a string")
        out[key] = value.strip()
    return out


def read_document(
    path: str | Path,
    doc_id: str,
    profile: DomainProfile,
    *,
    metadata: Mapping[str, object] | None = None,
    file_hash: str = "",
    mapping_version: str = "",
    max_chars: int = DEFAULT_CHUNK_CHARS,
    overlap_chars: int = DEFAULT_OVERLAP_CHARS,
    limits: IngestLimits = DEFAULT_LIMITS,
    table_period: tuple[tuple[str, str], str] | None = None,
) -> DocumentResult:
    """Read one file into facts and chunks; raise :class:`ExtractionError` with the reason.

    Metadata comes from ``metadata`` when given, else is derived safely: the title
    from the document, the period from an explicit ``FY2024``/``2025H1``/``2025Q1`` in the
    file name (a table naming no period takes it, else ``table_period``: period, source),
    the language by detection, the sensitivity by the profile's classifier. Facts are
    not extracted from a RESTRICTED document (its numbers stay out of answers), nor is
    its vocabulary kept (its row labels stay out of ask-backs and the profile). ``limits``
    bound the file size, title, chunks, table cells and facts; a limit that is reached is
    listed in ``limit_hits`` (a file over ``max_file_bytes`` raises
    :class:`~ragspine_nb.extract.base.IngestLimitError` before it is read).
    """
    p = Path(path)
    hit = file_size_hit(p.stat().st_size, limits)
    if hit is not None:
        raise IngestLimitError(hit)
    sniff(p)
    meta = check_metadata(metadata or {}, doc_id)
    profile, entity, own = entity_step(profile, meta)
    found, source = document_period(profile, meta, p.name)
    named = found  # the period metadata or the file name gives the document
    period = period_label(*found) if found else ""
    if found is None and table_period is not None:
        found, source = table_period
    # a table naming no entity is the document's: its company, else the home entity
    ctx = ReadContext(doc_id, entity=entity or profile.home_entity_code,
                      source_file_hash=file_hash, mapping_version=mapping_version,
                      valid_as_of=meta.get("valid_as_of", ""), limits=limits, period=found,
                      period_source=source)
    extraction = READERS[p.suffix.lower()](p, profile, ctx)
    identity = read_identity(p.name, extraction.title, _opening(extraction.segments),
                             extraction.calendar)
    profile, entity, own, identity, warned = _identity_step(identity, meta, profile, entity,
                                                            own, extraction, ctx.entity)
    if not period and identity.period:  # the cover's fiscal year, for the chunks and ledger
        period = period_label(*identity.period)
    body = "\n".join(s.text for s in extraction.segments)
    decision = decide_sensitivity(
        profile, doc_id, body, meta.get("sensitivity"),
        [*extraction.screen, *package_screen(p)],
        title=meta.get("title") or extraction.title,
        body_markings=p.suffix.lower() != ".pdf")  # the PDF reader judges lines by layout
    sensitivity = decision.label
    reported = named or identity.period  # a later year's figures are scheduled, not levels
    read, moved = scheduled_facts(extraction.facts, reported, identity.fiscal_year_end
                                  if reported == identity.period else "")
    facts, capped, withheld = _kept_facts(read, limits, sensitivity)
    warnings = [*extraction.warnings, *warned, *decision.notes(), *withheld,
                *([f"{moved} figure(s) of years after the one reported read as scheduled "
                   "(payments due, maturities, expectations), not as those years' levels"]
                  if moved else [])]
    common = _common(meta, profile, entity, period, sensitivity,
                     cap_title(meta.get("title") or _readable_title(extraction.title, identity)
                               or p.stem, limits), body)
    chunks, hit = _chunks(extraction.segments, doc_id, common, max_chars, overlap_chars, limits)
    return DocumentResult(doc_id, tuple(facts), tuple(chunks), tuple(extraction.skipped),
                          common["title"], sensitivity, extraction.extractor_version,
                          tuple(warnings),
                          (*extraction.limit_hits, *capped, *((hit,) if hit else ())),
                          # a RESTRICTED document's row labels never reach a vocabulary
                          Vocabulary() if is_restricted(sensitivity)
                          else combine(own, extraction.vocabulary, *(
                              [Vocabulary(channels=(SCHEDULED_CHANNEL,))] if any(
                                  f.channel == SCHEDULED for f in facts) else [])),
                          tuple(extraction.unscaled) if facts else (), body[:MAX_PROSE_CHARS],
                          tuple(extraction.unscaled_figures) if facts else (),
                          () if is_restricted(sensitivity) else tuple(extraction.undated),
                          identity)


#: Characters of a document's opening read for its identity (a cover page and a bit).
_OPENING_CHARS = 12_000
#: Titles that name nothing a reader knows: an SEC accession number, a word processor's.
_OPAQUE_TITLE = re.compile(r"^\d{10}-\d{2}-\d{6}$|^microsoft word\b", re.I)


def _opening(segments: Sequence[Segment]) -> str:
    out: list[str] = []
    size = 0
    for seg in segments:
        out.append(seg.text[:_OPENING_CHARS - size])
        size += len(out[-1])
        if size >= _OPENING_CHARS:
            break
    return "\n".join(out)


def _readable_title(title: str, identity: DocumentIdentity) -> str:
    """The document's title, or its identity in words when the title names nothing."""
    if title.strip() and not _OPAQUE_TITLE.search(title.strip()):
        return title
    if not identity.company:
        return title
    parts = [identity.company, identity.doc_type,
             f"{identity.period[0]}{identity.period[1]}" if identity.period else ""]
    return " ".join(p for p in parts if p)


def _identity_step(identity: DocumentIdentity, meta: Mapping[str, str],
                   profile: DomainProfile, entity: str | None, own: Vocabulary,
                   extraction: Extraction, default_entity: str | None
                   ) -> tuple[DomainProfile, str | None, Vocabulary, DocumentIdentity,
                              list[str]]:
    """The company the document names, when metadata names none: its facts are filed under it.

    Facts the readers gave the default entity (no entity named in their table) move to
    the company's entity. The report says what was read, or warns that nothing names the
    company while the profile has no home company of its own ("the company") and figures
    were read (a file that gave none has nothing to file).
    """
    if meta.get("entity") or meta.get("company"):
        return profile, entity, own, identity, []
    if not identity.company:
        generic = fold(profile.company_name) in ("the company", "") and bool(extraction.facts)
        return profile, entity, own, identity, [
            "company not named in the document (no cover page, title or file name names it):"
            f" its figures are filed under {profile.company_name!r}; give metadata "
            "company=... to name it"] if generic else []
    try:
        merged, found, vocab = entity_step(profile, {"company": identity.company})
    except ExtractionError:  # the name clashes with the profile's: not used, said so
        return profile, entity, own, replace(identity, company=""), [
            f"company {identity.company!r} read from the document clashes with the "
            "profile's names; its figures stay under the home entity"]
    code = found or profile.home_entity_code  # entity_step names one for a company
    geography = merged.geography_of(code)
    extraction.facts = [replace(f, entity=code, geography=geography)
                        if f.entity == default_entity else f for f in extraction.facts]
    return merged, code, vocab, identity, [identity.describe()]


def _common(meta: Mapping[str, str], profile: DomainProfile, entity: str | None, period: str,
            sensitivity: str, title: str, body: str) -> dict[str, str]:
    """The metadata every chunk of the document carries."""
    return {
        "title": title,
        "topic": meta.get("topic", ""),
        "entity": entity or "",
        "geography": meta.get("geography") or (profile.geography_of(entity) if entity else ""),
        "period": period,
        "language": meta.get("language") or (detect_language(body) if body.strip() else ""),
        "sensitivity": sensitivity,
    }


def entity_step(profile: DomainProfile, meta: Mapping[str, str]
                ) -> tuple[DomainProfile, str | None, Vocabulary]:
    """The document's entity from metadata ``entity`` (a profile entity) or ``company``.

    Returns the profile the readers use (with the company's entity when the profile
    lacks it), the entity code (``None``: readers find it, else the home entity) and the
    vocabulary the document brings for it.
    """
    if meta.get("entity") and meta.get("company"):
        raise ExtractionError("metadata gives both 'entity' and 'company'; give one: 'entity' "
                              "names an entity of the profile, 'company' any company")
    if meta.get("entity"):
        entity = normalize_entity(profile, meta["entity"])
        if entity is None:
            raise ExtractionError(f"metadata entity {meta['entity']!r} is not in the profile")
        return profile, entity, Vocabulary()
    if not meta.get("company"):
        return profile, None, Vocabulary()
    try:
        code, spec = company_entity(profile, meta["company"])
    except ProfileError as exc:
        raise ExtractionError(str(exc)) from exc
    if spec is None:
        return profile, code, Vocabulary()
    own = Vocabulary(entities=(spec,))
    merged = merge_vocabulary(profile, own)
    if code not in merged.entities:  # its code reads as a term the profile uses
        raise ExtractionError(f"metadata company {meta['company']!r} clashes with the "
                              "profile's names; name one of its entities with 'entity'")
    return merged, code, own


def _kept_facts(facts: list[Fact], limits: IngestLimits, sensitivity: str
                ) -> tuple[list[Fact], list[LimitHit], list[str]]:
    """The facts kept, the limit hit and the warning saying why some were not.

    The first ``max_facts_per_doc`` are kept; a RESTRICTED document keeps none (its
    numbers stay out of answers), and the warning says how many were not extracted.
    """
    n = limits.max_facts_per_doc
    capped = [] if len(facts) <= n else [LimitHit(
        "max_facts_per_doc", n, facts[n - 1].source_locator,
        f"the first {n:,} table values were kept")]
    facts = facts[:n]
    if is_restricted(sensitivity) and facts:
        return [], capped, [f"RESTRICTED document: {len(facts)} table value(s) not extracted"]
    return facts, capped, []


def _chunks(segments: list[Segment], doc_id: str, common: dict[str, str], max_chars: int,
            overlap_chars: int, limits: IngestLimits) -> tuple[list[Chunk], LimitHit | None]:
    """Chunks of every segment, at most ``limits.max_chunks_per_doc`` of them."""
    cap = limits.max_chunks_per_doc
    chunks: list[Chunk] = []
    for segment in segments:
        room = cap - len(chunks)
        more = chunk_document(
            segment.text, doc_id, max_chars=max_chars, overlap_chars=overlap_chars,
            source_locator_prefix=segment.locator_prefix, seq_start=len(chunks),
            max_chunks=room + 1, title=common["title"], topic=common["topic"],
            entity=common["entity"], geography=common["geography"], period=common["period"],
            language=common["language"], sensitivity=common["sensitivity"])
        if len(more) > room:
            chunks += more[:room]
            where = chunks[-1].source_locator if chunks else (segment.locator_prefix or "")
            return chunks, LimitHit("max_chunks_per_doc", cap, where,
                                    f"the first {cap:,} chunks were kept, the text after "
                                    "them is not searchable")
        chunks += more
    return chunks, None
