"""Interactive views by kind: the notebook layer registers them, the core calls them.

``Agent.widget()``, ``Conversation.widget()``, ``NarrativeIndex.inspect()`` and
``NarrativeIndex.tune()`` are shortcuts for the widget constructors
(:class:`~ragspine_nb.widgets.AskWidget` and the rest). The agent and retrieval layers
sit below the widgets and never import them: :mod:`ragspine_nb.widgets` registers each
constructor here under a kind when it is imported (importing :mod:`ragspine_nb` does
that), and a shortcut builds the view of its kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register_view", "make_view", "view_kinds"]

_FACTORIES: dict[str, Callable[..., Any]] = {}


def register_view(kind: str, factory: Callable[..., Any]) -> None:
    """Make ``factory`` the constructor of the views of ``kind`` (a later call replaces it)."""
    if not kind:
        raise ValueError("a view kind must be a non-empty string")
    _FACTORIES[kind] = factory


def view_kinds() -> tuple[str, ...]:
    """The kinds registered so far, sorted."""
    return tuple(sorted(_FACTORIES))


def make_view(kind: str, *args: Any, **kwargs: Any) -> Any:
    """A new view of ``kind`` built from ``args``.

    Raises
    ------
    LookupError
        When no constructor is registered for ``kind``; the message lists the kinds that
        are.
    """
    factory = _FACTORIES.get(kind)
    if factory is None:
        known = ", ".join(view_kinds()) or "none"
        raise LookupError(f"no view registered for {kind!r} (registered: {known}); "
                          "import ragspine_nb.widgets to register the notebook widgets")
    return factory(*args, **kwargs)
