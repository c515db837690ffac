"""Kill a process re-ingesting a document at K random moments; check what survives.

A child process replaces one document's chunks in a loop (each version has a
known size, 100 + k % 7 rows); the parent SIGKILLs it after a random delay, reopens
the store and checks: ``PRAGMA integrity_check`` is ``ok``; exactly one active
version exists; that version is complete (never a part of it). Seeded; prints the seed.

    .venv/bin/python bench/crash_chunk_store.py [--kills 200] [--seed 20261122]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ragspine_nb import ChunkStore

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import os, sys
from ragspine_nb import ChunkStore, Chunk
store = ChunkStore(sys.argv[1])
os.write(1, b"started\\n")
k = int(sys.argv[2])
while True:
    k += 1
    n = 100 + k % 7
    store.replace_doc_chunks("doc", [
        Chunk(doc_id="doc", chunk_id=f"doc#{k}-{i}", seq=i, text=f"v{k} " + "x" * 300,
              source_locator=f"para={i + 1}") for i in range(n)])
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    path = Path(tempfile.mkdtemp()) / "chunks.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    bad_integrity = bad_active = partial = empty = 0
    versions_seen = 0
    k0 = 0
    t_start = time.perf_counter()
    for _ in range(args.kills):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(k0)],
                                 stdout=subprocess.PIPE, env=env)
        assert child.stdout is not None
        child.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        with ChunkStore(path) as store:
            if store.integrity_check() != "ok":
                bad_integrity += 1
            active = store.iter_chunks(doc_id="doc")
            if not active:
                empty += 1
                continue
            versions = {c.version for c in active}
            tags = {c.text.split()[0] for c in active}
            if len(versions) != 1 or len(tags) != 1:
                bad_active += 1
                continue
            k = int(next(iter(tags))[1:])
            if len(active) != 100 + k % 7:
                partial += 1
            k0 = k
            versions_seen = max(versions)
    elapsed = time.perf_counter() - t_start
    result = {
        "seed": args.seed, "kills": args.kills, "integrity_not_ok": bad_integrity,
        "zero_or_many_active_versions": bad_active, "partial_versions_visible": partial,
        "killed_before_first_commit": empty, "versions_committed": versions_seen,
        "seconds": round(elapsed, 1), "journal_mode": "wal",
    }
    print(f"seed {args.seed}: kills {args.kills}; integrity_check not ok {bad_integrity}; "
          f"docs with 0 or >1 active versions {bad_active}; partial versions visible {partial}; "
          f"versions committed {versions_seen}; {elapsed:.1f} s")
    failed = bad_integrity + bad_active + partial
    print(f"{args.kills - failed} passed, {failed} failed")
    out = Path(__file__).parent / "results" / "crash_chunk_store.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
