"""Domain profile: everything company-specific, loaded from TOML, YAML, JSON or a dict.

Nothing about a company is hard-coded in ragspine_nb. A profile names the home
company and entity, the entities, metrics and channels with their synonyms, the
competitor aliases the security gate refuses, and the sensitivity policy.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ragspine_nb.competitors import parse_competitors
from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.errors import ProfileError
from ragspine_nb.profile_fields import (
    MetricSpec,
    parts_reach,
    read_metrics,
    str_list,
    table_of,
    text_of,
)
from ragspine_nb.sensitivity_policy import SensitivityPolicy, policy_from_table

__all__ = [
    "DomainProfile",
    "find_profile",
    "EntitySpec",
    "MetricSpec",
    "ChannelSpec",
    "SensitivityPolicy",
    "PROFILE_FORMATS",
    "parts_reach",
    "BUILTIN_PROFILE",
]

#: File suffixes :meth:`DomainProfile.from_file` understands.
PROFILE_FORMATS: tuple[str, ...] = (".toml", ".yaml", ".yml", ".json")
_SECTIONS = ("home", "entities", "metrics", "channels", "competitors", "sensitivity")
#: The package data file of :meth:`DomainProfile.builtin`.
BUILTIN_PROFILE = "financial.toml"


@dataclass(frozen=True)
class EntitySpec:
    """One reporting entity (a company, segment or region)."""

    code: str
    label: str
    geography: str
    synonyms: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChannelSpec:
    """One sales or distribution channel."""

    code: str
    synonyms: tuple[str, ...] = ()


def find_profile(folder: str | Path) -> Path | None:
    """The ``profile.<toml|yaml|yml|json>`` in ``folder`` (a workspace), if any."""
    for suffix in PROFILE_FORMATS:
        candidate = Path(folder) / f"profile{suffix}"
        if candidate.is_file():
            return candidate
    return None


def _home_table(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The ``[home]`` table, which a profile must have."""
    home = table_of("home", data.get("home"))
    if not home:
        raise ProfileError(
            "the profile has no [home] section; it needs home.company_name and "
            f"home.entity_code. Known sections: {list(_SECTIONS)}"
        )
    return home


def _read_entities(data: Mapping[str, Any]) -> dict[str, EntitySpec]:
    """The ``[entities]`` table, by code (the home entity is added after)."""
    entities: dict[str, EntitySpec] = {}
    for code, spec in table_of("entities", data.get("entities")).items():
        spec = table_of(f"entities.{code}", spec)
        entities[code] = EntitySpec(
            code=text_of("entity code", code),
            label=str(spec.get("label") or code),
            geography=str(spec.get("geography") or "UNSPECIFIED"),
            synonyms=str_list(f"entities.{code}.synonyms", spec.get("synonyms")),
        )
    return entities


def _with_home_entity(entities: dict[str, EntitySpec], home: Mapping[str, Any], company: str,
                      home_code: str) -> dict[str, EntitySpec]:
    """``entities`` with the home entity merged in (its synonyms include the company name)."""
    home_synonyms = str_list("home.synonyms", home.get("synonyms"))
    existing = entities.get(home_code)
    entities[home_code] = EntitySpec(
        code=home_code,
        label=existing.label if existing else str(home.get("label") or company),
        geography=(existing.geography if existing and existing.geography
                   else str(home.get("geography") or "GROUP")),
        synonyms=tuple(dict.fromkeys(
            (*(existing.synonyms if existing else ()), *home_synonyms, company)
        )),
    )
    return entities


def _read_channels(data: Mapping[str, Any]) -> tuple[str, dict[str, ChannelSpec]]:
    """The default channel code and every channel by code (the default one first)."""
    channel_table = table_of("channels", data.get("channels"))
    default_channel = text_of("channels.default", channel_table.get("default", "TOTAL"))
    channels: dict[str, ChannelSpec] = {default_channel: ChannelSpec(default_channel)}
    for code, spec in channel_table.items():
        if code == "default":
            continue
        spec = table_of(f"channels.{code}", spec)
        channels[code] = ChannelSpec(
            code=code, synonyms=str_list(f"channels.{code}.synonyms", spec.get("synonyms"))
        )
    return default_channel, channels


@dataclass(frozen=True, eq=False)
class DomainProfile(CardReprMixin):
    """A company's vocabulary and policies.

    Build one with :meth:`from_dict` or :meth:`from_file`; see the README for the
    shape. The home entity is also an entity, with its own synonyms.

    Examples
    --------
    >>> p = DomainProfile.from_dict({
    ...     "home": {"company_name": "ACME Group", "entity_code": "ACME_GROUP"},
    ...     "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue", "营收"]}},
    ... })
    >>> p.home_entity_code, sorted(p.metrics)
    ('ACME_GROUP', ['REVENUE'])
    """

    company_name: str
    home_entity_code: str
    entities: Mapping[str, EntitySpec]
    metrics: Mapping[str, MetricSpec]
    channels: Mapping[str, ChannelSpec]
    default_channel: str = "TOTAL"
    competitors: Mapping[str, str] = field(default_factory=dict)
    sensitivity: SensitivityPolicy = field(default_factory=SensitivityPolicy)
    extra: Mapping[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ loading
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DomainProfile:
        """Build a profile from a mapping of the documented shape.

        Unknown top-level sections are kept in :attr:`extra` (profiles may grow);
        missing required keys raise :class:`~ragspine_nb.errors.ProfileError`.
        """
        if not isinstance(data, Mapping):
            raise ProfileError(f"a profile must be a mapping, got {type(data).__name__}")
        home = _home_table(data)
        company = text_of("home.company_name", home.get("company_name"))
        home_code = text_of("home.entity_code", home.get("entity_code"))
        entities = _with_home_entity(_read_entities(data), home, company, home_code)
        metrics = read_metrics(table_of("metrics", data.get("metrics")))
        default_channel, channels = _read_channels(data)
        competitors = parse_competitors(table_of("competitors", data.get("competitors")))
        policy = policy_from_table(table_of("sensitivity", data.get("sensitivity")))
        extra = {k: v for k, v in data.items() if k not in _SECTIONS}
        return cls(
            company_name=company,
            home_entity_code=home_code,
            entities=entities,
            metrics=metrics,
            channels=channels,
            default_channel=default_channel,
            competitors=competitors,
            sensitivity=policy,
            extra=extra,
        )

    @classmethod
    @lru_cache(maxsize=1)
    def builtin(cls) -> DomainProfile:
        """The built-in financial profile (package data ``data/financial.toml``).

        Statement line items in English and Chinese with their usual synonyms (amounts
        without a default unit: tables state it), the home entity "the company"
        (``COMPANY``), no competitors, the default sensitivity policy. A workspace with
        no profile starts from it; it is one cached object (glossary caches per profile).

        >>> p = DomainProfile.builtin()
        >>> p.home_entity_code, p.is_builtin, p.unit_of("REVENUE"), p is DomainProfile.builtin()
        ('COMPANY', True, '', True)
        """
        text = resources.files("ragspine_nb").joinpath("data", BUILTIN_PROFILE).read_text("utf-8")
        return cls.from_dict(tomllib.loads(text))

    @property
    def is_builtin(self) -> bool:
        """Whether this is the built-in profile (or a saved copy of it)."""
        about = self.extra.get("about")
        return isinstance(about, Mapping) and about.get("name") == "financial"

    @classmethod
    def from_file(cls, path: str | Path) -> DomainProfile:
        """Load a profile from a ``.toml``, ``.yaml``/``.yml`` or ``.json`` file."""
        p = Path(path)
        suffix = p.suffix.lower()
        if suffix not in PROFILE_FORMATS:
            raise ProfileError(
                f"cannot read a profile from {p.name!r}: unknown format {suffix!r}. "
                f"Supported formats: {list(PROFILE_FORMATS)}"
            )
        if not p.is_file():
            raise ProfileError(f"profile file not found: {p}")
        raw = p.read_text(encoding="utf-8")
        try:
            if suffix == ".toml":
                data: Any = tomllib.loads(raw)
            elif suffix == ".json":
                data = json.loads(raw)
            else:
                import yaml

                data = yaml.safe_load(raw)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError, ValueError) as exc:
            raise ProfileError(f"cannot parse profile {p.name!r}: {exc}") from exc
        except Exception as exc:  # yaml.YAMLError does not subclass ValueError
            raise ProfileError(f"cannot parse profile {p.name!r}: {exc}") from exc
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """The profile in the documented shape; ``from_dict(p.to_dict())`` rebuilds it."""
        home = self.entities[self.home_entity_code]
        return {
            "home": {"company_name": self.company_name, "entity_code": self.home_entity_code,
                     "label": home.label, "geography": home.geography,
                     "synonyms": list(home.synonyms)},
            "entities": {c: {"label": e.label, "geography": e.geography,
                             "synonyms": list(e.synonyms)}
                         for c, e in self.entities.items() if c != self.home_entity_code},
            "metrics": {c: {"unit": m.unit, "label": m.label, "synonyms": list(m.synonyms),
                            **({"parts": list(m.parts)} if m.parts else {}),
                            **({"formula": m.formula} if m.formula else {}),
                            **({"operand_formula": m.operand_formula}
                               if m.operand_formula else {}),
                            **({"row_labels": list(m.row_labels)} if m.row_labels else {}),
                            **({"balance": True} if m.balance else {})}
                        for c, m in self.metrics.items()},
            "channels": {"default": self.default_channel, **{
                c: {"synonyms": list(ch.synonyms)} for c, ch in self.channels.items()
                if c != self.default_channel}},
            "competitors": dict(self.competitors),
            "sensitivity": self.sensitivity.to_dict(),
            **{k: v for k, v in self.extra.items()},
        }

    # ---------------------------------------------------------------- queries
    @property
    def home_entity(self) -> EntitySpec:
        """The home entity's spec."""
        return self.entities[self.home_entity_code]

    def geography_of(self, entity_code: str) -> str:
        """Return the geography code of an entity (``""`` if unknown)."""
        spec = self.entities.get(entity_code)
        return spec.geography if spec else ""

    def unit_of(self, metric_code: str) -> str:
        """Return the default unit of a metric (``""`` if unknown)."""
        spec = self.metrics.get(metric_code)
        return spec.unit if spec else ""

    def contains(self, aggregate: str, part: str) -> bool:
        """Whether metric ``aggregate`` is the sum of ``part`` (directly or through parts).

        Examples
        --------
        >>> p = DomainProfile.from_dict({
        ...     "home": {"company_name": "ACME", "entity_code": "ACME"},
        ...     "metrics": {"REVENUE": {"unit": "USD_M", "parts": ["CLOUD", "LICENCES"]},
        ...                 "CLOUD": {"unit": "USD_M"}, "LICENCES": {"unit": "USD_M"}}})
        >>> p.contains("REVENUE", "CLOUD"), p.contains("CLOUD", "REVENUE")
        (True, False)
        """
        return parts_reach(self._parts, aggregate, part)

    @cached_property
    def _parts(self) -> dict[str, tuple[str, ...]]:
        """Each metric's parts (read once: a profile does not change)."""
        return {c: tuple(m.parts) for c, m in self.metrics.items()}

    # ---------------------------------------------------------------- display
    def _display_card(self) -> Any:
        from ragspine_nb.display.render import Card, Table

        rows = [
            ("entity", e.code, e.label, e.geography, ", ".join(e.synonyms))
            for e in self.entities.values()
        ] + [
            ("metric", m.code, m.label or m.code, m.unit, ", ".join(m.synonyms))
            for m in self.metrics.values()
        ] + [
            ("channel", c.code, "default" if c.code == self.default_channel else "", "",
             ", ".join(c.synonyms))
            for c in self.channels.values()
        ]
        return Card(
            title="DomainProfile",
            subtitle=f"{self.company_name} (home entity {self.home_entity_code})",
            stats=(
                ("entities", str(len(self.entities))),
                ("metrics", str(len(self.metrics))),
                ("channels", str(len(self.channels))),
                ("competitor aliases", str(len(self.competitors))),
                ("default sensitivity", self.sensitivity.default),
            ),
            tables=(
                Table(
                    caption="Vocabulary",
                    columns=("kind", "code", "label", "geography / unit", "synonyms"),
                    rows=tuple(rows),
                ),
            ),
        )

    def __repr__(self) -> str:
        return (
            f"DomainProfile(company_name={self.company_name!r}, "
            f"home_entity_code={self.home_entity_code!r}, entities={len(self.entities)}, "
            f"metrics={len(self.metrics)}, channels={len(self.channels)}, "
            f"competitors={len(self.competitors)})"
        )

