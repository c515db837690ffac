"""A metric named for its owners ("… attributable to 3M"): the owners' line, or the plain one.

"Net income attributable to 3M" is read as the owners' line
(:mod:`ragspine_nb.agent.reading.owners_words`).

A statement of a company with no noncontrolling interests states only "Net income":
that line is then the owners' too. The profile says which metric is the plain line of
which: a metric whose formula is another metric alone ("NET_INCOME = NET_INCOME_PARENT",
used when no row states net income). :func:`plain_line` answers the owners' metric from
the plain line when no separate owners' line is stored and the statement holding the
plain line names no noncontrolling (minority) interest, and says so; otherwise nothing
is given for it (never a figure that includes the minority's share).
"""

from __future__ import annotations

import re

from ragspine_nb.agent.compute.query_tools import execute_query_metric
from ragspine_nb.agent.compute.task import Task
from ragspine_nb.agent.reading.labels import metric_label
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.run import Run
from ragspine_nb.agent.write.answer import cited, figure_label, figure_text
from ragspine_nb.core import Figure, FoundResult, ToolOutcome
from ragspine_nb.profile import DomainProfile
from ragspine_nb.units import unit_text

__all__ = ["plain_of", "plain_line"]

#: A row naming the minority's share ("Net income attributable to noncontrolling interests").
_MINORITY = re.compile(r"NON_?CONTROLLING|MINORITY|少数股东")


def plain_of(profile: DomainProfile, code: str) -> str | None:
    """The plain line the profile computes from ``code`` alone ("NET_INCOME"), if any."""
    return next((c for c, spec in profile.metrics.items() if spec.formula.strip() == code),
                None)


def _minority_named(run: Run, found: FoundResult) -> bool:
    """Whether the filing states a minority's share, or another owners' line, that year."""
    fact = found.fact
    facts = run.store.iter_facts(source_doc_id=fact.source_doc_id, entity=fact.entity,
                                 period=fact.period)
    return any(_MINORITY.search(f.metric_code) or "ATTRIBUTABLE" in f.metric_code
               for f in facts)


def plain_line(run: Run, task: Task) -> AgentResult | None:
    """The owners' metric from the plain line, said so; ``None`` when it does not apply."""
    plain = plain_of(run.profile, task.metric)
    if plain is None:
        return None
    found = execute_query_metric(run.store, plain, task.entity, task.period,
                                 task.channel, profile=run.profile, reference_date=run.ref)
    if not isinstance(found, FoundResult) or _minority_named(run, found):
        return None
    asked, used = metric_label(run.profile, task.metric), metric_label(run.profile, plain)
    zh = run.lang == "zh"
    note = (f"（未单列{asked}，且未列示少数股东权益：取{used}）" if zh else
            f"(No separate line states {asked}, and no noncontrolling interest is stated: "
            f"the statement's {used} is shown.)")
    fact = found.fact
    figure = Figure(fact.value, unit_text(fact.unit), figure_label(fact, run.profile, run.lang),
                    "lookup", (fact,), (fact.source, *found.also_stated_by))
    body = figure_text(figure, run.lang, profile=run.profile)
    run.trace.record(read_as=f"{task.metric} from {plain}")
    return run.finish(f"{note}{body}" if zh else f"{note} {body}", run.intent.route,
                      sources=cited((fact,)), tool=ToolOutcome(figures=(figure,)))
