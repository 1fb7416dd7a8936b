"""A quoted phrase is a requirement: the hits say it as written, or the note says none does."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_search import _make_shelf

from docshelf.errors import SearchError
from docshelf.text import querysyntax, search
from docshelf.text.analyzer import index_text

LAW = """# О сроках

## Статья 2. Срок хранения

1. Срок хранения документов составляет пять лет.

## Статья 3. Хранение в архиве

1. Документы передаются в архив; срок их учета в архиве и порядок хранения определяет руководитель.
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ('"срок хранения" документов', ["срок хранения"]),
        ("«срок хранения» и „порядок учета“", ["срок хранения", "порядок учета"]),
        ('"срок" хранения', []),  # one quoted word is just a word
        ('"незакрытая кавычка', []),
        ("«срок хранения", []),  # quotes that do not pair up are no phrase
        ('«срок "хранения»', ['срок "хранения']),  # a straight quote inside guillemets is a character
    ],
)
def test_which_quotes_make_a_phrase(query: str, found: list[str]) -> None:
    assert [p.written for p in querysyntax.quoted(query)] == found


def test_a_phrase_is_said_in_order_word_forms_aside() -> None:
    (phrase,) = querysyntax.quoted('"срок хранения"')
    assert querysyntax.says(f" {index_text('Сроки хранения документов')} ", phrase)
    assert not querysyntax.says(f" {index_text('хранения срок')} ", phrase)
    assert not querysyntax.says(f" {index_text('срок их учета в архиве и порядок хранения')} ", phrase)
    assert not querysyntax.says(f" {index_text('срок, указанный в законе, хранения')} ", phrase)
    (ident,) = querysyntax.quoted("«152-ФЗ ст. 19»")  # an identifier's backoff keys stand between the words
    assert querysyntax.says(f" {index_text('нарушение 152-ФЗ ст. 19 ч. 1')} ", ident)
    (acronym,) = querysyntax.quoted('"защита ИСПДн"')  # the text writes the acronym in capitals: a raw key too
    assert querysyntax.says(f" {index_text('Защита ИСПДн от угроз')} ", acronym)


@pytest.fixture(scope="module")
def terms(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _make_shelf(tmp_path_factory.mktemp("terms") / "shelf", [("terms.md", "laws", "Закон о сроках", LAW)])


def test_quoted_words_keep_only_the_sections_saying_them_together(terms: Path) -> None:
    loose = search.search(terms, "срок хранения в архиве")
    assert [h.clause for h in loose.hits] == ["ст. 3", "ст. 2"]  # the archive article says all three words
    quoted = search.search(terms, '"срок хранения" в архиве')
    assert [h.clause for h in quoted.hits] == ["ст. 2"]
    assert "as quoted" not in quoted.note


def test_a_phrase_no_section_says_keeps_the_ranking_and_says_so(terms: Path) -> None:
    result = search.search(terms, '"хранения срок" документов')
    assert result.hits and result.low_confidence
    assert "No section found says «хранения срок» as quoted" in result.note


@pytest.mark.parametrize(
    ("query", "rest", "gone"),
    [
        ("персональные данные -биометрические", "персональные данные", ["биометрические"]),
        ('-"специальные категории" данные', "данные", ["специальные категории"]),
        ("ст. 10.2-1 e-mail", "ст. 10.2-1 e-mail", []),  # hyphens inside words
        ("данные - сколько", "данные - сколько", []),  # a dash between spaces
    ],
)
def test_which_words_a_minus_excludes(query: str, rest: str, gone: list[str]) -> None:
    text, banned = querysyntax.excluded(query)
    assert " ".join(text.split()) == rest
    assert [p.written for p in banned] == gone


def test_an_excluded_word_is_in_no_hit_in_any_form(terms: Path) -> None:
    assert sorted(h.clause for h in search.search(terms, "документы").hits) == ["ст. 2", "ст. 3"]
    result = search.search(terms, "хранение -документ")  # both articles say «документов»/«Документы»
    assert result.hits == [] and result.low_confidence
    assert "Every match said an excluded word" in result.note
    archive = search.search(terms, "документы -архивом")
    assert [h.clause for h in archive.hits] == ["ст. 2"] and "Excluded «архивом»: 1 of" in archive.note


def test_a_query_of_excluded_words_only_is_refused(terms: Path) -> None:
    with pytest.raises(SearchError, match="only excludes words"):
        search.search(terms, "-срок")


def test_an_excluded_identifier_is_the_identifier_not_its_parts() -> None:
    _text, (ident,) = querysyntax.excluded("оператор -152-ФЗ")
    assert querysyntax.says(f" {index_text('нарушение 152-ФЗ')} ", ident)
    assert not querysyntax.says(f" {index_text('закон 149-ФЗ, пункт 152')} ", ident)  # its backoff keys alone
    _text, (word,) = querysyntax.excluded("данные -биометрические")
    assert querysyntax.says(f" {index_text('Биометрических персональных данных')} ", word)  # another form
