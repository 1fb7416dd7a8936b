"""Quoted phrases in a query: «"срок хранения"» must be said as written, word forms aside.

An analyst who quotes words means them together and in that order. A quoted phrase stays a part of
the query (its words count like any others) and becomes a requirement: the hits are the ranked
sections that say it: its words' keys in the quoted order, as the analyzer writes them (an
identifier's backoff keys included), with at most :data:`GAP` other key between two words. When no
ranked section says it, the ranking is kept and the note says so: a requirement never empties a
result silently.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from docshelf.text.analyzer import tokens

GAP = 1  # keys allowed between two quoted words beyond their own (an acronym's raw form: ИСПДн)
# Balanced quotes only: «a "b» is one phrase, a lone " none. Straight, guillemets and „low-high“ pairs.
_QUOTED = re.compile(r'"([^"]{2,200})"|«([^«»]{2,200})»|„([^„“]{2,200})“|“([^“”]{2,200})”')


class Phrase(NamedTuple):
    written: str  # as the query quotes it
    words: tuple[tuple[str, ...], ...]  # every key of every word, as the analyzer writes them into the index

    @property
    def keys(self) -> tuple[str, ...]:
        """The primary key of each word (what a concept of the phrase searches for)."""
        return tuple(w[0] for w in self.words)


def quoted(query: str) -> list[Phrase]:
    """The query's quoted phrases of two words or more (one word needs no quotes)."""
    out: dict[tuple[str, ...], Phrase] = {}
    for m in _QUOTED.finditer(query):
        written = next(g for g in m.groups() if g).strip()
        phrase = Phrase(written, tuple(t.keys for t in tokens(written)))
        if len(phrase.words) >= 2:
            out.setdefault(phrase.keys, phrase)
    return list(out.values())


@lru_cache(maxsize=512)
def _pattern(words: tuple[tuple[str, ...], ...]) -> re.Pattern[str]:
    # Each word as the index writes it: its primary key, then its other keys (an identifier's backoffs) if there.
    each = ["".join([re.escape(w[0]) + " ", *(f"(?:{re.escape(k)} )?" for k in w[1:])]) for w in words]
    return re.compile(" " + rf"(?:\S+ ){{0,{GAP}}}".join(each))


def says(text_keys: str, phrase: Phrase) -> bool:
    """Whether a space-padded key string (" k1 k2 … ") says the phrase's words in order, together."""
    return _pattern(phrase.words).search(text_keys) is not None
