"""Search snippets: the sentence of a section that answers the query, and the clause to cite it by.

A section is cut into units: sentences of its paragraphs, list items, table rows (editorial lines —
DocShelf's breadcrumb, publishers' notes — and headings are not units). The unit covering the most
query concepts wins (the earliest on a tie; a concept found in a heading counts for the unit after
it). The snippet is that unit, widened by whole neighbouring units of the same innermost clause while
it fits the width, or cut at spaces around its first match when the unit alone is too long. So the
snippet never leaves its clause, and ``verify_quote(snippet, f"{doc_id} {clause}")`` is ``ok``: a
label copied from a hit proves its text. A negation right next to a cut is taken in, never cut off.
"""

from __future__ import annotations

import bisect
import re

from docshelf.law.clauses import blank_editorial
from docshelf.text.analyzer import WORD, token_spans
from docshelf.text.normalize import Normalized, normalize

Clause = tuple[str, int, int]  # (id, start, end) of the meta's clause table
READ_WINDOW = 3000  # most characters a hit's reading window spans: a clause, or the text around the snippet
_REF = re.compile(r"^(?:ст|ч|п|гл)_(?=\d)")  # an article key («ст_19») is found by its number alone
_LINE = re.compile(r"[^\n]+")
_TABLE_RULE = re.compile(r"^[\s|:-]*$")
# A sentence ends at . ! ? ; before a capital or a digit, unless the word before the stop is an abbreviation.
_STOP = re.compile(r"[.!?;](?=\s+[«\"“„(\[]?[A-ZА-ЯЁ0-9])")
_ABBREVIATIONS = frozenset(
    "ст ч п пп подп гл разд прил абз г гг т д др см н им ред утв рис табл стр с".split()
    + "no e.g i.e etc fig sec vol et al".split()
)
_WORD_BEFORE = re.compile(r"([^\W_]+(?:\.[^\W_]+)*)$")
# How far before a stop the abbreviation test looks: a longer word there is no abbreviation.
_ABBREVIATION_REACH = max(map(len, _ABBREVIATIONS)) + 8
_SPACES = re.compile(r"\s*")  # \s is exactly str.isspace, so this skips what lstrip() would
_MIN_UNIT_WORDS = 3  # a shorter piece («1.», «См. ст.») joins the unit after it
_NEGATION_BEFORE = re.compile(r"(?<![^\W_])(?:не|ни|нет|not|no)(?P<gap>\s+)$", re.I)
_NEGATION_AFTER = re.compile(r"(?P<gap>\s+)(?P<word>не|ни|нет|not|no)(?![^\W_])", re.I)


def _units(text: str, blanked: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Sentence units of the act's text, and the heading lines' text (both as [start, end) offsets)."""
    units: list[tuple[int, int]] = []
    headings: list[tuple[int, int]] = []
    for line in _LINE.finditer(blanked):
        whole = line.group()
        body = whole.strip()
        start = line.start() + len(whole) - len(whole.lstrip())
        if not body or _TABLE_RULE.match(body):
            continue
        if body.startswith("#"):
            title = body.lstrip("#").lstrip()
            headings.append((start + len(body) - len(title), start + len(body)))
            continue
        if body.startswith("|"):
            units.append((start, start + len(body)))
            continue
        units.extend(_sentences(text, start, start + len(body)))
    return units, headings


def _sentences(text: str, a: int, b: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    begin = a
    for m in _STOP.finditer(text, a, b):
        if _abbreviation_before(text, begin, m.start()):
            continue
        out.append((begin, m.end()))
        begin = _SPACES.match(text, m.end(), b).end()  # type: ignore[union-attr]  # \s* always matches
    if begin < b:
        out.append((begin, b))
    merged: list[tuple[int, int]] = []
    for s, e in out:
        # maxsplit: whether a unit has fewer than 3 words needs no more than its first 3.
        if merged and len(text[merged[-1][0] : merged[-1][1]].split(None, _MIN_UNIT_WORDS - 1)) < _MIN_UNIT_WORDS:
            s = merged.pop()[0]
        merged.append((s, e))
    return merged


def _abbreviation_before(text: str, begin: int, stop: int) -> bool:
    """Whether the word of ``text[begin:stop]`` that ends at the stop is an abbreviation («ст», «т.д»).

    The same answer as ``_WORD_BEFORE.search(text, begin, stop)``, which tries every start from
    ``begin`` (quadratic in a long sentence), but looking only at the last few characters: a word
    that still matches from the window's first or second character is longer than any abbreviation.
    """
    window = max(begin, stop - _ABBREVIATION_REACH)
    before = _WORD_BEFORE.search(text, window, stop)
    if before is None:
        return False  # a word reaching further back would match from the window's first characters too
    if window > begin and before.start() <= window + 1:
        return False  # casefold never shortens a string: too long for an abbreviation
    return before.group(1).casefold() in _ABBREVIATIONS


def _concept_hits(
    norm: Normalized, wanted: list[frozenset[str]], prefix: bool, needles: list[str] | None
) -> list[tuple[int, int]]:
    """(original offset, concept index) of every word of the text that says one of the query's concepts."""
    keysets = [ks | {_REF.sub("", k) for k in ks} for ks in wanted]
    hits = []
    for start, word in _candidate_words(norm.text, keysets):
        for _s, _e, tok in token_spans(word):
            for i, keyset in enumerate(keysets):
                if keyset.intersection(tok.keys) or (prefix and any(k.startswith(w) for k in tok.keys for w in keyset)):
                    hits.append((norm.offsets[start], i))
    for i, needle in enumerate(needles or []):
        at = norm.text.find(needle)
        if at >= 0:
            hits.append((norm.offsets[at], i))
    return hits


# What a quick look folds before asking whether a segment may hold a key: ё and dashes (same length).
_QUICK = (("ё", "е"), *((c, "_") for c in "-./\u2010\u2011\u2012\u2013\u2014\u2015\u2212"))
_SEPARATORS = (("-", "_"), (".", "_"), ("/", "_"))
_INVISIBLE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")


def _replaced(text: str, pairs: tuple[tuple[str, str], ...]) -> str:
    """``text`` with each character of ``pairs`` replaced by its single-character partner.

    The same as ``str.translate`` with that table, several times faster on Cyrillic text: a dict
    table is looked up per character, ``str.replace`` scans in C and skips absent characters.
    """
    for old, new in pairs:
        if old in text:
            text = text.replace(old, new)
    return text


def _segment_hits(
    blanked: str, segments: list[tuple[int, int]], wanted: list[frozenset[str]], prefix: bool, needles: list[str] | None
) -> list[tuple[int, int]]:
    """:func:`_concept_hits` over the units and headings, normalizing only those a quick look finds a key in.

    A long section is not normalized whole for a handful of query words. The look is a substring test
    on the lower-cased text with separators as ``_`` (as keys write them): it may let a segment through
    that holds no key, never stop one that does, except where only normalization reveals the word.
    """
    probes = {k for ks in wanted for k in ks | {_REF.sub("", k) for k in ks} if k}
    hits = []
    whole = _replaced(blanked.lower(), _QUICK)
    aligned = len(whole) == len(blanked) and not _INVISIBLE.search(blanked)
    for a, b in segments:
        folded = whole[a:b] if aligned else _INVISIBLE.sub("", _replaced(blanked[a:b].lower(), _QUICK))
        if not (any(p in folded for p in probes) or any(n in blanked[a:b].lower() for n in needles or ())):
            continue
        hits += [(a + pos, c) for pos, c in _concept_hits(normalize(blanked[a:b]), wanted, prefix, needles)]
    return hits


def _candidate_words(text: str, keysets: list[frozenset[str]]) -> list[tuple[int, str]]:
    """Words of normalized ``text`` that begin like one of the keys (a stem is its word's beginning).

    Only these are analysed: a long section is not tokenized whole for a handful of query words.
    """
    prefixes = tuple({k for ks in keysets for k in ks if k})
    if not prefixes:
        return []
    plain = _replaced(text, _SEPARATORS)  # separators written as keys write them; offsets unchanged
    out = []
    for m in WORD.finditer(text):
        start, end = m.span()
        if plain.startswith(prefixes, start, end) or (
            text.find("-", start, end) >= 0 and _part_begins(text, plain, start, end, prefixes)
        ):
            out.append((start, m.group()))
    return out


def _part_begins(text: str, plain: str, start: int, end: int, prefixes: tuple[str, ...]) -> bool:
    """Whether a part after a hyphen of the word ``text[start:end]`` begins like a key.

    A compound («ии-системам») is split by the analyzer: each part may begin like a key (the first
    part begins like one only if the whole word does, which the caller tried).
    """
    dash = text.find("-", start, end)
    while dash >= 0:
        nxt = text.find("-", dash + 1, end)
        if plain.startswith(prefixes, dash + 1, nxt if nxt >= 0 else end):
            return True
        dash = nxt
    return False


def innermost(clauses: list[Clause], a: int, b: int) -> Clause | None:
    """The smallest clause of the table whose span holds [a, b)."""
    inside = [c for c in clauses if c[1] <= a and b <= c[2]]
    return min(inside, key=lambda c: c[2] - c[1]) if inside else None


def best_snippet(
    text: str,
    clauses: list[Clause],
    wanted: list[frozenset[str]],
    *,
    prefix: bool = False,
    needles: list[str] | None = None,
    width: int = 300,
) -> tuple[int, int, str]:
    """``(start, end, clause)``: the snippet's span in ``text`` and the innermost clause holding it ("": none).

    ``wanted`` holds one key set per query concept (analyzer keys); with ``prefix`` a key matches
    words it begins; ``needles`` are normalized strings found as substrings (the substring fallback).
    """
    blanked = blank_editorial(text)
    units, heading_spans = _units(text, blanked)
    if not units:  # a section that is only a heading: its title is the text there is
        units, heading_spans = [h for h in heading_spans if h[0] < h[1]], []
    if not units:
        return 0, 0, ""
    headings = [a for a, _b in heading_spans]
    starts = [a for a, _b in units]
    in_unit: list[list[tuple[int, int]]] = [[] for _ in units]  # per unit: (offset, concept)
    for pos, concept in _segment_hits(blanked, sorted(units + heading_spans), wanted, prefix, needles):
        k = bisect.bisect_right(starts, pos) - 1
        heading = bisect.bisect_right(headings, pos) - 1
        if heading >= 0 and headings[heading] > (starts[k] if k >= 0 else -1):
            k = bisect.bisect_left(starts, headings[heading])  # a heading names what follows it
            if k == len(units):
                continue
        elif k < 0 or pos >= units[k][1]:
            continue
        in_unit[k].append((max(pos, units[k][0]), concept))
    best = max(range(len(units)), key=lambda k: (len({c for _p, c in in_unit[k]}), -k))
    a, b = units[best]
    home = innermost(clauses, a, b)
    lo, hi = (home[1], home[2]) if home else (0, len(text))
    if b - a > width:
        a, b = _cut(text, a, b, _densest(sorted(in_unit[best]), width * 4 // 5) if in_unit[best] else a, width)
    else:
        a, b = _widen(text, units, best, lo, hi, width)
    a, b = _keep_negations(text, a, b, lo, hi)
    found = innermost(clauses, a, b)
    return a, b, found[0] if found else ""


def _widen(text: str, units: list[tuple[int, int]], k: int, lo: int, hi: int, width: int) -> tuple[int, int]:
    """The unit with whole neighbours of the same clause, the next ones first, while the snippet fits."""
    i = j = k
    a, b = units[k]
    grew = True
    while grew:
        grew = False
        for nxt in (j + 1, i - 1):
            if not 0 <= nxt < len(units):
                continue
            na, nb = units[nxt]
            span = (min(a, na), max(b, nb))
            gap = text[b:na] if nxt > j else text[nb:a]
            if lo <= span[0] and span[1] <= hi and span[1] - span[0] <= width and not gap.strip():
                a, b = span
                i, j = min(i, nxt), max(j, nxt)
                grew = True
                break
    return a, b


def _densest(hits: list[tuple[int, int]], span: int) -> int:
    """The offset of the hit that starts the ``span`` characters holding the most distinct concepts."""
    best, at = 0, hits[0][0]
    for i, (pos, _c) in enumerate(hits):
        n = len({c for p, c in hits[i:] if p < pos + span})
        if n > best:
            best, at = n, pos
    return at


def _cut(text: str, a: int, b: int, hit: int, width: int) -> tuple[int, int]:
    """A window of about ``width`` characters of the unit [a, b) around ``hit``, cut at spaces."""
    start = max(a, min(hit - width // 5, b - width))
    end = min(b, start + width)
    if start > a:
        space = text.find(" ", start, hit if hit > start else end)
        start = space + 1 if space >= 0 else start
    if end < b:
        space = text.rfind(" ", max(start, hit), end)
        end = space if space > start else end
    return start, end


def _keep_negations(text: str, a: int, b: int, lo: int, hi: int) -> tuple[int, int]:
    """Widen a cut that would leave out «не» right before or after it (the snippet would say the opposite)."""
    before = _NEGATION_BEFORE.search(text, max(lo, a - 12), a)
    if before and "|" not in before.group("gap"):
        a = before.start()
    after = _NEGATION_AFTER.match(text, b, hi)
    if after and "|" not in after.group("gap") and not ("\n" in after.group("gap") and after["word"][0].isupper()):
        b = after.end()
    return a, b


def read_window(text: str, table: list[Clause], a: int, b: int) -> tuple[int, int]:
    """Where a model reads the snippet ``text[a:b]`` in context: its innermost clause when that is short.

    A long clause (or none) gives the paragraph the snippet begins in, on to :data:`READ_WINDOW`
    characters; the window always holds the whole snippet. ``fetch(path, start, max_chars)`` reads it,
    so a model answering from one clause does not load the whole article.
    """
    home = innermost(table, a, b)
    lo, hi = (home[1], home[2]) if home else (0, len(text))
    if hi - lo <= READ_WINDOW:
        return lo, hi
    para = text.rfind("\n\n", lo, a)
    start = para + 2 if para >= 0 else lo
    start = start if a - start <= READ_WINDOW // 2 else a  # a paragraph as long as a page: the snippet's sentence
    return start, max(b, min(hi, start + READ_WINDOW))
