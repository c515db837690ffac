"""Figures restated in the scale the question asks ("in USD billions", "多少亿元").

The answer states each figure as its report does (34,229 US$ m); when the question asks
for another scale, a block after the figures restates each amount in it with the
conversion shown (34.229 US$ bn = 34,229 US$ m ÷ 1,000). Nothing is guessed: a figure
whose source states no scale is said not to be restated, and a currency other than the
one asked is named, never converted (no exchange rate is applied); a currency asked
alone ("in euros") says the currency each figure is stated in, or that none is stated.
Percentages, ratios and counts are not amounts and are left as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ragspine_nb.agent.reading.asked_scale import AskedScale
from ragspine_nb.agent.write.answer import amount_figure, shown_value
from ragspine_nb.agent.write.templates import TEXT, format_value
from ragspine_nb.core import Figure
from ragspine_nb.units import join_unit, unit_label, unit_parts, with_unit

__all__ = ["restated", "with_restated"]

_SAME_CURRENCY = ({"CNY", "RMB"},)


def _same_currency(have: str, asked: str) -> bool:
    """Whether a stated currency is the one asked (none asked: any is)."""
    return not asked or have == asked or any({have, asked} <= s for s in _SAME_CURRENCY)


def _currency_line(figure: Figure, asked: AskedScale, lang: str) -> str:
    """A currency asked alone: which currency the figure is stated in ("" the one asked)."""
    have = unit_parts(figure.unit).currency
    if have and _same_currency(have, asked.currency):
        return ""
    key = "currency_stated" if have else "currency_not_stated"
    return TEXT[key][lang].format(label=figure.label, asked=unit_label(asked.currency, lang),
                                  have=unit_label(have, lang) if have else "")


def _line(figure: Figure, asked: AskedScale, lang: str) -> str:
    """One figure restated, or why it is not ("" when it is already in the scale)."""
    parts = unit_parts(figure.unit)
    if parts.percent or not amount_figure(figure):
        return ""
    if not asked.has_scale:
        return _currency_line(figure, asked, lang)
    if parts.factor is None:
        return TEXT["restated_no_scale"][lang].format(label=figure.label)
    if parts.factor == asked.factor:
        return ""
    shown = shown_value(figure)
    factor = Decimal(repr(parts.factor)) / Decimal(repr(asked.factor))
    value = float(Decimal(repr(shown)) * factor)
    step = f"× {format_value(float(factor))}" if factor >= 1 \
        else f"÷ {format_value(float(1 / factor))}"
    sep = "：" if lang == "zh" else ": "
    restated_unit = join_unit(parts.currency, asked.scale)
    text = (f"{figure.label}{sep}{with_unit(format_value(value), restated_unit, lang)}"
            f" = {with_unit(format_value(shown), figure.unit, lang)} {step}")
    if parts.currency and not _same_currency(parts.currency, asked.currency):
        text += TEXT["restated_currency"][lang].format(have=unit_label(parts.currency, lang))
    return text


def restated(figures: Sequence[Figure], asked: AskedScale | None, lang: str) -> str:
    """The block restating ``figures`` in the asked scale ("" when none needs it).

    Examples
    --------
    >>> from ragspine_nb.core import Fact
    >>> f = Fact("REVENUE", "MMM", "NA", "TOTAL", "FY", "2022", 34229.0, "USD_M", "3M.pdf", "p48")
    >>> fig = Figure.of_fact(f, "3M Revenue, FY2022")
    >>> print(restated([fig], AskedScale("USD_BN", "in USD billions"), "en"))
    Restated as asked (in USD billions):
    - 3M Revenue, FY2022: 34.229 US$ bn = 34,229 US$ m ÷ 1,000
    >>> restated([fig], AskedScale("USD_M", "in USD millions"), "en")
    ''
    >>> print(restated([fig], AskedScale("EUR", "in euros"), "en"))  # doctest: +ELLIPSIS
    Asked in euros:
    - 3M Revenue, FY2022: stated in US$ by its source; not converted to € (no exchange ...
    """
    if asked is None:
        return ""
    lines = [line for f in figures if (line := _line(f, asked, lang))]
    if not lines:
        return ""
    span = unit_label(asked.unit, lang) if lang == "zh" else asked.span
    head = "restated" if asked.has_scale else "currency_asked"
    return "\n".join([TEXT[head][lang].format(span=span),
                      *(f"- {line}" for line in lines)])


def with_restated(answer: str, figures: Sequence[Figure], asked: AskedScale | None,
                  lang: str) -> str:
    """``answer`` with the restating block after its figures (before any narrative part).

    The figures come first in an answer; a narrative part (attribution, passages) follows
    after a blank line, and the block goes before it.
    """
    block = restated(figures, asked, lang)
    if not block:
        return answer
    head, blank, tail = answer.partition("\n\n")
    return f"{head}\n{block}{blank}{tail}"
