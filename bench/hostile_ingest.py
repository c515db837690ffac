"""Hostile inputs through ``ragspine-nb ingest``, each in its own capped subprocess.

Every case builds its input in a temporary folder, runs the real CLI
(``python -m ragspine_nb.cli.commands ingest ... --json report.json``) in a child process
with a memory cap (``RLIMIT_AS``), a file-size cap (``RLIMIT_FSIZE``, so a disk
bomb is stopped instead of filling the disk) and a wall-clock limit, and records:
status (exit code, whether the report was written, the per-file statuses), seconds
(the whole process, and the batch time the CLI reports — startup excluded), peak RSS
of that child (``os.wait4``) and the workspace size on disk (WAL included).

    .venv/bin/python bench/hostile_ingest.py [--cases md_1MB,xlsx_corner] \
        [--mem-gb 3] [--fsize-gb 4] [--time-s 120] [--out bench/results/hostile_ingest.json]

Cases: single-line ``.md`` files of 0.5/1/2/4/10 MB (``'bancassurance ' * n``,
the review's reproduction), an ``.xlsx`` with one cell at ``XFD1048576``, a 50 MB
CSV (title, a header of periods, 3M rows of a glossary metric), and a batch of the
corner-cell workbook plus a good ``.md`` (the good file must be ingested and the
report written).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROFILE = ROOT / "ragspine_nb" / "demo" / "profile.toml"
GB = 1 << 30


def _md(mb: float) -> Callable[[Path], list[Path]]:
    def build(folder: Path) -> list[Path]:
        path = folder / f"single_line_{mb}MB.md"
        path.write_text("bancassurance " * int(mb * 75_000) + "\n", encoding="utf-8")
        return [path]
    return build


def _corner_xlsx(folder: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "ACME Hong Kong (US$m)"
    ws["XFD1048576"] = "x"
    path = folder / "corner.xlsx"
    wb.save(path)
    return path


def _csv_50mb(folder: Path) -> list[Path]:
    path = folder / "big_50MB.csv"
    row = "Revenue,1,2,3\n"
    with path.open("w", encoding="utf-8") as fh:
        fh.write("ACME Hong Kong (US$m),,,\nMetric,FY2023,FY2024,FY2025\n")
        block = row * 10_000
        for _ in range(50 * (1 << 20) // len(block)):
            fh.write(block)
    return [path]


def _batch(folder: Path) -> list[Path]:
    batch = folder / "batch"
    batch.mkdir()
    _corner_xlsx(batch)
    (batch / "good.md").write_text("# Good\n\nBancassurance sales rose in FY2025.\n", "utf-8")
    return [batch]


CASES: dict[str, Callable[[Path], list[Path]]] = {
    "md_0.5MB": _md(0.5), "md_1MB": _md(1), "md_2MB": _md(2), "md_4MB": _md(4),
    "md_10MB": _md(10), "xlsx_corner": lambda f: [_corner_xlsx(f)], "csv_50MB": _csv_50mb,
    "batch_corner+good": _batch,
}


def _limits(mem: int, fsize: int) -> Callable[[], None]:
    def apply() -> None:
        os.setsid()
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return apply


def _drain(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """Read both pipes to the end without blocking on either (the child may write a lot)."""
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else ""))
    reader.start()
    err = proc.stderr.read() if proc.stderr else ""
    reader.join()
    return (out[0] if out else ""), err


def _ingest_seconds(stdout: str) -> float | None:
    """The batch time the CLI prints last (``IngestReport(...) in 1.23 s``), if any."""
    m = re.search(r" in ([0-9.]+) s\s*$", stdout)
    return float(m.group(1)) if m else None


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def _status(code: int, killed: str, report: Path, stderr: str) -> str:
    if killed:
        return killed
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    if not report.is_file():
        last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
        return f"exit {code}, no report ({last[:80]})"
    counts = json.loads(report.read_text("utf-8"))["counts"]
    return f"exit {code}, " + " ".join(f"{k}={v}" for k, v in counts.items() if v)


def run_case(name: str, mem: int, fsize: int, time_s: float) -> dict[str, object]:
    tmp = Path(tempfile.mkdtemp(prefix="hostile_"))
    try:
        inputs = CASES[name](tmp)
        in_bytes = sum(_size(p) if p.is_dir() else p.stat().st_size for p in inputs)
        ws, report = tmp / "ws", tmp / "report.json"
        cmd = [sys.executable, "-m", "ragspine_nb.cli.commands", "ingest", *map(str, inputs),
               "--workspace", str(ws), "--profile", str(PROFILE), "--json", str(report)]
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=_limits(mem, fsize))
        killed = ""

        def kill() -> None:
            nonlocal killed
            killed = f"killed after {time_s:.0f} s"
            os.killpg(proc.pid, signal.SIGKILL)

        timer = threading.Timer(time_s, kill)
        timer.start()
        stdout, stderr = _drain(proc)
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        seconds = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        return {"case": name, "input_bytes": in_bytes,
                "status": _status(code, killed, report, stderr), "seconds": round(seconds, 2),
                "ingest_s": _ingest_seconds(stdout),
                "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
                "db_bytes": _size(ws), "stderr_tail": _no_paths(stderr.strip()[-300:])}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _no_paths(text: str) -> str:
    """A traceback without this machine's folders (results are committed)."""
    return re.sub(r'(?:/[\w.+-]+)+/(?=[\w.-]+\.py")', "…/", text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--mem-gb", type=float, default=3.0)
    parser.add_argument("--fsize-gb", type=float, default=4.0)
    parser.add_argument("--time-s", type=float, default=120.0)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "hostile_ingest.json"))
    args = parser.parse_args()
    names = [c for c in args.cases.split(",") if c]
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        parser.error(f"unknown case(s) {unknown}; valid: {list(CASES)}")
    rows = []
    print(f"{'input':<18} {'in MB':>7} {'seconds':>8} {'ingest s':>8} {'peak RSS MB':>11} "
          f"{'db MB':>9}  status")
    for name in names:
        r = run_case(name, int(args.mem_gb * GB), int(args.fsize_gb * GB), args.time_s)
        rows.append(r)
        ingest_s = "-" if r["ingest_s"] is None else f"{r['ingest_s']:.2f}"
        print(f"{name:<18} {int(r['input_bytes']) / 2**20:>7.2f} {r['seconds']:>8.2f} "  # type: ignore[call-overload]
              f"{ingest_s:>8} {r['peak_rss_mb']:>11.1f} {int(r['db_bytes']) / 2**20:>9.1f}  "  # type: ignore[call-overload]
              f"{r['status']}", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({
        "mem_cap_gb": args.mem_gb, "fsize_cap_gb": args.fsize_gb, "time_limit_s": args.time_s,
        "cases": rows}, indent=1), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
