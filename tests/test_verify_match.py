"""Quote matching inside one section's normalized text: whole words, dropped negations, closest passages."""

from __future__ import annotations

import random

import pytest

from docshelf.text.normalize import normalize, normalize_text
from docshelf.text.quotematch import closest_window, locate, norm_range, word_diff


def spans(text: str, quote: str) -> list[tuple[int, int]] | None:
    norm = normalize(text)
    return locate(norm, text, [normalize_text(quote)], 0, len(norm.text)).spans


@pytest.mark.parametrize(
    ("text", "quote", "found"),
    [
        ("в соответствии со статьей 15.1 настоящего закона", "в соответствии со статьей 15", False),
        ("в соответствии со статьей 15 настоящего закона", "в соответствии со статьей 15", True),
        ("согласно приложению № 1.2 к приказу", "согласно приложению № 1.", False),
        ("согласно приложению № 1. Акт хранится", "согласно приложению № 1.", True),
        ("требования статьи 10.2-1 закона", "требования статьи 10.2", False),
        ("создать интернет-ресурс для данных", "создать интернет", False),
        ("на основании 152-ФЗ и 149-ФЗ", "152-ФЗ и 149", False),
        ("меры защиты УПД.1 и УПД.10", "меры защиты УПД.1 и УПД.1", False),
        ("пункт 2.1 части 2", "1 части 2", False),
        ("пункт 2.1 части 2", "пункт 2.1 части 2", True),
    ],
)
def test_a_quote_never_cuts_a_number_or_an_identifier(text: str, quote: str, found: bool) -> None:
    assert (spans(text, quote) is not None) is found


@pytest.mark.parametrize(
    ("text", "quote", "negation"),
    [
        ("Не допускается обработка данных без согласия.", "допускается обработка данных без согласия", "не"),
        ("The client MUST NOT send data.", "The client MUST", "not"),
        ("There is no limit on the number of retries.", "limit on the number of retries", "no"),
        ("Данные не могут использоваться иначе.", "Данные не могут использоваться иначе", ""),
        # A sentence that ends before one that begins with a negation is whole.
        ("Данные хранятся на стенде. Не допускается их передача.", "Данные хранятся на стенде.", ""),
        # Another table cell or a new paragraph with a capital letter is other text.
        ("| System Component | No |", "System Component", ""),
        ("# Охрана водных объектов\n\nНе допускается сброс.", "Охрана водных объектов", ""),
        # A sentence a converter broke over a blank line keeps its «не».
        ("пользователи без разрешения\n\nне могут менять атрибуты", "пользователи без разрешения", "не"),
    ],
)
def test_a_negation_right_next_to_the_quote_is_reported(text: str, quote: str, negation: str) -> None:
    norm = normalize(text)
    spot = locate(norm, text, [normalize_text(quote)], 0, len(norm.text))
    assert spot.spans is not None and spot.negation == negation


def test_a_later_occurrence_without_the_negation_wins() -> None:
    text = "Не допускается передача данных. Допускается передача данных оператору."
    norm = normalize(text)
    spot = locate(norm, text, [normalize_text("передача данных")], 0, len(norm.text))
    assert spot.negation == "" and spot.spans and norm.text[spot.spans[0][0] - 12 : spot.spans[0][0]] == "допускается "


def test_the_range_of_a_clause_includes_its_last_character() -> None:
    text = "1. Первая часть.\n\n2. Вторая часть, приложение № 1.\n"
    norm = normalize(text)
    start = text.index("2.")
    lo, hi = norm_range(norm, start, len(text) - 1)
    assert norm.text[lo:hi] == "2. вторая часть, приложение № 1."


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 8, 40])
@pytest.mark.parametrize("n", [1, 2, 6, 30, 300])
def test_the_closest_window_exists_for_any_sizes(size: int, n: int) -> None:
    rng = random.Random(size * 1000 + n)
    vocabulary = ["оператор", "вправе", "обязан", "данные", "may", "must", "не", "1"]
    text = " ".join(rng.choice(vocabulary) for _ in range(size))
    quote = [rng.choice(vocabulary) for _ in range(n)]
    norm = normalize(text)
    window = closest_window(norm, 0, len(norm.text), quote)
    if size == 0:
        assert window is None
    else:
        assert window is not None and 0 <= window[1] < window[2] <= len(norm.text) and 0 <= window[0] <= 1


def test_the_closest_window_finds_the_changed_sentence() -> None:
    text = "Первое предложение о другом. Оператор вправе создать отдельный ресурс для данных. Третье предложение."
    norm = normalize(text)
    window = closest_window(norm, 0, len(norm.text), "оператор обязан создать отдельный ресурс для данных".split())
    assert (
        window is not None and norm.text[window[1] : window[2]] == "оператор вправе создать отдельный ресурс для данных"
    )


def test_word_diff_names_punctuation_when_the_words_agree() -> None:
    assert word_diff("Оператор обязан создать", "Оператор вправе создать") == [
        {"op": "replace", "source": "вправе", "quote": "обязан"}
    ]
    assert word_diff("данные (доступ) к ним", "данные, доступ к ним") == [
        {"op": "replace", "source": "данные, доступ", "quote": "данные (доступ)"}
    ]


def test_an_ellipsis_is_a_gap_only_where_the_source_has_no_dots_of_its_own() -> None:
    toc = "Security Restrictions Related to Backward Compatibility ...141 Overview of Security Properties ...149"
    norm = normalize(toc)
    altered = [normalize_text("Security Restrictions Related to Backward Compatibility"), "149"]
    assert locate(norm, toc, altered, 0, len(norm.text)).spans is None
    law = "Оператор обязан принять меры и в течение 30 дней уведомить орган."
    norm = normalize(law)
    gap = [normalize_text("Оператор обязан"), normalize_text("в течение 30 дней уведомить орган.")]
    assert locate(norm, law, gap, 0, len(norm.text)).spans is not None
