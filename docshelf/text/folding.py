"""One hit per clause: copies of a text folded together, apparatus ranked down, absent documents named.

* **Copies** (two editions of a law, an RFC as PDF and as TXT) share a clause label or a title and
  nearly all their words: they fold into one hit, the others listed in ``also_in``; the hit shown
  is the copy in force when there is one.
* **Parts of one split article** («ст. 22», parts 1–3 and 4–6 in two files) fold into the part
  that matched best.
* **Apparatus** (title pages, contents, prefaces, change logs, reference lists) answers almost no
  question about the rules themselves: such sections lose :data:`APPARATUS_PENALTY`.
* **A document the query names but the shelf lacks** («приказ ФСТЭК № 117»): its number must not
  find «Статья 117» of some code; the note says that document is not on the shelf.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from docshelf.law import docids
from docshelf.text.normalize import normalize_text
from docshelf.text.searchindex import KeyRow
from docshelf.text.sections import title_key

COPY_SIMILARITY = 0.8  # share of shared body keys (Jaccard) from which two sections are one text
APPARATUS_PENALTY = 0.6  # sections.is_apparatus decides, when the index is built
# A number naming an act: «приказ ФСТЭК № 117», «указ 250», «федеральный закон 999-фз», «RFC 9999».
_ACT = re.compile(
    r"\b(?P<kind>приказ\w*|указ\w*|постановлени\w*|распоряжени\w*|закон\w*|rfc|гост(?: р)?|sp)"
    r"(?P<between>(?: [^\W\d_]+){0,3}?)(?: №)? ?(?P<number>\d+(?:[-.]\d+)*(?:-[^\W\d_]{1,4})?)\b"
)
_ACT_ID = re.compile(r"\b\d+-(?:фз|фкз)\b")
# A code or the Constitution by its name in any case («ст. 10 Уголовного кодекса») or its abbreviation with
# «РФ» («УК РФ»; «ТК» alone is also a transport company): the one vocabulary of law/docids.py.
_CODE_OF = {normalize_text(said): code for code in docids.CODES.values() for said in (code, *docids.id_spellings(code))}
_CODE_IDS = frozenset(docids.CODES.values())
_CODE = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(_CODE_OF, key=len, reverse=True))) + r")(?![\w-])")


@dataclass
class Group:
    """Ranked candidates that are one clause: the first is the best match."""

    rowids: list[int] = field(default_factory=list)
    score: float = 0.0


def _words(keys: KeyRow) -> frozenset[str]:
    return frozenset(keys.body.split())


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return False
    small, large = sorted((len(a), len(b)))
    if small < COPY_SIMILARITY * large:
        return False  # cheap size test before the set operations
    return len(a & b) >= COPY_SIMILARITY * len(a | b)


def fold(ranked: Sequence[int], keys: dict[int, KeyRow]) -> list[Group]:
    """Group ranked rowids (best first) into clauses; each group keeps its best member first.

    A later candidate joins an earlier group when it is another part of the same document's clause,
    or when it carries the same clause label or title in another document and nearly the same words.
    """
    groups: list[Group] = []
    by_label: dict[tuple[str, ...], list[tuple[Group, int]]] = {}  # label -> (group, the member labelled so)
    words: dict[int, frozenset[str]] = {}
    for rowid in ranked:
        row = keys[rowid]
        part = ("part", row.doc_key, row.clause) if row.clause else None
        # A copy in another document has the same title (editions keep article titles) or, untitled, clause.
        copy = ("copy", title_key(row.title)) if row.title else ("copy", "", row.clause) if row.clause else None
        home = by_label[part][0][0] if part in by_label else None  # another part of the same split article
        for g, member in by_label.get(copy, []) if home is None and copy else []:
            other = keys[member]
            if other.doc_key == row.doc_key:
                continue
            a = words.setdefault(member, _words(other))
            if _similar(a, words.setdefault(rowid, _words(row))):
                home = g
                break
        if home is None:
            home = Group([])
            groups.append(home)
        home.rowids.append(rowid)
        for label in (part, copy):
            if label is not None:
                by_label.setdefault(label, []).append((home, rowid))
    return groups


def names_an_act(query: str) -> bool:
    """Whether the query names an act by its number (cheap: the common query reads no document list)."""
    norm = normalize_text(query)
    return bool(_ACT.search(norm) or _ACT_ID.search(norm) or _CODE.search(norm))


def absent_acts(query: str, doc_keys: Sequence[str], titles: Sequence[str] = ()) -> list[tuple[str, str]]:
    """``(as written, its number)`` for each act the query names by number that no document of the shelf is;
    ``(its id, as named)`` for a code or the Constitution that no document's id or title names."""
    norm = normalize_text(query)
    names = [*doc_keys, *map(normalize_text, titles)]
    shelf = " | ".join(doc_keys)
    found = [(m.group(0), m["number"]) for m in _ACT.finditer(norm)]
    found += [(m.group(0), m.group(0)) for m in _ACT_ID.finditer(norm) if not any(m.group(0) in f[0] for f in found)]
    out = []
    for text, number in found:
        if not re.search(rf"(?<![\w.-]){re.escape(number)}(?![\w-])", shelf):
            out.append((_as_written(query, text), number))
    for m in _CODE.finditer(norm):  # a code is named by words, not a number: all of them stand for it
        code = _CODE_OF[m.group(0)]
        # on the shelf under its id, or under any id with its name in the title (an id chosen at `add`)
        if not any(code in _codes_in(name) for name in names):
            out.append((code, m.group(0)))
    return out


def names_absent_code(missing: Sequence[tuple[str, str]]) -> bool:
    """Whether an absent act (:func:`absent_acts`) is a code: «ст. 18 УК РФ» asks for the code's article, so
    the query's clause numbers must not find another document's ст. 18 either."""
    return any(written in _CODE_IDS for written, _said in missing)


def _codes_in(text: str) -> set[str]:
    return {_CODE_OF[m.group(0)] for m in _CODE.finditer(text)}


def _as_written(query: str, normalized: str) -> str:
    """The query's own spelling of a normalized span (case, «№»), when it can be found word by word."""
    words = normalized.split()
    pattern = r"\W*".join(re.escape(w) for w in words)
    m = re.search(pattern, query, re.IGNORECASE)
    return " ".join(m.group(0).split()) if m else normalized
