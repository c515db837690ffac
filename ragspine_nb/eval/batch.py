"""Batch jobs as plain per-partition functions: in-process by default, or on Ray.

:func:`run_partitions` maps a top-level function over partitions, either here (the
default) or as Ray tasks (``ray.init()`` locally, or an existing cluster ``address``);
results come back in partition order, so a deterministic function gives identical
results either way. Two jobs use it:

* :func:`embed_corpus` — embed a large corpus partition by partition (each worker builds
  the backend from its spec, e.g. ``"e5"``);
* :func:`sweep` — evaluation grids of BM25 ``k1``/``b`` and RRF ``k``/fusion weights
  across BEIR-format datasets; one partition per (dataset, ``k1``, ``b``) so the BM25
  index is built once per partition and every RRF setting reuses its runs. Every cell
  also carries its nDCG@10 on a fixed tune half and held-out half of the queries;
  :func:`best_cell` picks on the tune half, and the held-out figure is the one to quote.

Progress shows with ``tqdm.auto`` in both modes. Ray is in the ``team`` extra.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ragspine_nb._optional import import_optional

__all__ = ["run_partitions", "partition", "embed_corpus", "sweep", "SweepCell", "best_cell",
           "EXECUTORS"]

EXECUTORS = ("local", "ray")
T = TypeVar("T")
R = TypeVar("R")


def partition(items: Sequence[T], size: int) -> list[list[T]]:
    """Consecutive slices of at most ``size`` items (the last may be shorter)."""
    if size < 1:
        raise ValueError(f"partition size must be >= 1, got {size}")
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def run_partitions(func: Callable[[T], R], partitions: Sequence[T], *,
                   executor: str = "local", address: str | None = None,
                   num_cpus: int | None = None, progress: bool = True,
                   desc: str = "partitions") -> list[R]:
    """``[func(p) for p in partitions]``, here or on Ray, in partition order.

    Parameters
    ----------
    func : callable
        A top-level (picklable) function of one partition.
    partitions : sequence
        The work, one item per task.
    executor : {"local", "ray"}, default "local"
        Where to run.
    address : str, optional
        A Ray cluster to join (``"ray://host:10001"`` or ``"auto"``); default: start a
        local Ray with ``num_cpus``.
    num_cpus : int, optional
        CPUs of a local Ray (default: all).
    progress : bool, default True
        A ``tqdm.auto`` bar over finished partitions.
    """
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}. Valid executors: {list(EXECUTORS)}")
    from tqdm.auto import tqdm

    bar = tqdm(total=len(partitions), desc=desc, disable=not progress)
    if executor == "local":
        out = []
        for p in partitions:
            out.append(func(p))
            bar.update(1)
        bar.close()
        return out
    ray = import_optional("ray", extra="team", feature="Ray batch jobs")
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else num_cpus,
                 include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    task = ray.remote(func)
    futures = [task.remote(p) for p in partitions]
    pending = list(futures)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        bar.update(len(done))
    bar.close()
    return list(ray.get(futures))


# ---------------------------------------------------------------------------- embedding
def _embed_part(args: tuple[str, list[str]]) -> np.ndarray:
    from ragspine_nb.retrieval.embedders import make_embedding_backend, unit_rows

    spec, texts = args
    backend = make_embedding_backend(spec)
    if backend is None:
        raise ValueError("embed_corpus needs an embedding backend spec, e.g. 'e5'")
    return unit_rows(backend.embed_texts(list(texts)))  # passages, as CachedEmbedder does


def embed_corpus(texts: Sequence[str], spec: str, *, partition_size: int = 256,
                 executor: str = "local", **kwargs: Any) -> np.ndarray:
    """Passage vectors of ``texts`` (rows in order), computed partition by partition."""
    parts = [(spec, p) for p in partition(list(texts), partition_size)]
    blocks = run_partitions(_embed_part, parts, executor=executor, desc="embed", **kwargs)
    return np.vstack(blocks) if blocks else np.zeros((0, 0), dtype=np.float32)


# ---------------------------------------------------------------------------- sweeps
@dataclass(frozen=True)
class SweepCell:
    """One evaluated setting."""

    dataset: str
    k1: float
    b: float
    rrf_k: float
    vector_weight: float
    ndcg_at_10: float
    recall_at_100: float
    #: nDCG@10 on the tune half and the held-out half of the queries (a fixed split), so
    #: a setting picked on ``ndcg_tune`` is judged on ``ndcg_heldout``
    ndcg_tune: float = 0.0
    ndcg_heldout: float = 0.0


def best_cell(cells: Sequence[SweepCell], dataset: str) -> SweepCell:
    """The cell with the best *tune* nDCG@10 (report its ``ndcg_heldout``, not the tune)."""
    mine = [c for c in cells if c.dataset == dataset]
    if not mine:
        raise ValueError(f"no cells for {dataset!r}")
    return max(mine, key=lambda c: (c.ndcg_tune, -c.k1, -c.b))


def _folds(qids: list[str], seed: int = 20261122) -> tuple[list[str], list[str]]:
    """A fixed half / half split of the queries (scikit-learn's ``train_test_split``)."""
    if len(qids) < 2:
        return list(qids), []
    selection = import_optional("sklearn.model_selection", extra="notebook",
                                feature="tune / held-out folds of a sweep")
    tune, held = selection.train_test_split(qids, test_size=0.5, random_state=seed)
    return list(tune), list(held)


def _sweep_part(args: tuple[str, int, float, float, list[tuple[float, float]],
                            dict[str, list[str]] | None]) -> list[SweepCell]:
    from ragspine_nb.extract.beir import load_beir
    from ragspine_nb.retrieval.bm25 import BM25Index
    from ragspine_nb.retrieval.fusion import rrf_fuse
    from ragspine_nb.retrieval.metrics import evaluate_run

    folder, sample, k1, b, fusion, vector_run = args
    ds = load_beir(folder)
    qids = list(ds.queries)[:sample] if sample else list(ds.queries)
    ids, texts = ds.doc_texts()
    bm = BM25Index.build(ids, texts)
    ranked = bm.search_many([ds.queries[q] for q in qids], 100, k1=k1, b=b)
    bm_run = {q: [d for d, _ in r] for q, r in zip(qids, ranked, strict=True)}
    qrels = {q: ds.qrels[q] for q in qids}
    name = Path(folder).name
    tune, held = _folds(qids)
    out = []
    for rrf_k, weight in fusion:
        if vector_run is None or weight == 0:
            run = bm_run
        else:
            k = int(rrf_k) if float(rrf_k).is_integer() else rrf_k
            run = {q: [d for d, _ in rrf_fuse([bm_run[q], vector_run[q]], k=k,  # type: ignore[arg-type]
                                              weights=[1.0, weight])][:100] for q in qids}
        s = evaluate_run(run, qrels)
        parts = [round(evaluate_run({q: run[q] for q in fold}, {q: qrels[q] for q in fold}
                                    ).ndcg, 6) if fold else 0.0 for fold in (tune, held)]
        out.append(SweepCell(name, k1, b, rrf_k, weight, round(s.ndcg, 6),
                             round(s.recall, 6), parts[0], parts[1]))
    return out


def sweep(datasets: Sequence[str | Path], *, k1: Sequence[float] = (0.9, 1.2, 1.5),
          b: Sequence[float] = (0.5, 0.75, 0.9), rrf_k: Sequence[float] = (60,),
          vector_weight: Sequence[float] = (0.0,), sample: int = 0,
          vector_runs: Mapping[str, dict[str, list[str]]] | None = None,
          executor: str = "local", **kwargs: Any) -> list[SweepCell]:
    """Every (dataset, k1, b, rrf_k, vector weight) cell, in a stable order.

    ``vector_runs`` maps a dataset folder name to its fixed dense run ``{qid: [doc ids]}``
    (fused with RRF for weights > 0); weight 0 is BM25 alone.
    """
    fusion = list(itertools.product(rrf_k, vector_weight))
    parts = []
    for folder in datasets:
        vec = (vector_runs or {}).get(Path(folder).name)
        for k1_, b_ in itertools.product(k1, b):
            parts.append((str(folder), sample, float(k1_), float(b_), fusion, vec))
    cells = run_partitions(_sweep_part, parts, executor=executor, desc="sweep", **kwargs)
    return [c for part in cells for c in part]
