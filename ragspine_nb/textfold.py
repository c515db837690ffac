"""Look-alike folding for comparisons that spellings must not evade (core layer).

:func:`fold_lookalikes` maps every character to the one a reader takes it for, keeping
separators and punctuation where they are:

1. NFKC (full-width and styled letters become ASCII), then case folding;
2. accents dropped from Latin, Greek and Cyrillic letters (``ï`` → ``i``);
3. a confusable skeleton: a non-ASCII look-alike of an ASCII letter or digit becomes
   that letter (Cyrillic ``о`` → ``o``, Greek ``Ο`` → ``o``; Unicode's confusables data
   from ``confusable_homoglyphs``);
4. traditional → simplified Chinese, character by character (``機密`` → ``机密``;
   OpenCC's dictionary from ``opencc-python-reimplemented``).

Both sides of a comparison are folded the same way, so a word written in a script whose
letters look Latin (Russian ``секретно``) still equals itself. The security gate has its
own, stricter fold (``ragspine_nb.agent.gate.normalize``); this one is for the sensitivity
classifier, which sits below the agent.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources

__all__ = ["fold_lookalikes", "skeleton_map", "t2s_map"]

#: Letters whose accents are dropped: Latin, Greek, Cyrillic and their extensions.
_ACCENTED = (range(0x00C0, 0x0530), range(0x1E00, 0x2000))


@lru_cache(maxsize=1)
def skeleton_map() -> dict[str, str]:
    r"""Non-ASCII character → the lower-case ASCII letter or digit it is confusable with.

    One step, as in UTS #39's skeleton (no transitive closure); a character is also
    looked up by its upper and lower case. ASCII itself is never changed.

    >>> skeleton_map()["\u043e"], skeleton_map()["\u039f"]
    ('o', 'o')
    """
    # a core dependency: a missing package must fail loudly, never weaken the classifier
    raw = (resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8")
    data = json.loads(raw)

    def ascii_target(ch: str) -> str | None:
        for variant in (ch, ch.upper(), ch.lower()):
            for entry in data.get(variant, ()):
                target = str(entry.get("c", ""))
                if len(target) == 1 and target.isascii() and target.isalnum():
                    return target.lower()
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
def t2s_map() -> dict[str, str]:
    r"""Traditional → simplified characters (first candidate of OpenCC's TSCharacters).

    >>> t2s_map()["\u6a5f"]
    '机'
    """
    text = (resources.files("opencc") / "dictionary" / "TSCharacters.txt").read_text("utf-8")
    out: dict[str, str] = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 2 and len(parts[0]) == 1:
            target = parts[1].split(" ")[0]
            if len(target) == 1:
                out[parts[0]] = target
    return out


def _accented(cp: int) -> bool:
    return any(cp in block for block in _ACCENTED)


def _fold_char(ch: str) -> str:
    """One character folded (see the module docstring); may be empty or several."""
    skeleton, t2s = skeleton_map(), t2s_map()
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc.isascii():  # full-width and styled ASCII: NFKC is exact
        return nfkc.casefold()
    direct = skeleton.get(ch)
    if direct is not None:  # a look-alike as typed (before NFKC turns Ϲ into Σ)
        return "i" if direct == "l" and ch.isupper() else direct  # a capital I, not an l
    out = []
    for c in nfkc.casefold():
        accented = _accented(ord(c))
        for piece in unicodedata.normalize("NFD", c) if accented else c:
            if accented and unicodedata.category(piece) == "Mn":
                continue
            out.append(t2s.get(skeleton.get(piece, piece), skeleton.get(piece, piece)))
    return "".join(out)


class _Table(dict[int, str]):
    """A ``str.translate`` table filled on first use of each character."""

    def __missing__(self, cp: int) -> str:
        folded = chr(cp).lower() if cp < 128 else _fold_char(chr(cp))
        self[cp] = folded
        return folded


_TABLE = _Table()


def fold_lookalikes(text: str) -> str:
    r"""``text`` case-folded with look-alike letters and script variants folded.

    Separators and punctuation stay (the callers decide what separates words).

    >>> fold_lookalikes("STRICTLY C\u043eNFIDENTIAL \u6a5f\u5bc6 Conf\u00efdentiel")
    'strictly confidential 机密 confidentiel'
    """
    if text.isascii():
        return text.lower()
    return text.translate(_TABLE)
