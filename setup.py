"""Build hook: the generated notebooks ship inside the package. Everything else is pyproject.toml.

``notebooks/build_notebooks.py`` writes the four notebooks into ``notebooks/`` of the source
tree, and notebook 04 reads ``bench/results/tatqa_dev.json``. One copy of each is kept there;
a build copies them into ``ragspine_nb/notebooks/`` of the built package, where
``ragspine_nb.demo_files.notebook_sources`` finds them through importlib.resources (a
source checkout or an editable install reads them in place). ``MANIFEST.in`` puts the same
files into the sdist, so a wheel built from the sdist has them too.

The stakeholder report's widget renderer and icon font (``ragspine_nb.report.assets``) are
packed into ``ragspine_nb/report_static/`` of the built package (and of the sdist) from a
vendor folder: ``$RAGSPINE_VENDOR``, else ``build/vendor``, fetched there with
``npm pack`` if incomplete (the only step that needs npm and the registry; run once, on
the machine that builds the package). Without them the build stops and says so.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
#: Besides notebooks/*.ipynb (as ragspine_nb.demo_files.NOTEBOOK_EXTRA_FILES says).
EXTRA_FILES = ("bench/results/tatqa_dev.json",)


def notebook_files() -> dict[str, Path]:
    """Path inside ``ragspine_nb/notebooks/`` -> source file."""
    files = {p.name: p for p in sorted((HERE / "notebooks").glob("*.ipynb"))}
    files.update({rel: HERE / rel for rel in EXTRA_FILES})
    missing = [str(p) for p in files.values() if not p.is_file()]
    if len(files) <= len(EXTRA_FILES) or missing:
        raise SystemExit(f"cannot ship the notebooks: missing {missing or 'notebooks/*.ipynb'}")
    return files


def _assets_module() -> ModuleType:
    """``ragspine_nb/report/assets.py`` (standard library only), without importing the package."""
    spec = importlib.util.spec_from_file_location("_ragspine_report_assets",
                                                  HERE / "ragspine_nb" / "report" / "assets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pack_report_assets(dest: Path) -> None:
    """Pack the report's renderer and font into ``dest`` (already packed in an sdist tree)."""
    assets = _assets_module()
    shipped = HERE / "ragspine_nb" / "report_static"
    if assets.packaged_assets(shipped) is not None:
        return  # an sdist: the packed files are package data already
    vendor = Path(os.environ.get("RAGSPINE_VENDOR") or HERE / "build" / "vendor")
    try:
        assets.fetch_vendor(vendor)
        assets.pack_assets(vendor, dest)
    except (assets.VendorError, OSError) as exc:
        raise SystemExit(f"cannot ship the report's widget renderer: {exc}. Set "
                         "RAGSPINE_VENDOR to a folder holding "
                         f"{', '.join(assets.VENDOR_FILES)}, or build where npm can fetch "
                         "them once") from exc


class BuildPyWithNotebooks(build_py):
    """``build_py`` that also copies the notebooks and the report renderer into the package."""

    def run(self) -> None:
        """Build as usual, then copy the notebooks and pack the renderer in."""
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads notebooks/ of the checkout
        target = Path(self.build_lib) / "ragspine_nb" / "notebooks"
        for rel, src in notebook_files().items():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(src), str(target / rel))
        pack_report_assets(Path(self.build_lib) / "ragspine_nb" / "report_static")


class SdistWithReportAssets(sdist):
    """``sdist`` whose tree also holds the packed report renderer (no npm to build from it)."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        """Lay out the tree as usual, then add the packed renderer and font."""
        super().make_release_tree(base_dir, files)
        pack_report_assets(Path(base_dir) / "ragspine_nb" / "report_static")


setup(cmdclass={"build_py": BuildPyWithNotebooks, "sdist": SdistWithReportAssets})
