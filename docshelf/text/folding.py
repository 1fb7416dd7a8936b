"""One hit per clause: copies of a text folded together, apparatus ranked down, absent documents named.

* **Copies** (two editions of a law, an RFC as PDF and as TXT) share a clause label or a title and
  nearly all their words: they fold into one hit, the others listed in ``also_in``; the hit shown
  is the copy in force when there is one.
* **Parts of one split article** («ст. 22», parts 1–3 and 4–6 in two files) fold into the part
  that matched best.
* **Apparatus** (title pages, contents, prefaces, change logs, reference lists) answers almost no
  question about the rules themselves: such sections lose :data:`APPARATUS_PENALTY`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from docshelf.text.searchindex import KeyRow
from docshelf.text.sections import title_key

COPY_SIMILARITY = 0.8  # share of shared body keys (Jaccard) from which two sections are one text
APPARATUS_PENALTY = 0.6  # sections.is_apparatus decides, when the index is built


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
    by_label: dict[tuple[str | int, ...], list[tuple[Group, int]]] = {}  # label -> (group, the member labelled so)
    words: dict[int, frozenset[str]] = {}
    for rowid in ranked:
        row = keys[rowid]
        # Parts of one clause: the sections it runs through, one after another (not another section that
        # happens to carry the same label, such as a restated «Appendix D» table further on).
        part = ("part", row.doc_key, row.clause, row.run) if row.clause else None
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
