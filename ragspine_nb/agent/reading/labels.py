"""The names a profile gives its codes, as questions and answers word them.

A metric, entity or column (channel) code is shown by its label, else its first written
name, else the code itself. Ask-backs (:mod:`ragspine_nb.agent.scope`), computed answers
and their text (:mod:`ragspine_nb.agent.compute`, :mod:`ragspine_nb.agent.write`) name
the same things the same way.
"""

from __future__ import annotations

import re

from ragspine_nb.core import CHANGE_CHANNEL, CHANGE_PCT_CHANNEL
from ragspine_nb.lang import detect_language
from ragspine_nb.period_phrases import MONTH
from ragspine_nb.profile import DomainProfile

__all__ = ["entity_label", "metric_label", "column_label", "slot_label"]


def entity_label(profile: DomainProfile, code: str) -> str:
    """The profile's label of an entity code (the code itself when unknown)."""
    spec = profile.entities.get(code)
    return spec.label if spec else code


#: The date a balance row is at ("as at June 30, 2017", "31 December 2018"): the metric of
#: the dated rows is named without it (its figure's period is stated beside it).
_ROW_DATE = re.compile(rf",?\s*(?:\b(?:at|as\s+of|as\s+at|on)\s+)?(?:the\s+)?"
                       rf"(?:{MONTH}\s+\d{{1,2}},?\s+|\d{{1,2}}\s+{MONTH},?\s+)(?:19|20)\d\d\b",
                       re.I)


def metric_label(profile: DomainProfile, code: str) -> str:
    """The profile's label of a metric code: else its first name, else the code itself.

    A row named with its section ("Operating revenue" under "Continuing Operations")
    may carry names only: "Continuing operations operating revenue". A label carrying the
    date of one balance row ("Balance payable as at June 30, 2017") names the metric of
    every dated row: it is shown without the date.
    """
    spec = profile.metrics.get(code)
    if spec is None:
        return code
    if spec.label:
        return " ".join(_ROW_DATE.sub(" ", spec.label).split()).strip(" ,;:-") or spec.label
    name = next((s for s in spec.synonyms if s), "")
    return name[:1].upper() + name[1:] if name else code


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: The columns of a change the report states, named in words.
_STATED_CHANGES = {CHANGE_PCT_CHANNEL: {"en": "% change as stated", "zh": "列示变动率"},
                   CHANGE_CHANNEL: {"en": "change as stated", "zh": "列示变动"}}


def column_label(profile: DomainProfile, code: str, lang: str = "en") -> str:
    """A column (channel) as a reader knows it: its longest written name, else its code.

    A name in the answer's language is preferred (Chinese characters for ``"zh"``), one
    with no year in it (a year names one table's head); a stated change's column is named
    as one, whatever its tables' heads say.
    """
    if code == profile.default_channel:  # the row's own figure, beside a column's
        return "合计" if lang == "zh" else "total"
    stated = _STATED_CHANGES.get(code)
    if stated:  # its heads differ by table ("2017-2016 percent change", "vs percentage change")
        return stated.get(lang, stated["en"])
    spec = profile.channels.get(code)
    written = [s for s in (spec.synonyms if spec else ()) if s and s != code]
    # a name with a year in it is one table's head ("fiscal 2020 vs. 2019 % change"), not
    # the column's: it would date every figure of the column wrongly
    written = [s for s in written if not _YEAR.search(s)] or written
    own = [s for s in written if (detect_language(s) == "zh") == (lang == "zh")]
    return max(own or written, key=len) if written else code


def slot_label(profile: DomainProfile, slot: str, code: str, lang: str = "en") -> str:
    """A ``metric``, ``entity`` or ``channel`` code in the profile's words (else the code)."""
    if slot == "metric":
        return metric_label(profile, code)
    if slot == "entity":
        return entity_label(profile, code)
    return column_label(profile, code, lang) if slot == "channel" else code
