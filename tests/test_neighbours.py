"""A word the shelf never says is searched by the shelf's nearest words in meaning, and the result says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_search import _make_shelf

from docshelf.server.ops import Metrics, Readiness
from docshelf.server.pin import Pin
from docshelf.text import neighbours, search
from docshelf.text.indexcache import open_index

needs_vectors = pytest.mark.skipif(not neighbours.available(), reason="docshelf[semantic] is not installed")

LAW = """# О торговле

## Статья 3. Доставка

1. Автомобиль для доставки товаров проходит осмотр перед каждым рейсом.

## Статья 4. Права покупателя

1. Покупатель вправе вернуть товар надлежащего качества в течение четырнадцати дней.
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _make_shelf(tmp_path_factory.mktemp("shop") / "shelf", [("shop.md", "laws", "Закон о торговле", LAW)])


@needs_vectors
def test_an_everyday_word_finds_the_word_the_law_uses(shop: Path) -> None:
    result = search.search(shop, "осмотр машины")  # the law says «автомобиль», never «машина»
    assert result.hits[0].clause == "ст. 3"
    assert "No section says «машины»: searched for the nearest words in meaning instead (автомобиль" in result.note


@needs_vectors
def test_a_query_of_absent_words_only_goes_to_the_lexical_fallbacks(shop: Path) -> None:
    result = search.search(shop, "машины")
    assert (result.mode, result.hits) == ("none", [])
    assert "nearest words" not in result.note


@needs_vectors
def test_a_word_the_shelf_says_is_not_guessed(shop: Path) -> None:
    result = search.search(shop, "права покупателя")
    assert "nearest words" not in result.note
    assert result.hits[0].clause == "ст. 4"


def test_without_the_extra_an_absent_word_is_named_not_guessed(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(neighbours, "model", lambda: None)  # what the default install sees
    result = search.search(shop, "осмотр машины")
    assert "No section has these words: машины" in result.note
    assert "nearest words" not in result.note


@needs_vectors
def test_a_served_commit_is_warmed_before_its_first_guess(shop: Path) -> None:
    pin = Pin.at(shop)
    commit = pin.current
    found = neighbours.model()
    assert found is not None
    found._shelves.clear()
    Readiness(shop, pin, Metrics()).prepare(commit)
    index = open_index(shop, commit)
    assert (index.setting("build") or commit) in found._shelves  # the matrix of this commit's words is built


@needs_vectors
def test_english_words_are_not_guessed_from_russian_news_vectors(shop: Path) -> None:
    result = search.search(shop, "осмотр truck")  # navec's few English words sit among noise
    assert "nearest words" not in result.note and "truck" in result.note


@needs_vectors
def test_the_matrix_of_a_large_vocabulary_keeps_the_words_most_sections_say(
    shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = neighbours.model()
    assert found is not None
    found._shelves.clear()
    monkeypatch.setattr(neighbours, "MAX_WORDS", 2)
    index = open_index(shop, Pin.at(shop).current)
    words, matrix = found.shelf(index)
    assert len(words) == 2 and matrix.shape == (2, 300)
    assert words == ["закон", "торговле"]  # the document's name is in every section's keys; the rest in fewer
    found._shelves.clear()
