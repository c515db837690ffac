"""FinanceBench, every question, through the ingestion and the Agent a user runs.

Two modes. **Per filing**: each filing (a PDF of ``pdfs/``) is ingested into a fresh
workspace with no profile and one piece of metadata, the filing's ``company``, and every
question on it is asked there. **Shared** (``shared=True``, ``--shared``): every filing of
the split goes into ONE workspace, ingested once with no profile and no metadata — a
user's folder as it comes — and every question is asked of it; each row says whether
an answer cites another company's filing. Questions are asked as written — instructions
included — with the reference date January 1 after the filing's period.

Answers are scored from the figures they assert with the TAT-QA scorer
(:func:`~ragspine_nb.eval.tatqa.score.classify`): a gold written as one number
("$1577.00", "0.66", "65.4%") is numeric, in the scale the question asks for ("in USD
millions", "USD billions"; a "$" amount with none named is in millions, as the filings
state them); any other gold is text (its long sentences are not matched; only whether a
figure was asserted is counted). Whether an answer cites a page of the gold's evidence is
counted for every question.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb.eval.tatqa.gold import Gold, GoldNumber, is_year, parse_amount
from ragspine_nb.eval.tatqa.run import abstain_kind
from ragspine_nb.eval.tatqa.score import CATEGORIES, classify

__all__ = ["FinanceBenchQuestion", "load_financebench", "gold_of_answer",
           "evaluate_financebench", "report_lines"]

_ASKED_SCALE = re.compile(r"\b(?:in\s+)?(?:usd|us\$|\$|dollars?)?\s*(?:in\s+)?"
                          r"(?P<scale>thousands|millions|billions)\b", re.I)


@dataclass(frozen=True)
class FinanceBenchQuestion:
    """One question of FinanceBench with its gold answer and evidence pages (1-based)."""

    qid: str
    company: str
    doc_name: str
    question_type: str
    question: str
    answer: str
    pages: tuple[int, ...]
    doc_period: int


def load_financebench(root: str | Path) -> list[FinanceBenchQuestion]:
    """The questions of ``root/questions.jsonl`` (periods from ``documents.jsonl``)."""
    folder = Path(root)
    periods = {d["doc_name"]: int(d.get("doc_period") or 0) for d in map(
        json.loads, (folder / "documents.jsonl").read_text(encoding="utf-8").splitlines())}
    out = []
    for line in (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        pages = tuple(sorted({int(e["evidence_page_num"]) + 1 for e in q.get("evidence", [])}))
        out.append(FinanceBenchQuestion(q["financebench_id"], q["company"], q["doc_name"],
                                        q["question_type"], q["question"], str(q["answer"]),
                                        pages, periods.get(q["doc_name"], 0)))
    return out


def gold_of_answer(question: str, answer: str) -> Gold:
    """A numeric gold when the answer is one number, in the scale the question asks for.

    Examples
    --------
    >>> gold_of_answer("What is capex (in USD millions)?", "$1577.00").numbers[0]
    GoldNumber(value=1577.0, decimals=2, scale='million', exact=False)
    >>> gold_of_answer("What is the ratio?", "65.4%").numbers[0].scale
    'percent'
    >>> gold_of_answer("Why?", "Sales fell.").kind
    'text'
    """
    amount = parse_amount(answer)
    if amount is None or is_year(answer):
        return Gold("text", spans=(answer,))
    asked = _ASKED_SCALE.search(question)
    if amount.scale:
        scale = amount.scale
    elif asked is not None:
        scale = asked.group("scale").lower().rstrip("s")
    else:
        scale = "million" if "$" in answer else ""
    return Gold("number", (GoldNumber(amount.value, amount.decimals, scale),))


def _pages(result: Any) -> set[int]:
    out = set()
    for s in result.sources:
        m = re.match(r"page=(\d+)", str(s.get("locator", "")))
        if m:
            out.add(int(m.group(1)))
    return out


def _answer_doc(pdf: Path, questions: Sequence[FinanceBenchQuestion]) -> list[dict[str, Any]]:
    from ragspine_nb.agent.agent import Agent
    from ragspine_nb.ingestion.workspace import ingest

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        shutil.copyfile(pdf, docs / pdf.name)
        started = time.perf_counter()
        ingest(docs, workspace=Path(tmp) / "ws", progress=False,
               metadata={pdf.name: {"company": questions[0].company}})
        ingest_s = time.perf_counter() - started
        agent = Agent.from_workspace(Path(tmp) / "ws")
        try:
            return [_row(q, agent.ask(q.question, date(q.doc_period + 1, 1, 1)), ingest_s)
                    for q in questions]
        finally:
            agent.close()


def _answer_shared(folder: Path, docs: Sequence[str],
                   by_doc: dict[str, list[FinanceBenchQuestion]]) -> list[dict[str, Any]]:
    """Every filing in one workspace, no metadata; every question asked of it."""
    from ragspine_nb.agent.agent import Agent
    from ragspine_nb.ingestion.workspace import ingest

    company_of = {d: by_doc[d][0].company for d in docs}
    with tempfile.TemporaryDirectory() as tmp:
        pdfs = Path(tmp) / "filings"
        pdfs.mkdir()
        for d in docs:
            shutil.copyfile(folder / "pdfs" / f"{d}.pdf", pdfs / f"{d}.pdf")
        started = time.perf_counter()
        ingest(pdfs, workspace=Path(tmp) / "ws", progress=False)
        ingest_s = time.perf_counter() - started
        agent = Agent.from_workspace(Path(tmp) / "ws")
        try:
            return [_row(q, agent.ask(q.question, date(q.doc_period + 1, 1, 1)), ingest_s,
                         company_of) for d in docs for q in by_doc[d]]
        finally:
            agent.close()


def _row(q: FinanceBenchQuestion, result: Any, ingest_s: float,
         company_of: dict[str, str] | None = None) -> dict[str, Any]:
    """One question scored from its answer (the JSON row of the report)."""
    gold = gold_of_answer(q.question, q.answer)
    verdict = classify(gold, result.figures, result.answer, abstain_kind(result))
    docs = sorted({str(s.get("doc", "")) for s in result.sources if s.get("doc")})
    others = [d for d in docs if company_of is not None
              and company_of.get(Path(d).stem, q.company) != q.company]
    return {"id": q.qid, "type": q.question_type, "question": q.question, "gold": q.answer,
            "company": q.company, "doc_name": q.doc_name,
            "category": verdict.category, "kind": verdict.kind,
            "sign_flipped": verdict.sign_flipped,
            "evidence_cited": bool(_pages(result) & set(q.pages)),
            "route": result.route, "sources": docs, "other_company_cited": others,
            "figures": [f.to_dict() for f in result.figures], "answer": result.answer,
            "ingest_s": round(ingest_s, 3)}


def evaluate_financebench(root: str | Path, *, limit: int = 0,
                          shared: bool = False) -> dict[str, Any]:
    """Every question (or those of the first ``limit`` filings) answered and scored.

    Returns the JSON of ``ragspine-nb eval financebench``: ``mode`` (``per_filing`` or
    ``shared``), ``questions``, ``filings``, ``categories``, ``by_type`` (question type →
    categories), ``evidence_cited``, ``other_company_cited`` (answers citing another
    company's filing; shared mode), ``sign_flipped``, ``timings`` and ``rows`` (every
    question with its route, figures and sources).
    """
    folder = Path(root)
    questions = load_financebench(folder)
    by_doc: dict[str, list[FinanceBenchQuestion]] = {}
    for q in questions:
        by_doc.setdefault(q.doc_name, []).append(q)
    docs = list(by_doc)[: limit or None]
    started = time.perf_counter()
    rows = _answer_shared(folder, docs, by_doc) if shared else [
        r for d in docs for r in _answer_doc(folder / "pdfs" / f"{d}.pdf", by_doc[d])]
    cats = Counter(r["category"] for r in rows)
    by_type: dict[str, dict[str, int]] = {}
    for r in rows:
        by_type.setdefault(r["type"], dict.fromkeys(CATEGORIES, 0))[r["category"]] += 1
    return {"mode": "shared" if shared else "per_filing",
            "questions": len(rows), "filings": len(docs),
            "categories": {c: cats.get(c, 0) for c in CATEGORIES}, "by_type": by_type,
            "evidence_cited": sum(r["evidence_cited"] for r in rows),
            "other_company_cited": sum(bool(r["other_company_cited"]) for r in rows),
            "sign_flipped": sum(r["sign_flipped"] for r in rows),
            "timings": {"wall_s": round(time.perf_counter() - started, 1)}, "rows": rows}


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report in words: every category, by question type, evidence cited."""
    n = report["questions"] or 1
    mode = "one shared workspace, no metadata" if report.get("mode") == "shared" else \
        "one workspace per filing"
    lines = [f"FinanceBench: {report['questions']} questions on {report['filings']} filings "
             f"({mode}), {report['timings']['wall_s']} s"]
    lines += [f"  {c:<15} {k:>4}  {k / n:.3f}" for c, k in report["categories"].items()]
    lines.append(f"  evidence page cited: {report['evidence_cited']} of {report['questions']}; "
                 f"sign apart: {report['sign_flipped']}")
    if report.get("mode") == "shared":
        lines.append(f"  answers citing another company's filing: "
                     f"{report['other_company_cited']} of {report['questions']}")
    for kind, cats in report["by_type"].items():
        lines.append(f"  {kind}: " + ", ".join(f"{c} {k}" for c, k in cats.items() if k))
    return lines
