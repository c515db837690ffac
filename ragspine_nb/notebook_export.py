"""Stakeholder reports: notebooks executed into self-contained HTML (widgets included, no CDN).

``build_report`` writes a summary page first (``index.html``: every notebook's headline
figures against their targets, from the :class:`~ragspine_nb.display.Scorecard` outputs)
and then one page per notebook with the code hidden, raw Python values and stderr left
out, and nothing fetched from the network (no MathJax, no Mermaid, no CDN).

The widget renderer (``@jupyter-widgets/html-manager``), ``require.js`` and the
FontAwesome solid font the widgets' icons use come from the npm registry once
(``npm pack``) into a vendor folder. The renderer and ``require.js`` are embedded
gzip-compressed (the browser inflates them with ``DecompressionStream``) and the font as
a ``data:`` URL, so a page with widgets stays under 2 MB and opens offline. Widgets in a
static page show their saved state but are not live (there is no kernel).
"""

from __future__ import annotations

import base64
import datetime
import gzip
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.display.scorecard import (
    SCORECARD_MIME,
    Headline,
    Scorecard,
    render_summary_page,
)
from ragspine_nb.errors import RagspineError

__all__ = ["build_report", "ensure_vendor", "stakeholder_view", "headline_figures",
           "NOTEBOOKS", "SUMMARY_PAGE", "BM25_ANCHORS"]

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS: tuple[str, ...] = ("01_ingestion.ipynb", "02_retrieval_tuning.ipynb",
                              "03_agent.ipynb", "04_eval_dashboard.ipynb")
_PACKAGES = {"@jupyter-widgets/html-manager@1": ("package/dist/embed-amd.js", "embed-amd.js"),
             "requirejs@2": ("package/require.js", "require.js"),
             # the solid face is the one ipywidgets' icons (``fa fa-search``…) are drawn from
             "@fortawesome/fontawesome-free@5.15.4": ("package/webfonts/fa-solid-900.woff2",
                                                      "fa-solid-900.woff2")}
#: The report's first page: every notebook's headline figures.
SUMMARY_PAGE = "index.html"
#: BM25 nDCG@10 a run should reach: the BEIR paper's for SciFact, bm25s on the same data
#: for cmrc2018-chunks.
BM25_ANCHORS: dict[str, float] = {"scifact": 0.665, "cmrc2018-chunks": 0.898}
_WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def ensure_vendor(vendor: str | Path) -> Path:
    """Make sure ``vendor`` holds the widget renderer, ``require.js`` and the icon font.

    What is missing is fetched with ``npm pack`` (the FontAwesome solid face comes from
    ``@fortawesome/fontawesome-free``).
    """
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
    """``require.js`` then ``embed-amd.js``, gzip-compressed, base64 (a third of the size)."""
    code = (folder / "require.js").read_bytes() + b"\n;\n" + (folder / "embed-amd.js").read_bytes()
    return base64.b64encode(gzip.compress(code, compresslevel=9, mtime=0)).decode("ascii")


@lru_cache(maxsize=4)
def _icon_css(folder: Path) -> str:
    """The FontAwesome solid face as a ``data:`` URL.

    It gets a family name of its own, which the widgets' ``@font-face`` rules (pointing at
    files that are not there) cannot shadow.
    """
    font = base64.b64encode((folder / "fa-solid-900.woff2").read_bytes()).decode("ascii")
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


def headline_figures(qa: Mapping[str, Any], baseline: Mapping[str, Any], *, tatqa: Any = None,
                     tatqa_trend: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
                     retrieval: Sequence[Mapping[str, Any]] = ()) -> list[Headline]:
    """The evaluation's headline figures, each against its target, for a :class:`Scorecard`.

    Parameters
    ----------
    qa : mapping of str to QAReport
        ``{mode: report}``: each gate must stay at or above its baseline rate and the
        fabrication count at or below its baseline (the ratchet).
    baseline : mapping
        The committed baseline (:func:`~ragspine_nb.eval.load_baseline`).
    tatqa : TatqaReport, optional
        A TAT-QA run: its figures with a target.
    tatqa_trend : (mapping, mapping), optional
        A committed TAT-QA run and the earlier one it is compared with (JSON dicts).
    retrieval : sequence of mapping
        Rows with ``dataset`` and ``nDCG@10``, compared with :data:`BM25_ANCHORS`.
    """
    from ragspine_nb.eval.qa import GATES
    from ragspine_nb.eval.tatqa_report import TatqaReport

    rows = []
    for mode, report in qa.items():
        base, section = baseline.get(mode, {}), f"QA gates, {mode} mode ({len(report.cases)} cases)"
        rows += [Headline(section, g.replace("_", " "), report.gate(g)["rate"],
                          ("≥", base.get(g, 1.0)), base.get(g)) for g in GATES]
        rows.append(Headline(section, "fabrication count", report.fabrication_count,
                             ("≤", base.get("fabrication_count", 0)),
                             base.get("fabrication_count"), digits=0))
    if tatqa is not None:
        rows += tatqa.headlines(f"TAT-QA {tatqa.split_name}, this run "
                                f"({tatqa['questions']:,} questions)")
    if tatqa_trend is not None:
        now, before = TatqaReport(tatqa_trend[0]), TatqaReport(tatqa_trend[1])
        section = (f"TAT-QA {now.split_name}, committed run ({now['questions']:,} questions; "
                   "trend: against the earlier run)")
        rows += [Headline(section, label, value, target, old) for (label, value, target),
                 (_, old, _) in zip(now.checks(), before.checks(), strict=False)]
    rows += [Headline("Retrieval, BM25 over all test queries", f"{t['dataset']} nDCG@10",
                      float(t["nDCG@10"]), ("≥", BM25_ANCHORS[t["dataset"]]), digits=4)
             for t in retrieval if "nDCG@10" in t and t["dataset"] in BM25_ANCHORS]
    return rows


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


def build_report(notebooks: list[str | Path] | None = None, out_dir: str | Path = "build/report",
                 vendor: str | Path = "build/vendor", timeout: int = 1800,
                 show_code: bool = False) -> list[Path]:
    """Execute notebooks and write a summary page and one self-contained page per notebook.

    ``show_code=True`` keeps the code cells and every output (a developer's view).

    Returns
    -------
    list of Path
        The written pages, the summary page (``index.html``) first.
    """
    nbformat = import_optional("nbformat", extra="notebook", feature="The HTML report")
    import_optional("nbconvert", extra="notebook", feature="The HTML report")
    from nbconvert.preprocessors import ExecutePreprocessor

    folder = ensure_vendor(vendor).resolve()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [Path(p) for p in notebooks] if notebooks else [ROOT / "notebooks" / n
                                                             for n in NOTEBOOKS]
    executed = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        ExecutePreprocessor(timeout=timeout, kernel_name="python3",  # type: ignore[no-untyped-call]
                            store_widget_state=True).preprocess(
            nb, {"metadata": {"path": str(path.resolve().parent)}})
        executed.append((f"{path.stem}.html", nb))
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
        target.write_text(_export(nb, folder, _nav(pages, href), show_code), encoding="utf-8")
        written.append(target)
    return written


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
    resources = {"ragspine_renderer": _renderer(folder) if widgets else "",
                 "ragspine_css": _PAGE_CSS + (_icon_css(folder) if widgets else ""),
                 "ragspine_nav": nav}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    return str(body)
