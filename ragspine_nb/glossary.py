"""Glossary normalizers: raw text to a controlled code, or ``None`` — never a guess.

Every normalizer takes the :class:`~ragspine_nb.profile.DomainProfile` first. Matching
is exact after a canonical fold (NFKC, casefold, collapsed whitespace); the only
retries are the documented ones (for metrics, the ways statements write a line item:
a trailing parenthesised note such as ``"(US$m)"``, an inline alternative such as
``"provided (used) by"``, a leading ``"Total"``, the owner named in "attributable to
… shareholders"; for entities, the text before a dash/pipe/colon, as in slide titles).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ragspine_nb.profile import DomainProfile

__all__ = [
    "fold",
    "statement_names",
    "text_channel_vocabulary",
    "function_words_only",
    "normalize_metric",
    "normalize_entity",
    "normalize_channel",
    "metric_vocabulary",
    "row_vocabulary",
    "entity_vocabulary",
    "channel_vocabulary",
]

_WS = re.compile(r"\s+")
_PAREN_NOTE = re.compile(r"\s*[(（\[【][^()（）\[\]【】]*[)）\]】]\s*$")
_INLINE_PAREN = re.compile(r"\s*[(（][^()（）]*[)）]")
_TOTAL = re.compile(r"^\s*total\s+", re.I)
#: A dash between a name and its qualifier ("Earnings per share — diluted"), written "-".
_DASH = re.compile(r"\s+[–—−]\s+")
#: A contra account's amounts in a line's name: "— net of allowances of $174 and $189",
#: ", less allowance for doubtful accounts of $12": the line is the net balance.
_NET_OF = re.compile(r"\s*(?:[—–-]|,)?\s*\b(?:net of|less)\s+(?:the\s+)?allowances?\b.*$",
                     re.I)
#: A serial comma before the last item of a list ("Property, plant, and equipment").
_SERIAL_COMMA = re.compile(r",\s+(and|or)\s+", re.I)


def statement_names(text: str) -> list[str]:
    """Other names a filing's statement line goes by, as a profile writes them.

    A list's serial comma is dropped ("Property, plant, and equipment, net"), and a
    contra account's amounts are read as the net line, then as the line plainly
    ("Accounts receivable — net of allowances of $174 and $189"). For a filing's
    statements: a lone table's label is read as written.

    Examples
    --------
    >>> statement_names("Property, plant, and equipment, net")
    ['Property, plant and equipment, net']
    >>> statement_names("Accounts receivable — net of allowances of $174 and $189")
    ['Accounts receivable, net', 'Accounts receivable']
    >>> statement_names("Trade receivables, less allowance for doubtful accounts of $12")
    ['Trade receivables, net', 'Trade receivables']
    """
    plain = _SERIAL_COMMA.sub(r" \1 ", text)
    names = [plain]
    if _NET_OF.search(plain):
        names += [_NET_OF.sub(", net", plain), _NET_OF.sub("", plain)]
    return [n for n in dict.fromkeys(names) if n and n != text]


_OWNER = re.compile(r"\battributable to\s+(?!.*\b(?:non-?controlling|minority|redeemable|"
                    r"participating|preferred|interests?)\b)(.+)$", re.I)
_HOLDERS = re.compile(r"\b(?:(?:common\s+)?(?:share|stock)holders|owners)\b", re.I)
_TITLE_SEP = re.compile(r"\s*(?:—|–|-|\||｜|:|：)\s*")


def fold(text: str) -> str:
    """Canonical form for exact matching: NFKC, casefold, whitespace collapsed, stripped."""
    # str.split() splits on exactly the characters \s matches (str.isspace)
    if text.isascii():  # NFKC leaves ASCII as it is and casefold is lower() there
        return " ".join(text.lower().split())
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _vocab(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """Folded term → code; a term claimed by two codes is left out (never a silent pick)."""
    out: dict[str, str] = {}
    ambiguous: set[str] = set()
    for term, code in pairs:
        key = fold(term)
        if key and out.setdefault(key, code) != code:
            ambiguous.add(key)
    return {k: v for k, v in out.items() if k not in ambiguous}


@lru_cache(maxsize=64)
def metric_vocabulary(profile: DomainProfile) -> dict[str, str]:
    """Folded synonym → metric code (codes and labels included)."""
    pairs: list[tuple[str, str]] = []
    for m in profile.metrics.values():
        pairs += [(m.code, m.code), (m.label, m.code)] + [(s, m.code) for s in m.synonyms]
    return _vocab(pairs)


@lru_cache(maxsize=64)
def row_vocabulary(profile: DomainProfile) -> dict[str, str]:
    """:func:`metric_vocabulary` with the names metrics carry as table rows only."""
    pairs = list(metric_vocabulary(profile).items())
    pairs += [(label, m.code) for m in profile.metrics.values() for label in m.row_labels]
    return _vocab(pairs)


@lru_cache(maxsize=64)
def entity_vocabulary(profile: DomainProfile) -> dict[str, str]:
    """Folded synonym → entity code (codes and labels included)."""
    pairs: list[tuple[str, str]] = []
    for e in profile.entities.values():
        pairs += [(e.code, e.code), (e.label, e.code)] + [(s, e.code) for s in e.synonyms]
    return _vocab(pairs)


@lru_cache(maxsize=64)
def channel_vocabulary(profile: DomainProfile) -> dict[str, str]:
    """Folded synonym → channel code (codes included)."""
    pairs: list[tuple[str, str]] = []
    for c in profile.channels.values():
        pairs += [(c.code, c.code)] + [(s, c.code) for s in c.synonyms]
    return _vocab(pairs)


#: Words that name nothing on their own: a column headed only by them ("and") is no name.
_FUNCTION_WORDS = frozenset("a an and or of the to in on at by for from with as vs".split())


def function_words_only(term: str) -> bool:
    """Whether a name is made of function words only ("and", "of the").

    >>> function_words_only("and"), function_words_only("Class C and"), function_words_only("%")
    (True, False, False)
    """
    words = fold(term).split()
    return bool(words) and all(w in _FUNCTION_WORDS for w in words)


def text_channel_vocabulary(profile: DomainProfile) -> dict[str, str]:
    """:func:`channel_vocabulary` for reading a question or a sentence.

    A column a table headed "and" (a header cut across lines) is still a column of that
    table, but "and" in a question names no column.
    """
    return {k: v for k, v in channel_vocabulary(profile).items() if not function_words_only(k)}


def _lookup(vocab: dict[str, str], text: object) -> str | None:
    if not isinstance(text, str):
        return None
    key = fold(text)
    return vocab.get(key) if key else None


def _owners(m: re.Match[str]) -> str:
    """The company's owners, unnamed: "attributable to General Mills" → "... shareholders".

    What follows the owners is kept ("… to 3M common shareholders - diluted").
    """
    holders = _HOLDERS.search(m.group(1))
    if holders is None:
        return "attributable to shareholders"
    return f"attributable to {holders.group(0)}{m.group(1)[holders.end():]}"


@lru_cache(maxsize=16384)
def _label_forms(text: str) -> tuple[str, ...]:
    """A row label as statements vary it, each form one documented step from the last.

    The label with a trailing note dropped ("Revenue (US$m)") and its dashes written "-",
    then with every inline
    alternative dropped ("Cash provided (used) by operations", "Income (loss) before
    taxes"), without a leading "Total", and with the owner of an "attributable to"
    left unnamed ("attributable to Best Buy Co., Inc. shareholders", "attributable to
    General Mills"; never a minority, redeemable or preferred interest's line).
    """
    forms = [_DASH.sub(" - ", _PAREN_NOTE.sub("", text))]
    forms.append(_WS.sub(" ", _INLINE_PAREN.sub("", forms[-1])).strip())
    forms.append(_TOTAL.sub("", forms[-1]))
    forms.append(_OWNER.sub(_owners, forms[-1]))
    return tuple(f for f in dict.fromkeys(forms) if f and f != text)


def normalize_metric(profile: DomainProfile, text: object, *, row: bool = False
                     ) -> str | None:
    """Return the metric code for ``text`` or ``None``.

    ``"Revenue (US$m)"`` retries as ``"Revenue"``; a statement's ways of writing a line
    item are retried in turn (:func:`_label_forms`); nothing else is stripped. A table
    row's label (``row=True``) may also be one of a metric's ``row_labels``.

    Examples
    --------
    >>> from ragspine_nb.profile import DomainProfile
    >>> p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"},
    ...     "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["营收"]}}})
    >>> [normalize_metric(p, t) for t in ("营收", "Revenue (US$m)", "Total revenue", "rev")]
    ['REVENUE', 'REVENUE', 'REVENUE', None]

    Asked by its code (not a table row's label), a metric is itself, even where other
    metrics are labelled in its words (two rows labelled "Diluted" make the folded word
    "diluted" name no one metric):

    >>> p = DomainProfile.from_dict({"home": {"company_name": "A", "entity_code": "A"},
    ...     "metrics": {"DILUTED": {"unit": "", "label": "Diluted"},
    ...                 "EPS_DILUTED_2": {"unit": "", "label": "Diluted"}}})
    >>> normalize_metric(p, "DILUTED"), normalize_metric(p, "Diluted")
    ('DILUTED', None)
    """
    if not row and isinstance(text, str) and text in profile.metrics:
        return text
    vocab = row_vocabulary(profile) if row else metric_vocabulary(profile)
    code = _lookup(vocab, text)
    if code is None and isinstance(text, str):
        for form in _label_forms(text):
            if (code := _lookup(vocab, form)) is not None:
                break
    return code


def normalize_entity(profile: DomainProfile, text: object) -> str | None:
    """Return the entity code for ``text`` or ``None``.

    Retries without a trailing parenthesised note (``"ACME Hong Kong (US$m)"``) and
    with the text before the first dash, pipe or colon, as in a slide title such as
    ``"ACME Hong Kong — Financial Performance"``.
    """
    vocab = entity_vocabulary(profile)
    code = _lookup(vocab, text)
    if code is None and isinstance(text, str):
        bare = _PAREN_NOTE.sub("", text).strip()
        head = _TITLE_SEP.split(bare, maxsplit=1)[0]
        for candidate in dict.fromkeys((bare, head)):
            if candidate and candidate != text.strip():
                code = _lookup(vocab, candidate)
                if code is not None:
                    break
    return code


def normalize_channel(profile: DomainProfile, text: object) -> str | None:
    """Return the channel code for ``text``; blank or ``None`` means the default channel.

    An unknown channel returns ``None``; the query tool then passes the raw value
    through so a typo yields ``not_found`` rather than a silent fallback to TOTAL.
    """
    if text is None or (isinstance(text, str) and not text.strip()):
        return profile.default_channel
    return _lookup(channel_vocabulary(profile), text)
