"""FactStore against bare sqlite3 on the same schema: bulk upsert and exact lookups.

The peer is the floor: a hand-written ``executemany`` / ``SELECT`` with no validation.
The ratio shows what validation, lineage checks and the typed API cost.

    .venv/bin/python bench/bench_fact_store.py [--n 100000] [--lookups 20000]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from ragspine_nb import Fact, FactStore
from ragspine_nb.stores.fact_schema import FACT_COLUMNS, SCHEMA
from ragspine_nb.stores.facts import _UPSERT


def make_facts(n: int) -> list[Fact]:
    metrics = [f"M{i:03d}" for i in range(50)]
    entities = [f"E{i:03d}" for i in range(20)]
    out = []
    for i in range(n):
        m, e = metrics[i % 50], entities[(i // 50) % 20]
        year = 1900 + i // 1000
        out.append(Fact(m, e, "XX", "TOTAL", "FY", str(year), float(i), "USD_M",
                        f"doc{i % 97}.xlsx", f"sheet=S!C{i % 1000 + 2}",
                        source_file_hash="f" * 64, extractor_version="bench@1",
                        ingested_at="2026-11-22T00:00:00+00:00"))
    return out


def bench(n: int, lookups: int) -> dict[str, float]:
    facts = make_facts(n)
    sample = random.Random(7).sample(facts, lookups)
    keys = [(f.metric_code, f.entity, "FY", f.period) for f in sample]
    tmp = Path(tempfile.mkdtemp())

    store = FactStore(tmp / "ours.sqlite")
    t0 = time.perf_counter()
    store.upsert(facts)
    ours_upsert = time.perf_counter() - t0
    lat = []
    for k in keys:
        t = time.perf_counter()
        store.query(*k)
        lat.append(time.perf_counter() - t)
    ours_p50 = statistics.median(lat)

    conn = sqlite3.connect(tmp / "raw.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.executescript(SCHEMA)
    rows = [tuple(getattr(f, c) for c in FACT_COLUMNS) for f in facts]
    t0 = time.perf_counter()
    conn.execute("BEGIN")
    conn.executemany(_UPSERT, rows)
    conn.execute("COMMIT")
    raw_upsert = time.perf_counter() - t0
    sql = (f"SELECT {', '.join(FACT_COLUMNS)} FROM fact_metric WHERE metric_code = ? "  # noqa: S608
           "AND entity = ? AND channel = 'TOTAL' AND period_type = ? AND period = ?")
    lat = []
    for k in keys:
        t = time.perf_counter()
        conn.execute(sql, k).fetchall()
        lat.append(time.perf_counter() - t)
    raw_p50 = statistics.median(lat)
    return {
        "facts": n, "lookups": lookups,
        "ours_upsert_s": ours_upsert, "raw_upsert_s": raw_upsert,
        "upsert_ratio": ours_upsert / raw_upsert,
        "ours_query_p50_us": ours_p50 * 1e6, "raw_query_p50_us": raw_p50 * 1e6,
        "query_ratio": ours_p50 / raw_p50,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--lookups", type=int, default=20_000)
    args = parser.parse_args()
    r = bench(args.n, args.lookups)
    print(f"upsert {r['facts']:,} facts: FactStore {r['ours_upsert_s']:.2f} s | "
          f"bare sqlite3 {r['raw_upsert_s']:.2f} s | ratio {r['upsert_ratio']:.2f}x")
    print(f"exact lookup p50 over {r['lookups']:,}: FactStore {r['ours_query_p50_us']:.1f} us | "
          f"bare sqlite3 {r['raw_query_p50_us']:.1f} us | ratio {r['query_ratio']:.2f}x")
    out = Path(__file__).parent / "results" / "fact_store.json"
    out.write_text(json.dumps(r, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
