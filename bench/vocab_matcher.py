"""The vocabulary matcher against one regex per term, on a real workspace (issue 38).

    .venv/bin/python bench/vocab_matcher.py WORKSPACE [--texts N]

Reads the workspace's effective profile (its documents' vocabulary merged), then for
its metric, entity and channel vocabularies: the CPU time (``time.process_time``) to
build one compiled pattern per term (the matcher issue 38 replaced, copied here) and to
build the :class:`~ragspine_nb.vocab_matcher.VocabMatcher`; the CPU time to read
``--texts`` of its chunks (folded) and the FinanceBench and demo questions with each;
and whether every match is identical (it exits 1 if one is not). The 1-minute load
average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import sys
import time
from pathlib import Path

from ragspine_nb.glossary import channel_vocabulary, entity_vocabulary, fold, metric_vocabulary
from ragspine_nb.vocab_matcher import VocabMatcher

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agent_startup import _questions  # noqa: E402


def _old_compile(vocab: dict[str, str]) -> list[tuple[re.Pattern[str], str, str]]:
    out = []
    for term in sorted(vocab, key=lambda t: (-len(t), t)):
        body = re.escape(term)
        pattern = (rf"(?<![a-z0-9])(?<![a-z0-9]-){body}(?![a-z0-9])(?!-[a-z0-9])"
                   if term.isascii() else body)
        out.append((re.compile(pattern), vocab[term], term))
    return out


def _old_find_all(text: str, terms: list[tuple[re.Pattern[str], str, str]]
                  ) -> list[tuple[int, int, str, str]]:
    found: list[tuple[int, int, str, str]] = []
    taken = [False] * len(text)
    for pattern, code, term in terms:
        if term not in text:
            continue
        for m in pattern.finditer(text):
            if not any(taken[m.start():m.end()]):
                taken[m.start():m.end()] = [True] * (m.end() - m.start())
                found.append((m.start(), m.end(), code, term))
    return sorted(found)


def _texts(workspace: Path, n: int) -> list[str]:
    con = sqlite3.connect(f"file:{workspace / 'chunks.db'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT text FROM narrative_chunk WHERE active = 1 "
                           "ORDER BY rowid").fetchall()
    finally:
        con.close()
    step = max(1, len(rows) // n)
    return [fold(r[0]) for r in rows[::step][:n]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--texts", type=int, default=2000)
    args = ap.parse_args(argv)
    re.purge()
    from ragspine_nb.ingestion.workspace import Workspace
    profile = Workspace(args.workspace).effective_profile()
    texts = _texts(args.workspace, args.texts) + [fold(q) for q in _questions(10_000)]
    report: dict[str, object] = {"load_1min": os.getloadavg()[0], "texts": len(texts)}
    same = True
    for name, vocab in (("metrics", metric_vocabulary(profile)),
                        ("entities", entity_vocabulary(profile)),
                        ("channels", channel_vocabulary(profile))):
        t0 = time.process_time()
        old = _old_compile(vocab)
        t_old = time.process_time() - t0
        t0 = time.process_time()
        new = VocabMatcher(vocab)
        t_new = time.process_time() - t0
        old_times, new_times, matches = [], [], 0
        for text in texts:
            t0 = time.process_time()
            expected = _old_find_all(text, old)
            old_times.append(time.process_time() - t0)
            t0 = time.process_time()
            got = new.find_all(text)
            new_times.append(time.process_time() - t0)
            matches += len(expected)
            if got != expected:
                same = False
                print(f"DIFFERENT ({name}): {text[:120]!r}\n  old {expected}\n  new {got}")
        report[name] = {"terms": len(vocab), "build_regex_cpu_s": round(t_old, 3),
                        "build_matcher_cpu_s": round(t_new, 4), "matches": matches,
                        "read_regex_ms_p50": round(1000 * statistics.median(old_times), 3),
                        "read_matcher_ms_p50": round(1000 * statistics.median(new_times), 3),
                        "read_regex_total_s": round(sum(old_times), 2),
                        "read_matcher_total_s": round(sum(new_times), 2)}
        re.purge()
    report["identical"] = same
    print(json.dumps(report, indent=1))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
