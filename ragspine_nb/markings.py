r"""Sensitivity markings: whether a short line or field is one, and what it states.

A marking is a line or field of its own whose words are all marking vocabulary —
classification words (*confidential*, *restricted*, *secret*, 机密, *vertraulich*,
*commercial in confidence* …) with optional distribution qualifiers (*strictly*,
*do not distribute*, *board members only*, *prepared for the Board of Directors*,
仅供董事会成员传阅 …) — or a keyed label (``Classification: X``, ``密级：X``). Words are
compared after :func:`~ragspine_nb.textfold.fold_lookalikes` (case, look-alike letters,
accents, traditional Chinese), markup is ignored (``<!-- … -->``, tags, ``**``, ``#``),
letter-spaced words are joined (``C O N F I D E N T I A L``) and digits inside words
read as letters (``C0NFIDENTIAL``). A word of a sentence or of a table row is never a
marking: *Restricted cash*, *Confidential information*, *the Board of Directors
approved* all hold a word that is no marking vocabulary.

>>> [m.label for m in map(read_marking, ["CONFIDENTIAL - DO NOT DISTRIBUTE",
...     "<!-- Classification: RESTRICTED -->", "Restricted cash", "機密"]) if m]
['CONFIDENTIAL - DO NOT DISTRIBUTE', 'RESTRICTED', '機密']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from ragspine_nb.textfold import fold_lookalikes

__all__ = ["Marking", "read_marking", "marking_lines", "vocabulary_only", "board_material",
           "stamp_words", "MAX_MARKING_CHARS"]

#: A marking is short: longer lines are sentences or paragraphs.
MAX_MARKING_CHARS = 80
_MAX_WORDS = 12

#: Words that are a marking on their own (any language; compared folded).
_STRONG = """
confidential restricted secret confidentiel confidentielle restreint restreinte
vertraulich geheim confidencial reservado reservada secreto restringido restringida
sigiloso riservato riservata confidenziale segreto vertrouwelijk konfidentiell hemlig
fortrolig konfidensiell hemmelig poufne tajne gizli конфиденциально секретно
конфиденциальный секретный
机密 绝密 秘密 保密 极秘 秘 社外秘 部外秘 关系者外秘 取扱注意 严格保密 受限 内部机密 商业秘密
대외비 기밀 극비 비밀
"""
#: Phrases that are a marking together ("in confidence", "eyes only").
_STRONG_PHRASES = """
in confidence | in strict confidence | in strictest confidence | eyes only
not for public release | not for publication
commercially sensitive | highly sensitive | official sensitive
для служебного пользования | коммерческая тайна
"""
#: Words that may stand beside a marking word: qualifiers of distribution and audience.
_QUALIFIERS = """
strictly strict strictest top highly very private privileged proprietary personal commercial
company corporate group internal internally draft and or of the a an for to in on at by only
use used eyes
not do no never distribution distribute distributed circulation circulate circulated
forward forwarding onward copy copying reproduce disclose disclosure share sharing
external externally outside third party parties further limited addressee addressees
recipient recipients named intended board boards s director directors members member
committee audit risk remuneration nomination executive management senior leadership team
meeting prepared presented purposes discussion level sensitive official attorney attorneys
client counsel legal work product nda under subject access handling handle care with
without permission consent prior written approval tlp red amber page paper papers pack
version copyright all rights reserved pages this document
strictement diffusion usage interne reserve au aux du de la le les pour ne pas conseil
d administration membres uniquement seulement exclusivement
streng nur fur den die der das internen interne gebrauch dienstgebrauch vorstand
aufsichtsrat nicht weitergeben zur weitergabe verteilung
estrictamente estritamente uso interno exclusivo solo para el consejo del
administracion distribuir difundir divulgar apenas somente
strettamente il consiglio di amministrazione non diffondere
strikt intern gebruik alleen voor niet verspreiden
строго совершенно только не распространять внутреннего для
文件 资料 材料 内部 严格 高度 仅 仅供 仅限 限 专用 传阅 成员 使用 参阅 阅读 审阅 请勿 勿 外传
转发 复制 不得 外泄 对外 公开 级 等级 绝对 董事会 董事 管理层 委员会 审计 会议 注意 限り 取缔役会
관계자 외 한정 이사회 전용 용
"""
#: Board words: with a restrictive qualifier they make a marking ("Board members only").
_BOARD = ("board boards directors committee conseil vorstand aufsichtsrat consejo consiglio "
          "董事会 取缔役会 이사회")
_BOARD_ONLY = ("only use eyes circulation distribution prepared uniquement nur solo "
               "仅供 仅限 专用 传阅 限 전용 한정")
#: Words before a marking word that deny it ("NOT CONFIDENTIAL").
_NEGATIONS = frozenset({"not", "no", "non"})
#: Words a joined pair of lines may not start or end with (a sentence broken per line).
#: Marking words a company name may precede ("ACME Confidential").
_NAMED = frozenset({"confidential", "confidentiel", "vertraulich", "confidencial"})
_PAGE_WORDS = frozenset({"page", "pages", "of", "p"})
_FUNCTION = frozenset({"the", "a", "an", "of", "for", "to", "in", "on", "and", "or", "by"})
#: The keys of a keyed label ("Classification: Restricted"), folded words.
_KEYS = """
classification | security classification | data classification | document classification
information classification | classification level | sensitivity | sensitivity label
sensitivity level | protective marking | marking | confidentiality | confidentiality level
security level | niveau de confidentialite | einstufung | klassifizierung | vertraulichkeit
geheimhaltungsgrad | schutzklasse | clasificacion | nivel de confidencialidad
classificazione | riservatezza | classificatie | rubricering | 密级 | 文件密级 | 保密等级
保密级别 | 敏感级别 | 机密区分 | 机密性 | 取扱区分 | 보안등급 | 문서등급
"""
#: Keys whose value is a marking only when it reads as one ("Distribution: Board only").
_SOFT_KEYS = "distribution | circulation | audience | diffusion | verteiler | 分发范围 | 传阅范围"

_COMMENT = re.compile(r"<!--|-->")
_TAG = re.compile(r"</?[A-Za-z][^<>]{0,200}>")
_KEYED = re.compile(r"^\W*(?P<key>[^:：]{1,40}?)\s*[:：]\s*(?P<value>\S.{0,58}?)\W*$")
_TOKEN = re.compile(r"[^\W_]+")
_SPACED = re.compile(r"(?<!\S)(?:[^\W\d_] ){2,}[^\W\d_](?!\S)")
_LEET = str.maketrans("013457", "oieast")
_CJK = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@dataclass(frozen=True)
class Marking:
    """A marking line: as written (markup removed), what it states, how it reads.

    ``label`` is the value of a keyed line (``Classification: Restricted`` →
    ``Restricted``), else the marking itself. ``words`` counts its distinct marking
    words: 1 for a lone word such as ``RESTRICTED``, which a PDF reader judges by its
    layout (a lone word may be a table heading split over lines). ``line`` is the
    index of the line it was read from (the second of two joined lines).
    """

    text: str
    label: str
    keyed: bool = False
    words: int = 1
    line: int = 0


def _words(spec: str) -> frozenset[str]:
    return frozenset(fold_lookalikes(spec).split())


def _phrases(spec: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(fold_lookalikes(p).split()) for p in re.split(r"[|\n]", spec)
                 if p.strip())


@lru_cache(maxsize=1)
def _vocab() -> tuple[frozenset[str], tuple[tuple[str, ...], ...], frozenset[str], frozenset[str],
                      frozenset[str], frozenset[str]]:
    """The vocabulary, folded once.

    Strong words, strong phrases, every vocabulary word, board words, board
    qualifiers and the CJK words (split out of runs of CJK characters).
    """
    strong, phrases = _words(_STRONG), _phrases(_STRONG_PHRASES)
    every = strong | _words(_QUALIFIERS) | {w for p in phrases for w in p}
    board, only = _words(_BOARD), _words(_BOARD_ONLY)
    every |= board | only
    cjk = frozenset(w for w in every if _CJK.search(w))
    return strong, phrases, every, board, only, cjk


@lru_cache(maxsize=1)
def _keys() -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]:
    return frozenset(_phrases(_KEYS)), frozenset(_phrases(_SOFT_KEYS))


def _clean(line: str) -> str:
    """The line without markup: comment delimiters, tags, emphasis and bullets."""
    line = _TAG.sub(" ", _COMMENT.sub(" ", line))
    return " ".join(line.replace("\u200b", "").split())


def _segment(token: str, vocab: frozenset[str]) -> list[str] | None:
    """A CJK run as vocabulary words (longest first), else None."""
    n = len(token)
    best: list[list[str] | None] = [None] * (n + 1)
    best[0] = []
    for i in range(n):
        if best[i] is None:
            continue
        for j in range(min(n, i + 8), i, -1):
            piece = token[i:j]
            if piece in vocab and best[j] is None:
                best[j] = [*best[i], piece]  # type: ignore[misc]
    return best[n]


def _tokens(text: str) -> list[str]:
    """Folded word tokens of ``text``.

    Letter-spaced words are joined, digits in words read as letters and CJK runs split
    into vocabulary words where they can be.
    """
    text = _SPACED.sub(lambda m: m.group(0).replace(" ", ""), text)
    cjk = _vocab()[5]
    out: list[str] = []
    for raw in _TOKEN.findall(fold_lookalikes(text)):
        token = raw.translate(_LEET) if len(raw) > 1 and not raw.isdigit() and any(
            c.isdigit() for c in raw) else raw
        if _CJK.search(token):
            out += _segment(token, cjk) or [token]
        else:
            out.append(token)
    return out


def _is_marking(tokens: Sequence[str]) -> bool:
    """Every token is marking vocabulary and one of them (or a phrase) is a marking."""
    strong, phrases, every, board, only, _ = _vocab()
    tokens = [t for i, t in enumerate(tokens)  # "Page 3 of 12"
              if not (t.isdigit() and i and tokens[i - 1] in _PAGE_WORDS)]
    if not tokens or len(tokens) > _MAX_WORDS or not set(tokens) <= every:
        return False
    for i, token in enumerate(tokens):
        if token in strong and (i == 0 or tokens[i - 1] not in _NEGATIONS):
            return True
    for phrase in phrases:
        k = len(phrase)
        if any(tuple(tokens[i:i + k]) == phrase for i in range(len(tokens) - k + 1)):
            return True
    return bool(board & set(tokens)) and bool(only & set(tokens))


def _named(text: str, tokens: list[str]) -> bool:
    """``ACME Confidential …``: one or two capitalised name words, then a marking."""
    raw, every = _TOKEN.findall(text), _vocab()[2]
    if len(raw) != len(tokens):
        return False
    for n in (1, 2):
        rest, names = tokens[n:], tokens[:n]
        if (rest and rest[0] in _NAMED and all(w[:1].isupper() for w in raw[:n])
                and names[0] not in every and not any(w in _NEGATIONS for w in names)
                and _is_marking(rest)):
            return True
    return False


def _keyed(text: str) -> Marking | None:
    m = _KEYED.match(text)
    if not m:
        return None
    key = tuple(_tokens(m.group("key")))
    hard, soft = _keys()
    value = m.group("value").strip(" *_~`'\"[]()")
    if any(c.isdigit() for c in value) or len(value.split()) > 6:
        return None  # "Sensitivity: +/-1%", "Classification: see Note 5" state no label
    if key in hard and value:
        return Marking(text, value, keyed=True, words=2)
    if key in soft and _is_marking(_tokens(value)):
        return Marking(text, value, keyed=True, words=2)
    return None


def read_marking(line: str) -> Marking | None:
    r"""The marking ``line`` is, else None (see the module docstring).

    >>> read_marking("STRICTLY C\u043eNFIDENTIAL").words, read_marking("Confidential Information")
    (2, None)
    >>> read_marking("Classification : Diffusion restreinte").label
    'Diffusion restreinte'
    """
    if len(line) > 3 * MAX_MARKING_CHARS or not line.strip():
        return None
    text = _clean(line)
    if not text or len(text) > MAX_MARKING_CHARS:
        return None
    keyed = _keyed(text)
    if keyed is not None:
        return keyed
    tokens = _tokens(text)
    if _is_marking(tokens) or _named(text, tokens):
        label = text.strip(" *_~`#>|[](){}\u2022-\u2013\u2014=+")
        return Marking(text, label or text, words=len(set(tokens)))
    return None


def _joined(first: str, second: str) -> str | None:
    """Two short lines read as one: a hyphenated word, or two upper-case words."""
    a, b = first.strip(), second.strip()
    if not a or not b or len(a) + len(b) > MAX_MARKING_CHARS:
        return None
    if a.endswith("-") and a[-2:-1].isalpha() and b[:1].isalpha():
        return a[:-1] + b
    if a.isupper() and b.isupper():
        words = _tokens(f"{a} {b}")
        if words and words[0] not in _FUNCTION and words[-1] not in _FUNCTION:
            return f"{a} {b}"
    return None


def _fragment(lines: Sequence[str], i: int) -> bool:
    """Whether line ``i`` is a piece of a broken sentence.

    One or two words, neither a marking nor a page number, no sentence end.
    """
    if not 0 <= i < len(lines):
        return False
    line = lines[i].strip()
    words = _tokens(_clean(line))
    page = all(w.isdigit() or w in _PAGE_WORDS for w in words)
    return (0 < len(words) <= 2 and not page and read_marking(line) is None
            and not line.endswith((".", "!", "?", ":", ";", "\u3002")))


def marking_lines(text: str) -> Iterator[Marking]:
    """Every marking among the lines of ``text`` (each line one of its own).

    Two short lines also read as one when the first ends in a hyphen
    (``STRICTLY CON-`` / ``FIDENTIAL``) or both are upper case (``STRICTLY`` /
    ``CONFIDENTIAL``). A lone marking word between two pieces of a broken sentence
    (``The`` / ``restricted`` / ``cash``) is none.
    """
    previous, lines = "", text.splitlines()
    for n, line in enumerate(lines):
        if len(line) <= 3 * MAX_MARKING_CHARS:
            found = read_marking(line)
            if found is not None and found.words == 1 and not found.keyed and _fragment(
                    lines, n - 1) and _fragment(lines, n + 1):
                found = None  # "the / restricted / cash": a sentence broken per line
            if found is not None:
                yield replace(found, line=n)
            pair = _joined(previous, line) if previous else None
            joined = read_marking(pair) if pair else None
            if joined is not None and joined.words > (found.words if found else 0):
                yield replace(joined, line=n)
        previous = line if len(line) <= MAX_MARKING_CHARS else ""


def vocabulary_only(text: str) -> bool:
    """Whether every word of ``text`` is marking vocabulary ("Page 3 of 12", "Board only").

    A lone page number counts too. Empty text is not.
    """
    tokens = _tokens(_clean(text))
    if len(tokens) == 1 and tokens[0].isdigit() and len(tokens[0]) <= 4:
        return True
    every = _vocab()[2]
    words = [t for i, t in enumerate(tokens)
             if not (t.isdigit() and i and tokens[i - 1] in _PAGE_WORDS)]
    return bool(words) and set(words) <= every


def _starts(text: str) -> set[int]:
    """Offsets in ``fold(text)`` (separators removed) where a word of ``text`` starts."""
    out, pos = set(), 0
    for word in re.findall(r"[^\W_]+", text):
        pieces = (_CAMEL.findall(word) if word.isascii()
                  else list(word) if _CJK.search(word) else [word])
        for piece in pieces:
            out.add(pos)
            pos += len(_fold_joined(piece))
    return out


def _fold_joined(text: str) -> str:
    return "".join(_TOKEN.findall(fold_lookalikes(text)))


def board_material(text: str, phrases: Sequence[str]) -> str | None:
    """The phrase naming board material that ``text`` (a title, a file name) holds.

    A phrase matches where a word of ``text`` starts, separators and case ignored, so
    ``BoD_minutes_2026-09.md`` holds *BoD minutes* and ``dashboard_paper`` no *board
    paper*. A sentence (it ends in a full stop, or is over 16 words) names nothing.

    >>> board_material("BoD_minutes_2026-09.md", ["BoD minutes", "board paper"])
    'BoD minutes'
    >>> board_material("dashboard_paper.xlsx", ["board paper"]) is None
    True
    """
    text = " ".join(text.split())
    sentence = text.endswith(".") or len(text.split()) > 16
    if not text or sentence:
        return None
    folded, starts = _fold_joined(text), _starts(text)
    for phrase in phrases:
        target = _fold_joined(phrase)
        at = folded.find(target)
        while target and at >= 0:
            if at in starts:
                return phrase
            at = folded.find(target, at + 1)
    return None


def stamp_words(name: str) -> str:
    """A PDF stamp's name as words: ``SBNotForPublicRelease`` → ``Not For Public Release``.

    >>> stamp_words("#SBConfidential"), stamp_words("TopSecret")
    ('Confidential', 'Top Secret')
    """
    words = _CAMEL.findall(name.lstrip("#/"))
    if len(words) > 1 and words[0].isupper() and len(words[0]) <= 2:
        words = words[1:]  # Acrobat's prefixes: SB (standard business), SH (sign here), D
    return " ".join(words)
