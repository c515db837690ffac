"""The question engine's rules as the README lists them, read from the rule files.

Every module of ``agent/reading`` (how a question is read), ``agent/scope`` (what the
workspace and the store can settle) and ``agent/compute`` (what is computed, and how) is
one rule or one family of rules. :func:`rules` lists each with the first line of its
docstring and how many examples its doctests hold (``make test`` runs them);
:func:`rule_catalogue` is the README's table, which a test keeps equal to the code.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from dataclasses import dataclass

__all__ = ["PACKAGES", "Rule", "rules", "rule_catalogue"]

#: The packages of the question engine whose modules are rules, in the order they act.
PACKAGES: tuple[str, ...] = ("reading", "scope", "compute")


@dataclass(frozen=True)
class Rule:
    """One rule file: where it is, what it says, how many examples it holds."""

    package: str
    module: str
    says: str
    examples: int


def _examples(module: object, name: str) -> int:
    finder = doctest.DocTestFinder(exclude_empty=True)
    return sum(len(t.examples) for t in finder.find(module, name)
               if t.name == name or t.name.startswith(f"{name}."))


def rules() -> list[Rule]:
    """Every rule file of :data:`PACKAGES`, in package then name order.

    >>> found = rules()
    >>> [r.module for r in found if r.package == "reading"][:2]
    ['abbreviations', 'acronyms']
    >>> next(r for r in found if r.module == "asked_scale").examples > 0
    True
    """
    out = []
    for package in PACKAGES:
        pkg = importlib.import_module(f"ragspine_nb.agent.{package}")
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            name = f"{pkg.__name__}.{info.name}"
            module = importlib.import_module(name)
            says = (module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else ""
            out.append(Rule(package, info.name, says, _examples(module, name)))
    return out


def rule_catalogue() -> str:
    """The rules as the README lists them: file, what it reads or decides, examples.

    >>> print(rule_catalogue().splitlines()[0])
    | rule file | what it reads or decides | examples |
    """
    lines = ["| rule file | what it reads or decides | examples |", "|---|---|---|"]
    lines += [f"| `{r.package}/{r.module}.py` | {r.says.replace('|', '/')} | {r.examples} |"
              for r in rules()]
    return "\n".join(lines)
