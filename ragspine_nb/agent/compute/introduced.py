"""A question's qualifier that the prose uses to introduce the table: the table's figure.

"What is the revenue from the United States in 2018 based on the geographic location of
the customer's headquarters?" names rows the tables hold (Revenue, United States) and
words no table uses ("geographic", "location", "customer", "headquarter"), so it would
go to the narrative channel as a figure qualified beyond the tables. But the report
introduces the table with those very words: "Revenue based on the geographic location of
our customer's headquarters was as follows:". Words that one sentence introducing a table
writes, all of them, qualify that table — not a figure apart from it. The question is
then answered from the tables, and the answer quotes the sentence it was read by.

The other way round (:func:`qualified_in_prose`): one unstated word the prose writes
before the same words as the question is the prose's figure, not the table row's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.agent.narrative.channel import NarrativeRetriever
from ragspine_nb.agent.reading.intent import ROUTE_NARRATIVE, ROUTE_STRUCTURED
from ragspine_nb.agent.reading.intent_terms import word_set
from ragspine_nb.agent.reading.unstated import prose_figure
from ragspine_nb.agent.run import Run
from ragspine_nb.extract.prose_period import introducing_sentences

__all__ = ["introducing", "read_as_introduced", "qualified_in_prose"]

#: A sentence that introduces a table, not one that only names one ("the table above").
_LEAD_IN = re.compile(r"(?:[:：]\s*$)|\bas follows\b|\b(?:the )?following table\b|"
                      r"\btables? below\b|\bsets? forth\b|\bsummari[sz]es\b", re.I)
#: Passages read for the introducing sentence.
_TOP_K = 10


def introducing(unstated: Sequence[str], passages: Sequence[str]) -> str:
    """The first sentence introducing a table that writes every unstated word, else "".

    Examples
    --------
    >>> introducing(("exchange", "weightedaverage"), ["Cash flows were converted. The "
    ...     "weighted-average exchange rates for the statements were as follows:"])
    'The weighted-average exchange rates for the statements were as follows:'
    >>> introducing(("exchange",), ["Exchange rates moved a lot in 2019."])
    ''
    """
    asked = frozenset(unstated)
    for passage in passages:
        for sentence in introducing_sentences(passage):
            if _LEAD_IN.search(sentence) and asked <= word_set(sentence):
                return sentence
    return ""


def read_as_introduced(run: Run, retriever: NarrativeRetriever | None) -> bool:
    """Re-read a question sent to prose for its qualifier as the table's (module docstring).

    Only a question whose rows have stored figures and whose every unstated word one
    introducing sentence writes; the gateway decides again, and its note quotes the
    sentence. Returns whether the question was re-read.
    """
    intent = run.intent
    if retriever is None or intent.route != ROUTE_NARRATIVE or not intent.unstated or \
            not intent.metrics or \
            not all(run.store.iter_facts(metric_code=m) for m in intent.metrics):
        return False
    passages = [str(p.get("text", "")) for p in retriever.retrieve(run.question, top_k=_TOP_K)]
    sentence = introducing(intent.unstated, passages)
    run.trace.record(introduced_by=sentence or None)
    if not sentence:
        return False
    run.intent = replace(intent, route=ROUTE_STRUCTURED)
    run.reclarify(f"(Read as the table introduced by “{sentence}”)" if run.lang == "en"
                  else f"（按“{sentence}”所引出的表格读取）")
    return True


def qualified_in_prose(run: Run, retriever: NarrativeRetriever | None) -> bool:
    """One unstated word the prose writes before the same words: the prose's figure."""
    if retriever is None or run.intent.route == ROUTE_NARRATIVE:
        return False
    phrase = prose_figure(run.question, run.intent.unstated, run.intent.metrics, retriever,
                          run.store)
    run.trace.record(qualified_in_prose=phrase or None)
    return bool(phrase)
