"""Per-document metadata given with a batch: ``{doc_id: {title, company, period, …}}``."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ragspine_nb.errors import RagspineError

__all__ = ["load_metadata"]


def load_metadata(source: Mapping[str, Mapping[str, Any]] | str | Path | None
                  ) -> dict[str, dict[str, Any]]:
    """Per-document metadata from a mapping or a TOML/JSON/YAML file ``{doc_id: {...}}``."""
    if source is None:
        return {}
    if isinstance(source, Mapping):
        data: Any = source
    else:
        path = Path(source)
        text = path.read_text(encoding="utf-8")
        suffix = path.suffix.lower()
        if suffix == ".toml":
            data = tomllib.loads(text)
        elif suffix == ".json":
            data = json.loads(text)
        elif suffix in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text)
        else:
            raise RagspineError(f"metadata file {path.name!r}: use .toml, .json, .yaml or .yml")
    if not isinstance(data, Mapping) or not all(isinstance(v, Mapping) for v in data.values()):
        raise RagspineError("metadata must map each document id to a table of fields")
    return {str(k): dict(v) for k, v in data.items()}
