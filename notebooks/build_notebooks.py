"""Write the notebooks from their cell lists (then execute them to store outputs).

The cells of 01 and 02 are in ``cells_early.py``, those of 03 and 04 below; the setup
cell and the cell constructors in ``cells_common.py``.

    .venv/bin/python notebooks/build_notebooks.py            # write .ipynb files
    .venv/bin/python notebooks/build_notebooks.py --execute  # and run them in place
    .venv/bin/python notebooks/build_notebooks.py 03_agent.ipynb --execute  # only these

Cells tagged ``nbval-ignore-output`` hold widgets, timings or model downloads; every
other output is compared by ``pytest --nbval`` with ``.ci/nbval-sanitize.cfg``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import nbformat as nbf
from cells_common import IGNORE, SETUP, code, md
from cells_early import EARLY

HERE = Path(__file__).resolve().parent

NOTEBOOKS: dict[str, list[nbf.NotebookNode]] = {
    **EARLY,
    "03_agent.ipynb": [
        md("# 03 · The agent: numbers from the fact store, reasons from cited passages\n\n"
           "Structured questions are answered from the fact store (never from a model); "
           "narrative questions from retrieved, cited passages; composite questions get both. "
           "Questions about competitors are refused before anything runs. The provider is the "
           "offline `MockProvider`."),
        code(SETUP + '''
from ragspine_nb import Agent
from ragspine_nb.cli.commands import build_demo

ws = Path("build/notebooks/ws03")
build_demo(ws)
agent = Agent.from_workspace(ws)   # facts.db, chunks.db and the workspace's profile
agent'''),
        md("## Ask from the widget\nType a question and press **Ask**; narrowing options are "
           "buttons that re-ask."),
        code('''w = agent.widget(reference_date=REF)
w.ask("What was ACME Hong Kong's revenue in FY2025?")
w''', IGNORE),
        md("## Structured: the number and its exact source"),
        code('''agent.ask("What was ACME Hong Kong's revenue in FY2025?", REF)'''),
        code('''print(agent.ask("集团2025年上半年营收多少？", REF).answer)'''),
        md("## Comparison: deterministic sub-tasks, no model call"),
        code('''print(agent.ask("香港2024年和2025年的营业收入对比", REF).answer)'''),
        md("## What an answer asserts: its figures\nEvery number an answer states is a "
           "`Figure` in `r.figures` (value, unit, label, operation, operands, sources, "
           "derivation), and the answer text is rendered from them. A change is computed over "
           "two cited cells and shows its derivation; when an operand is missing, the answer "
           "asserts no figure and lists the input it found."),
        code('''import pandas as pd

r = agent.ask("What was the percentage change in ACME Hong Kong revenue in FY2025?",
              REF)
print(r.answer)
pd.DataFrame([f.to_dict() for f in r.figures])[["label", "value", "unit", "operation",
                                                "derivation"]]'''),
        code('''r = agent.ask("What was the change in ACME Hong Kong revenue between FY2024 and "
              "FY2030?", REF)
print(r.answer)
print("Figures asserted:", len(r.figures) or "none")'''),
        md("## Narrative and composite"),
        code('''print(agent.ask("What happened to bancassurance sales in Mainland China?", REF).answer)'''),
        code('''print(agent.ask("Why did Mainland China revenue fall in FY2025?", REF).answer)'''),
        md("## Clarification: ask back, or state the assumption"),
        code('''r = agent.ask("How much was it in FY2025 for ACME Hong Kong?", REF)
print(f"clarification: {r.clarification.mode}\\n{r.answer}")'''),
        code('''r = agent.ask("What was operating profit?", REF)
print(f"clarification: {r.clarification.mode}\\n{r.answer}")'''),
        md("## A miss is an honest refusal"),
        code('''print(agent.ask("香港银保渠道2025年新单保费是多少？", REF).answer)'''),
        md("## Competitors are refused, whatever the spelling"),
        code('''for q in ["竞安2025年的营收是多少？", "競\\u200b安證券的ROE", "ＲＩＶＡＬＩＳ revenue FY2025"]:
    r = agent.ask(q, REF)
    print(f"{r.clarification.mode}: {r.answer}")'''),
        md("## Chat: follow-ups in a conversation that survives a restart\n"
           "Messages are stored in `conversations.db` beside the workspace. The last five "
           "messages are context for writing the answer only: the security gate, the fact "
           "lookups and retrieval see the new question alone."),
        code('''chat = agent.chat(ws / "conversations.db", conversation_id="notebook-03")
cw = chat.widget(reference_date=REF)
cw''', IGNORE),
        code('''r = chat.ask("Why did Hong Kong agency sales change?", REF)
pd.DataFrame([{k.replace("_", " "): r.retrieval[k]
               for k in ("queries_generated", "evidence_used", "retrieval_loops")}])'''),
        code('''pd.DataFrame(r.citations)[["index", "kind", "doc_id", "locator"]]'''),
    ],
    "04_eval_dashboard.ipynb": [
        md("# 04 · Evaluation dashboard\n\nWhat a stakeholder needs to trust the numbers: "
           "the demo golden set answered by the agent, extraction accuracy against the ground "
           "truth, and retrieval quality on public data (when `$RAGSPINE_DATA` is present). "
           "The last section puts the headline figures against their targets."),
        code(SETUP + '''
import json
import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
from ragspine_nb import Agent
from ragspine_nb.cli.commands import build_demo

build_demo("build/notebooks/ws04")
agent = Agent.from_workspace("build/notebooks/ws04")'''),
        md("## QA gates on the demo golden set (63 cases, both languages)\nGates are reported "
           "separately and never merged; the fabrication count must stay 0. `tool` mode uses no "
           "LLM at all; `agent` mode uses the MockProvider with the real retriever."),
        code('''from ragspine_nb.eval import compare_to_baseline, load_baseline, load_golden, run_qa

cases = load_golden(demo / "golden.jsonl")
reports = {mode: run_qa(cases, agent, mode) for mode in ("tool", "agent")}
reports["tool"]'''),
        code('''gates = pd.DataFrame({f"{mode} mode": {g.replace("_", " "): v["rate"]
                                        for g, v in r.to_dict().items() if isinstance(v, dict)}
                      for mode, r in reports.items()}).rename_axis("gate (pass rate, 0–1)")
gates'''),
        code('''pd.DataFrame(reports["agent"].by_tag("lang")).T'''),
        md("## Against the committed baseline (the ratchet)"),
        code('''baseline = load_baseline(demo / "qa_baseline.json")
pd.DataFrame([{"mode": mode, "regressions": "; ".join(worse) or "none",
               "improvements": "; ".join(better) or "none"}
              for mode, (worse, better) in ((m, compare_to_baseline(r, baseline))
                                            for m, r in reports.items())]).set_index("mode")'''),
        code('''ax = gates.plot.bar(figsize=(7, 3), ylim=(0, 1.05), rot=20, title="QA gates by mode")
ax.set(xlabel="", ylabel="pass rate (0–1)")
ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
plt.tight_layout()''', IGNORE),
        md("## Extraction accuracy against the ground truth"),
        code('''truth = json.loads((demo / "ground_truth.json").read_text(encoding="utf-8"))["facts"]
stored = {(f.source_doc_id, f.source_locator): f for f in agent.store.iter_facts()}
acc = []
for t in truth:
    f = stored.get((t["source"]["doc"], t["source"]["locator"]))
    acc.append({"doc": t["source"]["doc"], "cell found": f is not None,
                "value": f is not None and f.value == t["value"],
                "unit": f is not None and f.unit == t["unit"],
                "attribution": f is not None and (f.metric_code, f.entity, f.channel, f.period)
                == (t["metric_code"], t["entity"], t["channel"], t["period"])})
pd.DataFrame(acc).groupby("doc").mean().round(3).add_suffix(" (share of cells)")'''),
        md("## Table + text QA on TAT-QA (real annual reports, CC BY 4.0)\nEvery question "
           "goes through the product's own path: each context's table is written as "
           "`table.csv` and its paragraphs as `notes.md`, ingested into a fresh workspace with "
           "no profile, and asked to that workspace's agent. Each answer is scored from the "
           "numbers it asserts (its headline figures): correct, **wrong number** (the worst "
           "outcome), abstained (ask-back, refusal, nothing found), a figure on a text "
           "question, or the text answer found. Rates are over all questions. Here the first "
           "50 contexts; `ragspine-nb eval tatqa SPLIT.json` runs a whole split."),
        code('''from ragspine_nb.eval.tatqa.evaluate import evaluate_tatqa
from ragspine_nb.extract.beir import data_root

tatqa_path = data_root() / "tatqa" / "tatqa_dataset_dev.json"
tatqa = (evaluate_tatqa(tatqa_path, limit=50, workers=2) if tatqa_path.is_file()
         else "not available: set RAGSPINE_DATA")
tatqa''', IGNORE),
        code('''if not isinstance(tatqa, str):
    tatqa.plot()
    plt.tight_layout()''', IGNORE),
        code('''tatqa.breakdown("answer_from") if not isinstance(tatqa, str) else tatqa''', IGNORE),
        md("The whole dev split (all 1,668 questions), as `bench/tatqa_eval.py` recorded it "
           "(`bench/results/tatqa_dev.json`): the earlier TAT-QA-only loader, then the "
           "product's own path as it improved, scored the same way. The quick run above "
           "covers only the first 50 contexts, so its rates differ from the whole split's:"),
        code('''runs = json.loads(Path("bench/results/tatqa_dev.json").read_text(encoding="utf-8"))
names = {"before_legacy_loader": "earlier loader", "before_real_path": "product path, first",
         "after_phase1": "product path, phase 1", "after": "product path, recorded"}
pd.DataFrame({names.get(label, label): {**r["categories"], "questions": r["questions"]}
              for label, r in runs.items()})''', IGNORE),
        md("## Retrieval on public data (BM25, CJK tokenizer)"),
        code('''from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index, evaluate_run

table = []
for name in ["scifact", "cmrc2018-chunks"]:
    if not (data_root() / name / "corpus.jsonl").is_file():
        table.append({"dataset": name, "note": "not available: set RAGSPINE_DATA"})
        continue
    ds = load_beir(data_root() / name)
    ids, texts = ds.doc_texts()
    idx = BM25Index.build(ids, texts)
    qids = list(ds.queries)
    runs = {q: [d for d, _ in r] for q, r in zip(qids, idx.search_many([ds.queries[q] for q in qids], 100))}
    s = evaluate_run(runs, ds.qrels)
    table.append({"dataset": name, "queries": len(qids), "nDCG@10": round(s.ndcg, 4),
                  "Recall@100": round(s.recall, 4), "MRR": round(s.mrr, 4)})
pd.DataFrame(table)'''),
        md("## Headline figures against their targets\nEach figure says what it measures "
           "and on which data: the demo's fictional company ACME, or a public benchmark. QA "
           "gates may not drop below the committed baseline and fabrication must stay at 0; "
           "TAT-QA is held to at least half correct and at most 1% wrong numbers, on the whole "
           "dev split as recorded by `bench/tatqa_eval.py`; BM25 should match the published "
           "BM25 figures (SciFact: the BEIR paper, 0.665; cmrc2018-chunks: bm25s on the same "
           "data, 0.898). A dataset that is missing is listed as *not run*. "
           "`ragspine-nb report` shows this card first, on its summary page."),
        code('''from ragspine_nb.eval.headlines import headline_scorecard

dev = json.loads(Path("bench/results/tatqa_dev.json").read_text(encoding="utf-8"))
headline_scorecard(reports, baseline, tatqa=None if isinstance(tatqa, str) else tatqa,
                   tatqa_trend=(dev["after"], dev["before_legacy_loader"]), retrieval=table)''',
             IGNORE),
    ],
}


def build(execute: bool, names: list[str] | None = None) -> None:
    """Write the notebooks ``names`` (all by default), executing them when ``execute``."""
    unknown = sorted(set(names or ()) - set(NOTEBOOKS))
    if unknown:
        raise SystemExit(f"unknown notebooks {unknown}. Valid: {sorted(NOTEBOOKS)}")
    for name, cells in NOTEBOOKS.items():
        if names and name not in names:
            continue  # the others keep their stored outputs
        nb = nbf.v4.new_notebook()
        nb.cells = cells
        for i, cell in enumerate(cells):  # stable ids: a rebuild changes no cell's identity
            cell.id = f"{name[:2]}-{i:02d}"
        # what the kernel itself declares: JupyterLab writes the kernelspec it connects to into
        # the notebook, and any difference marks a freshly opened notebook as modified
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                     "language": "python"}
        path = HERE / name
        nbf.write(nb, path)
        if execute:
            subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook",
                            "--execute", "--inplace", str(path)], check=True)
        print(f"wrote {path.name}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*", help="only these notebooks (default: all)")
    ap.add_argument("--execute", action="store_true")
    args = ap.parse_args()
    build(args.execute, args.names)
