"""A document's company (metadata ``company``) as an entity: its code and common forms.

``"Acme Corp."`` is the entity ``ACME`` named "Acme Corp." with the synonyms
``acme corp.``, ``acme corp``, ``acme corporation`` and ``acme``: the name as given,
without its legal form, and the legal form's usual spellings. Legal forms are read
only at the end of the name; nothing else (a "Group", a "Holdings", a "Bank") is
dropped, since it may tell two companies apart.
"""

from __future__ import annotations

import re
import unicodedata

from ragspine_nb.errors import ProfileError
from ragspine_nb.glossary import fold, normalize_entity
from ragspine_nb.profile import DomainProfile, EntitySpec
from ragspine_nb.vocabulary import code_from_label

__all__ = ["LEGAL_FORMS", "company_forms", "company_entity", "COMPANY_GEOGRAPHY"]

#: Families of legal-form spellings; any spelling found at the end of a name adds the others.
LEGAL_FORMS: tuple[tuple[str, ...], ...] = (
    ("inc.", "inc", "incorporated"),
    ("corp.", "corp", "corporation"),
    ("ltd.", "ltd", "limited"),
    ("co., ltd.", "co. ltd.", "co., ltd", "co ltd", "company limited"),
    ("co.", "co", "company"),
    ("plc", "p.l.c.", "public limited company"),
    ("llc", "l.l.c."),
    ("l.p.", "lp"),
    ("n.v.",), ("s.a.",), ("s.p.a.",), ("ag",), ("se",), ("gmbh",), ("a/s",), ("asa",),
    ("ab",), ("oyj",), ("s.a.b. de c.v.",), ("pte. ltd.", "pte ltd"), ("pty ltd", "pty. ltd."),
    ("bhd", "berhad"), ("tbk",), ("k.k.", "kabushiki kaisha"),
    ("股份有限公司",), ("有限责任公司",), ("有限公司",), ("股份公司",), ("公司",),
    ("株式会社",),
)
#: The geography of a company entity named only in metadata.
COMPANY_GEOGRAPHY = "UNSPECIFIED"
_SPLIT = re.compile(r"[\s,]+$")
_PAREN = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


def _strip_form(name: str) -> tuple[str, tuple[str, ...]]:
    """The name without its trailing legal form, and that form's family (or ``()``)."""
    low = fold(name)
    for family in sorted(LEGAL_FORMS, key=lambda f: -max(map(len, f))):
        for form in sorted(family, key=len, reverse=True):
            if low.endswith(form) and len(low) > len(form):
                before = name[:len(name) - len(form)]
                ascii_form = form.isascii()
                if ascii_form and before[-1:].isalnum():
                    continue  # "Amco" does not end in the legal form "co"
                return _SPLIT.sub("", before).rstrip(), family
    return name, ()


def company_forms(name: str) -> tuple[str, ...]:
    """The common forms of a company name, most specific first (folded, no duplicates).

    Examples
    --------
    >>> company_forms("Acme Corp.")
    ('acme corp.', 'acme corp', 'acme corporation', 'acme')
    >>> company_forms("Widget Co., Ltd.")[-2:], company_forms("The Coca-Cola Company")[-1]
    (('widget company limited', 'widget'), 'coca-cola')
    >>> company_forms("平安银行股份有限公司")
    ('平安银行股份有限公司', '平安银行')
    """
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    out: list[str] = [fold(text)]
    base = text
    while True:  # "Widget Co., Ltd." → "Widget Co." → "Widget"; one family at a time
        stripped, family = _strip_form(base)
        if not family:
            break
        joiner = "" if not stripped.isascii() else " "
        comma = "," if base[len(stripped):].lstrip().startswith(",") else ""
        out += [fold(f"{stripped}{comma}{joiner}{form}") for form in family]
        base = stripped
        out.append(fold(base))
    bare = _PAREN.sub("", base)
    if bare and bare != base:
        out.append(fold(bare))
    out += [f[4:] for f in list(out) if f.startswith("the ") and len(f) > 4]
    return tuple(dict.fromkeys(f for f in out if f))


def company_entity(profile: DomainProfile, name: str) -> tuple[str, EntitySpec | None]:
    """The entity code of a document's company, and its spec when the profile lacks it.

    A name (or one of its forms) the profile already knows is that entity (the profile
    wins; no new spec). Otherwise a new entity: the code from the name without its legal
    form (``ACME``; suffixed ``_CO`` while the profile uses it for another entity), the
    name as its label and its forms as synonyms.

    Examples
    --------
    >>> p = DomainProfile.builtin()
    >>> code, spec = company_entity(p, "Acme Corp.")
    >>> code, spec.label, spec.synonyms[-1]
    ('ACME', 'Acme Corp.', 'acme')
    >>> company_entity(p, "the company")
    ('COMPANY', None)
    """
    text = " ".join(name.split())
    if not text:
        raise ProfileError("metadata company must be a non-empty name")
    forms = company_forms(text)
    for form in forms:
        known = normalize_entity(profile, form)
        if known is not None:
            return known, None
    code = code_from_label(forms[-1]) or code_from_label(text)
    if not code:
        raise ProfileError(f"metadata company {name!r} has no letters or digits to name it by")
    while code in profile.entities:
        code += "_CO"
    return code, EntitySpec(code, text, COMPANY_GEOGRAPHY, forms)
