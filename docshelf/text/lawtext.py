"""The cited text as quote verification reads it: a section's stored Markdown at one commit, its editorial
lines and footnote marks blanked (offsets kept), normalized with the map back to the original, and where a
match lies in the document's clause table.

Footnote marks the text layer set inside a line («authentication 22 for», «маршрутизаторы <2>,») are not
words of the act: the text is read past them, and a quote may carry them only where they are printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from docshelf.build.footnotes import MARK_AFTER, MARKS
from docshelf.law import grammar
from docshelf.law.clauses import blank_editorial
from docshelf.records import Clause, SectionMeta
from docshelf.shelf import gitrepo
from docshelf.shelf.reader import metas_at
from docshelf.text.citations import WHOLE, Target
from docshelf.text.normalize import Normalized, normalize
from docshelf.text.quotematch import Spot


@dataclass(frozen=True)
class LawText:
    """A section's text with editorial lines blanked out, normalized, with the offset map."""

    text: str  # the stored section text
    blanked: str  # the same with editorial lines turned into spaces (same offsets)
    norm: Normalized  # of the blanked text


@lru_cache(maxsize=512)
def law_text(root: Path, commit: str, path: str) -> LawText:
    text = gitrepo.read(root, path, commit).decode("utf-8")
    _doc, section = sections_at(root, commit).get(path, ("", SectionMeta(path, "")))
    blanked = unmarked(blank_editorial(text), section)
    return LawText(text, blanked, normalize(blanked))


def mark_texts(root: Path, commit: str, targets: list[Target]) -> frozenset[str]:
    """The footnote marks («22», «<1>») printed in the cited sections: only these may a quote carry."""
    sections = sections_at(root, commit)
    out: set[str] = set()
    for path in {t.path for t in targets}:
        spans = sections.get(path, ("", SectionMeta(path, "")))[1].extra.get(MARKS, ())
        if spans:
            text = law_text(root, commit, path).text
            out.update(text[a:b] for a, b in spans)
    return frozenset(out)


def marks_agree(root: Path, commit: str, spot: tuple[Target, Spot], removed: list[str]) -> bool:
    """Whether the marks a quote carried are the marks printed where it matched, in order."""
    t, found = spot
    if found.spans is None:
        return False
    law = law_text(root, commit, t.path)
    a, b, _match = original(law, found.spans)
    spans = sections_at(root, commit).get(t.path, ("", SectionMeta(t.path, "")))[1].extra.get(MARKS, ())
    near = [(x, y) for x, y in spans if a - _MARK_SLACK <= y and x <= b + _MARK_SLACK]
    inside = [k for k, (x, y) in enumerate(near) if a <= x and y <= b]
    # The quote carries the marks inside the words it matched, and may carry one just before or after them: a
    # mark of the sentence before («SDLC.166 Defining …») is not the quote's unless it copied it.
    for lo in range(len(near)):
        window = near[lo : lo + len(removed)]
        if [law.text[x:y] for x, y in window] == removed and all(lo <= k < lo + len(removed) for k in inside):
            return True
    return not removed and not inside


# A mark may stand right before or after the matched words («authentication 22», «.21», «Council (56).»): it
# starts or ends within this many characters of them.
_MARK_SLACK = 4


def unmarked(text: str, section: SectionMeta) -> str:
    """The text with the footnote marks its line carries («authentication 22 for») blanked, offsets kept:
    they are not words of the act."""
    for a, b in section.extra.get(MARKS, ()):
        if 0 <= a < b <= len(text):
            text = text[:a] + " " * (b - a) + text[b:]
            start = len(text[:a].rstrip(" "))
            if text[b : b + 1] in _AFTER_MARK:
                # «Directive 85/374/EEC (10), and …» reads «85/374/EEC, and …», «the Council1, namely» reads «the
                # Council, namely»: the comma back at its word
                text = text[:start] + text[b] + " " * (b - start) + text[b + 1 :]
    return text


_AFTER_MARK = frozenset(",.;:)")


def without_marks(pattern: re.Pattern[str], quote: str) -> str:
    """The quote read past the marks it carries, as :func:`unmarked` reads the text: «85/374/EEC (10),»
    is «85/374/EEC,»."""
    return re.sub(r"[ ]+(?=[,.;:)])", "", pattern.sub(" ", quote))


def marks_pattern(numbers: frozenset[str]) -> re.Pattern[str]:
    """The footnote marks of the cited text as a quote may carry them: after a word, or opening it; a
    bracketed one («(51)» of an EU act, «<1>» of a Russian text) also after a number («(EU) 2016/97 (51)»,
    «ГОСТ 15.011-82 <1>»)."""

    def either(marks: Iterable[str]) -> str:
        return "|".join(sorted(map(re.escape, marks), key=len, reverse=True)) or "(?!)"

    bare = either(m for m in numbers if not m.startswith(("(", "<")))
    bracketed = either(m for m in numbers if m.startswith(("(", "<")))  # «(51)», «<1>»: marks after anything
    after_word = rf"(?:^|{MARK_AFTER})\s*"  # as the build reads a mark; a quote's spacing may differ from the text's
    return re.compile(rf"(?:{after_word}(?:{bare})|(?:^|(?<=\S))\s*(?:{bracketed}))(?=[\s.,;:)]|$)")


@lru_cache(maxsize=4)
def sections_at(root: Path, commit: str) -> dict[str, tuple[str, SectionMeta]]:
    """Section path -> (document id, the section's entry in its meta) at one commit."""
    return {s.path: (meta.id, s) for meta in metas_at(root, commit) for s in meta.sections}


def innermost(root: Path, commit: str, path: str, a: int, b: int) -> tuple[str, str]:
    """(doc id, deepest clause id) whose span contains original [a, b) in ``path``."""
    doc_id, s = sections_at(root, commit).get(path, ("", SectionMeta(path, "")))
    inside = [c for c in s.clauses if c.start <= a and b <= c.end]
    best = min(inside, key=lambda c: c.end - c.start, default=Clause(s.clause, 0, 0))
    return doc_id, best.id


def original(law: LawText, spans: list[tuple[int, int]]) -> tuple[int, int, str]:
    pieces = [law.norm.span(a, b) for a, b in spans]
    return pieces[0][0], pieces[-1][1], " … ".join(law.text[a:b] for a, b in pieces)


def in_others_footnote(root: Path, commit: str, t: Target, law: LawText, spans: list[tuple[int, int]]) -> bool:
    """Whether the match lies in a footnote whose mark is in another clause than the cited one."""
    a, b, _match = original(law, spans)
    _doc, inner = innermost(root, commit, t.path, a, b)
    owner = grammar.footnote_owner(inner)
    if owner is None or inner == t.clause or not t.clause or t.end >= WHOLE:
        return False  # a section cited by its path holds every footnote printed in it
    return not (owner == t.clause or owner.startswith((t.clause + " ", t.clause + "(")))
