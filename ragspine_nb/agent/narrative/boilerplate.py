"""What a filing's form writes on every copy, and the words a question names its document by.

Every SEC filing carries the form's own text: a cover page of captions ("(Exact name of
registrant as specified in its charter)", "Date of Report (Date of earliest event
reported)", "Indicate by check mark …") and a signature block ("Pursuant to the
requirements of the Securities Exchange Act of 1934, the registrant has duly caused this
report to be signed …", "/s/ Name"). They say which filing this is, never what it
reports, yet they name its company and its dates — the very words a question uses to say
*which* filing it asks about ("the key agenda of AMCOR's 8-K filing dated 1st July 2022").

* :func:`is_form_boilerplate` — a sentence of the form's own text;
* :func:`without_document_reference` — the question with the words that name its
  document (a form type, "filing", the filing's date) left out: they select the
  document, and no sentence answers by repeating them.
"""

from __future__ import annotations

import re

from ragspine_nb.lexicon import MONTH

__all__ = ["is_form_boilerplate", "without_document_reference"]

_I = re.IGNORECASE
#: Captions of the SEC forms' cover pages and signature blocks (the forms' own wording).
_FORM_TEXT = re.compile(
    r"\(exact name of registrant|date of report\s*\(date of earliest event|"
    r"commission file number|check the appropriate box|indicate by check mark|"
    r"securities registered pursuant to section 12|employer identification|"
    r"registrant.s telephone number|address of principal executive offices|"
    r"whether the registrant is a shell company|"
    r"has duly caused this report to be signed|(?:^|\s)/s/\s", _I)
#: A form's name: "8-K", "Form 10-K", "10Q", "20-F", "6-K", "40-F", "S-1".
_FORM = r"(?:form\s+)?(?:8-?k|10-?k|10-?q|20-?f|6-?k|40-?f|s-1)"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_DATE = rf"(?:{_DAY}\s+(?:of\s+)?{MONTH}|{MONTH}\s+{_DAY}),?\s+(?:19|20)\d\d"
#: "8k filing dated 1st July 2022", "the 10-K", "Form 8-K filed on July 1, 2022".
_DOCUMENT = re.compile(
    rf"\b{_FORM}\b(?:\s+(?:filing|report))?(?:\s+(?:dated|filed)(?:\s+on)?\s+{_DATE})?"
    rf"|\bfiling\s+(?:dated|filed)(?:\s+on)?\s+{_DATE}", _I)


def is_form_boilerplate(sentence: str) -> bool:
    """Whether the sentence is a filing form's own text: a cover-page caption or a signature.

    Examples
    --------
    >>> is_form_boilerplate("Date of Report (Date of earliest event reported): July 1, 2022")
    True
    >>> is_form_boilerplate("AMCOR PLC By: /s/ Damien Clayton Name: Damien Clayton")
    True
    >>> is_form_boilerplate("On June 30, 2022, Amcor Finance entered into an indenture.")
    False
    """
    return bool(_FORM_TEXT.search(sentence))


def without_document_reference(question: str) -> str:
    """The question without the words that name its document (a form, its filing date).

    Examples
    --------
    >>> without_document_reference(
    ...     "What was the key agenda of the AMCOR's 8k filing dated 1st July 2022?")
    "What was the key agenda of the AMCOR's  ?"
    >>> without_document_reference("Does the 10-K say why revenue fell in 2022?")
    'Does the   say why revenue fell in 2022?'
    """
    return _DOCUMENT.sub(" ", question)
