"""Unit codes of the fact store: currency, scale and percent, and when two amounts agree.

``USD_M`` is US dollars in millions, ``CNY_100M`` yuan in 亿 (1e8), ``PCT`` a percentage,
a bare currency (``USD``) units of it, a bare scale (``M``) a plain number in millions and
``""`` a plain number. Two statements of one fact agree when they name the same thing
in the same currency and their amounts match to the precision of the coarser scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["SCALES", "UnitParts", "unit_parts", "same_amount", "scale_ratio", "join_unit",
           "SHARES", "PLAIN", "store_unit", "unit_text"]

#: Scale factors of the unit codes :func:`detect_unit` and the fact store use.
SCALES: dict[str, float] = {"K": 1e3, "10K": 1e4, "M": 1e6, "100M": 1e8, "BN": 1e9}
#: The unit of a count of shares (``shares_K``: thousands of shares); never a currency.
SHARES = "shares"
#: The stored unit of a plain number (no currency, no scale: a ratio, a count, an amount
#: whose source states neither). A stored unit is never empty; :func:`unit_text` shows it
#: as nothing.
PLAIN = "NUMBER"


def store_unit(code: str) -> str:
    """The unit a fact stores: ``""`` (a plain number) becomes :data:`PLAIN`."""
    return code or PLAIN


def unit_text(code: str) -> str:
    """A stored unit as an answer writes it: :data:`PLAIN` is written as nothing.

    Examples
    --------
    >>> unit_text("NUMBER"), unit_text("USD_M"), unit_text("")
    ('', 'USD_M', '')
    """
    return "" if code == PLAIN else code


def join_unit(head: str, scale: str) -> str:
    """A unit code from a currency (or ``shares``) and a scale code, either may be empty.

    Examples
    --------
    >>> join_unit("USD", "M"), join_unit("", "K"), join_unit("EUR", ""), join_unit("", "")
    ('USD_M', 'K', 'EUR', '')
    >>> join_unit("shares", "K")
    'shares_K'
    """
    return f"{head}_{scale}" if head and scale else head or scale


@dataclass(frozen=True)
class UnitParts:
    """A unit code split into what makes two figures comparable."""

    currency: str = ""
    factor: float | None = None
    percent: bool = False


def unit_parts(code: str | None) -> UnitParts:
    """``"USD_M"`` → USD, 1e6; ``"PCT"`` → percent; ``"100M"`` → scale only; None → nothing.

    Examples
    --------
    >>> unit_parts("CNY_100M")
    UnitParts(currency='CNY', factor=100000000.0, percent=False)
    >>> unit_parts("PCT").percent, unit_parts("100M").factor, unit_parts(None).factor
    (True, 100000000.0, None)
    >>> unit_parts("NUMBER").factor, unit_parts("shares_K")
    (None, UnitParts(currency='shares', factor=1000.0, percent=False))
    """
    if not code or code == PLAIN:
        return UnitParts()
    if code == "PCT":
        return UnitParts(percent=True)
    head, _, tail = code.partition("_")
    if tail:
        return UnitParts(head, SCALES.get(tail))
    return UnitParts(factor=SCALES[head]) if head in SCALES else UnitParts(currency=head)


def scale_ratio(unit_a: str, unit_b: str) -> float | None:
    """How many of ``unit_b`` one ``unit_a`` is, for two scales of one currency; else None.

    Examples
    --------
    >>> scale_ratio("USD_M", "USD_K"), scale_ratio("K", "M"), scale_ratio("USD_M", "CNY_M")
    (1000.0, 0.001, None)
    >>> scale_ratio("PCT", "PCT") is None, scale_ratio("USD", "USD_M") is None
    (True, True)
    """
    a, b = unit_parts(unit_a), unit_parts(unit_b)
    if a.percent or b.percent or a.currency != b.currency or not (a.factor and b.factor):
        return None
    return a.factor / b.factor


def same_amount(value_a: float, unit_a: str, value_b: float, unit_b: str) -> bool:
    """Whether two stated amounts are the same figure, written in the same or another scale.

    The same unit compares exactly (float noise aside). Scales of one currency (or two
    plain scaled numbers) compare in base units, within half a unit of the coarser
    figure's last written place: 1,405 ``USD_M`` is 1,405,123 ``USD_K`` (rounded), not
    1,450,000 ``USD_K``. Anything else (another currency, a percentage against an amount,
    an unscaled unit) differs.

    Examples
    --------
    >>> same_amount(1405, "USD_M", 1405123, "USD_K"), same_amount(1405, "USD_M", 1450000, "USD_K")
    (True, False)
    >>> same_amount(14.05, "CNY_100M", 1405, "CNY_M"), same_amount(14.05, "CNY_100M", 1420, "CNY_M")
    (True, False)
    >>> same_amount(1405, "USD_M", 1405, "CNY_M"), same_amount(5.2, "PCT", 5.2, "")
    (False, False)
    """
    if unit_a == unit_b:
        return math.isclose(value_a, value_b, rel_tol=1e-9, abs_tol=1e-12)
    ratio = scale_ratio(unit_a, unit_b)
    if ratio is None:
        return False
    # in ``unit_b``
    step = max(_step(value_a) * ratio, _step(value_b))
    return abs(value_a * ratio - value_b) <= 0.5 * step * (1 + 1e-9)


def _step(value: float) -> float:
    """The last written decimal place of a value (1 for 1405.0, 0.01 for 14.05)."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return 1.0
    decimals = text.split(".")[1].rstrip("0")
    return 10.0 ** -len(decimals)
