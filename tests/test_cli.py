from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ragspine_nb.cli.commands import DEMO_QUESTIONS, main
from tests.conftest import DEMO, ROOT

PROFILE = str(DEMO / "profile.toml")


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "ragspine_nb.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_ask_on_a_missing_database_exits_2_and_creates_nothing(tmp_path: Path) -> None:
    proc = _run("ask", "What was revenue in FY2024?", "--db", "missing/facts.db",
                "--profile", PROFILE, cwd=tmp_path)
    assert proc.returncode == 2
    assert "not found" in proc.stderr and "nothing was created" in proc.stderr
    assert list(tmp_path.iterdir()) == []
    proc = _run("ask", "revenue FY2024", "--workspace", "ws", "--profile", PROFILE, cwd=tmp_path)
    assert proc.returncode == 2 and "nothing was created" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_demo_rebuilds_from_scratch_and_answers_with_sources(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    for _ in range(2):  # a second run rebuilds from scratch, it does not skip
        assert main(["demo", "--workspace", str(ws)]) == 0
        out = capsys.readouterr().out
        assert "ingested=7, skipped_unchanged=0, failed=0, no_text=0, facts=83, chunks=14" in out
    for q in DEMO_QUESTIONS:
        assert f"Q: {q}" in out
    assert "ACME Hong Kong Revenue, FY2025: 1,405 US$ m" in out
    assert "source: ACME_FY2025_Results.pptx · slide=3,table=1,row=REVENUE,col=FY2025" in out
    assert "[structured · out_of_scope_entity]" in out and "[structured · not_found]" in out
    assert "[structured · ask_first]" in out and "[composite · found]" in out
    assert "Attribution:" in out and "[narrative · narrative]" in out
    assert "CANARY" not in out
    assert "row label 'Embedded value' not in the glossary" in out
    assert (ws / "facts.db").is_file() and (ws / "chunks.db").is_file()


def test_demo_refuses_to_wipe_a_folder_it_did_not_create(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me", encoding="utf-8")
    assert main(["demo", "--workspace", str(tmp_path)]) == 2
    assert (tmp_path / "precious.txt").read_text(encoding="utf-8") == "keep me"


def test_ingest_ask_and_eval_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    out_json = tmp_path / "report.json"
    assert main(["ingest", str(DEMO / "reports"), "--workspace", str(ws), "--profile", PROFILE,
                 "--metadata", str(DEMO / "metadata.toml"), "--json", str(out_json)]) == 0
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["counts"] == {"ingested": 7, "skipped_unchanged": 0, "failed": 0, "no_text": 0}
    assert report["facts"] == 83 and len(report["skipped"]) == 3
    # the search index is made and saved with the batch: a first question loads it
    assert f"search index: {report['chunks']:,} chunks, up to date in" in capsys.readouterr().err
    assert (ws / "chunks.db.bm25").is_file()
    assert main(["ask", "香港2024年营收是多少？", "--workspace", str(ws), "--json",
                 "--reference-date", "2026-03-31"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "found" and "1,320" in answer["answer"]
    assert answer["route"] == "structured" and answer["clarification"] == "none"
    assert answer["sources"] == [{"doc": "ACME_FY2025_Results.pptx",
                                  "locator": "slide=3,table=1,row=REVENUE,col=FY2024"}]
    assert main(["ask", "group revenue FY2024", "--db", str(ws / "facts.db")]) == 0
    assert "4,500" in capsys.readouterr().out
    assert main(["eval", "qa", "--workspace", str(ws)]) == 0
    assert capsys.readouterr().out.strip().endswith("63 passed, 0 failed")


def test_ingest_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(DEMO / "reports" / "ACME_Group_channel_history.csv", src)
    (src / "deck.key").write_bytes(b"\x00\x01")
    # a batch with a failed file still ran: exit 0, the report lists the failure
    assert main(["ingest", str(src), "--workspace", str(tmp_path / "ws"),
                 "--profile", PROFILE]) == 0
    out = capsys.readouterr().out
    assert "failed            deck.key" in out and "unsupported file type '.key'" in out
    assert "ingested          ACME_Group_channel_history.csv  facts=6" in out
    # bad arguments: exit 2 and nothing is written
    assert main(["ingest", str(tmp_path / "nope"), "--workspace", str(tmp_path / "ws2"),
                 "--profile", PROFILE]) == 2
    assert main(["ingest", str(src), "--workspace", str(tmp_path / "ws3"),
                 "--profile", str(tmp_path / "missing.toml")]) == 2
    assert not (tmp_path / "ws2").exists() and not (tmp_path / "ws3").exists()
    # no profile at all is no error: the built-in financial profile (issue 15)
    assert main(["ingest", str(src), "--workspace", str(tmp_path / "ws4")]) == 0


def test_entry_point_is_installed() -> None:
    exe = Path(sys.executable).parent / "ragspine-nb"
    if not exe.exists():
        pytest.skip("console script not installed in this interpreter's environment")
    proc = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    for command in ("demo", "ingest", "ask", "eval"):
        assert command in proc.stdout
