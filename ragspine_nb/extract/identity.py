"""Who filed a document, for which period, and what it is — read from the document itself.

A folder as users bring it holds filings of several companies and years with no
metadata. Each document says who it is: a 10-K/10-Q/20-F cover page names the registrant
("BEST BUY CO., INC. / (Exact name of registrant as specified in its charter)") and the
period ("For the fiscal year ended January 28, 2023"); a PDF's title property often does
("Form 10-K for Foot Locker INC filed 03/27/2023", "10-K - 02/07/2019 - 3M Company"); an
annual report's or a deck's title page does ("ACME Group Annual Report 2025"); a file name
does when it also names a document type ("3M_2018_10K.pdf", "AMCOR_2023Q4_EARNINGS.pdf").
:func:`read_identity` reads them in that order (the first that names a company wins; the
period and type are read from every source) and says where each came from. It is pure:
the readers hand it the file name, the title and the first pages' text.

A name read from a file name alone ("FOOTLOCKER") is written as the document writes it
when a company name in its first pages spells the same letters ("Foot Locker, Inc.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ragspine_nb.extract.fiscal_calendar import CALENDAR_SOURCE, FiscalCalendar
from ragspine_nb.lexicon import MONTH_NAMES, MONTHS
from ragspine_nb.period_codes import period_label
from ragspine_nb.period_phrases import fiscal_quarter

__all__ = ["DocumentIdentity", "read_identity", "display_name", "FORM_TYPES",
           "IDENTITY_VERSION"]

#: Version of these rules and of what the identity decides after reading (the figures of
#: later years, :mod:`~ragspine_nb.extract.scheduled`); part of a file's ingestion
#: fingerprint (a new rule re-reads it).
IDENTITY_VERSION = "identity@6"

#: Document types named on a cover page or in a file name (canonical spelling).
FORM_TYPES: tuple[str, ...] = ("10-K", "10-Q", "8-K", "20-F", "40-F", "6-K", "S-1",
                               "annual report", "interim report", "earnings release")
_DATE = (r"(?P<month>" + MONTH_NAMES + r")\s*(?P<day>\d{1,2})\s*,?\s*(?P<year>(?:19|20)\d\d)")
_YEAR_ENDED = re.compile(r"for\s+the\s+(?:fiscal\s+)?year\s+ended\s*:?\s*" + _DATE, re.I)
_QUARTER_ENDED = re.compile(r"for\s+the\s+(?:quarterly\s+period|quarter)\s+ended\s*:?\s*" + _DATE,
                            re.I)
_FORM = re.compile(r"\bform\s+(10-k|10-q|8-k|20-f|40-f|6-k|s-1)\b", re.I)
_REGISTRANT = re.compile(r"exact\s+name\s+of\s+(?:the\s+)?registrant", re.I)
_FILE_NUMBER = re.compile(r"commission\s+file\s+(?:number|no\.?)", re.I)
#: The number itself: "Commission File Number: 0-15175", "Commission file number 1-3285".
_FILE_NUMBER_VALUE = re.compile(r"commission\s+file\s+(?:number|no\.?)\s*:?\s*"
                                r"(\d{1,3}-\d{3,6})\b", re.I)
#: Lines of a cover page that are never a company's name.
_NOT_A_NAME = re.compile(
    r"commission\s+file|file\s+(?:number|no)|transition\s+period|date\s+of\s+report|mark\s+one"
    r"|year\s+ended|period\s+ended|pursuant|annual\s+report|quarterly\s+report"
    r"|form\s+\d|securities|exchange\s+act|zip\s+code|telephone|address|incorporation|"
    r"identification|washington|^\W*$|^\(", re.I)
#: Words that end a company's name (legal forms and the usual group words).
_LEGAL = (r"(?:company|co\.|co|inc\.?|incorporated|corp\.?|corporation|plc|p\.l\.c\.|ltd\.?|"
          r"limited|llc|l\.l\.c\.|n\.v\.|s\.a\.|ag|se|group|holdings)")
_LEGAL_NAME = re.compile(r"\b((?:[A-Z0-9][\w&'.-]*\s+){0,5}?[A-Z0-9][\w&'.-]*),?\s+" + _LEGAL
                         + r"(?![\w])", re.I)
#: PDF titles that name the filer: "Form 10-K for Foot Locker INC filed 03/27/2023",
#: "10-K - 02/07/2019 - 3M Company".
_TITLE_FORMS = (
    re.compile(r"^form\s+[\w-]+\s+for\s+(?P<name>.+?)\s+filed\b", re.I),
    re.compile(r"^[\w-]+\s+-\s+\d{1,2}/\d{1,2}/\d{4}\s+-\s+(?P<name>.+)$", re.I),
    re.compile(r"^(?P<name>[A-Z][\w&.,' -]{1,60}?)\s+(?:annual|interim|half[- ]year)\s+report\b",
               re.I),
    re.compile(r"^(?P<name>\S.{0,40}?)\s*(?:\d{4}\s*年)?\s*(?:年度报告|年报|半年度报告)"),
)
#: Document-type words of a file name (the company is what comes before the year).
_FILE_TYPES = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "20f": "20-F", "40f": "40-F",
               "6k": "6-K", "earnings": "earnings release", "ar": "annual report",
               "annualreport": "annual report", "年报": "annual report"}
_ACRONYMS = frozenset({"plc", "llc", "lp", "n.v.", "s.a.", "ag", "se", "ltd", "inc", "co",
                       "corp", "us", "usa", "uk", "hk"})


@dataclass(frozen=True)
class DocumentIdentity:
    """Who filed a document, for which period, what it is, and where each was read.

    ``company`` is the name as the document writes it (``""``: none found); ``period``
    a ``(period_type, period)`` pair such as ``("FY", "2018")`` or ``None``;
    ``fiscal_year_end`` an ISO date (``""``: not stated); ``sources`` maps each field
    found to where it was read ("cover page", "title", "file name").
    """

    company: str = ""
    period: tuple[str, str] | None = None
    fiscal_year_end: str = ""
    doc_type: str = ""
    sources: tuple[tuple[str, str], ...] = ()
    #: the filer's number with its regulator ("0-15175": the SEC's commission file
    #: number); one filer under two names (a company renamed) states the same number
    registrant: str = ""

    @property
    def named(self) -> bool:
        """Whether the document names its company."""
        return bool(self.company)

    def source_of(self, field: str) -> str:
        """Where ``field`` was read (``""``: not found)."""
        return dict(self.sources).get(field, "")

    def describe(self) -> str:
        """One line for the ingest report: company, period, type and where they came from.

        >>> DocumentIdentity("3M Company", ("FY", "2018"), "2018-12-31", "10-K",
        ...                  (("company", "cover page"),)).describe()
        'company 3M Company (cover page), FY2018 (year ended 2018-12-31), 10-K'
        """
        parts = []
        if self.company:
            parts.append(f"company {self.company} ({self.source_of('company')})")
        if self.period:
            end = "" if not self.fiscal_year_end else f" (year ended {self.fiscal_year_end})" \
                if self.period[0] == "FY" else f" (of the year after {self.fiscal_year_end})"
            parts.append(f"{period_label(*self.period)}{end}")
        if self.doc_type:
            parts.append(self.doc_type)
        return ", ".join(parts)

    def to_row(self) -> dict[str, str]:
        """The ledger row (strings), keys as :data:`~ragspine_nb.stores.facts` expects."""
        return {"company": self.company,
                "period": period_label(*self.period) if self.period else "",
                "fiscal_year_end": self.fiscal_year_end, "doc_type": self.doc_type,
                "sources": "; ".join(f"{k}={v}" for k, v in self.sources),
                "registrant": self.registrant}


def display_name(name: str) -> str:
    """A name written in capitals, in the case a reader expects ("BEST BUY CO., INC.").

    >>> display_name("BEST BUY CO., INC."), display_name("AMCOR PLC"), display_name("3M COMPANY")
    ('Best Buy Co., Inc.', 'Amcor PLC', '3M Company')
    >>> display_name("NIKE, Inc .")
    'NIKE, Inc.'
    """
    name = re.sub(r"\s+([.,])", r"\1", " ".join(name.split())).strip(" ,;:_-")
    if not name.isupper():
        return name

    def word(w: str) -> str:
        bare = w.strip(",.").lower()
        if any(c.isdigit() for c in w):
            return w
        if bare in ("plc", "llc", "lp", "n.v", "s.a", "ag", "se"):
            return w.upper()
        return w[:1] + w[1:].lower()

    return " ".join(word(w) for w in name.split())


def _date(m: re.Match[str]) -> str:
    month = MONTHS.index(m.group("month").lower()) + 1
    try:
        return date(int(m.group("year")), month, int(m.group("day"))).isoformat()
    except ValueError:
        return ""


def _clean(line: str) -> str:
    return display_name(re.sub(r"^[_\s]+|[_\s]+$", "", re.sub(r"_{3,}", " ", line)))


def _cover_company(lines: list[str]) -> str:
    """The registrant a cover page names, or ``""``.

    The line above "(Exact name of registrant …)", else the name line after "Commission
    file number …" (3M's cover has no registrant caption).
    """
    for i, line in enumerate(lines):
        if _REGISTRANT.search(line):
            for above in reversed(lines[max(0, i - 2):i]):
                name = _clean(above)
                if name and not _NOT_A_NAME.search(name) and len(name.split()) <= 8:
                    return name
            return ""
    for i, line in enumerate(lines[:-1]):
        if _FILE_NUMBER.search(line):
            name = _clean(lines[i + 1])
            if name and not _NOT_A_NAME.search(name) and len(name.split()) <= 8 and \
                    re.search(_LEGAL + r"\W*$", name, re.I):
                return name
    return ""


def _file_parts(filename: str) -> tuple[str, str, str]:
    """(company, year, type) a file name states; the company only beside a type word."""
    stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", filename.rsplit("/", 1)[-1])
    tokens = [t for t in re.split(r"[_\s.-]+", stem) if t]
    kind = next((_FILE_TYPES[t.lower()] for t in tokens if t.lower() in _FILE_TYPES), "")
    dated = re.compile(r"(?:fy)?(?:19|20)\d\d(?:q[1-4]|h[12])?", re.I)
    at = next((i for i, t in enumerate(tokens) if dated.fullmatch(t)), None)
    if not kind or not at:
        return "", "", kind
    year = re.search(r"(?:19|20)\d\d", tokens[at])
    return " ".join(tokens[:at]), year.group(0) if year else "", kind


def _spelled(token: str, text: str) -> str:
    """A company name in ``text`` whose letters are the file name's ``token`` ("FOOTLOCKER")."""
    want = re.sub(r"[^a-z0-9]", "", token.lower())
    if len(want) < 3:
        return ""
    for m in _LEGAL_NAME.finditer(text):
        name = m.group(0)
        words = name.split()
        for k in range(1, len(words) + 1):
            if re.sub(r"[^a-z0-9]", "", "".join(words[:k]).lower()) == want:
                return display_name(name.strip(" ,"))
    return ""


def _fiscal_year(fye: str, calendar: FiscalCalendar | None) -> tuple[str, str]:
    """The fiscal year ended on ``fye``, named by the year it ends in.

    Or by the one it starts in, when the document says the company names it so ("Fiscal
    year 2022 … ended January 28, 2023").
    """
    closing = calendar.quarter(date.fromisoformat(fye)) if calendar else None
    return "FY", closing[1][:4] if closing and closing[1].endswith("Q4") else fye[:4]


def _quarter(ended: str, fye: str, calendar: FiscalCalendar | None) -> tuple[str, str] | None:
    """A quarterly report's quarter, never a fiscal year its text mentions.

    By the calendar the document states (its naming too), else the year end its cover
    names ("… the fiscal year ended June 30, 2022"), else the calendar quarter.
    """
    closed = date.fromisoformat(ended)
    if calendar is not None:
        return calendar.quarter(closed)
    return fiscal_quarter(closed, date.fromisoformat(fye) if fye else None)


def read_identity(filename: str, title: str = "", text: str = "",
                  calendar: FiscalCalendar | None = None) -> DocumentIdentity:
    r"""The document's company, period and type: its cover, title, file name and ``calendar``.

    Examples
    --------
    >>> cover = ("FORM 10-K\nFor the fiscal year ended January 28, 2023\nCommission file "
    ...          "number 1-9595\n____ BEST BUY CO., INC.\n(Exact name of registrant as "
    ...          "specified in its charter)")
    >>> read_identity("x.pdf", "", cover).describe()
    'company Best Buy Co., Inc. (cover page), FY2023 (year ended 2023-01-28), 10-K'
    >>> read_identity("x.pdf", "", cover).registrant
    '1-9595'
    >>> read_identity("FOOTLOCKER_2023_10K.pdf", "", "... Foot Locker, Inc. reports").company
    'Foot Locker, Inc.'
    >>> read_identity("QBR_2025Q1_review.md").named
    False
    """
    lines = [ln.strip() for ln in text.replace("\r", "\n").split("\n") if ln.strip()]
    flat = " ".join(lines)
    sources: list[tuple[str, str]] = []
    company = _cover_company(lines[:80])
    if company:
        sources.append(("company", "cover page"))
    if not company and title:
        company = next((display_name(m.group("name")) for p in _TITLE_FORMS
                        if (m := p.search(title.strip()))), "")
        if company:
            sources.append(("company", "title"))
    file_company, file_year, file_kind = _file_parts(filename)
    if not company and file_company:
        company = _spelled(file_company, flat) or display_name(file_company)
        sources.append(("company", "file name"))
    ended = _YEAR_ENDED.search(flat)
    fye = _date(ended) if ended else ""
    period: tuple[str, str] | None = None
    if fye:
        period = _fiscal_year(fye, calendar)
        sources.append(("period", "cover page"))
    elif file_year and file_kind in ("10-K", "20-F", "40-F", "annual report"):
        period = ("FY", file_year)
        sources.append(("period", "file name"))
    form = _FORM.search(flat[:3000])
    kind = form.group(1).upper() if form else file_kind
    if kind:
        sources.append(("doc_type", "cover page" if form else "file name"))
    quarter = _QUARTER_ENDED.search(flat[:3000])
    if not fye and quarter and not kind:
        kind = "10-Q"
    if kind == "10-Q" and quarter and _date(quarter):
        period = _quarter(_date(quarter), fye, calendar)
        sources = [(k, v) for k, v in sources if k != "period"] + \
            ([("period", "cover page")] if period else [])
    number = _FILE_NUMBER_VALUE.search(flat[:3000])
    if number:
        sources.append(("registrant", "cover page"))
    return DocumentIdentity(company, period, fye or (calendar.stated if calendar else ""), kind,
                            (*sources, *([CALENDAR_SOURCE] if calendar else [])),
                            number.group(1) if number else "")
