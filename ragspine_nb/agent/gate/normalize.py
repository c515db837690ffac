r"""Text folding for the security gate: one canonical view that bypass tricks cannot change.

Steps, applied identically to questions and to aliases:

1. decode HTML entities, ``%``-escapes (``%u7ADE`` too), ``\\u``/``\\u{…}``/``\\x``/
   ``\\N{NAME}`` escapes, ``U+7ADE``, escaped UTF-8 bytes (``\\xe7\\xab\\x9e``,
   ``=E7=AB=9E``) and punycode labels (``xn--…``), repeatedly until the text stops
   changing (every decoding shortens it, so this ends);
2. per character: NFKC, drop combining marks (after NFD), drop format / control
   characters, whitespace, punctuation and symbols and blank-looking letters;
3. casefold, then a confusable skeleton: a non-ASCII look-alike of an ASCII letter
   or digit becomes that letter (Unicode's confusables data from
   ``confusable_homoglyphs``);
4. traditional → simplified Chinese, character by character (OpenCC's dictionary
   from ``opencc-python-reimplemented``).

Clause punctuation (``，。！？；：…`` and ``, ; ! ?``, ``.``/``:`` before a space) is not
dropped but becomes a boundary that a match may not cross, so a benign question that
merely has an alias's characters on both sides of a comma (``参与竞，安排``) is not
refused. One exception, structural: a boundary right after a character that stands
alone between separators (``竞，安``, ``R, i, v``, the ``E`` of ``A.C.M.E. Capital``) is
spelling, not a clause, and is bridged. The cost: a lone character that really ends a
clause and happens to start an alias (``竞，安排``) reads as the alias.

:func:`leet_overrides` gives a second view in which digits (and ``@``, ``$``) stand for
letters, only inside tokens of at least two letters whose digit runs are all leet digits,
so ``FY2025``, ``Q3``, ``2025H1`` and ``1H2025`` never change. :func:`lookalike_overrides`
adds the vertical strokes that a sans-serif font draws alike — capital ``I``, small ``l``,
``|`` inside a word, ``1``, ``Ⅰ``, ``ǀ`` — as one :data:`STROKE` that an alias's ``i`` or
``l`` may match (so ``RivaIis``, ``RIVALlS`` and ``Riva|is`` read as ``Rivalis``, while a
plain ``i`` never stands for an ``l``: ``fail`` is no ``fall``).

:func:`han_overrides` gives the Chinese view: up to three Latin letters or digits, clause
punctuation or symbols between two Chinese characters are dropped (``竞x安``, ``竞；安``;
the gate then asks that the name end there), and a rare character (outside GB 2312) that
reads like an alias character stands for it (``竸`` for ``竞``; never the common ``静``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from urllib.parse import unquote

from ragspine_nb.textfold import skeleton_map, t2s_map

__all__ = ["decode_escapes", "fold_for_gate", "leet_overrides", "lookalike_overrides",
           "han_overrides", "BOUNDARY", "STROKE"]

BOUNDARY = "\u241e"  # a symbol no alias can contain after folding
#: A vertical stroke that reads as ``l`` or ``i`` (``I``, ``l``, ``|``, ``1``, ``Ⅰ``, ``ǀ``)
STROKE = "#"
_DROP = ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Mc", "Zs", "Zl", "Zp",
         "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So")
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
_CLAUSE = frozenset("，。！？；：,;!?…")
_SOFT_CLAUSE = frozenset(".:")  # a boundary only when followed by whitespace or the end
_TRANSPARENT = ("Cf", "Mn", "Me")  # invisible inside a token: neither a letter nor a gap
# what a digit or symbol stands for inside a mixed token (1 is also l: see the gate)
_LEET = {"0": "o", "1": STROKE, "3": "e", "4": "a", "5": "s", "7": "t",
         "@": "a", "$": "s"}
_LEET_SYMBOLS = frozenset("@$\uff20\uff04\ufe6b\ufe69")  # and their full-width/small forms
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|%u([0-9a-fA-F]{4})|"
                     r"\\u\{([0-9a-fA-F]{1,6})\}|(?<![0-9A-Za-z])[Uu]\+([0-9a-fA-F]{4,6})\b")
# escaped bytes, read as UTF-8 where they are (``\xe7\xab\x9e``, quoted-printable ``=E7=AB=9E``)
_BYTES = re.compile(r"(?:\\x[0-9a-fA-F]{2})+|(?:=[0-9A-F]{2}){2,}")
_NAMED = re.compile(r"\\N\{([A-Za-z0-9 \-]{1,88})\}")
# a punycode label (IDNA's ``xn--`` prefix) spells a non-ASCII name in ASCII
_PUNYCODE = re.compile(r"(?i)(?<![a-z0-9])xn--([a-z0-9-]{1,63})")


def _codepoint(m: re.Match[str]) -> str:
    value = int(next(g for g in m.groups() if g), 16)
    return chr(value) if value <= 0x10FFFF else m.group(0)


def _bytes(m: re.Match[str]) -> str:
    raw = bytes(int(h, 16) for h in re.findall(r"[0-9a-fA-F]{2}", m.group(0)))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1") if m.group(0).startswith("\\") else m.group(0)


def _named(m: re.Match[str]) -> str:
    try:
        return unicodedata.lookup(m.group(1))
    except KeyError:
        return m.group(0)


def _punycode(m: re.Match[str]) -> str:
    try:
        return m.group(1).encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return m.group(0)


def decode_escapes(text: str, rounds: int | None = None) -> str:
    r"""Undo HTML entities, ``%hh``, ``\uhhhh``, ``\N{NAME}`` and punycode until stable.

    Every decoding step makes the text shorter, so the loop ends by itself; ``rounds``
    (default: as many as the text is long) only bounds it further.

    Examples
    --------
    >>> decode_escapes("%2525E7%2525AB%25259E, \\N{CJK UNIFIED IDEOGRAPH-5B89}, xn--49sz24e")
    '竞, 安, 竞安'
    >>> decode_escapes("%u7ADE U+5B89 \\xe7\\xab\\x9e =E5=AE=89 \\u{7ade}, FY2025=1,405")
    '竞 安 竞 安 竞, FY2025=1,405'
    """
    for _ in range(len(text) + 1 if rounds is None else rounds):
        before = text
        text = html.unescape(text)
        if "%" in text:
            try:
                text = unquote(text, errors="strict")
            except UnicodeDecodeError:
                pass
        text = _ESCAPE.sub(_codepoint, text)
        text = _BYTES.sub(_bytes, text)
        text = _NAMED.sub(_named, text)
        text = _PUNYCODE.sub(_punycode, text)
        if text == before:
            break
    return text


# one table of each for the gate and the marking classifier (ragspine_nb.textfold)
_skeleton_map, _t2s_map = skeleton_map, t2s_map


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    skel, t2s = _skeleton_map(), _t2s_map()
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc.isascii():  # full-width and styled ASCII: NFKC is exact
        return "".join(c for c in nfkc.casefold() if c.isalnum())
    direct = skel.get(ch)
    if direct is not None:  # a look-alike as typed (before NFKC turns Ϲ into Σ)
        return direct
    out = []
    for piece in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", ch)):
        if piece in _BLANK_LETTERS or unicodedata.category(piece) in _DROP:
            continue
        for c in unicodedata.normalize("NFKC", piece).casefold():
            c = skel.get(c, c)
            out.append(t2s.get(c, c))
    return "".join(out)


@lru_cache(maxsize=65536)
def _clause_kind(ch: str) -> int:
    """2: clause punctuation, 1: clause punctuation when a space follows, 0: neither."""
    nfkc = unicodedata.normalize("NFKC", ch)
    return 2 if ch in _CLAUSE or nfkc in _CLAUSE else 1 if nfkc in _SOFT_CLAUSE else 0


def _is_clause(text: str, i: int) -> bool:
    kind = _clause_kind(text[i])
    return kind == 2 or (kind == 1 and (i + 1 == len(text) or text[i + 1].isspace()))


def _folds(text: str, overrides: Mapping[int, str]) -> list[str | None]:
    """Per character: its folded form (``""`` when dropped), ``None`` for clause punctuation."""
    return [overrides[i] if i in overrides else None if _is_clause(text, i) else _fold_char(ch)
            for i, ch in enumerate(text)]


def _lone(folds: list[str | None], i: int) -> bool:
    """Whether character ``i`` stands alone: no character of a word on either side."""
    return (bool(folds[i]) and (i == 0 or not folds[i - 1])
            and (i + 1 == len(folds) or not folds[i + 1]))


def fold_for_gate(text: str, overrides: Mapping[int, str] | None = None
                  ) -> tuple[str, list[int]]:
    """The folded view of ``text`` and, per folded character, its index in ``text``.

    Clause punctuation becomes :data:`BOUNDARY` so that no match crosses it, except
    right after a lone character (spelling: ``竞，安``). ``overrides`` replaces the
    folded form of some characters (source index → text), e.g. :func:`leet_overrides`.
    """
    folds = _folds(text, overrides or {})
    view: list[str] = []
    index: list[int] = []
    last = -1  # the last character that folds to something
    for i, f in enumerate(folds):
        if f is None:
            if last < 0 or not _lone(folds, last):  # after a lone character: spelling
                view.append(BOUNDARY)
                index.append(i)
            continue
        if f:
            last = i
        for c in f:
            view.append(c)
            index.append(i)
    return "".join(view), index


@lru_cache(maxsize=65536)
def _word_char(ch: str) -> str:
    """The ASCII letter, digit, ``@`` or ``$`` a character is, or ``""``."""
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc in ("@", "$"):
        return nfkc
    f = _fold_char(ch)
    return f if len(f) == 1 and f.isascii() and f.isalnum() else ""


def _tokens(text: str) -> list[list[int]]:
    """Runs of word characters (source indices); invisible characters join, lone ones merge."""
    tokens: list[list[int]] = [[]]
    for i, ch in enumerate(text):
        if _word_char(ch):
            tokens[-1].append(i)
        elif unicodedata.category(ch) not in _TRANSPARENT and tokens[-1]:
            tokens.append([])
    merged: list[list[int]] = []
    lone = False
    for tok in filter(None, tokens):  # "R 1 v 4 l 1 s" is one token
        if len(tok) == 1 and lone:
            merged[-1].append(tok[0])
        else:
            merged.append(list(tok))
        lone = len(tok) == 1
    return merged


def leet_overrides(text: str) -> dict[int, str]:
    """Source index → letter for each digit, ``@`` or ``$`` that stands for a letter.

    Only in tokens with at least two letters, and only digit runs made wholly of leet
    digits: ``R1v4l1s`` and ``4CM3`` map, ``FY2025``, ``Q3``, ``2025H1``, ``1H2025`` do not.

    Examples
    --------
    >>> sorted(leet_overrides("R1v4l1s in FY2025, Q3 and 1H2025").items())
    [(1, '#'), (3, 'a'), (5, '#')]
    """
    if not any(ch.isdigit() or ch in _LEET_SYMBOLS for ch in text):  # superscripts too
        return {}
    out: dict[int, str] = {}
    for tok in _tokens(text):
        chars = [_word_char(text[i]) for i in tok]
        if sum(c.isalpha() for c in chars) < 2:
            continue
        run: list[int] = []
        for k, c in enumerate([*chars, "x"]):  # a letter closes the last run
            if c.isalpha():
                if run and all(chars[j] in _LEET for j in run):
                    out.update({tok[j]: _LEET[chars[j]] for j in run})
                run = []
            else:
                run.append(k)
    return out


_STROKE_CHARS = frozenset("Il1")
_STROKE_SYMBOLS = frozenset("|\u00a6")
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
# between two Chinese characters: no Chinese, at most 3 Latin letters/digits (checked below)
_HAN_GAP = re.compile(f"(?<=[{_HAN}])[^{_HAN}\\n]{{1,8}}(?=[{_HAN}])")


@lru_cache(maxsize=65536)
def _stroke(ch: str) -> bool:
    nfkc = unicodedata.normalize("NFKC", ch)
    if ch in _STROKE_CHARS or nfkc in ("I", "l", "1"):
        return True
    return not ch.isascii() and _skeleton_map().get(ch) == "l" and nfkc.casefold() != "l"


def lookalike_overrides(text: str) -> dict[int, str]:
    """The leet view plus every vertical stroke as :data:`STROKE`.

    ``|`` (and ``¦``) counts only touching a letter or digit, ``!`` only between two;
    other strokes are letters.

    Examples
    --------
    >>> sorted(lookalike_overrides("RivaIis Riva|is | x").items())
    [(4, '#'), (12, '#')]
    """
    out: dict[int, str] = {}
    for i, ch in enumerate(text):
        nfkc = unicodedata.normalize("NFKC", ch)
        near = [0 <= j < len(text) and text[j].isalnum() for j in (i - 1, i + 1)]
        if nfkc in _STROKE_SYMBOLS and any(near) or nfkc == "!" and all(near):
            out[i] = STROKE
        elif _stroke(ch):
            out[i] = STROKE
    out.update(leet_overrides(text))
    return out


def han_overrides(text: str, rare: Mapping[str, str]) -> tuple[dict[int, str], frozenset[int]]:
    """The Chinese view's overrides, and the positions it drops between characters.

    ``rare``: character → the stand-in for the alias characters it reads like (see
    :func:`ragspine_nb.agent.gate.transliterate.rare_han_reading`).

    Examples
    --------
    >>> over, gaps = han_overrides("竞x安、竞；安、竞2025安、竸", {"竸": "\ue000"})
    >>> sorted(gaps), over[15]
    ([1, 3, 5, 7, 14], '\ue000')
    """
    out = {i: rare[ch] for i, ch in enumerate(text) if ch in rare}
    gaps: set[int] = set()
    for m in _HAN_GAP.finditer(text):
        body = m.group(0)
        alnum = sum(c.isascii() and c.isalnum() for c in body)
        if alnum <= 3 and all((c.isascii() and c.isalnum()) or _fold_char(c) == ""
                              or _is_clause(body, k) for k, c in enumerate(body)):
            gaps.update(range(m.start(), m.end()))
    out.update(dict.fromkeys(gaps, ""))
    return out, frozenset(gaps)
