"""Narrative retrieval on FinanceBench: is the evidence page among what a user's search finds?

    .venv/bin/python bench/financebench_retrieval.py [FOLDER] [--label before]
        [--modes per-filing,shared] [--docs 3M_2018_10K,...] [--embedding e5]
        [--work /tmp/fb_retrieval] [--no-answers] [--rerank 30]

FOLDER defaults to ``$RAGSPINE_DATA/financebench``. Two ways a user brings the filings:

* ``per-filing`` — each filing in a workspace of its own with its ``company`` as metadata,
  exactly as ``ragspine-nb eval financebench`` ingests it;
* ``shared`` — every filing of the folder (all its PDFs, or those of ``--docs``) in ONE
  workspace, ingested once with no metadata: a user's folder as it comes.

Each workspace is opened with :meth:`Agent.from_workspace` (the profile, the glossary
rewriter and the retriever the agent uses) and every question is searched as written:

* ``bm25`` — ``index.search(question, top_k=100, channels=("bm25",))`` (glossary variants
  fused with RRF, as the agent's index does);
* ``hybrid`` — BM25 ∥ e5 vectors with RRF (only with ``--embedding e5``; slow on CPU, so
  vectors are cached in ``WORK/embeddings.db`` and reused by later runs);
* ``bm25+company`` / ``hybrid+company`` (shared mode) — the same search filtered to the
  entity the question's filing carries (what ``narrative._retrieve`` passes once the
  question names its company), when the filings' chunks carry distinct entities;
* ``…+rerank`` (with ``--rerank N``) — each search above with its top N reranked by the
  agent's judge (the offline cross-encoder of the ``rerank`` extra);
* ``agent`` — the passages the agent's narrative stage retrieved when it answered (its
  trace's ``chunk_ids``: query plan, evidence loop, top 6), for questions that took it.

Relevance is page-level: FinanceBench's evidence pages (``evidence_page_num`` is 0-based,
our ``page=N`` locators are 1-based) of the question's own filing, expanded to every chunk
of those pages. Recall@k is the share of a question's evidence pages with at least one
chunk in the top k (averaged over questions); MRR is 1 / rank of the first relevant chunk
(0 beyond 100). ``evidence cited`` is whether the agent's answer cites an evidence page of
the question's filing (as ``eval financebench`` counts it); ``other filing cited`` counts
answers citing another filing (another year's included), ``another company's`` those
citing another company's filing (the file name's prefix: ``3M_2018_10K`` is 3M's). Writes
``bench/results/financebench_retrieval.json`` under ``--label``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb.agent.agent import Agent
from ragspine_nb.eval.financebench import FinanceBenchQuestion, load_financebench
from ragspine_nb.extract.beir import data_root
from ragspine_nb.extract.limits import IngestLimits
from ragspine_nb.ingestion.workspace import ingest

RESULTS = Path(__file__).parent / "results" / "financebench_retrieval.json"
DEPTH = 100
KS = (10, 50)
RELEVANCE = ("page-level: the evidence pages of the question's own filing, expanded to "
             "every chunk of those pages (evidence_page_num + 1 = our page=N)")
_PAGE = re.compile(r"page=(\d+)")


def page_of(locator: str) -> int | None:
    """The page number of a ``page=N,...`` locator.

    >>> page_of("page=25,para=41-48")
    25
    """
    m = _PAGE.match(locator or "")
    return int(m.group(1)) if m else None


def company_of(doc_name: str) -> str:
    """The company of a FinanceBench file name: what comes before its first ``_``.

    >>> company_of("3M_2018_10K"), company_of("AMCOR_2022_8K_dated-2022-07-01")
    ('3M', 'AMCOR')
    """
    return doc_name.split("_", 1)[0]


def _relevant(q: FinanceBenchQuestion, doc_id: str, locator: str) -> int | None:
    """The evidence page this chunk lies on, or ``None``."""
    if Path(doc_id).stem != q.doc_name:
        return None
    page = page_of(locator)
    return page if page in q.pages else None


def score_ranking(q: FinanceBenchQuestion, ranked: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Recall@k (pages), MRR and the first relevant rank of one ranking of (doc, locator)."""
    first = None
    found_at: dict[int, int] = {}
    for rank, (doc, loc) in enumerate(ranked[:DEPTH], start=1):
        page = _relevant(q, doc, loc)
        if page is not None:
            first = first or rank
            found_at.setdefault(page, rank)
    pages = max(1, len(q.pages))
    out: dict[str, Any] = {f"R@{k}": sum(r <= k for r in found_at.values()) / pages for k in KS}
    out["MRR"] = 1.0 / first if first else 0.0
    out["first_rank"] = first
    out["other_filing@10"] = sum(Path(d).stem != q.doc_name for d, _ in ranked[:10])
    return out


def _copy(pdfs: Iterable[Path], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for pdf in pdfs:
        if not (folder / pdf.name).is_file():
            shutil.copyfile(pdf, folder / pdf.name)


def build_workspaces(root: Path, work: Path, docs: Sequence[str], modes: Sequence[str],
                     questions: Sequence[FinanceBenchQuestion], max_seconds: int = 600
                     ) -> dict[str, dict[str, Path]]:
    """``{mode: {doc_name: workspace}}``; ingestion is incremental (unchanged files skip).

    ``max_seconds`` per file (the default 60 fails a 200-page filing on a busy machine;
    a guard limit, so it does not make unchanged files read again). A file that failed
    is named on stderr.
    """
    limits = IngestLimits(max_seconds_per_file=max_seconds)
    company = {q.doc_name: q.company for q in questions}
    out: dict[str, dict[str, Path]] = {}
    if "per-filing" in modes:
        out["per-filing"] = {}
        for d in (d for d in docs if d in company):
            base = work / "per" / d
            _copy([root / "pdfs" / f"{d}.pdf"], base / "docs")
            _failed(ingest(base / "docs", workspace=base / "ws", progress=False,
                           metadata={f"{d}.pdf": {"company": company[d]}}, limits=limits))
            out["per-filing"][d] = base / "ws"
    if "shared" in modes:
        key = hashlib.sha1(",".join(sorted(docs)).encode()).hexdigest()[:8]
        base = work / f"shared-{key}"
        _copy([root / "pdfs" / f"{d}.pdf" for d in docs], base / "docs")
        _failed(ingest(base / "docs", workspace=base / "ws", progress=False, limits=limits))
        out["shared"] = {d: base / "ws" for d in docs if d in company}
    return out


def _failed(report: Any) -> None:
    for f in report.files:
        if f.status == "failed":
            print(f"  FAILED {f.doc_id}: {f.reason}", file=sys.stderr, flush=True)


def _entity_of(agent: Agent, doc_name: str) -> str:
    """The entity the filing's chunks carry when it tells this filing's company apart."""
    store = agent.index.store
    mine = {c.entity for c in store.iter_chunks(doc_id=f"{doc_name}.pdf")}
    if len(mine) != 1 or "" in mine:
        return ""
    others = {c.entity for d in store.doc_ids() if d != f"{doc_name}.pdf"
              for c in store.iter_chunks(doc_id=d)}
    return next(iter(mine)) if others - mine or not others else ""


def _ranked(results: Any) -> list[tuple[str, str]]:
    return [(h.chunk.doc_id, h.chunk.source_locator) for h in results.hits]


def _search_channels(agent: Agent, q: FinanceBenchQuestion, channels: Sequence[str],
                     entity: str, rerank_n: int = 0) -> dict[str, Any]:
    """Every channel's scores for one question (and the search latency).

    A ``…+rerank`` channel reranks its top ``rerank_n``; the agent's own setting is
    restored after it.
    """
    out: dict[str, Any] = {}
    for ch in channels:
        use = ("bm25",) if ch.startswith("bm25") else ("bm25", "vector")
        flt = {"entity": entity} if "+company" in ch else None
        if "+company" in ch and not entity:
            continue
        rerank = ch.endswith("+rerank")
        t0 = time.perf_counter()
        own_n = agent.index.rerank_top_n
        agent.index.rerank_top_n = rerank_n if rerank else own_n
        try:
            res = agent.index.search(q.question, top_k=DEPTH, channels=use, filters=flt,
                                     rerank=rerank)
        finally:
            agent.index.rerank_top_n = own_n
        out[ch] = {**score_ranking(q, _ranked(res)),
                   "ms": round((time.perf_counter() - t0) * 1e3, 1)}
    return out


def _answer(agent: Agent, q: FinanceBenchQuestion, by_id: Any) -> dict[str, Any]:
    """The agent's answer: evidence cited, another filing cited, what its narrative read."""
    t0 = time.perf_counter()
    result = agent.ask(q.question, date(q.doc_period + 1, 1, 1))
    ms = (time.perf_counter() - t0) * 1e3
    cited = {(Path(s.get("doc", "")).stem, page_of(str(s.get("locator", ""))))
             for s in result.sources}
    row: dict[str, Any] = {
        "route": result.route, "answer_ms": round(ms, 1),
        "evidence_cited": any(d == q.doc_name and p in q.pages for d, p in cited),
        "evidence_page_cited": any(p in q.pages for _, p in cited),
        "other_filing_cited": any(d and d != q.doc_name for d, _ in cited),
        "other_company_cited": any(d and company_of(d) != company_of(q.doc_name)
                                   for d, _ in cited),
        "answer": result.answer[:400]}
    ids = result.trace.get("chunk_ids") or []
    if ids:
        ranked = [(by_id[c].doc_id, by_id[c].source_locator) for c in ids if c in by_id]
        row["agent"] = {**score_ranking(q, ranked), "passages": len(ranked)}
    return row


def run_mode(mode: str, spaces: dict[str, Path], questions: Sequence[FinanceBenchQuestion],
             embedding: str | None, cache: Path, answers: bool, rerank_n: int = 0
             ) -> list[dict[str, Any]]:
    """One row per question of the filings in ``spaces``.

    ``rerank_n`` > 0 adds each channel reranked (its top ``rerank_n``) by the agent's
    judge (the offline cross-encoder when the ``rerank`` extra is installed).
    """
    channels = ["bm25"] + (["hybrid"] if embedding else [])
    if mode == "shared":
        channels += [f"{c}+company" for c in channels]
    if rerank_n:  # the same searches, their top rerank_n reranked by the cross-encoder
        channels += [f"{c}+rerank" for c in channels]
    rows: list[dict[str, Any]] = []
    agents: dict[Path, Agent] = {}
    chunks: dict[Path, dict[str, Any]] = {}
    try:
        for q in questions:
            ws = spaces.get(q.doc_name)
            if ws is None:
                continue
            if ws not in agents:
                agents[ws] = Agent.from_workspace(ws, embedding_backend=embedding,
                                                  embedding_cache=cache)
                if rerank_n and (agents[ws].index is None or agents[ws].index.judge is None):
                    raise SystemExit("--rerank needs the rerank extra (no judge)")
                chunks[ws] = {c.chunk_id: c for c in agents[ws].index.store.iter_chunks()}
            agent = agents[ws]
            row: dict[str, Any] = {"id": q.qid, "doc": q.doc_name, "type": q.question_type,
                                   "question": q.question[:200], "pages": list(q.pages)}
            row.update(_search_channels(agent, q, channels, _entity_of(agent, q.doc_name),
                                        rerank_n))
            if answers:
                row.update(_answer(agent, q, chunks[ws]))
            rows.append(row)
            print(f"  {mode} {q.doc_name} {q.question_type[:6]} "
                  + " ".join(f"{c}:{row[c]['first_rank']}" for c in channels if c in row)
                  + (f" cited:{int(row['evidence_cited'])}" if answers else ""),
                  file=sys.stderr, flush=True)
    finally:
        for agent in agents.values():
            agent.close()
    return rows


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mean R@k and MRR per channel, overall and per question type; answer counts."""
    channels = sorted({k for r in rows for k, v in r.items()
                       if isinstance(v, dict) and "MRR" in v})
    groups: dict[str, list[dict[str, Any]]] = {"all": list(rows)}
    for r in rows:
        groups.setdefault(r["type"], []).append(r)
    out: dict[str, Any] = {"questions": len(rows), "channels": {}}
    for ch in channels:
        out["channels"][ch] = {}
        for name, members in groups.items():
            got = [r[ch] for r in members if ch in r]
            if not got:
                continue
            keys = [*(f"R@{k}" for k in KS), "MRR"]
            out["channels"][ch][name] = {"n": len(got), **{
                k: round(statistics.fmean(g[k] for g in got), 3) for k in keys}}
    if rows and "evidence_cited" in rows[0]:
        out["evidence_cited"] = sum(r["evidence_cited"] for r in rows)
        out["other_filing_cited"] = sum(r["other_filing_cited"] for r in rows)
        out["other_company_cited"] = sum(r.get("other_company_cited", False) for r in rows)
        out["answer_ms_median"] = round(statistics.median(r["answer_ms"] for r in rows), 1)
    return out


def report_lines(mode: str, summary: dict[str, Any]) -> list[str]:
    """One mode's summary in words."""
    lines = [f"{mode}: {summary['questions']} questions; relevance {RELEVANCE}"]
    for ch, groups in summary["channels"].items():
        for name, m in groups.items():
            lines.append(f"  {ch:<15} {name:<18} n={m['n']:>2}  R@10 {m['R@10']:.3f}  "
                         f"R@50 {m['R@50']:.3f}  MRR {m['MRR']:.3f}")
    if "evidence_cited" in summary:
        lines.append(f"  evidence page cited by the answer: {summary['evidence_cited']} of "
                     f"{summary['questions']}; another filing cited: "
                     f"{summary['other_filing_cited']} (another company's: "
                     f"{summary['other_company_cited']}); median answer "
                     f"{summary['answer_ms_median']} ms")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(data_root() / "financebench"))
    parser.add_argument("--label", default="after")
    parser.add_argument("--modes", default="per-filing,shared")
    parser.add_argument("--docs", default="", help="comma-separated doc names (default all)")
    parser.add_argument("--embedding", default=None, help="e.g. e5 (adds the hybrid channel)")
    parser.add_argument("--work", default="/tmp/fb_retrieval")
    parser.add_argument("--no-answers", action="store_true", help="skip agent.ask")
    parser.add_argument("--max-seconds", type=int, default=600,
                        help="ingest deadline per file (default 600)")
    parser.add_argument("--rerank", type=int, default=0, metavar="N",
                        help="also score each channel with its top N cross-encoder reranked")
    args = parser.parse_args()
    root, work = Path(args.folder), Path(args.work)
    questions = load_financebench(root)
    docs = [d for d in args.docs.split(",") if d] or sorted(p.stem for p in
                                                            (root / "pdfs").glob("*.pdf"))
    modes = [m for m in args.modes.split(",") if m]
    t0 = time.perf_counter()
    spaces = build_workspaces(root, work, docs, modes, questions, args.max_seconds)
    ingest_s = time.perf_counter() - t0
    report: dict[str, Any] = {"relevance": RELEVANCE, "docs": docs, "ingest_s": round(ingest_s),
                              "embedding": args.embedding or "none", "modes": {}}
    for mode in modes:
        rows = run_mode(mode, spaces[mode], questions, args.embedding, work / "embeddings.db",
                        not args.no_answers, args.rerank)
        summary = summarise(rows)
        print("\n".join(report_lines(mode, summary)))
        report["modes"][mode] = {"summary": summary, "rows": rows}
    report["command"] = ("bench/financebench_retrieval.py " + " ".join(sys.argv[1:])).strip()
    stored = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.is_file() else {}
    stored[args.label] = report
    RESULTS.write_text(json.dumps(stored, indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    print(f"wrote {RESULTS} [{args.label}]")


if __name__ == "__main__":
    main()
