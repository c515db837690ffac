"""The same file reads to the same facts in the same order, in any process.

A set of periods was iterated where a row's only figure for a period became that
period's total: its order follows Python's string hashing, which changes from one
process to the next (``PYTHONHASHSEED``), so re-reading a filing gave its facts in
another order (3M's 2016 pension table: a row with figures in its International
columns only).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]

_PENSION = """\
,United States,,,International,,,Benefits,,
(Millions),2016,2015,2014,2016,2015,2014,2016,2015,2014
Service cost,$ 259,$ 293,$ 241,$ 133,$ 154,$ 141,$ 54,$ 75,$ 65
Amortization of transition (asset) obligation,—,—,—,(1),(1),(1),—,—,—
"""

_READ = """\
import json, sys
from pathlib import Path
from ragspine_nb.extract.document import read_document
from ragspine_nb.profile import DomainProfile
r = read_document(Path(sys.argv[1]), "pension", DomainProfile.builtin())
print(json.dumps([[f.source_locator, f.channel, f.period_type, f.period] for f in r.facts]))
"""


def _facts_with_seed(path: Path, seed: str) -> list[list[str]]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-c", _READ, str(path)], capture_output=True,
                         text=True, check=True, cwd=_ROOT, env=env)
    return json.loads(out.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_a_tables_facts_come_in_the_same_order_under_any_hash_seed(tmp_path: Path) -> None:
    path = tmp_path / "pension.csv"
    path.write_text(_PENSION, encoding="utf-8")
    runs = [_facts_with_seed(path, seed) for seed in ("1", "2", "3")]
    assert runs[0] == runs[1] == runs[2]
    # the row's International figures are also its totals, in the columns' order
    totals = [(loc, period) for loc, channel, _, period in runs[0]
              if loc.endswith("4") and channel == "TOTAL"]
    assert totals == [("cell=E4", "2016"), ("cell=F4", "2015"), ("cell=G4", "2014")]
