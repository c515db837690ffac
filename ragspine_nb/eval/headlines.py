"""The evaluation's headline figures for a reader who is not an engineer.

Each figure comes with what it means (:data:`MEASURES`), the data it was measured on (the
demo's fictional company, a public benchmark) and its split; a dataset that is absent
becomes a "not run: … (how to get it)" line (:data:`DATASET_HOWTO`). Notebook 04 shows the
result as a :class:`~ragspine_nb.display.Scorecard`, and ``ragspine-nb report`` puts it on
its summary page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ragspine_nb.display.scorecard import Headline, Scorecard

__all__ = ["BM25_ANCHORS", "DATASET_HOWTO", "MEASURES", "headline_figures",
           "headline_scorecard"]

#: BM25 nDCG@10 a run should reach: the BEIR paper's for SciFact, bm25s on the same data
#: for cmrc2018-chunks.
BM25_ANCHORS: dict[str, float] = {"scifact": 0.665, "cmrc2018-chunks": 0.898}

#: What each headline measure means, in words a reader who is not an engineer follows.
MEASURES: dict[str, str] = {
    "numeric accuracy": "share of questions asking for a number that got exactly the right "
                        "figure and unit",
    "citation validity": "share of answers that cite the document and table cell (or passage) "
                         "the answer really comes from",
    "refusal appropriateness": "share of questions answered or refused as they should be "
                               "(a competitor or a figure the documents lack is refused)",
    "clarification appropriateness": "share of ambiguous questions where the system asked "
                                     "back instead of guessing, and only those",
    "groundedness": "share of text answers whose every sentence is backed by the passages "
                    "they cite",
    "fabrication count": "number of answers that stated a figure where none should be given "
                         "(it must stay 0)",
    "correct": "share of the benchmark's questions answered correctly",
    "wrong number": "share of questions answered with a wrong figure, the worst outcome "
                    "(a question the system declines is not wrong)",
    "text-span recall@3": "share of questions answered from the text whose answering "
                          "paragraph is among the first 3 passages found",
    "nDCG@10": "score of how well the search ranks the relevant documents in its first 10 "
               "results (1 = perfect order)",
}
#: Where a public dataset comes from, for the "not run" line of a reader without it.
DATASET_HOWTO: dict[str, str] = {
    "tatqa": "download tatqa_dataset_dev.json from the TAT-QA repository "
             "(github.com/NExTplusplus/TAT-QA, CC BY 4.0) into $RAGSPINE_DATA/tatqa/",
    "scifact": "download the BEIR SciFact set (scifact.zip from the BEIR benchmark, "
               "CC BY-NC 2.0) and unzip it into $RAGSPINE_DATA/scifact/",
    "cmrc2018-chunks": "build the BEIR-format chunked CMRC 2018 set (corpus.jsonl, "
                       "queries.jsonl, qrels/test.tsv; CMRC 2018 is CC BY-SA 4.0) in "
                       "$RAGSPINE_DATA/cmrc2018-chunks/",
}
_MODES = {"tool": "answered without a language model", "agent": "answered by the agent with "
          "the offline stand-in model"}


def _count(n: Any) -> str:
    """``3,219`` for a count, ``its`` when there is none."""
    return f"{n:,}" if isinstance(n, int) else "its"


def _measure(label: str) -> str:
    """What ``label`` means ("scifact nDCG@10" is an nDCG@10)."""
    return MEASURES.get(label.rsplit(" ", 1)[-1] if label.endswith("nDCG@10") else label, "")


def headline_figures(qa: Mapping[str, Any], baseline: Mapping[str, Any], *, tatqa: Any = None,
                     tatqa_trend: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
                     retrieval: Sequence[Mapping[str, Any]] = ()) -> list[Headline]:
    """The evaluation's headline figures, each against its target, for a :class:`Scorecard`.

    Each carries what it means (:data:`MEASURES`) and the data it was measured on. One
    figure per measure and data: a committed run over the whole TAT-QA split wins over a
    quick run on part of it (the two cover different questions, so their rates differ).

    Parameters
    ----------
    qa : mapping of str to QAReport
        ``{mode: report}``: each gate must stay at or above its baseline rate and the
        fabrication count at or below its baseline (the ratchet).
    baseline : mapping
        The committed baseline (:func:`~ragspine_nb.eval.load_baseline`).
    tatqa : TatqaReport, optional
        A TAT-QA run (often the first contexts only), used when there is no ``tatqa_trend``.
    tatqa_trend : (mapping, mapping), optional
        A committed TAT-QA run and the earlier one it is compared with (JSON dicts).
    retrieval : sequence of mapping
        Rows with ``dataset`` and ``nDCG@10``, compared with :data:`BM25_ANCHORS`.
    """
    from ragspine_nb.eval.qa import GATES
    from ragspine_nb.eval.tatqa.report import TatqaReport

    rows = []
    for mode, report in qa.items():
        base, n = baseline.get(mode, {}), len(report.cases)
        section = f"Answers on the demo's fictional company ACME, {mode} mode"
        data = f"the demo's fictional company ACME ({n} test questions, {_MODES.get(mode, mode)})"
        rows += [Headline(section, g.replace("_", " "), report.gate(g)["rate"],
                          ("≥", base.get(g, 1.0)), base.get(g),
                          meaning=MEASURES[g.replace("_", " ")], data=data) for g in GATES]
        rows.append(Headline(section, "fabrication count", report.fabrication_count,
                             ("≤", base.get("fabrication_count", 0)),
                             base.get("fabrication_count"), digits=0,
                             meaning=MEASURES["fabrication count"], data=data))
    if tatqa_trend is not None:
        now, before = TatqaReport(tatqa_trend[0]), TatqaReport(tatqa_trend[1])
        data = (f"the public benchmark TAT-QA, {now.split_name} split, all "
                f"{now['questions']:,} questions (recorded run; change against the earlier "
                "loader's run)")
        note = (f"the quick re-run on the detailed page covers the first {tatqa['questions']:,} "
                "questions only, so its rate differs" if tatqa is not None else "")
        rows += [Headline(f"Public benchmark TAT-QA, {now.split_name} split", label, value,
                          target, old, meaning=_measure(label), data=data,
                          note=note if label == "correct" else "")
                 for (label, value, target), (_, old, _) in zip(now.checks(), before.checks(),
                                                                strict=False)]
    elif tatqa is not None:
        data = (f"the public benchmark TAT-QA, {tatqa.split_name} split, "
                f"{tatqa['questions']:,} questions (this run)")
        rows += [Headline(f"Public benchmark TAT-QA, {tatqa.split_name} split", label, value,
                          target, meaning=_measure(label), data=data)
                 for label, value, target in tatqa.checks()]
    rows += [Headline("Public benchmarks, search (BM25)", f"{t['dataset']} nDCG@10",
                      float(t["nDCG@10"]), ("≥", BM25_ANCHORS[t["dataset"]]), digits=4,
                      meaning=_measure("nDCG@10"), tolerance=0.0005,
                      data=f"the public benchmark {t['dataset']}, all {_count(t.get('queries'))}"
                           " test queries (target: the published BM25 figure)")
             for t in retrieval if "nDCG@10" in t and t["dataset"] in BM25_ANCHORS]
    return rows


def headline_scorecard(qa: Mapping[str, Any], baseline: Mapping[str, Any], *,
                       tatqa: Any = None,
                       tatqa_trend: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
                       retrieval: Sequence[Mapping[str, Any]] = ()) -> Scorecard:
    """:func:`headline_figures` as a :class:`Scorecard`, with a "not run" line per absent set.

    A TAT-QA run or a retrieval row without ``nDCG@10`` (its dataset was not found) becomes
    "not run: … (how to get it)" instead of a silent gap.
    """
    rows = headline_figures(qa, baseline, tatqa=tatqa, tatqa_trend=tatqa_trend,
                            retrieval=retrieval)
    not_run = []
    if tatqa is None and tatqa_trend is None:
        not_run.append(f"TAT-QA benchmark: its questions were not found ({DATASET_HOWTO['tatqa']})")
    not_run += [f"search on the public benchmark {t['dataset']}: the dataset was not found "
                f"({DATASET_HOWTO.get(t['dataset'], 'put it under $RAGSPINE_DATA')})"
                for t in retrieval if "nDCG@10" not in t]
    return Scorecard("Headline figures", rows, not_run=not_run)
