"""The ``ragspine-nb`` command line: demo, ingest, ask, eval, report, serve, notebooks.

Exit codes: 0 success (``ingest``: the batch ran, even if some files failed — the
report lists them), 1 a check failed (``eval``, ``demo``) or ``ingest`` stopped early
(a full disk, a read-only workspace: one ``error:`` line, and the report of what was
done is still printed and written), 2 bad arguments or missing input (e.g. a database
that does not exist — nothing is created in that case).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TypeAlias

from ragspine_nb.agent.agent import Agent, AgentResult
from ragspine_nb.cli.benchmarks import add_eval_parser
from ragspine_nb.cli.conflicts import add_conflicts_parser
from ragspine_nb.cli.ingest import add_ingest_parser, print_report
from ragspine_nb.cli.notebooks import add_notebooks_parser
from ragspine_nb.core import IngestReport
from ragspine_nb.demo_files import demo_data
from ragspine_nb.errors import RagspineError
from ragspine_nb.ingestion.workspace import CHUNKS_DB, FACTS_DB, Workspace, find_profile, ingest
from ragspine_nb.profile import DomainProfile
from ragspine_nb.retrieval.index import NarrativeIndex
from ragspine_nb.stores.chunks import ChunkStore
from ragspine_nb.stores.facts import FactStore

__all__ = [
    "main", "DEMO_QUESTIONS", "DEMO_NARRATIVE_QUESTIONS", "DEMO_REFERENCE_DATE",
    "default_demo_data", "build_demo",
]

#: Relative periods in the demo resolve against this date, so its output is stable.
DEMO_REFERENCE_DATE = date(2026, 3, 31)
DEMO_QUESTIONS: tuple[str, ...] = (
    "What was ACME Hong Kong's revenue in FY2025?",
    "中国内地2024年的营业收入是多少？",
    "集团2025年上半年营收多少？",
    "ACME Hong Kong agency new sales FY2025",
    "What was operating profit last year?",
    "Mainland China operating profit FY2025",
    "香港银保渠道2025年新单保费是多少？",
    "What was Mainland China's ROE in FY2025?",
    "竞安2025年的营收是多少？",
    "What was our number for 2025?",
)
DEMO_NARRATIVE_QUESTIONS: tuple[str, ...] = (
    "What happened to bancassurance sales in Mainland China?",
    "为什么银保渠道新单保费下降？",
    "Why did Mainland China revenue fall in FY2025?",
)
_DEMO_MARKER = ".ragspine_demo_workspace"
#: The subcommands of a parser (what ``add_subparsers()`` returns).
_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def default_demo_data() -> Path:
    """The demo data shipped in the package (``ragspine_nb/demo``)."""
    return demo_data()


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _status(ans: AgentResult) -> str:
    statuses = [r["status"] for r in ans.tool_results]
    if ans.clarification.mode not in ("none", "answer_with_assumptions"):
        return ans.clarification.mode
    return ",".join(dict.fromkeys(statuses)) or ans.route


def _print_answer(ans: AgentResult) -> None:
    print(f"Q: {ans.question}")
    print("A: " + ans.answer.replace("\n", "\n   "))
    for s in ans.sources:
        print(f"   source: {s['doc']} · {s['locator']}")
    print(f"   [{ans.route} · {_status(ans)}]")


def build_demo(workspace: str | Path, data: str | Path | None = None,
               progress: bool = False) -> IngestReport:
    """Rebuild the demo workspace from scratch from the demo data and return the report.

    Only a folder that a previous demo created (it holds a marker file) is wiped.
    """
    data_dir = Path(data) if data else default_demo_data()
    profile = find_profile(data_dir)
    if profile is None:
        raise RagspineError(f"no demo data at {data_dir} (expected profile.toml); pass --data")
    ws = Path(workspace)
    if ws.exists() and any(ws.iterdir()):
        if not (ws / _DEMO_MARKER).is_file():
            raise RagspineError(f"{ws} exists and is not a demo workspace; choose another folder")
        shutil.rmtree(ws)
    ws.mkdir(parents=True, exist_ok=True)
    (ws / _DEMO_MARKER).write_text("created by `ragspine-nb demo`; safe to delete\n", "utf-8")
    return ingest(data_dir / "reports", workspace=ws, profile=profile,
                  metadata=data_dir / "metadata.toml", progress=progress)


def _cmd_demo(args: argparse.Namespace) -> int:
    report = build_demo(args.workspace, args.data)
    print(f"Demo workspace {args.workspace} built from scratch:")
    print_report(report)
    print()
    with Workspace(args.workspace) as ws:
        print(f"{ws.facts!r}\n{ws.chunks!r}\n")
    agent = Agent.from_workspace(args.workspace)
    for q in DEMO_QUESTIONS + DEMO_NARRATIVE_QUESTIONS:
        _print_answer(agent.ask(q, reference_date=DEMO_REFERENCE_DATE))
        print()
    agent.close()
    return 0 if report.count("failed") == 0 else 1


def _agent(args: argparse.Namespace) -> Agent:
    """The workspace's agent (``--workspace``), or one over a fact store file (``--db``)."""
    if not args.db:
        return Agent.from_workspace(args.workspace, profile=args.profile)
    db = Path(args.db)
    profile_path = args.profile or find_profile(db.parent)
    if profile_path is None:
        raise RagspineError(f"no profile next to {db}; pass --profile FILE")
    store, profile = FactStore(db, create=False), DomainProfile.from_file(profile_path)
    chunks = db.with_name(CHUNKS_DB)
    index = NarrativeIndex(ChunkStore(chunks, create=False), profile=profile) \
        if chunks.is_file() else None
    return Agent(store, index, profile=profile)


def _cmd_ask(args: argparse.Namespace) -> int:
    agent = _agent(args)
    ans = agent.ask(args.question, reference_date=args.reference_date)
    if args.json:
        print(json.dumps({
            "question": ans.question, "answer": ans.answer, "route": ans.route,
            "status": _status(ans), "clarification": ans.clarification.mode,
            "sources": ans.sources, "tool_results": ans.tool_results,
            "figures": [f.to_dict() for f in ans.figures],
        }, ensure_ascii=False))
    else:
        _print_answer(ans)
    agent.close()
    return 0


def _cmd_eval_qa(args: argparse.Namespace) -> int:
    from ragspine_nb.eval import compare_to_baseline, load_baseline, load_golden, run_qa
    from ragspine_nb.eval import update_baseline as record

    golden = Path(args.golden) if args.golden else default_demo_data() / "golden.jsonl"
    if not golden.is_file():
        return _fail(f"golden file not found: {golden}")
    cases = load_golden(golden)
    if args.workspace is None and args.db is None:  # the demo workspace by default
        import tempfile

        args.workspace = str(Path(tempfile.mkdtemp()) / "demo")
        build_demo(args.workspace)
    agent = _agent(args)
    report = run_qa(cases, agent, args.mode)
    for c in report.failures():
        print(f"FAIL {c.id}: {[g for g, ok in c.gates.items() if not ok]}"
              f"{' fabricated' if c.fabricated else ''} {c.detail}")
    figures = report.to_dict()
    for gate, v in figures.items():
        if isinstance(v, dict):
            print(f"{gate:<30} {v['passed']:>3}/{v['total']:<3} {v['rate']:.3f}")
    print(f"{'fabrication_count':<30} {report.fabrication_count}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1), encoding="utf-8")
        Path(args.json).with_suffix(".html").write_text(report._repr_html_(), encoding="utf-8")
    code = 0
    if args.baseline:
        regressions, improvements = compare_to_baseline(report, load_baseline(args.baseline))
        for line in improvements:
            print(f"improved: {line}" + ("" if args.update_baseline else
                                         " (not recorded; use --update-baseline)"))
        for line in regressions:
            print(f"REGRESSION: {line}")
        if args.update_baseline:
            record(report, args.baseline)
            print(f"baseline for mode {args.mode!r} written to {args.baseline}")
        elif regressions:
            code = 1
    passed = sum(not (c.fabricated or not all(c.gates.values())) for c in report.cases)
    print(f"{passed} passed, {len(report.cases) - passed} failed")
    agent.close()
    return code


def _cmd_report(args: argparse.Namespace) -> int:
    from ragspine_nb.report.export import build_report

    for page in build_report(args.notebooks or None, args.out, args.vendor,
                             show_code=args.with_code):
        print(f"wrote {page}")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from ragspine_nb._optional import import_optional

    uvicorn = import_optional("uvicorn", extra="service", feature="ragspine-nb serve")
    from ragspine_nb.service.app import create_app_for_workspace

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {args.host} exposes the workspace beyond this machine; "
              "there is no authentication", file=sys.stderr)
    app = create_app_for_workspace(args.workspace)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


def _add_demo_parser(sub: _Subparsers) -> None:
    """``ragspine-nb demo``."""
    p = sub.add_parser("demo", help="rebuild the demo workspace and answer demo questions")
    p.add_argument("--workspace", default=".ragspine_demo")
    p.add_argument("--data", help="demo data folder (default: the one shipped in the package)")
    p.set_defaults(func=_cmd_demo)


def _add_report_parser(sub: _Subparsers) -> None:
    """``ragspine-nb report``."""
    p = sub.add_parser("report", help="execute the notebooks into self-contained HTML")
    p.add_argument("notebooks", nargs="*",
                   help="notebook files or folders (default: the four notebooks in the folder "
                        "`ragspine-nb notebooks` wrote, found from here, else the ones shipped "
                        "in the package)")
    p.add_argument("--out", default="build/report")
    p.add_argument("--vendor", default=None,
                   help="folder holding require.js, embed-amd.js and fa-solid-900.woff2 "
                        "(fetched there with npm pack if missing; default: the renderer "
                        "shipped in the package, no npm)")
    p.add_argument("--with-code", action="store_true",
                   help="keep the code cells and raw outputs (default: the stakeholder view)")
    p.set_defaults(func=_cmd_report)


def _add_serve_parser(sub: _Subparsers) -> None:
    """``ragspine-nb serve``."""
    p = sub.add_parser("serve", help="serve a workspace over HTTP (/v1/ask, /chat, SSE)")
    p.add_argument("--workspace", default="ws")
    p.add_argument("--host", default="127.0.0.1", help="loopback by default")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=_cmd_serve)


def _add_ask_parser(sub: _Subparsers) -> None:
    """``ragspine-nb ask``."""
    p = sub.add_parser("ask", help="answer one question")
    p.add_argument("question")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.add_argument("--workspace", default="ws")
    _add_answer_source_args(p)
    p.set_defaults(func=_cmd_ask)


def _add_eval_qa_parser(ev_sub: _Subparsers) -> None:
    """``ragspine-nb eval qa``."""
    p = ev_sub.add_parser("qa", help="golden-set QA gates")
    p.add_argument("golden", nargs="?", help="golden JSONL (default: the demo set)")
    p.add_argument("--workspace", default=None,
                   help="workspace to answer from (default: a fresh demo workspace)")
    p.add_argument("--mode", choices=["tool", "agent"], default="tool")
    p.add_argument("--json", metavar="OUT", help="write the gates as JSON")
    p.add_argument("--baseline", help="baseline JSON to ratchet against")
    p.add_argument("--update-baseline", action="store_true",
                   help="record this run as the baseline (explicit only)")
    _add_answer_source_args(p)
    p.set_defaults(func=_cmd_eval_qa)


def _add_answer_source_args(p: argparse.ArgumentParser) -> None:
    """``--db``, ``--profile`` and ``--reference-date`` of ``ask`` and ``eval qa``."""
    p.add_argument("--db", help=f"fact store file, e.g. ws/{FACTS_DB} (instead of "
                                f"--workspace; {CHUNKS_DB} is not needed)")
    p.add_argument("--profile", help="profile file")
    p.add_argument("--reference-date", type=date.fromisoformat, default=None,
                   help="ISO date that relative periods resolve against")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragspine-nb", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_demo_parser(sub)
    add_ingest_parser(sub)
    _add_report_parser(sub)
    _add_serve_parser(sub)
    add_conflicts_parser(sub)
    add_notebooks_parser(sub)
    ev_sub = add_eval_parser(sub)
    _add_ask_parser(sub)
    _add_eval_qa_parser(ev_sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except RagspineError as exc:
        return _fail(str(exc))
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
