"""One place where rich objects become notebook output: :class:`CardReprMixin`.

A class describes itself as plain data (:meth:`CardReprMixin._display_card` returns a
:class:`~ragspine_nb.display.render.Card`); the mixin renders it — escaped,
self-contained, no network — as ``_repr_html_`` and ``_repr_mimebundle_`` (HTML plus the
class's own ``repr`` as ``text/plain``), like scikit-learn's ``ReprHTMLMixin``. A class
that draws something other than a card (a flow diagram, a transcript) overrides
:meth:`CardReprMixin._display_html` instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ragspine_nb.display.render import Card, render_html

__all__ = ["CardReprMixin"]


class CardReprMixin:
    """Gives a class ``_repr_html_`` and ``_repr_mimebundle_`` from its display card.

    Examples
    --------
    >>> class Box(CardReprMixin):
    ...     def _display_card(self) -> Card:
    ...         return Card(title="Box <1>", stats=(("items", "3"),))
    ...     def __repr__(self) -> str:
    ...         return "Box(items=3)"
    >>> bundle = Box()._repr_mimebundle_()
    >>> bundle["text/plain"], "Box &lt;1&gt;" in bundle["text/html"]
    ('Box(items=3)', True)
    """

    def _display_card(self) -> Card:
        """Describe the object as plain display data (classes supply their own).

        The default is the class name and its ``repr``: a class that draws something
        other than a card (a flow, a transcript) still has plain data to show.
        """
        return Card(title=type(self).__name__, notes=(repr(self),))

    def display_card(self) -> Card:
        """The object as plain display data (what its HTML and text views draw)."""
        return self._display_card()

    def _display_html(self) -> str:
        """The object's HTML: its card rendered (override to draw something else)."""
        return render_html(self._display_card())

    def _display_data(self) -> dict[str, Any]:
        """Further MIME types for the bundle (e.g. machine-readable JSON); none by default."""
        return {}

    def _repr_html_(self) -> str:
        return self._display_html()

    def _repr_mimebundle_(self, include: Iterable[str] | None = None,
                          exclude: Iterable[str] | None = None) -> dict[str, Any]:
        bundle = {"text/plain": repr(self), "text/html": self._display_html(),
                  **self._display_data()}
        wanted = set(bundle if include is None else include) - set(exclude or ())
        return {k: v for k, v in bundle.items() if k in wanted}
