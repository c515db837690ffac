"""BEIR-format datasets (``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv``).

Real data is read from a folder given explicitly or by ``$RAGSPINE_DATA`` (default:
``../shared/datasets`` next to the checkout); it is never copied into the project.
"""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BeirDataset", "load_beir", "data_root", "DATA_ENV"]

DATA_ENV = "RAGSPINE_DATA"


def data_root() -> Path:
    """``$RAGSPINE_DATA`` if set, else ``../shared/datasets`` (from the cwd or the checkout)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[2]
    for candidate in (Path.cwd() / ".." / "shared" / "datasets",
                      checkout.parent / "shared" / "datasets"):
        if candidate.is_dir():
            return candidate.resolve()
    return checkout.parent / "shared" / "datasets"


@dataclass(frozen=True)
class BeirDataset:
    """A retrieval test collection."""

    name: str
    corpus: dict[str, tuple[str, str]]  # doc id → (title, text)
    queries: dict[str, str]             # query id → text (only queries that have qrels)
    qrels: dict[str, dict[str, int]]    # query id → {doc id: relevance}

    def doc_texts(self, with_title: bool = True) -> tuple[list[str], list[str]]:
        """Doc ids and texts (``title + " " + text`` when ``with_title``), in corpus order."""
        ids = list(self.corpus)
        texts = [f"{t} {x}".strip() if with_title else x for t, x in self.corpus.values()]
        return ids, texts

    def __repr__(self) -> str:
        return (f"BeirDataset({self.name!r}, docs={len(self.corpus)}, "
                f"queries={len(self.queries)}, judgements={sum(map(len, self.qrels.values()))})")


def load_beir(path: str | Path, split: str = "test") -> BeirDataset:
    """Load a BEIR folder; queries are restricted to those judged in ``split``.

    Raises
    ------
    FileNotFoundError
        With the folder and the ``RAGSPINE_DATA`` hint when a file is missing.
    """
    folder = Path(path)
    if not folder.is_absolute() and not folder.exists():
        folder = data_root() / folder
    files = {"corpus": folder / "corpus.jsonl", "queries": folder / "queries.jsonl",
             "qrels": folder / "qrels" / f"{split}.tsv"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"BEIR files missing: {missing}. Set ${DATA_ENV} to the folder "
                                "holding the datasets (default ../shared/datasets).")
    corpus: dict[str, tuple[str, str]] = {}
    with files["corpus"].open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                corpus[str(row["_id"])] = (row.get("title") or "", row.get("text") or "")
    qrels: dict[str, dict[str, int]] = {}
    with files["qrels"].open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t")
        for row in reader:
            if not row or row[0] in ("query-id", "query_id"):
                continue
            qid, did, rel = row[0], row[1], int(row[2])
            qrels.setdefault(qid, {})[did] = rel
    queries: dict[str, str] = {}
    with files["queries"].open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                if str(row["_id"]) in qrels:
                    queries[str(row["_id"])] = row["text"]
    return BeirDataset(folder.name, corpus, queries, qrels)
