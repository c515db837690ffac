"""A table's unstated scale, read from the prose beside it in the same batch folder.

A table whose amounts state no scale anywhere ("Revenue 757,336") often sits beside a
note that quotes them ("net sales were $757.3 million"). Within one ingestion batch,
the documents of a folder are read first; a document with such amounts is written last,
after :func:`~ragspine_nb.extract.prose_scale.infer_scale` has compared its amounts with the
prose of its folder (its own included). A scale found this way is written into each
amount's unit and into its lineage (``mapping_version`` gains ``|scale=K from
notes.md``) and reported on the file's line; none found keeps the amounts as they are
("scale not stated"). Such a document's ledger fingerprint also covers the bytes of the
files beside it (:func:`~ragspine_nb.ingestion.context.with_siblings`). RESTRICTED prose is
never read for this (:class:`~ragspine_nb.ingestion.context.BatchContext` keeps none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ragspine_nb.extract.document import DocumentResult
from ragspine_nb.extract.prose_scale import ScaleInference, infer_scale, rescale_facts
from ragspine_nb.ingestion.context import BatchContext

__all__ = ["apply_scale", "scale_step"]

_SCALE_WORDS = {"K": "thousands", "M": "millions", "BN": "billions", "": "as written"}


def apply_scale(result: DocumentResult, found: ScaleInference, sources: Sequence[str]
                ) -> DocumentResult:
    """``result`` with its unscaled amounts in the scale ``found`` read from ``sources``."""
    origin = ", ".join(sources)
    lineage = f"|scale={found.scale or 'none'} from {origin}"
    unscaled = set(result.unscaled)
    facts = tuple(replace(f, mapping_version=f.mapping_version + lineage)
                  if f.source_locator in unscaled else f
                  for f in rescale_facts(result.facts, unscaled, found))
    evidence = "; ".join(repr(e) for e in found.evidence[:3])
    note = (f"scale not stated in the table: {len(unscaled)} amount(s) read in "
            f"{_SCALE_WORDS.get(found.scale, found.scale)} from the prose of {origin} "
            f"({evidence})")
    return replace(result, facts=facts, warnings=(*result.warnings, note))


def scale_step(result: DocumentResult, context: BatchContext, path: Path) -> DocumentResult:
    """Read the scale of ``result``'s unscaled amounts from its folder's prose, if it tells.

    With no prose, or prose that does not tell (no amount matches, or two scales tie),
    the amounts keep their unit and the report says the scale is not stated.
    """
    unscaled = set(result.unscaled)
    if not unscaled:
        return result
    # every figure of the tables votes, not only the facts: a column that gave no fact
    # (no period) may be the one the prose quotes
    figures = list(result.unscaled_figures) or \
        [f.value for f in result.facts if f.source_locator in unscaled]
    texts = context.prose_for(result, path)
    found = infer_scale(figures, [t for _, t in texts]) if texts else None
    if found is None:
        note = (f"scale not stated: {len(unscaled)} table amount(s) state no scale and no "
                "prose in their folder tells it; they are kept as written")
        return replace(result, warnings=(*result.warnings, note))
    sources = [d for d, t in texts if any(e in t for e in found.evidence)] or \
        [d for d, _ in texts]
    return apply_scale(result, found, sources)
