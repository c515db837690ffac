"""Stakeholder reports: notebooks executed into self-contained HTML (widgets included, no CDN).

``build_report`` writes a summary page first (``index.html``: every notebook's headline
figures against their targets, from the :class:`~ragspine_nb.display.Scorecard` outputs)
and then one page per notebook with the code hidden, raw Python values and stderr left
out, and nothing fetched from the network (no MathJax, no Mermaid, no CDN).

The notebooks are the ones given (files or folders), else the four in the folder
``ragspine-nb notebooks`` wrote (or the checkout's ``notebooks/``), else the copies shipped
in the package, run in a temporary folder. A progress bar counts the executed cells.

The widget renderer (``@jupyter-widgets/html-manager``), ``require.js`` and the
FontAwesome solid font the widgets' icons use are package data, packed when the package
is built (:mod:`ragspine_nb.report.assets`); a source checkout packs them from
``build/vendor`` (fetched once with ``npm pack``). The renderer is embedded
gzip-compressed (the browser inflates it with ``DecompressionStream``) and the font as a
``data:`` URL, so a page with widgets stays under 2 MB and opens offline.
"""

from __future__ import annotations

import base64
import datetime
import os
import subprocess
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.display.scorecard import SCORECARD_MIME, Scorecard, render_summary_page
from ragspine_nb.errors import RagspineError
from ragspine_nb.eval.headlines import (
    BM25_ANCHORS,
    DATASET_HOWTO,
    MEASURES,
    headline_figures,
    headline_scorecard,
)
from ragspine_nb.report.assets import (
    FONT,
    RENDERER,
    STATIC_DIR,
    VENDOR_FILES,
    VendorError,
    fetch_vendor,
    pack_assets,
    packaged_assets,
)
from ragspine_nb.report.live import LIVE_SCRIPT, mark_widgets
from ragspine_nb.widgets.static_grid import REPORT_ENV

__all__ = ["build_report", "ensure_vendor", "find_notebooks", "report_assets", "stakeholder_view",
           "headline_figures", "headline_scorecard", "NOTEBOOKS", "SUMMARY_PAGE",
           "BM25_ANCHORS", "MEASURES", "DATASET_HOWTO"]

#: The source checkout (or site-packages, from a wheel).
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS: tuple[str, ...] = ("01_ingestion.ipynb", "02_retrieval_tuning.ipynb",
                              "03_agent.ipynb", "04_eval_dashboard.ipynb")
#: The report's first page: every notebook's headline figures.
SUMMARY_PAGE = "index.html"
_WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def ensure_vendor(vendor: str | Path) -> Path:
    """Make sure ``vendor`` holds the widget renderer, ``require.js`` and the icon font.

    What is missing is fetched with ``npm pack`` (a developer's checkout; a built package
    ships them, see :func:`report_assets`).
    """
    try:
        return fetch_vendor(vendor)
    except VendorError as exc:
        raise RagspineError(f"the report's widget renderer: {exc}") from exc


def report_assets(vendor: str | Path | None = None) -> Path:
    """The folder holding the packed renderer and icon font a page with widgets embeds.

    ``vendor`` given: that vendor folder (fetched with npm if incomplete), packed into
    ``vendor/packed``. Otherwise the package's own (a wheel), else the checkout's
    ``build/vendor`` when complete. Nothing is fetched unless ``vendor`` is given.

    Raises
    ------
    RagspineError
        Neither is there; the message names the missing files and how to get them.
    """
    if vendor is not None:
        folder = ensure_vendor(vendor)
        return _packed(folder)
    shipped = packaged_assets()
    if shipped is not None:
        return shipped
    local = ROOT / "build" / "vendor"
    if (ROOT / "pyproject.toml").is_file() and all((local / n).is_file() for n in VENDOR_FILES):
        return _packed(local)
    raise RagspineError(
        f"the report's widget renderer is missing: {RENDERER} and {FONT} are not in "
        f"{STATIC_DIR} (this install was built without them). Reinstall from a wheel "
        "built where npm could fetch them once, or pass --vendor DIR holding "
        f"{', '.join(VENDOR_FILES)} (fetched there with npm pack if missing)")


def _packed(vendor: Path) -> Path:
    try:
        pack_assets(vendor, vendor / "packed")
    except VendorError as exc:
        raise RagspineError(f"the report's widget renderer: {exc}") from exc
    return vendor / "packed"


# The page template: the lab template without MathJax, Mermaid or a CDN, the widget renderer
# inflated from the page itself, the bundled icon font and a navigation bar.
_TEMPLATE = r"""{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block jupyter_widgets %}{%- if "widgets" in nb.metadata -%}
<script>
(function () {
  var packed = "{{ resources.ragspine_renderer }}";
  function start() {
    var bin = atob(packed), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    var code = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(code).text().then(function (js) {
      var script = document.createElement("script");
      script.textContent = js;
      document.body.appendChild(script);
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else { start(); }
}());
</script>
{%- if resources.ragspine_live -%}<script>{{ resources.ragspine_live }}</script>{%- endif -%}
{%- endif -%}{% endblock jupyter_widgets %}
{% block extra_css %}<style>{{ resources.ragspine_css }}</style>{% endblock extra_css %}
{%- block body_header -%}{{ super() }}{{ resources.ragspine_nav }}{%- endblock body_header -%}
"""
_SANS = ("system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Liberation Sans',"
         "'DejaVu Sans',sans-serif")
_PAGE_CSS = (
    f"body,.jupyter-widgets,.widget-html-content,.jupyter-button{{font-family:{_SANS}}}"
    ".jupyter-widgets pre,.jupyter-widgets code{font-family:var(--jp-code-font-family,monospace)}"
    # a code cell whose outputs were all left out takes no room
    ".jp-CodeCell:not(:has(.jp-OutputArea-output)){display:none}"
    # printed answers are prose: a proportional font, wrapped
    f".jp-OutputArea-output.jp-RenderedText pre{{font-family:{_SANS};white-space:pre-wrap;"
    "font-size:13px}"
)
_NAV = ("position:sticky;top:0;z-index:10;background:#fff;border-bottom:1px solid #d0d7de;"
        f"padding:6px 24px;font:13px/1.5 {_SANS}")


@lru_cache(maxsize=4)
def _renderer(folder: Path) -> str:
    """The packed renderer (``require.js`` then ``embed-amd.js``, gzip), base64."""
    return base64.b64encode((folder / RENDERER).read_bytes()).decode("ascii")


@lru_cache(maxsize=4)
def _icon_css(folder: Path) -> str:
    """The FontAwesome solid face as a ``data:`` URL.

    It gets a family name of its own, which the widgets' ``@font-face`` rules (pointing at
    files that are not there) cannot shadow.
    """
    font = base64.b64encode((folder / FONT).read_bytes()).decode("ascii")
    return ('@font-face{font-family:"ragspine-fa-solid";font-style:normal;font-weight:900;'
            f'font-display:block;src:url(data:font/woff2;base64,{font}) format("woff2")}}'
            '.fa,.fas,.far{font-family:"ragspine-fa-solid"!important;font-weight:900!important}')


def _progress_models(nb: Any) -> set[str]:
    """Ids of the saved widgets that are progress bars (tqdm's HBox around a progress)."""
    state = nb.metadata.get("widgets", {}).get(_WIDGET_STATE, {}).get("state", {})
    bars = {k for k, m in state.items() if m.get("model_name") in ("FloatProgressModel",
                                                                    "IntProgressModel")}
    return {k for k, m in state.items()
            if any(str(c).removeprefix("IPY_MODEL_") in bars
                   for c in m.get("state", {}).get("children", []))}


def stakeholder_view(nb: Any) -> Any:
    """Leave out what only a developer reads: stderr, raw Python values and progress bars.

    A raw value is an ``execute_result`` with nothing but ``text/plain`` (a tuple, a list,
    ``True``); tables, cards, plots, widgets and printed text stay. Cells tagged
    ``report-hide`` lose their outputs. ``nb`` is changed in place and returned.
    """
    progress = _progress_models(nb)

    def shown(out: Any) -> bool:
        if out.output_type == "stream":
            return bool(out.name == "stdout")
        data = out.get("data", {})
        if out.output_type == "execute_result" and set(data) <= {"text/plain"}:
            return False
        return data.get(_WIDGET_VIEW, {}).get("model_id") not in progress

    for cell in nb.cells:
        if cell.cell_type == "code":
            hidden = "report-hide" in cell.metadata.get("tags", [])
            cell.outputs = [] if hidden else [o for o in cell.outputs if shown(o)]
    return nb




def _scorecards(nb: Any) -> list[Scorecard]:
    return [Scorecard.from_dict(out["data"][SCORECARD_MIME]) for cell in nb.cells
            if cell.cell_type == "code" for out in cell.get("outputs", [])
            if SCORECARD_MIME in out.get("data", {})]


def _title(nb: Any, fallback: str) -> str:
    """The notebook's first ``# heading``."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return str(line[2:]).strip()
    return fallback


def _nav(pages: list[tuple[str, str]], here: str) -> str:
    import html

    links = [(SUMMARY_PAGE, "Summary")] + [(href, t.split(":")[0]) for href, t in pages]
    style = {True: "margin-right:16px;color:#1f2328;font-weight:600;text-decoration:none",
             False: "margin-right:16px;color:#0969da;text-decoration:none"}
    return f'<nav class="rs-nav" style="{_NAV}">' + "".join(
        f'<a href="{html.escape(h)}" style="{style[h == here]}">{html.escape(t)}</a>'
        for h, t in links) + "</nav>"


def find_notebooks(given: Sequence[str | Path] = (), here: str | Path | None = None
                   ) -> list[Path]:
    """The notebooks to report on: those given, else the ones found from ``here``.

    A folder given stands for the ``*.ipynb`` in it. With none given: the four notebooks in
    the folder ``ragspine-nb notebooks`` wrote (or the checkout) at or above ``here`` (the
    current folder), in it or in its ``notebooks/``. An empty list means "none found here"
    (:func:`build_report` then runs the copies shipped in the package).

    Raises
    ------
    RagspineError
        A path given does not exist, or a folder given holds no notebook.
    """
    from ragspine_nb.demo_files import notebook_home

    paths: list[Path] = []
    for item in map(Path, given):
        if item.is_dir():
            found = sorted(item.glob("*.ipynb"))
            if not found:
                raise RagspineError(f"{item} holds no notebook (*.ipynb); give a folder "
                                    "written by `ragspine-nb notebooks` or .ipynb files")
            paths += found
        elif item.is_file():
            paths.append(item)
        else:
            raise RagspineError(f"{item}: no such notebook or folder")
    if given:
        return paths
    home = notebook_home(here)
    for folder in (home, home / "notebooks"):
        if all((folder / n).is_file() for n in NOTEBOOKS):
            return [folder / n for n in NOTEBOOKS]
    return []


def build_report(notebooks: Sequence[str | Path] | None = None,
                 out_dir: str | Path = "build/report", vendor: str | Path | None = None,
                 timeout: int = 1800, show_code: bool = False,
                 progress: bool = True) -> list[Path]:
    """Execute notebooks and write a summary page and one self-contained page per notebook.

    Parameters
    ----------
    notebooks : sequence of path, optional
        Notebook files or folders (:func:`find_notebooks`); default: the ones found from the
        current folder, else the copies shipped in the package (run in a temporary folder).
    out_dir : path
        Where the pages go.
    vendor : path, optional
        A folder with the widget renderer (:func:`report_assets`); default: the package's.
    timeout : int
        Seconds a cell may run.
    show_code : bool
        Keep the code cells and every output (a developer's view).
    progress : bool
        Show a progress bar over the executed cells (with the time left).

    Returns
    -------
    list of Path
        The written pages, the summary page (``index.html``) first.
    """
    nbformat = import_optional("nbformat", extra="notebook", feature="The HTML report")
    import_optional("nbconvert", extra="notebook", feature="The HTML report")
    assets = report_assets(vendor)  # fails before minutes of execution, naming what is missing
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ragspine-report-") as tmp:
        paths = find_notebooks(notebooks or ())
        if not paths:  # the shipped copies, run where `ragspine-nb notebooks` would put them
            from ragspine_nb.cli.notebooks import copy_notebooks

            copy_notebooks(tmp)
            paths = [Path(tmp) / n for n in NOTEBOOKS]
        read = [(p, nbformat.read(p, as_version=4)) for p in paths]
        executed = _execute_all(read, timeout, progress)
    pages = [(href, _title(nb, href)) for href, nb in executed]
    written = [out / SUMMARY_PAGE]
    written[0].write_text(render_summary_page(
        "Report: headline figures", [c for _, nb in executed for c in _scorecards(nb)], pages,
        nav=_nav(pages, SUMMARY_PAGE),
        lead=f"{len(pages)} notebooks executed on {datetime.date.today():%d %b %Y}. Each "
             "figure against its target (PASS / MISS) and, where a baseline is committed, "
             "its change against it. The detailed pages follow."), encoding="utf-8")
    for href, nb in executed:
        target = out / href
        target.write_text(_export(nb, assets, _nav(pages, href), show_code), encoding="utf-8")
        written.append(target)
    return written


def _execute_all(read: list[tuple[Path, Any]], timeout: int, progress: bool
                 ) -> list[tuple[str, Any]]:
    """Run each notebook in its own folder; one progress bar over all their code cells.

    The kernel's own stderr (its start-up warnings) is not shown; a failing cell still
    raises with its traceback.
    """
    from nbclient import NotebookClient
    from tqdm.auto import tqdm

    total = sum(c.cell_type == "code" for _, nb in read for c in nb.cells)
    bar = tqdm(total=total, unit="cell", disable=not progress, desc="executing")
    executed = []
    try:
        for path, nb in read:
            bar.set_description(path.stem)
            client = NotebookClient(
                nb, timeout=timeout, kernel_name="python3", store_widget_state=True,
                resources={"metadata": {"path": str(path.resolve().parent)}},
                on_cell_executed=lambda **_: bar.update(1))
            # REPORT_ENV: a TuningPanel precomputes its slider grid for the static page
            client.execute(stderr=subprocess.DEVNULL, env={**os.environ, REPORT_ENV: "1"})
            executed.append((f"{path.stem}.html", nb))
    finally:
        bar.close()
    return executed


def _export(nb: Any, folder: Path, nav: str, show_code: bool) -> str:
    import jinja2
    from nbconvert import HTMLExporter

    loader = jinja2.DictLoader({"ragspine.html.j2": _TEMPLATE})
    exporter = HTMLExporter(extra_loaders=[loader],  # type: ignore[no-untyped-call]
                            template_file="ragspine.html.j2")
    exporter.embed_images = True
    if not show_code:
        stakeholder_view(nb)
        exporter.exclude_input = exporter.exclude_input_prompt = True
        exporter.exclude_output_prompt = True
    widgets = "widgets" in nb.metadata
    live = mark_widgets(nb) if widgets else False
    resources = {"ragspine_renderer": _renderer(folder) if widgets else "",
                 "ragspine_live": LIVE_SCRIPT if live else "",
                 "ragspine_css": _PAGE_CSS + (_icon_css(folder) if widgets else ""),
                 "ragspine_nav": nav}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    return str(body)
