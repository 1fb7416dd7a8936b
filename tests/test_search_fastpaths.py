"""The quick paths of search give exactly what the plain code they replace gives (random texts, seeded)."""

from __future__ import annotations

import random

from docshelf.text import snippets
from docshelf.text.analyzer import WORD

_ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБЕЁСТabcdeST0123456789 ..-/_,;!?\n\t\u00a0\u2013\u2014\u2212\u00ad«»()"


def _texts(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    words = ["ст", "т.д", "т.е", "п", "подп", "e.g", "Ст", "ПОДП", "статья", "упд.1", "ии-системам", "152-фз"]
    out = []
    for _ in range(n):
        parts = [rng.choice(words) if rng.random() < 0.3 else "" for _ in range(rng.randint(1, 30))]
        out.append("".join(p + "".join(rng.choices(_ALPHABET, k=rng.randint(0, 9))) for p in parts))
    return out


def test_abbreviation_window_agrees_with_the_full_search() -> None:
    for text in _texts(1200):
        for stop in range(len(text) + 1):
            for begin in {0, stop // 2, max(0, stop - 3), stop}:
                full = snippets._WORD_BEFORE.search(text, begin, stop)
                expected = bool(full and full.group(1).casefold() in snippets._ABBREVIATIONS)
                assert snippets._abbreviation_before(text, begin, stop) == expected, (text, begin, stop)


def test_replaced_is_translate() -> None:
    for pairs in (snippets._QUICK, snippets._SEPARATORS):
        table = str.maketrans(dict(pairs))
        for text in _texts(500, seed=5):
            assert snippets._replaced(text.lower(), pairs) == text.lower().translate(table)


def test_candidate_words_agree_with_word_by_word_translation() -> None:
    table = str.maketrans(dict(snippets._SEPARATORS))
    keysets = [frozenset({"ст", "систем"}), frozenset({"152_ф", "упд_1", "д"}), frozenset({"е"})]
    for text in _texts(1000, seed=3):
        text = text.lower()
        for wanted in keysets:
            prefixes = tuple(wanted)
            expected = []
            for m in WORD.finditer(text):
                word = m.group()
                parts = [word] if "-" not in word else [word, *word.split("-")]
                if any(p.translate(table).startswith(prefixes) for p in parts):
                    expected.append((m.start(), word))
            assert snippets._candidate_words(text, [wanted]) == expected, (text, wanted)
