r"""The sensitivity policy of a profile, and the folds every sensitivity comparison uses.

A label, a file name and a body of text are compared only after folding, so that
``Board Minutes``, ``board‐minutes`` (U+2010), ``ＢＯＡＲＤ＿ＭＩＮＵＴＥＳ`` and
``boardminutes`` are the same name, and ``strictly\nconfidential`` (a line break,
a no-break space or a zero-width space between the words) is the same keyword. Look-alike
letters and script variants fold too (:func:`~ragspine_nb.textfold.fold_lookalikes`:
``strictly cоnfidential`` with a Cyrillic ``о``, ``機密`` for ``机密``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from ragspine_nb.core import DEFAULT_SENSITIVITY, RESTRICTED, RESTRICTED_MENTIONS, is_restricted
from ragspine_nb.errors import ProfileError
from ragspine_nb.textfold import fold_lookalikes

__all__ = [
    "SensitivityPolicy",
    "DEFAULT_LEVELS",
    "BOARD_MATERIAL",
    "RESTRICTED_LABEL_WORDS",
    "policy_from_table",
    "fold_label",
    "fold_name",
    "fold_path",
    "fold_text",
]

#: Sensitivity levels from least to most restrictive (a profile may list its own).
DEFAULT_LEVELS: tuple[str, ...] = ("PUBLIC", "INTERNAL", "CONFIDENTIAL", RESTRICTED)
#: Titles and file names of board material (a document titled or named so is RESTRICTED):
#: the built-in default of ``sensitivity.board_material``.
BOARD_MATERIAL: tuple[str, ...] = (
    "board minutes", "minutes of the board", "minutes of a meeting of the board",
    "minutes of the meeting of the board", "board meeting minutes", "BoD minutes",
    "minutes of the BoD", "board of directors minutes", "directors meeting minutes",
    "board paper", "board pack", "board book", "board deck", "board memo", "board briefing",
    "\u8463\u4e8b\u4f1a\u4f1a\u8bae\u7eaa\u8981", "\u8463\u4e8b\u4f1a\u7eaa\u8981",
    "\u8463\u4e8b\u4f1a\u4f1a\u8bae\u8bb0\u5f55", "\u8463\u4e8b\u4f1a\u6750\u6599",
    "\u8463\u4e8b\u4f1a\u4f1a\u8bae\u6750\u6599",
    "\u53d6\u7de0\u5f79\u4f1a\u8b70\u4e8b\u9332", "\uc774\uc0ac\ud68c \ud68c\uc758\ub85d",
    "proc\u00e8s-verbal du conseil d'administration", "Protokoll der Aufsichtsratssitzung",
    "Protokoll der Vorstandssitzung", "verbale del consiglio di amministrazione",
    "acta del consejo de administraci\u00f3n",
)
#: A label that is not a known level and mentions one of these (folded) is RESTRICTED.
RESTRICTED_LABEL_WORDS: tuple[str, ...] = (*RESTRICTED_MENTIONS, "confidential", "保密")
#: Characters that separate words but never carry meaning in a name or a label:
#: dots, the minus sign and middle dots (the categories are added in ``_drop_table``).
_EXTRA_SEPARATORS = ".\u2212\u00b7\u2027\u2043\u2219\u30fb\uff65"
_SEPARATOR_CATEGORIES = ("Zs", "Zl", "Zp", "Pd", "Pc", "Cf", "Cc")
#: The blocks that hold every code point of those categories (checked in the tests).
_SEPARATOR_BLOCKS = (range(0x3100), range(0xFE00, 0x10000), range(0x10E00, 0x14000),
                     range(0x1BC00, 0x1BD00), range(0x1D100, 0x1D200), range(0xE0000, 0xE0080))


@lru_cache(maxsize=2)
def _drop_table(dots: bool) -> dict[int, None]:
    """Code points deleted by a fold: whitespace, dashes, underscores, invisibles (and dots)."""
    drop = {cp: None for block in _SEPARATOR_BLOCKS for cp in block
            if unicodedata.category(chr(cp)) in _SEPARATOR_CATEGORIES}
    if dots:
        drop.update({ord(c): None for c in _EXTRA_SEPARATORS})
    else:
        drop.update({ord(c): None for c in _EXTRA_SEPARATORS if c != "."})
    return drop


@lru_cache(maxsize=2)
def _ascii_drop(dots: bool) -> bytes:
    """The ASCII bytes a fold deletes (the same characters as :func:`_drop_table`)."""
    return bytes(cp for cp in _drop_table(dots) if cp < 128)


def _fold(text: str, dots: bool) -> str:
    if text.isascii():  # the common case, ~5x faster: NFKC and casefold are lower() here
        drop = _ascii_drop(dots)
        return text.lower().encode("ascii").translate(None, drop).decode("ascii")
    return fold_lookalikes(text).translate(_drop_table(dots))


def fold_label(label: str) -> str:
    r"""A label or name folded for comparison: NFKC, case-folded, separators removed.

    >>> fold_label(" Restricted \u2013 Board\u200b only"), fold_label("R\u0435stricted")
    ('restrictedboardonly', 'restricted')
    """
    return _fold(label, True)


def fold_name(component: str) -> str:
    """One path component folded like a label (``Board Minutes`` → ``boardminutes``)."""
    return fold_label(component)


def fold_path(path: str) -> str:
    """A document path folded component by component, components joined by ``/``.

    Folding never joins two components, so a pattern without ``/`` can only match
    inside one folder or file name.

    >>> fold_path("Archive/Board Minutes Jan 2026.md")
    'archive/boardminutesjan2026md'
    """
    parts = PurePosixPath(path.replace("\\", "/")).parts
    return "/".join(p for p in (fold_name(part) for part in parts if part != "/") if p)


def fold_text(text: str) -> str:
    r"""Body text folded for keyword search: NFKC, case-folded, whitespace/dashes removed.

    Dots stay, so a keyword never matches across the end of a sentence.

    >>> fold_text("Strictly\nCon\u200bfidential.")
    'strictlyconfidential.'
    """
    return _fold(text, False)


def _strings(where: str, value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, list | tuple) or not all(
            isinstance(v, str) and v.strip() for v in value):
        raise ProfileError(f"{where} must be a list of non-empty strings, got {value!r}")
    return tuple(str(v).strip() for v in value)


def _levels(value: object) -> tuple[str, ...]:
    if value is None:
        return DEFAULT_LEVELS
    if isinstance(value, str) or not isinstance(value, list | tuple) or not value or not all(
            isinstance(v, str) and v.strip() for v in value):
        raise ProfileError("sensitivity.levels must be a non-empty list of level names from "
                           f"least to most restrictive, e.g. {list(DEFAULT_LEVELS)}; got {value!r}")
    return tuple(str(v).strip().upper() for v in value)


@dataclass(frozen=True)
class SensitivityPolicy:
    """How documents are classified; every signal can only raise the level.

    Parameters
    ----------
    default : str
        The level of a document no label, pattern or keyword speaks about.
    restricted_filename_patterns : tuple of str
        A document whose path contains one (folded: case, spaces, ``_``, ``-``, dots,
        look-alike hyphens and full-width forms ignored) is RESTRICTED.
    restricted_keywords : tuple of str
        A document whose text (body, headers, footers, tables, notes, cells) contains
        one (folded the same way, whitespace included) is RESTRICTED.
    restricted_label : str
        The label written for a RESTRICTED document.
    levels : tuple of str
        Known levels from least to most restrictive; the last one must be RESTRICTED.
        A label that is not one of them is RESTRICTED (fail closed).
    board_material : tuple of str
        Titles of board material (``board minutes``, ``董事会会议纪要``): a document whose
        title or a component of whose path names one, where a word starts, is
        RESTRICTED (:func:`~ragspine_nb.markings.board_material`). Default
        :data:`BOARD_MATERIAL`; an empty list turns the rule off.
    """

    default: str = DEFAULT_SENSITIVITY
    restricted_filename_patterns: tuple[str, ...] = ()
    restricted_keywords: tuple[str, ...] = ()
    restricted_label: str = RESTRICTED
    levels: tuple[str, ...] = DEFAULT_LEVELS
    board_material: tuple[str, ...] = BOARD_MATERIAL

    def __post_init__(self) -> None:
        folded = [fold_label(v) for v in self.levels]
        if not folded or folded[-1] != fold_label(RESTRICTED):
            raise ProfileError(f"sensitivity.levels must end with {RESTRICTED!r} (the most "
                               f"restrictive level); got {list(self.levels)}")
        if len(set(folded)) != len(folded) or "" in folded:
            raise ProfileError("sensitivity.levels must be distinct names (compared without "
                               f"case or separators); got {list(self.levels)}")
        mentions = [v for v in self.levels[:-1] if is_restricted(v)]
        if mentions:
            raise ProfileError(f"sensitivity level(s) {mentions} are below RESTRICTED but "
                               "read as RESTRICTED everywhere (they mention restricted, board "
                               "or secret, or qualify confidential) — rename them")
        if fold_label(self.default) not in folded:
            raise ProfileError(f"sensitivity.default {self.default!r} is not a level; valid "
                               f"levels: {list(self.levels)}")
        for kind, values in (("restricted_filename_patterns", self.restricted_filename_patterns),
                             ("restricted_keywords", self.restricted_keywords),
                             ("board_material", self.board_material)):
            empty = [v for v in values if not fold_text(v).strip(".")]
            if empty:
                raise ProfileError(f"sensitivity.{kind} {empty} fold to nothing (only spaces, "
                                   "dashes or dots); give words")

    def level_of(self, label: str) -> str | None:
        """The known level ``label`` folds to (canonical spelling), else ``None``."""
        folded = fold_label(label)
        return next((lv for lv in self.levels if fold_label(lv) == folded), None)

    def rank(self, level: str) -> int:
        """Position of a known level (0 = least restrictive); unknown → the top."""
        known = self.level_of(level)
        return self.levels.index(known) if known is not None else len(self.levels) - 1

    def to_dict(self) -> dict[str, Any]:
        """The ``[sensitivity]`` table of a profile."""
        return {"default": self.default, "levels": list(self.levels),
                "restricted_filename_patterns": list(self.restricted_filename_patterns),
                "restricted_keywords": list(self.restricted_keywords),
                "board_material": list(self.board_material)}


def policy_from_table(table: Mapping[str, Any]) -> SensitivityPolicy:
    """Build the policy from a profile's ``[sensitivity]`` table (validated)."""
    known = ("default", "levels", "restricted_filename_patterns", "restricted_keywords",
             "board_material")
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise ProfileError(f"[sensitivity] has unknown key(s) {unknown}; valid keys: "
                           f"{list(known)}")
    default = table.get("default", DEFAULT_SENSITIVITY)
    if not isinstance(default, str) or not default.strip():
        raise ProfileError(f"sensitivity.default must be a non-empty string, got {default!r}")
    policy = SensitivityPolicy(
        default=default.strip(),
        restricted_filename_patterns=_strings("sensitivity.restricted_filename_patterns",
                                              table.get("restricted_filename_patterns")),
        restricted_keywords=_strings("sensitivity.restricted_keywords",
                                     table.get("restricted_keywords")),
        levels=_levels(table.get("levels")),
        board_material=BOARD_MATERIAL if table.get("board_material") is None else _strings(
            "sensitivity.board_material", table.get("board_material")))
    return replace(policy, default=policy.level_of(policy.default) or policy.default)

