"""Optional compiled kernels: numba when it is installed, a numpy path when it is not.

numba is an optional dependency (the ``fast`` extra). A module that has a hot loop
writes it once as a plain Python function, wraps it with :func:`njit`, and keeps a
vectorised numpy fallback for machines without numba. Compiled functions are cached
on disk (``cache=True``), so a new kernel does not wait for the compiler again.

Set ``RAGSPINE_NO_NUMBA=1`` to force the numpy paths (tests use it to check both).
"""

from __future__ import annotations

import os
import typing
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["HAVE_NUMBA", "njit", "numba_enabled"]

F = TypeVar("F", bound=Callable[..., Any])

_numba: Any
try:  # pragma: no cover - depends on the environment
    import numba as _numba
except ImportError:  # pragma: no cover
    _numba = None

#: numba imported (it may still be switched off with ``RAGSPINE_NO_NUMBA=1``)
HAVE_NUMBA: bool = _numba is not None


def numba_enabled() -> bool:
    """Whether compiled kernels run: numba is installed and ``RAGSPINE_NO_NUMBA`` is unset.

    Examples
    --------
    >>> isinstance(numba_enabled(), bool)
    True
    """
    return HAVE_NUMBA and os.environ.get("RAGSPINE_NO_NUMBA", "") in ("", "0")


def njit(fn: F) -> F:
    """Compile ``fn`` with ``numba.njit(cache=True, nogil=True)``, or return it unchanged.

    Callers must check :func:`numba_enabled` before calling a kernel on large inputs:
    the uncompiled function is a plain Python loop, correct but slow.
    """
    if _numba is None:  # pragma: no cover
        return fn
    compiled: Any = _numba.njit(cache=True, nogil=True)(fn)
    return typing.cast(F, compiled)
