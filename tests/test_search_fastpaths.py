"""The quick paths of search give what the plain code they replace gives; what readers keep is per written file."""

from __future__ import annotations

import random
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from test_search import DOCS, _make_shelf

from docshelf.text import fts5index, indexcache, search, snippets
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


def test_a_rebuilt_index_is_not_answered_from_what_was_read_of_the_old_one(tmp_path: Path) -> None:
    """Key rows are kept per written file (its build stamp), not per path: a rebuild of the same commit differs."""
    root = _make_shelf(tmp_path / "shelf", DOCS[:2])
    first = search.search(root, "оператор")
    target = indexcache.index_path(root, first.commit)
    index = indexcache.open_index(root, first.commit)
    before = index.keys(range(1, index.total() + 1))
    with closing(sqlite3.connect(target)) as db:  # the same ids, other keys: only a stale cache would hide it
        db.execute("UPDATE keys SET data = (SELECT data FROM keys ORDER BY id LIMIT 1)")
        db.execute("UPDATE meta SET value = 'another file' WHERE key = 'build'")
        db.commit()
    other = fts5index.Fts5Index(sqlite3.connect(f"{target.as_uri()}?mode=ro", uri=True), first.commit)
    after = other.keys(range(1, index.total() + 1))
    assert sorted(after) == sorted(before) and len({r.body for r in after.values()}) == 1 < len(before)


def test_threads_searching_at_once_get_what_one_thread_gets(tmp_path: Path) -> None:
    root = _make_shelf(tmp_path / "shelf", DOCS[:2])
    queries = ["оператор", "персональные данные", "согласие субъекта", "ст. 6", "обработка"] * 4
    alone = [search.search(root, q) for q in queries]
    results: dict[int, list[search.SearchResult]] = {}

    def run(n: int) -> None:
        results[n] = [search.search(root, q) for q in queries]

    threads = [threading.Thread(target=run, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == alone for r in results.values())
