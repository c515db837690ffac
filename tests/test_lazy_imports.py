"""``import ragspine_nb`` loads no numba, scipy, notebook widgets or model SDKs (issue 38).

They load on first use: numba on the first call of a compiled kernel (every kernel is
then wrapped together, so one that calls another finds its dispatcher), scipy on the
first sparse matrix.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from ragspine_nb.retrieval import compiled

_ROOT = Path(__file__).resolve().parents[1]
_HEAVY = ("numba", "scipy", "ipywidgets", "IPython", "onnxruntime", "anthropic", "openai",
          "torch", "sentence_transformers", "pandas")


def _loaded_after(code: str) -> list[str]:
    script = (f"import sys, json\n{code}\n"
              f"print(json.dumps([m for m in {list(_HEAVY)!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=_ROOT)
    return json.loads(out.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_import_loads_no_heavy_dependency() -> None:
    assert _loaded_after("import ragspine_nb\nfrom ragspine_nb import Agent, NarrativeIndex") == []


def test_first_search_loads_what_it_needs_and_ranks() -> None:
    code = ("from ragspine_nb import ChunkStore, NarrativeIndex\n"
            "from ragspine_nb.core import Chunk\n"
            "s = ChunkStore()\n"
            "s.replace_doc_chunks('a', [Chunk(doc_id='a', chunk_id=f'a#{i}', seq=i, "
            "text=t, source_locator=f'para={i}') for i, t in enumerate(['revenue grew', "
            "'costs fell', 'revenue and costs'])])\n"
            "hits = NarrativeIndex(s).search('revenue', top_k=2)\n"
            "assert {h.chunk.chunk_id for h in hits.hits} == {'a#0', 'a#2'}, hits")
    loaded = _loaded_after(code)
    # a one-shot question pays for neither the compiler nor sparse matrices
    assert "numba" not in loaded and "scipy" not in loaded, loaded


def test_numba_loads_once_the_queries_served_would_have_paid_for_it() -> None:
    from ragspine_nb.retrieval.bm25_kernels import COMPILE_AFTER_QUERIES
    code = ("import os; os.environ.pop('RAGSPINE_NO_NUMBA', None)\n"
            "from ragspine_nb.retrieval.bm25 import BM25Index\n"
            "ix = BM25Index.build(['a', 'b'], ['revenue grew', 'costs fell'])\n"
            f"for _ in range({COMPILE_AFTER_QUERIES} - 1): ix.search_many(['revenue'])\n"
            "import sys; print('before', 'numba' in sys.modules)\n"
            "assert ix.search_many(['revenue', 'costs']) == [[('a', ix.search_many(['revenue'])"
            "[0][0][1])], [('b', ix.search_many(['costs'])[0][0][1])]]\n")
    out = subprocess.run([sys.executable, "-c", code + "print('after', 'numba' in sys.modules)"],
                         capture_output=True, text=True, check=True, cwd=_ROOT).stdout
    assert "before False" in out
    assert f"after {compiled.HAVE_NUMBA}" in out


def test_a_kernel_compiles_on_first_call_with_the_kernels_it_calls() -> None:
    from ragspine_nb.retrieval import bm25_kernels
    # _sift_down calls _worse: the first call compiles both (a kernel calling a kernel)
    hs, ht, hd = np.array([3.0, 1.0]), np.zeros(2, dtype=np.int64), np.array([7, 8])
    bm25_kernels._sift_down(hs, ht, hd, 2, 0)  # the worse entry rises to the root
    assert hs.tolist() == [1.0, 3.0] and hd.tolist() == [8, 7]
    if compiled.HAVE_NUMBA and compiled.numba_enabled():
        import numba
        assert isinstance(bm25_kernels.__dict__["_sift_down"], numba.core.dispatcher.Dispatcher)
        assert isinstance(bm25_kernels.__dict__["_worse"], numba.core.dispatcher.Dispatcher)
        assert isinstance(bm25_kernels.__dict__["_select"], numba.core.dispatcher.Dispatcher)
        assert isinstance(bm25_kernels.__dict__["_select_dense"],
                          numba.core.dispatcher.Dispatcher)
