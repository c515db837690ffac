"""Offline extractive synthesis: answer a text question with the sentences that answer it.

No offline model writes well enough, so the offline answer is *extractive*: whole
sentences of the retrieved passages, each cited ``[n]``. They are chosen in named steps:

1. :func:`passage_sentences` — the passages' sentences, whole (a full stop after "U.S",
   "Inc", an initial or inside a number does not end one; a line a PDF wrapped is joined
   back); headings and fragments are left out, a repeated sentence counts once.
2. :func:`rank_sentences` — each sentence's share of the question's terms, weighted by
   how rare each term is among the passages (the company's name in every sentence says
   little; the row the question names says much; a verb of movement counts as its
   direction, so "fell" meets "decreased"), with a bonus when the question's
   words follow each other in it, raised when it is worded as the answer the question
   asks for (:mod:`ragspine_nb.agent.narrative.focus`: a cause for "why", a definition for "how is
   X determined", a list for "what does X include" …) and lowered when it only
   introduces a table and the question is not about one, and much lowered when it is the
   filing form's own text (a cover page's caption, a signature: :mod:`.boilerplate`; the
   words naming the question's document — "8-K filing dated July 1, 2022" — are no terms
   either); a year the sentence names only
   as what it compares with ("for 2019 compared to 2018") counts half. A sentence that points back
   ("The increase was driven by …") is about the sentence before it and carries its
   subject.
3. :func:`choose_sentences` — the best sentence, then the few close to it (at most
   three, about 700 characters), the sentence an answer points back to placed before it.

:func:`extractive_answer` writes them one per line, best first, each with its ``[n]``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from ragspine_nb.agent.narrative.boilerplate import (
    is_form_boilerplate,
    without_document_reference,
)
from ragspine_nb.agent.narrative.focus import (
    answers_focus,
    introduces_table,
    is_anaphoric,
    question_focus,
)
from ragspine_nb.agent.narrative.subject import Subject, about_others
from ragspine_nb.retrieval.movement import direction
from ragspine_nb.retrieval.tokenize import tokenize

__all__ = ["SENTENCE", "Sentence", "Scored", "passage_sentences",
           "rank_sentences", "choose_sentences", "extractive_answer", "terms", "unwrap_lines",
           "MAX_SENTENCES", "MAX_CHARS"]

MAX_SENTENCES = 3
MAX_CHARS = 700
#: Passages and sentences whose reading is kept (it depends on the text alone, which is
#: the key: the same chunks are read for every question, and a changed text is read anew).
_CACHE_SIZE = 8192
#: Abbreviations whose full stop does not end a sentence (and a single capital: "R. Kaiser").
_ABBREV = "".join(f"(?<!\\b{a})" for a in (
    "U\\.S", "U\\.K", "N\\.A", "S\\.A", "Inc", "Ltd", "Co", "Corp", "Bhd", "Plc", "LLC",
    "No", "Nos", "vs", "e\\.g", "i\\.e", "Mr", "Ms", "Mrs", "Dr", "St", "Jr", "Sr", "approx",
    "[A-Z]"))
#: Sentences of an answer or a passage: 。！？!? and a line break (``\n`` or ¶) end one; a
#: full stop ends one before a space or the end, not after an abbreviation nor in "5.8".
#: (``(?=\.)`` first: the abbreviations are looked behind only where a full stop is.)
SENTENCE = re.compile(rf"[^。！？!?\n¶]+?(?:[。！？!?¶\n]|(?=\.){_ABBREV}\.(?=\s|$)|$)")
_TERMINAL = ("。", ".", "！", "!", "？", "?", ";", "；", ":", "：")
_EN_STOP = frozenset(
    "a about above after again all also an and any are as at be been being both but by can "
    "could did do does doing during each for from had has have having how however if in "
    "into is it its itself me more most my of on once only or other our ours out over own "
    "please same should so some such than that the their them then there these they this "
    "those through to too under until up was we were what when where which while who whom "
    "whose why will with would you your tell explain describe according information "
    # words of degree qualify what is asked ("major acquisitions", "the key agenda"); a
    # filing rarely repeats them, and a sentence that does ("a major effect") is no answer
    "major key main notable done".split())
_ZH_STOP = ("为什么", "是什么", "怎么样", "如何", "怎么", "怎样", "什么", "哪些", "哪个", "是否",
            "请问", "为何", "多少", "吗", "呢", "吧", "了", "的")
#: Stems of the words that say *what kind* of answer is asked ("comprise", "cause"): the
#: focus weighs them (an answer may say "consists of" for "comprise"), the terms do not.
_FOCUS_WORDS = frozenset({"includ", "consist", "compris", "contain", "caus", "reason"})
#: Foci an answer cannot do without its cue: "how often" is answered by a frequency.
_STRONG_FOCI = frozenset({"frequency", "duration", "time", "table"})
#: Foci answered by a sentence's form, in words the question need not share: "what
#: industry does Amcor operate in?" — "Today, we are a global leader in … packaging".
#: Such a sentence ranks above every sentence that is not so worded.
_FORM_FOCI = frozenset({"event", "business"})
_SUFFIXES = (("ational", "ate"), ("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""),
             ("s", ""), ("ly", ""))
_WRAPPED = re.compile(r"(?<=[^\s.!?:;。！？：；])[^\S\n]*\n\s*(?=[a-z])")


#: Irregular verb forms read as their base ("fell" is "fall").
_IRREGULAR = {"fell": "fall", "fallen": "fall", "rose": "rise", "risen": "rise", "grew": "grow",
              "grown": "grow", "drove": "drive", "driven": "drive", "led": "lead",
              "paid": "pay", "sold": "sell", "made": "make", "held": "hold", "spent": "spend",
              "bought": "buy", "took": "take", "taken": "take", "gave": "give",
              "given": "give", "kept": "keep", "saw": "see", "seen": "see", "lost": "lose",
              "won": "win", "began": "begin", "begun": "begin", "brought": "bring"}


#: A verb of movement reads as its direction's report verb ("fell", "dropped" → "decreas";
#: 下滑, 减少 → 下降): a question says "fall" where the report says "decreased".
_DIRECTION_TERM = {"down": ("decreas", "下降"), "up": ("increas", "增长")}


def _stem(word: str) -> str:
    """A light English stem: "increased", "increases", "increasing" → "increas"."""
    moved = direction(word)
    if moved is not None:
        return _DIRECTION_TERM[moved][0 if word.isascii() else 1]
    word = _IRREGULAR.get(word, word)
    if not word.isascii() or len(word) <= 3 or word.isdigit():
        return word
    for suffix, repl in _SUFFIXES:
        if word.endswith(suffix) and not word.endswith("ss") and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + repl
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def terms(text: str) -> list[str]:
    """Content terms in order: stemmed English words, Chinese bigrams (a lone character stays).

    Examples
    --------
    >>> terms("Why did the company's interest expense increase?")
    ['company', 'interest', 'expens', 'increas']
    >>> terms("为什么银保下降")
    ['银保', '保下', '下降']
    """
    text = unicodedata.normalize("NFKC", text)
    for word in _ZH_STOP:
        text = text.replace(word, " ")
    out: list[str] = []
    tokens = tokenize(text)
    bigrams = [t for t in tokens if not t.isascii() and len(t) == 2]
    for token in tokens:
        if token.isascii():
            if token not in _EN_STOP and not (len(token) == 1 and token.isalpha()):
                out.append(_stem(token))
        elif len(token) == 2:
            out.append(_stem(token))
    lone = [t for t in tokens if not t.isascii() and len(t) == 1
            and not any(t in b for b in bigrams)]
    return out + lone


@dataclass(frozen=True)
class Sentence:
    """One whole sentence of a retrieved passage."""

    snippet: int  # the passage's number, cited as [n]
    position: int  # its order inside the passage
    text: str


@dataclass(frozen=True)
class Scored:
    """A sentence with how well it answers the question."""

    sentence: Sentence
    score: float
    relevance: float  # share of the question's term weight the sentence carries
    answers: bool  # worded as an answer of the question's focus


def unwrap_lines(text: str) -> str:
    """Lines a PDF wrapped are joined back: a line break before a lower-case word.

    Other line breaks stay sentence boundaries (``¶``).

    Examples
    --------
    >>> unwrap_lines("banks match ¶ the filed terms. ¶ Hong Kong")
    'banks match the filed terms. ¶ Hong Kong'
    """
    text = _WRAPPED.sub(" ", text.replace("¶", "\n").replace("\r", ""))
    return re.sub(r"\s*\n\s*", " ¶ ", text.strip())


def _is_fragment(text: str) -> bool:
    """A heading or a scrap: short and not ended like a sentence."""
    if len(text) < 4:
        return True
    return not text.endswith(_TERMINAL) and (len(text) < 12 or len(text.split()) <= 6)


@lru_cache(maxsize=_CACHE_SIZE)
def _whole_sentences(text: str) -> tuple[tuple[int, str, str], ...]:
    """``(position, sentence, folded key)`` of one passage's sentences that are no fragment."""
    body = unwrap_lines(re.sub(r"(?m)(?:^|(?<=¶))\s*#+\s+", " ", text))
    out = []
    for k, raw in enumerate(SENTENCE.findall(body)):
        sent = " ".join(raw.split()).strip(" ¶")
        if not _is_fragment(sent):
            out.append((k, sent, sent.casefold()))
    return tuple(out)


def passage_sentences(snippets: Sequence[tuple[int, str]]) -> list[Sentence]:
    """The passages' whole sentences in order; headings, scraps and repeats left out."""
    out: list[Sentence] = []
    seen: set[str] = set()
    for n, text in snippets:
        for k, sent, key in _whole_sentences(text):
            if key in seen:
                continue
            seen.add(key)
            out.append(Sentence(n, k, sent))
    return out


@dataclass(frozen=True)
class _Reading:
    """What ranking reads from a sentence's text alone (kept per text)."""

    terms: tuple[str, ...]
    term_set: frozenset[str]
    pairs: frozenset[tuple[str, str]]  # adjacent terms
    reference_years: frozenset[str]
    anaphoric: bool
    table: bool
    terminal: bool
    form: bool  # the filing form's own text (:func:`is_form_boilerplate`)


@lru_cache(maxsize=_CACHE_SIZE)
def _reading(text: str) -> _Reading:
    """The sentence's terms, term pairs, reference years and wording marks."""
    found = tuple(terms(text))
    return _Reading(found, frozenset(found), frozenset(zip(found, found[1:], strict=False)),
                    frozenset(_reference_years(text)), is_anaphoric(text),
                    introduces_table(text), text.endswith(_TERMINAL),
                    is_form_boilerplate(text))


@lru_cache(maxsize=_CACHE_SIZE)
def _answers(text: str, focus: str) -> bool:
    """:func:`~ragspine_nb.agent.narrative.focus.answers_focus`, kept per sentence and focus."""
    return answers_focus(text, focus)


def _weights(question_terms: Sequence[str], sentence_terms: Sequence[AbstractSet[str]]
             ) -> dict[str, float]:
    """Each question term's weight: rarer among the sentences weighs more (smoothed idf)."""
    n = len(sentence_terms)
    df = Counter(t for ts in sentence_terms for t in set(question_terms) & ts)
    return {t: math.log(1.0 + (n + 1) / (1.0 + df[t])) for t in dict.fromkeys(question_terms)}


def _owner_weighed(weights: dict[str, float], whose: AbstractSet[str]) -> dict[str, float]:
    """The company's name weighs as one term, as light as the lightest other term.

    Examples
    --------
    >>> _owner_weighed({"best": 3.0, "buy": 3.0, "revenue": 2.0, "fiscal": 1.0}, {"best", "buy"})
    {'best': 0.5, 'buy': 0.5, 'revenue': 2.0, 'fiscal': 1.0}
    """
    named = [t for t in weights if t in whose]
    others = [w for t, w in weights.items() if t not in whose]
    if not named or not others:
        return weights
    share = min(others) / len(named)
    return {t: share if t in whose else w for t, w in weights.items()}


def _phrase_share(question_pairs: AbstractSet[tuple[str, str]],
                  sentence_pairs: AbstractSet[tuple[str, str]]) -> float:
    """Share of the question's adjacent term pairs that are adjacent in the sentence too."""
    if not question_pairs:
        return 0.0
    return len(question_pairs & sentence_pairs) / len(question_pairs)


_COMPARED = re.compile(r"\b(?:compared\s+(?:to|with)|versus|vs\.?|than|over|from|against)\s+"
                       r"(?:[^\s.;]+\s+){0,4}?((?:19|20)\d\d)\b", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d%])")


def _reference_years(sentence: str) -> set[str]:
    """Years a sentence names only as what it compares with ("… for 2019 compared to 2018").

    Examples
    --------
    >>> sorted(_reference_years("Cash rose $224 million for fiscal 2019 compared to fiscal 2018."))
    ['2018']
    >>> _reference_years("Revenue for 2018 rose.")
    set()
    """
    reference = [m.group(1) for m in _COMPARED.finditer(sentence)]
    named = _YEAR.findall(sentence)
    return {y for y in reference if named.count(y) == reference.count(y)}


def rank_sentences(question: str, sentences: Sequence[Sentence], company: str = "",
                   about: Subject | None = None) -> list[Scored]:
    """Every sentence scored for the question (see the module docstring), best first.

    ``company`` names the company whose own filings every sentence comes from: the words
    of its name in the question say more whose than what (its filings call it "we"), so
    together they weigh as much as the question's lightest other term. A sentence
    :func:`about_another` subject than the question's is left out, and so are the sentences
    after it in its passage that name nobody (they keep its topic).
    """
    focus = question_focus(question)
    asked = without_document_reference(question)  # "AMCOR's 8-K dated …": which document
    q_terms = [t for t in terms(asked) if t not in _FOCUS_WORDS] or terms(question)
    q_pairs = set(zip(q_terms, q_terms[1:], strict=False))  # adjacent question terms
    read = [_reading(s.text) for s in sentences]
    weights = _owner_weighed(_weights(q_terms, [r.term_set for r in read]),
                             set(terms(company)))
    total = sum(weights.values()) or 1.0
    relevance = [sum(w * (0.5 if t in r.reference_years else 1.0)
                     for t, w in weights.items() if t in r.term_set) / total for r in read]
    for i, s in enumerate(sentences):  # "The increase was driven by …" carries its subject
        if i and read[i].anaphoric and sentences[i - 1].snippet == s.snippet:
            relevance[i] = max(relevance[i], 0.8 * relevance[i - 1])
    out = []
    other = about_others([(s.snippet, s.text) for s in sentences], about)
    for s, rel, r, skip in zip(sentences, relevance, read, other, strict=True):
        if skip:
            continue
        answers = _answers(s.text, focus) and not r.form  # a form's caption answers nothing
        score = rel * (1.0 + 0.3 * _phrase_share(q_pairs, r.pairs))
        score *= (2.0 if focus in _STRONG_FOCI else 1.5) if answers else 1.0
        if answers and focus in _FORM_FOCI:
            score += 1.0
        if focus != "table" and r.table:
            score *= 0.6
        if r.form:  # a cover page's caption, a signature: which filing, not what it says
            score *= 0.3
        if not r.terminal:  # cut off where the passage was split
            score *= 0.8
        score /= 1.0 + max(0, len(r.terms) - 30) / 60  # a long sentence matches words by chance
        out.append(Scored(s, score, rel, answers))
    out.sort(key=lambda c: (-c.score, c.sentence.snippet, c.sentence.position))
    return out


def choose_sentences(ranked: Sequence[Scored], sentences: Sequence[Sentence],
                     max_sentences: int = MAX_SENTENCES, max_chars: int = MAX_CHARS
                     ) -> list[Sentence]:
    """The best sentence and those close to it, each after the sentence it points back to."""
    if not ranked:
        return []
    best = ranked[0]
    if best.score <= 0:
        return [best.sentence]
    index = {(s.snippet, s.position): i for i, s in enumerate(sentences)}
    chosen: list[Sentence] = []
    for cand in ranked:
        if len(chosen) >= max_sentences or (chosen and cand.score < 0.6 * best.score):
            break
        group = [cand.sentence]
        i = index[(cand.sentence.snippet, cand.sentence.position)]
        if is_anaphoric(cand.sentence.text) and i and \
                sentences[i - 1].snippet == cand.sentence.snippet:
            group.insert(0, sentences[i - 1])
        group = [s for s in group if s not in chosen]
        size = sum(len(s.text) for s in chosen + group)
        if chosen and (size > max_chars or len(chosen) + len(group) > max_sentences):
            continue
        chosen.extend(group)
    return chosen


def extractive_answer(question: str, snippets: Sequence[tuple[int, str]],
                      company: str = "", about: Subject | None = None) -> str:
    """The chosen sentences, one per line, best first, each followed by its ``[n]``.

    ``company``: whose own filings the snippets are; ``about``: the question's subject and
    its siblings (:func:`rank_sentences`).

    Examples
    --------
    >>> print(extractive_answer("Why did interest expense increase?", [
    ...     (1, "Interest expense was $50 million. Revenue grew 3%."),
    ...     (2, "Interest expense increased primarily due to higher average debt.")]))
    Interest expense increased primarily due to higher average debt. [2]
    """
    sentences = passage_sentences(snippets)
    chosen = choose_sentences(rank_sentences(question, sentences, company, about), sentences)
    return "\n".join(f"{s.text} [{s.snippet}]" for s in chosen)
