"""The HTTP service (FastAPI, in the ``service`` extra): ``ragspine-nb serve``.

Imported lazily: ``pip install 'ragspine_nb[service]'`` adds FastAPI and uvicorn.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "create_app_for_workspace"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """See :func:`ragspine_nb.service.app.create_app`."""
    from ragspine_nb.service.app import create_app as build

    return build(*args, **kwargs)


def create_app_for_workspace(*args: Any, **kwargs: Any) -> Any:
    """See :func:`ragspine_nb.service.app.create_app_for_workspace`."""
    from ragspine_nb.service.app import create_app_for_workspace as build

    return build(*args, **kwargs)
