"""The one analyzer behind search: text -> keys, the same way for the index and for queries.

It sits on top of :mod:`docshelf.normalize` (the normalization quote verification uses), so a
word found by search is a word ``verify_quote`` accepts. Per normalized word, in this order:

==================  =====================================================  ========================
word                keys (first = primary)                                 why
==================  =====================================================  ========================
``152-фз``          ``152_фз`` + backoffs ``152``, ``фз``                  identifiers stay exact;
``упд.1``           ``упд_1`` + backoff ``упд``                            ``.``/``-`` -> ``_`` so
``3.2.1 10.2-1``    ``3_2_1``, ``10_2_1``                                  FTS5 keeps one token
``ст. 18.1``        ``ст_18_1`` (+ ``18_1``) after ст/статья, also         an article reference,
                    ``п_``/``ч_``/``гл_`` after пункт/часть/глава          whatever the word form
``sha256 19``       ``sha256``, ``19`` (a digit: never stemmed)
``ии кии об``       ``ии``, ``кии``, ``об`` (≤ 3 letters: never stemmed)   Snowball: ``ии`` -> ``и``
``ИСПДн ДАННЫХ``    stem + raw (≤ 6 letters, ≥ 2 capitals in the source)   acronyms stay findable
``операторы``       ``оператор`` (Snowball Russian, PyStemmer)
``extensions``      ``extens`` (Snowball English for Latin words)
``ии-системам``     ``ии`` + ``систем`` (a compound without digits splits)
==================  =====================================================  ========================

Stopwords are marked, never dropped here: the index keeps them (a phrase like «за рубеж» needs
them) and :func:`query_tokens` drops them from queries unless nothing else is left.
Derivational pairs (передавать/передача) are not joined by any stemmer: :mod:`docshelf.synonyms`
does that. Bump :data:`ANALYZER_VERSION` whenever the keys change: cached indexes are rebuilt.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import Stemmer

from docshelf.law.grammar import REFERENCE_KEY
from docshelf.text.normalize import normalize, normalize_text

ANALYZER_VERSION = "1"
# The word pattern of normalize.words(), with positions; tests assert the two agree.
WORD = re.compile(r"[^\W_]+(?:[-./_][^\W_]+)*+|№")
# A word of 2-6 letters with at least two capitals (ИСПДн, КоАП, ДАННЫХ), found by the regex engine alone.
_CAPS_WORD = re.compile(r"(?<![^\W_])(?=(?:[^\W\d_]*?[A-ZА-ЯЁ]){2})[^\W\d_]{2,6}(?![^\W_])")
_SEPARATORS = re.compile(r"[-./_]")
_DIGIT = re.compile(r"\d")
_NUMBER_ID = re.compile(r"\d+(?:_\d+)*")
CYRILLIC = re.compile(r"[а-я]+")  # a normalized Russian word (ё is е after normalization)
_LATIN = re.compile(r"[a-z]+")
_SHORT = 3  # tokens this short are never stemmed
_CAPS_MAX = 6  # acronyms up to this length also keep their raw form
# Words that make the following number a reference: the prefix of the article key.
_MARKERS = {
    "ст": "ст", "стат": "ст",
    "ч": "ч", "част": "ч",
    "п": "п", "пп": "п", "пункт": "п", "подпункт": "п",
    "гл": "гл", "глав": "гл",
}  # fmt: skip
_REF_MARKERS = frozenset(_MARKERS.values())
# Dropped from queries only. Question words and fillers included: «можно ли…», «какие бывают…», «what is…»:
# a filler is rare in the texts, so as a query word it would weigh most and lift the one section that says it.
STOPWORDS = frozenset(
    """
    а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да даже для до его
    ее ей если есть еще же за здесь и из или им их к как какая какие каким каких какой какому когда кого
    кто ли либо мне может можно мы на над надо наш не него нее нет ни них но ну о об однако он она они оно
    от очень по под при про с со так также там те тем то того тоже той только том ты у уж уже хотя чего
    чей чем что чтобы чье чья эта эти это этого этой этом эту я ведь нужно нужна нужен нужны следует
    сколько такое такой такая такие почему зачем каков какова каковы
    бывает бывают вообще разве неужели именно конкретно примерно пожалуйста подскажите скажите
    будет будут буду будем будете меня мой моя мое мои моего моей моих моим нас нам наши нашей наших
    ваш ваша ваше ваши вашего ваших свой своя свое свои своего своей своих себя себе мной тебя тебе твой
    a an and are as at be by can did do does for from how i if in into is it its may of on or should that
    the their there these this to was what when where which who whom why will with just please exactly
    my me our we you your they them he she his her
    """.split()
)


@dataclass(frozen=True)
class Token:
    """One analysed word.

    ``keys`` go into the index (primary first); ``alts`` are what a query accepts for this word
    (no backoffs: «УПД.1» must not match every «УПД»).
    """

    word: str  # the normalized word
    keys: tuple[str, ...]
    alts: tuple[str, ...]
    kind: str  # "word", "number", "ident" or "ref" (a number after ст./п./ч./гл.)
    stop: bool = False

    @property
    def key(self) -> str:
        return self.keys[0]


_RU = Stemmer.Stemmer("russian")
_EN = Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    """Snowball stem of a lowercase word: Russian for Cyrillic, English for Latin, else as is."""
    if CYRILLIC.fullmatch(word):
        return str(_RU.stemWord(word))
    if _LATIN.fullmatch(word):
        return str(_EN.stemWord(word))
    return word


@lru_cache(maxsize=200_000)
def _word_keys(word: str, caps: bool) -> tuple[str, ...]:
    """Keys of one plain word (no separators)."""
    if len(word) <= _SHORT or _DIGIT.search(word):
        return (word,)
    stem = _stem(word)
    if caps and len(word) <= _CAPS_MAX and stem != word:
        return (stem, word)  # stem first: phrases of stems stay adjacent in the index
    return (stem,)


def word_key(word: str) -> str:
    """The primary key of one normalized plain word: what the index holds for it."""
    return _word_keys(word, False)[0]


@lru_cache(maxsize=200_000)
def _split_word(word: str, caps: bool) -> tuple[Token, ...]:
    """The tokens of one normalized word: an identifier, a number, or one or more plain words."""
    if word == "№":
        return ()
    stop = word in STOPWORDS
    if not _SEPARATORS.search(word):
        if word.isdigit():
            return (Token(word, (word,), (word,), "number"),)
        kind = "ident" if _DIGIT.search(word) else "word"
        keys = _word_keys(word, caps)
        return (Token(word, keys, keys, kind, stop),)
    if _DIGIT.search(word):
        key = _SEPARATORS.sub("_", word)
        parts = _SEPARATORS.split(word)
        backoff = [p for p in parts if len(p) >= 2 and not _DIGIT.search(p)]
        if parts[0].isdigit() and not parts[-1].isdigit():
            backoff.insert(0, parts[0])  # 152-фз is also found as «152»
        keys = tuple(dict.fromkeys([key, *backoff]))
        kind = "number" if _NUMBER_ID.fullmatch(key) else "ident"
        return (Token(word, keys, (key,), kind),)
    # A compound or an abbreviation with dots (ии-системам, т.е., www.example.ru): its parts.
    return tuple(t for part in _SEPARATORS.split(word) for t in _split_word(part, caps))


def _caps_words(text: str) -> frozenset[str]:
    """Short words written with ≥ 2 capitals somewhere in ``text`` (ИСПДн, КоАП, ДАННЫХ), folded."""
    return frozenset(normalize_text(" ".join(set(_CAPS_WORD.findall(text)))).split())


def is_ref_key(key: str) -> bool:
    """Whether a key is a clause reference :func:`_with_ref` made («ст_18», «п_3_2_1»), not a word or a number."""
    marker, _, number = key.partition("_")
    return marker in _REF_MARKERS and _NUMBER_ID.fullmatch(number) is not None


def _with_ref(marker: str, token: Token) -> Token:
    """The number after «ст.»/«пункт»…: an article key first, the bare number as a fallback."""
    ref = f"{marker}_{token.key}"
    # «ст. 19» means the article, not any «19»; a bare «3.2.1» after «п.» is still that item.
    alts = (ref,) if marker == "ст" else (ref, token.key)
    return Token(token.word, (ref, *token.keys), alts, "ref")


def tokens(text: str) -> list[Token]:
    """Analyse ``text`` into tokens in reading order (stopwords marked, not removed)."""
    return [t for _start, _end, t in token_spans(normalize_text(text), _caps_words(text))]


def token_spans(normalized: str, caps: frozenset[str] = frozenset()) -> Iterator[tuple[int, int, Token]]:
    """Tokens of already normalized text with the ``[start, end)`` of the word each came from."""
    held: tuple[int, int, Token] | None = None  # a marker word waiting to see what follows it
    for m in WORD.finditer(normalized):
        word = m.group()
        for tok in _split_word(word, word in caps):
            if held is not None:
                start, end, mark = held
                held = None
                if tok.kind == "number":
                    # The number now carries the reference; the marker is no query concept of its own.
                    yield start, end, Token(mark.word, mark.keys, mark.alts, mark.kind, stop=True)
                    yield m.start(), m.end(), _with_ref(_MARKERS[mark.key], tok)
                    continue
                yield start, end, mark
            if tok.kind == "word" and tok.key in _MARKERS:
                held = (m.start(), m.end(), tok)
            else:
                yield m.start(), m.end(), tok
    if held is not None:
        yield held


def index_text(text: str) -> str:
    """The key string FTS5 indexes for ``text``: every key of every token, space-separated."""
    return " ".join(k for t in tokens(text) for k in t.keys)


def query_tokens(text: str) -> list[Token]:
    """Tokens of a query without its stopwords, unless nothing else would remain."""
    toks = tokens(text)
    content = [t for t in toks if not t.stop]
    return content or toks


def keys(text: str) -> list[str]:
    """Primary keys of a query, in order (what a result reports as the analysed query)."""
    return list(dict.fromkeys(t.key for t in query_tokens(text)))


def snippet_span(
    text: str, wanted: list[frozenset[str]], *, prefix: bool = False, width: int = 300, needles: list[str] | None = None
) -> tuple[int, int, int]:
    """Offsets ``(start, end, match)`` of ``text`` around the densest cluster of wanted keys.

    The window is about ``width`` characters; ``match`` is where its first match starts (the
    beginning of the body when nothing matched).

    ``wanted`` holds one key set per query concept; the window covering the most distinct concepts
    wins, the earliest on a tie. The cut falls on whitespace, and a leading ``#`` heading line is
    skipped (the title is reported separately). With ``prefix`` a key matches words it begins;
    ``needles`` are normalized strings to look for as substrings instead (the substring fallback).
    """
    skip = text.index("\n") + 1 if text.startswith("#") and "\n" in text else 0
    body = text[skip:]
    norm = normalize(body)
    hits = _key_hits(norm.text, wanted, prefix)  # (position in norm.text, concept index)
    for i, needle in enumerate(needles or []):
        at = norm.text.find(needle)
        if at >= 0:
            hits.append((at, i))
    hits.sort()
    first = _densest(hits, width * 4 // 5)
    a = max(0, first - width // 5)  # some context before the first match
    b = min(len(norm.text), a + width)
    if b <= a:
        return skip, skip, skip
    start, end = _cut_at_spaces(body, *norm.span(a, b))
    return skip + start, skip + end, skip + norm.span(first, first)[0]


def _key_hits(norm: str, wanted: list[frozenset[str]], prefix: bool) -> list[tuple[int, int]]:
    """Where words with the wanted keys start in normalized text, found without analysing every word."""
    frags = {
        REFERENCE_KEY.sub("", k).replace("_", "[-./_]") if _DIGIT.search(k) else re.escape(k)
        for ks in wanted
        for k in ks
    }
    if not frags:
        return []
    starts = re.compile(rf"(?<![^\W_])(?:{'|'.join(sorted(frags, key=len, reverse=True))})")
    # A reference's article key («ст_19») needs its «ст.», which one word does not show: its number will do.
    keysets = [ks | {REFERENCE_KEY.sub("", k) for k in ks} for ks in wanted]
    hits = []
    for m in starts.finditer(norm):
        word = WORD.match(norm, m.start())
        for tok in _split_word(word.group(), False) if word else ():
            for i, keyset in enumerate(keysets):
                if keyset.intersection(tok.keys) or (prefix and any(k.startswith(w) for k in tok.keys for w in keyset)):
                    hits.append((m.start(), i))
    return hits


def snippet(text: str, wanted: list[frozenset[str]], **options: Any) -> str:
    """The verbatim text of :func:`snippet_span`."""
    a, b, _match = snippet_span(text, wanted, **options)
    return text[a:b]


def _densest(hits: list[tuple[int, int]], span: int) -> int:
    """Start of the window of ``span`` characters holding the most distinct concepts."""
    best, best_at, counts, lo = 0, hits[0][0] if hits else 0, dict[int, int](), 0
    for pos, concept in hits:
        counts[concept] = counts.get(concept, 0) + 1
        while hits[lo][0] < pos - span:
            gone = hits[lo][1]
            counts[gone] -= 1
            if not counts[gone]:
                del counts[gone]
            lo += 1
        if len(counts) > best:
            best, best_at = len(counts), hits[lo][0]
    return best_at


def _cut_at_spaces(text: str, start: int, end: int, reach: int = 40) -> tuple[int, int]:
    """``[start, end)`` widened so that no word is cut in half, then stripped of outer whitespace."""
    a = start
    while a > 0 and start - a < reach and not text[a - 1].isspace():
        a -= 1
    if a > 0 and not text[a - 1].isspace():
        a = start  # a very long "word": keep the cut rather than reach further
    b = end
    while b < len(text) and b - end < reach and not text[b].isspace():
        b += 1
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b
