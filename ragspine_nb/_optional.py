"""Guarded imports for optional extras.

Optional dependencies are imported lazily, at construction of the object that needs
them, and a missing one raises :class:`~ragspine_nb.errors.MissingExtraError` with the
exact ``pip install`` command.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ragspine_nb.errors import MissingExtraError

__all__ = ["import_optional", "EXTRAS"]

#: The extras ragspine_nb declares, for messages that list the valid options.
EXTRAS: tuple[str, ...] = (
    "vector", "sentence-transformers", "rerank", "llm", "ingest", "notebook", "service",
    "team", "fast", "dev", "all",
)


def import_optional(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` naming ``extra``.

    Parameters
    ----------
    module : str
        Dotted module name, e.g. ``"pptx"``.
    extra : str
        The ragspine_nb extra that installs it, one of :data:`EXTRAS`.
    feature : str
        What the caller was trying to do, for the message.

    Returns
    -------
    ModuleType
        The imported module.
    """
    if extra not in EXTRAS:
        raise ValueError(f"Unknown extra {extra!r}. Valid extras: {list(EXTRAS)}")
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(module.split(".")[0], extra, feature) from exc
