"""The typography a model produces normalizes like the shelf's text (quotes, dashes, spaces, ё, emphasis)."""

from __future__ import annotations

import pytest

from docshelf.text.normalize import WORD, normalize, normalize_text, words

SOURCE = "Оператор — лицо, «организующее» обработку; учёт ведётся\u00a0в журнале № 1."


@pytest.mark.parametrize(
    "typed",
    [
        'Оператор - лицо, "организующее" обработку; учет ведется в журнале № 1.',
        "Оператор – лицо, „организующее“ обработку; учёт ведётся в журнале № 1.",
        "Оператор \u2014 лицо, \u201cорганизующее\u201d обработку; учёт ведётся в журнале №\u00a01.",
        "Оператор  —  лицо,  «организующее»\nобработку;  учёт  ведётся  в  журнале  № 1.",
        "ОПЕРАТОР — ЛИЦО, «ОРГАНИЗУЮЩЕЕ» ОБРАБОТКУ; УЧЁТ ВЕДЁТСЯ В ЖУРНАЛЕ № 1.",
        "**Оператор** — лицо, «_организующее_» обработку; учёт *ведётся* в журнале № 1.",
        "Оператор \u2212 лицо, «организующее» обра\u00adботку; учёт ведётся в журнале № 1.",
    ],
)
def test_a_model_typed_quote_normalizes_like_the_source(typed: str) -> None:
    assert normalize_text(typed) == normalize_text(SOURCE)


@pytest.mark.parametrize(
    ("typed", "source"),
    [
        ("the server's Random value", "the server\u2019s Random value"),
        ("Intermediate\u2011CA", "Intermediate-CA"),
        ("а\u202fименно", "а именно"),
        ("ст.\u00a012", "ст. 12"),
    ],
)
def test_apostrophes_hyphens_and_narrow_spaces(typed: str, source: str) -> None:
    assert normalize_text(typed) == normalize_text(source)


def test_the_shared_word_pattern_is_the_one_words_uses() -> None:
    text = normalize_text("ст. 10.2-1 152-ФЗ УПД.1 № 5 и т.д.")
    assert [m.group() for m in WORD.finditer(text)] == words(text)


def test_offsets_grow_monotonically_so_spans_can_be_bisected() -> None:
    text = "> заметка\n\n**Статья 1.** Текст «в кавычках» — и ё, и\u00a0NBSP, и пере-\nнос, и ²."
    norm = normalize(text)
    assert all(a <= b for a, b in zip(norm.offsets, norm.offsets[1:], strict=False))
    assert all(a <= b for a, b in zip(norm.ends, norm.ends[1:], strict=False))
