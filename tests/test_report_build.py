"""``ragspine-nb report``: which notebooks it runs, and what it says when the renderer is missing.

The full run from a wheel, offline and without npm, is in tests/test_wheel.py; the pages in
a browser in tests/browser/test_report_offline.py.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from ragspine_nb.cli.commands import main
from ragspine_nb.cli.notebooks import copy_notebooks
from ragspine_nb.errors import RagspineError
from ragspine_nb.report import export as notebook_export
from ragspine_nb.report.assets import (
    FONT,
    NOTICE,
    RENDERER,
    VendorError,
    pack_assets,
    packaged_assets,
)
from ragspine_nb.report.export import NOTEBOOKS, find_notebooks, report_assets


def test_the_folder_ragspine_nb_notebooks_wrote_is_found_from_inside_it(tmp_path: Path) -> None:
    copy_notebooks(tmp_path / "nbs")
    (tmp_path / "nbs" / "deeper").mkdir()
    for here in (tmp_path / "nbs", tmp_path / "nbs" / "deeper"):
        assert find_notebooks((), here) == [tmp_path / "nbs" / n for n in NOTEBOOKS]


def test_no_notebooks_here_means_the_shipped_copies(tmp_path: Path) -> None:
    assert find_notebooks((), tmp_path) == []  # build_report then runs the package's copies


def test_a_folder_given_stands_for_its_notebooks(tmp_path: Path) -> None:
    copy_notebooks(tmp_path / "nbs")
    assert find_notebooks([tmp_path / "nbs"]) == [tmp_path / "nbs" / n for n in NOTEBOOKS]
    one = tmp_path / "nbs" / NOTEBOOKS[2]
    assert find_notebooks([one]) == [one]


def test_a_wrong_path_or_an_empty_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(RagspineError, match="no such notebook or folder"):
        find_notebooks([tmp_path / "missing.ipynb"])
    with pytest.raises(RagspineError, match=r"holds no notebook \(\*\.ipynb\)"):
        find_notebooks([tmp_path])


def test_the_shipped_copies_run_in_a_temporary_folder(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[Path] = []

    def fake_execute(read, timeout, progress):  # type: ignore[no-untyped-def]
        ran.extend(p for p, _ in read)
        assert all((p.parent / ".ragspine_notebooks").is_file() for p, _ in read)
        return [(f"{p.stem}.html", nb) for p, nb in read]

    monkeypatch.setattr(notebook_export, "_execute_all", fake_execute)
    monkeypatch.setattr(notebook_export, "_export", lambda *a: "<html></html>")
    # the renderer is another test's matter: this one needs no build/vendor fetched before it
    monkeypatch.setattr(notebook_export, "report_assets", lambda vendor=None: tmp_path)
    monkeypatch.chdir(tmp_path)
    pages = notebook_export.build_report(out_dir=tmp_path / "out", progress=False)
    assert [p.name for p in ran] == list(NOTEBOOKS)
    assert not any(p.exists() for p in ran)  # the temporary folder is gone
    assert [p.name for p in pages] == ["index.html", *(n.replace(".ipynb", ".html")
                                                       for n in NOTEBOOKS)]


def test_a_missing_renderer_is_named_before_anything_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(notebook_export, "packaged_assets", lambda: None)
    monkeypatch.setattr(notebook_export, "ROOT", tmp_path)  # no checkout with build/vendor
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "widget renderer is missing" in err and RENDERER in err and "--vendor DIR" in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def test_packing_is_reproducible_and_names_the_licences(tmp_path: Path) -> None:
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    for name, data in (("require.js", b"var requirejs;"), ("embed-amd.js", b"define();"),
                       (FONT, b"wOF2")):
        (vendor / name).write_bytes(data)
    first = [p.read_bytes() for p in pack_assets(vendor, tmp_path / "a")]
    assert first == [p.read_bytes() for p in pack_assets(vendor, tmp_path / "b")]
    assert gzip.decompress(first[0]) == b"var requirejs;\n;\ndefine();"
    assert packaged_assets(tmp_path / "a") == tmp_path / "a"
    assert "BSD-3-Clause" in (tmp_path / "a" / NOTICE).read_text(encoding="utf-8")
    assert report_assets(vendor) == vendor / "packed"  # a vendor folder given: packed there
    (vendor / "require.js").unlink()
    with pytest.raises(VendorError, match="require.js missing"):
        pack_assets(vendor, tmp_path / "c")
