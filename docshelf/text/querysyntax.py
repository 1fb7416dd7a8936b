"""Query syntax an analyst expects: «"срок хранения"» said as written, «-биометрических» said nowhere.

**Quoted phrases.** An analyst who quotes words means them together and in that order. A quoted
phrase stays a part of the query (its words count like any others) and becomes a requirement: the
hits are the ranked sections that say it: its words' keys in the quoted order, as the analyzer
writes them (an identifier's backoff keys included), with at most :data:`GAP` other key between two
words. When no ranked section says it, the ranking is kept and the note says so: a requirement
never empties a result silently.

**Excluded words.** A word written right after a minus that follows a space or starts the query
(«персональные данные -биометрические», «-"специальные категории"») is taken out of the query, and no
hit says it, in any form (its stem, as the analyzer keys it; an identifier's backoff keys do not
count: «-152-ФЗ» keeps the sections that only say «ФЗ»). A hyphen inside a word («10.2-1», «e-mail»)
or a dash between spaces is not a minus.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from docshelf.text.analyzer import tokens

GAP = 1  # keys allowed between two quoted words beyond their own (an acronym's raw form: ИСПДн)
# Balanced quotes only: «a "b» is one phrase, a lone " none. Straight, guillemets and „low-high“ pairs.
_QUOTES = r'"([^"]{2,200})"|«([^«»]{2,200})»|„([^„“]{2,200})“|“([^“”]{2,200})”'
_QUOTED = re.compile(_QUOTES)
_MINUS = re.compile(r"(?:^|(?<=\s))-(?:" + _QUOTES + r"|([^\W_][^\s]*))")


class Phrase(NamedTuple):
    written: str  # as the query quotes it
    words: tuple[tuple[str, ...], ...]  # every key of every word, as the analyzer writes them into the index

    @property
    def keys(self) -> tuple[str, ...]:
        """The primary key of each word (what a concept of the phrase searches for)."""
        return tuple(w[0] for w in self.words)


def _phrase(m: re.Match[str]) -> Phrase:
    written = next(g for g in m.groups() if g).strip()
    return Phrase(written, tuple(t.keys for t in tokens(written)))


def quoted(query: str) -> list[Phrase]:
    """The query's quoted phrases of two words or more (one word needs no quotes)."""
    out: dict[tuple[str, ...], Phrase] = {}
    for phrase in map(_phrase, _QUOTED.finditer(query)):
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


def excluded(query: str) -> tuple[str, list[Phrase]]:
    """The query without its minus-words, and what they exclude (a word or a quoted phrase each)."""
    return _MINUS.sub(" ", query), [p for p in map(_phrase, _MINUS.finditer(query)) if p.words]


class Filtered(NamedTuple):
    rows: list[tuple[float, float, int]]
    unsaid: list[Phrase]  # quoted phrases no ranked section says (the ranking was kept)
    note: str


def apply(
    ranked: list[tuple[float, float, int]], keys_of: Callable[[int], str], required: list[Phrase], banned: list[Phrase]
) -> Filtered:
    """The ranking narrowed by the query's quoted phrases and excluded words, and a note saying what happened."""
    unsaid: list[Phrase] = []
    if required and ranked:  # the sections saying every quoted phrase; all of them, said so, when none does
        kept = [r for r in ranked if all(says(keys_of(r[2]), p) for p in required)]
        unsaid = [] if kept else required
        ranked = kept or ranked
    dropped = 0
    if banned:
        kept = [r for r in ranked if not any(says(keys_of(r[2]), p) for p in banned)]
        dropped, ranked = len(ranked) - len(kept), kept
    note = ""
    if unsaid:
        apart = ", ".join(f"«{p.written}»" for p in unsaid)
        note += f" No section found says {apart} as quoted (together, in this order): these hits have the words apart."
    if banned:
        words = ", ".join(f"«{p.written}»" for p in banned)
        note += f" Excluded {words}: {dropped} of the best matches said it."
        if not ranked and dropped:
            note += " Every match said an excluded word: drop the minus or search other words."
    return Filtered(ranked, unsaid, note)
