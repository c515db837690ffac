"""A process's address space capped while it reads one file, and what the file took.

The worker of :mod:`ragspine_nb.ingestion.worker` reads each file under a
:class:`MemoryCap`: its address space may grow by ``max_memory_bytes`` over its size
when the file starts (``RLIMIT_AS``), so an allocation past it fails that file instead
of exhausting the machine. A library may turn the failed allocation into another error
(lxml: "unknown error"), so the cap also tells, from the peak size the file reached,
whether a failure came at the limit. Where the system has no ``RLIMIT_AS`` or no
``/proc`` (Windows, macOS) nothing is capped and only a ``MemoryError`` counts.
"""

from __future__ import annotations

from types import TracebackType

__all__ = ["MemoryCap", "vm_sizes"]

#: A failure after the file's reading grew past this share of the cap came at the limit.
EXHAUSTED_SHARE = 0.75
#: A worker whose reading grew past this share of the cap is replaced after the file.
GROWN_SHARE = 0.5


def vm_sizes() -> tuple[int, int] | None:
    """The address space of this process and its peak, in bytes (``None`` without ``/proc``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            found = {k: int(v.split()[0]) * 1024 for k, _, v in
                     (line.partition(":") for line in fh) if k in ("VmSize", "VmPeak")}
    except (OSError, ValueError):
        return None
    if "VmSize" not in found or "VmPeak" not in found:
        return None
    return found["VmSize"], found["VmPeak"]


class MemoryCap:
    """Within the block, this process's address space is capped at its size + ``extra``."""

    def __init__(self, extra: int) -> None:
        self.extra = extra
        self.base: int | None = None
        self._restore: tuple[int, int] | None = None

    def __enter__(self) -> MemoryCap:
        sizes = vm_sizes()
        if sizes is None:
            return self
        self.base = sizes[0]
        try:
            import resource
        except ImportError:
            return self
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = self.base + self.extra
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        except (ValueError, OSError):
            return self
        self._restore = (soft, hard)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._restore is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, self._restore)
            self._restore = None

    def _grew(self, share: float) -> bool:
        sizes = vm_sizes()
        if sizes is None or self.base is None:
            return False
        return sizes[1] >= self.base + share * self.extra

    def exhausted(self) -> bool:
        """Whether the reading reached the cap (its peak went past most of ``extra``)."""
        return self._grew(EXHAUSTED_SHARE)

    def grown(self) -> bool:
        """Whether the reading took more than half of ``extra`` (the worker is replaced)."""
        return self._grew(GROWN_SHARE)
