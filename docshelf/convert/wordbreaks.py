"""Words the page layout broke, put back together on the document's own evidence.

Typesetting cuts words where the reader sees no cut: a hyphen at a line end («recom-⏎mended»), a
paragraph or page break inside a hyphenated word, a drop cap set apart from the rest of its word
(«T» + «he selection …»), a glyph the text layer cannot map (U+FFFD) between two words. A quote a
person copies from the page has none of these, so the shelf must not either. Every repair asks
the document first: a hyphen is kept when the document writes the word with a hyphen inside a
line («cost-effective», «FIN-WAIT»), and a word in capitals is rejoined only when the document
writes the joined word elsewhere («STERILIZA-⏎TION» where «sterilization» occurs).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from docshelf.law.lexicon import COMPOUND_HEADS
from docshelf.model import Block

_WORD = re.compile(r"\w+")
_HYPHENATED = re.compile(r"\w+-\w+")
_BROKEN_END = re.compile(r"[^\W\d_]-$")  # a letter, then the hyphen the line or paragraph ended with
UNMAPPED = "\ufffd"  # what a text layer gives for a glyph it has no character for
_UNMAPPED_RUN = re.compile(r"[ \t]*\ufffd+[ \t]*")
_DROP_CAP_SIZE = 2.0  # a drop cap is set at least this many times the size of the text beside it


@dataclass(frozen=True)
class Vocabulary:
    """What the document itself writes: its hyphenated words and all its words, case-folded."""

    hyphenated: frozenset[str]
    words: frozenset[str]

    @classmethod
    def of(cls, lines: Iterable[str]) -> Vocabulary:
        # A line-end hyphen is what is being decided. Neither pattern crosses a line break, so one
        # scan of the joined lines finds what a scan per line would.
        text = "\n".join(line[:-1] if line.endswith("-") else line for line in lines)
        hyphenated = frozenset(m.casefold() for m in set(_HYPHENATED.findall(text)))
        return cls(hyphenated, frozenset(w.casefold() for w in set(_WORD.findall(text))))


def _capitals(word: str) -> bool:
    return word.isalpha() and word.isupper()


def keeps_hyphen(left: str, right: str, vocab: Vocabulary) -> bool:
    """Whether the hyphen ending ``left`` belongs to the word that ``right`` finishes."""
    heads, tails = _WORD.findall(left[:-1]), _WORD.findall(right)
    head, tail = (heads[-1] if heads else ""), (tails[0] if tails else "")
    if not tail or head[-1:].isdigit() or tail[:1].isdigit():
        return True
    if f"{head}-{tail}".casefold() in vocab.hyphenated or head.casefold() in COMPOUND_HEADS:
        return True
    if tail[:1].isupper():
        # «152-⏎ФЗ», «TLS-⏎PSK», «Inter-⏎Domain» keep it; a word in capitals broken at a line end
        # («STERILIZA-⏎TION») is one word where the document writes it joined.
        return not (_capitals(head) and _capitals(tail) and f"{head}{tail}".casefold() in vocab.words)
    return False


def join_lines(left: str, right: str, vocab: Vocabulary) -> str:
    """Two lines of one paragraph as one text: a line-break hyphenation undone, a real hyphen kept."""
    if left.endswith("\u00ad"):
        return left[:-1] + right
    if left.endswith("-") and len(left) > 1 and left[-2].isalnum():
        return left + right if keeps_hyphen(left, right, vocab) else left[:-1] + right
    return left + " " + right


def without_unmapped(text: str) -> str:
    """A glyph the text layer could not map stands between words: a space, never glued to either."""
    return _UNMAPPED_RUN.sub(" ", text).strip(" ") if UNMAPPED in text else text


class _Placed(Protocol):
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float


def attach_drop_caps(lines: Sequence[_Placed]) -> list[int]:
    """Glue each drop cap of a page to the line it begins; returns the indexes of the caps consumed.

    A drop cap is a line of one capital letter set far larger than the line beside it, whose first
    word it completes: the line starts in lowercase, level with the cap's top and right of its edge.
    The content stream may draw the cap anywhere on the page, so it is found by place, not order.
    """
    consumed: list[int] = []
    for i, cap in enumerate(lines):
        letter = cap.text.strip()
        if len(letter) != 1 or not letter.isupper():
            continue
        beside = [
            ln
            for ln in lines
            if ln is not cap
            and ln.text[:1].islower()
            and cap.size >= _DROP_CAP_SIZE * max(ln.size, 1.0)
            and cap.y0 - ln.size <= ln.y0 <= cap.y0 + cap.size / 2
            and cap.x0 + ln.size <= ln.x0 <= cap.x1 + 2.0 * ln.size  # a glyph's box may be wider than its ink
        ]
        if beside:
            first = min(beside, key=lambda ln: ln.y0)
            first.text = letter + first.text
            consumed.append(i)
    return consumed


def join_broken_words(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """A hyphenated word cut by a paragraph or page break («recom-» ⏎⏎ «mended to set …») is one word.

    The next paragraph must go on in lowercase on the same or the next page; the hyphen is dropped
    unless the document writes the word with it (``keeps_hyphen``).
    """
    vocab: Vocabulary | None = None
    out: list[Block] = []
    for b in blocks:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.kind == b.kind == "para"
            and not prev.bold
            and not prev.editorial
            and b.page in (prev.page, prev.page + 1)
            and b.text[:1].islower()
            and _BROKEN_END.search(prev.text.rstrip())
        ):
            vocab = vocab or Vocabulary.of(x.text for x in blocks if x.kind == "para")
            out[-1] = prev.with_text(join_lines(prev.text.rstrip(), b.text, vocab))
            continue
        out.append(b)
    return tuple(out)


__all__ = ["Vocabulary", "attach_drop_caps", "join_broken_words", "join_lines", "keeps_hyphen", "without_unmapped"]
