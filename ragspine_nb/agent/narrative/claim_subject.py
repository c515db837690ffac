"""Whether a metric's name in a sentence is what a figure beside it is of.

A report's prose names stored line items inside longer phrases whose figures are of
something else. Each rule here is read from the words around the name or the number,
never from a list of sentences:

* **a complement**: the name follows a preposition whose head is another quantity —
  "amortization expense *on* capitalized internal-use software was $2.5 million" is the
  expense's figure, not the software's; a generic head ("the figure *for* revenue", "the
  amount *of* revenue") or a change ("growth *in* revenue") leaves it the metric's;
* **a container**: the name is what the figure is part of — "included *in* the deferred
  tax assets are credits totaling $4.9 million", "a portion *of* revenue", "*Of* the
  valuation allowance, $42.8 million was established in the current year";
* **a count**: the number counts things, not money — "129.1 million *pounds of* chicken",
  "58,733,844 ordinary *shares*";
* **a date as a name**: a row label that is only a date ("At 31 December") names a
  balance's column, not a quantity prose states.
"""

from __future__ import annotations

import re

__all__ = ["complement", "container", "counted", "dated_name"]

_PREPOSITION = (r"(?:on|for|against|from|to|into|under|over|with|by|of|in|within|toward|towards"
                r"|before|after|excluding|net\s+of|less)")
#: Heads that leave the quantity as it is ("the figure for revenue") or say how it moved.
_SAME_QUANTITY = frozenset(
    "figure figures amount amounts total totals number value level sum size balance result "
    "results growth increase increases decrease decreases decline declines rise rises fall "
    "falls change changes drop drops gain gains jump improvement reduction".split())
_HEAD = re.compile(rf"(?<![a-z'’-])(?P<head>[a-z][a-z'’-]+)\s+{_PREPOSITION}\s+"
                   r"(?:(?:the|its|our|their|a|an|such|this|that|these|those)\s+)?"
                   r"(?:[a-z][a-z'’.-]*\s+){0,3}$")
#: Words that are no head noun before a preposition ("was in", "and on", "about").
_NOT_HEAD = frozenset(
    "was were is are be been being has have had and or but as so that which who what when "
    "where while than then also only not including included includes include about due "
    "according relating related compared primarily mainly largely partly both each "
    "all".split())
_CONTAINER = re.compile(r"^\W*of\s+(?:the\s+|its\s+|our\s+)?(?:[a-z][a-z'’-]*\s+){0,2}$|"
                        r"(?:includ(?:ed|es|e|ing)|contained|comprised|reflected|recorded|"
                        r"classified|presented)\s+(?:with)?in\s+(?:the\s+|its\s+|our\s+)?"
                        r"(?:[a-z][a-z'’-]*\s+){0,2}$|(?<![a-z])(?:part|portion|component|"
                        r"components|share|percentage|percent|proportion|fraction)\s+of\s+"
                        r"(?:the\s+|its\s+|our\s+)?(?:[a-z][a-z'’-]*\s+){0,2}$")
#: What a number may count instead of money.
_COUNTED = re.compile(
    r"^\s?(?:million|billion|thousand|mn|bn|m|k)?\s*(?:ordinary\s+|common\s+|preferred\s+|"
    r"treasury\s+|class\s+[a-z]\s+)?(?:shares?|units?|pounds\s+of|tons?|tonnes?|barrels?|"
    r"ounces?|gallons?|litres?|liters?|employees?|people|persons?|customers?|subscribers?|"
    r"members?|users?|accounts?|stores?|locations?|restaurants?|branches|outlets|sites?|"
    r"square\s+(?:feet|foot|meters?|metres?)|sq\.?\s*ft|acres?|hectares?|vehicles?|"
    r"aircraft|vessels?|rooms?|beds?|patients?|policies|contracts?|transactions?|"
    r"mw|gw|kw|mwh|gwh|kwh|megawatts?|gigawatts?|days?|months?|years?|hours?|times)(?![a-z])")
_DATE_WORDS = re.compile(
    r"^(?:(?:at|as|of|on|as at|as of|balance|balances|at the|end|beginning|year|"
    r"\d{1,2}(?:st|nd|rd|th)?|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|"
    r"oct\w*|nov\w*|dec\w*|(?:19|20)\d\d)\W*)+$")


def complement(before: str) -> bool:
    """Whether the words before a metric's name make it a prepositional complement.

    >>> complement("total amortization expense on capitalized internal-use ")
    True
    >>> complement("the figure for acme hong kong "), complement("growth in ")
    (False, False)
    >>> complement("what about acme hong kong "), complement("revenue was up, and in ")
    (False, False)
    >>> complement("income before "), complement("$191.7 million against its u.s. ")
    (True, True)
    """
    m = _HEAD.search(before)
    if m is None:
        return False
    head = m.group("head").strip("'’")
    return head not in _SAME_QUANTITY and head not in _NOT_HEAD


def container(before: str) -> bool:
    """Whether the metric's name is what the figure is a part of.

    >>> container("also included in the "), container("a portion of "), container("the ")
    (True, True, False)
    >>> container("of the ")
    True
    """
    return bool(_CONTAINER.search(before))


def counted(after: str) -> bool:
    """Whether the words after a number say it counts things, not money.

    >>> counted(" million pounds of prepared chicken"), counted(" ordinary shares")
    (True, True)
    >>> counted(" million in 2019"), counted(" million us dollars")
    (False, False)
    """
    return bool(_COUNTED.match(after))


def dated_name(term: str) -> bool:
    """Whether a metric's name is only a date or a balance date ("at 31 december").

    >>> dated_name("at 31 december"), dated_name("balance at end of year"), dated_name("revenue")
    (True, True, False)
    """
    return bool(_DATE_WORDS.match(term.strip()))
