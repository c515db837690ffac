r"""``ragspine-nb conflicts``: list facts documents state differently, and resolve them.

    ragspine-nb conflicts --workspace ws                # the open conflicts
    ragspine-nb conflicts --workspace ws --json         # the same as JSON
    ragspine-nb conflicts --workspace ws --resolve REVENUE "ACME HK" FY2025 \
        --keep ACME_FY2025_Results.pptx --note "the audited deck"

A resolution is recorded with who (``--by``, default the login name), when and the
note, and every answer citing the fact says so. It holds while the statements it was
made among are unchanged; re-ingesting a document with another value reopens it.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ragspine_nb.agent.write.templates import format_value, period_label
from ragspine_nb.core import ConflictResult
from ragspine_nb.errors import RagspineError
from ragspine_nb.glossary import normalize_channel, normalize_entity, normalize_metric
from ragspine_nb.ingestion.workspace import Workspace
from ragspine_nb.period_codes import normalize_period
from ragspine_nb.profile import DomainProfile

__all__ = ["add_conflicts_parser"]


def _identity(profile: DomainProfile, metric: str, entity: str, period: str,
              channel: str | None) -> tuple[str, str, str, str, str]:
    """Codes for what the user typed (codes or glossary synonyms), or a clear error."""
    m, e = normalize_metric(profile, metric), normalize_entity(profile, entity)
    p = normalize_period(profile, period, relative=False)
    c = normalize_channel(profile, channel)
    for name, raw, code, valid in (("metric", metric, m, list(profile.metrics)),
                                   ("entity", entity, e, list(profile.entities)),
                                   ("channel", channel, c, list(profile.channels))):
        if code is None:
            raise RagspineError(f"unrecognised {name} {raw!r}; valid codes: {valid}")
    if p is None:
        raise RagspineError(f"unrecognised period {period!r}; write e.g. FY2025, 2025H1, 2025Q1")
    return m, e, p[0], p[1], c  # type: ignore[return-value]


def _print_conflict(c: ConflictResult, workspace: str) -> None:
    print(f"  {c.metric_code} / {c.entity} / {period_label(c.period_type, c.period)} / "
          f"{c.channel}")
    for f in c.statements:
        print(f"    {format_value(f.value)} {f.unit}  {f.source_doc_id} · {f.source_locator}"
              + (f"  (as of {f.valid_as_of})" if f.valid_as_of else ""))
    print(f"    resolve: ragspine-nb conflicts --workspace {workspace} --resolve "
          f"{c.metric_code} {c.entity} {period_label(c.period_type, c.period)}"
          + (f" --channel {c.channel}" if c.channel != "TOTAL" else "")
          + " --keep DOC --note WHY")


def _cmd_conflicts(args: argparse.Namespace) -> int:
    with Workspace(args.workspace) as ws:
        if args.resolve:
            metric, entity, period = args.resolve
            key = _identity(ws.profile, metric, entity, period, args.channel)
            if not args.keep:
                raise RagspineError("--resolve needs --keep DOC (the document to answer from)")
            found = ws.facts.resolve_conflict(*key[:4], key[4], keep=args.keep,
                                              note=args.note or "", by=args.by)
            r = found.resolution
            print(f"resolved {' / '.join(key)}: {format_value(found.fact.value)} "
                  f"{found.fact.unit} from {found.fact.source_doc_id}"
                  + (f" (by {r.resolved_by} at {r.resolved_at})" if r else ""))
            return 0
        open_ = ws.facts.conflicts()
        if args.json:
            rows: list[dict[str, Any]] = [c.to_dict() for c in open_]
            print(json.dumps(rows, ensure_ascii=False, indent=1))
            return 0
        resolved = ws.facts.resolved_conflicts()
        print(f"{len(open_)} open conflict(s), {len(resolved)} resolved by user choice, "
              f"in {args.workspace}")
        for c in open_:
            _print_conflict(c, args.workspace)
        for f in resolved:
            r = f.resolution
            if r is None:  # resolved_conflicts() returns resolved facts only
                continue
            print(f"  resolved: {f.fact.metric_code} / {f.fact.entity} / "
                  f"{period_label(f.fact.period_type, f.fact.period)} / {f.fact.channel} -> "
                  f"{f.fact.source_doc_id} by {r.resolved_by} on {r.resolved_at[:10]}"
                  + (f": {r.note}" if r.note else ""))
    return 0


def add_conflicts_parser(sub: Any) -> None:
    """Register ``conflicts`` on the CLI's subparsers."""
    p = sub.add_parser("conflicts", help="list facts documents state differently; resolve one")
    p.add_argument("--workspace", default="ws")
    p.add_argument("--json", action="store_true", help="print the open conflicts as JSON")
    p.add_argument("--resolve", nargs=3, metavar=("METRIC", "ENTITY", "PERIOD"),
                   help="record a choice for this fact (codes or glossary names)")
    p.add_argument("--channel", default=None, help="the fact's channel (default: the total)")
    p.add_argument("--keep", help="the document whose statement is answered")
    p.add_argument("--note", help="why (stored with the choice and shown in answers)")
    p.add_argument("--by", help="who chose (default: the login name)")
    p.set_defaults(func=_cmd_conflicts)
