"""Batch jobs: the same per-partition functions in-process and on a real local Ray."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragspine_nb.eval.batch import (
    SweepCell,
    best_cell,
    embed_corpus,
    partition,
    run_partitions,
    sweep,
)


def _square(x: int) -> int:
    return x * x


def _beir(folder: Path, n_docs: int = 60) -> Path:
    rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(40)]
    (folder / "qrels").mkdir(parents=True)
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as fh:
        for i in range(n_docs):
            text = " ".join(rng.choice(words, size=int(rng.integers(5, 30))))
            fh.write(json.dumps({"_id": f"d{i}", "title": "", "text": text}) + "\n")
    rows = ["query-id\tcorpus-id\tscore"]
    with (folder / "queries.jsonl").open("w", encoding="utf-8") as fh:
        for q in range(12):
            fh.write(json.dumps({"_id": f"q{q}", "text": " ".join(rng.choice(words, 3))}) + "\n")
            rows.append(f"q{q}\td{int(rng.integers(n_docs))}\t1")
    (folder / "qrels" / "test.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def test_partition_and_local_run() -> None:
    assert partition(list(range(5)), 2) == [[0, 1], [2, 3], [4]]
    with pytest.raises(ValueError, match=">= 1"):
        partition([1], 0)
    assert run_partitions(_square, [1, 2, 3], progress=False) == [1, 4, 9]
    with pytest.raises(ValueError, match="Valid executors"):
        run_partitions(_square, [1], executor="dask")


def test_sweep_grid_is_complete_and_ordered(tmp_path: Path) -> None:
    folder = _beir(tmp_path / "tiny")
    cells = sweep([folder], k1=(0.9, 1.5), b=(0.4, 0.8), rrf_k=(10, 60),
                  vector_weight=(0.0, 1.0),
                  vector_runs={"tiny": {f"q{q}": [f"d{(q * 7 + j) % 60}" for j in range(20)]
                                        for q in range(12)}}, progress=False)
    assert len(cells) == 2 * 2 * 2 * 2 and all(isinstance(c, SweepCell) for c in cells)
    assert [(c.k1, c.b, c.rrf_k, c.vector_weight) for c in cells[:4]] == [
        (0.9, 0.4, 10, 0.0), (0.9, 0.4, 10, 1.0), (0.9, 0.4, 60, 0.0), (0.9, 0.4, 60, 1.0)]
    bm25_only = {(c.k1, c.b): c.ndcg_at_10 for c in cells if c.vector_weight == 0.0}
    assert len(set(bm25_only.values())) > 1  # k1/b really change the ranking
    # every cell is also scored on a fixed tune half and held-out half of the queries;
    # the best setting is picked on the tune half, and its held-out figure is what to quote
    best = best_cell(cells, "tiny")
    assert best.ndcg_tune == max(c.ndcg_tune for c in cells)
    assert all(0.0 <= c.ndcg_heldout <= 1.0 for c in cells)
    with pytest.raises(ValueError, match="no cells"):
        best_cell(cells, "other")


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_and_in_process_agree(ray_local: Any, tmp_path: Path) -> None:
    folder = _beir(tmp_path / "tiny")
    grid: dict[str, Any] = {"k1": (0.9, 1.2, 1.5), "b": (0.5, 0.75), "rrf_k": (60,)}
    local = sweep([folder], **grid, progress=False)
    remote = sweep([folder], **grid, executor="ray", progress=False)
    assert remote == local and len(local) == 6
    texts = [f"report {i} revenue channel {i % 13} 香港 {i % 5}" for i in range(700)]
    a = embed_corpus(texts, "deterministic:32", partition_size=128, progress=False)
    b = embed_corpus(texts, "deterministic:32", partition_size=128, executor="ray",
                     progress=False)
    assert a.shape == (700, 32) and np.array_equal(a, b)
    # any importable function is a task (a test module's own functions are not importable
    # on the workers, so a library function stands in)
    from ragspine_nb.glossary import fold

    assert run_partitions(fold, ["ＦＹ２０２５", " Hong   Kong "], executor="ray",
                          progress=False) == ["fy2025", "hong kong"]
