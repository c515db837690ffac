r"""Text folding for the security gate: one canonical view that bypass tricks cannot change.

Steps, applied identically to questions and to aliases:

1. decode HTML entities, ``%``-escapes and ``\\u``/``\\x`` escapes (repeatedly);
2. per character: NFKC, drop combining marks (after NFD), drop format / control
   characters, whitespace, punctuation and symbols and blank-looking letters;
3. casefold, then a confusable skeleton: a non-ASCII look-alike of an ASCII letter
   or digit becomes that letter (Unicode's confusables data from
   ``confusable_homoglyphs``);
4. traditional → simplified Chinese, character by character (OpenCC's dictionary
   from ``opencc-python-reimplemented``).

Clause punctuation (``，。！？；：`` and ``, ; ! ?``, ``.``/``:`` before a space) is not
dropped but becomes a boundary that a match may not cross, so a benign question that
merely has an alias's characters on both sides of a comma is not refused.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from urllib.parse import unquote

__all__ = ["decode_escapes", "fold_for_gate", "BOUNDARY"]

BOUNDARY = "\u241e"  # a symbol no alias can contain after folding
_DROP = ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Mc", "Zs", "Zl", "Zp",
         "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So")
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
_CLAUSE = frozenset("，。！？；：,;!?…")
_SOFT_CLAUSE = frozenset(".:")  # a boundary only when followed by whitespace or the end
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\x([0-9a-fA-F]{2})")


def decode_escapes(text: str, rounds: int = 3) -> str:
    r"""Undo HTML entities, ``%hh`` and ``\\uhhhh`` escapes until the text stops changing."""
    for _ in range(rounds):
        before = text
        text = html.unescape(text)
        if "%" in text:
            try:
                text = unquote(text, errors="strict")
            except UnicodeDecodeError:
                pass
        text = _ESCAPE.sub(lambda m: chr(int(next(g for g in m.groups() if g), 16)), text)
        if text == before:
            break
    return text


@lru_cache(maxsize=1)
def _skeleton_map() -> dict[str, str]:
    """Non-ASCII character → the lower-case ASCII letter or digit it is confusable with.

    One step, as in UTS #39's skeleton (no transitive closure, which would merge
    unrelated letters); a character is also looked up by its upper and lower case,
    so a lower-case look-alike of a capital (Cyrillic ``м`` for ``M``) is caught.
    ASCII itself is never changed.
    """
    # a core dependency: a missing package must fail loudly, never weaken the gate
    raw = (resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8")
    data = json.loads(raw)

    def ascii_target(ch: str) -> str | None:
        for variant in (ch, ch.upper(), ch.lower()):
            for entry in data.get(variant, ()):
                t = str(entry.get("c", ""))
                if len(t) == 1 and t.isascii() and t.isalnum():
                    return t.lower()
        return None

    out: dict[str, str] = {}
    for char in data:
        for variant in {char, char.lower(), char.upper()}:
            if len(variant) == 1 and not variant.isascii():
                target = ascii_target(variant)
                if target is not None:
                    out.setdefault(variant, target)
    return out


@lru_cache(maxsize=1)
def _t2s_map() -> dict[str, str]:
    """Traditional → simplified characters (first candidate of OpenCC's TSCharacters)."""
    text = (resources.files("opencc") / "dictionary" / "TSCharacters.txt").read_text("utf-8")
    out: dict[str, str] = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 2 and len(parts[0]) == 1:
            target = parts[1].split(" ")[0]
            if len(target) == 1:
                out[parts[0]] = target
    return out


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


def fold_for_gate(text: str) -> tuple[str, list[int]]:
    """The folded view of ``text`` and, per folded character, its index in ``text``.

    Clause punctuation becomes :data:`BOUNDARY` so that no match crosses it.
    """
    view: list[str] = []
    index: list[int] = []
    n = len(text)
    for i, ch in enumerate(text):
        nfkc = unicodedata.normalize("NFKC", ch)
        if nfkc in _CLAUSE or (nfkc in _SOFT_CLAUSE and (i + 1 == n or text[i + 1].isspace())):
            view.append(BOUNDARY)
            index.append(i)
            continue
        for c in _fold_char(ch):
            view.append(c)
            index.append(i)
    return "".join(view), index
