"""Stakeholder reports: notebooks executed into self-contained HTML (widgets included, no CDN).

The widget renderer (``@jupyter-widgets/html-manager``) and ``require.js`` come from the
npm registry once (``npm pack``) into a vendor folder and are embedded as ``data:`` URLs,
so an exported page opens offline. Widgets in a static page show their saved state but
are not live (there is no kernel).
"""

from __future__ import annotations

import base64
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from ragspine_nb._optional import import_optional
from ragspine_nb.errors import RagspineError

__all__ = ["build_report", "ensure_vendor", "NOTEBOOKS"]

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS: tuple[str, ...] = ("01_ingestion.ipynb", "02_retrieval_tuning.ipynb",
                              "03_agent.ipynb", "04_eval_dashboard.ipynb")
_PACKAGES = {"@jupyter-widgets/html-manager@1": ("package/dist/embed-amd.js", "embed-amd.js"),
             "requirejs@2": ("package/require.js", "require.js")}


def ensure_vendor(vendor: str | Path) -> Path:
    """Make sure ``vendor`` holds ``require.js`` and ``embed-amd.js`` (``npm pack`` if not)."""
    folder = Path(vendor)
    missing = [spec for spec, (_, name) in _PACKAGES.items() if not (folder / name).is_file()]
    if not missing:
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise RagspineError("the report needs the widget renderer from the npm registry, but "
                            f"npm is not installed; put {[n for _, n in _PACKAGES.values()]} "
                            f"into {folder} by hand or install Node.js/npm")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for spec in missing:
            proc = subprocess.run([npm, "pack", spec, "--silent"], cwd=tmp, capture_output=True,
                                  text=True, timeout=300)
            if proc.returncode != 0:
                raise RagspineError(f"npm pack {spec} failed: {proc.stderr.strip()[:300]}")
            tgz = Path(tmp) / proc.stdout.strip().splitlines()[-1]
            member, name = _PACKAGES[spec]
            with tarfile.open(tgz) as tar:
                data = tar.extractfile(member)
                if data is None:
                    raise RagspineError(f"{member} missing from {tgz.name}")
                (folder / name).write_bytes(data.read())
    return folder


def _data_url(path: Path) -> str:
    return "data:text/javascript;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def build_report(notebooks: list[str | Path] | None = None, out_dir: str | Path = "build/report",
                 vendor: str | Path = "build/vendor", timeout: int = 1800) -> list[Path]:
    """Execute notebooks and write one self-contained HTML page per notebook.

    Returns
    -------
    list of Path
        The written pages.
    """
    nbformat = import_optional("nbformat", extra="notebook", feature="The HTML report")
    nbconvert = import_optional("nbconvert", extra="notebook", feature="The HTML report")
    from nbconvert.preprocessors import ExecutePreprocessor

    folder = ensure_vendor(vendor)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [Path(p) for p in notebooks] if notebooks else [ROOT / "notebooks" / n
                                                             for n in NOTEBOOKS]
    written = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        ExecutePreprocessor(timeout=timeout, kernel_name="python3",  # type: ignore[no-untyped-call]
                            store_widget_state=True).preprocess(
            nb, {"metadata": {"path": str(path.resolve().parent)}})
        exporter = nbconvert.HTMLExporter()
        exporter.require_js_url = _data_url(folder / "require.js")
        exporter.widget_renderer_url = _data_url(folder / "embed-amd.js")
        exporter.embed_images = True
        body, _ = exporter.from_notebook_node(nb)
        target = out / f"{path.stem}.html"
        target.write_text(body, encoding="utf-8")
        written.append(target)
    return written
