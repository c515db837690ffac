"""The ``ragspine-nb`` command line: ``demo``, ``ingest``, ``ask``, ``eval``.

Exit codes: 0 success, 1 a check failed (eval), 2 bad usage or missing input (e.g.
a database that does not exist — nothing is created in that case).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from ragspine_nb.agent.structured import StructuredAnswer, answer_structured
from ragspine_nb.errors import RagspineError
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.workspace import FileOutcome, Workspace, find_profile, ingest_paths

__all__ = ["main", "DEMO_QUESTIONS", "DEMO_REFERENCE_DATE", "default_demo_data"]

#: Relative periods in the demo resolve against this date, so its output is stable.
DEMO_REFERENCE_DATE = date(2025, 6, 30)
DEMO_QUESTIONS: tuple[str, ...] = (
    "What was ACME Hong Kong's revenue in FY2024?",
    "中国内地2024年的营业收入是多少？",
    "集团2024年上半年营收多少？",
    "ACME Hong Kong agency revenue FY2024",
    "What was net profit last year?",
    "ACME Mainland China net profit FY2024",
    "新加坡FY2023的营收是多少？",
    "竞安2024年的营收是多少？",
    "How did we do in 2024?",
)


def default_demo_data() -> Path:
    """``data/demo`` of the source checkout this package was installed from."""
    return Path(__file__).resolve().parents[1] / "data" / "demo"


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _print_answer(ans: StructuredAnswer) -> None:
    print(f"Q: {ans.question}")
    print(f"A: {ans.text}")
    for s in ans.sources:
        print(f"   source: {s.doc} · {s.locator}")
    print(f"   [{ans.status}]")


def _print_outcomes(outcomes: Sequence[FileOutcome]) -> None:
    for o in outcomes:
        counts = f"facts={o.facts} chunks={o.chunks}"
        line = f"  {o.status:<9} {Path(o.path).name}  {counts}"
        print(line + (f"  ({o.detail})" if o.detail else ""))


def _cmd_demo(args: argparse.Namespace) -> int:
    data = Path(args.data) if args.data else default_demo_data()
    profile = find_profile(data)
    if profile is None:
        return _fail(f"no demo data at {data} (expected profile.toml there); pass --data DIR")
    ws = Workspace.create(args.workspace, profile)
    print(f"Building demo workspace in {ws.path} from {data}")
    outcomes = ws.ingest([data / "facts", data / "narrative"])
    _print_outcomes(outcomes)
    print(f"{ws.facts!r}\n{ws.chunks!r}\n")
    for q in DEMO_QUESTIONS:
        _print_answer(answer_structured(q, ws.facts, ws.profile,
                                        reference_date=DEMO_REFERENCE_DATE))
        print()
    ws.close()
    return 0 if all(o.status != "failed" for o in outcomes) else 1


def _cmd_ingest(args: argparse.Namespace) -> int:
    ws_path = Path(args.workspace)
    profile = args.profile or find_profile(ws_path)
    if profile is None:
        return _fail(f"no profile in {ws_path}; pass --profile FILE")
    if args.dry_run:  # touches no store and creates no file
        outcomes = ingest_paths(args.paths, DomainProfile.from_file(profile), dry_run=True)
    else:
        ws = Workspace.create(ws_path, profile)
        outcomes = ws.ingest(args.paths)
        ws.close()
    _print_outcomes(outcomes)
    return 0 if all(o.status != "failed" for o in outcomes) else 1


def _open_for_reading(args: argparse.Namespace) -> tuple[FactStore, DomainProfile]:
    if args.db:
        db = Path(args.db)
        profile_path = args.profile or find_profile(db.parent)
        if profile_path is None:
            raise RagspineError(f"no profile next to {db}; pass --profile FILE")
        return FactStore(db, create=False), DomainProfile.from_file(profile_path)
    ws = Workspace(args.workspace, args.profile, create=False)
    return ws.facts, ws.profile


def _cmd_ask(args: argparse.Namespace) -> int:
    store, profile = _open_for_reading(args)
    ans = answer_structured(args.question, store, profile, reference_date=args.reference_date)
    if args.json:
        print(json.dumps({
            "question": ans.question, "answer": ans.text, "status": ans.status,
            "sources": [s.to_dict() for s in ans.sources], "assumptions": list(ans.assumptions),
        }, ensure_ascii=False))
    else:
        _print_answer(ans)
    store.close()
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    store, profile = _open_for_reading(args)
    golden = Path(args.golden) if args.golden else default_demo_data() / "golden.jsonl"
    if not golden.is_file():
        return _fail(f"golden file not found: {golden}")
    passed = failed = 0
    for n, line in enumerate(golden.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            question, expected = case["question"], case["expected"]
            ref = date.fromisoformat(case["reference_date"])
        except (ValueError, KeyError) as exc:
            return _fail(f"{golden.name} line {n}: invalid case ({exc})")
        ans = answer_structured(question, store, profile, reference_date=ref)
        ok = ans.status == expected["status"]
        if ok and "value" in expected:
            fact = getattr(ans.result, "fact", None)
            ok = (fact is not None and fact.value == expected["value"]
                  and fact.unit == expected["unit"]
                  and fact.source.to_dict() == expected["source"]
                  and expected["source"]["doc"] in ans.text)
        passed += ok
        failed += not ok
        mark = "PASS" if ok else "FAIL"
        print(f"{mark} {case.get('id', n)}: {question} -> {ans.status}"
              + ("" if ok else f" (expected {expected})"))
    print(f"{passed} passed, {failed} failed")
    store.close()
    return 0 if failed == 0 else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragspine-nb", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("demo", help="build the demo workspace and answer demo questions")
    p.add_argument("--workspace", default=".ragspine_demo")
    p.add_argument("--data", help="demo data folder (default: the checkout's data/demo)")
    p.set_defaults(func=_cmd_demo)

    p = sub.add_parser("ingest", help="ingest files or folders into a workspace")
    p.add_argument("paths", nargs="+")
    p.add_argument("--workspace", default=".ragspine")
    p.add_argument("--profile", help="profile file (default: <workspace>/profile.*)")
    p.add_argument("--dry-run", action="store_true", help="read and report, write nothing")
    p.set_defaults(func=_cmd_ingest)

    for name, func, helptext in (("ask", _cmd_ask, "answer one question"),
                                 ("eval", _cmd_eval, "run a golden set (tool-direct)")):
        p = sub.add_parser(name, help=helptext)
        if name == "ask":
            p.add_argument("question")
            p.add_argument("--json", action="store_true", help="print the answer as JSON")
        else:
            p.add_argument("--golden", help="JSONL golden set (default: data/demo/golden.jsonl)")
        p.add_argument("--workspace", default=".ragspine")
        p.add_argument("--db", help="fact store file (instead of --workspace)")
        p.add_argument("--profile", help="profile file")
        p.add_argument("--reference-date", type=date.fromisoformat, default=None,
                       help="ISO date that relative periods resolve against")
        p.set_defaults(func=func)
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
