"""Build hook: the generated notebooks ship inside the package. Everything else is pyproject.toml.

``notebooks/build_notebooks.py`` writes the four notebooks into ``notebooks/`` of the source
tree, and notebook 04 reads ``bench/results/tatqa_dev.json``. One copy of each is kept there;
a build copies them into ``ragspine_nb/notebooks/`` of the built package, where
``ragspine_nb.demo_files.notebook_sources`` finds them through importlib.resources (a
source checkout or an editable install reads them in place). ``MANIFEST.in`` puts the same
files into the sdist, so a wheel built from the sdist has them too.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

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


class BuildPyWithNotebooks(build_py):
    """``build_py`` that also copies the notebooks into the built package."""

    def run(self) -> None:
        """Build as usual, then copy the notebooks in."""
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads notebooks/ of the checkout
        target = Path(self.build_lib) / "ragspine_nb" / "notebooks"
        for rel, src in notebook_files().items():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(src), str(target / rel))


setup(cmdclass={"build_py": BuildPyWithNotebooks})
