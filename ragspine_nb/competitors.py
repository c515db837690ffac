"""The ``[competitors]`` section of a domain profile: every alias → its display name.

Two forms, mixed freely (TOML shown; YAML, JSON and dicts have the same shape)::

    [competitors]
    "竞安" = "竞安(Jingan)"                     # "alias" = "display"

    [competitors."竞安证券"]                     # the key is an alias too
    display = "竞安证券(Jingan Securities)"      # optional, defaults to the key
    aliases = ["Jingan Securities", "Jing'an Securities", "jingan zhengquan"]

Romanised or English spellings of a short name are declared here, per competitor, rather
than derived (a pinyin of 竞安 is also the place name 静安). For a Chinese name of three or
more characters the security gate also derives its pinyin and initials (竞安证券:
``jinganzhengquan``, ``JAZQ``) and matches them in Latin text only, never folding Chinese
text to pinyin; it reads each character with its most common reading, so a name with a
polyphonic character (银行 is *yinhang*, read *yinxing*) needs its pinyin declared too.
The result is a flat mapping, which :meth:`DomainProfile.to_dict` writes back in the
first form (it reads back the same).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragspine_nb.errors import ProfileError

__all__ = ["parse_competitors", "COMPETITOR_KEYS"]

#: Keys a competitor table may hold.
COMPETITOR_KEYS: tuple[str, ...] = ("aliases", "display")


def _name(where: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ProfileError(f"{where} must be a non-empty string, got {value!r}")
    return value.strip()


def _entry(alias: str, entry: object) -> tuple[str, tuple[str, ...]]:
    """One entry's display name and extra aliases."""
    where = f"competitors.{alias!r}"
    if isinstance(entry, str):
        return _name(where, entry), ()
    if not isinstance(entry, Mapping):
        raise ProfileError(f"{where} must be a display name or a table with 'display' and/or "
                           f"'aliases', got {entry!r}")
    unknown = sorted(str(k) for k in entry if k not in COMPETITOR_KEYS)
    if unknown:
        raise ProfileError(f"{where} has unknown key(s) {unknown}; allowed: "
                           f"{list(COMPETITOR_KEYS)}")
    aliases = entry.get("aliases", [])
    if isinstance(aliases, str) or not isinstance(aliases, list | tuple):
        raise ProfileError(f"{where}.aliases must be a list of strings, got {aliases!r}")
    return (_name(f"{where}.display", entry.get("display", alias)),
            tuple(_name(f"{where}.aliases must hold non-empty strings; an item", a)
                  for a in aliases))


def parse_competitors(table: Mapping[str, Any]) -> dict[str, str]:
    """Alias → display name for every declared alias.

    Raises
    ------
    ProfileError
        An entry that is neither a display name nor a table of ``display`` / ``aliases``,
        an empty name, or one alias declared for two different display names.

    Examples
    --------
    >>> parse_competitors({"竞安": "竞安(Jingan)",
    ...                    "Rivalis": {"display": "Rivalis Holdings", "aliases": ["RVL"]}})
    {'竞安': '竞安(Jingan)', 'Rivalis': 'Rivalis Holdings', 'RVL': 'Rivalis Holdings'}
    """
    out: dict[str, str] = {}
    for key, entry in table.items():
        alias = _name("competitor alias", key)
        display, extra = _entry(alias, entry)
        for name in (alias, *extra):
            if out.setdefault(name, display) != display:
                raise ProfileError(f"competitor alias {name!r} is declared for both "
                                   f"{out[name]!r} and {display!r}")
    return out
