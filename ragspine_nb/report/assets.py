"""The stakeholder report's widget renderer and icon font: fetched once, shipped as package data.

A page with widgets embeds the widget renderer (``@jupyter-widgets/html-manager``'s
``embed-amd.js`` after ``require.js``) gzip-compressed, and the FontAwesome solid face the
widgets' icons use. They come from the npm registry once, at *package build time*:
``setup.py`` packs a vendor folder (``require.js``, ``embed-amd.js``,
``fa-solid-900.woff2``) into ``ragspine_nb/report_static/`` of the built package
(``renderer.js.gz``, the font and a ``NOTICE`` naming each package and its licence), so
``ragspine-nb report`` from a wheel needs neither npm nor a network.

This module uses the standard library only: ``setup.py`` loads it by its file path.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

__all__ = ["FONT", "NOTICE", "PACKAGES", "RENDERER", "STATIC_DIR", "VENDOR_FILES",
           "VendorError", "fetch_vendor", "pack_assets", "packaged_assets"]

#: npm package -> (member of its tarball, file name in the vendor folder).
PACKAGES: dict[str, tuple[str, str]] = {
    "@jupyter-widgets/html-manager@1": ("package/dist/embed-amd.js", "embed-amd.js"),
    "requirejs@2": ("package/require.js", "require.js"),
    # the solid face is the one ipywidgets' icons (``fa fa-search``…) are drawn from
    "@fortawesome/fontawesome-free@5.15.4": ("package/webfonts/fa-solid-900.woff2",
                                             "fa-solid-900.woff2"),
}
#: The licence of each vendored package (all compatible with the package's Apache-2.0).
_LICENCES = {"@jupyter-widgets/html-manager@1": "BSD-3-Clause (Project Jupyter contributors)",
             "requirejs@2": "MIT (jQuery Foundation and other contributors)",
             "@fortawesome/fontawesome-free@5.15.4": "font: SIL OFL 1.1 (Fonticons, Inc.)"}
VENDOR_FILES: tuple[str, ...] = tuple(name for _, name in PACKAGES.values())
#: What the built package holds, in :data:`STATIC_DIR`.
RENDERER, FONT, NOTICE = "renderer.js.gz", "fa-solid-900.woff2", "NOTICE"
#: The package-data folder the assets are shipped in.
STATIC_DIR = Path(__file__).resolve().parents[1] / "report_static"


class VendorError(Exception):
    """The renderer could not be found or fetched (the message says what is missing)."""


def fetch_vendor(folder: str | Path, timeout: int = 300) -> Path:
    """Make sure ``folder`` holds :data:`VENDOR_FILES`; fetch what is missing with ``npm pack``.

    Raises
    ------
    VendorError
        npm is not installed or a ``npm pack`` failed; the message names the files.
    """
    folder = Path(folder)
    missing = [spec for spec, (_, name) in PACKAGES.items() if not (folder / name).is_file()]
    if not missing:
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise VendorError(f"{', '.join(VENDOR_FILES)} are not in {folder} and npm is not "
                          "installed to fetch them; put them there by hand or install Node.js")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for spec in missing:
            proc = subprocess.run([npm, "pack", spec, "--silent"], cwd=tmp, capture_output=True,
                                  text=True, timeout=timeout)
            if proc.returncode != 0:
                raise VendorError(f"npm pack {spec} failed: {proc.stderr.strip()[:300]}")
            tgz = Path(tmp) / proc.stdout.strip().splitlines()[-1]
            member, name = PACKAGES[spec]
            with tarfile.open(tgz) as tar:
                data = tar.extractfile(member)
                if data is None:
                    raise VendorError(f"{member} missing from {tgz.name}")
                (folder / name).write_bytes(data.read())
    return folder


def pack_assets(vendor: str | Path, dest: str | Path) -> list[Path]:
    """Write :data:`RENDERER`, :data:`FONT` and :data:`NOTICE` into ``dest`` from ``vendor``.

    The renderer is ``require.js`` then ``embed-amd.js``, gzip-compressed with no time
    stamp (the same bytes on every build). Returns the files written.
    """
    src, out = Path(vendor), Path(dest)
    missing = [name for name in VENDOR_FILES if not (src / name).is_file()]
    if missing:
        raise VendorError(f"{', '.join(missing)} missing from {src}")
    out.mkdir(parents=True, exist_ok=True)
    code = (src / "require.js").read_bytes() + b"\n;\n" + (src / "embed-amd.js").read_bytes()
    (out / RENDERER).write_bytes(gzip.compress(code, compresslevel=9, mtime=0))
    shutil.copyfile(src / FONT, out / FONT)
    (out / NOTICE).write_text(
        "The stakeholder report embeds these files, fetched from the npm registry when the "
        "package was built:\n" + "".join(f"- {spec} ({name}): {_LICENCES[spec]}\n"
                                        for spec, (_, name) in PACKAGES.items()),
        encoding="utf-8")
    return [out / RENDERER, out / FONT, out / NOTICE]


def packaged_assets(folder: Path = STATIC_DIR) -> Path | None:
    """``folder`` when it holds the packed renderer and font (a built package), else None."""
    if (folder / RENDERER).is_file() and (folder / FONT).is_file():
        return folder
    return None
