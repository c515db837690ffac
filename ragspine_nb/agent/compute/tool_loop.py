"""The structured channel's tool loop: the model calls ``query_metric``, the plan decides.

The model is offered the ``query_metric`` tool once per planned sub-task. Whatever it
calls, the answer is made of the planned sub-tasks only: a call that answers a sub-task
is used, one that does not is ignored, and a sub-task the model did not call is run
deterministically. The loop is capped at :data:`MAX_TOOL_ITERATIONS` model turns.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import date
from typing import Any

from ragspine_nb.agent.compute.query_tools import (
    TOOL_NAME,
    build_query_metric_tool_anthropic,
    execute_query_metric,
)
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.providers import SLOTS_MARKER, LLMProvider
from ragspine_nb.agent.trace import Trace
from ragspine_nb.core import ConflictResult, FoundResult, NotFoundResult, QueryResult
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.facts import FactStore

__all__ = ["run_tool_loop", "MAX_TOOL_ITERATIONS", "STRUCTURED_SYSTEM"]

MAX_TOOL_ITERATIONS = 5
STRUCTURED_SYSTEM = (
    "You answer questions about reported figures. Call the query_metric tool once per "
    "sub-task listed in the user message. Never state a number that the tool did not return.")


def _same_task(result: QueryResult, task: Task) -> bool:
    """Whether a model-requested result answers a planned sub-task."""
    if isinstance(result, FoundResult):
        return Task.of(result.fact) == task
    if isinstance(result, NotFoundResult | ConflictResult):
        return Task.of(result) == task
    return False


def run_tool_loop(question: str, tasks: Sequence[Task], store: FactStore,
                  provider: LLMProvider, profile: DomainProfile, ref: date,
                  trace: Trace) -> list[QueryResult]:
    """Each planned sub-task's result, the model's where it called the tool for it."""
    tools = [build_query_metric_tool_anthropic(profile)]
    slots = json.dumps([t.to_dict() for t in tasks])
    messages: list[dict[str, Any]] = [{"role": "user",
                                       "content": f"{question}\n\n{SLOTS_MARKER} {slots}"}]
    model_results: list[QueryResult] = []
    iterations = 0
    t0 = time.perf_counter()
    for iterations in range(1, MAX_TOOL_ITERATIONS + 1):  # noqa: B007 - used after the loop
        resp = provider.create_message(system=STRUCTURED_SYSTEM, messages=messages, tools=tools)
        if not resp.tool_calls:
            break
        blocks, outputs = [], []
        for call in resp.tool_calls:
            args = call.arguments if isinstance(call.arguments, dict) else {}
            if call.name != TOOL_NAME or not {"metric", "entity", "period"} <= set(args):
                payload: dict[str, Any] = {"status": "error", "detail": "unknown tool or args"}
            else:
                result = execute_query_metric(store, str(args["metric"]), str(args["entity"]),
                                              str(args["period"]), args.get("channel") or
                                              profile.default_channel, profile=profile,
                                              reference_date=ref)
                model_results.append(result)
                payload = result.to_dict()
            blocks.append({"type": "tool_use", "id": call.id, "name": call.name,
                           "input": args})
            outputs.append({"type": "tool_result", "tool_use_id": call.id,
                            "content": json.dumps(payload, ensure_ascii=False)})
        messages += [{"role": "assistant", "content": blocks},
                     {"role": "user", "content": outputs}]
    trace.record(tool_iterations=iterations, tool_loop_capped=iterations >= MAX_TOOL_ITERATIONS,
                 provider_seconds=round(time.perf_counter() - t0, 4),
                 model_tool_calls=len(model_results))
    final: list[QueryResult] = []
    for task in tasks:  # the plan decides what is answered; missing calls run deterministically
        match = next((r for r in model_results if _same_task(r, task)), None)
        if match is None:
            match = execute_query_metric(store, task.metric, task.entity, task.period,
                                         task.channel, profile=profile, reference_date=ref)
            trace.record(deterministic_fallback=True)
        final.append(match)
    return final


