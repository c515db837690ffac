"""Evaluation: golden QA gates with a ratchet, extraction accuracy, retrieval metrics."""

from ragspine_nb.eval.baseline import compare_to_baseline, load_baseline, update_baseline
from ragspine_nb.eval.extraction import ExtractionReport, evaluate_extraction
from ragspine_nb.eval.golden import GoldenCase, GoldenSetError, load_golden
from ragspine_nb.eval.qa import GATES, QAReport, run_qa

__all__ = ["GoldenCase", "GoldenSetError", "load_golden", "QAReport", "run_qa", "GATES",
           "compare_to_baseline", "load_baseline", "update_baseline", "ExtractionReport",
           "evaluate_extraction"]
