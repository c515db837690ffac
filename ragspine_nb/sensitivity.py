"""Deterministic sensitivity classification for documents without an explicit label."""

from __future__ import annotations

from pathlib import PurePath

from ragspine_nb.profile import DomainProfile
from ragspine_nb.types import RESTRICTED, is_blank, is_restricted

__all__ = ["classify_sensitivity"]


def classify_sensitivity(
    profile: DomainProfile,
    filename: str = "",
    text: str = "",
    explicit: str | None = None,
) -> str:
    """Return the sensitivity label of a document.

    Order: an explicit label wins (any spelling of RESTRICTED becomes ``"RESTRICTED"``;
    other labels are upper-cased); else a restricted filename pattern anywhere in the
    path → RESTRICTED; else a restricted keyword in the text → RESTRICTED; else the
    profile's default. Every comparison is case-insensitive.

    Parameters
    ----------
    profile : DomainProfile
        Supplies the patterns, keywords and default.
    filename : str
        File name or path of the document.
    text : str
        Its extracted text.
    explicit : str, optional
        A label given by the user or the document's metadata.

    Returns
    -------
    str
        The label, e.g. ``"RESTRICTED"`` or ``"INTERNAL"``.
    """
    if isinstance(explicit, str) and not is_blank(explicit):
        return RESTRICTED if is_restricted(explicit) else explicit.strip().upper()
    policy = profile.sensitivity
    path = PurePath(filename).as_posix().casefold() if filename else ""
    if any(p.casefold() in path for p in policy.restricted_filename_patterns):
        return RESTRICTED
    body = text.casefold()
    if any(k.casefold() in body for k in policy.restricted_keywords):
        return RESTRICTED
    return policy.default
