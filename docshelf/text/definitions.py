"""Questions that ask what a term means, and the sections that define it.

«что такое компьютерный инцидент», «инцидент компьютерный это что», «что понимается под
информационной системой», «what is a resolver»: the answer is the item of a definitions article
(«4) компьютерный инцидент - факт нарушения…», «Resolver: a program that…»), not the articles that
use the term most. Words alone cannot tell them apart — a definitions article says every term once
among dozens — so when the query asks for a meaning, a section whose own item *begins* with the
term and a dash (or «под X понимается», «X means …») is lifted.

Pure: a query and a section text in, a yes/no out. Search calls it only for questions that ask.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from docshelf.text.analyzer import tokens
from docshelf.text.normalize import normalize_text
from docshelf.text.synonyms import Concept

# How people ask what a word means, Russian and English (normalized text: lower case, ё as е).
_ASKS = re.compile(
    r"\b(?:что(?: \w+)? (?:такое|значит|означает|понимается|подразумевается|считается|называется)|"
    r"кто(?: \w+)? (?:такой|такая|такие|считается|является|признается)|что это|это что|это кто|понятие|определени\w*|"
    r"термин\w*|what (?:is|are|does)|define[sd]?|definition|meaning|stands? for|who is considered)\b"
)
# An item that defines its opening words: «4) компьютерный инцидент - факт…», «…; б) оператор - лицо…»,
# «Resolver: a program…», «под X понимается…», «X means…». Read off the raw text with one pass per pattern:
# a definition question scans up to RERANK_DEPTH candidates, so nothing is normalized line by line.
_ITEM = r"(?:[-*][ \t]*)?(?:\(?\d+(?:\.\d+)*[.)]|\(?[а-яёa-z][.)])?[ \t]*"
# Lazy: the term ends at the item's first spaced dash.
_DASHED = re.compile(rf"(?:^|;[ \t]+)[ \t]*{_ITEM}(?P<term>[^\n;:]{{2,100}}?)[ \t][-–—][ \t]", re.M)
_COLON = re.compile(rf"^[ \t]*{_ITEM}(?P<term>[^\W\d_][^\n;:.]{{0,60}}?):[ \t]", re.M)
_UNDER = re.compile(r"\bпод\s+(?P<term>[^,.;:\n]{3,80}?)\s+(?:понимается|понимаются|следует понимать)\b", re.I)
_MEANS = re.compile(r"^[ \t]*(?:the\s+)?(?P<term>[^,.;:\n]{2,60}?)\s+(?:means|is defined as|refers to)\b", re.M | re.I)
TERM_WORDS = 8  # a defined term is this many words at most


def asks_definition(query: str) -> bool:
    """Whether the query asks what a term means."""
    return bool(_ASKS.search(normalize_text(query)))


def defined_terms(text: str) -> Iterable[frozenset[str]]:
    """The analyser keys of every term the text defines."""
    for pattern in (_DASHED, _COLON, _UNDER, _MEANS):
        for m in pattern.finditer(text):
            term = m["term"]
            if len(term.split()) <= TERM_WORDS and (keys := _keys(term)):
                yield keys


def defines(text: str, concepts: list[Concept]) -> bool:
    """Whether the text defines a term every content word of which the query asks about.

    The definition of «информационная система» answers «что понимается под информационной системой»;
    it does not answer «что такое система», whose term it only contains.
    """
    if not concepts:
        return False
    for term in defined_terms(text):
        named = [c for c in concepts if any(set(alt) <= term for alt in c.alts)]
        covered = {k for c in named for alt in c.alts if set(alt) <= term for k in alt}
        if named and term <= covered:
            return True
    return False


def _keys(words: str) -> frozenset[str]:
    """The content words' keys (stop words say nothing of which term it is)."""
    return frozenset(t.key for t in tokens(words) if not t.stop)
