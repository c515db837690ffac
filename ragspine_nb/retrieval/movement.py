"""The words a report explains a movement with, for a question asking why something moved.

"Why did operating income fall in 2022?" is answered in a filing by a sentence such as
"Operating income margins decreased … due to …": the report's verb is not the
question's ("fall" → "decreased") and the answer is marked by its causal words ("due to",
"driven by", "as a result of"). Searched with its own words, the question finds every
passage that mentions operating income, 2022 — and "fall". Three small rules say it the
report's way, read from the question's structure alone (a cause asked — "why", "what
drove", 为什么, 原因 — *and* one direction stated — fall, drop, rise, grow …, 下降, 增长 …),
never from a dataset's phrases:

* :func:`direction` — the direction a word states (``"down"``, ``"up"`` or ``None``);
* :func:`report_wording` — the question with its direction words in the report's verb;
* :func:`movement_query` — its content words plus the report's verbs and causal words.

A question without a cause asked, or with no or both directions, is left as it is.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

__all__ = ["direction", "report_wording", "movement_query", "DOWN_VERBS", "UP_VERBS"]

Direction = Literal["down", "up"]

#: A question asking for a cause (English and Chinese).
_CAUSE = re.compile(
    r"\bwhy\b|\bwhat\s+(?:caused|causes|led\s+to|drove|drives|contributed\s+to|explains?)\b|"
    r"\breasons?\b|\bfactors?\b|\bdrivers?\b|为什么|为何|原因|什么导致|哪些因素|何故",
    re.IGNORECASE)
#: Verbs (every inflection) that state a direction, in a question or a report.
DOWN_VERBS = frozenset(
    "fall falls fell fallen falling drop drops dropped dropping decline declines declined "
    "declining decrease decreases decreased decreasing shrink shrinks shrank shrunk "
    "shrinking contract contracted contracting worsen worsened deteriorate deteriorated "
    "slump slumped 下降 下滑 减少 降低 下跌 萎缩 减弱".split())
UP_VERBS = frozenset(
    "rise rises rose risen rising increase increases increased increasing grow grows grew "
    "grown growing improve improves improved improving expand expands expanded expanding "
    "climb climbed jump jumped surge surged 上升 增长 增加 提高 上涨 扩大".split())
#: A word that may be one of those verbs: an English word, or a Chinese verb wherever it is.
_VERB = re.compile("[A-Za-z]+|" + "|".join(sorted(w for w in DOWN_VERBS | UP_VERBS
                                                   if not w.isascii())))
#: How a report says each direction (the verb first), and the words a cause is stated with.
_SAID = {"down": ("decreased", "decrease declined decline", "下降", "减少"),
         "up": ("increased", "increase grew growth", "增长", "增加")}
_WHY_EN = "primarily due driven result"
_WHY_ZH = "主要 由于"
_DROP = frozenset(
    "a an and are as at be been by can could did do does for from had has have how in is it "
    "its of on or the their this to was were what which why will with would reason reasons "
    "factor factors driver drivers caused causes led drove drives contributed explain "
    "explains".split())


def direction(word: str) -> Direction | None:
    """The direction a word states, if it is a verb of movement.

    Examples
    --------
    >>> direction("fell"), direction("Increased"), direction("下滑"), direction("lower")
    ('down', 'up', 'down', None)
    """
    folded = word.casefold()
    return "down" if folded in DOWN_VERBS else "up" if folded in UP_VERBS else None


def _said(question: str) -> tuple[str, Direction] | None:
    """The question with its direction verbs in the report's verb, and that direction.

    ``None`` unless it asks a cause and states one direction. Only verbs of the question's
    own script are rewritten ("下滑" in a Chinese question, "fell" in an English one).
    """
    text = unicodedata.normalize("NFKC", question)
    if not _CAUSE.search(text):
        return None
    found = {d for m in _VERB.finditer(text) if (d := direction(m.group(0))) is not None}
    if len(found) != 1:
        return None
    moved = found.pop()
    verb = _SAID[moved][0 if text.isascii() else 2]
    said = _VERB.sub(lambda m: verb if direction(m.group(0)) == moved and
                     m.group(0).isascii() == text.isascii() else m.group(0), text)
    return said, moved


def report_wording(question: str) -> str | None:
    """The question with its direction words in the report's verb, when it asks why.

    Examples
    --------
    >>> report_wording("Why did 3M's operating income fall in 2022?")
    "Why did 3M's operating income decreased in 2022?"
    >>> report_wording("为什么香港2025年营业收入下滑了？")
    '为什么香港2025年营业收入下降了?'
    >>> report_wording("What was operating income in 2022?") is None  # no cause asked
    True
    >>> report_wording("Why did sales rise while margins fell?") is None  # two directions
    True
    """
    found = _said(question)
    return found[0] if found else None


def movement_query(question: str) -> str | None:
    """The question's content words, the report's verbs for its direction, causal words.

    Examples
    --------
    >>> movement_query("Why did 3M's operating income fall in 2022?")
    "3M's operating income decreased 2022 decrease declined decline primarily due driven result"
    >>> movement_query("为什么香港2025年营业收入下滑了？")
    '香港2025年营业收入下降 减少 主要 由于'
    >>> movement_query("Why does the company hold treasury stock?") is None  # no direction
    True
    """
    found = _said(question)
    if found is None:
        return None
    said, moved = found
    if said.isascii():
        words = re.findall(r"[A-Za-z0-9]+(?:[-_/.'&][A-Za-z0-9]+)*", _CAUSE.sub(" ", said))
        content = " ".join(w for w in words if w.casefold() not in _DROP)
        return f"{content} {_SAID[moved][1]} {_WHY_EN}"
    rest = re.sub(r"[？?。，,！!：:了吗呢\s]+", " ", _CAUSE.sub(" ", said)).strip()
    return f"{rest} {_SAID[moved][3]} {_WHY_ZH}"
