"""The one typographic normalization shared by search and quote verification.

A quote is accepted when ``normalize_text(quote)`` occurs in ``normalize(section).text``; the offset
map then gives back the original, verbatim slice. Both sides go through exactly these steps, in order:

==  ======================  ==========================================================================
#   step                    what happens (and why)
==  ======================  ==========================================================================
1   typographic fold        one character for one character, so offsets do not move:
                            every space variant (NBSP, U+2000-U+200A, U+202F, U+205F, U+3000, tab,
                            CR ...) -> ' '; line breaks (LF, VT, FF, NEL, U+2028/9) -> LF (kept until
                            step 11, Markdown and hyphenation need lines); every dash/hyphen (U+2010-
                            U+2015, U+2212, U+FE58, U+FE63, U+FF0D, ...) -> '-'; every quote mark
                            (« » „ “ ” ‟ ‘ ’ ‚ ‛ ″ ′ " ' ...) -> '"'. English apostrophes become '"'
                            too (don"t): harmless, both sides fold alike. ё -> е, Ё -> Е. Done before
                            NFKC because NFKC would turn ″ into two primes.
2   invisibles removed      soft hyphen U+00AD, zero-width U+200B-U+200D, U+2060, U+FEFF, bidi
                            marks U+200E/F, U+202A-U+202E, U+2066-U+2069 and C0/C1 control codes
                            (PDF debris). A soft hyphen before a line break joins the lines: it
                            marks a discretionary word break («инфор<U+00AD>⏎мации»).
3   NFKC                    per cluster (a character plus its combining marks), so every output
                            character maps back to its source. Protected: «№» (NFKC -> «No») and
                            superscript digits (step 5 needs them). Results are folded as in 1.
4   Markdown/HTML removed   backslash escapes (\\| -> |); images dropped; [text](url) -> text;
                            20<sup>1</sup> -> 20.1 after a digit; <br> and block tags -> ' ';
                            inline tags (b, i, sup, span ...) removed; every * and ` removed
                            (emphasis, bullets, inline code, footnote stars are never wording;
                            ` is treated as markup, not as a quote mark); _ and __ removed only as
                            emphasis, i.e. touching a space or punctuation on one side (snake_case
                            stays); | -> ' ' and |---|---| rows -> ' '. Repeated until nothing
                            matches (at most 4 passes) so nested markup cannot reappear.
5   superscript digits      after a digit -> '.' + digits («20¹» -> «20.1», never «201»), else plain.
6   hyphenation undone      'xx-⏎yy' -> 'xxyy' when both sides are lowercase letters. Kept as
                            'xx-yy' when the left ends in a digit or capital, the right starts with
                            a capital or digit («152-⏎ФЗ» -> «152-ФЗ»), the left word is a compound
                            head (интернет, веб, бизнес, онлайн, офлайн, кибер, пресс, вице, северо,
                            юго, восточно, западно, кое) or the right word is «либо»/«нибудь».
                            Ambiguous prefixes (экс, мини, топ) are left out on purpose:
                            экс-⏎пертиза, мини-⏎стерство, топ-⏎ливо are ordinary word breaks.
                            Only raw input has these; shelves are repaired by the converter.
7   line-start markup       '#' headings, '>' quotes, '-', '+', '•' bullets. After step 6, so a
                            bullet on the next line stops a join: «слово-⏎- пункт». A point's
                            number glued to its first word gets its space: «2.1.Провести» ->
                            «2.1. Провести» (contracts print it so; a quote starts at the word).
8   casefold                str.casefold() («ТОЧНО» -> «точно», ß -> ss).
9   NFKC again              composes what steps 4-8 left decomposed (е<b>U+0308</b>, ß + accent).
10  Latin homoglyphs        in a word made of Latin and Cyrillic letters where every Latin letter
                            has a Cyrillic look-alike and Latin letters are not the majority:
                            a b c e h i k m o p t x y -> а в с е н і к м о р т х у («cоcтоянию»
                            with Latin c -> «состоянию», «ОOО» -> «ооо»). After casefold, so the
                            capital look-alikes B H M T arrive as b h m t. «PDFфайл» stays.
11  whitespace              runs of spaces/line breaks -> one ' ', stripped at both ends.
==  ======================  ==========================================================================

Every step maps each output character to the original characters that produced it, so
:meth:`Normalized.span` returns the verbatim source of any normalized slice. The output is a fixed
point (``normalize_text(normalize_text(s)) == normalize_text(s)``) except for markup nested deeper
than the four removal passes. Quotes need no offsets: use the faster :func:`normalize_text`.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from docshelf.law.lexicon import COMPOUND_HEADS

Piece = tuple[str, int, int]  # replacement text, produced from current-text chars [start, end)
Repl = Callable[[re.Match[str]], Iterable[Piece]]

_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_PROTECTED = "№" + _SUPERSCRIPTS  # characters NFKC must not touch


def _fold_table() -> dict[int, str]:
    table = {c: " " for c in range(0x3001) if chr(c).isspace()}  # no isspace() char lies above U+3000
    table.update(dict.fromkeys(map(ord, "\n\v\f\x85\u2028\u2029"), "\n"))
    dashes = "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u2e3a\u2e3b\ufe31\ufe32\ufe58\ufe63\uff0d"
    table.update(dict.fromkeys(map(ord, dashes), "-"))
    quotes = "«»„“”‟‘’‚‛″′‴‵‶‷‹›'\u00b4\u02bc\u301d\u301e\u301f\uff02\uff07"
    table.update(dict.fromkeys(map(ord, quotes), '"'))
    table.update({ord("ё"): "е", ord("Ё"): "Е"})
    return table


_FOLD = _fold_table()
_INVISIBLE = re.compile(
    r"\u00ad(?: *+\n *+)?"  # before a line break it marks a discretionary word break: join the lines
    r"|[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]+"
)
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_IMAGE = re.compile(r"!\[[^\[\]]*\]\([^()]*\)")
_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_SUP_NUMBER = re.compile(r"<sup>(?<=[0-9]<sup>)\s*([0-9]+)\s*</sup>", re.I | re.A)
_INLINE_TAG = re.compile(
    r"</?(?:a|abbr|b|code|del|em|font|i|ins|mark|s|small|span|strong|sub|sup|u)(?=[\s/>])[^<>]*>", re.I | re.A
)
_BLOCK_TAG = re.compile(
    r"</?(?:blockquote|br|caption|center|div|h[1-6]|hr|img|li|ol|p|pre|table|tbody|td|tfoot|th|thead|tr|ul)"
    r"(?=[\s/>])[^<>]*>",
    re.I | re.A,  # ASCII names only: casefold must not turn text into a tag (<İ0> -> <i̇0>)
)
_STARS = re.compile(r"[*`]+")
_NON_WORD = r"\s!-/:-@\[-^`{-~"  # whitespace and ASCII punctuation except '_'
# Regexes start with a literal where possible: the engine then skips ahead instead of trying every position.
# A run of '_' that opens (non-word before, text after) or closes (text before, non-word after) emphasis.
_EMPHASIS = re.compile(rf"_(?:(?<![^{_NON_WORD}]_)_*+(?!\s|\Z)|(?<=\S_)(?<!__)_*+(?![^{_NON_WORD}]))")
_PIPE = re.compile(r"\|")
_TABLE_RULE = re.compile(r"^(?=[^\n]*\|)(?=[^\n]*-)[ |:-]*+$", re.M)
_LINE_PREFIX = re.compile(r"^ *+(?:(?:>|#++(?= |$)|[-+•](?= |$)) *+)++", re.M)
_SUPERSCRIPT = re.compile(f"[{_SUPERSCRIPTS}]+")
_SUPER_DIGITS = str.maketrans(_SUPERSCRIPTS, "0123456789")
_HYPHEN_HINT = re.compile(r"- *+\n")
_KEEP_HYPHEN = re.compile(r"(?<=[^\W_]-) *+\n *+(?=[^\W_])")  # after joins: only drop the break
_COMPOUND_HEADS = " ".join(sorted(COMPOUND_HEADS))
_COMPOUND_TAILS = "либо|нибудь"
_CYR = "\u0400-\u04ff"
_MIXED_PAIR = re.compile(rf"[a-z][{_CYR}]|[{_CYR}][a-z]")
_MIXED_WORD = re.compile(rf"(?<![a-z{_CYR}])[a-z{_CYR}]*?(?:[a-z][{_CYR}]|[{_CYR}][a-z])[a-z{_CYR}]*+")
_LATIN = re.compile("[a-z]")
_LOOKALIKES = "abcehikmoptxy"
_HOMOGLYPHS = str.maketrans(_LOOKALIKES, "авсенікмортху")
_LF_TO_SPACE = {ord("\n"): " "}
_SPACES = re.compile(r"  ++")
# A point's number glued to its first word («2.1.Провести работы»): the word is a word of the quote.
_GLUED_LABEL = re.compile(r"(?<![^\s(])(\d{1,3}(?:\.\d{1,3})*\.)(?=[^\W\d_])")
_PROTECTED_SPLIT = re.compile(f"[{_PROTECTED}]")
_WORD = re.compile(r"[^\W_]+(?:[-./_][^\W_]+)*+|№")
WORD = _WORD  # a word of normalized text, for callers that need positions (quote matching)
_MARKUP_PASSES = 4


def _char_class(codes: Iterable[int]) -> str:
    """A regex character class body for the given code points, merged into ranges."""
    ranges: list[list[int]] = []
    for c in sorted(codes):
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)


class _Tables(NamedTuple):
    cluster: re.Pattern[str]  # a character with its combining marks, or one NFKC would change
    expands: re.Pattern[str]  # characters whose casefold is longer than one character
    join: re.Pattern[str]  # 'lower-⏎lower' that is a line-break hyphenation, not a compound


@cache
def _unicode_tables() -> _Tables:
    """Patterns built from unicodedata on first use (~50 ms) rather than at import."""
    unstable, marks, expands, lower = [], [], [], []
    for c in range(0x10000):
        ch = chr(c)
        if 0xD800 <= c < 0xE000 or ch in _PROTECTED:
            continue
        if unicodedata.normalize("NFKC", ch) != ch:
            unstable.append(c)
        # Hangul vowel/final jamo compose like combining marks although they are letters.
        if unicodedata.category(ch)[0] == "M" or 0x1160 <= c <= 0x11FF:
            marks.append(c)
        if len(ch.casefold()) != 1:
            expands.append(c)
        if ch.islower():
            lower.append(c)
    astral = "\U00010000-\U0010ffff"  # rare in our texts: treat every one as a possible change
    mark = f"[{_char_class(marks)}{astral}]"
    low = f"[{_char_class(lower)}]"
    # Compound heads and tails as fixed-width lookarounds: the regex decides alone, no callback
    # per match, so even megabytes of «а-⏎б» stay fast.
    heads = "".join(rf"(?<!\b(?i:{head})-)" for head in _COMPOUND_HEADS.split())
    return _Tables(
        cluster=re.compile(f"[^{_PROTECTED}]?{mark}+|[{_char_class(unstable)}{astral}]"),
        expands=re.compile(f"[{_char_class(expands)}{astral}]"),
        join=re.compile(rf"-(?<={low}-){heads} *+\n *+(?={low})(?!(?i:{_COMPOUND_TAILS})\b)"),
    )


class _Text:
    """The text being normalized; this base class keeps no offsets (the ``normalize_text`` path)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def translate(self, table: dict[int, str]) -> None:
        self.text = self.text.translate(table)

    def sub(self, pattern: re.Pattern[str], repl: str | Repl) -> bool:
        """Replace every match; return whether anything matched."""
        if isinstance(repl, str):
            self.text, n = pattern.subn(repl, self.text)
        else:
            fn = repl
            self.text, n = pattern.subn(lambda m: "".join(p[0] for p in fn(m)), self.text)
        return n > 0

    def casefold(self) -> None:
        self.text = self.text.casefold()

    def collapse(self) -> None:
        self.text = " ".join(self.text.split())  # after step 1 only ' ' and LF are whitespace


class _Mapped(_Text):
    """The text plus, per character, the original [start, end) it came from."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.starts = array("q", range(len(text)))
        self.ends = self.starts[1:]  # slicing copies memory; a second range() would be much slower
        if text:
            self.ends.append(len(text))

    def sub(self, pattern: re.Pattern[str], repl: str | Repl) -> bool:
        text, starts, ends = self.text, self.starts, self.ends
        out: list[str] = []
        new_s, new_e = array("q"), array("q")
        pos = 0
        for m in pattern.finditer(text):
            a, b = m.span()
            out.append(text[pos:a])  # also marks that something matched
            new_s.extend(starts[pos:a])
            new_e.extend(ends[pos:a])
            pos = b
            if isinstance(repl, str):  # the hot path (deletions, ' '): no piece tuples per match
                if repl:
                    out.append(repl)
                    new_s.extend(array("q", (starts[a],)) * len(repl))
                    new_e.extend(array("q", (ends[b - 1],)) * len(repl))
                continue
            for piece, pa, pb in repl(m):
                if not piece:
                    continue
                out.append(piece)
                if len(piece) == pb - pa:  # one for one: keep each character's own source
                    new_s.extend(starts[pa:pb])
                    new_e.extend(ends[pa:pb])
                else:  # every produced character comes from the whole source range
                    new_s.extend(array("q", (starts[pa],)) * len(piece))
                    new_e.extend(array("q", (ends[pb - 1],)) * len(piece))
        if not out:
            return False
        out.append(text[pos:])
        new_s.extend(starts[pos:])
        new_e.extend(ends[pos:])
        self.text, self.starts, self.ends = "".join(out), new_s, new_e
        return True

    def casefold(self) -> None:
        # Expanding characters (ß -> ss) first, so the rest is one for one and offsets stay put.
        self.sub(_unicode_tables().expands, lambda m: ((m.group().casefold(), m.start(), m.end()),))
        folded = self.text.casefold()
        assert len(folded) == len(self.text), "casefold of the remaining text must be one for one"
        self.text = folded

    def collapse(self) -> None:
        self.translate(_LF_TO_SPACE)  # one for one, so only real runs cost a match
        self.sub(_SPACES, " ")
        if self.text.startswith(" "):
            self.text, self.starts, self.ends = self.text[1:], self.starts[1:], self.ends[1:]
        if self.text.endswith(" "):
            self.text, self.starts, self.ends = self.text[:-1], self.starts[:-1], self.ends[:-1]


def _nfkc(buf: _Text) -> None:
    # The C quick check is far faster than the cluster scan; the protected characters would fail it.
    if not all(unicodedata.is_normalized("NFKC", part) for part in _PROTECTED_SPLIT.split(buf.text)):
        buf.sub(_unicode_tables().cluster, _nfkc_cluster)


def _nfkc_cluster(m: re.Match[str]) -> Iterable[Piece]:
    text = unicodedata.normalize("NFKC", m.group()).translate(_FOLD)
    while not unicodedata.is_normalized("NFKC", text):  # folding ё -> е can make е + breve -> ӗ
        text = unicodedata.normalize("NFKC", text).translate(_FOLD)
    return ((text, m.start(), m.end()),)


def _group(index: int) -> Repl:
    """Keep only one group of the match (link text, escaped character)."""
    return lambda m: ((m.group(index), m.start(index), m.end(index)),)


def _sup_number(m: re.Match[str]) -> Iterable[Piece]:
    return ((".", m.start(), m.start(1)), (m.group(1), m.start(1), m.end(1)))


_INLINE_RULES: tuple[tuple[re.Pattern[str], str | Repl], ...] = (
    (_ESCAPE, _group(1)),
    (_IMAGE, ""),
    (_LINK, _group(1)),
    (_SUP_NUMBER, _sup_number),
    (_INLINE_TAG, ""),
    (_BLOCK_TAG, " "),
    (_STARS, ""),
    (_EMPHASIS, ""),
    (_PIPE, " "),
)


def _strip_markup(buf: _Text) -> None:
    buf.sub(_TABLE_RULE, " ")
    # One removal can expose another ([[a](b)](c), <<b>br>): repeat so the output is a fixed point.
    for _ in range(_MARKUP_PASSES):
        changed = False
        for pattern, repl in _INLINE_RULES:
            changed |= buf.sub(pattern, repl)
        if not changed:
            break


def _superscript(m: re.Match[str]) -> Iterable[Piece]:
    a, b = m.span()
    digits = m.group().translate(_SUPER_DIGITS)
    if a and m.string[a - 1] in "0123456789":
        return ((".", a, a + 1), (digits, a, b))  # the dot comes from the first superscript digit
    return ((digits, a, b),)


def _glued_label(m: re.Match[str]) -> Iterable[Piece]:
    return ((m.group(1) + " ", m.start(), m.end()),)


def _homoglyphs(m: re.Match[str]) -> Iterable[Piece]:
    word = m.group()
    latin = _LATIN.findall(word)
    if 2 * len(latin) > len(word) or any(ch not in _LOOKALIKES for ch in latin):
        return ((word, m.start(), m.end()),)  # mostly Latin, or a Latin word glued to Cyrillic: keep
    return ((word.translate(_HOMOGLYPHS), m.start(), m.end()),)


def _run(buf: _Text) -> None:
    buf.translate(_FOLD)
    buf.sub(_INVISIBLE, "")
    _nfkc(buf)
    _strip_markup(buf)
    buf.sub(_SUPERSCRIPT, _superscript)
    if _HYPHEN_HINT.search(buf.text):
        buf.sub(_unicode_tables().join, "")
        buf.sub(_KEEP_HYPHEN, "")
    buf.sub(_LINE_PREFIX, "")
    buf.sub(_GLUED_LABEL, _glued_label)
    buf.casefold()
    _nfkc(buf)  # composes what markup, hyphenation and casefold (ß́ -> ss + accent) left decomposed
    if _MIXED_PAIR.search(buf.text):
        buf.sub(_MIXED_WORD, _homoglyphs)
    buf.collapse()


@dataclass(frozen=True)
class Normalized:
    """A normalized string and, per character, where it came from in the original.

    ``offsets[i]`` is the original index where normalized character ``i`` starts and
    ``offsets[len(text)] == len(original)``; ``ends[i]`` is the original index just past the
    last original character that produced character ``i``.
    """

    text: str
    offsets: tuple[int, ...]
    ends: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original ``[a, b)`` covering exactly the characters that produced ``text[start:end]``."""
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"span [{start}, {end}) is outside 0..{len(self.text)}")
        if start == end:
            return self.offsets[start], self.offsets[start]
        return self.offsets[start], self.ends[end - 1]


def normalize(text: str) -> Normalized:
    """Normalize ``text`` keeping the offset map back to it (see the module table)."""
    buf = _Mapped(text)
    _run(buf)
    return Normalized(buf.text, (*buf.starts, len(text)), tuple(buf.ends))


def normalize_text(text: str) -> str:
    """Just the normalized string: same steps as :func:`normalize`, no offset bookkeeping."""
    buf = _Text(text)
    _run(buf)
    return buf.text


def words(text: str) -> list[str]:
    """Normalized words: split on spaces and punctuation, keeping 152-фз, 10.2-1, упд.1 and № whole."""
    return _WORD.findall(normalize_text(text))
