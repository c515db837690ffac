"""The demo data and the notebooks that ship with the package, found through importlib.resources.

The demo corpus, profile, metadata, golden set and ground truth are package data in
``ragspine_nb/demo/``: the same folder in a source checkout, an editable install and a wheel.
The four notebooks are generated into ``notebooks/`` of the source checkout
(``notebooks/build_notebooks.py``); a built wheel carries them in ``ragspine_nb/notebooks/``
(``setup.py`` copies them there at build time) together with the other files they read
(:data:`NOTEBOOK_EXTRA_FILES`). ``ragspine-nb notebooks DIR`` copies them out.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from ragspine_nb.errors import RagspineError

__all__ = ["NOTEBOOK_EXTRA_FILES", "NOTEBOOK_MARKER", "demo_data", "notebook_home",
           "notebook_sources"]

#: Files besides the notebooks that the notebooks read, relative to the folder they run in
#: (``setup.py`` ships the same list).
NOTEBOOK_EXTRA_FILES: tuple[str, ...] = ("bench/results/tatqa_dev.json",)
#: The file ``ragspine-nb notebooks DIR`` writes into DIR: the notebooks run from that folder.
NOTEBOOK_MARKER = ".ragspine_notebooks"


def _package_dir() -> Path:
    """The installed ``ragspine_nb`` folder (a real folder: a zipped install has none)."""
    root = importlib.resources.files("ragspine_nb")
    if not isinstance(root, Path):
        raise RagspineError(f"ragspine_nb is installed without real files ({root!r}); "
                            "install it unzipped to use the demo data and notebooks")
    return root


def demo_data() -> Path:
    """The demo data folder shipped in the package.

    It holds ``reports/``, ``profile.toml``, ``metadata.toml``, ``golden.jsonl``,
    ``ground_truth.json`` and ``qa_baseline.json``.

    Examples
    --------
    >>> sorted(p.name for p in demo_data().glob("*.toml"))
    ['metadata.toml', 'profile.toml']
    """
    return _package_dir() / "demo"


def notebook_sources() -> dict[str, Path]:
    """Every file of the notebook folder: its path relative to that folder -> where it is now.

    From a wheel, ``ragspine_nb/notebooks/``; from a source checkout, the generated
    ``notebooks/*.ipynb`` plus :data:`NOTEBOOK_EXTRA_FILES` from the checkout root.

    Examples
    --------
    >>> sorted(notebook_sources())[:2]
    ['01_ingestion.ipynb', '02_retrieval_tuning.ipynb']
    """
    shipped = _package_dir() / "notebooks"
    if shipped.is_dir():
        return {p.relative_to(shipped).as_posix(): p
                for p in sorted(shipped.rglob("*")) if p.is_file() and p.suffix != ".pyc"}
    checkout = _package_dir().parent
    notebooks = sorted((checkout / "notebooks").glob("*.ipynb"))
    if not notebooks:
        raise RagspineError(f"no notebooks found in {shipped} or {checkout / 'notebooks'}")
    files = {p.name: p for p in notebooks}
    files.update({rel: checkout / rel for rel in NOTEBOOK_EXTRA_FILES})
    return files


def notebook_home(start: str | Path | None = None) -> Path:
    """The folder the notebooks run in, so that relative paths in them resolve.

    The nearest folder at or above ``start`` (default: the current folder) that
    ``ragspine-nb notebooks`` wrote (it holds :data:`NOTEBOOK_MARKER`) or that is a source
    checkout (``pyproject.toml`` beside ``ragspine_nb/``); ``start`` itself if there is none.
    """
    here = Path.cwd() if start is None else Path(start).resolve()
    for folder in (here, *here.parents):
        if (folder / NOTEBOOK_MARKER).is_file():
            return folder
        if (folder / "pyproject.toml").is_file() and (folder / "ragspine_nb").is_dir():
            return folder
    return here
