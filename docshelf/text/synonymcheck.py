"""Checks of a synonym dictionary against itself and against the documents it serves.

A group works both ways (any member finds every other), so one wrong member sends every question about one
concept to another. Two kinds are caught without a reader's judgement:

* **numbered instances**: two members that are the same words with different numbers («IAL2», «IAL3»;
  «УЗ-1», «УЗ-2») say that level 2 is level 3;
* **headed apart**: two members that are each the whole title of a different section of one document are two
  concepts by that document's own word («Security Awareness» AT-2 and «Security Training» AT-3).

``tests/test_dictionary.py`` runs both on the shipped dictionary over the corpus shelf; a member they flag is
removed (or its group split), never the check relaxed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from docshelf.text.analyzer import tokens
from docshelf.text.synonyms import Synonyms

_NUMBER = re.compile(r"\d+")
_PART = re.compile(r"\s*\((?:\d+/\d+|§\d+)\)\s*$")  # «(1/2)», «(§1)»: the part of a split section


def title_words(title: str) -> tuple[str, ...]:
    """A section title's content keys without its number label or part mark («3.3. Sequence Numbers (3/4)»)."""
    return tuple(t.key for t in tokens(_PART.sub("", title)) if not t.stop and t.kind == "word")


def numbered_instances(syn: Synonyms) -> list[str]:
    """Members of one group that differ only in their numbers."""
    out = []
    for group in syn.groups:
        seen: dict[str, str] = {}
        for member in group:
            if not _NUMBER.search(member.text):
                continue
            shape = _NUMBER.sub("#", member.text.casefold())
            if shape in seen and seen[shape] != member.text:
                out.append(f"«{seen[shape]}» and «{member.text}» (group «{group[0].text}») are two numbered instances")
            seen.setdefault(shape, member.text)
    return out


def headed_apart(syn: Synonyms, titles: Iterable[tuple[str, str, int]]) -> list[str]:
    """Members of one group that head two different sections of one document.

    ``titles``: (document key, section title, the section its clause began in) for every section; the parts
    of one split section share the last.
    """
    heads: dict[tuple[str, ...], dict[str, set[int]]] = {}
    for doc, title, run in titles:
        words = title_words(title)
        if words:
            heads.setdefault(words, {}).setdefault(doc, set()).add(run)
    out = []
    for group in syn.groups:
        by_doc: dict[str, dict[str, set[int]]] = {}
        for member in group:
            for doc, runs in heads.get(member.content, {}).items():
                by_doc.setdefault(doc, {})[member.text] = runs
        for doc, named in sorted(by_doc.items()):
            members = sorted(named)
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    if named[a].isdisjoint(named[b]):
                        out.append(f"«{a}» and «{b}» (group «{group[0].text}») head different sections of {doc}")
    return out
