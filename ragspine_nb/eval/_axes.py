"""A fresh matplotlib ``Axes`` for report plots (the ``notebook`` extra)."""

from __future__ import annotations

from typing import Any

from ragspine_nb._optional import import_optional

__all__ = ["new_axes"]


def new_axes(ax: Any = None, size: tuple[float, float] = (7, 3)) -> Any:
    """``ax`` itself, or a new figure's ``Axes``.

    Raises :class:`~ragspine_nb.errors.MissingExtraError` with the pip command when
    matplotlib is not installed.
    """
    if ax is not None:
        return ax
    plt = import_optional("matplotlib.pyplot", extra="notebook", feature="evaluation plots")
    return plt.subplots(figsize=size)[1]
