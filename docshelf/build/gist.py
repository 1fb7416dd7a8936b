"""A section's gist: a few of its own first words, so a table of contents says what is inside.

A title such as «Статья 8. Право на доступ к информации (ч. 9–10)» or «п. 31–32» does not tell a
model that ч. 9 is about state secrets or п. 31 is the remote-access rule. The gist is taken from
the text, never generated: the opening words of each part or point the section holds (its direct
sub-clauses), or of its body when it has none, cut at word boundaries to a fixed budget.

A table-of-contents page then fits its entries' gists into what its byte budget leaves (:func:`fit`):
a short gist whole, a long one cut at a part boundary (:func:`clip`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docshelf.law import grammar
from docshelf.records import Clause

GIST_CHARS = 160  # the most a gist adds to one table-of-contents entry
_CHILD_WORDS = 7  # opening words shown per part or point
_BODY_WORDS = 16  # opening words of a section without sub-clauses
# What opens a line but says nothing: item numbers «1.», «2.1)», «а)», list marks, table rules.
_LEAD = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)](?!\d)|[а-яёa-z]\)|[-*•]|\|)\s*", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`#|]+|<[^>]{1,20}>")
_PAGE_MARK = re.compile(r"^page\s+[A-Z]?-?\d+\b", re.IGNORECASE)  # «PAGE G-1»: the printed page, not the text
_STANDING = re.compile(
    r"^(?:this|the following) (?:section|chapter|appendix|annex|part)(?: is| are)? (?:normative|informative)\b"
    r"|^(?:настоящ\w+|данн\w+) (?:раздел|приложение|глава)\w* (?:является|носит) "
    r"(?:обязательн|справочн|рекомендуем)\w*",
    re.IGNORECASE,
)


def _says_nothing(line: str) -> bool:
    """A line that introduces or files the text rather than saying it: a short lead-in ending in «:»
    («Basic Security Requirements:»), or a note on the section's own standing («This section is normative»)."""
    plain = _MARKUP.sub(" ", line).strip()
    return (plain.endswith(":") and len(plain.split()) <= 6) or bool(_STANDING.match(plain) or _PAGE_MARK.match(plain))


def _words(text: str, limit: int) -> str:
    """The first ``limit`` words of the first line that says something, with «…» when there were more."""
    lines = [
        ln
        for ln in text.splitlines()
        if ln.strip() and not grammar.is_editorial(ln) and not ln.lstrip().startswith("#")
    ]
    told = [ln for ln in lines if not _says_nothing(ln)] or lines  # all lead-ins: the first of them, still
    for line in told:
        words = _MARKUP.sub(" ", _LEAD.sub("", line)).split()
        if words:
            return " ".join(words[:limit]) + ("…" if len(words) > limit else "")
    return ""


def _children(clause: str, clauses: Sequence[Clause]) -> list[Clause]:
    """The clauses one level below ``clause`` (its parts, or a chapter-less section's points); no paragraphs."""
    prefix = f"{clause} " if clause else ""
    out = []
    for c in clauses:
        rest = c.id[len(prefix) :].split() if c.id.startswith(prefix) else []
        if len(rest) == 2 and f"{rest[0]} " != grammar.paragraph_id(""):
            out.append(c)
    return out


def _fit(pieces: list[str], budget: int) -> str:
    """Pieces joined with « · » while they fit the budget (at least the first one, cut to it)."""
    out = ""
    for piece in pieces:
        joined = f"{out} · {piece}" if out else piece
        if len(joined) > budget:
            return out or piece[: budget - 1].rsplit(" ", 1)[0] + "…"
        out = joined
    return out


def gist(markdown: str, clause: str, clauses: Sequence[Clause], budget: int = GIST_CHARS) -> str:
    """The opening words of what ``markdown`` holds: per direct sub-clause, else of its body."""
    children = _children(clause, clauses)
    if len(children) >= 2:
        pieces = []
        for c in children:
            label = c.id[len(clause) :].strip()
            if words := _words(markdown[c.start : c.end], _CHILD_WORDS):
                pieces.append(f"{label}: {words}")
        if pieces:
            return _fit(pieces, budget)
    body = _words(markdown, _BODY_WORDS)
    return _fit([body], budget) if body else ""


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def clip(text: str, max_bytes: int) -> str:
    """``text`` within ``max_bytes`` UTF-8 bytes: cut at a « · » boundary when it has parts, else at a word.

    Bytes, not characters: a table-of-contents page has a byte budget, and a Cyrillic letter takes two.
    """
    if _bytes(text) <= max_bytes:
        return text
    kept = ""
    for piece in text.split(" · "):
        joined = f"{kept} · {piece}" if kept else piece
        if _bytes(joined) > max_bytes:
            break
        kept = joined
    if kept:  # how many it leaves out, where that still fits: a reader knows the list goes on
        more = f"{kept} · +{text.count(' · ') - kept.count(' · ')}"
        return more if _bytes(more) <= max_bytes else kept
    cut = text.encode("utf-8")[: max(0, max_bytes - 3)].decode("utf-8", "ignore")  # room for «…» (3 bytes)
    words = cut.rsplit(" ", 1)[0] if " " in cut else ""
    return words.rstrip(" ,;:·") + "…" if words else ""


def fit(gists: Sequence[str], room: int, sep: str) -> list[str]:
    """Every gist cut to its share of ``room`` bytes, the ``sep`` that introduces it counted: a short
    gist is shown whole and what it leaves goes to the longer ones in equal shares (water-filling, in a
    fixed order, so the same page always comes out the same)."""
    cost = _bytes(sep)
    wants = [_bytes(g) + cost if g else 0 for g in gists]
    allowed = [0] * len(wants)
    left, waiting = max(0, room), sum(1 for w in wants if w > 0)
    for i in sorted((i for i, w in enumerate(wants) if w > 0), key=lambda i: (wants[i], i)):
        allowed[i] = min(wants[i], left // waiting)
        left -= allowed[i]
        waiting -= 1
    return [clip(g, a - cost) if g and a > cost else "" for g, a in zip(gists, allowed, strict=True)]
