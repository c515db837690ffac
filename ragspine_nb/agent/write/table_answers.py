"""Text questions a table answers with its own labels: its periods, its rows, its unit.

"Which years does the table provide information for?", "What are the items under
deferred tax liabilities?", "What are the components of current assets?", "What is
the unit used in the table?" ask for no number: they ask for a table's column periods,
row labels or scale. These are read from what ingestion stored — the facts of the
table (their periods, their cells) and the document's derived vocabulary (row labels,
the section each row sits under, the parts a total adds up) — and each label is cited
by its cell. Named steps, each a small pure function:

1. :func:`table_question` — which of the three the question asks, and the rows it names
   (the words after "of" / "under" / "in"; none: the whole table);
2. :func:`table_rows` — one table's rows in order: label, section, parts, cells;
3. :func:`rows_named` — the rows a phrase names: a total's parts, else the rows of the
   section so named (its total's parts when it has one), else every row that is not a
   total;
4. :func:`table_answer` — the answer text with its sources, or ``None`` (the question is
   not one of these, or the table is not identified: several documents and no metric
   named).

Only stored facts are read: a RESTRICTED document has none, so none of its labels can
appear here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.agent.reading.question_kind import as_question
from ragspine_nb.core import Fact
from ragspine_nb.extract.rows import norm_label
from ragspine_nb.glossary import fold
from ragspine_nb.period_codes import period_label
from ragspine_nb.profile import DomainProfile, MetricSpec
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.units import unit_parts
from ragspine_nb.vocabulary import Vocabulary
from ragspine_nb.wordset import singular

__all__ = ["TableQuestion", "TableRow", "TableAnswer", "table_question", "table_rows",
           "rows_named", "table_answer", "display_label", "ASKS"]

#: What a table question asks for.
ASKS: tuple[str, ...] = ("periods", "rows", "unit")

_I = re.IGNORECASE
_PERIODS = re.compile(
    r"\b(?:which|what)\s+(?:(?:financial|fiscal|calendar|reporting)\s+)?(?:years|periods)\b|"
    r"\bwhat\s+(?:are|were)\s+the\s+(?:\w+\s+)?(?:years|periods)\b|"
    r"哪些年|哪几年|哪些年度|哪些期间|哪几个(?:年度|期间)", _I)
#: A periods question must be about what the table covers, not a test on its values.
_COVERS = re.compile(r"\b(?:tables?|provided?|provides|included|includes?|shown|shows?|"
                     r"presented|presents?|calculated|recorded|reported|available|disclosed|"
                     r"given|listed|covered|information|data)\b|表|列示|披露|提供", _I)
_COMPARES = re.compile(r"\b(?:higher|highest|lower|lowest|larger|largest|smaller|smallest|"
                       r"more|most|less|least|greater|greatest|exceed\w*|above|below|than|"
                       r"increas\w*|decreas\w*|positive|negative|maximum|minimum|between)\b|"
                       r"最高|最低|超过|高于|低于|大于|小于", _I)
_NOUNS = (r"(?:items|line\s+items|components|elements|categories|types|kinds|classes|"
          r"segments|regions|sources|parts|constituents|scopes|breakdown)")
_ROWS = re.compile(
    rf"\bwhat\s+(?:are|were)\s+the\s+(?:\w+\s+){{0,2}}{_NOUNS}\s+(?:(?:that\s+|which\s+)?"
    rf"(?:make|makes|made|making)\s+up|considered\s+\w+\s+\w+|under|of|in|within|listed\s+"
    rf"(?:in|under)|included\s+(?:in|under))\s+(?P<x>[^?]*)"
    rf"|\bwhat\s+(?:are|were)\s+the\s+(?:\w+\s+){{0,2}}{_NOUNS}\s*\??\s*$"
    rf"|\bwhat\s+{_NOUNS}\s+of\s+(?P<y>[^?]*?)\s+(?:are|were)\s+there\b"
    rf"|\bwhat\s+(?:\w+\s+)?{_NOUNS}\s+(?:does|do|did)\s+(?P<z>[^?]*?)\s+(?:consist|comprise|"
    rf"include)\b|(?P<w>[^，,？?]*?)(?:包括哪些|由哪些(?:项目|部分)组成|有哪些项目)", _I)
_UNIT = re.compile(r"\b(?:what|which)\s+(?:is|are|was|were)\s+the\s+(?:units?|scale|"
                   r"currency)\b[^?]*\b(?:table|data|figures|amounts)\b|"
                   r"\bin\s+what\s+(?:units?|scale|currency)\b|(?:表|数据)[^？?]*(?:单位|币种)", _I)
_TABLE_WORDS = re.compile(r"^(?:the\s+|this\s+)?(?:financial\s+)?(?:table|data)\b.*$"
                          r"|\b(?:in|of|from)\s+the\s+table\b.*$", _I)
_CELL = re.compile(r"(?:^|,)cell=([A-Z]+)(\d+)$")
_FOOTNOTE = re.compile(r"\s*\(\s*(?:\d{1,2}|[a-z])\s*\)|\*+|(?<=[a-z])\d$")
_SCALE_WORDS = {1e3: "thousands", 1e6: "millions", 1e9: "billions", 1e8: "hundreds of millions",
                1e4: "ten thousands"}


@dataclass(frozen=True)
class TableQuestion:
    """What a table question asks: ``periods``, ``rows`` (of ``target``) or ``unit``."""

    asks: str
    target: str = ""  # the rows named (folded); "" the whole table


@dataclass(frozen=True)
class TableRow:
    """One row of a table as stored: its metric, label, section, parts and cells."""

    code: str
    label: str
    section: str
    parts: tuple[str, ...]
    cells: tuple[Fact, ...]

    @property
    def is_total(self) -> bool:
        """A row the table adds up from others (it has parts, or says so)."""
        return bool(self.parts) or norm_label(self.label).startswith("total")


@dataclass(frozen=True)
class TableAnswer:
    """The answer text (each label cited ``[n]``) and its sources in citation order."""

    text: str
    sources: tuple[dict[str, str], ...]


def _target(text: str) -> str:
    """The rows a phrase names, folded; "" when it names the table itself."""
    text = fold(text).strip(" ?？.,")
    text = _TABLE_WORDS.sub("", text).strip(" ,")
    return re.sub(r"^(?:the|its|our|their)\s+", "", text)


def table_question(question: str) -> TableQuestion | None:
    """Which table question ``question`` is, if any.

    Examples
    --------
    >>> table_question("Which years does the table provide information for net sales?")
    TableQuestion(asks='periods', target='')
    >>> table_question("What are the items under deferred tax liabilities?")
    TableQuestion(asks='rows', target='deferred tax liabilities')
    >>> table_question("What types of accounts receivable are there?")
    TableQuestion(asks='rows', target='accounts receivable')
    >>> table_question("In which years was revenue higher than 5 million?") is None
    True
    >>> table_question("What are the contract types?") is None
    True
    >>> table_question("List the items under deferred tax liabilities")
    TableQuestion(asks='rows', target='deferred tax liabilities')
    >>> table_question("Show me the years included in the table")
    TableQuestion(asks='periods', target='')
    """
    question = as_question(question)
    if _UNIT.search(question):
        return TableQuestion("unit")
    if _PERIODS.search(question) and _COVERS.search(question) \
            and not _COMPARES.search(question):
        return TableQuestion("periods")
    m = _ROWS.search(question)
    if m is None:
        return None
    target = _target(next((g for g in m.group("x", "y", "z", "w") if g), ""))
    if not target and not re.search(r"\btables?\b|表", question, _I):
        return None  # "what are the contract types?": the text says, not a table's rows
    return TableQuestion("rows", target)


def _position(fact: Fact) -> tuple[int, int]:
    """(row, column) of a cell locator (``cell=B5``); rows of other locators sort last."""
    m = _CELL.search(fact.source_locator)
    if not m:
        return (1 << 30, 0)
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)), col


def _section(spec: MetricSpec) -> str:
    """The section a derived row sits under, read from its section-qualified name."""
    label = norm_label(spec.label)
    for syn in spec.synonyms:
        for pre, post in ((f" {label}", ""), ("", f"{label} ")):
            if pre and syn.endswith(pre) and len(syn) > len(pre):
                return syn[: -len(pre)].strip()
            if post and syn.startswith(post) and len(syn) > len(post):
                return syn[len(post):].strip()
    return ""


def table_rows(facts: Sequence[Fact], profile: DomainProfile,
               vocabulary: Vocabulary | None = None) -> list[TableRow]:
    """The rows of one table's facts, in table order, with labels, sections and parts."""
    vocabulary = vocabulary or Vocabulary()
    derived = {m.code: i for i, m in enumerate(vocabulary.metrics)}
    specs = {m.code: m for m in vocabulary.metrics}
    by_code: dict[str, list[Fact]] = {}
    for f in facts:
        by_code.setdefault(f.metric_code, []).append(f)
    rows = []
    for code, cells in by_code.items():
        spec = specs.get(code) or profile.metrics.get(code) or MetricSpec(code, "", code)
        section = _section(spec) if code in specs else ""
        # a row as its table prints it ("Operating revenue", "EPS (cents)"): a derived row's
        # label, a profile metric's first name the table gave it, else the profile's label
        known = profile.metrics.get(code)
        label = spec.label or (spec.synonyms[0] if code in specs and spec.synonyms else "") \
            or (known.label if known is not None else "") or code
        rows.append(TableRow(code, label, section, tuple(spec.parts),
                             tuple(sorted(cells, key=_position))))
    rows.sort(key=lambda r: (_position(r.cells[0])[0], derived.get(r.code, 1 << 30), r.code))
    return _contiguous_sections(rows)


def _row_no(row: TableRow) -> int:
    return _position(row.cells[0])[0]


def _contiguous_sections(rows: list[TableRow]) -> list[TableRow]:
    """A profile row with no section of its own sits in the section of its neighbours.

    The row just above it when adjacent; else, when it opens a block (the row above is a
    heading with no figures, or there is none), the row just below it when adjacent.
    """
    out = list(rows)
    for i, row in enumerate(out):
        if row.section:
            continue
        above = out[i - 1] if i else None
        below = out[i + 1] if i + 1 < len(out) else None
        if above is not None and _row_no(row) == _row_no(above) + 1:
            section = above.section
        elif below is not None and _row_no(below) == _row_no(row) + 1:
            section = below.section
        else:
            section = ""
        out[i] = TableRow(row.code, row.label, section, row.parts, row.cells)
    return out


def display_label(label: str) -> str:
    """A row label as shown: without footnote markers ("(1)", "*", a digit glued on).

    Examples
    --------
    >>> display_label("Incentive schemes1"), display_label("Service delivery costs(1)")
    ('Incentive schemes', 'Service delivery costs')
    >>> display_label("Electricity purchased (Scope 2)")
    'Electricity purchased (Scope 2)'
    """
    return " ".join(_FOOTNOTE.sub("", label).split()).rstrip(":") or label


def _names(row: TableRow) -> set[str]:
    label = norm_label(row.label)
    return {label, " ".join(singular(w) for w in label.split()),
            re.sub(r"^total\s+", "", label)}


def rows_named(rows: Sequence[TableRow], target: str) -> list[TableRow]:
    """The rows ``target`` names (see the module docstring); [] when it names none."""
    if not target:
        return [r for r in rows if not r.is_total]
    wanted = {target, " ".join(singular(w) for w in target.split())}
    by_code = {r.code: r for r in rows}
    total = next((r for r in rows if r.parts and _names(r) & wanted), None)
    section = [r for r in rows if r.section and
               {r.section, " ".join(singular(w) for w in r.section.split())} & wanted]
    if total is None and section:
        total = next((r for r in section if r.parts and r.is_total), None)
    if total is not None:
        parts = [by_code[p] for p in total.parts if p in by_code]
        if len(parts) == len(total.parts):
            return parts
    return [r for r in section if not r.is_total]


def _same_table(facts: Sequence[Fact], first: Fact) -> list[Fact]:
    """The facts of ``first``'s table: its document and locator without the cell."""
    where = _CELL.sub("", first.source_locator)
    return [f for f in facts if f.source_doc_id == first.source_doc_id
            and _CELL.sub("", f.source_locator) == where]


def _table_facts(intent: ParsedIntent, store: FactStore) -> list[Fact]:
    """The facts of the table the question is about: its named metric's, else the only one.

    A metric named but stored nowhere ("accounts receivable" as a heading) does not pick
    a table; the workspace's only table then does.
    """
    for metric in intent.metrics:  # the first metric named that the store holds
        named = store.iter_facts(metric_code=metric)
        if named:
            first = min(named, key=_position)
            return _same_table(store.iter_facts(source_doc_id=first.source_doc_id), first)
    docs = [str(d["doc_id"]) for d in store.source_documents()]
    with_facts = [facts for d in docs if (facts := store.iter_facts(source_doc_id=d))]
    if len(with_facts) != 1:
        return []
    facts = with_facts[0]
    table = _same_table(facts, min(facts, key=_position))
    return table if len(table) == len(facts) else []


def _cited(items: Sequence[tuple[str, Fact]], lang: str) -> tuple[str, list[dict[str, str]]]:
    """Items written with their [n] and the sources in that order."""
    sep = "；" if lang == "zh" else "; "
    text = sep.join(f"{label} [{i}]" for i, (label, _) in enumerate(items, start=1))
    return text, [{"doc": f.source_doc_id, "locator": f.source_locator} for _, f in items]


def _periods_answer(question: str, facts: Sequence[Fact], metric: str | None,
                    profile: DomainProfile, lang: str) -> TableAnswer | None:
    chosen = [f for f in facts if metric is None or f.metric_code == metric]
    first: dict[str, Fact] = {}
    for f in sorted(chosen, key=lambda f: _position(f)[::-1]):
        first.setdefault(period_label(f.period_type, f.period), f)
    if not first:
        return None
    body, sources = _cited(list(first.items()), lang)
    name = display_label(profile.metrics[metric].label) \
        if metric and metric in profile.metrics else ""
    if norm_label(name) not in fold(question):  # only a row the question names in words
        name = ""
    lead = (f"{name}：" if name else "表格列示的期间：") if lang == "zh" else \
        (f"The table gives {name} for: " if name else "The table covers: ")
    return TableAnswer(f"{lead}{body}.", tuple(sources))


def _rows_answer(rows: Sequence[TableRow], target: str, lang: str) -> TableAnswer | None:
    named = rows_named(rows, target)
    if not named:
        return None
    body, sources = _cited([(display_label(r.label), r.cells[0]) for r in named], lang)
    lead = (f"{target}包括：" if target else "表格各行：") if lang == "zh" else \
        (f"The rows under {target} are: " if target else "The table's rows are: ")
    return TableAnswer(f"{lead}{body}.", tuple(sources))


def _unit_answer(facts: Sequence[Fact], lang: str) -> TableAnswer | None:
    factors = {unit_parts(f.unit).factor for f in facts if not unit_parts(f.unit).percent}
    factors.discard(None)
    scaled = sorted((f for f in facts if unit_parts(f.unit).factor in factors), key=_position)
    if len(factors) != 1 or not scaled:
        return None
    factor = next(iter(factors))
    words = _SCALE_WORDS.get(float(factor or 0))
    if words is None:
        return None
    currency = unit_parts(scaled[0].unit).currency
    what = f"{currency} " if currency else ""
    text = (f"表格金额单位：{what}{words} [1]。" if lang == "zh" else
            f"The table's amounts are {what}in {words} [1].")
    return TableAnswer(text, ({"doc": scaled[0].source_doc_id,
                               "locator": scaled[0].source_locator},))


def table_answer(question: str, intent: ParsedIntent, profile: DomainProfile,
                 store: FactStore, lang: str = "en",
                 vocabularies: Mapping[str, Vocabulary] | None = None) -> TableAnswer | None:
    """The answer to a table question from the stored table, or ``None`` (module docstring).

    Parameters
    ----------
    question : str
        The user's question.
    intent : ParsedIntent
        Its parse (the metric it names picks the table).
    profile : DomainProfile
        The workspace's effective profile (labels of profile metrics).
    store : FactStore
        The facts (RESTRICTED documents have none).
    lang : {"en", "zh"}
        The answer's language.
    vocabularies : mapping, optional
        Each document's derived vocabulary (default: the store's).
    """
    asked = table_question(question)
    if asked is None:
        return None
    facts = _table_facts(intent, store)
    if not facts:
        return None
    if asked.asks == "periods":
        metric = intent.metrics[0] if intent.metrics else None
        return _periods_answer(question, facts, metric, profile, lang)
    if asked.asks == "unit":
        return _unit_answer(facts, lang)
    vocab = (vocabularies if vocabularies is not None else store.vocabularies()).get(
        facts[0].source_doc_id, Vocabulary())
    return _rows_answer(table_rows(facts, profile, vocab), asked.target, lang)
