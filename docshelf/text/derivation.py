"""Derived words of one root: «хранить» finds «хранение», «проверка» finds «проверять».

Snowball strips endings, not derivation: «хранить» → хран, «хранение» → хранен, «хранитель» →
хранител are three keys, so a question asked in verbs («можно ли хранить…») misses a law that
speaks in verbal nouns («хранение…»). :func:`root` cuts one derivational suffix off a Russian
stem (the verbal noun's -ен/-ан, the verb's -а/-я/-ва/-ыва/-ова, the noun's -к, the agent's
-ител), and :func:`widen` adds to each plain word of a query the shelf's keys with the same root,
read from the index's key table (a range lookup, never a scan).

The suffixes are few on purpose: stems that only differ by a vowel alternation («обрабатывать» /
«обработка») or a consonant one («защищать» / «защита») stay apart, as they did; the synonym
dictionary joins those. A root shorter than :data:`MIN_ROOT` letters is not cut (реш-, дан-):
short roots join unrelated words.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Protocol

from docshelf.text.analyzer import CYRILLIC
from docshelf.text.synonyms import Concept

MIN_ROOT = 4
MAX_RELATIVES = 12  # keys added per query word (a root like «обеспеч» has a handful)
# Longest first. «лен»/«ля» only after a labial: уведомлен/уведомля → уведом, but удален → удал.
_SUFFIX = re.compile(r"(?:(?<=[бвмпф])(?:лен|ля)|ован|ыван|иван|ова|ева|ыва|ива|ител|ен|ан|ва|а|я|к)$")


class KeyTable(Protocol):
    def keys_from(self, prefix: str, limit: int) -> list[str]:
        """Indexed keys that begin with ``prefix``."""


@lru_cache(maxsize=100_000)
def root(key: str) -> str:
    """The key without one derivational suffix (the key itself when none applies or too little is left)."""
    if not CYRILLIC.fullmatch(key):
        return key
    m = _SUFFIX.search(key)
    if m is None or m.start() < MIN_ROOT:
        return key
    return key[: m.start()]


def relatives(table: KeyTable, key: str) -> list[str]:
    """The shelf's keys derived from the same root as ``key`` (``key`` itself not included)."""
    r = root(key)
    if len(r) < MIN_ROOT or not CYRILLIC.fullmatch(r):
        return []
    found = [k for k in table.keys_from(r, 64) if k != key and root(k) == r]
    return found[:MAX_RELATIVES]


def widen(table: KeyTable, concepts: list[Concept]) -> list[Concept]:
    """Each one-word Russian concept that is not an identifier, with its derived words as alternatives."""
    out = []
    for c in concepts:
        singles = [a[0] for a in c.alts if len(a) == 1]
        if c.ident or c.first != c.last or not singles:
            out.append(c)
            continue
        extra = {(k,) for key in singles for k in relatives(table, key)} - set(c.alts)
        out.append(replace(c, alts=c.alts + tuple(sorted(extra))) if extra else c)
    return out
