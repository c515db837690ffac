"""Optional compiled kernels: numba when it is installed, a numpy path when it is not.

numba is an optional dependency (the ``fast`` extra). A module that has a hot loop
writes it once as a plain Python function, wraps it with :func:`njit`, and keeps a
vectorised numpy fallback for machines without numba. Compiled functions are cached
on disk (``cache=True``), so a new kernel does not wait for the compiler again.

Set ``RAGSPINE_NO_NUMBA=1`` to force the numpy paths and ``RAGSPINE_NO_NUMBA=0`` to
force the compiled ones from the first call (tests use both to check both); unset, a
caller may keep to its numpy path until numba pays for its load (:func:`numba_forced`,
:func:`kernels_compiled`).
"""

from __future__ import annotations

import importlib.util
import os
import threading
import typing
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["HAVE_NUMBA", "njit", "numba_enabled", "numba_forced", "kernels_compiled",
           "compiled_now", "WorkCounter"]

F = TypeVar("F", bound=Callable[..., Any])

#: numba is installed (it is imported on the first kernel call, not with this module;
#: it may still be switched off with ``RAGSPINE_NO_NUMBA=1``)
HAVE_NUMBA: bool = importlib.util.find_spec("numba") is not None
_LOCK = threading.RLock()
#: every kernel :func:`njit` wrapped, compiled together on the first call of one
_KERNELS: list[_Kernel] = []
#: whether :func:`_compile_all` has run (numba loaded, or found missing)
_WRAPPED = [False]


def numba_enabled() -> bool:
    """Whether compiled kernels run: numba is installed and ``RAGSPINE_NO_NUMBA`` is unset.

    Examples
    --------
    >>> isinstance(numba_enabled(), bool)
    True
    """
    return HAVE_NUMBA and os.environ.get("RAGSPINE_NO_NUMBA", "") in ("", "0")


def numba_forced() -> bool:
    """Whether ``RAGSPINE_NO_NUMBA=0`` asks for the compiled kernels from the first call.

    Examples
    --------
    >>> isinstance(numba_forced(), bool)
    True
    """
    return HAVE_NUMBA and os.environ.get("RAGSPINE_NO_NUMBA") == "0"


def kernels_compiled() -> bool:
    """Whether this process has loaded numba and wrapped its kernels (a call compiled them)."""
    return _WRAPPED[0]


def compiled_now() -> bool:
    """The compiled kernels run now: numba is enabled and loaded (or forced)."""
    return numba_enabled() and (numba_forced() or kernels_compiled())


class WorkCounter:
    """Work done on a numpy path until loading numba pays: then the compiled path.

    ``compiled(units)`` is True once numba is loaded (or forced), or once this process
    has done ``after`` units of work on the numpy path (counting ``units`` now).

    Examples
    --------
    >>> c = WorkCounter(after=10)
    >>> c.done
    0
    """

    def __init__(self, after: int) -> None:
        self.after, self.done = after, 0

    def compiled(self, units: int) -> bool:
        """Whether this piece of work (``units``) runs compiled; counts it otherwise."""
        if not numba_enabled():
            return False
        if numba_forced() or kernels_compiled():
            return True
        self.done += units
        return self.done >= self.after


class _Kernel:
    """A function compiled by numba on its first call (numba imported then, not before)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self._compiled: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        compiled = self._compiled
        if compiled is None:
            _compile_all()
            compiled = self._compiled
        return compiled(*args)  # type: ignore[misc]


def _compile_all() -> None:
    """Wrap every kernel with numba's dispatcher and put it in its module's globals.

    A kernel that calls another finds the other's dispatcher there when numba types it.
    Without numba (or where it fails to import) each kernel stays its plain function.
    """
    global HAVE_NUMBA
    with _LOCK:
        pending = [k for k in _KERNELS if k._compiled is None]
        if not pending:
            return
        numba: Any
        try:
            import numba
        except ImportError:  # pragma: no cover - a broken numba install
            HAVE_NUMBA, numba = False, None
        for kernel in pending:
            fn = kernel.fn
            compiled = fn if numba is None else numba.njit(cache=True, nogil=True)(fn)
            if fn.__globals__.get(fn.__name__) is kernel:
                fn.__globals__[fn.__name__] = compiled
            kernel._compiled = compiled
        _WRAPPED[0] = True


def njit(fn: F) -> F:
    """Compile ``fn`` with ``numba.njit(cache=True, nogil=True)`` on its first call.

    Importing a module of kernels imports no numba (it costs about a second); the first
    call of any kernel imports it and wraps them all (compiled functions are cached on
    disk). Without numba the function runs as written. Callers must check
    :func:`numba_enabled` before calling a kernel on large inputs: the uncompiled
    function is a plain Python loop, correct but slow.
    """
    if not HAVE_NUMBA:  # pragma: no cover
        return fn
    kernel = _Kernel(fn)
    with _LOCK:
        _KERNELS.append(kernel)
    return typing.cast(F, kernel)
