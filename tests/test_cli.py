from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ragspine_nb.cli import DEMO_QUESTIONS, main
from tests.conftest import DEMO, ROOT


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "ragspine_nb.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_ask_on_a_missing_database_exits_2_and_creates_nothing(tmp_path: Path) -> None:
    proc = _run("ask", "What was revenue in FY2024?", "--db", "missing/facts.sqlite",
                "--profile", str(DEMO / "profile.toml"), cwd=tmp_path)
    assert proc.returncode == 2
    assert "not found" in proc.stderr and "nothing was created" in proc.stderr
    assert list(tmp_path.iterdir()) == []
    proc = _run("ask", "revenue FY2024", "--workspace", "ws", "--profile",
                str(DEMO / "profile.toml"), cwd=tmp_path)
    assert proc.returncode == 2 and "nothing was created" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_demo_builds_a_workspace_and_answers_with_sources(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--workspace", str(tmp_path / "ws")]) == 0
    out = capsys.readouterr().out
    for q in DEMO_QUESTIONS:
        assert f"Q: {q}" in out
    assert "ACME Hong Kong FY2024 REVENUE: 1,320 USD_M" in out
    assert "source: acme_key_metrics.csv · row=6" in out
    assert "[refused]" in out and "[not_found]" in out and "[ask_first]" in out
    assert "skipped row=18: metric 'Operating margin' not in the glossary" in out
    assert (tmp_path / "ws" / "facts.sqlite").is_file()


def test_ingest_ask_and_eval_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    assert main(["ingest", str(DEMO / "facts"), str(DEMO / "narrative"), "--workspace", str(ws),
                 "--profile", str(DEMO / "profile.toml")]) == 0
    capsys.readouterr()
    assert main(["ask", "香港2024年营收是多少？", "--workspace", str(ws), "--json",
                 "--reference-date", "2025-06-30"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "found" and "1,320" in answer["answer"]
    assert answer["sources"] == [{"doc": "acme_key_metrics.csv", "locator": "row=6"}]
    assert main(["ask", "revenue FY2024", "--db", str(ws / "facts.sqlite")]) == 0
    assert "4,500" in capsys.readouterr().out
    assert main(["eval", "--workspace", str(ws)]) == 0
    assert capsys.readouterr().out.strip().endswith("14 passed, 0 failed")


def test_ingest_reports_bad_files_without_aborting(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(DEMO / "facts" / "acme_key_metrics.csv", src)
    (src / "broken.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    (src / "deck.key").write_bytes(b"\x00\x01")
    (src / "empty.md").write_text("\n\n  \n", encoding="utf-8")
    (src / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    code = main(["ingest", str(src), "--workspace", str(tmp_path / "ws"), "--profile",
                 str(DEMO / "profile.toml")])
    out = capsys.readouterr().out
    assert code == 1
    assert "ingested  acme_key_metrics.csv  facts=17" in out
    assert "failed    broken.csv" in out and "missing column(s)" in out
    assert "failed    deck.key" in out and "unsupported file type '.key'" in out
    assert "no_text   empty.md" in out
    assert "failed    latin1.txt" in out


def test_dry_run_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(DEMO / "profile.toml", ws / "profile.toml")
    main(["ingest", str(DEMO / "facts"), "--workspace", str(ws)])
    before = (ws / "facts.sqlite").read_bytes()
    capsys.readouterr()
    assert main(["ingest", str(DEMO / "narrative"), "--workspace", str(ws), "--dry-run"]) == 0
    assert "chunks=4" in capsys.readouterr().out
    from ragspine_nb import ChunkStore
    assert ChunkStore(ws / "chunks.sqlite").count() == 0
    assert (ws / "facts.sqlite").read_bytes() == before
    fresh = tmp_path / "fresh"
    assert main(["ingest", str(DEMO / "facts"), "--workspace", str(fresh), "--dry-run",
                 "--profile", str(DEMO / "profile.toml")]) == 0
    assert not fresh.exists()


def test_entry_point_is_installed() -> None:
    exe = Path(sys.executable).parent / "ragspine-nb"
    if not exe.exists():
        pytest.skip("console script not installed in this interpreter's environment")
    proc = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    for command in ("demo", "ingest", "ask", "eval"):
        assert command in proc.stdout
