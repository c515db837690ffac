"""A metric named with its company as the owner: "net income attributable to 3M".

A question writes the company's own name where a statement writes "the company" or
"shareholders of the parent": :func:`owners_metric` reads it as the profile's metric of
that wording ("net income attributable to the company" → NET_INCOME_PARENT), in English
and Chinese ("归属于3M的净利润"). Pure functions over the folded question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine_nb.agent.reading.intent_rows import Rows
from ragspine_nb.glossary import normalize_metric
from ragspine_nb.profile import DomainProfile
from ragspine_nb.profile_fields import formula_named

__all__ = ["owners_metric", "named_codes"]

#: Words right before a company's name that make the name the owners of a line.
_OWNED_BY = re.compile(r"(?:attributable|attributed|available)\s+to(?:\s+the)?"
                       r"(?:\s+(?:(?:common\s+)?(?:share|stock)holders|owners)\s+of)?$"
                       r"|归属于$|归属$")
#: The wordings a profile gives an owners' line, tried in turn with the metric's name.
_FORMS = ("{} attributable to the company", "{} attributable to shareholders",
          "{} attributable to shareholders of the parent", "归属于母公司股东的{}",
          "归属于母公司所有者的{}")
def owners_metric(profile: DomainProfile, text: str, entities: Sequence[tuple[int, int]],
                  metric_name: str) -> str | None:
    """The profile's owners' metric when the question names the company as the owner.

    Parameters
    ----------
    text : str
        The folded question.
    entities : sequence of (start, end)
        Where the question names a company.
    metric_name : str
        The metric's name as the question writes it ("net income").

    Examples
    --------
    >>> p = DomainProfile.builtin()
    >>> q = "what was 3m's net income attributable to 3m in 2022?"
    >>> owners_metric(p, q, [(q.rindex("3m"), q.rindex("3m") + 2)], "net income")
    'NET_INCOME_PARENT'
    >>> q = "3m 2022年归属于3m的净利润是多少"
    >>> owners_metric(p, q, [(q.rindex("3m"), q.rindex("3m") + 2)], "净利润")
    'NET_INCOME_PARENT'
    >>> q = "net income of 3m in 2022"
    >>> owners_metric(p, q, [(q.index("3m"), q.index("3m") + 2)], "net income") is None
    True
    """
    if not metric_name or not any(_OWNED_BY.search(text[:start].rstrip())
                                  for start, _ in entities):
        return None
    for form in _FORMS:
        code = normalize_metric(profile, form.format(metric_name))
        if code is not None:
            return code
    return None




def named_codes(profile: DomainProfile, text: str,
                entities: Sequence[tuple[int, int, str, str]], rows: Rows) -> tuple[str, ...]:
    """The metrics the question's rows name.

    The owners' line when the company is named as its owner; a ratio named with the
    items it is computed from is the ratio.
    """
    if rows.hits and (len(rows.codes) == 1 or len(rows.hits) == 1):
        # one row named ("net income"), read with the company as its owner
        owned = owners_metric(profile, text, [(s, e) for s, e, _, _ in entities],
                              rows.hits[0][3])
        if owned is not None and owned in profile.metrics and \
                (len(rows.codes) == 1 or owned in rows.codes):
            return (owned,)
    return formula_named(profile.metrics, rows.codes)
