"""Finding a quote in normalized law text, and the passage nearest to a quote that is not there.

:mod:`docshelf.text.verify` decides verdicts over a shelf; this module does the matching inside one
section's normalized text (:mod:`docshelf.text.normalize`, the normalization search shares):

* a fragment matches whole words only and never cuts a word of :func:`normalize.words`: «15» is
  not the start of «15.1», «1.» not of «1.2», «интернет» not of «интернет-ресурс»;
* a verbatim occurrence that leaves out a negation right next to it («Не допускается …» quoted
  as «допускается …», «MUST» out of «MUST NOT») comes back with that negation, for the caller to
  refuse: the quote would say the opposite of the text;
* the closest passage is the window of the section's words most like the quote: windows are
  screened by the quote words they share, the best few compared with ``difflib``, the best of
  those then widened or narrowed by a few words.
"""

from __future__ import annotations

import bisect
import difflib
import heapq
import itertools
import re
from collections.abc import Iterator
from typing import NamedTuple

from docshelf.text.normalize import WORD, Normalized, normalize_text, words

NEGATIONS = frozenset({"не", "ни", "нет", "not", "no"})
_WORD_CHAR = re.compile(r"[^\W_]")
_JOINERS = "-./_"  # inside one word of normalize.words(): 152-фз, 10.2-1, упд.1
_WORD_BEFORE = re.compile(r"(?<![^\W_])([^\W_]+) $")  # searched up to a fragment's start
_WORD_AFTER = re.compile(r" ([^\W_]+)(?![^\W_])")  # matched at a fragment's end
_OWN_DOTS = re.compile(r" ?\.\.\.")  # dots in the normalized source (NFKC makes «…» three dots)
_SCREENED = 4  # windows compared in full after the shared-word screen
_SLACK = 2  # how far the compared windows' ends move around a screened window


class Spot(NamedTuple):
    """Where the fragments are (normalized spans), and a negation word next to them that the quote drops."""

    spans: list[tuple[int, int]] | None
    negation: str = ""
    neg_start: int = 0  # normalized span of the negation word
    neg_end: int = 0


def _is_word(text: str, i: int) -> bool:
    return 0 <= i < len(text) and _WORD_CHAR.match(text[i]) is not None


def _whole(text: str, frag: str, i: int, j: int) -> bool:
    """Whether ``text[i:j] == frag`` starts and ends where words of ``words()`` do (no word is cut)."""
    if _is_word(frag, 0):
        if _is_word(text, i - 1) or (i >= 2 and text[i - 1] in _JOINERS and _is_word(text, i - 2)):
            return False
    elif frag[0] in _JOINERS and _is_word(text, i - 1):
        return False
    if _is_word(frag, len(frag) - 1):
        return not (_is_word(text, j) or (j < len(text) and text[j] in _JOINERS and _is_word(text, j + 1)))
    return not (frag[-1] in _JOINERS and _is_word(text, j))


def _find(text: str, frag: str, lo: int, hi: int) -> Iterator[tuple[int, int]]:
    """Every whole-word occurrence of ``frag`` inside ``text[lo:hi]``, in order."""
    i = text.find(frag, lo, hi)
    while i >= 0:
        if _whole(text, frag, i, i + len(frag)):
            yield i, i + len(frag)
        i = text.find(frag, i + 1, hi)


def _apart(between: str, word: str, after: bool) -> bool:
    """Whether a negation next to a quote belongs to other text: another table cell, or a new paragraph.

    «| System Component | No |», «# Статья 100. Охрана …⏎⏎Не допускается …»: a capital after a line
    break starts something new. «…разрешения⏎⏎не могут…» (a sentence a converter broke) does not.
    """
    return "|" in between or (after and "\n" in between and word[:1].isupper())


def _negation_at(norm: Normalized, original: str, spans: list[tuple[int, int]]) -> tuple[str, int, int]:
    """A negation the quote leaves out, right before or after a fragment: (word, start, end) or ("", 0, 0).

    Only where the quote's edge is a word: «… ASVS.» followed by «Not …» ends a sentence.
    """
    text = norm.text
    for a, b in spans:
        if _WORD_CHAR.match(text[a]) and (m := _WORD_BEFORE.search(text, max(0, a - 8), a)):
            x, y = norm.span(*m.span(1))
            if m.group(1) in NEGATIONS and not _apart(original[y : norm.offsets[a]], original[x:y], False):
                return m.group(1), *m.span(1)
        if _WORD_CHAR.match(text[b - 1]) and (m := _WORD_AFTER.match(text, b)):
            x, y = norm.span(*m.span(1))
            if m.group(1) in NEGATIONS and not _apart(original[norm.ends[b - 1] : x], original[x:y], True):
                return m.group(1), *m.span(1)
    return "", 0, 0


def locate(norm: Normalized | str, original: str | None, fragments: list[str], lo: int, hi: int) -> Spot:
    """Normalized spans of the fragments, in order, inside [lo, hi), and a negation they would drop.

    Several fragments are the pieces of a quote with ellipses: gaps. A gap where the source has dots
    of its own («Compatibility ...141» in a table of contents) is no gap: those dots are its text, and
    what follows them is what the quote must say. The first occurrence that drops no negation wins;
    when every one does, the first comes back with its negation. ``Spot(None)``: not there. With
    ``original`` None (a plain normalized string, a quick scan) negations are not looked at.
    """
    text = norm if isinstance(norm, str) else norm.text
    dropped = Spot(None)
    for first in _find(text, fragments[0], lo, hi):
        spans = [first]
        for frag in fragments[1:]:
            if _OWN_DOTS.match(text, spans[-1][1]):
                break
            nxt = next(_find(text, frag, spans[-1][1], hi), None)
            if nxt is None:
                return dropped  # a later start cannot find the rest either
            spans.append(nxt)
        if len(spans) < len(fragments):
            continue
        if original is None or isinstance(norm, str):
            return Spot(spans)
        negation = _negation_at(norm, original, spans)
        if not negation[0]:
            return Spot(spans)
        if dropped.spans is None:
            dropped = Spot(spans, *negation)
    return dropped


def norm_range(norm: Normalized, start: int, end: int) -> tuple[int, int]:
    """The normalized range ``[lo, hi)`` of characters made from original characters inside [start, end).

    ``hi`` is exclusive: the character that ends exactly at ``end`` (a clause's final full stop) is
    inside. Offsets and ends grow monotonically (normalization never reorders), so bisection works.
    """
    n = len(norm.text)
    lo = bisect.bisect_left(norm.offsets, start, 0, n)
    hi = bisect.bisect_right(norm.ends, end, lo, n)
    return lo, max(lo, hi)


def closest_window(norm: Normalized, lo: int, hi: int, q_words: list[str]) -> tuple[float, int, int] | None:
    """(similarity, start, end): the normalized span of the words in [lo, hi) most like ``q_words``.

    Every window as long as the quote is screened by how many of its words the quote has (one pass);
    the best few are compared with ``difflib``, then the best one's start, then its end, move by up
    to ``_SLACK`` words. None: no words.
    """
    spans = [m.span() for m in WORD.finditer(norm.text, lo, hi)]
    if not spans or not q_words:
        return None
    toks = [norm.text[a:b] for a, b in spans]
    n, size = len(q_words), len(toks)
    width = min(n, size)
    wanted = set(q_words)
    shared = [0, *itertools.accumulate(tok in wanted for tok in toks)]
    counts = [b - a for a, b in zip(shared, shared[width:], strict=False)]  # per window start
    starts = heapq.nlargest(_SCREENED, range(len(counts)), key=counts.__getitem__)
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(q_words)  # the quote is compared with every window: analysed once
    best = (-1.0, 0, 0)

    def compare(i: int, j: int) -> None:
        nonlocal best
        matcher.set_seq1(toks[i:j])
        if matcher.real_quick_ratio() > best[0] and matcher.quick_ratio() > best[0]:  # upper bounds first
            ratio = matcher.ratio()
            if ratio > best[0]:
                best = (ratio, i, j)

    for c in starts:
        compare(c, c + width)
    _ratio, c, e = best
    for i in range(max(0, c - _SLACK), min(e - 1, c + _SLACK) + 1):  # the start moves, then the end
        compare(i, e)
    c = best[1]
    for j in range(max(c + 1, e - _SLACK), min(size, e + _SLACK) + 1):
        compare(c, j)
    ratio, i, j = best
    return ratio, spans[i][0], spans[j - 1][1]


def word_diff(quote: str, source: str) -> list[dict[str, str]]:
    """What differs between the quote and the source, word by word («вправе» → «обязан», a dropped «не»).

    When the words are the same, the punctuation is not («стендах, доступ» vs «стендах (доступ»):
    the diff is then over normalized space-separated tokens, so it is never empty for a refusal.
    """
    return _diff(words(quote), words(source)) or _diff(normalize_text(quote).split(), normalize_text(source).split())


def _diff(q: list[str], s: list[str]) -> list[dict[str, str]]:
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, s, q, autojunk=False).get_opcodes():
        if op != "equal":
            out.append({"op": op, "source": " ".join(s[i1:i2]), "quote": " ".join(q[j1:j2])})
    return out
