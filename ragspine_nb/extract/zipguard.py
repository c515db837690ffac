"""An Office (zip) package checked before its library opens it: no part parsed is too big.

python-docx and python-pptx parse every XML part of a package whole, and openpyxl its
workbook, styles and shared strings (its worksheets are streamed row by row). A part
of a few hundred kilobytes in the file can expand to gigabytes of XML, and its tree to
ten times that: :func:`check_package` refuses, from the zip's central directory, a
part whose uncompressed size is over ``max_part_bytes`` (streamed worksheets excepted:
``max_cells_per_doc`` and the per-file deadline bound them) and a shared-string table
of more than ``max_shared_strings`` entries (counted in a bounded stream, before
openpyxl builds them all).

The declared sizes are what the libraries get: ``zipfile`` returns at most a part's
declared uncompressed size (a part whose data inflates past it is cut there and fails
its CRC check), so a file cannot declare a small part and deliver a large one.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

from ragspine_nb.extract.base import ExtractionError, IngestLimitError, exception_reason
from ragspine_nb.extract.limits import IngestLimits, LimitHit

__all__ = ["check_package", "count_shared_strings", "WORKSHEET_TYPE", "SHARED_STRINGS_TYPE"]

_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_SML = "application/vnd.openxmlformats-officedocument.spreadsheetml."
#: Content type of a worksheet part (openpyxl streams these in read-only mode).
WORKSHEET_TYPE = _SML + "worksheet+xml"
#: Content type of the shared-string table (openpyxl reads it whole, before any sheet).
SHARED_STRINGS_TYPE = _SML + "sharedStrings+xml"
_XLSX = (".xlsx", ".xlsm")
#: One ``<si>`` element (any namespace prefix) of a shared-string table.
_SI = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,31}:)?si[\s/>]")
_TAIL = 40  # longer than any match of _SI
_CHUNK = 1 << 20


def check_package(path: Path, limits: IngestLimits) -> None:
    """Raise :class:`IngestLimitError` when a part of the package is over a limit.

    Examples of what is refused: a ``word/document.xml`` that expands to 300 MB, an
    xlsx whose shared-string table holds 20 million strings.

    Raises
    ------
    IngestLimitError
        ``max_part_bytes`` (which part, its size) or ``max_shared_strings``.
    ExtractionError
        The package's central directory or content types cannot be read.
    """
    suffix = path.suffix.lower()
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            types = _content_types(zf, infos, limits) if suffix in _XLSX else {}
            for info in infos:
                if types.get(info.filename) == WORKSHEET_TYPE:
                    continue  # streamed row by row: max_cells_per_doc bounds it
                if info.file_size > limits.max_part_bytes:
                    raise IngestLimitError(_part_hit(info, limits))
            for name, kind in types.items():
                if kind == SHARED_STRINGS_TYPE:
                    _check_shared_strings(zf, name, limits)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError,
            EOFError, RuntimeError) as exc:
        raise ExtractionError(f"corrupt {suffix} package: "
                              f"{exception_reason(exc, 'its zip directory')}") from exc


def _part_hit(info: zipfile.ZipInfo, limits: IngestLimits) -> LimitHit:
    return LimitHit("max_part_bytes", limits.max_part_bytes, f"part={info.filename}",
                    f"the part expands to {info.file_size:,} bytes ({info.compress_size:,} "
                    "in the file), so nothing was read")


def _content_types(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], limits: IngestLimits
                   ) -> dict[str, str]:
    """Part name → declared content type (its override, else its extension's default)."""
    info = next((i for i in infos if i.filename == "[Content_Types].xml"), None)
    if info is None:
        return {}
    if info.file_size > limits.max_part_bytes:
        raise IngestLimitError(_part_hit(info, limits))
    defaults: dict[str, str] = {}
    overrides: dict[str, str] = {}
    try:
        with zf.open(info) as fh:
            for _, el in ElementTree.iterparse(fh):
                if el.tag == f"{_CT}Default":
                    defaults[el.get("Extension", "").lower()] = el.get("ContentType", "")
                elif el.tag == f"{_CT}Override":
                    overrides[el.get("PartName", "").lstrip("/")] = el.get("ContentType", "")
                el.clear()
    except ElementTree.ParseError as exc:
        raise ExtractionError(f"corrupt package: [Content_Types].xml is not XML ({exc})") \
            from exc
    return {i.filename: overrides.get(i.filename)
            or defaults.get(i.filename.rpartition(".")[2].lower(), "") for i in infos}


def count_shared_strings(chunks: Iterator[bytes], stop_after: int) -> int:
    """The ``<si>`` elements in a shared-string table's bytes, counting stopped past ``stop_after``.

    Examples
    --------
    >>> count_shared_strings(iter([b"<sst><si><t>a</t></s", b"i><x:si><t>b</t></x:si></sst>"]), 9)
    2
    """
    count, tail = 0, b""
    for chunk in chunks:
        buf = tail + chunk
        count += len(_SI.findall(buf)) - len(_SI.findall(tail))
        if count > stop_after:
            return count
        tail = buf[-_TAIL:]
    return count


def _stream(fh: object) -> Iterator[bytes]:
    read = fh.read  # type: ignore[attr-defined]
    while chunk := read(_CHUNK):
        yield chunk


def _check_shared_strings(zf: zipfile.ZipFile, name: str, limits: IngestLimits) -> None:
    cap = limits.max_shared_strings
    with zf.open(name) as fh:
        count = count_shared_strings(_stream(fh), cap)
    if count > cap:
        raise IngestLimitError(LimitHit(
            "max_shared_strings", cap, f"part={name}",
            f"the shared-string table holds more than {cap:,} strings, so nothing was read"))
